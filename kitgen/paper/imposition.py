"""Saddle-stitch imposition: booklet pages two-up on sheets, in folding order.

A saddle-stitched booklet is a stack of sheets printed on both sides, folded once in the
middle and stapled on the fold. With N pages (padded with blank pages to a multiple of
four), sheet s (from 0) carries pages N-2s and 2s+1 on its front and 2s+2 and N-2s-1 on
its back (counting pages from 1, left then right). Print double-sided, flipping on the
short edge. pypdf places the rendered pages; reportlab cannot read PDF pages back.

The imposed PDF keeps the booklet's outline (its bookmarks): each entry points at the printed
side where its part lands, at the half (left or right) and the height of its heading, so a
reader navigates the A5 booklet as the A4 one, and the identifier check
(kitgen.booklet.jargon.exempt_pages) finds its Validation appendix there.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pypdf import PageObject, PdfReader, PdfWriter, Transformation
from pypdf.generic import Destination, Fit, IndirectObject


def saddle_order(pages: int) -> list[tuple[int | None, int | None]]:
    """(left, right) page numbers (1-based, None for a blank) of each printed side, in order."""
    n = (pages + 3) // 4 * 4
    sides: list[tuple[int | None, int | None]] = []

    def real(p: int) -> int | None:
        return p if p <= pages else None

    for s in range(n // 4):
        sides.append((real(n - 2 * s), real(2 * s + 1)))
        sides.append((real(2 * s + 2), real(n - 2 * s - 1)))
    return sides


def impose_saddle(source: Path, target: Path) -> int:
    """Impose ``source`` (pages of half the sheet) two-up onto landscape sheets; returns sides."""
    reader = PdfReader(str(source))
    first = reader.pages[0]
    w, h = float(first.mediabox.width), float(first.mediabox.height)
    writer = PdfWriter()
    sides = saddle_order(len(reader.pages))
    for left, right in sides:
        sheet = PageObject.create_blank_page(width=2 * w, height=h)
        for page, dx in ((left, 0.0), (right, w)):
            if page is not None:
                sheet.merge_transformed_page(reader.pages[page - 1], Transformation().translate(dx, 0))
        writer.add_page(sheet)
    where = {
        page: (side, dx)
        for side, pair in enumerate(sides)
        for page, dx in zip(pair, (0.0, w), strict=True)
        if page is not None
    }
    _copy_outline(reader, writer, reader.outline, None, where)
    writer.add_metadata(
        {"/Title": str(reader.metadata.title or "") if reader.metadata else "", "/Creator": "kitgen"}
    )
    with target.open("wb") as fh:
        writer.write(fh)
    return len(sides)


def _copy_outline(
    reader: PdfReader,
    writer: PdfWriter,
    items: Sequence[object],
    parent: IndirectObject | None,
    where: dict[int, tuple[int, float]],
) -> None:
    """The source's outline entries (nested as they are: a list follows its parent entry),
    each pointing at the printed side and half where its page lands, at its heading's height."""
    last: IndirectObject | None = None
    for item in items:
        if isinstance(item, list):
            _copy_outline(reader, writer, item, last, where)
            continue
        if not isinstance(item, Destination):
            continue
        number = reader.get_destination_page_number(item)
        if number is None or number + 1 not in where:
            continue
        side, dx = where[number + 1]
        left, top = item.get("/Left"), item.get("/Top")
        x = dx + (float(left) if isinstance(left, int | float) else 0.0)
        y = float(top) if isinstance(top, int | float) else None
        count = item.get("/Count")
        last = writer.add_outline_item(
            title=str(item.title),
            page_number=side,
            parent=parent,
            fit=Fit.xyz(left=x, top=y),
            is_open=not (isinstance(count, int) and count < 0),
        )
