"""The page check's blind spots of stop 52's hostile review, each shown on a page built for it.

A page printed from elsewhere than (0, 0) (a MediaBox whose origin is moved, /Rotate, a CropBox)
must be checked where it is printed: the same hidden and faint glyphs as the same page printed
plainly, and text outside the CropBox is text off the page. Text inside a Form XObject is checked
for hidden ink and contrast. A page PDFium turns otherwise than pdfminer is said unchecked, never
passed. The glyphs kept between reads are those of the normalisation the PDF was opened with and
of the whole page."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader, PdfWriter, Transformation
from pypdf.generic import (
    ArrayObject,
    DecodedStreamObject,
    DictionaryObject,
    NameObject,
    NumberObject,
    RectangleObject,
)
from reportlab.pdfgen.canvas import Canvas

from kitgen.paper import pagecheck as pc
from kitgen.paper import pagepixels as px
from kitgen.paper.faces import FONT, new_canvas

A4 = (595.0, 842.0)


def _draw(c: Canvas) -> None:
    """A hidden word, a faint word and a clear one on a yellow panel, and a word beyond the crop."""
    c.setFillColorRGB(1, 0.9, 0.3)
    c.rect(80, 380, 400, 300, stroke=0, fill=1)
    c.setFont(FONT, 24)
    c.setFillColorRGB(0, 0, 0)
    c.drawString(110, 600, "HIDDEN")
    c.setFillColorRGB(0.2, 0.5, 0.9)
    c.rect(130, 590, 60, 40, stroke=0, fill=1)  # over some of its letters, drawn after
    c.setFillColorRGB(0.95, 0.85, 0.35)
    c.drawString(110, 520, "faint")
    c.setFillColorRGB(0, 0, 0)
    c.drawString(110, 440, "clear")
    c.setFont(FONT, 14)
    c.drawString(120, 120, "beyond")  # outside the CropBox of the cropped variants


def _base(path: Path) -> Path:
    c = new_canvas(str(path), A4, "frames")
    _draw(c)
    c.showPage()
    c.save()
    return path


VARIANTS = {
    # name: (MediaBox origin, /Rotate, CropBox (before the origin is moved))
    "origin": ((-37.5, 52.25), 0, None),
    "rot90": ((0.0, 0.0), 90, None),
    "rot180": ((0.0, 0.0), 180, None),
    "rot270": ((11.0, -7.0), 270, None),
    "crop": ((0.0, 0.0), 0, (50.0, 300.0, 520.0, 760.0)),
    "all": ((25.0, 40.0), 90, (60.0, 330.0, 540.0, 800.0)),
}


def _variant(base: Path, name: str) -> Path:
    """The base page printed the same, its MediaBox moved (its content moved with it), turned and
    cropped."""
    (x, y), rotate, crop = VARIANTS[name]
    writer = PdfWriter(clone_from=PdfReader(str(base)))
    page = writer.pages[0]
    page.add_transformation(Transformation().translate(x, y))
    page[NameObject("/MediaBox")] = RectangleObject([x, y, x + A4[0], y + A4[1]])
    if rotate:
        page[NameObject("/Rotate")] = NumberObject(rotate)
    if crop:
        page[NameObject("/CropBox")] = RectangleObject([crop[0] + x, crop[1] + y, crop[2] + x, crop[3] + y])
    path = base.with_name(f"{name}.pdf")
    with path.open("wb") as f:
        writer.write(f)
    return path


def _letters(found: list[pc.Finding]) -> dict[str, Counter[str]]:
    """The letters each kind of finding names (a turned page groups its glyphs in other runs)."""
    out: dict[str, Counter[str]] = {}
    for f in found:
        text = ast.literal_eval(f.detail.split(" at (")[0]) if f.kind not in ("font", "unchecked") else f.kind
        out.setdefault(f.kind, Counter()).update(text)
    return out


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _base(tmp_path_factory.mktemp("frames") / "base.pdf")


def test_the_plain_page_has_a_hidden_a_faint_and_an_outside_free_word(base: Path) -> None:
    found = _letters(pc.check_pdf(base))
    assert set(found) == {"covered", "contrast"}
    assert set(found["covered"]) <= set("HIDDEN") and set(found["contrast"]) == set("faint")


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_page_is_checked_where_it_is_printed(base: Path, name: str) -> None:
    """Main measured the renders as if every page were printed from (0, 0) unturned: hidden and
    faint words were missed (and others reported) on a moved, turned or cropped page, and text
    outside the CropBox passed."""
    path = _variant(base, name)
    plain = _letters(pc.check_pdf(base))
    found = _letters(pc.check_pdf(path))
    assert found.pop("covered", None) == plain["covered"], name
    assert found.pop("contrast", None) == plain["contrast"], name
    if VARIANTS[name][2] is not None:
        assert found.pop("outside") == Counter("beyond"), name
    assert found == {}, name


def test_a_mediabox_given_from_its_top_right_corner(base: Path) -> None:
    """A MediaBox [595 842 0 0] (any two opposite corners will do): pdfminer's layout starts at its
    first corner, pdfplumber's offsets at the lower-left one. Main reported every glyph off the
    page and missed the hidden and the faint word."""
    writer = PdfWriter(clone_from=PdfReader(str(base)))
    writer.pages[0][NameObject("/MediaBox")] = ArrayObject([NumberObject(v) for v in (595, 842, 0, 0)])
    path = base.with_name("reversed.pdf")
    with path.open("wb") as f:
        writer.write(f)
    assert _letters(pc.check_pdf(path)) == _letters(pc.check_pdf(base))


def test_the_frame_is_pdfiums_printed_area(base: Path) -> None:
    """Each variant's frame: the printed area in user space PDFium reports, its size turned."""
    for name, ((x, y), rotate, crop) in VARIANTS.items():
        with pdfplumber.open(str(_variant(base, name))) as pdf:
            frame = px.page_frame(pdf.pages[0])
        c = crop or (0.0, 0.0, *A4)
        assert frame.crop == (c[0] + x, c[1] + y, c[2] + x, c[3] + y) and frame.rotation == rotate, name
        w, h = c[2] - c[0], c[3] - c[1]
        size = (h, w) if rotate in (90, 270) else (w, h)
        assert (frame.box[2] - frame.box[0], frame.box[3] - frame.box[1]) == size, name


def _form_page(path: Path) -> Path:
    """Faint text and text a shape hides, each inside a Form XObject (the second within the first)."""
    c = new_canvas(str(path), A4, "forms")
    c.beginForm("inner")
    c.setFont(FONT, 24)
    c.setFillColorRGB(0.8, 0.8, 0.8)
    c.drawString(0, 0, "faint")
    c.endForm()
    c.beginForm("outer")
    c.setFont(FONT, 24)
    c.setFillColorRGB(0, 0, 0)
    c.drawString(0, 100, "HIDDEN")
    c.setFillColorRGB(0.2, 0.5, 0.9)
    c.rect(20, 90, 50, 40, stroke=0, fill=1)  # inside the form, drawn after its text
    c.doForm("inner")
    c.endForm()
    c.translate(100, 500)
    c.doForm("outer")
    c.showPage()
    c.save()
    return path


def test_text_inside_a_form_is_checked(tmp_path: Path) -> None:
    """Main took a form out of the text layer whole and its text out of the page without text: the
    text inside it was in neither, and was never checked for hidden ink or contrast."""
    found = _letters(pc.check_pdf(_form_page(tmp_path / "forms.pdf")))
    assert set(found) == {"covered", "contrast"}
    assert set(found["covered"]) <= set("HIDDEN") and found["contrast"] == Counter("faint")


def test_a_page_pdfium_turns_otherwise_is_said_unchecked(base: Path) -> None:
    """/Rotate 135: pdfminer (and pdfplumber) do not turn the page, PDFium turns it a quarter. Main
    measured the renders at the wrong places; the check now says it could not measure them."""
    writer = PdfWriter(clone_from=PdfReader(str(base)))
    writer.pages[0][NameObject("/Rotate")] = NumberObject(135)
    path = base.with_name("rot135.pdf")
    with path.open("wb") as f:
        writer.write(f)
    found = pc.check_pdf(path)
    assert [f.kind for f in found] == ["unchecked"]
    assert "not checked" in found[0].detail and "turned 90" in found[0].detail


def test_kept_glyphs_are_the_normalisation_and_the_page_they_were_read_with(tmp_path: Path) -> None:
    """Main kept a page's glyphs by file and page number alone: a PDF opened with another Unicode
    normalisation got the first open's text, and a cropped page the whole page's glyphs (or the
    whole page a cropped page's)."""
    path = tmp_path / "norm.pdf"
    c = new_canvas(str(path), A4, "norm")
    c.setFont(FONT, 14)
    c.drawString(100, 700, "ﬁné")
    c.drawString(100, 100, "low")
    c.showPage()
    c.save()

    def text(norm: str | None, crop: bool = False) -> str:
        with pdfplumber.open(str(path), unicode_norm=norm) as pdf:  # type: ignore[arg-type]
            page = pdf.pages[0]
            part = page.crop((0, 0, page.width, page.height / 2)) if crop else page
            chars = px.page_chars(part)
            assert chars == [{k: ch[k] for k in px._CHAR_KEYS} for ch in part.chars]
        return "".join(ch["text"] for ch in chars)

    for norm in ("NFKD", None, "NFKD", "NFC", None):
        with pdfplumber.open(str(path), unicode_norm=norm) as pdf:  # type: ignore[arg-type]
            theirs = "".join(ch["text"] for ch in pdf.pages[0].chars)
        assert text(norm) == theirs, norm
    assert text(None, crop=True) == "ﬁné" and text(None) == "ﬁnélow" and text(None, crop=True) == "ﬁné"


def _annotate(base: Path, path: Path) -> Path:
    """The base page with a stamp whose appearance (a box, no text) lies over the word "clear", and
    a stamp showing text of its own."""
    writer = PdfWriter(clone_from=PdfReader(str(base)))
    font = writer._add_object(
        DictionaryObject(
            {
                NameObject("/Type"): NameObject("/Font"),
                NameObject("/Subtype"): NameObject("/Type1"),
                NameObject("/BaseFont"): NameObject("/Helvetica"),
            }
        )
    )
    for rect, content in (
        ((112, 436, 140, 470), b"0.2 0.5 0.9 rg 0 0 28 34 re f"),
        (
            (300, 200, 420, 240),
            b"0.9 0.9 0.9 rg 0 0 120 40 re f BT /Helv 12 Tf 0 0 0 rg 5 12 Td (stamped) Tj ET",
        ),
    ):
        ap = DecodedStreamObject()
        ap.set_data(content)
        ap.update(
            {
                NameObject("/Type"): NameObject("/XObject"),
                NameObject("/Subtype"): NameObject("/Form"),
                NameObject("/BBox"): ArrayObject(
                    [
                        NumberObject(0),
                        NumberObject(0),
                        NumberObject(rect[2] - rect[0]),
                        NumberObject(rect[3] - rect[1]),
                    ]
                ),
                NameObject("/Resources"): DictionaryObject(
                    {NameObject("/Font"): DictionaryObject({NameObject("/Helv"): font})}
                ),
            }
        )
        annot = DictionaryObject(
            {
                NameObject("/Type"): NameObject("/Annot"),
                NameObject("/Subtype"): NameObject("/Stamp"),
                NameObject("/Rect"): ArrayObject([NumberObject(v) for v in rect]),
                NameObject("/F"): NumberObject(4),
                NameObject("/AP"): DictionaryObject({NameObject("/N"): writer._add_object(ap)}),
            }
        )
        writer.add_annotation(0, annot)
    with path.open("wb") as f:
        writer.write(f)
    return path


def test_text_under_an_annotation_is_covered_and_an_annotations_text_is_said_unchecked(base: Path) -> None:
    """Main drew annotations in every render (the text layer too): text under a stamp's box looked
    as printed, and the text in a stamp's appearance (not among pdfplumber's glyphs) passed."""
    found = pc.check_pdf(_annotate(base, base.with_name("annotated.pdf")))
    letters = _letters(found)
    plain = _letters(pc.check_pdf(base))
    assert letters["covered"] - plain["covered"] and set(letters["covered"] - plain["covered"]) <= set(
        "clear"
    )
    assert letters["contrast"] == plain["contrast"]
    unchecked = [f.detail for f in found if f.kind == "unchecked"]
    assert unchecked == [
        "the text in 1 annotation appearance(s) is not checked (pdfplumber does not report it)"
    ]
