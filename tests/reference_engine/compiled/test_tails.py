"""Steps 11 and 12's found case carried out as one plan (reference_engine/compiled/tails.py):
the draw-pile sleeve's three steps, the virtual player's owner cards out and its unselected
sleeves back, and Step 12 with 12(a), without the two tables between them. Every run here is
compared with the interpreter's, run for run, with ``evaluate.CHECKED`` (which also compares the
plan with the three built one after the other); each mutant that puts a step between them, or
breaks a condition, must be refused (each pair as before), and the mutants that keep the
structure must be taken and still be the interpreter's runs."""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
for folder in (HERE, HERE.parent):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from runs import single  # noqa: E402
from test_differential import _assignments  # noqa: E402
from test_fused import _compare, _library  # noqa: E402
from test_fused_tail import ARROW  # noqa: E402

from reference_engine.compiled import tails  # noqa: E402
from reference_engine.compiled.base import gather  # noqa: E402
from reference_engine.machine import Runner  # noqa: E402
from reference_engine.registry import Library  # noqa: E402
from reference_engine.sleeves import SleeveFrame  # noqa: E402
from reference_engine.table import Layout  # noqa: E402
from reference_engine.verify import input_assignments, setting  # noqa: E402

L2 = '      - discard: "L[2, *]"\n'
UNSELECTED = '          - return: {cards: "unselected[1, *]", to: 1}\n'
M3 = '      - discard: "M[3, *]"\n'
D1 = 'return: {cards: "D[1, *]", to: "pile"}'
OWNERS = 'to: "[family_index(t) for t in M[2, *]]"'
LET = "      - let:\n          z: 1\n"
READS_D = 'to: "[1 if exists(' + "'D'" + ') else 2 for t in M[2, *]]"'

# name -> (replacements, whether the tail is taken)
MUTANTS: dict[str, tuple[list[tuple[str, str]], bool]] = {
    "as-written": ([], True),
    # a step between Step 11's draw-pile sleeve and the owner cards out: the table between is seen
    "a-step-before-the-owner-cards": ([(L2, LET + L2)], False),
    # a step after Step 11's last ``if``
    "a-step-ending-step-11": ([(UNSELECTED, UNSELECTED + LET)], False),
    # a step before Step 12's arrows out
    "a-step-starting-step-12": ([(M3, LET + M3)], False),
    # the unselected sleeves to another owner: a hand Step 12 then adds to
    "unselected-to-p2": ([(UNSELECTED, UNSELECTED.replace("to: 1", "to: 2"))], True),
    # the draw-pile card to the virtual player: the hand the unselected sleeves then join
    "draw-pile-card-to-p1": ([(D1, D1.replace('to: "pile"', "to: 1"))], True),
    # every card of the grid to one owner
    "the-grid-to-p1": ([(OWNERS, "to: 1")], True),
    # every card of the grid to the owner a variable names (a free name: a variable, taken)
    "the-grid-to-the-draw-pile": ([(OWNERS, 'to: "[pile for t in M[2, *]]"')], True),
    # a free name that is no variable (the parameter ``draw``, 1: the virtual player)
    "the-grid-to-a-parameter": ([(OWNERS, 'to: "[draw for t in M[2, *]]"')], False),
    # Step 12's owners read what the tables between could tell apart (is D there?): no tail
    "owners-read-the-table": ([(OWNERS, READS_D)], False),
    # the pair in the other case's branch: the same structure, taken when nothing was found
    "the-other-case": ([('if: "found"', 'if: "not found"')], True),
}


def _count(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Counts the tails linked (when compiled) and carried out (their last step)."""
    made: Counter[str] = Counter()
    link, finish = tails.link, tails.Tail.finish

    def linked(entries: Any) -> None:
        link(entries)
        for _, _, step in entries:
            role = tails._role(step.body[0]) if getattr(step, "body", None) else None
            if role is not None and role.tail is not None and role is role.tail.m:
                made["linked"] += 1

    def finished(self: tails.Tail, run: Any, step: Any) -> bool:
        done = finish(self, run, step)
        made["taken"] += done
        return done

    owner_cards = tails.Tail._owner_cards

    def started(self: tails.Tail, run: Any) -> bool:
        done = owner_cards(self, run)
        made["from the owner cards"] += done
        return done

    drawn_ = tails.Tail.drawn

    def drawn(self: tails.Tail, run: Any, what: Any) -> bool:
        done = drawn_(self, run, what)
        made["from the drawn card's owner card"] += done
        return done

    monkeypatch.setattr(tails, "link", linked)
    monkeypatch.setattr(tails.Tail, "finish", finished)
    monkeypatch.setattr(tails.Tail, "_owner_cards", started)
    monkeypatch.setattr(tails.Tail, "drawn", drawn)
    return made


def test_the_default_protocols_steps_11_and_12_are_one_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    made = _count(monkeypatch)
    result = _compare(Library(), "card-selection-arrow", seeds=6)
    assert result[0] == "ran", result[:3]
    assert made["taken"] > made["from the drawn card's owner card"] > 0, made  # both cases


def test_a_protocol_links_its_tails_whatever_was_compiled_before_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The roles a protocol's discards offer wait in a bounded table (``tails._ROLES``) until its
    top-level block links them. With the table one short of its bound (earlier compilations in
    the process), the protocol compiled next still links its own: the older half is forgotten,
    not everything (a clear between its offers and its link lost its tails, and the tests that
    count tails failed or passed by the order they ran in)."""
    earlier = [object() for _ in range(tails.ROLES_KEPT - 1)]
    roles: dict[int, Any] = {id(o): (o, None) for o in earlier}
    monkeypatch.setattr(tails, "_ROLES", roles)
    made = _count(monkeypatch)
    result = _compare(Library(), "card-selection-arrow", seeds=6)
    assert result[0] == "ran", result[:3]
    assert made["linked"] > 0 and made["taken"] > 0, made
    assert len(roles) <= tails.ROLES_KEPT


@pytest.mark.parametrize("drawn", [True, False])
def test_the_case_where_nothing_was_found_starts_at_the_drawn_cards_owner_card(
    monkeypatch: pytest.MonkeyPatch, drawn: bool
) -> None:
    """mini-draw: P_1 often holds no valid card and draws; the drawn card is played or kept,
    so the tail starts at the drawn sleeve's owner card out (its discard, the deferred pair and
    Step 12 at once); with that start switched off, at the owner cards out (the deferred pair
    and Step 12 at once). Each run the interpreter's."""
    library = Library()
    proto = library.protocol("card-selection-arrow")
    st = setting(proto, scenario="mini-draw")
    frame = Runner(library, "sample").frame(proto, st.params)
    if not drawn:
        monkeypatch.setattr(tails.Tail, "drawn", lambda self, run, what: False)
    made = _count(monkeypatch)
    for values in input_assignments(frame, st.deal)[::6]:
        for seed in range(2):
            a = single(library, proto, st.params, values, seed, "interpreter", st.context or None)
            b = single(library, proto, st.params, values, seed, "compiled", st.context or None)
            assert a == b, (values, seed)
    start = "from the drawn card's owner card" if drawn else "from the owner cards"
    assert made[start] > 0 and made["taken"] > made[start], made


@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_steps_11_and_12_at_once_are_their_steps(
    tmp_path: Path, mutant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    replacements, taken = MUTANTS[mutant]
    name = f"arrow-tails-{mutant}"
    text = ARROW.replace("protocol: card-selection-arrow", f"protocol: {name}")
    for old, new in replacements:
        assert old in text, f"{mutant}: the default protocol changed; update the mutant"
        text = text.replace(old, new, 1)
    made = _count(monkeypatch)
    result = _compare(_library(tmp_path, name, text), name, seeds=6)
    assert result[0] == "ran", result[:3]
    assert bool(made["taken"]) == taken, (mutant, made)
    assert made["linked"] or not taken, (mutant, made)  # linked, refused at each run: a parameter


def test_a_run_that_ends_inside_a_tail_leaves_nothing_behind(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run stopped between the tail's first and last steps (here, a crash injected at its
    middle step) leaves the next runs of the same program their own tails, the interpreter's."""
    library = Library()
    proto = library.protocol("card-selection-arrow")
    st, assignments = _assignments(library, "card-selection-arrow", 3)
    middle = tails.Tail.middle
    stopped: list[int] = []

    def broken(self: tails.Tail, run: Any) -> bool:
        if not stopped:
            stopped.append(1)
            raise RuntimeError("stopped inside the tail")
        return middle(self, run)

    monkeypatch.setattr(tails.Tail, "middle", broken)
    outcomes = [
        single(library, proto, st.params, values, 0, "compiled", st.context or None) for values in assignments
    ]
    assert stopped and any(o[0] == "crash" and "inside the tail" in o[2] for o in outcomes), outcomes
    made = _count(monkeypatch)
    result = _compare(library, "card-selection-arrow", seeds=6)
    assert result[0] == "ran" and made["taken"] > 0, (result[:3], made)


def _layout(holes: frozenset[int] = frozenset()) -> Layout:
    m = SleeveFrame(declared=(2, 1, 3), rows=(2, 1, 3), front=frozenset({1, 3}), keeps=frozenset({2}))
    one = SleeveFrame(declared=(1,), rows=(1,), front=frozenset({1}))
    shapes = [
        ("M", 3, 4, 1, None, m),
        ("L", 2, 2, 1, None, m),
        ("D", 3, 1, 1, None, m),
        ("played", 1, 1, 1, None, one),
        ("unselected", 1, 1, 1, None, one),
    ]
    return Layout.make(shapes, holes, ())


def _args(layout: Layout) -> tuple[Any, ...]:
    def row(name: str, r: int) -> tuple[int, ...]:
        reg = layout.by_name[name]
        a = reg.offset + (r - 1) * reg.cols
        return tuple(range(a, a + reg.cols))

    d = (row("D", 3), row("D", 1), ("hand3",), row("D", 2))
    got = (row("L", 2), row("unselected", 1), ("hand1",), ())
    m = (row("M", 3), row("M", 1), ("hand2", "hand3", "hand2", "hand4"), row("M", 2))
    return d, got, m


def test_the_plan_is_the_three_plans_one_after_the_other() -> None:
    layout = _layout(frozenset(range(12, 14)))  # L's first row: empty places (the lottery's)
    d, got, m = _args(layout)
    plan = tails.build(layout, d, got, m)
    assert plan is not None
    tails._check(layout, plan, d, got, m)  # raises where they differ
    names = [(r.name, r.cols) for r in plan.layout.regions]
    assert names == [("played", 1), ("hand3", 2), ("hand1", 1), ("hand2", 2), ("hand4", 1)], names
    rng = random.Random(0)
    cells = [rng.randrange(2, 400) for _ in range(layout.size)]
    assert gather(cells, plan, ()) == [cells[f] for f in plan.src]


@pytest.mark.parametrize(
    "attack",
    [
        "a-card-in-ls-first-row",
        "an-empty-place-in-the-grid",
        "a-region-named-as-a-hand",
        "a-kept-region-named-as-a-hand",
        "a-row-of-another-region",
        "fewer-owners-than-cards",
    ],
)
def test_tables_the_tail_cannot_carry_out_are_refused(attack: str) -> None:
    layout = _layout(frozenset(range(12, 14)))
    d, got, m = _args(layout)
    if attack == "a-card-in-ls-first-row":
        layout = _layout(frozenset({12}))
    elif attack == "an-empty-place-in-the-grid":
        layout = _layout(frozenset({0, 12, 13}))
    elif attack == "a-region-named-as-a-hand":
        m = (m[0], m[1], ("hand2", "L", "hand2", "hand4"), m[3])
    elif attack == "a-kept-region-named-as-a-hand":  # a region that stays, no hand: the general builder's
        m = (m[0], m[1], ("hand2", "played", "hand2", "hand4"), m[3])
    elif attack == "fewer-owners-than-cards":
        m = (m[0], m[1], ("hand2", "hand3", "hand2"), m[3])
    else:
        got = (got[0], d[1], got[2], ())  # the draw-pile sleeve's row as the unselected one
    assert tails.build(layout, d, got, m) is None


@pytest.mark.parametrize("rows", [1, 2])
def test_a_hand_on_the_table_gets_its_cards_at_its_end(rows: int) -> None:
    """A hand the returns name that is on the table already keeps its slots and gets its cards
    after them, in order (the three plans one after the other); a hand of rows is refused."""
    m = SleeveFrame(declared=(2, 1, 3), rows=(2, 1, 3), front=frozenset({1, 3}), keeps=frozenset({2}))
    one = SleeveFrame(declared=(1,), rows=(1,), front=frozenset({1}))
    shapes = [
        ("M", 3, 4, 1, None, m),
        ("L", 2, 2, 1, None, m),
        ("hand2", rows, 2, 1, "hand2", None),
        ("D", 3, 1, 1, None, m),
        ("played", 1, 1, 1, None, one),
        ("unselected", 1, 1, 1, None, one),
    ]
    layout = Layout.make(shapes, frozenset(range(12, 14)), ())
    d, got, m_args = _args(layout)
    plan = tails.build(layout, d, got, m_args)
    if rows == 2:
        assert plan is None
        return
    assert plan is not None
    tails._check(layout, plan, d, got, m_args)
    names = [(r.name, r.cols) for r in plan.layout.regions]
    assert names == [("hand2", 4), ("played", 1), ("hand3", 2), ("hand1", 1), ("hand4", 1)], names


def _drawn_layout(holes: frozenset[int] | None = None) -> Layout:
    """The table where the draw-pile sleeve was drawn: D's card gone (its first row an empty
    place), its arrow discarded (two rows left), L's first row empty (the lottery's)."""
    m = SleeveFrame(declared=(2, 1, 3), rows=(2, 1, 3), front=frozenset({1, 3}), keeps=frozenset({2}))
    one = SleeveFrame(declared=(1,), rows=(1,), front=frozenset({1}))
    shapes = [
        ("M", 3, 4, 1, None, m),
        ("L", 2, 2, 1, None, m),
        ("D", 2, 1, 1, None, None),
        ("played", 1, 1, 1, None, one),
        ("unselected", 1, 1, 1, None, one),
    ]
    return Layout.make(shapes, frozenset({12, 13, 16}) if holes is None else holes, ())


@pytest.mark.parametrize(
    "attack",
    ["none", "a-card-in-ds-first-row", "ds-first-row", "with-the-found-cases-args", "another-regions-row"],
)
def test_the_drawn_case_is_the_owner_card_out_then_the_three_plans(attack: str) -> None:
    """From the drawn sleeve's owner card out (D goes: its first row is an empty place), the
    plan is the discard's and the two after it one after the other; anything else is refused."""
    layout = _drawn_layout(frozenset({12, 13}) if attack == "a-card-in-ds-first-row" else None)
    d, got, m = _args(layout)
    first: tuple[int, ...] = (17,)  # D[2, 1]
    if attack == "ds-first-row":
        first = (16,)
    elif attack == "another-regions-row":
        first = got[1]  # the unselected sleeves' row
    plan = tails.build(layout, d if attack == "with-the-found-cases-args" else None, got, m, first)
    if attack != "none":
        assert plan is None
        return
    assert plan is not None
    tails._check(layout, plan, None, got, m, first)
    names = [(r.name, r.cols) for r in plan.layout.regions]
    assert names == [("played", 1), ("hand1", 1), ("hand2", 2), ("hand3", 1), ("hand4", 1)], names


def test_a_drawn_card_left_in_its_sleeve_starts_no_tail_at_its_owner_card(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A mutant whose drawn card stays in its sleeve, up or down: the owner card may not go
    without it (the discard's own message, at its step), so no tail starts there; every run
    the interpreter's."""
    name = "arrow-tails-drawn-card-stays"
    text = ARROW.replace("protocol: card-selection-arrow", f"protocol: {name}")
    for where in ("played", "kept"):
        move = "                  - move: {" + where + ': "D[1, 1]"}\n'
        assert move in text, "the default protocol changed; update the mutant"
        text = text.replace(move, LET.replace("      ", "                  "))
    made = _count(monkeypatch)
    result = _compare(_library(tmp_path, name, text), name, seeds=6)
    assert result[0] == "error" and "goes only with the sleeve" in result[2], result[:3]
    assert made["taken"] > 0 and not made["from the drawn card's owner card"], made


def test_a_row_its_sleeves_keep_nothing_in_goes_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """Attack: kept_row answers True only where kept_whole does (whole rows not kept, a region
    without sleeves) and False for everything else it is handed: a kept row, part of a row, a row
    out of order or as a list, a run across two rows or two regions, slots off the table."""
    from reference_engine.compiled import evaluate as ev
    from reference_engine.compiled.plans import kept_whole

    monkeypatch.setattr(ev, "CHECKED", True)
    layout = _layout()

    def row(name: str, r: int) -> tuple[int, ...]:
        reg = layout.by_name[name]
        a = reg.offset + (r - 1) * reg.cols
        return tuple(range(a, a + reg.cols))

    for name, r in [("M", 1), ("M", 3), ("L", 1), ("D", 1), ("D", 3), ("played", 1)]:
        assert tails.kept_row(layout, row(name, r)) and kept_whole(layout, row(name, r))
    m1, m2 = row("M", 1), row("M", 2)
    for flats in [
        m2,  # the owner cards' row: kept
        row("L", 2),
        m1[:-1],
        m1[1:],
        m1[::-1],
        list(m1),
        m1[2:] + m2[:2],  # as wide as a row, across two
        row("L", 1)[1:] + row("D", 1),
        (),
        (10_000,),
        (-1,),
    ]:
        assert not tails.kept_row(layout, flats)
    # Each answer it gives is kept_whole's, over every stretch of slots of the table.
    for a in range(layout.size):
        for n in range(1, layout.size - a + 1):
            flats = tuple(range(a, a + n))
            if tails.kept_row(layout, flats):
                assert kept_whole(layout, flats)


def test_the_frame_is_kept_for_its_layout_and_rows_alone() -> None:
    """What follows from the layout and the rows is kept per layout and case, for those very
    rows: other owners on the same table use it (the same plan as worked out afresh); other rows
    on the same table (attack: the draw-pile sleeve's row as the unselected one, a kept region
    named as a hand) are worked out afresh and refused, and never replace it."""
    layout = _layout(frozenset(range(12, 14)))
    d, got, m = _args(layout)
    assert tails.build(layout, d, got, m) is not None
    frame = tails._FRAMES.get((layout, False, False))
    assert frame is not None
    owners = (m[0], m[1], ("hand4", "hand4", "hand1", "hand4"), m[3])
    plan = tails.build(layout, d, got, owners)
    assert plan is not None and tails._FRAMES.get((layout, False, False)) is frame
    tails._check(layout, plan, d, got, owners)
    names = [(r.name, r.cols) for r in plan.layout.regions]
    assert names == [("played", 1), ("hand3", 1), ("hand1", 2), ("hand4", 3)], names
    assert tails.build(layout, d, (got[0], d[1], got[2], ()), m) is None
    assert tails.build(layout, d, got, (m[0], m[1], ("hand2", "played", "hand2", "hand4"), m[3])) is None
    assert tails._FRAMES.get((layout, False, False)) is frame
