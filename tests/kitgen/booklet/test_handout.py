"""The class handout stays on one page whatever the spec says, and prints a spec's text literally."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from kitgen.booklet.handout import SIZES, Handout, fit, render_handout
from kitgen.paper.faces import Face

A4 = (595.2756, 841.8898)


def _handout(steps: int, words: int, title: str = "A protocol") -> Handout:
    line = " ".join(["shuffle"] * words)
    return Handout(
        title=title,
        summary="Does a thing.",
        overview="It does a thing with cards.",
        seating="Around one table.",
        needs=["3 × α cards", "2 identical opaque envelopes"],
        steps=[(str(k), f"Step {k}: {line}") for k in range(1, steps + 1)],
        watch=[("Step 2", "Only α and β appear.", "Stop and start again.")],
        verified=["A protocol: exact on every possible secret (4)."],
        sets=1,
        cards=[(Face("marker", "alpha", "α"), 3)],
    )


def test_a_short_handout_gets_large_type(tmp_path: Path) -> None:
    size, steps = fit(_handout(5, 4), A4)
    assert size == SIZES[0] and steps == 5
    out = tmp_path / "h.pdf"
    assert render_handout(out, _handout(5, 4), A4) == 1


@pytest.mark.slow  # the fit search typesets the page dozens of times; the fast tier fits short handouts
def test_a_wordy_spec_still_fits_one_page(tmp_path: Path) -> None:
    h = _handout(60, 40)
    size, steps = fit(h, A4)
    assert steps < 60 and size == SIZES[-1]
    out = tmp_path / "h.pdf"
    assert render_handout(out, h, A4) == 1
    text = PdfReader(str(out)).pages[0].extract_text()
    assert f"and {60 - steps} more steps: see the booklet" in text


def test_the_handout_says_where_each_output_ends_up(tmp_path: Path) -> None:
    """The six-card AND's handout names the pair that says "both" and the one that says "2nd
    only" (issue 39: only the booklet said so), and how a pair reads as a bit."""
    from kitgen.booklet.handout import answers
    from reference_engine.api import Library

    proto = Library().protocol("six-card-and")
    assert answers(proto) == [
        ("Places 3 and 4 of the row", '"both" (first AND second)'),
        ("Places 5 and 6 of the row", '"2nd only" ((NOT first) AND second)'),
    ]
    h = _handout(4, 3)
    h = Handout(**{**h.__dict__, "answers": answers(proto), "legend": ["Bit pair: α β means 0, β α means 1"]})
    out = tmp_path / "h.pdf"
    assert render_handout(out, h, A4) == 1
    text = " ".join(PdfReader(str(out)).pages[0].extract_text().split())
    assert "Where the answer is" in text and 'Places 3 and 4 of the row "both"' in text


def test_spec_text_is_printed_literally(tmp_path: Path) -> None:
    hostile = 'Ours <img src="x.png"/> & <b>bold</b> <onDraw name="x"/>'
    out = tmp_path / "h.pdf"
    assert render_handout(out, _handout(3, 2, hostile), A4) == 1
    text = PdfReader(str(out)).pages[0].extract_text()
    assert '<img src="x.png"/>' in text and "<b>bold</b>" in text
