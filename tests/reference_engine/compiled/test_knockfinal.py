"""The knockout lottery's Step 5 as one operation (:mod:`reference_engine.compiled.knockfinal`):
which blocks qualify (the lottery's node for node; a changed expression, another symbol, a
label, another step refused), that direct runs are the interpreter's run for run (``ev.CHECKED``
also compares each with the steps), and hostile lotteries where the direct block must step
aside or agree: a variable named ``P``, ``V`` or ``sel``, arrows or candidates face up, an
arrow turned face up before the end, ``alive`` past the end or empty, a budget that runs out
inside the block, another sleeve given for ``sel``."""

from __future__ import annotations

import copy
import sys
import zlib
from pathlib import Path
from typing import Any

import pytest

from reference_engine import steps as st
from reference_engine.compiled import knockfinal
from reference_engine.registry import Library

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from siblings import sibling  # noqa: E402

_variant = sibling("test_knockout")._variant
_pure = sibling("test_pure")
_compare, counted_since, counts = _pure._compare, _pure.counted_since, _pure.counts

END = """      - move: {V: "P[2, alive[1]]"}
      - turn: V
      - if: "V[1] == up"
        then:
          - move: {sel: "P[1, alive[1]]"}
      - discard: V
"""


def _last(text: str) -> st.Do:
    _, proto = _pure._library(text)
    step = proto.steps[-1]
    assert isinstance(step, st.Do)
    return step


def _final(step: st.Do) -> Any:
    body = tuple((None, s.number or step.number, s) for s in step.body)
    return knockfinal.final(step, body, lambda run, block: None, lambda *a: None)


def _with_end(title: str, new: str) -> str:
    text = _variant(title)
    assert END in text
    return text.replace(END, new)


def test_the_lottery_end_is_recognised() -> None:
    assert END in _variant("end")
    got = _final(_last(_variant("end")))
    assert isinstance(got, knockfinal.Final) and got.then_no == "5"
    proto = Library().protocol("knockout-lottery")
    assert isinstance(_final(proto.steps[-1]), knockfinal.Final)
    step = proto.steps[-1]
    assert knockfinal.final(step, (), lambda run, block: None, lambda *a: None) is None  # not its body


@pytest.mark.parametrize(
    "old,new",
    [
        ('P[2, alive[1]]"}', 'P[1, alive[1]]"}'),  # another row
        ('"V[1] == up"', '"V[1] == down"'),  # another symbol
        ('{sel: "P[1, alive[1]]"}', '{sel: "P[1, alive[2]]"}'),  # another column
        ("      - discard: V\n", ""),  # a step fewer
        ("      - turn: V\n", "      - turn: V\n      - turn: V\n"),  # a step more
        ("          - move: {sel", "          - turn: V\n          - move: {sel"),  # a longer branch
    ],
)
def test_a_changed_end_is_not_recognised(old: str, new: str) -> None:
    assert (
        _final(_last(_with_end(f"changed {zlib.crc32((old + new).encode())}", END.replace(old, new)))) is None
    )


def test_a_labelled_step_is_not_recognised() -> None:
    step = copy.deepcopy(_last(_variant("labelled")))
    assert isinstance(_final(step), knockfinal.Final)
    turn = step.body[1]
    assert isinstance(turn, st.Turn) and turn.what is not None
    turn.labels = [(turn.what, "the arrow")]
    assert _final(step) is None
    step = copy.deepcopy(_last(_variant("labelled")))
    step.labels = [(turn.what, "the block")]
    assert _final(step) is None


@pytest.mark.parametrize("checked", [True, False])
def test_direct_ends_run_as_the_interpreter(checked: bool) -> None:
    ended, hits = _compare(_variant(f"end {checked}"), 60, 3, 11, checked=checked, kind=knockfinal.Final)
    assert ended == {"ran"}
    assert hits >= 50  # nearly every run ends directly


def test_one_candidate_ends_directly_alike() -> None:
    ended, hits = _compare(_variant("end one"), 20, 1, 2, checked=True, kind=knockfinal.Final)
    assert ended == {"ran"} and hits > 0


def _with_let(title: str, name: str, value: str) -> str:
    """The lottery with ``let name: value`` after Step 3 (before the rounds)."""
    old = '      alive: "[j for j in 1..m]"\n'
    return _variant(title, old, old + f'      {name}: "{value}"\n')


@pytest.mark.parametrize("name,value", [("P", "1"), ("V", "[1]"), ("sel", "2")])
def test_a_variable_named_like_a_region_runs_the_steps(name: str, value: str) -> None:
    """Hostile: a variable ``P``, ``V`` or ``sel``: never direct, every run the interpreter's
    (errors and messages included)."""
    for checked in (True, False):
        ended, hits = _compare(
            _with_let(f"end var {name} {checked}", name, value),
            16,
            3,
            7,
            checked=checked,
            kind=knockfinal.Final,
        )
        assert hits == 0, ended
        assert ended


def test_face_up_cards_run_the_steps_alike() -> None:
    """Hostile: candidates and arrows face up (the last arrow may come to ``V`` face up, and the
    turn then hides it): the runs the interpreter's, errors included."""
    ended, hits = _compare(
        _variant("end face up"), 120, 2, 6, face_up=0.15, checked=False, kind=knockfinal.Final
    )
    assert "ran" in ended and len(ended) > 1, ended
    assert hits > 0


@pytest.mark.parametrize(
    "new",
    [
        '      - let:\n          alive: "[m + 1]"\n',  # past the end: the move's error
        '      - let:\n          alive: "[]"\n',  # empty: the evaluator's error
        '      - let:\n          alive: "[true]"\n',  # a truth value, not a column
        '      - turn: "P[2, alive[1]]"\n',  # the last arrow face up before the move
        '      - discard: "P[1, alive[1]]"\n',  # the candidate's place empty
    ],
)
def test_an_unusual_end_runs_as_the_interpreter(new: str) -> None:
    """Hostile: a step put just before the block (``alive`` past the end, empty or a truth
    value; the last arrow turned face up; the candidate discarded): the block steps aside or
    agrees, every run the interpreter's."""
    text = _variant(f"end before {zlib.crc32(new.encode())}", END, new + END)
    for checked in (True, False):
        ended, _ = _compare(text, 12, 2, 6, checked=checked, kind=knockfinal.Final)
        assert ended


def test_an_end_inside_a_do_block_of_its_own_is_recognised_alike() -> None:
    """The block's steps named alike but for the step number: still direct, the message's step
    number the steps'."""
    text = _variant("end numbered", "  - step: 5\n", "  - step: 5z\n")
    ended, hits = _compare(text, 20, 2, 6, checked=True, kind=knockfinal.Final)
    assert ended == {"ran"} and hits > 0


@pytest.mark.parametrize("units", [20, 30, 40, 50])
def test_a_budget_reached_inside_the_end_stops_alike(units: int) -> None:
    """An exploration's budget running out near the end: the same step, the same count (a
    block that would reach it is carried out step by step)."""
    ended, _ = _compare(_variant(f"end budget {units}"), 30, 3, 7, units=units, kind=knockfinal.Final)
    assert ended


def test_an_entry_of_other_sleeves_is_made_afresh() -> None:
    """An entry is kept with the frame and the sleeves given for ``V`` and ``sel``: entries
    whose sleeves differ (hostile: their plans broken too) are never used, each made afresh."""
    text = _variant("end sleeves")
    ended, hits = _compare(text, 20, 3, 6, checked=True, kind=knockfinal.Final)
    assert ended == {"ran"} and hits > 0
    finals = [o for o, _ in counts(knockfinal.Final).values() if o.kept]
    assert finals
    for final in finals:
        for entry in final.kept.values():
            if entry is not False:
                entry[1] = entry[3] = None  # used, these would fail
                entry[5] = ("not", "these")
    for checked in (False, True):
        ended, hits = _compare(text, 20, 3, 6, checked=checked, kind=knockfinal.Final)
        assert ended == {"ran"} and hits > 0
