"""Faces drawn once per PDF and replayed (kitgen.paper.replay): the PDF is byte for byte the one that
drawing every face gives, whatever state a face is drawn from; what cannot be replayed is drawn."""

from __future__ import annotations

import io
from collections.abc import Callable

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from kitgen.core.units import mm
from kitgen.paper import drawing, faces
from kitgen.paper.drawing import draw_face
from kitgen.paper.faces import Face, new_canvas
from kitgen.paper.replay import replayed

FACES = [
    Face("marker", "alpha", "α"),
    Face("marker", "beta", "β"),
    Face("theta", "theta1", "θ1", ("Ann",)),
    Face("theta", "theta2", "θ2", ("Bo",)),
    Face("plain", "x", "X"),
]


def pdf(draw: Callable[[Canvas, Face, float, float, float, float, bool], None]) -> bytes:
    """Each face many times on three pages, at different places and from different states."""
    out = io.BytesIO()
    c = new_canvas(out, (mm(210), mm(297)), "replay test")
    for page in range(3):
        for i in range(12):
            face = FACES[(i * (page + 1)) % len(FACES)]
            c.saveState()
            if i % 4 == 3:
                c.setFillColor(HexColor("#123456"))  # another state on entry: drawn, not replayed from before
            c.translate(mm(10) + mm(60) * (i % 3), mm(10) + mm(70) * (i // 3))
            draw(c, face, mm(56), mm(87), mm(1), mm(3), page == 2)
            c.restoreState()
        c.showPage()
    c.save()
    return out.getvalue()


def test_replayed_faces_give_the_bytes_of_drawing_every_face() -> None:
    assert pdf(draw_face) == pdf(drawing._draw_face)


def test_a_face_is_drawn_once_per_pdf_and_state() -> None:
    calls: list[Face] = []

    def counting(c: Canvas, face: Face, w: float, h: float, bleed: float, safe: float, saver: bool) -> None:
        replayed(c, (face, w, h, bleed, safe, saver), lambda: calls.append(face))

    pdf(counting)
    # 5 faces, each from two entry states (plain and the changed fill), on a plain and an
    # ink-saver page: never more drawings than that, though 36 are asked for.
    assert 5 <= len(calls) <= 20 and len(calls) < 36


def test_a_drawing_that_changes_transparency_or_the_page_is_not_kept() -> None:
    c = new_canvas(io.BytesIO(), (200, 200), "t")
    drawn: list[str] = []

    def alpha() -> None:
        drawn.append("alpha")
        c.setFillAlpha(0.5)
        c.rect(0, 0, 10, 10, fill=1)

    def page() -> None:
        drawn.append("page")
        c.showPage()

    for _ in range(2):
        c.saveState()
        replayed(c, "alpha", alpha)
        c.restoreState()
        replayed(c, "page", page)
    assert drawn == ["alpha", "page", "alpha", "page"]


def test_a_replay_appends_the_same_operators_and_leaves_the_same_state() -> None:
    c = new_canvas(io.BytesIO(), (200, 200), "t")

    def draw() -> None:
        c.setFont(faces.FONT_BOLD, 13)
        c.setLineWidth(2.5)
        c.setDash([1, 2])
        c.drawString(10, 10, "θ1")

    def never() -> None:
        raise AssertionError("drawn again from the same state")

    def state() -> tuple[object, ...]:
        return (c._fontname, c._fontsize, c._lineWidth, c._lineDash)  # type: ignore[attr-defined]

    code = c._code  # type: ignore[attr-defined]
    runs = []
    for make in (draw, never):
        c.saveState()
        start = len(code)
        replayed(c, "k", make)
        runs.append((code[start:], state()))
        c.restoreState()
    assert runs[0] == runs[1] and runs[0][1][:3] == (faces.FONT_BOLD, 13, 2.5)
