"""The page elements a booklet is made of: card pictures and fans, title bands, anchors
and page references, tick boxes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from reportlab.lib.colors import Color, HexColor
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    Flowable,
    KeepTogether,
    Paragraph,
)
from reportlab.platypus.doctemplate import IndexingFlowable

from ..core.units import mm
from ..lang.catalogue import after_lead
from ..paper.drawing import draw_face
from ..paper.faces import Face
from .paragraphs import Styled, paragraph

CARD_RATIO = 87 / 56


class CardPicture(Flowable):
    """One printed face, small, for the contents table and the cover."""

    def __init__(self, face: Face, width: float, ink_saver: bool = False):
        super().__init__()
        self.face = face
        self.width = width
        self.height = width * CARD_RATIO
        self.ink_saver = ink_saver

    def wrap(self, avail_w: float, avail_h: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        c: Canvas = self.canv
        scale = self.width / mm(56)
        c.saveState()
        p = c.beginPath()
        p.roundRect(0, 0, self.width, self.height, mm(1))
        c.clipPath(p, stroke=0, fill=0)
        c.scale(scale, scale)
        draw_face(c, self.face, mm(56), mm(56) * CARD_RATIO, 0, mm(3), self.ink_saver)
        c.restoreState()
        c.setStrokeColor(HexColor("#999999"))
        c.setLineWidth(0.3)
        c.roundRect(0, 0, self.width, self.height, mm(1), stroke=1, fill=0)


class TitleBand(Flowable):
    """The cover's title, white on a band of the kit's back colour."""

    def __init__(self, text: str, style: ParagraphStyle, colour: Color, width: float):
        super().__init__()
        self.para = paragraph(
            ParagraphStyle("band", parent=style, textColor=HexColor("#FFFFFF"), spaceAfter=0), text
        )
        self.colour = colour
        self.width = width
        self.pad = mm(6)

    def wrap(self, avail_w: float, avail_h: float) -> tuple[float, float]:
        self.width = avail_w
        _, h = self.para.wrap(avail_w - 2 * self.pad, avail_h)
        self.height = h + 2 * self.pad
        return self.width, self.height

    def draw(self) -> None:
        c: Canvas = self.canv
        c.setFillColor(self.colour)
        c.roundRect(0, 0, self.width, self.height, mm(2), stroke=0, fill=1)
        self.para.drawOn(c, self.pad, self.pad)


class CardFan(Flowable):
    """The kit's cards spread out in a shallow arc, side by side (none hides another): what the kit
    is, at a glance."""

    def __init__(self, faces: Sequence[Face], width: float, ink_saver: bool = False):
        super().__init__()
        self.faces = list(faces)
        self.width = width
        self.ink_saver = ink_saver
        self.gap = mm(3)
        n = len(self.faces)
        self.card_w = min(mm(30), (width - (n - 1) * self.gap) / max(n, 1))
        self.rise = mm(5)
        self.height = self.card_w * CARD_RATIO + self.rise + mm(1)

    def wrap(self, avail_w: float, avail_h: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        c: Canvas = self.canv
        n = len(self.faces)
        w = self.card_w
        left = (self.width - (n * w + (n - 1) * self.gap)) / 2
        for k, face in enumerate(self.faces):
            t = (k - (n - 1) / 2) / max((n - 1) / 2, 1)
            c.saveState()
            c.translate(left + k * (w + self.gap), self.rise * (1 - t * t))
            picture = CardPicture(face, w, self.ink_saver)
            picture.canv = c
            picture.draw()
            c.restoreState()


class Anchor(Flowable):
    """A place in the booklet another page refers to by page number (a step, a picture)."""

    def __init__(self, key: str):
        super().__init__()
        self.key = key
        self.width = self.height = 0

    def wrap(self, avail_w: float, avail_h: float) -> tuple[float, float]:
        return 0, 0

    def draw(self) -> None:
        pass


class Kept(KeepTogether):
    """Flowables kept on one page (a step's sentence and its picture), whose space before is that of
    its first flowable that takes room. Reportlab's KeepTogether takes its first flowable's, here an
    :class:`Anchor`'s (none), so it measured a step 6 points short of what the page then spent on
    it: the step's last line (its picture's note) went on alone to a page of its own."""

    def __init__(self, flowables: Sequence[Flowable]):
        super().__init__(list(flowables))
        self.spaced = [f for f in flowables if not isinstance(f, Anchor) and not hasattr(f, "frameAction")]

    def getSpaceBefore(self) -> float:
        return float(self.spaced[0].getSpaceBefore()) if self.spaced else 0.0


class PageRefs(IndexingFlowable):
    """The page of every heading and anchor, learnt on one pass of the build and used on the next
    (reportlab builds again until nothing moved, as for the contents)."""

    def __init__(self) -> None:
        super().__init__()
        self.pages: dict[str, int] = {}
        self._seen: dict[str, int] = {}
        self._ok = False
        self.width = self.height = 0

    def beforeBuild(self) -> None:
        self._seen = {}

    def notify(self, kind: str, stuff: object) -> None:
        """A heading's entry (level, text, page, key) or an anchor's (key, page)."""
        if not isinstance(stuff, tuple):
            return  # (what other flowables announce)
        if kind == "TOCEntry":
            self._seen.setdefault(str(stuff[3]), int(stuff[2]))
        elif kind == "PageRef":
            self._seen.setdefault(str(stuff[0]), int(stuff[1]))

    def afterBuild(self) -> None:
        self._ok = self._seen == self.pages
        self.pages = dict(self._seen)

    def isSatisfied(self) -> bool:
        return self._ok

    def wrap(self, avail_w: float, avail_h: float) -> tuple[float, float]:
        return 0, 0

    def draw(self) -> None:
        pass


def stacked_height(flowables: Sequence[Flowable], width: float) -> float:
    """The height ``flowables`` need in a frame ``width`` wide, set one below the other from its
    top, as reportlab's frame spends it: each one's height; between two, the larger of the space
    after the first and the space before the second (a flowable that takes no room ends the
    overlap, as in the frame); no space before the first nor after the last."""
    total, after, top = 0.0, 0.0, True
    for f in flowables:
        _, h = f.wrap(width, 1e6)
        before = 0.0 if top else max(float(f.getSpaceBefore()) - after, 0.0)
        after = float(f.getSpaceAfter())
        total += before + h + after
        top = top and before + h + after == 0
    return total - after


PAGE_REF = re.compile(r"\{page:([^}]+)\}")


class RefParagraph(Flowable):
    """A paragraph with page numbers (``{page:KEY}``), set from the previous pass's pages."""

    def __init__(self, style: ParagraphStyle, text: str, page: Callable[[str], int | None], lead: str = ""):
        super().__init__()
        self.style, self.text, self.page, self.lead = style, text, page, lead
        self.para: Paragraph | None = None

    def _paragraph(self) -> Paragraph:
        text = PAGE_REF.sub(lambda m: str(self.page(m.group(1)) or "…"), self.text)
        if self.lead:
            return paragraph(self.style, Styled(self.lead, "b"), after_lead(self.lead), text)
        return paragraph(self.style, text)

    def wrap(self, avail_w: float, avail_h: float) -> tuple[float, float]:
        self.para = self._paragraph()
        w, h = self.para.wrap(avail_w, avail_h)
        self.width, self.height = w, h
        return w, h

    def draw(self) -> None:
        assert self.para is not None
        self.para.drawOn(self.canv, 0, 0)


class TickBox(Flowable):
    """An empty square to tick with a pen."""

    def __init__(self, size: float):
        super().__init__()
        self.width = self.height = size

    def wrap(self, avail_w: float, avail_h: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        self.canv.setStrokeColor(HexColor("#1A1A1A"))
        self.canv.setLineWidth(0.8)
        self.canv.rect(0, 0, self.width, self.height, stroke=1, fill=0)
