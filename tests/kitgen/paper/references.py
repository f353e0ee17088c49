"""The page check's steps as they were first written, for the tests that compare the quick ones
with them (tests/kitgen/paper/test_pagepixels.py, test_pagecheck.py, test_pagecheck_hostile.py)."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as raw
from PIL import Image

from kitgen.paper import pagecheck as pc
from kitgen.paper import pagepixels as px


def render_before(path: Path, number: int, keep: str) -> Image.Image:
    """The layers as rendered before: pypdfium2's object wrappers, removal and generated content.
    The text layer keeps the Form XObjects pypdfium2 looks into (the text inside them is the page's
    text) and takes out every other object but text, theirs too."""
    pdf = pdfium.PdfDocument(str(path))
    try:
        page = pdf[number - 1]
        if keep != "all":
            for obj in list(page.get_objects(max_depth=px.FORM_DEPTH)):
                looked_into = obj.type == raw.FPDF_PAGEOBJ_FORM and obj.level < px.FORM_DEPTH - 1
                if keep == "text" and looked_into:
                    continue
                if (obj.type == raw.FPDF_PAGEOBJ_TEXT) == (keep == "under"):
                    page.remove_obj(obj)
            page.gen_content()
        image: Image.Image
        annotations = keep == "all"  # annotations are drawn over the page as printed only
        if keep == "text":
            bitmap = page.render(scale=px.DPI / 72, fill_color=(255, 255, 255, 0), draw_annots=False)
            image = bitmap.to_pil().convert("RGBA")
        else:
            image = page.render(scale=px.DPI / 72, draw_annots=annotations).to_pil().convert("RGB")
        return image
    finally:
        pdf.close()


def overlaps_pair_by_pair(chars: list[px.PdfChar], file: str, page: int) -> list[pc.Finding]:
    """overlaps as before: every pair of a grid cell through _inter and _area."""
    grid: dict[tuple[int, int], list[int]] = defaultdict(list)
    boxes = [pc._box(c) for c in chars]
    for i, b in enumerate(boxes):
        for gx in range(int(b[0] // 20), int(b[2] // 20) + 1):
            for gy in range(int(b[1] // 20), int(b[3] // 20) + 1):
                grid[(gx, gy)].append(i)
    seen: set[tuple[int, int]] = set()
    out = []
    for cell in grid.values():
        for a_i, i in enumerate(cell):
            for j in cell[a_i + 1 :]:
                if (i, j) in seen:
                    continue
                seen.add((i, j))
                a, b = boxes[i], boxes[j]
                small = min(pc._area(a), pc._area(b))
                if small <= 0 or pc._inter(a, b) < small / 3:
                    continue
                ca, cb = chars[i], chars[j]
                if abs(a[0] - b[0]) < 0.6 and abs(a[1] - b[1]) < 0.6 and ca["text"] == cb["text"]:
                    continue
                out.append(
                    pc.Finding(
                        file,
                        page,
                        "overlap",
                        f"{ca['text']!r} at ({a[0]:.0f}, {a[1]:.0f}) over "
                        f"{cb['text']!r} at ({b[0]:.0f}, {b[1]:.0f})",
                    )
                )
    return out
