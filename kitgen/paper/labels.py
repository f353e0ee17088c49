"""Label sheets as PDF: sleeve value labels, seat labels and storage labels.

Labels are placed on a preset (Avery L7160/L7163 on A4, 5160/5163 on Letter) or on a plain
cut-out grid. ``start`` skips the first labels of a partly used sheet. The first page is a
calibration page: print it on plain paper and hold it against a label sheet to check that
the outlines meet the labels.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.colors import HexColor, black
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from reference_engine.api import UsageError

from ..core.templates import LabelSheet, Paper
from ..core.units import mm
from ..lang.catalogue import _
from ..lang.seats import seat_name
from .faces import FONT, FONT_BOLD, new_canvas
from .layout import Box
from .pen import theta_colour


@dataclass(frozen=True)
class Label:
    """One label: a big title, a line under it, and an optional colour swatch (a θ colour)."""

    title: str
    line: str = ""
    colour: str = ""
    kind: str = "label"


@dataclass
class LabelsInfo:
    pages: int
    labels: int
    sheet: str
    start: int

    def to_json(self) -> dict[str, object]:
        return dict(self.__dict__)


def sheet_words(sheet: LabelSheet) -> str:
    """The label sheet as a page names it: its short name (``Avery L7160 (A4, 21 labels)``),
    through the catalogue (layout.yaml's ``labels.*.name`` are catalogue entries)."""
    return _(sheet.name)


def label_boxes(sheet: LabelSheet, paper: Paper) -> list[Box]:
    """Every label on a sheet, in reading order (top-left first)."""
    boxes = []
    for r in range(sheet.rows):
        for col in range(sheet.columns):
            x = sheet.left.points + col * sheet.pitch.w
            top = sheet.top.points + r * sheet.pitch.h
            y = paper.size.h - top - sheet.label.h
            boxes.append(Box(x, y, sheet.label.w, sheet.label.h))
    return boxes


def render_labels(
    path: Path, labels: Sequence[Label], sheet: LabelSheet, paper: Paper, kit: str, start: int = 1
) -> LabelsInfo:
    if not 1 <= start <= sheet.per_sheet:
        raise UsageError(
            f"--label-start must be between 1 and {sheet.per_sheet} for {sheet.name}, got {start}"
        )
    boxes = label_boxes(sheet, paper)
    c = new_canvas(str(path), (paper.size.w, paper.size.h), f"{kit}: labels")
    # Page 1: calibration outlines.
    c.setStrokeColor(black)
    c.setLineWidth(0.4)
    for k, box in enumerate(boxes, 1):
        c.roundRect(box.x, box.y, box.w, box.h, sheet.radius.points, stroke=1, fill=0)
        c.setFont(FONT, 6)
        c.drawCentredString(box.x + box.w / 2, box.y + box.h / 2 - 2, f"{k}")
    c.setFont(FONT_BOLD, 8)
    heading = _("Label calibration: {sheet}").format(sheet=sheet_words(sheet))
    c.drawString(mm(8), paper.size.h - mm(6), heading)
    c.setFont(FONT, 6.5)
    c.drawString(
        mm(8),
        paper.size.h - mm(9.5),
        _(
            "Print this page on plain paper at 100% and hold it against a label sheet: every outline should "
            "sit on a label. Labels start on the next page."
        ),
    )
    c.showPage()
    pages = 1
    queue = list(labels)
    first = True
    while queue:
        positions = boxes[start - 1 :] if first else boxes
        first = False
        for box in positions:
            if not queue:
                break
            _label(c, queue.pop(0), box, sheet)
        c.setFont(FONT, 5.5)
        c.setFillColor(black)
        c.drawString(
            mm(8),
            mm(4),
            _(
                "{kit} · labels.pdf page {page} (label sheet {sheet_no}) · {sheet} · "
                "print at 100% (actual size)"
            ).format(kit=kit, page=pages + 1, sheet_no=pages, sheet=sheet_words(sheet)),
        )
        c.showPage()
        pages += 1
    c.save()
    return LabelsInfo(pages, len(labels), sheet.key, start)


def _label(c: Canvas, label: Label, box: Box, sheet: LabelSheet) -> None:
    # 3 mm of safe margin: a label printer's registration is often off by 1-2 mm.
    pad = mm(3)
    if sheet.cutout:
        c.setStrokeColor(HexColor("#999999"))
        c.setLineWidth(0.3)
        c.setDash(2, 2)
        c.rect(box.x, box.y, box.w, box.h, stroke=1, fill=0)
        c.setDash()
    text_x = box.x + pad
    if label.colour:
        c.setFillColor(HexColor(label.colour))
        c.rect(box.x + pad, box.y + pad, mm(6), box.h - 2 * pad, stroke=0, fill=1)
        text_x += mm(8)
    width = box.x + box.w - pad - text_x
    c.setFillColor(black)
    size = min(box.h * 0.38, 20.0)
    while size > 5 and pdfmetrics.stringWidth(label.title, FONT_BOLD, size) > width:
        size -= 0.5
    c.setFont(FONT_BOLD, size)
    c.drawString(text_x, box.y + box.h * 0.55, label.title)
    if label.line and pdfmetrics.stringWidth(label.line, FONT, 4) > width:
        _wrapped(c, label.line, text_x, box.y + box.h * 0.55 - size * 0.45, box.y + pad, width)
    elif label.line:
        small = min(8.0, box.h * 0.2)
        while small > 4 and pdfmetrics.stringWidth(label.line, FONT, small) > width:
            small -= 0.25
        c.setFont(FONT, small)
        c.drawString(text_x, box.y + box.h * 0.25, label.line)


WRAPPED_SIZE = 6.0


def _wrapped(c: Canvas, text: str, x: float, top: float, bottom: float, width: float) -> None:
    """A line too long for one line of the label, in lines under the title (a set of a class kit
    lists its cards); what does not fit ends in an ellipsis, never over the label's edge."""
    from reportlab.lib.utils import simpleSplit

    leading = WRAPPED_SIZE * 1.2
    room = max(1, int((top - bottom) // leading))
    lines = simpleSplit(text, FONT, WRAPPED_SIZE, width)
    if len(lines) > room:
        lines = lines[:room]
        last = lines[-1]
        while last and pdfmetrics.stringWidth(last + " …", FONT, WRAPPED_SIZE) > width:
            last = last[:-1]
        lines[-1] = last + " …"
    c.setFont(FONT, WRAPPED_SIZE)
    for k, line in enumerate(lines):
        c.drawString(x, top - leading * (k + 1), line)


def theta_label(i: int, owner: str) -> Label:
    return Label(f"θ{i}", seat_name(owner), theta_colour(i), "seat")
