"""A knockout round's spin and decision as one operation
(:mod:`reference_engine.compiled.knockround`): which branches qualify (the lottery's ``4(b)`` and
``4(c)`` node for node; a changed expression, another symbol, a label, another kind refused),
that direct rounds are the interpreter's run for run (``ev.CHECKED`` also compares each with the
steps), and hostile variants where the direct round must step aside or agree: a variable named
``P`` or ``U``, arrows face up, a budget that runs out inside the round, a round whose
slide is not the lottery's."""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any

import pytest

from reference_engine import steps as st
from reference_engine.compiled import knockround
from reference_engine.registry import Library

HERE = Path(__file__).parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from test_knockout import _variant  # noqa: E402
from test_pure import _compare, counted_since, counts  # noqa: E402

ROTATE = '"[P[2, alive[2 * i - 1]] for i in 1..h if U[i] == up]"'
SPIN = '"[[P[*, alive[2 * i - 1]], U[i], P[*, alive[2 * i]]] for i in 1..h]"'


def _round_if(text: str) -> st.If:
    """The lottery's ``if`` (Step 4's body) of a spec text."""
    from test_pure import _library

    _, proto = _library(text)
    loop = next(s for s in proto.steps if isinstance(s, st.For))
    step = loop.body[0]
    assert isinstance(step, st.If)
    return step


def _branch(step: st.If) -> Any:
    then = tuple((None, s.number, s) for s in step.then)
    return knockround.branch(step, then, lambda run, block: None, lambda *a: None)


def test_the_lottery_round_is_recognised() -> None:
    got = _branch(_round_if(_variant("recognised")))
    assert isinstance(got, knockround.Round) and got.slide is not None
    proto = Library().protocol("knockout-lottery")
    assert knockround._sig(next(s for s in proto.steps if s.number == "2")) is None  # an if


@pytest.mark.parametrize(
    "old,new",
    [
        (SPIN, '"[[P[*, alive[2 * i]], U[i], P[*, alive[2 * i - 1]]] for i in 1..h]"'),  # other piles
        ("spin: " + SPIN, "each: " + SPIN),  # another shuffle
        (ROTATE, ROTATE.replace("== up", "== down")),  # another symbol
        (ROTATE, ROTATE.replace("P[2,", "P[1,")),  # another row
        ('discard: "[P[2, j] for j in out]"', 'discard: "[P[2, j] for j in alive]"'),  # the winners
        ("- turn: U", '- turn: "U[1]"'),  # one arrow turned
        ('  out: "[alive[2 * i] if', '  h: "h"\n                  out: "[alive[2 * i] if'),  # two values
    ],
)
def test_a_changed_round_is_not_recognised(old: str, new: str) -> None:
    assert _branch(_round_if(_variant(f"changed {len(old)} {len(new)}", old, new))) is None


@pytest.mark.parametrize(
    "old,new",
    [
        ('h: "len(alive) // 2"', 'h: "1"'),  # another number of matches
        ('"P[2, alive[2 * i - 1]]": "new(down)"', '"P[2, alive[2 * i - 1]]": "new(up)"'),  # another symbol
        ('- for: {i: "1..h"}', '- for: {i: "1..1"}'),  # another range
    ],
)
def test_a_changed_slide_is_left_to_its_steps(old: str, new: str) -> None:
    """The spin and decision are the lottery's, the slide is not: a round whose slide is run
    as compiled."""
    got = _branch(_round_if(_variant(f"slide {len(old)} {len(new)}", old, new)))
    assert isinstance(got, knockround.Round) and got.slide is None


def test_a_labelled_step_is_not_recognised() -> None:
    step = copy.deepcopy(_round_if(_variant("labelled")))
    decide = step.then[-1]
    assert isinstance(decide, st.Do) and isinstance(decide.body[0], st.Turn)
    assert isinstance(_branch(step), knockround.Round)
    turn = decide.body[0]
    assert turn.what is not None
    turn.labels = [(turn.what, "the arrows")]
    assert _branch(step) is None


@pytest.mark.parametrize("checked", [True, False])
def test_direct_rounds_run_as_the_interpreter(checked: bool) -> None:
    before = counts(knockround.Round, "slid")
    whole = counts(knockround.Round, "whole")
    ended, hits = _compare(_variant(f"direct {checked}"), 80, 5, 11, checked=checked, kind=knockround.Round)
    assert ended == {"ran"}
    assert hits > 40  # most rounds are direct
    assert counted_since(before, knockround.Round, "slid") >= hits  # their slides too
    assert counted_since(whole, knockround.Round, "whole") >= hits // 2  # most of them whole at once


def _with_let(title: str, name: str, value: str) -> str:
    """The lottery with ``let name: value`` after Step 3 (before the rounds)."""
    old = '      alive: "[j for j in 1..m]"\n'
    return _variant(title, old, old + f'      {name}: "{value}"\n')


@pytest.mark.parametrize(
    "name,value",
    [("U", "[1, 2]"), ("P", "1")],
)
def test_a_variable_named_like_a_region_or_symbol_runs_the_steps(name: str, value: str) -> None:
    """Hostile: a variable ``U`` or ``P`` (the places it names are not the regions'; the spec
    refuses a variable ``up``): never direct, every run the interpreter's."""
    for checked in (True, False):
        ended, hits = _compare(
            _with_let(f"var {name} {checked}", name, value), 16, 5, 8, checked=checked, kind=knockround.Round
        )
        assert hits == 0, ended
        assert ended


def test_arrows_face_up_run_the_steps_alike() -> None:
    """Hostile: arrows face up in their sleeves (the slide fails, or the spin is seen): the runs
    the interpreter's, errors included; the rounds with every card face down direct."""
    ended, hits = _compare(_variant("face up"), 120, 5, 8, face_up=0.1, checked=False, kind=knockround.Round)
    assert "ran" in ended and len(ended) > 1, ended
    assert hits > 0


def test_a_seen_arrow_in_the_middle_runs_the_steps() -> None:
    """Hostile: the slide ends with the first middle arrow turned face up, so the spin shows it:
    never direct, the views the interpreter's."""
    old = '                      "P[2, alive[2 * i - 1]]": "new(down)"\n'
    new = old + '              - turn: "U[1]"\n'
    for checked in (True, False):
        ended, hits = _compare(
            _variant(f"seen {checked}", old, new), 20, 5, 8, checked=checked, kind=knockround.Round
        )
        assert hits == 0, ended
        assert ended


def test_a_slide_of_fewer_matches_is_direct_alike() -> None:
    """A slide that is not the lottery's (one match a round, whatever the sleeves left): the
    branch still ends with the spin and decision, and its rounds are direct and the steps'."""
    text = _variant("one match", '                  h: "len(alive) // 2"\n', '                  h: "1"\n')
    slid = counts(knockround.Round, "slid")
    for checked in (True, False):
        ended, hits = _compare(text, 30, 5, 9, checked=checked, kind=knockround.Round)
        assert ended == {"ran"}
        assert hits > 0
    assert (
        counted_since(slid, knockround.Round, "slid") == 0
    )  # its slide is not the lottery's: run as compiled


def test_a_changed_decision_runs_as_the_interpreter() -> None:
    """Hostile: the rotation reads ``U[i] == down`` (another symbol): not a round, its runs the
    interpreter's."""
    text = _variant("down", ROTATE, ROTATE.replace("== up", "== down"))
    for checked in (True, False):
        ended, hits = _compare(text, 20, 5, 9, checked=checked, kind=knockround.Round)
        assert hits == 0 and ended, ended


@pytest.mark.parametrize("units", [9, 14, 19, 26, 33, 41])
def test_a_budget_reached_inside_a_round_stops_alike(units: int) -> None:
    """An exploration's budget running out within a round: the same step, the same count (a
    round that would reach it is carried out step by step)."""
    ended, _ = _compare(_variant(f"budget {units}"), 40, 5, 8, units=units, kind=knockround.Round)
    assert any("OverBudget" in e for e in ended), ended


def test_a_round_plan_refuses_what_a_part_would_leave_to_the_steps() -> None:
    """Hostile layouts and ``alive`` for a whole round at once (``Round._round_plan``): a region
    ``U`` already there, a label, a third row, an arrow's place empty, ``alive`` with a column
    twice, out of range or a truth for a number: no plan (the parts, then the steps, say)."""
    from reference_engine.table import Label, Layout

    got = _branch(_round_if(_variant("plans")))
    assert isinstance(got, knockround.Round)
    P = ("P", 2, 5, 1, None, None)
    plain = Layout.make([P])
    plan = got._round_plan(plain, (1, 2, 3, 4, 5))
    assert plan is not False
    h, room, low, u0, checks, matches = plan[:6]
    assert (h, low, u0, room) == (2, 4, 10, (False, (2, 5), (10, 5))) and matches[0] == (0, 5, 10, 1, 6)
    assert set(checks) == {0, 5, 1, 6, 2, 7, 3, 8}
    assert got._round_plan(Layout.make([P, ("U", 1, 2, 1, None, None)]), (1, 2, 3, 4)) is False
    assert got._round_plan(Layout.make([P], (), [Label("x", (0,))]), (1, 2)) is False
    assert got._round_plan(Layout.make([("P", 3, 5, 1, None, None)]), (1, 2)) is False
    assert got._round_plan(Layout.make([P], [6]), (1, 2, 3)) is False  # column 2's arrow gone
    assert got._round_plan(Layout.make([P], [8]), (1, 2, 3)) is not False  # column 4's: not played
    for alive in [(1, 1, 2), (1, 6), (0, 1), (True, 2), (1,)]:
        assert got._round_plan(plain, alive) is False, alive


@pytest.mark.parametrize(
    "holes,alive,ups",
    [((), (1, 2, 3, 4, 5), (True, False)), ((9,), (1, 2, 3, 4), (False, False)), ((8,), (1, 2, 5), (True,))],
)
def test_a_whole_rounds_discards_are_worked_out_from_the_table_before_the_slide(
    holes: tuple[int, ...], alive: tuple[int, ...], ups: tuple[bool, ...]
) -> None:
    """A whole round's two discards (``knockout._outcome`` given the table before the slide)
    are ``discards.after``'s from the tables after the slide and between the discards, which
    the round never makes: the first keeps the layout before, the second leaves the same table."""
    from reference_engine.compiled import discards, knockout
    from reference_engine.table import Layout

    before = Layout.make([("P", 2, 5, 1, None, None)], holes)
    h, low, u0 = len(ups), 4, 10
    lost, _, _, losers, hows = knockout._outcome(alive, ups, low, u0, before)
    assert losers == tuple(low + j for j in lost)
    final = Layout.make([("U", 1, h, 1, None, None)], before.holes, (), before.regions)
    first = discards.after(final, losers)
    assert first is not None
    second = discards.after(first[1], tuple(range(u0, u0 + h)))
    assert hows == ((discards.HOLES, before, first[2]), second)
    assert hows[1][1].holes == frozenset(holes) | frozenset(losers) and hows[1][1].regions == before.regions
