"""Cards as pictures: the printed designs (:mod:`kitgen.paper.faces`) rendered to PNG.

The viewer shows every card with these pictures (so a card on screen is the card on the table),
and ``kitgen build --export cards-png`` writes them at print resolution. Each card is drawn on a
page of its own (its trim size plus the bleed on every side) with reportlab and rendered by PDFium,
the renderer of the previews; the same inputs give the same bytes.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from ..core.units import mm
from .drawing import draw_back, draw_face
from .faces import Face, new_canvas

MM_PER_INCH = 25.4


@dataclass(frozen=True)
class PictureSize:
    """A card picture's geometry: trim size and bleed in millimetres, resolution in dots per inch."""

    width_mm: float
    height_mm: float
    bleed_mm: float = 0.0
    dpi: float = 300.0
    safe_mm: float = 3.0

    @property
    def pixels(self) -> tuple[int, int]:
        """The picture's size in pixels, trim plus bleed on both sides, to the nearest pixel."""
        return (
            round((self.width_mm + 2 * self.bleed_mm) / MM_PER_INCH * self.dpi),
            round((self.height_mm + 2 * self.bleed_mm) / MM_PER_INCH * self.dpi),
        )


def render(cards: Sequence[Face | None], size: PictureSize, ink_saver: bool = False) -> list[Image.Image]:
    """One RGB picture per card (None: the back), each exactly :attr:`PictureSize.pixels` in size."""
    import pypdfium2 as pdfium

    if not cards:
        return []
    px_w, px_h = size.pixels
    # The page is exactly the picture's pixels at the resolution; the card sits in its middle, so
    # the bleed is what is left around the trim (a fraction of a pixel off the nominal bleed).
    page_w, page_h = px_w * 72 / size.dpi, px_h * 72 / size.dpi
    w, h = mm(size.width_mm), mm(size.height_mm)
    bx, by = (page_w - w) / 2, (page_h - h) / 2
    buffer = io.BytesIO()
    c = new_canvas(buffer, (page_w, page_h), "kitgen card pictures")
    for card in cards:
        c.saveState()
        c.translate(bx, by)
        if card is None:
            draw_back(c, w, h, max(bx, by), ink_saver)
        else:
            draw_face(c, card, w, h, max(bx, by), mm(size.safe_mm), ink_saver)
        c.restoreState()
        c.showPage()
    c.save()
    pdf = pdfium.PdfDocument(buffer.getvalue())
    try:
        out = []
        for k in range(len(pdf)):
            image: Image.Image = pdf[k].render(scale=size.dpi / 72).to_pil()
            image = image.convert("RGB")
            if image.size != (px_w, px_h):  # PDFium rounds the page up by a pixel at most
                image = image.crop((0, 0, px_w, px_h))
            out.append(image)
        return out
    finally:
        pdf.close()


def png_bytes(image: Image.Image, dpi: float | None = None, optimize: bool = False) -> bytes:
    """The picture as PNG (with its resolution recorded when given). ``optimize`` makes it about
    6 % smaller and three times slower to write: for the small pictures of the viewer."""
    out = io.BytesIO()
    if dpi is None:
        image.save(out, format="PNG", optimize=optimize)
    else:
        image.save(out, format="PNG", optimize=optimize, dpi=(dpi, dpi))
    return out.getvalue()
