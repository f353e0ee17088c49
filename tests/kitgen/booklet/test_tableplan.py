"""The picture of the whole table (kitgen.booklet.tableplan) and a game booklet's first-turn checklist."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from kitgen.booklet.tableplan import SMALL_CARD_PT, TablePlanFlowable, table_plan
from kitgen.cost.kitcost import Footprint
from kitgen.paper.faces import Face, ensure_fonts
from tests.kitgen.pdftext import page_texts

# Daifugō's kit states no time figures: its picture's sizes are its own largest table's
# (tests/kitgen/kinds/test_climbing.py).
# One game of each kind in the fast tier (UNO for the shedding games); the other shedding games'
# booklets (a build each, 10-16 s of CPU, read by no other fast test) are the slow tier's.
SHEDDING = [pytest.param(g, marks=pytest.mark.slow) for g in ("uno-small", "uno-official", "crazy-eights")]
PICTURED = ["uno", *SHEDDING, "sevens", "hearts", "dominoes"]
CHECKLIST = [*PICTURED, "daifugo"]


def _pages(folder: Path) -> list[str]:
    """The text of each page of the folder's booklet, white space made single spaces. The booklets
    are the session's (read only), read by tests of several files: extracted once a session
    (tests/kitgen/pdftext.py)."""
    return [" ".join(text.split()) for text in page_texts(folder / "booklet.pdf")]


def _page_of(pages: list[str], heading: str) -> int:
    """The page (1-based) whose heading is ``heading`` (after the contents page)."""
    return next(
        i for i, p in enumerate(pages, 1) if i > 2 and re.search(rf"page {i} {re.escape(heading)}", p)
    )


@pytest.mark.parametrize("ruleset", PICTURED)
def test_the_table_picture_has_the_kits_sizes(ruleset: str, game_booklet: Callable[[str], Path]) -> None:
    folder = game_booklet(ruleset)
    data = json.loads((folder / "booklet.json").read_text(encoding="utf-8"))
    plan, cost = data["table_plan"], data["table_time"]
    assert plan["rows_cm"] == [cost["table_width_cm"], cost["table_depth_cm"]]
    rows = next(b for b in plan["boxes"] if b["what"] == "rows")
    assert (round(rows["w"]), round(rows["h"])) == (cost["table_width_cm"], cost["table_depth_cm"])
    columns = [b for b in plan["boxes"] if b["what"] == "column"]
    assert len(columns) == int(rows["text"].split()[0])  # one sleeve or column each, as the caption says
    seats = [b["text"] for b in plan["boxes"] if b["what"] == "seat"]
    example = data["game_example"]
    assert len(seats) == example["players"] and "Virtual 1" in seats
    hand = next(b for b in plan["boxes"] if b["what"] == "hand")
    assert hand["text"] == f"{example['params']['sizes'][0]} cards, face down"
    # Everything lies on the table (rows, spares, piles) within its edges.
    for b in plan["boxes"]:
        if b["what"] in ("rows", "column", "spare", "pile", "envelopes", "hand"):
            assert b["x"] >= 0 and b["x"] + b["w"] <= plan["table_cm"][0] + 0.1, b
            assert b["y"] >= 0 and b["y"] + b["h"] <= plan["table_cm"][1] + 0.1, b
    # On its own page, just before the virtual turn chapter.
    pages = _pages(folder)
    at = _page_of(pages, "The table at a virtual turn")
    assert _page_of(pages, "A virtual player's turn") == at + 1
    assert f"about {cost['table_width_cm']} × {cost['table_depth_cm']} cm" in pages[at - 1]


def test_seats_do_not_overlap_with_many_players() -> None:
    fp = Footprint.of(120, (63, 88), 1)
    face = Face("theta", "theta1", "θ1", ("x",))
    seats = ["Virtual 1", "Virtual 2", *(f"Human {i}" for i in range(1, 7))]
    plan = table_plan(
        fp, seats, 2, ["Draw pile"], ["Discard pile"], [7, 9], [("θ1", face)] * 9, 4, [face] * 9, "sleeves"
    )
    places = [b for b in plan.boxes if b.what in ("seat", "hand", "spare", "pile", "envelopes", "rows")]
    for i, a in enumerate(places):
        for b in places[i + 1 :]:
            apart = a.x + a.w <= b.x or b.x + b.w <= a.x or a.y + a.h <= b.y or b.y + b.h <= a.y
            assert apart, (a, b)
    assert sum(b.what == "seat" for b in plan.boxes) == 8
    assert sum(b.virtual for b in plan.boxes if b.what == "seat") == 2


def _plan(fp: Footprint, spares: int) -> TablePlanFlowable:
    """A plan of the footprint ``fp`` with ``spares`` spare piles, drawn on an A4 text width."""
    ensure_fonts()
    face = Face("theta", "theta1", "θ1", ("x",))
    names = [f"θ{i}" for i in range(1, spares + 1)]
    seats = ["Virtual 1", "Human 1", "Human 2", "Human 3"]
    plan = table_plan(fp, seats, 1, [], ["Trick"], [6], [(n, face) for n in names], 58, [face] * 4, "columns")
    return TablePlanFlowable(plan, 504.6, 367.0 * (0.9 / 0.62 if plan.tall() else 1.0))


def test_a_tall_tables_small_cards_are_blank_and_its_spares_are_named_in_a_key() -> None:
    """Daifugō's table (52 columns in 4 rows of 16: 114 x 288 cm) drawn to the page's height: its cards
    are too small for words, so its spare piles are numbered and named in a key under the picture,
    every pile once and in order, in lines no wider than the picture."""
    tall = _plan(Footprint(52, 16, 4, 114, 288), 9)
    assert tall.plan.tall() and tall.small and tall.plan.card[0] * tall.scale < SMALL_CARD_PT
    entries = [e for line in tall.key for e in line]
    assert entries == [(str(i), f"θ{i}") for i in range(1, 10)]
    assert all(sum(tall._entry_width(e) for e in line) - 10 <= tall.width for line in tall.key)
    assert tall.height <= 367.0 * 0.9 / 0.62 + 0.01  # the key fits the picture's room
    many = _plan(Footprint(52, 16, 4, 114, 288), 40)  # more piles than a line holds: the key wraps
    assert len(many.key) > 1 and [e for line in many.key for e in line][-1] == ("40", "θ40")
    wide = _plan(
        Footprint(107, 18, 6, 115, 57), 9
    )  # UNO's table: as wide as the text, its cards large enough for their words
    assert not wide.plan.tall() and not wide.small and wide.key == [] and wide.key_h == 0


def test_daifugos_booklet_passes_the_page_check(game_booklet: Callable[[str], Path]) -> None:
    """Daifugō's booklet (the session's Daifugō kit): no font that is not embedded on any page; no
    text over text or off the page on the tall table's page and its neighbours, and on its picture
    no caption hidden or faint. (Every page's text: the slow test below; the fast tier checks every
    page of UNO's booklets, whose chapters Daifugō's share.)"""
    from kitgen.paper.pagecheck import check_pdf, unembedded_fonts

    folder = game_booklet("daifugo")
    pages = _pages(folder)
    at = _page_of(pages, "The table at a virtual turn")
    near = [n for n in (at - 1, at, at + 1) if 1 <= n <= len(pages)]
    found = unembedded_fonts(folder / "booklet.pdf") + check_pdf(folder / "booklet.pdf", near, pixels=[at])
    assert [str(f) for f in found] == []
    data = json.loads((folder / "booklet.json").read_text(encoding="utf-8"))
    spares = [b["text"] for b in data["table_plan"]["boxes"] if b["what"] == "spare"]
    assert spares and all(f"{i} {words}" in pages[at - 1] for i, words in enumerate(spares, 1))


@pytest.mark.slow  # the text of every page; the fast tier checks the picture's page and its neighbours
def test_every_page_of_daifugos_booklet_passes_the_page_check(game_booklet: Callable[[str], Path]) -> None:
    from kitgen.paper.pagecheck import check_pdf

    folder = game_booklet("daifugo")
    at = _page_of(_pages(folder), "The table at a virtual turn")
    assert [str(f) for f in check_pdf(folder / "booklet.pdf", pixels=[at])] == []


@pytest.mark.parametrize("ruleset", CHECKLIST)
def test_the_first_turn_checklist_fits_a_page_and_its_pages_are_right(
    ruleset: str, game_booklet: Callable[[str], Path]
) -> None:
    folder = game_booklet(ruleset)
    pages = _pages(folder)
    at = _page_of(pages, "Your first virtual turn: a checklist")
    page = pages[at - 1]
    assert "the next turn can begin" in page  # its last box is on its first page
    assert "checklist" not in pages[at]  # and nothing of it runs on
    assert "…" not in page  # every page number was resolved
    # Every "Step N: ... (page P)" names a page where Step N really is.
    data = json.loads((folder / "booklet.json").read_text(encoding="utf-8"))
    top = data["sections"][0]
    found = re.findall(r"Step (\d+(?:\([a-z]\))?): .*?\(page (\d+)\)(?= \d+\. | If a check| ?$)", page)
    numbers = [s["number"] for s in top["steps"]]
    assert [n for n, _ in found] == numbers
    for n, p in found:
        assert f"Step {n}." in pages[int(p) - 1], (n, p)
    setup = re.search(r"the cards dealt \(page (\d+)\)", page)
    assert setup and int(setup.group(1)) == _page_of(pages, "Setting up the table")


@pytest.mark.slow  # a second booklet (A5) and its page check; the fast tier checks the A4 checklists
def test_on_a5_pages_the_checklist_still_fits_one_page_and_the_picture_passes_the_page_check(
    tmp_path: Path,
) -> None:
    """A saddle-stitched A5 booklet has half the room: the checklist's type shrinks to keep it on
    one page; the picture's captions stay legible (white tags, inside the table's edges)."""
    from kitgen.kit.build import BookletOptions, build_booklet
    from kitgen.paper.pagecheck import check_pdf

    folder = tmp_path / "a5"
    build_booklet(
        BookletOptions(name="uno", output=str(folder), runs=20, previews=False, imposition="a5-saddle")
    )
    sides = _pages(folder)  # two A5 pages a side, in saddle order: a page's neighbour is elsewhere
    check = next(
        i for i, s in enumerate(sides, 1) if "Your first virtual turn: a checklist Tick each box" in s
    )
    assert "the next turn can begin" in sides[check - 1]
    table = next(i for i, s in enumerate(sides, 1) if "The table at a virtual turn The whole table" in s)
    assert [str(f) for f in check_pdf(folder / "booklet.pdf", pages=[table, check])] == []


def test_a_column_is_drawn_as_the_cards_it_holds() -> None:
    """A column of the protocol's rows is drawn as its cards, stacked: the Gakmoro table (37
    columns of two cards, 118 x 27 cm) showed 37 cards, one per column drawn two cards tall, where
    the comparison lays out 74; a column of one sleeve (UNO's table) stays one card."""
    from reportlab.pdfgen.canvas import Canvas

    from kitgen.booklet.tableplan import Box

    def drawn(fp: Footprint) -> int:
        flowable = _plan(fp, 2)
        cards: list[Box] = []
        flowable._card = lambda c, b: cards.append(b)  # type: ignore[method-assign]
        flowable._later = []
        canvas = Canvas(io.BytesIO())
        for box in flowable.plan.boxes:
            if box.what == "column":
                flowable._draw_column(canvas, box)
        assert all(1.2 * b.w < b.h < 1.7 * b.w for b in cards)  # each one card's shape
        return len(cards)

    assert drawn(Footprint.of(37, (41, 63), 2)) == 74
    assert drawn(Footprint.of(107, (56, 87), 1)) == 107
    assert drawn(Footprint.of(20, (56, 87), 4)) == 80


def test_the_rows_caption_counts_the_cards_the_picture_draws() -> None:
    """The sealed-bid table's caption and sentence count every card its picture draws: Gakmoro's
    comparison lays out 74 cards, 37 columns of two (they said "37 cards in a row in 2 rows of up
    to 24" under a picture of 74); a row of single cards is still said as a row."""
    from reportlab.pdfgen.canvas import Canvas

    from kitgen.booklet.tableplan import Box

    ensure_fonts()
    face = Face("theta", "theta1", "θ1", ("x",))
    for fp, said in (
        (Footprint.of(37, (41, 63), 2), "74 cards, 37 columns of 2, in 2 rows of up to 24 columns"),
        (Footprint.of(19, (41, 63), 1), "19 cards in a row in 1 rows of up to 19"),
    ):
        seats = ["Alice", "Bob"]
        plan = table_plan(fp, seats, 0, [], [], [], [("♣", face)], 40, [face] * 2, "cards in a row")
        flowable = TablePlanFlowable(plan, 504.6, 367.0)
        cards: list[Box] = []
        flowable._card = lambda c, b, found=cards: found.append(b)  # type: ignore[method-assign]
        flowable._later = []
        for box in plan.boxes:
            if box.what == "column":
                flowable._draw_column(Canvas(io.BytesIO()), box)
        caption = next(b.text for b in plan.boxes if b.what == "rows")
        assert caption == said and caption.startswith(f"{len(cards)} cards")
        assert fp.sentence("cards in a row").endswith(f"for the largest turn: {said}.")
