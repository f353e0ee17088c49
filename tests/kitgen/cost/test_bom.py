"""The bill of materials' sizes (:mod:`kitgen.cost.bom`): the envelope a card fits in, and the
paper a knockout match's mat is cut from (two sleeves side by side with a card between them)."""

from __future__ import annotations

import pytest

from kitgen.cost.bom import envelope_for, mat_for
from kitgen.cost.sleevesize import SleeveSize


@pytest.mark.parametrize(
    ("card_mm", "paper"),
    [
        ((56, 87), "A5"),  # the default kit's cards: 60 x 91 mm sleeves, 200 x 111 mm of mat
        ((63, 88), "A4"),  # poker: 67 x 92 mm sleeves need 221 mm, more than A5's 210
        ((30, 45), "A6"),  # a small deck: 34 x 49 mm sleeves, 122 x 69 mm
        ((90, 127), "A3"),
    ],
)
def test_a_mat_is_the_smallest_sheet_a_match_fits_on(card_mm: tuple[int, int], paper: str) -> None:
    w, h = SleeveSize(card_mm, 3, 2).outer
    assert mat_for(w, h) == paper
    sizes = {"A6": (148, 105), "A5": (210, 148), "A4": (297, 210), "A3": (420, 297)}
    pw, ph = sizes[paper]
    assert 3 * w + 20 <= pw and h + 20 <= ph  # it fits, 10 mm clear round the sleeves


def test_a_mat_larger_than_a3_is_given_in_millimetres() -> None:
    assert mat_for(140, 200) == "at least 440 × 220 mm"


def test_an_envelope_is_the_smallest_c_size_a_card_fits_in() -> None:
    assert envelope_for(56, 87) == "C7 (81 × 114 mm)"
    assert envelope_for(110, 160) == "C5 (162 × 229 mm)"
