"""A game booklet's first chapters (:mod:`kitgen.booklet.frontmatter`) as HTML, for the kit's
``index.html``: the same chapters, paragraphs, tables and pictures the PDF draws (cards as
images, the whole table as an SVG plan), without page numbers. Every text is escaped."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from ..booklet.frontmatter import Block, Box, Checklist, FrontSection, Gap, Grid, Picture, Text, without_pages
from ..booklet.prose import plain_text
from ..booklet.tableplan import TablePlan
from ..lang.catalogue import _
from ..lang.seats import seat_name
from ..paper.faces import Face
from .viewer import card_pictures

CSS = """
.front h3 { margin-top: 1.5rem; } .front .box { background: #f4f4f4; border-left: 3px solid #0072b2;
  padding: 0.2rem 0.8rem; margin: 0.5rem 0; } .front .box.warning { border-left-color: #b00020; }
.front img.card { height: 3.2rem; margin-right: 0.2rem; vertical-align: middle; }
.front svg { max-width: 40rem; background: #f3ebdd; } .front .small { font-size: 0.9rem; color: #555; }
"""


def _faces(chapters: Sequence[FrontSection]) -> list[Face]:
    out: list[Face] = []
    for chapter in chapters:
        for block in chapter.blocks:
            cells = [c for row in block.rows for c in row] if isinstance(block, Grid) else [block]
            for cell in cells:
                if isinstance(cell, Picture):
                    out += [f for f in cell.faces if f not in out]
    return out


class FrontHtml:
    """Draws chapters; ``plan`` is the booklet's table plan (a ``table_plan`` picture)."""

    def __init__(self, chapters: Sequence[FrontSection], plan: TablePlan | None, ink_saver: bool = False):
        self.chapters = chapters
        self.plan = plan
        faces = _faces(chapters)
        uris, _ = card_pictures({str(i): f for i, f in enumerate(faces)}, ink_saver) if faces else ({}, "")
        self.src = {f: uris[str(i)] for i, f in enumerate(faces)}

    def html(self) -> str:
        parts = [f"<style>{CSS}</style>", '<div class="front">']
        for chapter in self.chapters:
            parts.append(f"<h3>{escape(chapter.title)}</h3>")
            parts += [self.block(b) for b in chapter.blocks]
        parts.append("</div>")
        return "\n".join(p for p in parts if p)

    def block(self, block: Block) -> str:
        if isinstance(block, Text):
            return self.text(block)
        if isinstance(block, Gap):
            return ""
        if isinstance(block, Box):
            rows = "".join(self.text(t) for t in block.rows)
            return f'<div class="box {escape(block.colour)}">{rows}</div>'
        if isinstance(block, Grid):
            out = ["<table>"]
            for i, row in enumerate(block.rows):
                tag = "th" if i == 0 else "td"
                cells = "".join(f"<{tag}>{self.cell(c, block.spec)}</{tag}>" for c in row)
                out.append(f"<tr>{cells}</tr>")
            return "\n".join([*out, "</table>"])
        if isinstance(block, Picture):
            return f"<p>{self.picture(block)}</p>"
        items = "".join(f"<li>{escape(without_pages(i))}</li>" for i in block.items)
        assert isinstance(block, Checklist)
        return f'<ol class="checklist">{items}</ol>'

    def cell(self, c: str | Picture, spec: bool) -> str:
        return self.picture(c) if isinstance(c, Picture) else escape(self.words(c, spec))

    def words(self, text: str, spec: bool) -> str:
        return plain_text(text) if spec else text

    def text(self, t: Text) -> str:
        body = escape(self.words(t.text, t.spec))
        if t.style == "h2":
            return f"<h4>{body}</h4>"
        lead = f"<b>{escape(t.lead)}</b> " if t.lead else ""
        cls = ' class="small"' if t.style == "small" else ""
        return f"<p{cls}>{lead}{body}</p>"

    def picture(self, p: Picture) -> str:
        if p.kind == "table_plan":
            return self.table_plan()
        return "".join(
            f'<img class="card" src="{self.src[f]}" alt="{escape(f.title)}" title="{escape(f.title)}">'
            for f in p.faces
        )

    def table_plan(self) -> str:
        """The whole table from above: the table, each place and pile as a labelled rectangle."""
        if self.plan is None:
            return ""
        x0, y0, x1, y1 = self.plan.extent()
        view = f"{x0:.1f} {-y1:.1f} {x1 - x0:.1f} {y1 - y0:.1f}"
        shapes = [
            f'<rect x="0" y="{-self.plan.depth:.1f}" width="{self.plan.width:.1f}" '
            f'height="{self.plan.depth:.1f}" fill="#f3ebdd" stroke="#8c7a5b"/>'
        ]
        for b in self.plan.boxes:
            shapes.append(
                f'<rect x="{b.x:.1f}" y="{-(b.y + b.h):.1f}" width="{b.w:.1f}" height="{b.h:.1f}" '
                'fill="#fff" stroke="#4d4d4d" stroke-width="0.2"/>'
            )
            if b.text:
                # A place's name as the booklet's picture says it (the engine's "Virtual 1" stood in
                # English on the Japanese index).
                text = seat_name(b.text) if b.what in ("seat", "pile", "owner") else b.text
                shapes.append(
                    f'<text x="{b.x + b.w / 2:.1f}" y="{-(b.y + b.h / 2):.1f}" font-size="2.5" '
                    f'text-anchor="middle">{escape(text)}</text>'
                )
        label = _("the table from above")
        return f'<svg viewBox="{view}" role="img" aria-label="{label}">{"".join(shapes)}</svg>'


def front_html(chapters: Sequence[FrontSection], plan: TablePlan | None, ink_saver: bool = False) -> str:
    """The chapters as an HTML fragment (with its own styles)."""
    return FrontHtml(chapters, plan, ink_saver).html()


__all__ = ["front_html"]
