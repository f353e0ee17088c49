"""Sheet layout: auto-fit, crop marks that never touch a card, mirrored backs, presets."""

from __future__ import annotations

from pathlib import Path

import pytest

from kitgen.core.templates import load_templates
from kitgen.core.units import mm
from kitgen.paper.labels import label_boxes
from kitgen.paper.layout import fit
from reference_engine.errors import SpecError, UsageError


@pytest.mark.parametrize(
    ("paper", "card", "profile", "count", "rotated"),
    [
        ("a4", "uno", "home", 9, False),
        # Shared cut lines: 3 x 87 + 2 = 263 mm of cards and bleed fit the 279.4 - 16 = 263.4 mm of
        # Letter inside margins and crop marks (with 2 mm of bleed per card, 267 mm did not).
        ("letter", "uno", "home", 9, False),
        ("a4", "poker", "home", 9, False),  # 3 x 63.5 + 2 = 192.5 mm wide, 3 x 88.9 + 2 = 268.7 mm high
        ("a3", "mini-usa", "home", 36, False),
        ("a4", "uno", "print-shop", 8, True),  # 2 x 4 cells of 93 x 62 mm with a 2 mm gutter
    ],
)
def test_fit(paper: str, card: str, profile: str, count: int, rotated: bool) -> None:
    t = load_templates()
    grid = fit(t.paper(paper).size, t.card_size(card).size, t.profile(profile))
    assert (grid.per_sheet, grid.rotated) == (count, rotated)
    # Centred on the page.
    area = grid.bleed_area()
    assert area.x == pytest.approx(grid.page_w - area.x1)
    assert area.y == pytest.approx(grid.page_h - area.y1)


@pytest.mark.parametrize("profile", ["home", "print-shop"])
def test_crop_marks_never_touch_a_card_and_stay_on_the_page(profile: str) -> None:
    t = load_templates()
    grid = fit(t.paper("a4").size, t.card_size("uno").size, t.profile(profile))
    boxes = [s.trim.grow(grid.bleed) for s in grid.slots()]
    margin = t.profile(profile).margin.points
    assert grid.crop_marks()
    for x0, y0, x1, y1 in grid.crop_marks():
        for b in boxes:
            overlap_x = min(x0, x1) < b.x1 and max(x0, x1) > b.x
            overlap_y = min(y0, y1) < b.y1 and max(y0, y1) > b.y
            assert not (overlap_x and overlap_y), "a crop mark touches a card"
        assert margin <= min(x0, x1) and max(x0, x1) <= grid.page_w - margin
        assert margin <= min(y0, y1) and max(y0, y1) <= grid.page_h - margin


def test_backs_mirror_for_each_flip() -> None:
    t = load_templates()
    grid = fit(t.paper("a4").size, t.card_size("uno").size, t.profile("home"))
    slot = grid.slots()[0]  # top left
    long = grid.mirrored(slot, "long")
    short = grid.mirrored(slot, "short")
    assert long.x == pytest.approx(grid.page_w - slot.trim.x1) and long.y == pytest.approx(slot.trim.y)
    assert short.y == pytest.approx(grid.page_h - slot.trim.y1) and short.x == pytest.approx(slot.trim.x)
    shifted = grid.mirrored(slot, "long", mm(1), mm(-0.5))
    assert shifted.x - long.x == pytest.approx(mm(1)) and shifted.y - long.y == pytest.approx(mm(-0.5))


def test_too_big_card_is_a_clear_error() -> None:
    t = load_templates()
    with pytest.raises(UsageError, match="does not fit"):
        fit(t.paper("a4").size, t.card_size("300x400mm").size, t.profile("home"))


@pytest.mark.parametrize(
    ("key", "n"),
    [
        ("L7160", 21),
        ("L7163", 14),
        ("5160", 30),
        ("5163", 10),
        ("cutout-sleeve-a4", 65),
        ("cutout-sleeve-letter", 60),
    ],
)
def test_label_presets_fit_their_paper(key: str, n: int) -> None:
    t = load_templates()
    sheet = t.label_sheet(key)
    paper = t.paper(sheet.paper)
    boxes = label_boxes(sheet, paper)
    assert len(boxes) == n
    assert all(b.x >= 0 and b.x1 <= paper.size.w + 0.01 and b.y >= 0 for b in boxes)
    # The presets are left-right symmetric on the page (within 0.1 mm).
    left = boxes[0].x
    right = paper.size.w - max(b.x1 for b in boxes)
    assert abs(left - right) < mm(0.1)


def test_l7160_geometry() -> None:
    t = load_templates()
    sheet = t.label_sheet("L7160")
    first = label_boxes(sheet, t.paper("a4"))[0]
    assert first.x == pytest.approx(mm(7.2)) and t.paper("a4").size.h - first.y1 == pytest.approx(mm(15.15))
    assert first.w == pytest.approx(mm(63.5)) and first.h == pytest.approx(mm(38.1))


def test_template_errors_name_line_and_key(tmp_path: Path) -> None:
    bad = tmp_path / "layout.yaml"
    bad.write_text(
        "papers: {a4: {size: 210mm x 297}}\ncards: {}\nprofiles:\n  home: {extends: nowhere}\nlabels: {}\n"
    )
    with pytest.raises(SpecError) as info:
        load_templates(str(bad))
    found = {(p.line, p.path) for p in info.value.problems}
    assert (1, "papers.a4.size") in found and (4, "profiles.home.extends") in found


def test_home_cards_share_cut_lines() -> None:
    """One cut line between neighbours (columns + 1 and rows + 1 lines, one crop mark pair each),
    bleed only around the block, and no card's design painted on a neighbour."""
    t = load_templates()
    grid = fit(t.paper("a4").size, t.card_size("uno").size, t.profile("home"))
    xs, ys = grid.cut_lines()
    assert (len(xs), len(ys)) == (grid.columns + 1, grid.rows + 1)
    assert len(grid.crop_marks()) == 2 * (len(xs) + len(ys))
    slots = grid.slots()
    block = grid.trim_area()
    paints = [grid.paint_box(s.trim, block) for s in slots]
    for i, a in enumerate(paints):
        for b in paints[i + 1 :]:
            overlap_w = min(a.x1, b.x1) - max(a.x, b.x)
            overlap_h = min(a.y1, b.y1) - max(a.y, b.y)
            assert overlap_w <= 1e-6 or overlap_h <= 1e-6, "a card paints on its neighbour"
    # The outer cards keep their bleed on the outer sides only.
    corner = paints[0]  # top-left
    assert corner.x == pytest.approx(slots[0].trim.x - grid.bleed)
    assert corner.x1 == pytest.approx(slots[0].trim.x1)
    shop = fit(t.paper("a4").size, t.card_size("uno").size, t.profile("print-shop"))
    xs2, _ = shop.cut_lines()
    assert len(xs2) == 2 * shop.columns  # every card its own lines


def test_region_titles_wrap_instead_of_running_under_the_cards() -> None:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from kitgen.booklet.diagram import title_lines
    from kitgen.core.units import mm
    from kitgen.paper.faces import FONT_BOLD, ensure_fonts

    ensure_fonts()
    lines, size = title_lines("(NOT X) AND t", mm(13.5))
    assert lines == ["(NOT X)", "AND t"] and size == 7.5
    assert all(stringWidth(line, FONT_BOLD, size) <= mm(13.5) for line in lines)
    # One word too wide for the column: smaller type, never wider than the column.
    lines, size = title_lines("Supercalifragilistic", mm(13.5))
    assert lines == ["Supercalifragilistic"] and size < 7.5
    assert stringWidth(lines[0], FONT_BOLD, size) <= mm(13.5) or size == 4.5


def test_moves_over_the_same_places_get_their_own_level() -> None:
    from kitgen.booklet.diagram import arrow_levels

    # Six-card AND, Step 2: 2 -> 4, 3 -> 2, 4 -> 3. The two short moves share place 3, so they
    # cannot share a level; the long move goes over both.
    levels = arrow_levels([(2, 4), (3, 2), (4, 3)])
    assert levels[1] != levels[2] and levels[0] > max(levels[1], levels[2])
    assert arrow_levels([(1, 2), (5, 6)]) == [0, 0]  # apart: one level


def test_presets_live_once_in_layout_yaml(tmp_path: Path) -> None:
    """--paper and --labels offer exactly the presets of templates/layout.yaml, and each paper
    names its default label sheet there (an unknown one is an error naming the key)."""
    from kitgen.core.optionspec import LABELS, PAPER
    from kitgen.kinds import default_labels

    t = load_templates()
    assert list(t.papers) == list(PAPER.choices) and list(t.labels) == list(LABELS.choices)
    assert [default_labels(p) for p in ("a4", "letter")] == ["L7160", "5160"]
    assert all(t.label_sheet(default_labels(p)) for p in t.papers)
    bad = tmp_path / "layout.yaml"
    bad.write_text(
        "papers: {a4: {size: 210mm x 297mm, labels: L9999}}\ncards: {}\nprofiles: {}\n"
        "labels: {L7160: {paper: a4, label: 63.5mm x 38.1mm, columns: 3, rows: 7, left: 7.2mm, "
        "top: 15.15mm, pitch: 66.04mm x 38.1mm}}\n"
    )
    with pytest.raises(SpecError) as info:
        load_templates(str(bad))
    assert (1, "papers.a4.labels") in {(p.line, p.path) for p in info.value.problems}
