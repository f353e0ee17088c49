"""Hostile pages for the page check's shortcuts: each must find what the general path finds.

Pages with a shifted MediaBox origin, a rotated page, a CropBox, text inside nested Form XObjects,
text drawn turned, mirrored and skewed, a CID font, grey, CMYK, spot and translucent fills, a
gradient under text of many colours, glyphs crowded over one another, Unicode normalisation and
pdfplumber's layout analysis (laparams). Compared: the glyphs made from the layout with
pdfplumber's chars, covered and contrasts with every glyph measured, the layers with pypdfium2's
own removal and regenerated content, and overlaps with the pair-by-pair test through _inter."""

# ruff: noqa: E501  (a hand-written PDF's dictionaries, a line each)
from __future__ import annotations

import random
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader, PdfWriter
from pypdf.generic import NameObject, NumberObject, RectangleObject
from reportlab.lib.colors import CMYKColorSep
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfgen.canvas import Canvas

from kitgen.paper import pagecheck as pc
from kitgen.paper import pagepixels as px
from kitgen.paper.faces import FONT, new_canvas
from tests.kitgen.paper.references import overlaps_pair_by_pair, render_before

A4 = (595.0, 842.0)


def _draw(c: Canvas, seed: int) -> None:
    rnd = random.Random(seed)
    # A gradient under text of many colours: many background colours under one text colour.
    c.linearGradient(40, 500, 560, 800, ((1, 1, 0.2), (0.1, 0.2, 0.9)), extend=False)
    c.setFont(FONT, 14)
    for i in range(40):
        c.setFillColorRGB(rnd.random(), rnd.random(), rnd.random())
        c.drawString(rnd.uniform(40, 500), rnd.uniform(500, 790), "ﬁné Éé" if i % 3 else "e\u0301A\u030a")
    # Glyphs crowded over one another, of many colours, some of them fully covered.
    for _ in range(60):
        c.setFillColorRGB(rnd.choice((0, 1, 0.5)), rnd.random(), rnd.choice((0, 1)))
        c.setFont(FONT, rnd.choice((6, 9, 14, 30)))
        c.drawString(rnd.uniform(40, 200), rnd.uniform(300, 420), rnd.choice(("W", "il", "Mx", "ﬂ")))
    c.setFillColorRGB(0.9, 0.9, 0.85)
    c.rect(120, 330, 40, 30, stroke=0, fill=1)  # over some of them, drawn after
    # Grey, CMYK, spot and translucent fills.
    c.setFont(FONT, 12)
    c.setFillGray(0.55)
    c.drawString(300, 400, "grey text")
    c.setFillColorCMYK(0.1, 0.0, 0.6, 0.05)
    c.drawString(300, 380, "cmyk text")
    c.setFillColor(CMYKColorSep(0.0, 0.3, 0.9, 0.0, spotName="KitSpot", density=0.8))
    c.drawString(300, 360, "spot text")
    c.setFillColorRGB(0, 0, 0)
    c.setFillAlpha(0.25)
    c.drawString(300, 340, "faint alpha")
    c.setFillAlpha(1)
    # Text turned, mirrored and skewed.
    for angle in (30, 90, 180, 270):
        c.saveState()
        c.translate(450, 200)
        c.rotate(angle)
        c.setFillColorRGB(0.3, 0.3, 0.3)
        c.drawString(10, 0, f"turned {angle}")
        c.restoreState()
    c.saveState()
    c.translate(200, 150)
    c.scale(-1, 1)
    c.skew(10, 20)
    c.drawString(0, 0, "mirrored")
    c.restoreState()
    # A CID font (not embedded).
    c.setFont("HeiseiMin-W3", 12)
    c.drawString(60, 60, "カード ゲーム")
    # Text inside nested forms, drawn turned.
    c.saveState()
    c.translate(300, 80)
    c.rotate(15)
    c.doForm("outer")
    c.restoreState()


def _pdf(path: Path, pages: int = 2) -> None:
    pdfmetrics.registerFont(UnicodeCIDFont("HeiseiMin-W3"))
    c = new_canvas(str(path), A4, "hostile")
    c.beginForm("inner")
    c.setFillColorRGB(0.95, 0.95, 0.2)
    c.rect(0, 0, 90, 30, stroke=0, fill=1)
    c.setFillColorRGB(1, 1, 1)
    c.setFont(FONT, 11)
    c.drawString(5, 10, "inner form")
    c.endForm()
    c.beginForm("outer")
    c.saveState()
    c.rotate(-40)
    c.doForm("inner")
    c.restoreState()
    c.setFillColorCMYK(0, 0, 0, 1)
    c.setFont(FONT, 9)
    c.drawString(5, 40, "outer form")
    c.endForm()
    for n in range(pages):
        _draw(c, n)
        c.showPage()
    c.save()


def _variants(tmp_path: Path) -> list[Path]:
    """The page as made, then with its MediaBox origin moved, rotated, cropped, and all three."""
    base = tmp_path / "base.pdf"
    _pdf(base)
    out = [base]
    for name, origin, rotate, crop in (
        ("origin", (-37.5, 52.25), 0, None),
        ("rot90", (0, 0), 90, None),
        ("rot270", (11, -7), 270, None),
        ("crop", (0, 0), 0, (30, 250, 500, 760)),
        ("all", (25, 40), 180, (60, 300, 520, 800)),
    ):
        writer = PdfWriter(clone_from=PdfReader(str(base)))
        for page in writer.pages:
            x, y = origin
            page[NameObject("/MediaBox")] = RectangleObject([x, y, x + A4[0], y + A4[1]])
            if rotate:
                page[NameObject("/Rotate")] = NumberObject(rotate)
            if crop:
                page[NameObject("/CropBox")] = RectangleObject(list(crop))
        path = tmp_path / f"{name}.pdf"
        with path.open("wb") as f:
            writer.write(f)
        out.append(path)
    return out


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return _variants(tmp_path_factory.mktemp("hostile"))


@pytest.mark.parametrize("laparams", [None, {}])
@pytest.mark.parametrize("norm", [None, "NFC", "NFD", "NFKC", "NFKD"])
def test_glyphs_from_the_layout_are_pdfplumbers_chars(
    hostile: list[Path], norm: str | None, laparams: object
) -> None:
    for path in hostile:
        with pdfplumber.open(str(path), unicode_norm=norm, laparams=laparams) as pdf:  # type: ignore[arg-type]
            for page in pdf.pages:
                made = px._glyph_values(page)
                assert not hasattr(page, "_objects")
                theirs = [tuple(c[k] for k in px._CHAR_KEYS) for c in page.chars]
                assert made and repr(made) == repr(theirs), (path.name, page.page_number)
                assert [tuple(map(type, v)) for v in made] == [tuple(map(type, v)) for v in theirs]


def test_layers_pixels_and_findings_are_the_general_paths(hostile: list[Path]) -> None:
    for path in hostile:
        with pdfplumber.open(str(path)) as pdf:
            chars = [c for c in px.page_chars(pdf.pages[0]) if c["text"].strip()]
            general = [c for c in pdf.pages[0].chars if c["text"].strip()]
            assert [tuple(dict(c)[k] for k in px._CHAR_KEYS) for c in chars] == [
                tuple(c[k] for k in px._CHAR_KEYS) for c in general
            ]
            frame = px.page_frame(pdf.pages[0])
        layers = px.render_layers(path, 1, frame)
        for image, keep in ((layers.full, "all"), (layers.under, "under"), (layers.text, "text")):
            expected = render_before(path, 1, keep)
            assert image.mode == expected.mode and image.tobytes() == expected.tobytes(), (path.name, keep)
        items = px.glyphs(chars)
        ink = px.ink_mask(layers)
        fast = (px.covered(layers, items, ink), px.contrasts(layers, items, ink))
        slow = (px.covered(layers, items, ink, every=True), px.contrasts(layers, items, ink, every=True))
        assert fast == slow, path.name
        assert fast[0] and fast[1], path.name  # each page has covered and faint glyphs to find
        assert pc.overlaps(chars, path.name, 1) == overlaps_pair_by_pair(chars, path.name, 1)


def _raw_pdf(path: Path) -> None:
    """A hand-written page: a Type3 font, text in a pattern colour space, Indexed and Lab fills,
    text with no fill set, clipping text (render mode 7), invisible text, a form drawn twice,
    an annotation with text in its appearance."""
    content = b"""
BT /T3 24 Tf 50 700 Td (abab) Tj ET
BT /F1 18 Tf 50 650 Td (no colour set) Tj ET
q /Pattern cs /P0 scn BT /F1 20 Tf 50 600 Td (pattern text) Tj ET Q
q /CS0 cs 3 sc BT /F1 20 Tf 50 560 Td (indexed text) Tj ET Q
q /CS1 cs 50 10 -20 sc BT /F1 20 Tf 50 520 Td (lab text) Tj ET Q
q 0.2 0.6 0.2 rg 40 470 200 30 re f 0.3 0.7 0.3 rg BT /F1 20 Tf 7 Tr 50 475 Td (clipped) Tj ET 0 0 1 rg 40 470 200 30 re f Q
q BT /F1 20 Tf 3 Tr 50 430 Td (invisible) Tj ET Q
q 1 0 0 1 300 300 cm /Fm0 Do Q
q 0.5 0 0 0.5 300 200 cm /Fm0 Do Q
q 0.9 0.9 0.9 rg 300 210 40 20 re f Q
BT /F1 14 Tf 0.8 0.8 0.8 rg 1 0.3 -0.3 1 350 600 Tm (sheared grey) Tj ET
"""
    type3_proc_a = b"1000 0 0 0 750 750 d1 0 0 750 750 re f"
    type3_proc_b = b"1000 0 0 0 750 750 d1 0 0 m 750 0 l 375 750 l f"
    form = b"0.95 0.9 0.1 rg 0 0 150 40 re f BT /F1 16 Tf 1 1 1 rg 5 12 Td (in a form) Tj ET"
    pattern = b"0.9 0.1 0.1 rg 0 0 5 5 re f 0.9 0.9 0.1 rg 5 5 5 5 re f"
    ap = b"0.1 0.1 0.6 rg 0 0 120 30 re f BT /F1 12 Tf 1 1 1 rg 5 10 Td (annotation) Tj ET"
    objs: list[bytes] = []

    def add(b: bytes) -> int:
        objs.append(b)
        return len(objs)

    def stream(d: bytes, body: bytes) -> bytes:
        return b"<< " + d + b" /Length %d >>\nstream\n" % len(body) + body + b"\nendstream"

    cat = add(b"")
    pages = add(b"")
    f1 = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    pa = add(stream(b"", type3_proc_a))
    pb = add(stream(b"", type3_proc_b))
    t3 = add(
        b"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 750 750] /FontMatrix [0.001 0 0 0.001 0 0]"
        b" /CharProcs << /sq %d 0 R /tri %d 0 R >> /Encoding << /Type /Encoding /Differences [97 /sq /tri] >>"
        b" /FirstChar 97 /LastChar 98 /Widths [1000 1000] /Resources << >> >>" % (pa, pb)
    )
    fm = add(
        stream(
            b"/Type /XObject /Subtype /Form /BBox [0 0 150 40] /Resources << /Font << /F1 %d 0 R >> >>" % f1,
            form,
        )
    )
    pat = add(
        stream(
            b"/Type /Pattern /PatternType 1 /PaintType 1 /TilingType 1 /BBox [0 0 10 10] /XStep 10 /YStep 10 /Resources << >>",
            pattern,
        )
    )
    apx = add(
        stream(
            b"/Type /XObject /Subtype /Form /BBox [0 0 120 30] /Resources << /Font << /F1 %d 0 R >> >>" % f1,
            ap,
        )
    )
    annot = add(b"<< /Type /Annot /Subtype /Stamp /Rect [400 700 520 730] /AP << /N %d 0 R >> /F 4 >>" % apx)
    cnt = add(stream(b"", content))
    page = add(
        b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 595 842] /Contents %d 0 R /Annots [%d 0 R]"
        b" /Resources << /Font << /F1 %d 0 R /T3 %d 0 R >> /XObject << /Fm0 %d 0 R >> /Pattern << /P0 %d 0 R >>"
        b" /ColorSpace << /CS0 [/Indexed /DeviceRGB 3 <FF000000FF000000FFEEEE11>] /CS1 [/Lab << /WhitePoint [0.9505 1 1.089] /Range [-100 100 -100 100] >>] >> >> >>"
        % (pages, cnt, annot, f1, t3, fm, pat)
    )
    objs[cat - 1] = b"<< /Type /Catalog /Pages %d 0 R >>" % pages
    objs[pages - 1] = b"<< /Type /Pages /Kids [%d 0 R] /Count 1 >>" % page
    out = b"%PDF-1.7\n"
    offs = []
    for i, o in enumerate(objs, 1):
        offs.append(len(out))
        out += b"%d 0 obj\n" % i + o + b"\nendobj\n"
    x = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    for offset in offs:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, x)
    path.write_bytes(out)


def test_a_hand_written_page_of_odd_fonts_colours_and_text(tmp_path: Path) -> None:
    """A Type3 font, pattern, Indexed and Lab text fills, text with no fill set, clipping and
    invisible text, a form drawn twice, text in an annotation's appearance."""
    path = tmp_path / "raw.pdf"
    _raw_pdf(path)
    for norm in (None, "NFKC"):
        with pdfplumber.open(str(path), unicode_norm=norm) as pdf:
            page = pdf.pages[0]
            made = px._glyph_values(page)
            assert made and repr(made) == repr([tuple(c[k] for k in px._CHAR_KEYS) for c in page.chars])
    with pdfplumber.open(str(path)) as pdf:
        chars = [c for c in px.page_chars(pdf.pages[0]) if c["text"].strip()]
    layers = px.render_layers(path, 1)
    for image, keep in ((layers.full, "all"), (layers.under, "under"), (layers.text, "text")):
        assert image.tobytes() == render_before(path, 1, keep).tobytes(), keep
    items = px.glyphs(chars)
    ink = px.ink_mask(layers)
    fast = (px.covered(layers, items, ink), px.contrasts(layers, items, ink))
    assert fast == (px.covered(layers, items, ink, every=True), px.contrasts(layers, items, ink, every=True))
    assert fast[1]  # the sheared grey text on white
    assert pc.overlaps(chars, "raw.pdf", 1) == overlaps_pair_by_pair(chars, "raw.pdf", 1)


def test_a_colour_out_of_range_under_a_speck_does_not_stop_the_check(tmp_path: Path) -> None:
    """A grey of -0.646 has a luminance of -0.05: its ratio with any colour divides by zero. Glyph
    by glyph, a speck of it (fewer than 3 pixels of ink) is passed by before any ratio is taken;
    the colours' union must not take one either (it did: ZeroDivisionError)."""
    path = tmp_path / "speck.pdf"
    c = new_canvas(str(path), A4, "speck")
    c.setFont(FONT, 12)
    c.drawString(100, 700, "normal text")
    c._code.append("-0.646 g")  # type: ignore[attr-defined]
    c.setFont(FONT, 3.25)
    c.drawString(100, 600, ".")
    c.showPage()
    c.save()
    with pdfplumber.open(str(path)) as pdf:
        chars = [c for c in px.page_chars(pdf.pages[0]) if c["text"].strip()]
    layers = px.render_layers(path, 1)
    items = px.glyphs(chars)
    ink = px.ink_mask(layers)
    speck = [g for g in items if g.colour == (-0.646, -0.646, -0.646)]
    assert len(speck) == 1 and 0 < ink.crop(px._pixels(layers, speck[0].box)).histogram()[255] < 3
    assert px.contrasts(layers, items, ink) == px.contrasts(layers, items, ink, every=True) == []
    assert pc.check_pdf(path) == []
