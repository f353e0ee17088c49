"""How the writer (:mod:`kitgen.booklet.writer`) fills a booklet's pages: the default kit's
booklet has no near-blank page, a step kept with its picture is measured with its sentence's space
before, a height measured as a frame spends it, a part that opens on the page where the last ends.

The default booklet had four pages each holding one small block and four fifths white: the
set-up's "Who does what" box (the chapter ran over its page by that box), a step's note (the
step, kept with its picture, was measured 6 points short: an anchor hid its sentence's space
before, so its last line went on alone), and both protocols' "For the curious" boxes (each
protocol began a new page: the second protocol now opens below the first one's box, and the
pages after it moved up)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pytest
from PIL import ImageOps
from pypdf import PdfReader
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, KeepTogether, PageTemplate, Paragraph, Spacer

from kitgen.booklet.flowables import Anchor, Kept, stacked_height
from kitgen.booklet.parts import booklet_style
from kitgen.booklet.writer import PAD
from kitgen.core.units import mm
from kitgen.paper.faces import FONT, ensure_fonts

# The least share of its text area a page fills: the default booklet's fullest short page inside a
# part is step 9's (46 %: step 10's picture needs a whole page after it).
LEAST_FILL = 0.4


def fills(path: Path) -> list[float]:
    """Each page's share of its text area (between the top margin and the footer's) down to the
    lowest thing drawn on it, read from the rendered page (half of 72 dpi is fine enough)."""
    style = booklet_style()
    top, bottom, scale = style.margin, style.margin + mm(4), 0.5
    pdf = pdfium.PdfDocument(str(path))
    out = []
    try:
        for page in pdf:
            _, height = page.get_size()
            image = page.render(scale=scale, grayscale=True).to_pil().convert("L")
            area = (0, int(top * scale), image.width, int((height - bottom) * scale))
            ink = ImageOps.invert(image.crop(area)).point(lambda v: 255 if v > 16 else 0)
            box = ink.getbbox()
            out.append(0.0 if box is None else box[3] / (area[3] - area[1]))
    finally:
        pdf.close()
    return out


def part_pages(path: Path) -> list[int]:
    """The page each part (a chapter, a protocol, the validation: the outline's first level) opens on."""
    reader = PdfReader(str(path))
    tops = [e for e in reader.outline if not isinstance(e, list)]  # a list: the entries under one
    return sorted({(reader.get_destination_page_number(e) or 0) + 1 for e in tops})


def short_pages(fill: list[float], parts: list[int]) -> list[str]:
    """The pages filled less than LEAST_FILL that may not be: all but the cover and the contents
    (before the first part, each a page of its own), the last page, and a part all on one page
    (it opens on the page and the next page opens another). A part's page after its first, a
    page inside a part, ends where the page is full or where what is kept together needs the
    next page: never with a fifth of a page on it."""
    out = []
    for n, share in enumerate(fill, 1):
        own = n in parts and n + 1 in parts
        if share < LEAST_FILL and parts and n >= parts[0] and n < len(fill) and not own:
            out.append(f"page {n}: {share:.0%}")
    return out


def test_no_page_of_the_default_booklet_is_near_blank(built_kit: Callable[..., tuple[Path, Any]]) -> None:
    path = built_kit()[0] / "booklet.pdf"
    assert short_pages(fills(path), part_pages(path)) == []


@pytest.mark.slow
def test_no_page_of_the_letter_booklet_is_near_blank(built_booklet: Callable[..., tuple[Path, Any]]) -> None:
    """The UNO booklet on Letter (20 runs): its "What is in the kit" ran over its page by one
    paragraph, a page 5 % full, until a chapter that starts a page fitted its pictures to it."""
    path = built_booklet(name="uno", runs=20, previews=False, paper="letter")[0] / "booklet.pdf"
    assert short_pages(fills(path), part_pages(path)) == []


def orphan_headings(path: Path) -> list[str]:
    """The pages (all but the last) whose lowest line above the footer is a heading: bold, in a
    heading's size, its text over the page. Read with pypdf's text visitor (pdfplumber took 7 s
    of CPU a booklet)."""
    style = booklet_style()
    sizes = {style.text["h1"][0], style.text["h2"][0]}
    foot = style.margin + mm(4)  # the footer's top, from the page's bottom
    reader = PdfReader(str(path))
    out = []
    for n, page in enumerate(reader.pages[:-1], 1):
        last = _lowest_line(page, foot)
        if last and all("Bold" in font and size in sizes for font, size, _ in last):
            out.append(f"page {n}: {''.join(t for *_, t in last).strip()}")
    return out


def _lowest_line(page: Any, foot: float) -> list[tuple[str, float, str]]:
    """The page's lowest line of text above ``foot`` (points from the bottom): each piece's font,
    size and text."""
    lines: dict[int, list[tuple[str, float, str]]] = {}

    def visit(text: str, cm: list[float], tm: list[float], font: Any, size: float) -> None:
        y = tm[5] * cm[3] + cm[5]
        if text.strip() and font is not None and y >= foot:
            lines.setdefault(round(y), []).append((str(font.get("/BaseFont")), round(size * cm[3], 1), text))

    page.extract_text(visitor_text=visit)
    return lines[min(lines)] if lines else []


@pytest.mark.parametrize("options", [{}, {"ruleset": "gakmoro"}], ids=["default", "gakmoro"])
def test_no_page_ends_with_a_heading(
    built_kit: Callable[..., tuple[Path, Any]], options: dict[str, str]
) -> None:
    """Gakmoro's booklet had "Result of the worked example" at page 13's foot, its line on page 14
    (stop 53); a report's heading in the validation could stand at a page's foot, its table over
    the page. Now the result is kept whole and a heading within a part needs HEAD_ROOM below it."""
    assert orphan_headings(built_kit(**options)[0] / "booklet.pdf") == []


def test_the_rule_finds_the_near_blank_pages_the_default_booklet_had() -> None:
    """The fills and parts of the default booklet as it was (stop 53): pages 5, 13, 17 and 21."""
    was = [0.76, 0.42, 0.94, 0.95, 0.09, 0.73, 0.68, 0.70, 0.70, 0.78, 0.94, 0.96, 0.15]
    was += [0.98, 0.83, 0.92, 0.19, 0.84, 0.93, 0.82, 0.19, 0.99, 0.78, 0.72, 0.42]
    parts = [3, 4, 6, 7, 8, 9, 10, 18, 22, 24, 25]
    assert short_pages(was, parts) == ["page 5: 9%", "page 13: 15%", "page 17: 19%", "page 21: 19%"]


WIDTH = mm(80) - 2 * PAD  # the test frame's width for its flowables


class _Pages(BaseDocTemplate):
    """A one-frame document that notes the page each anchor and paragraph lands on."""

    def __init__(self, path: Path, height: float):
        super().__init__(str(path), pagesize=(mm(100), height + 2 * mm(10)), invariant=1)
        frame = Frame(mm(10), mm(10), mm(80), height, id="body")
        self.addPageTemplates([PageTemplate("body", [frame])])
        self.landed: dict[str, int] = {}

    def afterFlowable(self, flowable: Flowable) -> None:
        if isinstance(flowable, Anchor):
            self.landed[flowable.key] = self.page
        if isinstance(flowable, Paragraph):
            self.landed[flowable.getPlainText()] = self.page


def _step(kept: Callable[[list[Flowable]], Flowable], tmp_path: Path) -> dict[str, int]:
    """A first paragraph, then a step kept with its picture and note, the step's sentence 6 points
    of space before it: the page has room for the step without that space, not with it."""
    ensure_fonts()
    style = ParagraphStyle("p", fontName=FONT, fontSize=9, leading=11)
    step = ParagraphStyle("step", parent=style, spaceBefore=6)
    first, sentence, note = Paragraph("first", style), Paragraph("step", step), Paragraph("note", style)
    picture = Spacer(1, mm(40))
    steps = [Anchor("anchor"), sentence, picture, note]
    room = stacked_height([first], WIDTH) + stacked_height(steps, WIDTH) + 3 + 2 * PAD
    doc = _Pages(tmp_path / "step.pdf", room)
    doc.build([first, kept(steps)])
    return doc.landed


def test_a_kept_step_is_measured_with_its_sentences_space_before(tmp_path: Path) -> None:
    assert _step(Kept, tmp_path) == {"first": 1, "anchor": 2, "step": 2, "note": 2}


def test_reportlabs_keep_together_measured_it_short(tmp_path: Path) -> None:
    """What the default booklet's step 9 did: its note, alone, on the next page."""
    assert _step(KeepTogether, tmp_path) == {"first": 1, "anchor": 1, "step": 1, "note": 2}


@pytest.mark.parametrize("spare", [0.0, -0.5])
def test_the_stacked_height_is_what_a_frame_spends(tmp_path: Path, spare: float) -> None:
    """Paragraphs with spaces before and after (overlapping), an anchor between two (which ends
    the overlap): they fit on one page exactly when the frame is as tall as the stacked height."""
    ensure_fonts()
    styles = [
        ParagraphStyle(f"s{k}", fontName=FONT, fontSize=9, leading=11, spaceBefore=b, spaceAfter=a)
        for k, (b, a) in enumerate([(4, 8), (6, 3), (10, 2), (0, 5)])
    ]
    story: list[Flowable] = [Paragraph(f"line {k} " * (k + 1) * 6, s) for k, s in enumerate(styles)]
    story.insert(2, Anchor("between"))
    height = stacked_height(story, WIDTH) + 2 * PAD + spare
    doc = _Pages(tmp_path / "stack.pdf", height)
    doc.build(story)
    assert max(doc.landed.values()) == (1 if spare == 0 else 2)
