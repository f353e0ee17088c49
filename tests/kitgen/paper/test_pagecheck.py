"""The page check finds each class of defect in a PDF made to have exactly that defect."""

from __future__ import annotations

from pathlib import Path

import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from kitgen.paper.faces import FONT, FONT_BOLD, new_canvas
from kitgen.paper.pagecheck import MM, card_cuts, check_pdf
from kitgen.paper.pagepixels import PdfChar
from tests.kitgen.paper.references import overlaps_pair_by_pair

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
        # One card: its background is the card plus 1 mm of bleed on each side (light, so that black
        # text on it reads: only the distance to the cut line is wrong).
        c.setFillColorRGB(0.95, 0.85, 0.8)
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


# --------------------------------------------------------------------------- made to fail, one each

CARD = (56.0, 87.0)
CARD_PT = (CARD[0] * MM, CARD[1] * MM)


def _card(c: Canvas, x: float, y: float, colour: tuple[float, float, float] = (1, 1, 1)) -> None:
    """One card's background (the card plus 1 mm of bleed), lower-left trim corner at (x, y)."""
    c.setFillColorRGB(*colour)
    c.rect(x - MM, y - MM, CARD_PT[0] + 2 * MM, CARD_PT[1] + 2 * MM, stroke=0, fill=1)


def _cards(path: Path, **kwargs: object) -> list[str]:
    found = check_pdf(path, cuts=lambda n, p: card_cuts(p, CARD, 1.0), margin_mm=3.0, **kwargs)  # type: ignore[arg-type]
    return [str(f) for f in found]


def test_a_crop_mark_through_text(tmp_path: Path) -> None:
    def draw(c: Canvas, cross: bool) -> None:
        _card(c, 100, 300)
        top = 300 + CARD_PT[1] + MM
        c.setLineWidth(0.25)
        c.line(100, top + MM, 100, top + 5 * MM)  # the crop mark continuing the left cut line
        c.setFont(FONT, 6)
        c.drawString(90 if cross else 110, top + 3 * MM, "kit · page 3/58 · fronts")

    bad = _cards(_pdf(tmp_path / "bad.pdf", lambda c: draw(c, True)), pixels=False)
    assert bad and all("crossing: a crop mark runs through" in f for f in bad), bad
    assert _cards(_pdf(tmp_path / "good.pdf", lambda c: draw(c, False)), pixels=False) == []


def test_text_across_a_cut_line(tmp_path: Path) -> None:
    """Two cards' outlines (a calibration page) and a box of text laid across the line between them."""

    def draw(c: Canvas) -> None:
        c.setLineWidth(0.4)
        for y in (300, 300 + CARD_PT[1]):
            c.rect(100, y, CARD_PT[0], CARD_PT[1], stroke=1, fill=0)
        c.setFillColorRGB(1, 1, 1)
        c.rect(110, 300 + CARD_PT[1] - 30, 120, 60, stroke=0, fill=1)
        c.setFillColorRGB(0, 0, 0)
        c.setFont(FONT, 8)
        c.drawString(115, 300 + CARD_PT[1] - 3, "Duplex calibration")

    found = _cards(_pdf(tmp_path / "c.pdf", draw), pixels=False)
    assert any("crossing: a cut line runs through" in f for f in found), found


def test_a_frame_inside_the_safe_margin(tmp_path: Path) -> None:
    def draw(c: Canvas, inset: float) -> None:
        _card(c, 100, 300)
        c.setStrokeColorRGB(0, 0.45, 0.7)
        c.setLineWidth(1.2)
        c.roundRect(
            100 + inset, 300 + inset, CARD_PT[0] - 2 * inset, CARD_PT[1] - 2 * inset, 5, stroke=1, fill=0
        )

    bad = _cards(_pdf(tmp_path / "bad.pdf", lambda c: draw(c, 1.8 * MM)), pixels=False)
    assert len(bad) == 1 and "frame: a stroked line" in bad[0] and "1.6 mm from a cut line" in bad[0], bad
    assert _cards(_pdf(tmp_path / "good.pdf", lambda c: draw(c, 4 * MM)), pixels=False) == []


def test_low_contrast_text(tmp_path: Path) -> None:
    def draw(c: Canvas, fill: tuple[float, float, float]) -> None:
        c.setFillColorRGB(*fill)
        c.rect(100, 600, 200, 40, stroke=0, fill=1)
        c.setFillColorRGB(1, 1, 1)
        c.setFont(FONT, 12)
        c.drawString(110, 615, "Red")

    orange = (0xD5 / 255, 0x5E / 255, 0)  # white on #D55E00: 3.9:1
    bad = [str(f) for f in check_pdf(_pdf(tmp_path / "bad.pdf", lambda c: draw(c, orange)))]
    assert len(bad) == 1 and "contrast: 'Red'" in bad[0] and "#FFFFFF on #D55E00 is 3.9:1" in bad[0], bad
    red = (0xC8 / 255, 0x10 / 255, 0x2E / 255)  # white on #C8102E: 5.9:1
    assert check_pdf(_pdf(tmp_path / "good.pdf", lambda c: draw(c, red))) == []


def test_a_label_under_a_shape(tmp_path: Path) -> None:
    def draw(c: Canvas, covered: bool) -> None:
        c.setFont(FONT_BOLD, 8)
        c.setFillColorRGB(0, 0, 0)
        c.drawString(60, 700, "(NOT X) AND t")
        c.setFillColorRGB(0.15, 0.21, 0.31)
        x = 60 + stringWidth("(NOT X) AND ", FONT_BOLD, 8) + 1  # over the t, or clear of it
        c.rect(x if covered else x + 12, 690, 30, 45, stroke=0, fill=1)  # a card drawn after it

    bad = [str(f) for f in check_pdf(_pdf(tmp_path / "bad.pdf", lambda c: draw(c, True)))]
    assert len(bad) == 1 and "covered: 't'" in bad[0], bad
    assert check_pdf(_pdf(tmp_path / "good.pdf", lambda c: draw(c, False))) == []


# --------------------------------------------------------------------------- the kits as they were

BEFORE = Path(__file__).parents[1] / "pagecheck_before"
# Pages of the kits as main built them before issue 26 (kitgen build/booklet with default options),
# with the card size of their kit: (file, card mm or None for a booklet page, kinds it must find).
AS_THEY_WERE = [
    ("sevens-cards-p3.pdf", (63.5, 88.9), {"crossing", "contrast"}),  # sheet id under the crop marks
    ("hearts-cards-p3.pdf", (63.5, 88.9), {"crossing", "contrast"}),
    ("sevens-calibration-p1.pdf", (63.5, 88.9), {"crossing", "frame", "cut"}),  # the box over a cut line
    ("uno-cards-p3.pdf", (56.0, 87.0), {"contrast"}),  # white on #D55E00 "red"
    ("uno-alpha-p73.pdf", (56.0, 87.0), {"frame", "contrast"}),  # frames 1.8 mm inside the cut
    ("gakmoro-cards-p3.pdf", (41.0, 63.0), {"frame"}),
    ("covert-lottery-booklet-p5.pdf", None, {"covered"}),  # "(NOT X) AND t" under a card
    ("puzzles-booklet-p1.pdf", None, {"covered", "contrast"}),  # the chain's "1" under a disc
    ("six-card-and-booklet-p4.pdf", None, {"covered"}),  # hidden-face letters under the frames
]


@pytest.mark.parametrize("name, card, kinds", AS_THEY_WERE, ids=[a[0] for a in AS_THEY_WERE])
def test_it_finds_the_defects_of_the_kits_as_they_were(
    name: str, card: tuple[float, float] | None, kinds: set[str]
) -> None:
    path = BEFORE / name
    cuts = (lambda n, p: card_cuts(p, card, 1.0)) if card else None
    found = check_pdf(path, cuts=cuts, margin_mm=3.0)
    assert kinds <= {f.kind for f in found}, [str(f) for f in found]


def test_the_defects_named_in_the_issue() -> None:
    """The very defects the issue reports, each found where it was."""

    def found(name: str, card: tuple[float, float] | None = None) -> list[str]:
        cuts = (lambda n, p: card_cuts(p, card, 1.0)) if card else None
        return [str(f) for f in check_pdf(BEFORE / name, cuts=cuts, margin_mm=3.0)]

    sevens = found("sevens-cards-p3.pdf", (63.5, 88.9))
    assert any("crossing: a crop mark runs through 'p'" in f for f in sevens)  # "page 3/58"
    lottery = found("covert-lottery-booklet-p5.pdf")
    assert any("covered: 't'" in f for f in lottery)  # the t of "(NOT X) AND t"
    puzzles = found("puzzles-booklet-p1.pdf")
    assert any("covered: '1'" in f for f in puzzles)  # the chain's first card
    alpha = found("uno-alpha-p73.pdf", (56.0, 87.0))
    assert any("frame: a stroked line" in f and "1.6 mm from a cut line" in f for f in alpha)
    uno = found("uno-cards-p3.pdf", (56.0, 87.0))
    assert any("#FFFFFF on #D55E00 is 3.9:1" in f for f in uno)


def test_kept_glyphs_are_a_pages_own_and_a_file_written_again_is_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """kitgen.paper.pagepixels keeps the glyphs of the pages it read (the page check and the
    identifier check read the same kit): each read gives fresh dicts equal to pdfplumber's, the
    right page's, a file written again under the same name is read again, and the number kept is
    bounded."""
    import pdfplumber

    from kitgen.paper import pagepixels as px

    def draw(words: str) -> object:
        def on(c: Canvas) -> None:
            c.setFont(FONT, 10)
            c.drawString(100, 700, words)
            c.showPage()
            c.setFont(FONT, 10)
            c.drawString(100, 700, "second page")

        return on

    path = _pdf(tmp_path / "p.pdf", draw("first words"))

    def read(n: int) -> str:
        with pdfplumber.open(str(path)) as pdf:
            chars = px.page_chars(pdf.pages[n - 1])
            fresh = [{k: c[k] for k in px._CHAR_KEYS} for c in pdf.pages[n - 1].chars]
        assert chars == fresh
        text = "".join(c["text"] for c in chars)
        chars[0]["text"] = "!"  # a caller's change stays its own
        return text

    assert read(1) == read(1) == "first words" and read(2) == "second page"
    path.unlink()  # a new file under the same name (its inode, size or time differs)
    _pdf(path, draw("other words, longer"))
    assert read(1) == "other words, longer" and read(2) == "second page"
    monkeypatch.setattr(px, "KEPT_PAGES", 1)
    read(1)
    read(2)
    assert len(px._KEPT) == 1 and read(1) == "other words, longer"


def test_overlaps_finds_what_every_pair_compared_finds() -> None:
    """Glyphs crowded on a small page: boxes that touch, share an edge, have no area, lie within
    each other, span grid cells, or are one glyph drawn twice; the same findings in the same order."""
    import random

    from kitgen.paper.pagecheck import overlaps

    rng = random.Random(5)
    total = 0
    for _ in range(40):
        chars: list[PdfChar] = []
        for k in range(rng.randrange(2, 60)):
            x0, top = rng.choice([rng.uniform(0, 60), float(rng.randrange(0, 60, 4))]), rng.uniform(0, 60)
            w, h = rng.choice([0.0, 2.0, 4.0, rng.uniform(0, 12)]), rng.choice([0.0, 4.0, rng.uniform(0, 12)])
            text = rng.choice("aab")
            chars.append(
                {
                    "text": f"{text}{k}" if rng.random() < 0.5 else text,
                    "x0": x0,
                    "x1": x0 + w,
                    "top": top,
                    "bottom": top + h,
                    "size": 10.0,
                    "non_stroking_color": (0,),
                    "matrix": (1, 0, 0, 1, 0, 0),
                }
            )
            if rng.random() < 0.2:
                chars.append(dict(chars[-1]))  # type: ignore[arg-type]
        found = overlaps(chars, "p.pdf", 1)
        assert found == overlaps_pair_by_pair(chars, "p.pdf", 1)
        total += len(found)
    assert total > 40
