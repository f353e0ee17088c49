"""A straight block's values kept by one key at its start
(:mod:`reference_engine.compiled.chained`): which blocks qualify, and that its runs are the
interpreter's, run for run: the knockout lottery's match decision (4(c)), hostile variants (arrows
face up, a budget reached inside, a step that changes cards a later value reads) and mutants (a
key without the cards, values tampered with) that must be refused."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from reference_engine import steps as st
from reference_engine.compiled import chained
from reference_engine.compiled import evaluate as compiled_evaluate
from reference_engine.registry import Library

HERE = Path(__file__).parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from test_pure import LOTTERY, _compare, _library, _pures, _step  # noqa: E402


def test_the_lottery_decision_is_one_chained_block() -> None:
    proto = Library().protocol("knockout-lottery")
    decide = _step(proto.steps, "4(c)")
    assert isinstance(decide, st.Do)
    # out is set by a let of the block before the discard reads it: not part of the key.
    assert chained.entry_names(decide.body) == {"P", "U", "alive", "h", "up"}
    # The slide moves cards and places new ones, the spin draws: neither qualifies.
    slide = _step(proto.steps, "4(a)")
    assert isinstance(slide, st.Do) and chained.entry_names(slide.body) is None
    assert chained.entry_names([_step(proto.steps, "4(b)")]) is None
    assert chained.entry_names([_step(proto.steps, "1")]) is None


def test_chained_decisions_run_as_the_interpreter() -> None:
    ended, hits = _compare(LOTTERY.read_text(), 160, 5, 7, kind=chained.Chained)
    assert ended == {"ran"}
    assert hits > 40  # keys met again: values given by the block's one key
    # U's cards are read (rotate, lets), P's only selected; h, alive and up by their values
    # (a lottery's decision: this library's or another's that an earlier test left alive).
    assert any(c.cards == {"U", "alive", "h", "up"} and len(c.members) == 6 for c in _pures(chained.Chained))
    ended, hits = _compare(LOTTERY.read_text(), 40, 5, 7, checked=True, kind=chained.Chained)
    assert ended == {"ran"} and hits > 10


def test_arrows_face_up_fail_alike() -> None:
    """Hostile: arrows face up in their sleeves; the runs end in errors where the interpreter's
    do, with the same messages, the cards' faces being part of the key."""
    ended, hits = _compare(LOTTERY.read_text(), 120, 5, 6, face_up=0.15, kind=chained.Chained)
    assert "ran" in ended and len(ended) > 1, ended
    assert hits > 0


@pytest.mark.parametrize("units", [30, 41, 55])
def test_a_budget_reached_inside_the_block_stops_alike(units: int) -> None:
    _compare(LOTTERY.read_text(), 60, 5, 6, kind=chained.Chained)  # values kept
    ended, _ = _compare(LOTTERY.read_text(), 40, 5, 6, units=units, kind=chained.Chained)
    assert any("OverBudget" in e for e in ended), ended


def test_a_step_that_changes_cards_a_later_value_reads() -> None:
    """Hostile: the middle arrows given a half turn after they are turned over (a rotation of
    the cards the lets then read): the key holds their cards as the block starts, each later
    value follows from them; the runs are the interpreter's."""
    text = LOTTERY.read_text().replace(
        "              - turn: U\n",
        '              - turn: U\n              - rotate: "[U[i] for i in 1..h if i % 2 == 1]"\n',
    )
    assert text != LOTTERY.read_text()
    ended, hits = _compare(text, 120, 5, 7, kind=chained.Chained)
    assert ended == {"ran"} and hits > 30
    ended, hits = _compare(text, 30, 5, 7, checked=True, kind=chained.Chained)
    assert ended == {"ran"} and hits > 5


def test_a_block_that_moves_or_draws_is_not_chained() -> None:
    for extra in ('              - move: {W: "U[1]"}\n', "              - shuffle: {scramble: U}\n"):
        text = LOTTERY.read_text().replace("              - turn: U\n", "              - turn: U\n" + extra)
        decide = _step(_library(text)[1].steps, "4(c)")
        assert isinstance(decide, st.Do) and chained.entry_names(decide.body) is None


def test_a_key_without_the_cards_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mutant: the key made without the cards of the regions read (U's arrows): a value noted
    for other arrows is given, and the runs differ from the interpreter's or ``ev.CHECKED``
    refuses them."""
    text = _spec_copy()
    monkeypatch.setattr(chained.Chained, "key", _cardless_key)
    with pytest.raises((AssertionError, compiled_evaluate.Mismatch)):
        _compare(text, 80, 5, 7, kind=chained.Chained)


def test_tampered_values_are_refused_when_checked() -> None:
    """Mutant: every noted value made wrong (another place, another variable's value): with
    ``ev.CHECKED`` each value given is worked out again and the run refused."""
    text = _spec_copy()
    _compare(text, 40, 5, 5, kind=chained.Chained)
    kept = [c for c in _pures(chained.Chained) if c.kept]
    assert kept
    for c in kept:
        for key, (frame, values) in list(c.kept.items()):
            c.kept[key] = (frame, tuple(_wrong(v) for v in values))
    try:
        with pytest.raises(compiled_evaluate.Mismatch):
            _compare(text, 40, 5, 5, checked=True, kind=chained.Chained)
    finally:
        for c in kept:
            c.kept.clear()


def _spec_copy() -> str:
    """The lottery with its own library (its kept values apart from the other tests')."""
    return LOTTERY.read_text().replace("title: Knockout lottery", "title: Knockout lottery (chained)")


def _cardless_key(self: chained.Chained, run: Any) -> tuple[Any, ...]:
    env = run.vars()
    return (run.layout, *[env.get(n) for n in self.read])


def _wrong(v: Any) -> Any:
    if isinstance(v, tuple) and v and all(type(x) is int for x in v):
        return (*v[1:], v[0] + 1)
    return v
