"""The pixel checks' shortcuts give what every glyph measured on its own gives, and the page's
layers are rendered as pypdfium2's own object removal and regenerated content render them."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from kitgen.paper import pagepixels as px
from kitgen.paper.faces import FONT, new_canvas
from tests.kitgen.paper.references import render_before

BEFORE = Path(__file__).parents[1] / "pagecheck_before"
A4 = (595.0, 842.0)


def _layers_and_glyphs(path: Path, number: int = 1) -> tuple[px.Layers, list[px.Glyph]]:
    with pdfplumber.open(str(path)) as pdf:
        chars = [c for c in px.page_chars(pdf.pages[number - 1]) if c["text"].strip()]
    return px.render_layers(path, number), px.glyphs(chars)


def _general(layers: px.Layers, items: list[px.Glyph]) -> tuple[object, object]:
    ink = px.ink_mask(layers)
    return px.covered(layers, items, ink, every=True), px.contrasts(layers, items, ink, every=True)


@pytest.mark.parametrize("name", sorted(p.name for p in BEFORE.glob("*.pdf")))
def test_the_shortcuts_find_what_every_glyph_measured_finds(name: str) -> None:
    """Pages with covered and faint text (the kits as they were): the glyphs the bounding box of
    hidden ink and the colours cleared by their union pass by are exactly those the general path
    passes."""
    layers, items = _layers_and_glyphs(BEFORE / name)
    ink = px.ink_mask(layers)
    assert (px.covered(layers, items, ink), px.contrasts(layers, items, ink)) == _general(layers, items)


def test_a_faint_colour_is_not_cleared_and_a_page_of_too_many_colours_clears_none(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    layers, items = _layers_and_glyphs(BEFORE / "uno-cards-p3.pdf")  # white on #D55E00
    ink = px.ink_mask(layers)
    sentinel = Image.new("RGB", layers.under.size, px.SENTINEL)
    white = (1.0, 1.0, 1.0)
    assert white in {g.colour for g in items}
    assert white not in px._clear_colours(layers, items, ink, sentinel)
    faint = px.contrasts(layers, items, ink)
    assert faint and faint == _general(layers, items)[1]
    monkeypatch.setattr(px, "LISTED_COLOURS", 1)  # no page's colours can be listed: glyph by glyph
    assert px._clear_colours(layers, items, ink, sentinel) == set()
    assert px.contrasts(layers, items, ink) == faint


def test_nothing_hidden_nothing_covered_and_a_glyph_beside_hidden_ink_is_measured(tmp_path: Path) -> None:
    def page(c: Canvas) -> None:
        c.setFont(FONT, 12)
        c.drawString(100, 700, "clear words")
        c.drawString(100, 600, "hidden")
        c.setFillColorRGB(0.15, 0.21, 0.31)
        c.rect(118, 595, 6, 20, stroke=0, fill=1)  # over a letter of "hidden", drawn after it

    path = tmp_path / "p.pdf"
    canvas = new_canvas(str(path), A4, "test")
    page(canvas)
    canvas.showPage()
    canvas.save()
    layers, items = _layers_and_glyphs(path)
    found = px.covered(layers, items)
    assert found and found == _general(layers, items)[0]
    assert {g.text for g, _ in found} <= set("hidden")


def test_layers_are_rendered_as_with_regenerated_content(tmp_path: Path) -> None:
    """Text and shapes on the page and inside a Form XObject (within another), rendered three ways
    on two pages: the same pixels as pypdfium2's removal with the content stream generated again."""
    path = tmp_path / "forms.pdf"
    c = new_canvas(str(path), A4, "test")
    c.beginForm("inner")
    c.setFillColorRGB(0.2, 0.4, 0.8)
    c.rect(10, 10, 80, 30, stroke=0, fill=1)
    c.setFillColorRGB(0, 0, 0)
    c.setFont(FONT, 11)
    c.drawString(15, 20, "inside the form")
    c.endForm()
    c.beginForm("outer")
    c.doForm("inner")
    c.setFont(FONT, 9)
    c.drawString(15, 50, "outer form")
    c.endForm()
    for shift in (0, 40):
        c.setFillColorRGB(0.9, 0.8, 0.1)
        c.rect(90 + shift, 690, 200, 40, stroke=1, fill=1)
        c.setFillColorRGB(0, 0, 0)
        c.setFont(FONT, 12)
        c.drawString(100 + shift, 700, "on the page")
        c.saveState()
        c.translate(100 + shift, 400)
        c.doForm("outer")
        c.restoreState()
        c.showPage()
    c.save()
    for number in (1, 2):
        layers = px.render_layers(path, number)
        for image, keep in ((layers.full, "all"), (layers.under, "under"), (layers.text, "text")):
            expected = render_before(path, number, keep)
            assert image.mode == expected.mode and image.tobytes() == expected.tobytes(), (number, keep)
    # The text inside the forms is text of the page (pdfplumber reports it): it is in the text
    # layer (main took the form out of it whole), and not in the page without text.
    with pdfplumber.open(str(path)) as pdf:
        chars = px.page_chars(pdf.pages[1])
    start = "".join(c["text"] for c in chars).index("inside the form")
    words = chars[start : start + len("inside the form")]
    box = px._pixels(
        layers,
        (
            min(c["x0"] for c in words),
            min(c["top"] for c in words),
            max(c["x1"] for c in words),
            max(c["bottom"] for c in words),
        ),
    )
    assert layers.text.getchannel("A").crop(box).histogram()[255] > 50
    assert min(sum(rgb) for _, rgb in layers.under.crop(box).getcolors(1 << 16) or []) > 200


@pytest.mark.parametrize("norm", [None, "NFKD"])
def test_glyphs_are_pdfplumbers_own(norm: str | None) -> None:
    """The glyphs made from the layout are pdfplumber's chars (the keys the checks read, their
    values and types, in order) on the kits' pages, with or without Unicode normalisation, read
    from the content streams without their paths (kitgen/paper/textstream.py); a cropped page and
    a page whose objects pdfplumber has made give pdfplumber's own."""
    for path in sorted(BEFORE.glob("*.pdf")):
        with pdfplumber.open(str(path), unicode_norm=norm) as pdf:  # type: ignore[arg-type]
            for page in pdf.pages:
                made = px._glyph_values(page)
                assert not hasattr(page, "_objects")  # made without pdfplumber's objects
                assert not hasattr(page, "_layout")  # nor its layout: read without the paths
                theirs = [tuple(c[k] for k in px._CHAR_KEYS) for c in page.chars]
                assert made and repr(made) == repr(theirs), path.name
    with pdfplumber.open(str(BEFORE / "uno-cards-p3.pdf")) as pdf:
        page = pdf.pages[0]
        cropped = page.crop((0, 0, page.width / 2, page.height / 2))
        theirs = [tuple(c[k] for k in px._CHAR_KEYS) for c in cropped.chars]
        assert px._glyph_values(cropped) == theirs and len(cropped.chars) < len(page.chars)
        assert not hasattr(cropped, "_layout")  # pdfplumber's own chars: the whole page's filtered
        assert px._glyph_values(page) == [tuple(c[k] for k in px._CHAR_KEYS) for c in page.chars]
