"""The rectangles and black lines of a PDF's pages as pdfplumber reads them, read by PDFium.

pdfplumber reads a page's drawing by running pdfminer's pure-Python parser over its whole content
stream: a front page of the default kit's cards is about 14,000 tokens (the card faces' paths), so
its rectangles and lines cost about 0.2 s of CPU a page, 11 s for the 51 front pages. PDFium
(pypdfium2, which kitgen renders previews with) hands over the same paths, parsed in C, in
0.02 s a page. :func:`geometry` turns them into pdfplumber's rectangles and lines by pdfminer's own
rules (``pdfminer.converter.PDFLayoutAnalyzer.paint_path``): a path is cut at each move; a
subpath ``m l`` or ``m l h`` is a line, ``m l l l h`` or ``m l l l l`` that closes on itself with
its sides along the axes is a rectangle (a closing ``l`` back to the start before ``h`` dropped
first); the points are the path's own times the object's matrix. The coordinates are pdfplumber's:
``top`` and ``bottom`` measured down from the page's top edge. PDFium keeps coordinates in single
precision: they agree with pdfplumber's to within 0.001 pt (5e-5 pt on the default kit's 51 front
pages, compared one by one at stop 56), and a test that reads them checks one page against
pdfplumber itself (tests/kitgen/kit/test_kit.py).
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as raw

_SEGMENTS = {raw.FPDF_SEGMENT_MOVETO: "m", raw.FPDF_SEGMENT_LINETO: "l", raw.FPDF_SEGMENT_BEZIERTO: "c"}

Box = dict[str, Any]  # x0, x1, top, bottom (a rectangle: width, height and fill too), in points


@dataclass(frozen=True)
class PageGeometry:
    """One page: its size, its rectangles (each with its fill colour as red, green and blue from 0
    to 1, in steps of 1/255) and its lines drawn in black (red, green and blue 0)."""

    width: float
    height: float
    rects: list[Box]
    black_lines: list[Box]


def _subpaths(obj: Any) -> list[tuple[str, list[tuple[float, float]]]]:
    """A path object's subpaths: each its shape (``m``, ``l``, ``c`` per point, ``h`` where it
    closes, with the start point again) and its points on the page."""
    handle, matrix = obj.raw, obj.get_matrix()
    x, y = ctypes.c_float(), ctypes.c_float()
    out: list[tuple[str, list[tuple[float, float]]]] = []
    for i in range(raw.FPDFPath_CountSegments(handle)):
        segment = raw.FPDFPath_GetPathSegment(handle, i)
        kind = _SEGMENTS[raw.FPDFPathSegment_GetType(segment)]
        raw.FPDFPathSegment_GetPoint(segment, x, y)
        point = matrix.on_point(x.value, y.value)
        if kind == "m" or not out:
            out.append((kind, [point]))
        else:
            out[-1] = (out[-1][0] + kind, out[-1][1] + [point])
        if raw.FPDFPathSegment_GetClose(segment):
            out[-1] = (out[-1][0] + "h", out[-1][1] + [out[-1][1][0]])
    return out


def _colour(obj: Any, get: Any) -> tuple[float, float, float] | None:
    """A path object's stroke or fill colour (``get``), red, green and blue from 0 to 1."""
    r, g, b, a = ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint()
    if not get(obj.raw, r, g, b, a):
        return None
    return (r.value / 255, g.value / 255, b.value / 255)


def geometry(path: Path, numbers: list[int]) -> dict[int, PageGeometry]:
    """The pages ``numbers`` (1-based) of the PDF at ``path``: {number: its geometry}."""
    pdf = pdfium.PdfDocument(str(path))
    out = {}
    try:
        for number in numbers:
            page = pdf[number - 1]
            width, height = page.get_size()
            rects: list[Box] = []
            lines: list[Box] = []
            # A form XObject's paths have matrices relative to the form: none is read here (kitgen
            # draws no form; a page with one is refused rather than read wrong).
            if any(True for _ in page.get_objects(filter=[raw.FPDF_PAGEOBJ_FORM], max_depth=1)):
                raise ValueError(f"page {number} of {path} holds a form XObject: read it with pdfplumber")
            for obj in page.get_objects(filter=[raw.FPDF_PAGEOBJ_PATH], max_depth=1):
                black = _colour(obj, raw.FPDFPageObj_GetStrokeColor) == (0, 0, 0)
                fill = _colour(obj, raw.FPDFPageObj_GetFillColor)
                for shape, pts in _subpaths(obj):
                    if len(shape) > 3 and shape[-2:] == "lh" and pts[-2] == pts[0]:
                        shape, pts = shape[:-2] + "h", pts[:-2] + pts[-1:]
                    if shape in ("mlh", "ml") and black:
                        (x0, y0), (x1, y1) = pts[0], pts[1]
                        lines.append(
                            {
                                "x0": min(x0, x1),
                                "x1": max(x0, x1),
                                "top": height - max(y0, y1),
                                "bottom": height - min(y0, y1),
                            }
                        )
                    elif shape in ("mlllh", "mllll"):
                        (x0, y0), (x1, y1), (x2, y2), (x3, y3), end = pts
                        along = (x0 == x1 and y1 == y2 and x2 == x3 and y3 == y0) or (
                            y0 == y1 and x1 == x2 and y2 == y3 and x3 == x0
                        )
                        if end == pts[0] and along:
                            left, right, low, high = min(x0, x2), max(x0, x2), min(y0, y2), max(y0, y2)
                            rects.append(
                                {
                                    "x0": left,
                                    "x1": right,
                                    "top": height - high,
                                    "bottom": height - low,
                                    "width": right - left,
                                    "height": high - low,
                                    "fill": fill,
                                }
                            )
            out[number] = PageGeometry(width, height, rects, lines)
            page.close()
    finally:
        pdf.close()
    return out
