"""A loop over one ``if`` that, once false, stays false (:mod:`reference_engine.compiled.loops`):
which loops qualify, and that the lottery's rounds, with the tests left after the last round
noted without testing again, run as the interpreter's, run for run; a mutant that lets through
a test naming the loop's variable must be caught."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import Any

import pytest

from reference_engine import steps as st
from reference_engine.compiled import evaluate as compiled_evaluate
from reference_engine.compiled import loops
from reference_engine.registry import Library

HERE = Path(__file__).parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from test_pure import LOTTERY, _compare, _library, _step  # noqa: E402

ROUNDS = '      - if: "len(alive) > 1"\n'


def _loop(text: str) -> st.For:
    step = _step(_library(text)[1].steps, "4")
    assert isinstance(step, st.For)
    return step


def _body(step: st.For) -> Any:
    """The loop's body as a compiled block's rows (no op: the checks read the steps only)."""
    return tuple((None, s.number, s) for s in step.body)


def test_the_lottery_rounds_qualify_and_others_do_not() -> None:
    proto = Library().protocol("knockout-lottery")
    rounds = _step(proto.steps, "4")
    assert isinstance(rounds, st.For)
    cases = {
        '      - if: "len(alive) > r"\n': "the loop's variable",
        '      - if: "len(alive) > 1 and any(alive)"\n': "a function not kept",
    }
    for line, why in cases.items():
        text = LOTTERY.read_text().replace(ROUNDS, line)
        assert text != LOTTERY.read_text()
        assert loops.settled(None, _loop(text), _body(_loop(text))) is None, why
    with_else = LOTTERY.read_text().replace(
        "            table: {rotate: slide, discard: slide}\n",
        "            table: {rotate: slide, discard: slide}\n        else:\n          - note: done\n",
    )
    assert loops.settled(None, _loop(with_else), _body(_loop(with_else))) is None


def test_settled_rounds_run_as_the_interpreter() -> None:
    """Eight to twelve candidates: four rounds at most, the other tests settled."""
    text = LOTTERY.read_text().replace("title: Knockout lottery", "title: Knockout lottery (settled)")
    ended, _ = _compare(text, 80, 8, 12)
    assert ended == {"ran"}
    ended, _ = _compare(text, 20, 8, 12, checked=True)
    assert ended == {"ran"}


@pytest.mark.parametrize("units", [45, 60, 75])
def test_a_budget_reached_among_settled_tests_stops_alike(units: int) -> None:
    text = LOTTERY.read_text().replace("title: Knockout lottery", "title: Knockout lottery (budget)")
    ended, _ = _compare(text, 40, 8, 12, units=units)
    assert any("OverBudget" in e for e in ended), ended


def test_a_test_naming_the_loop_variable_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mutant: :func:`loops.settled` made to let through a test that names the loop's variable
    (false in odd rounds, true in even ones): settled after the first, the rounds are never
    played; the runs differ from the interpreter's, or ``ev.CHECKED`` refuses them."""
    real = loops.settled

    def lax(c: Any, step: st.For, body: Any) -> loops.Settled | None:
        return real(c, dataclasses.replace(step, var="no-such-name"), body)

    monkeypatch.setattr(loops, "settled", lax)
    text = LOTTERY.read_text().replace(ROUNDS, '      - if: "r % 2 == 0 and len(alive) > 1"\n')
    assert text != LOTTERY.read_text()
    with pytest.raises((AssertionError, compiled_evaluate.Mismatch)):
        _compare(text, 20, 5, 7)
    text = text.replace("title: Knockout lottery", "title: Knockout lottery (checked)")
    with pytest.raises(compiled_evaluate.Mismatch):
        _compare(text, 10, 5, 7, checked=True)


def test_a_round_ending_with_a_false_test_of_its_own_is_not_settled() -> None:
    """Hostile: each round ends with an ``if`` of its own that tests false (its answer the
    round's last observation, as a settled loop's would be): the loop must not take it for its
    own test's answer (it did: the rounds after the first were never played)."""
    text = LOTTERY.read_text().replace(
        "              - discard: U\n",
        '              - discard: U\n              - if: "len(alive) == 0"\n                then:\n'
        "                  - note: never\n",
    )
    assert text != LOTTERY.read_text()
    ended, _ = _compare(text, 60, 6, 9)
    assert ended == {"ran"}
    ended, _ = _compare(text, 10, 6, 9, checked=True)
    assert ended == {"ran"}
