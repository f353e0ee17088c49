"""A booklet page's footer (:mod:`kitgen.booklet.typesetting`): the title, ``· kitgen`` and the
booklet's name beside the page number, cut short with an ellipsis where a long title would run
into the number and off the page (card-selection-original-fast's booklet did: 330 page-check
findings on its 24 pages)."""

from __future__ import annotations

from pathlib import Path

import pytest
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import NextPageTemplate, PageBreak, Paragraph

from kitgen.booklet.typesetting import _Doc, fitted
from kitgen.core.units import mm
from kitgen.paper.faces import FONT, ensure_fonts
from kitgen.paper.pagecheck import check_pdf

LONG = (
    "Card selection protocol with the original covert lottery, quick version with sleeves "
    "(a virtual player's turn in Hearts) · kitgen card-selection-original-fast-booklet-a4"
)


@pytest.fixture(scope="module", autouse=True)
def _fonts() -> None:
    ensure_fonts()


def test_a_footer_that_fits_is_whole() -> None:
    text = "Six-card AND · kitgen six-card-and-booklet-a4"
    assert fitted(text, stringWidth(text, FONT, 7), FONT, 7) == text


@pytest.mark.parametrize("room", [220.0, 300.0, 420.0])
def test_a_long_title_is_cut_short_and_the_name_kept(room: float) -> None:
    got = fitted(LONG, room, FONT, 7)
    assert stringWidth(got, FONT, 7) <= room
    assert got.endswith("… · kitgen card-selection-original-fast-booklet-a4")
    title = got.removesuffix("… · kitgen card-selection-original-fast-booklet-a4")
    assert LONG.startswith(title) and len(title) > 0
    assert LONG[len(title)] in " ,"  # after a whole word: no fragment of one (a lone "t")


def test_a_room_smaller_than_the_name_cuts_the_whole_footer() -> None:
    got = fitted(LONG, 60.0, FONT, 7)
    assert stringWidth(got, FONT, 7) <= 60.0 and got.endswith("…") and LONG.startswith(got[:-1])
    assert fitted(LONG, 1.0, FONT, 7) == "…"  # nothing but the ellipsis fits (it is drawn as is)


def test_a_long_footer_stays_on_the_page_and_off_the_page_number(tmp_path: Path) -> None:
    """A two-page document with the booklet's page templates and that long footer: the page
    check (overlaps, text off the page) finds nothing, and the page number is there whole."""
    from pypdf import PdfReader

    path = tmp_path / "long.pdf"
    doc = _Doc(str(path), (210 * mm(1), 297 * mm(1)), mm(15), "Card selection", LONG)
    body = ParagraphStyle("body", fontName=FONT, fontSize=9)
    doc.build([Paragraph("cover", body), NextPageTemplate("body"), PageBreak(), Paragraph("a step", body)])
    assert [str(f) for f in check_pdf(path, pixels=False)] == []
    text = PdfReader(path).pages[1].extract_text() or ""
    assert "page 2" in text and "kitgen card-selection-original-fast-booklet-a4" in text and "…" in text
