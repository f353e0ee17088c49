"""Typesetting a :class:`kitgen.booklet.book.Booklet` into PDF pages with reportlab's
platypus: the page, the document and its page references, and how many card columns a
diagram gets.
"""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.pdfbase.pdfmetrics import registerFontFamily, stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    PageTemplate,
)
from reportlab.platypus.doctemplate import LayoutError

from reference_engine.api import RenderError

from ..core.units import mm
from ..lang.catalogue import _
from ..paper.faces import FONT, FONT_BOLD, ensure_fonts
from .book import Booklet
from .diagram import geometry
from .flowables import CARD_RATIO, Anchor
from .paragraphs import Heading
from .parts import booklet_style
from .writer import Writer


class _Doc(BaseDocTemplate):
    def __init__(self, path: str, pagesize: tuple[float, float], margin: float, title: str, footer: str):
        super().__init__(
            path,
            pagesize=pagesize,
            leftMargin=margin,
            rightMargin=margin,
            topMargin=margin,
            bottomMargin=margin + mm(4),
            title=title,
            author="kitgen",
            creator="kitgen",
            subject=footer,
            invariant=1,
            initialFontName=FONT,
            initialFontSize=9,
        )
        self.footer = footer
        frame = Frame(self.leftMargin, self.bottomMargin, self.width, self.height, id="body")
        self.addPageTemplates(
            [
                PageTemplate("cover", [frame]),
                PageTemplate("body", [frame], onPage=self._decorate),
            ]
        )

    def _decorate(self, c: Canvas, doc: BaseDocTemplate) -> None:
        c.saveState()
        c.setFont(FONT, 7)
        c.setFillColor(HexColor("#555555"))
        w, _height = self.pagesize
        page = _("page {page}").format(page=doc.page)
        room = self.width - stringWidth(page, FONT, 7) - mm(4)
        c.drawString(self.leftMargin, self.bottomMargin - mm(7), fitted(self.footer, room, FONT, 7))
        c.drawRightString(w - self.rightMargin, self.bottomMargin - mm(7), page)
        c.restoreState()

    def afterFlowable(self, flowable: Flowable) -> None:
        if isinstance(flowable, Anchor):
            self.notify("PageRef", (flowable.key, self.page))
        if isinstance(flowable, Heading):
            level, key = flowable.toc_level, flowable.key
            self.canv.bookmarkHorizontalAbsolute(key, flowable.top)  # the heading's own height
            self.canv.addOutlineEntry(flowable.text, key, level, closed=level > 0)
            self.notify("TOCEntry", (level, flowable.toc_markup, self.page, key))


def fitted(footer: str, room: float, font: str, size: float) -> str:
    """``footer`` (a booklet's title, `` · kitgen `` and its name) as it fits in ``room`` points:
    whole, or its title cut short after a whole word with an ellipsis and the name kept, or,
    where even the name does not fit, cut short itself. A long title ran into the page number and
    off the page; a title cut inside a word left a fragment (a lone ``t``) that reads as a spec's
    name to the plain-words check."""
    if stringWidth(footer, font, size) <= room:
        return footer
    title, sep, name = footer.rpartition(" · ")
    keep = f"… · {name}" if sep and stringWidth(f"… · {name}", font, size) <= room else "…"
    words = (title if keep != "…" else footer).split(" ")
    while len(words) > 1 and stringWidth(_cut(words) + keep, font, size) > room:
        words.pop()
    head = _cut(words)
    while head and stringWidth(head + keep, font, size) > room:  # one word longer than the room
        head = head[:-1]
    return head + keep


def _cut(words: list[str]) -> str:
    """Words before an ellipsis, without the punctuation that would dangle before it."""
    return " ".join(words).rstrip(" ,;:([·-")


def diagram_capacity(paper: tuple[float, float], a5: bool) -> int:
    """How many card columns a step diagram shows on this page before it elides."""
    style = booklet_style()
    w, _ = page_size(paper, a5)
    margin = style.margin_a5 if a5 else style.margin
    return geometry(CARD_RATIO, w - 2 * margin, style.card_width)[1]


def page_size(paper: tuple[float, float], a5: bool) -> tuple[float, float]:
    """The booklet's page: the paper itself, or half of it (A5 from A4) for a saddle booklet."""
    w, h = paper
    return (h / 2, w) if a5 else (w, h)


def render_booklet(path: Path, booklet: Booklet, paper: tuple[float, float], a5: bool = False) -> int:
    """Write ``booklet`` to ``path``; returns the number of pages."""
    ensure_fonts()
    registerFontFamily(FONT, normal=FONT, bold=FONT_BOLD, italic=FONT, boldItalic=FONT_BOLD)
    style = booklet_style()
    size = page_size(paper, a5)
    margin = style.margin_a5 if a5 else style.margin
    doc = _Doc(str(path), size, margin, booklet.title, f"{booklet.title} · kitgen {booklet.name}")
    writer = Writer(booklet, style, doc.width, doc.height)
    try:
        doc.multiBuild(writer.story())
    except LayoutError:  # the loader's text limits keep every part within a page; if not, one line
        raise RenderError(
            f"cannot typeset {path.name}: a part of the booklet is larger than a page (page {doc.page})"
        ) from None
    return int(doc.page)
