"""A block whose decisions read a few regions' cards, carried out with its decisions kept
(:mod:`reference_engine.compiled.chain`): which blocks qualify, and that such a run is the
block's steps on both engines, run for run: the knockout lottery's decision of the matches
(4(c)), hostile variants (a candidate turned up, read or discarded inside the block, arrows face
up, a budget reached inside it), and kept decisions tampered with (``ev.CHECKED`` refuses them)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from test_pure import LOTTERY, _compare, _pures, _step  # noqa: E402

from reference_engine import steps as st  # noqa: E402
from reference_engine.compiled import chain  # noqa: E402
from reference_engine.compiled import evaluate as compiled_evaluate  # noqa: E402
from reference_engine.registry import Library  # noqa: E402


def test_the_lottery_decision_of_matches_reads_only_the_middle_arrows() -> None:
    proto = Library().protocol("knockout-lottery")
    decide = _step(proto.steps, "4(c)")
    assert isinstance(decide, st.Do)
    # The middle arrows (U) and the variables decide; the sleeves (P) are only selected.
    assert chain.chain_names(decide.body) == ({"U", "alive", "h", "up"}, {"P"})
    # A spin draws, a move or a place is not one of the chain's steps, a branch neither.
    assert chain.chain_names([_step(proto.steps, "4(b)")]) is None
    slide = _step(proto.steps, "4(a)")
    assert isinstance(slide, st.Do) and chain.chain_names(slide.body) is None
    assert chain.chain_names([_step(proto.steps, "2")]) is None


def _compare_chain(text: str, runs: int, **kw: Any) -> tuple[set[str], int]:
    return _compare(text, runs, kind=chain.Chain, **kw)


def test_decided_matches_run_as_the_interpreter() -> None:
    ended, hits = _compare_chain(LOTTERY.read_text(), 160, lo=5, hi=6)
    assert ended == {"ran"}
    assert hits > 40


def test_a_decision_that_turns_a_candidate_up_runs_alike() -> None:
    """Hostile: the block turns a candidate face up and back (its face is seen, not decided on)."""
    text = LOTTERY.read_text().replace(
        "              - turn: U\n",
        "              - turn: U\n"
        '              - turn: "P[1, alive[1]]"\n'
        '              - turn: "P[1, alive[1]]"\n',
    )
    ended, hits = _compare_chain(text, 80, lo=5, hi=6)
    assert ended == {"ran"} and hits > 0


def test_a_decision_that_reads_a_candidate_fails_alike() -> None:
    """Hostile: a let reads a candidate turned face up in its sleeve lying back up (keyed by the
    sleeves' cards too): the same refusal on both engines."""
    text = LOTTERY.read_text().replace(
        "              - turn: U\n",
        '              - turn: U\n              - turn: "P[1, alive[1]]"\n'
        '              - let:\n                  peek: "1 if P[1, alive[1]] == up else 0"\n'
        '              - turn: "P[1, alive[1]]"\n',
    )
    ended, _ = _compare_chain(text, 40, lo=5, hi=6)
    assert len(ended) == 1 and "decision may only use cards it sees" in next(iter(ended)), ended


def test_a_decision_that_discards_candidates_runs_alike() -> None:
    """Hostile: the losers' cards go to the spares too (their faces counted as they are)."""
    text = LOTTERY.read_text().replace(
        '              - discard: "[P[2, j] for j in out]"\n',
        '              - discard: "[P[2, j] for j in out]"\n'
        '              - discard: "[P[1, j] for j in out]"\n',
    )
    ended, hits = _compare_chain(text, 80, lo=5, hi=6)
    assert ended and hits > 0


def test_decisions_with_arrows_face_up_fail_alike() -> None:
    ended, _ = _compare_chain(LOTTERY.read_text(), 120, lo=5, hi=6, face_up=0.15)
    assert "ran" in ended and len(ended) > 1, ended


@pytest.mark.parametrize("units", [25, 33, 41, 52])
def test_a_budget_reached_inside_the_decisions_stops_alike(units: int) -> None:
    _compare_chain(LOTTERY.read_text(), 60, lo=5, hi=6)  # the decisions kept
    ended, _ = _compare_chain(LOTTERY.read_text(), 40, lo=5, hi=6, units=units)
    assert any("OverBudget" in e for e in ended), ended


@pytest.mark.parametrize("kind", [0, 1, 2, 3])
def test_tampered_decisions_are_refused_when_checked(kind: int) -> None:
    """Mutants: every kept decision of one kind of step made wrong; ``ev.CHECKED`` runs the steps
    too and refuses it."""
    _compare_chain(LOTTERY.read_text(), 30, lo=5, hi=5)
    kept = [(b, d) for b in _pures(chain.Chain) for d in b.kept.values()]
    assert kept
    for _, decided in kept:
        steps = []
        for k, number, step, data in decided.steps:
            if k == kind:
                if k in (0, 1):  # turned or rotated places: one more, or one fewer
                    data = data[:-1] if data else (0,)
                elif k == 2:  # a let's value
                    data = (tuple((n, 99) for n, _ in data[0]), data[1])
                else:  # a discard's plan: the other discard's
                    other = [d for kk, _, _, d in decided.steps if kk == 3 and d is not data]
                    data = other[0] if other else data
            steps.append((k, number, step, data))
        decided.steps = tuple(steps)
    try:
        with pytest.raises(compiled_evaluate.Mismatch):
            _compare_chain(LOTTERY.read_text(), 30, lo=5, hi=5, checked=True)
    finally:
        for block, _ in kept:
            block.kept.clear()
