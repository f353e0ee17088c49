"""What a page looks like once printed: the checks of :mod:`kitgen.paper.pagecheck` that need pixels.

A page is rendered three times with PDFium (the renderer of the previews): as it is, without its
text (what lies under the text), and its text alone on a transparent background. From these:

* ``contrast``: the contrast ratio (WCAG 2: relative luminance, (L1 + 0.05) / (L2 + 0.05)) between a
  run of text and what lies under its glyphs is below 4.5:1. The text's colour is the one the
  PDF paints it with; the background is sampled under the glyphs' ink, and the ratio counted is
  the one that at least a fifth of the ink sits on (a glyph half on white and half on yellow is
  judged by the yellow half);
* ``covered``: a glyph is partly hidden by something drawn after it. The text layer laid over the
  page without text is what the page would show if nothing covered the text; a glyph whose ink
  differs from that in the page as it is, is covered (a label under a card, a number under a disc,
  a letter under a frame).
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar, cast

from PIL import Image, ImageChops

from ..core.colour import AA, contrast, hex_of
from .textstream import without_paths

if TYPE_CHECKING:
    from pdfplumber.page import Page

T = TypeVar("T")


class PdfChar(TypedDict):
    """A glyph as pdfplumber reports it (the keys the checks read): its text, its box in points
    from the top-left, its size, and how it is drawn (fill colour, text matrix)."""

    text: str
    x0: float
    x1: float
    top: float
    bottom: float
    size: float
    non_stroking_color: tuple[float, ...] | list[float] | float | None
    matrix: tuple[float, float, float, float, float, float]


def page_chars(page: Page) -> list[PdfChar]:
    """A page's glyphs, each a fresh dict of :class:`PdfChar`'s keys (pdfplumber gives more).

    Reading a page's glyphs is most of a check's time, and the page check and the identifier check
    (kitgen.booklet.jargon) read the same pages of a kit: the glyphs of the last
    :data:`KEPT_PAGES` pages of files opened by name are kept, keyed by the file's identity, size
    and modification time (a file written again is read again)."""
    key = _page_key(page)
    kept = _KEPT.pop(key, None) if key is not None else None
    if kept is None:
        kept = tuple(_glyph_values(page))
    if key is not None:
        _KEPT[key] = kept  # the most recent last
        while len(_KEPT) > KEPT_PAGES:
            del _KEPT[next(iter(_KEPT))]
    return [cast(PdfChar, dict(zip(_CHAR_KEYS, values, strict=True))) for values in kept]


def _glyph_values(page: Page) -> list[tuple[object, ...]]:
    """The values of :data:`_CHAR_KEYS` of each of ``page.chars`` (pdfplumber's), in order, made
    the way pdfplumber makes them (pdfplumber.page.Page.process_object) from the same layout.

    pdfplumber makes a dict of every object of the page, shapes included, the first time any is
    asked for: a third of reading a page of the booklet, whose pages the checks only read the text
    of. The glyphs' values are made here, with pdfplumber's formulas, when pdfplumber has not made
    its objects yet and the page is a whole page (a cropped page keeps only some of its objects).
    pdfplumber resolves each value (``resolve_all``): a number, or a tuple of numbers, is its own
    resolution (a tuple copied), so only other values are passed to it.
    tests/kitgen/paper/test_pagepixels.py compares them with pdfplumber's on kit pages."""
    from pdfminer.layout import LTChar, LTContainer
    from pdfplumber.page import Page as WholePage
    from pdfplumber.utils.pdfinternals import resolve_all

    if type(page) is not WholePage or hasattr(page, "_objects"):
        return [tuple(c[k] for k in _CHAR_KEYS) for c in page.chars]
    norm = page.pdf.unicode_norm
    height, mb_x0, mb_top = page.height, page.mediabox[0], page.mediabox[1]
    plain = _PLAIN
    out: list[tuple[object, ...]] = []

    def walk(objects: Sequence[object]) -> None:
        for obj in objects:
            if isinstance(obj, LTContainer):
                walk(obj._objs)
            elif type(obj) is LTChar:
                text = obj.get_text()
                ncolor = obj.graphicstate.ncolor
                x0, x1, y0, y1, size, matrix = obj.x0, obj.x1, obj.y0, obj.y1, obj.size, obj.matrix
                if not (type(x0) in plain and type(x1) in plain and type(y0) in plain and type(y1) in plain):
                    x0, x1, y0, y1 = resolve_all(x0), resolve_all(x1), resolve_all(y0), resolve_all(y1)
                if type(size) not in plain:
                    size = resolve_all(size)
                if type(matrix) is not tuple or not plain.issuperset(map(type, matrix)):
                    matrix = resolve_all(matrix)
                if mb_x0 != 0:
                    x0, x1 = x0 + mb_x0, x1 + mb_x0
                out.append(
                    (
                        unicodedata.normalize(norm, text) if norm is not None else text,
                        x0,
                        x1,
                        (height - y1) + mb_top,
                        (height - y0) + mb_top,
                        size,
                        ncolor if isinstance(ncolor, tuple) else (ncolor,),
                        matrix,
                    )
                )

    walk(_glyph_layout(page)._objs)
    return out


def _glyph_layout(page: Page) -> Any:
    """The page's layout as pdfplumber makes it (``page.layout``: no layout analysis), read from
    its content streams without their paths (:mod:`kitgen.paper.textstream`): the same glyphs, a
    third to a half of the parsing. A page whose layout pdfplumber has made already, or a PDF opened
    with layout analysis (which groups what it reads), gives pdfplumber's own; pdfplumber's own is
    not replaced, so a check that asks for the page's shapes later gets them all."""
    from pdfplumber.page import PDFPageAggregatorWithMarkedContent
    from pdfplumber.utils.exceptions import PdfminerException

    if hasattr(page, "_layout") or page.pdf.laparams is not None:
        return page.layout
    device = PDFPageAggregatorWithMarkedContent(page.pdf.rsrcmgr, pageno=page.page_number, laparams=None)
    try:
        _glyph_interpreter()(page.pdf.rsrcmgr, device).process_page(page.page_obj)
    except Exception as e:  # as pdfplumber's page.layout says a parser's error
        raise PdfminerException(e) from e
    return device.get_result()


def _glyph_streams(streams: Sequence[object]) -> list[object]:
    """Each content stream without its paths, with its own object number (pdfminer skips a stream
    without one and refuses one it is already executing); a stream left as it is, as it is."""
    from pdfminer.pdftypes import PDFStream

    out: list[object] = []
    for obj in streams:
        stream = _stream(obj)
        kept = without_paths(stream.get_data()) if isinstance(stream, PDFStream) else None
        if kept is None or not isinstance(stream, PDFStream) or stream.objid is None or stream.genno is None:
            out.append(obj)
            continue
        lean = PDFStream({}, kept)
        lean.set_objid(stream.objid, stream.genno)
        out.append(lean)
    return out


def _stream(obj: object) -> object:
    from pdfminer.pdftypes import resolve1

    try:
        return resolve1(obj)
    except Exception:  # pdfminer says what it cannot resolve when it executes it
        return obj


@cache
def _glyph_interpreter() -> Any:
    from pdfminer.pdfinterp import PDFPageInterpreter

    class GlyphInterpreter(PDFPageInterpreter):
        """pdfminer's interpreter, reading each content stream (a form's too) without its paths."""

        def execute(self, streams: Sequence[object]) -> None:
            super().execute(_glyph_streams(streams))

    return GlyphInterpreter


_PLAIN = frozenset({float, int})  # values that pdfplumber's resolve_all gives back as they are


KEPT_PAGES = 64
_CHAR_KEYS = tuple(PdfChar.__annotations__)
assert _CHAR_KEYS == ("text", "x0", "x1", "top", "bottom", "size", "non_stroking_color", "matrix")
_KEPT: dict[tuple[object, ...], tuple[tuple[object, ...], ...]] = {}


def _page_key(page: Page) -> tuple[object, ...] | None:
    """The page's number, the Unicode normalisation its PDF was opened with (the glyphs' text is
    normalised with it) and its file's identity, size and modification time; None for a PDF not
    opened from a file by name, and for a part of a page (a cropped page keeps only some of its
    glyphs: its glyphs are not the whole page's)."""
    from pdfplumber.page import Page as WholePage

    if type(page) is not WholePage:
        return None
    name = getattr(page.pdf.stream, "name", None)
    if not isinstance(name, str):
        return None
    try:
        st = os.stat(name)
    except OSError:
        return None
    norm = page.pdf.unicode_norm
    return (os.path.realpath(name), st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, page.page_number, norm)


DPI = 150
MIN_CONTRAST = AA
SENTINEL = (1, 254, 3)  # a colour no kit prints: marks pixels outside a glyph's ink


Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Frame:
    """Where a page is printed: its printed area in pdfplumber's coordinates and in PDF user space.

    What is printed of a page is its CropBox cut to its MediaBox (the MediaBox where there is no
    CropBox or it is empty), turned by /Rotate: PDFium renders that, its top-left corner the
    render's pixel (0, 0). pdfplumber's glyph boxes are pdfminer's layout (the page turned by
    /Rotate, from the MediaBox's corner) moved by pdfplumber's own offsets (its MediaBox's top and
    left), so every glyph box and the render differ by one shift: a glyph's box less ``box``'s
    top-left corner, times the render's scale, is where the glyph is in the render, whatever the
    MediaBox's origin, the rotation or the CropBox. ``crop`` and ``rotation`` are what PDFium must
    report for the page (:func:`render_layers` compares them) for that to hold."""

    box: Box  # the printed area: x0, top, x1, bottom in pdfplumber's coordinates
    crop: Box  # the printed area in PDF user space: left, bottom, right, top
    rotation: int  # clockwise, in degrees: 0, 90, 180 or 270, as pdfminer's layout turns the page


def page_frame(page: Page) -> Frame:
    """The :class:`Frame` of a pdfplumber page (of the whole page a cropped page is part of), with
    pdfminer's and pdfplumber's own formulas (pdfminer.pdfinterp.PDFPageInterpreter.process_page's
    matrix, pdfplumber.page.Page.process_object's offsets)."""
    root = page.root_page
    obj = root.page_obj
    x0, y0, x1, y1 = (float(v) for v in obj.mediabox)  # as pdfminer's layout reads it
    rotation = obj.rotate if obj.rotate in (90, 180, 270) else 0
    media = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
    crop = media
    if obj.attrs.get("CropBox") is not None:
        c0, c1, c2, c3 = (float(v) for v in obj.cropbox)
        c0, c1, c2, c3 = min(c0, c2), min(c1, c3), max(c0, c2), max(c1, c3)
        if c2 > c0 and c3 > c1:
            cut = (max(c0, media[0]), max(c1, media[1]), min(c2, media[2]), min(c3, media[3]))
            crop = cut if cut[2] > cut[0] and cut[3] > cut[1] else (0.0, 0.0, 0.0, 0.0)
    a, b, c, d, e, f = {
        90: (0, -1, 1, 0, -y0, x1),
        180: (-1, 0, 0, -1, x1, y1),
        270: (0, 1, -1, 0, y1, -x0),
    }.get(rotation, (1, 0, 0, 1, -x0, -y0))
    xs = [a * x + c * y + e for x, y in ((crop[0], crop[1]), (crop[2], crop[3]))]
    ys = [b * x + d * y + f for x, y in ((crop[0], crop[1]), (crop[2], crop[3]))]
    left, top, _, bottom = (float(v) for v in root.mediabox)
    height = bottom - top
    box = (min(xs) + left, height - max(ys) + top, max(xs) + left, height - min(ys) + top)
    return Frame(box, crop, rotation)


class Unrendered(ValueError):
    """A page whose pixels are not checked, and why (the page check says so: ``unchecked``)."""


class FrameMismatch(Unrendered):
    """PDFium prints a page's area elsewhere than pdfplumber's coordinates say (a page the glyph
    boxes and the pixels could not be laid over each other for)."""


MAX_PIXELS = 64_000_000
"""The most pixels a page's render may have: A0 at :data:`DPI` is 35 million (each of its three
renders some 100 MB); a hostile MediaBox of 14,400 points square would be 900 million."""


@dataclass(frozen=True)
class Layers:
    """One page three ways, at :data:`DPI`; ``origin`` is the render's top-left corner in
    pdfplumber's coordinates (:class:`Frame`)."""

    full: Image.Image  # RGB: the page as printed
    under: Image.Image  # RGB: the page without its text
    text: Image.Image  # RGBA: the text alone, on transparent
    origin: tuple[float, float] = (0.0, 0.0)

    @property
    def scale(self) -> float:
        return DPI / 72


def render_layers(path: Path, number: int, frame: Frame | None = None) -> Layers:
    """Render page ``number`` (1-based) of the PDF at ``path`` as :class:`Layers`, laid where
    ``frame`` says the page is printed (a page printed from (0, 0) without one). Raises
    :class:`FrameMismatch` if PDFium's printed area or rotation is not ``frame``'s, :class:`Unrendered`
    if the page is larger than :data:`MAX_PIXELS` at :data:`DPI`."""
    full = _render(path, number, "all", frame)
    origin = (frame.box[0], frame.box[1]) if frame is not None else (0.0, 0.0)
    return Layers(full, _render(path, number, "under"), _render(path, number, "text"), origin)


def _check_frame(page: object, frame: Frame) -> None:
    import pypdfium2.raw as raw

    rect = raw.FS_RECTF()
    if not raw.FPDF_GetPageBoundingBox(page, rect):
        raise FrameMismatch("PDFium gives no printed area")
    theirs = (rect.left, rect.bottom, rect.right, rect.top)
    rotation = raw.FPDFPage_GetRotation(page) * 90
    # PDFium keeps coordinates as 32-bit floats: a hundredth of a point is well within a pixel.
    if rotation != frame.rotation or any(abs(u - v) > 0.01 for u, v in zip(theirs, frame.crop)):
        raise FrameMismatch(
            f"PDFium prints ({', '.join(f'{v:g}' for v in theirs)}) turned {rotation}, pdfplumber's "
            f"coordinates say ({', '.join(f'{v:g}' for v in frame.crop)}) turned {frame.rotation}"
        )


def _render(path: Path, number: int, keep: str, frame: Frame | None = None) -> Image.Image:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    try:
        page = pdf[number - 1]
        if frame is not None:
            _check_frame(page.raw, frame)
        w, h = page.get_size()
        if w * h * (DPI / 72) ** 2 > MAX_PIXELS:
            page.close()
            raise Unrendered(
                f"the page ({w / 72 * 25.4:.0f} x {h / 72 * 25.4:.0f} mm) is too large to render"
            )
        # The objects taken out are rendered from the page's list of objects as it is in memory; the
        # file is not written, so its content stream is not generated again (a tenth of the check).
        removed = [] if keep == "all" else _strip(page.raw, keep == "under")
        # Annotations are drawn over the page as printed, and are neither under its text nor text
        # pdfplumber reports: text under an annotation's appearance is covered by it.
        annotations = keep == "all"
        try:
            if keep == "text":
                bitmap = page.render(scale=DPI / 72, fill_color=(255, 255, 255, 0), draw_annots=False)
                image: Image.Image = bitmap.to_pil()
                return image.convert("RGBA")
            image = page.render(scale=DPI / 72, draw_annots=annotations).to_pil()
            return image.convert("RGB")
        finally:
            _destroy(removed)
            page.close()
    finally:
        pdf.close()


FORM_DEPTH = 15  # Form XObjects within forms that are looked into (pypdfium2's get_objects' depth)


def _strip(page: object, text: bool) -> list[object]:
    """Take out of the (raw PDFium) page its text objects (``text``), or every object but its text,
    inside Form XObjects too (a form is looked into, not taken out: the text inside it is text of
    the page, which pdfplumber reports among the page's glyphs). Returns the objects taken out, now
    the caller's to destroy. PDFium's own calls on the raw handles: pypdfium2's wrapper of each
    object was most of this step's time."""
    import pypdfium2.raw as raw

    removed: list[object] = []

    def walk(parent: object, form: bool, level: int) -> None:
        count = raw.FPDFFormObj_CountObjects if form else raw.FPDFPage_CountObjects
        get = raw.FPDFFormObj_GetObject if form else raw.FPDFPage_GetObject
        remove = raw.FPDFFormObj_RemoveObject if form else raw.FPDFPage_RemoveObject
        objects = [get(parent, i) for i in range(count(parent))]
        for obj in objects:
            kind = raw.FPDFPageObj_GetType(obj)
            if kind == raw.FPDF_PAGEOBJ_FORM and level < FORM_DEPTH - 1:
                walk(obj, True, level + 1)
            elif (kind == raw.FPDF_PAGEOBJ_TEXT) == text:
                if not remove(parent, obj):
                    raise RuntimeError(f"PDFium could not take out an object of page {parent}")
                removed.append(obj)

    walk(page, False, 0)
    return removed


def annotation_text(path: Path, number: int) -> int:
    """How many annotations of page ``number`` (1-based) PDFium shows with text in their
    appearance: text pdfplumber does not report among the page's glyphs, so no check measures it."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    def has_text(parent: object, form: bool, level: int) -> bool:
        count = raw.FPDFFormObj_CountObjects if form else raw.FPDFAnnot_GetObjectCount
        get = raw.FPDFFormObj_GetObject if form else raw.FPDFAnnot_GetObject
        for i in range(count(parent)):
            obj = get(parent, i)
            kind = raw.FPDFPageObj_GetType(obj)
            if kind == raw.FPDF_PAGEOBJ_TEXT or (
                kind == raw.FPDF_PAGEOBJ_FORM and level < FORM_DEPTH - 1 and has_text(obj, True, level + 1)
            ):
                return True
        return False

    unseen = raw.FPDF_ANNOT_FLAG_HIDDEN | raw.FPDF_ANNOT_FLAG_NOVIEW
    pdf = pdfium.PdfDocument(str(path))
    try:
        page = pdf[number - 1]
        found = 0
        for i in range(raw.FPDFPage_GetAnnotCount(page.raw)):
            annot = raw.FPDFPage_GetAnnot(page.raw, i)
            try:
                found += not raw.FPDFAnnot_GetFlags(annot) & unseen and has_text(annot, False, 0)
            finally:
                raw.FPDFPage_CloseAnnot(annot)
        page.close()
        return found
    finally:
        pdf.close()


def _destroy(objects: list[object]) -> None:
    import pypdfium2.raw as raw

    for obj in objects:
        raw.FPDFPageObj_Destroy(obj)


# --------------------------------------------------------------------------- colour


def pdf_colour(value: object) -> tuple[float, float, float] | None:
    """A fill colour as pdfplumber reports it (grey, RGB or CMYK), as RGB 0..1; None if unknown."""
    if isinstance(value, (int, float)):
        value = (value,)
    if not isinstance(value, (tuple, list)) or not all(isinstance(v, (int, float)) for v in value):
        return None
    v = [float(x) for x in value]
    if len(v) == 1:
        return (v[0], v[0], v[0])
    if len(v) == 3:
        return (v[0], v[1], v[2])
    if len(v) == 4:
        c, m, y, k = v
        return ((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k))
    return None


# --------------------------------------------------------------------------- checks


@dataclass(frozen=True)
class Glyph:
    """A glyph's box in pdfplumber's coordinates (points, from the top-left), text and colour."""

    text: str
    box: tuple[float, float, float, float]
    colour: tuple[float, float, float] | None
    turned: bool = False  # drawn upside down (read from the other side of the table)


def glyphs(chars: Sequence[PdfChar]) -> list[Glyph]:
    return [
        Glyph(
            str(c["text"]),
            (float(c["x0"]), float(c["top"]), float(c["x1"]), float(c["bottom"])),
            pdf_colour(c.get("non_stroking_color")),
            bool(c.get("matrix") and float(c["matrix"][0]) < 0),
        )
        for c in chars
        if str(c["text"]).strip()
    ]


def _pixels(layers: Layers, box: tuple[float, float, float, float]) -> tuple[int, int, int, int]:
    """A glyph box's pixels in the layers (see :class:`Frame`), cut to the render."""
    s = layers.scale
    w, h = layers.full.size
    ox, oy = layers.origin
    x0, y0 = max(0, int((box[0] - ox) * s)), max(0, int((box[1] - oy) * s))
    x1, y1 = min(w, int((box[2] - ox) * s) + 1), min(h, int((box[3] - oy) * s) + 1)
    return x0, y0, max(x0, x1), max(y0, y1)


def ink_mask(layers: Layers) -> Image.Image:
    """Where the text layer has ink (a mask: 255 ink, 0 none)."""
    return layers.text.getchannel("A").point(lambda v: 255 if v > 64 else 0)


def covered(
    layers: Layers, items: Sequence[Glyph], ink: Image.Image | None = None, every: bool = False
) -> list[tuple[Glyph, float]]:
    """Glyphs some of whose ink is hidden by what is drawn after them: (glyph, share hidden).
    ``every`` measures every glyph (the general path the shortcut below is tested against)."""
    ink = ink if ink is not None else ink_mask(layers)
    expected = Image.alpha_composite(layers.under.convert("RGBA"), layers.text).convert("RGB")
    wrong = ImageChops.difference(layers.full, expected).convert("L").point(lambda v: 255 if v > 48 else 0)
    hidden = ImageChops.multiply(ink, wrong)
    # Hidden ink lies within the bounding box of ``hidden``'s non-zero pixels (None: there is none):
    # a glyph whose pixels miss that box lost none, fails ``lost >= 2`` below, and is passed by
    # without cropping anything (most glyphs of most pages; tests/kitgen/paper/test_pagepixels.py
    # compares this with every glyph measured).
    bounds = (0, 0, *hidden.size) if every else hidden.getbbox()
    if bounds is None:
        return []
    out = []
    for g in items:
        px = _pixels(layers, g.box)
        if not _meets(px, bounds):
            continue
        total = ink.crop(px).histogram()[255]
        lost = hidden.crop(px).histogram()[255]
        # A pixel or two of antialiasing is noise; a glyph that lost a tenth, or several pixels, is not.
        if total >= 3 and lost >= 2 and lost / total >= 0.02:
            out.append((g, lost / total))
    return out


def contrasts(
    layers: Layers, items: Sequence[Glyph], ink: Image.Image | None = None, every: bool = False
) -> list[tuple[Glyph, float, str]]:
    """Glyphs whose contrast with what lies under their ink is below :data:`MIN_CONTRAST`:
    (glyph, ratio, the background colour as hex). ``every`` judges every glyph on its own (the
    general path that :func:`_clear_colours` is tested against)."""
    ink = ink if ink is not None else ink_mask(layers)
    out = []
    sentinel = Image.new("RGB", layers.under.size, SENTINEL)
    cache: dict[tuple[tuple[float, float, float], tuple[int, int, int]], float] = {}
    clear = set() if every else _clear_colours(layers, items, ink, sentinel)
    for g in items:
        if g.colour is None or g.colour in clear:
            continue
        px = _pixels(layers, g.box)
        mask = ink.crop(px)
        if mask.histogram()[255] < 3:
            continue
        under = Image.composite(layers.under.crop(px), sentinel.crop(px), mask)
        # No crop has more colours than pixels, so its pixel count is a bound that never gives None;
        # a bound of 65,536 would cost a zeroed table of that size for every glyph (Pillow sizes its
        # table by the bound), most of the check's time. The colours are sorted below: their order
        # here does not matter.
        colours = [
            (n, (int(rgb[0]), int(rgb[1]), int(rgb[2])))
            for n, rgb in (under.getcolors(under.width * under.height) or [])
            if isinstance(rgb, tuple) and rgb[:3] != SENTINEL
        ]
        total = sum(n for n, _ in colours)
        if not total:
            continue
        judged: list[tuple[float, int, tuple[int, int, int]]] = []
        for n, rgb in colours:
            key = (g.colour, rgb)
            if key not in cache:
                cache[key] = contrast(g.colour, [v / 255 for v in rgb])
            judged.append((cache[key], n, rgb))
        judged.sort()
        seen = 0
        for ratio, n, rgb in judged:
            seen += n
            if seen >= total / 5:
                if ratio < MIN_CONTRAST:
                    out.append((g, ratio, hex_of([v / 255 for v in rgb])))
                break
    return out


def _meets(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    """Whether two pixel boxes (left, top, right, bottom; right and bottom excluded) share a pixel."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


LISTED_COLOURS = 1 << 16  # more colours under a text colour's glyphs: each glyph is judged on its own


def _clear_colours(
    layers: Layers, items: Sequence[Glyph], ink: Image.Image, sentinel: Image.Image
) -> set[tuple[float, float, float]]:
    """The text colours of ``items`` that no glyph can be faint in: every colour under the ink of
    all their glyphs together contrasts at least :data:`MIN_CONTRAST` with it.

    Exact: a glyph's colours under its ink are some of those under the ink of the union of its
    colour's glyph boxes (the same pixels composited the same way), and a glyph is reported only
    when a fifth of its ink lies on a colour below the ratio (:func:`contrasts` takes the ratio
    with the same call), so with none below it no glyph of that colour is reported. One union per
    colour replaces a crop, a composite and a colour count per glyph; a page whose colours cannot
    be listed within :data:`LISTED_COLOURS` leaves that text colour to the glyph by glyph count."""
    boxes: dict[tuple[float, float, float], list[tuple[int, int, int, int]]] = {}
    for g in items:
        if g.colour is not None:
            boxes.setdefault(g.colour, []).append(_pixels(layers, g.box))
    clear = set()
    for colour, pixel_boxes in boxes.items():
        region = Image.new("L", layers.under.size, 0)
        for px in pixel_boxes:
            if px[2] > px[0] and px[3] > px[1]:
                region.paste(255, px)
        bounds = region.getbbox()
        if bounds is not None:
            mask = ImageChops.multiply(region.crop(bounds), ink.crop(bounds))
            under = Image.composite(layers.under.crop(bounds), sentinel.crop(bounds), mask)
            listed = under.getcolors(LISTED_COLOURS)
            if listed is None:
                continue
            try:
                faint = any(
                    contrast(colour, [v / 255 for v in rgb]) < MIN_CONTRAST
                    for _, rgb in listed
                    if isinstance(rgb, tuple) and rgb[:3] != SENTINEL
                )
            except ArithmeticError:
                # A colour out of range (a PDF's grey of -0.646: a luminance of -0.05, a ratio
                # divided by zero) under a glyph the glyph by glyph count passes by (fewer than 3
                # pixels of ink) must not stop the check: that count decides, as it did before.
                faint = True
            if faint:
                continue
        clear.add(colour)
    return clear


def run_text(run: Sequence[tuple[Glyph, object]]) -> str:
    """A run's text as it reads: glyphs turned half a turn (the bottom end of a card) read right to left."""
    text = "".join(g.text for g, _ in run)
    return text[::-1] if run and run[0][0].turned else text


def runs(items: Sequence[tuple[Glyph, T]]) -> list[list[tuple[Glyph, T]]]:
    """Findings of neighbouring glyphs on one line grouped, so a word is reported once."""
    out: list[list[tuple[Glyph, T]]] = []
    for item in sorted(items, key=lambda t: (round(t[0].box[1]), t[0].box[0])):
        g = item[0]
        if out:
            last = out[-1][-1][0]
            size = max(1.0, last.box[3] - last.box[1])
            if abs(last.box[1] - g.box[1]) < 1.0 and -1.0 <= g.box[0] - last.box[2] < size * 0.6:
                out[-1].append(item)
                continue
        out.append([item])
    return out
