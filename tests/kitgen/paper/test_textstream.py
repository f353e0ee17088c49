"""A content stream without its paths (kitgen/paper/textstream.py): only path and line style
operations and their numbers are taken out; strings, hex strings and comments are kept whole; a
stream with a nested string or an inline image is left as it is; the glyphs read either way are
the same on a page whose strings look like paths (kit pages: tests/kitgen/paper/test_pagepixels.py)."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
from pdfminer.pdftypes import resolve1
from reportlab.pdfgen.canvas import Canvas

from kitgen.paper import pagepixels as px
from kitgen.paper.textstream import without_paths


def test_only_paths_and_their_numbers_are_taken_out() -> None:
    stream = (
        b"q 1 0 0 1 5 5 cm 10 20 m 30 40 l 1 2 3 4 5 6 c h S 0.5 w 1 J 0 j 4 M 0 0 10 10 re W n "
        b"0.2 0.4 0.6 rg 1 g /GS1 gs [3 2] 0 d /Cs1 cs 0 0 0 scn f* B* b* "
        b"BT /F1 12 Tf 72 700 Td (0 0 m f \\(h\\) S) Tj <0041 0c> Tj [(a) -250 (b)] TJ ET % 1 2 l\nQ"
    )
    kept = without_paths(stream)
    assert kept is not None
    assert (
        kept.split()
        == (
            b"q 1 0 0 1 5 5 cm 0.2 0.4 0.6 rg 1 g /GS1 gs [3 2] 0 d /Cs1 cs 0 0 0 scn "
            b"BT /F1 12 Tf 72 700 Td (0 0 m f \\(h\\) S) Tj <0041 0c> Tj [(a) -250 (b)] TJ ET % 1 2 l Q"
        ).split()
    )
    assert without_paths(b"/Xf Do /Fm1 Do") == b"/Xf Do /Fm1 Do"  # an operator only where a token starts
    assert without_paths(b"BT (a (nested) string) Tj ET 0 0 m") is None
    assert without_paths(b"q BI /W 1 /H 1 /BPC 8 /CS /G ID \x00 EI Q") is None


def test_the_glyphs_are_the_same_without_the_paths(tmp_path: Path) -> None:
    path = tmp_path / "hostile.pdf"
    canvas = Canvas(str(path), invariant=True)
    canvas.setFillColorRGB(0.2, 0.4, 0.6)
    canvas.rect(50, 50, 100, 60, fill=1)
    canvas.drawString(72, 700, "0 0 m 1 2 l f S (h) W n re 3 g <0041> % c")
    canvas.setDash([3, 2], 0)
    canvas.line(72, 690, 300, 690)
    canvas.setFillColorRGB(0.8, 0.1, 0.1)
    canvas.saveState()
    canvas.translate(100, 100)
    canvas.rotate(90)
    canvas.drawString(0, 0, "turned b* B* f* rg")
    canvas.restoreState()
    canvas.drawString(72, 600, "after the turn")
    canvas.save()
    with pdfplumber.open(str(path)) as pdf:
        page = pdf.pages[0]
        stream = resolve1(page.page_obj.contents[0]).get_data()
        assert len(without_paths(stream) or stream) < len(stream)  # read without its paths
        made = px._glyph_values(page)
        assert not hasattr(page, "_layout")
        theirs = [tuple(c[k] for k in px._CHAR_KEYS) for c in page.chars]
    assert made and repr(made) == repr(theirs)
    assert "".join(str(g[0]) for g in made).startswith("0 0 m 1 2 l f S (h) W n re 3 g <0041> % c")
