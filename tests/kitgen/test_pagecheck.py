"""The page check finds each class of defect in a PDF made to have exactly that defect."""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from kitgen.faces import FONT, new_canvas
from kitgen.pagecheck import MM, card_cuts, check_pdf

A4 = (595.0, 842.0)


def _pdf(path: Path, draw: object, embedded: bool = True) -> Path:
    c = new_canvas(str(path), A4, "test") if embedded else Canvas(str(path), pagesize=A4, invariant=1)
    draw(c)  # type: ignore[operator]
    c.showPage()
    c.save()
    return path


def kinds(path: Path, **kwargs: object) -> list[str]:
    return sorted({f.kind for f in check_pdf(path, **kwargs)})  # type: ignore[arg-type]


def test_a_clean_page_passes(tmp_path: Path) -> None:
    def draw(c: Canvas) -> None:
        c.setFont(FONT, 10)
        c.drawString(100, 700, "One line")
        c.drawString(100, 680, "Another line")
        c.drawString(100, 660, "X")
        c.drawString(100, 660, "X")  # the same glyph twice on one spot: an outline, not a clash

    assert kinds(_pdf(tmp_path / "ok.pdf", draw)) == []


def test_helvetica_is_found_even_unused(tmp_path: Path) -> None:
    def draw(c: Canvas) -> None:
        c.setFont("Helvetica", 10)
        c.drawString(100, 700, "")

    assert kinds(_pdf(tmp_path / "h.pdf", draw, embedded=False)) == ["font"]


def test_text_over_text(tmp_path: Path) -> None:
    def draw(c: Canvas) -> None:
        c.setFont(FONT, 10)
        c.drawString(100, 700, "+2")
        c.drawString(101, 701, "-2")

    assert kinds(_pdf(tmp_path / "o.pdf", draw)) == ["overlap"]


def test_text_off_the_page(tmp_path: Path) -> None:
    def draw(c: Canvas) -> None:
        c.setFont(FONT, 10)
        c.drawString(580, 400, "runs off")

    assert kinds(_pdf(tmp_path / "x.pdf", draw)) == ["outside"]


def test_text_at_a_cut_line(tmp_path: Path) -> None:
    card = (56.0, 87.0)

    def draw(c: Canvas) -> None:
        # One card: its background is the card plus 1 mm of bleed on each side.
        c.setFillColorRGB(0.8, 0.2, 0.1)
        c.rect(100, 300, (card[0] + 2) * MM, (card[1] + 2) * MM, stroke=0, fill=1)
        c.setFillColorRGB(0, 0, 0)
        c.setFont(FONT, 8)
        c.drawString(100 + 5 * MM, 300 + 40 * MM, "inside, far from the edge")
        c.drawString(100 + 1.5 * MM, 300 + 20 * MM, "near")  # 0.5 mm from the cut line

    path = _pdf(tmp_path / "c.pdf", draw)
    found = check_pdf(path, cuts=lambda n, p: card_cuts(p, card, 1.0), margin_mm=3.0)
    # Only the letters of "near" within 3 mm of the edge; nothing of the text far inside.
    assert found and {f.kind for f in found} == {"cut"}, [str(f) for f in found]
    assert {f.detail[1] for f in found} <= set("near") and "'n' is 0.5 mm" in found[0].detail
    assert check_pdf(path, cuts=lambda n, p: card_cuts(p, card, 1.0), margin_mm=0.2) == []
