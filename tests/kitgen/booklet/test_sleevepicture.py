"""The set-up's picture of a sleeve being filled (kitgen.booklet.sleevepicture) and the size a picture
prints under an elided region: sleeves, not a grid of loose cards (issue 36, part 2)."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from kitgen.booklet.diagram import Cell, Region, extent_words
from kitgen.booklet.sleevepicture import CAPTIONS, SleeveFilling
from kitgen.core.units import mm
from kitgen.paper.faces import Face, new_canvas


def _region(sleeve_side: str, kind: str = "sleeve") -> Region:
    cells: list[list[Cell | None]] = [[Cell("red1"), None], [Cell("theta1"), None]]
    return Region(
        "M",
        "the grid",
        4,
        92,
        [1, None],
        cells,
        sleeve_side=sleeve_side,
        sleeve_rows=2 if sleeve_side else 0,
        sleeve_kind=kind,
    )


def test_an_elided_region_of_sleeves_says_sleeves_not_rows_by_columns() -> None:
    assert extent_words(_region("back")) == "92 sleeves"
    assert extent_words(_region("front", "envelope")) == "92 envelopes"
    assert extent_words(_region("")) == "4 × 92"  # loose cards: the grid's rows and columns


def test_the_sleeve_picture_draws_the_three_moments_with_the_kits_faces() -> None:
    owner, card = Face("theta", "theta2", "θ2", ("Human 1",)), Face("plain", "red1", "R1")
    buffer = io.BytesIO()
    c = new_canvas(buffer, (mm(150), mm(60)), "sleeve")
    picture = SleeveFilling((owner, card), mm(140))
    w, h = picture.wrap(mm(140), mm(60))
    assert w == mm(140) and 0 < h < mm(60)
    picture.drawOn(c, 0, 0)
    c.save()
    text = " ".join(PdfReader(io.BytesIO(buffer.getvalue())).pages[0].extract_text().split())
    for caption in CAPTIONS:
        assert caption.split(",")[0].split(".")[1].strip().split()[0] in text
    assert "solid back" in text and "clear front" in text


def test_a_sleeve_picture_needs_the_owner_card_and_the_game_card() -> None:
    with pytest.raises(ValueError, match="owner card and a game card"):
        SleeveFilling((Face("plain", "red1", "R1"),), mm(140))
