"""A game booklet's first chapters (the kit, set-up, rules, a turn ...) as data.

Each kit kind says what its chapters hold (:meth:`kitgen.kinds.kind.KitKind.front_sections`):
a list of :class:`FrontSection`, each a title and a few blocks: paragraphs (:class:`Text`),
tables (:class:`Grid`), shaded boxes (:class:`Box`), pictures (:class:`Picture`: cards, the
whole table from above), gaps and the first-turn checklist (:class:`Checklist`). The booklet
carries them (``booklet.json``'s ``front``); :mod:`kitgen.booklet.typesetting` draws them on the PDF's
pages and :mod:`kitgen.web.kitindex` on the kit's ``index.html``.

Lengths are in millimetres. A :class:`Grid` gives the widths of its columns but the last, which
takes the rest of the page. Texts may hold page references (``{page:title:TITLE}``,
``{page:step:...}``): the PDF fills in the page, the HTML page leaves them out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..paper.faces import Face


@dataclass(frozen=True)
class Text:
    """A paragraph: ``lead`` words in bold first; ``style`` body, small or h2 (a sub-heading);
    ``spec`` marks a spec's own prose (``P_1`` is set with a subscript)."""

    text: str
    lead: str = ""
    style: str = "body"
    spec: bool = False

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"type": "text", "style": self.style, "text": self.text}
        if self.lead:
            out["lead"] = self.lead
        return out


@dataclass(frozen=True)
class Picture:
    """Cards drawn in a row (``cards``: each ``width`` mm wide, ``pitch`` mm apart; one card in a
    table's cell), or the whole table from above (``table_plan``: the booklet's own plan)."""

    kind: str
    faces: tuple[Face, ...] = ()
    width: float = 0.0
    pitch: float = 0.0

    def to_json(self) -> dict[str, object]:
        return {"type": "picture", "kind": self.kind, "cards": [f.title for f in self.faces]}


Cell = str | Picture


@dataclass(frozen=True)
class Grid:
    """A table whose first row is its header; ``widths``: the columns' but the last, in mm."""

    rows: tuple[tuple[Cell, ...], ...]
    widths: tuple[float, ...]
    spec: bool = False

    def to_json(self) -> dict[str, object]:
        return {
            "type": "table",
            "rows": [[c.to_json() if isinstance(c, Picture) else c for c in row] for row in self.rows],
        }


@dataclass(frozen=True)
class Box:
    """Paragraphs in a shaded box with a coloured rule (``accent``, ``warning``)."""

    rows: tuple[Text, ...]
    colour: str = "accent"

    def to_json(self) -> dict[str, object]:
        return {"type": "box", "colour": self.colour, "rows": [r.to_json() for r in self.rows]}


@dataclass(frozen=True)
class Gap:
    """Space between blocks, in mm."""

    height: float

    def to_json(self) -> dict[str, object]:
        return {"type": "gap"}


@dataclass(frozen=True)
class Checklist:
    """Numbered boxes to tick, on a page of their own (the PDF sets the type to fit)."""

    items: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        return {"type": "checklist", "items": [without_pages(i) for i in self.items]}


Block = Text | Picture | Grid | Box | Gap | Checklist


@dataclass(frozen=True)
class FrontSection:
    """A chapter: its heading (in the contents), its blocks; ``new_page``: it starts a page;
    ``own_page``: nothing follows it on its page."""

    title: str
    blocks: tuple[Block, ...]
    new_page: bool = True
    own_page: bool = False

    def to_json(self) -> dict[str, object]:
        return {"title": self.title, "blocks": [b.to_json() for b in self.blocks]}


def numbered(texts: list[str], spec: bool = True) -> list[Text]:
    """Paragraphs numbered 1., 2., ... (the steps of a chapter)."""
    return [Text(f"{n}. {text}", spec=spec) for n, text in enumerate(texts, 1)]


PAGE_REF = re.compile(r" ?\(page \{page:[^}]*\}\)|:? ?(page )?\{page:[^}]*\}")


def without_pages(text: str) -> str:
    """A text without its page references (for a page that has no pages)."""
    return PAGE_REF.sub("", text)


def step_key(protocol: str, number: str) -> str:
    """The anchor of a step, for page references."""
    return f"step:{protocol}:{number}"


__all__ = [
    "Block",
    "Box",
    "Cell",
    "Checklist",
    "FrontSection",
    "Gap",
    "Grid",
    "Picture",
    "Text",
    "numbered",
    "step_key",
    "without_pages",
]
