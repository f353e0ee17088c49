"""A small call's kept law (reference_engine/machine/relabel.py) costs an exploration's budget
what its first enumeration spent: a sampled run under a budget (frontier.budget) stops at the
same point, with the same random state, whether the process kept the law or not, on both
engines (the first enumeration of a lottery pattern spent 84 units, the kept law 42)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from reference_engine.machine import frontier, lazypiles, relabel
from reference_engine.registry import Library

COMPILED = Path(__file__).resolve().parent.parent / "compiled"
for folder in (COMPILED, COMPILED.parent):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import runs  # noqa: E402
from test_differential import _assignments  # noqa: E402

NAME = "card-selection-arrow"


def _forget() -> None:
    relabel._KEPT.clear()
    lazypiles._DRAWS.clear()


def _run(library: Library, engine: str, index: int, seed: int, units: int) -> tuple[Any, ...]:
    st, assignments = _assignments(library, NAME, 4)
    with frontier.budget(units):
        got = runs.single(
            library, library.protocol(NAME), st.params, assignments[index], seed, engine, st.context or None
        )
        left = frontier._BUDGET.get()
        assert left is not None
        return (*got, units - left[0])


def _spent(library: Library, engine: str) -> int:
    got = _run(library, engine, 0, 0, 10**9)
    assert got[0] == "ran", got
    return int(got[-1])


@pytest.mark.parametrize("engine", ["interpreter", "compiled"])
def test_a_kept_law_costs_what_its_first_enumeration_did(engine: str) -> None:
    library = Library()
    _forget()
    cold = _spent(library, engine)
    assert _spent(library, engine) == cold  # the law kept now


@pytest.mark.parametrize("engine", ["interpreter", "compiled"])
def test_a_budget_stops_a_run_alike_cold_and_after_other_runs(engine: str) -> None:
    library = Library()
    _forget()
    total = _spent(library, engine)
    for units in sorted({0, 3, 17, total // 3, total // 2, total - 43, total - 1, total}):
        _forget()
        cold = _run(library, engine, 0, 0, units)
        for index, seed in ((1, 5), (2, 7), (3, 1)):  # a history: other inputs and seeds
            _run(library, engine, index, seed, 10**9)
        warm = _run(library, engine, 0, 0, units)
        assert cold[:-1] == warm[:-1], (units, cold[:3], warm[:3])
        assert (cold[0] == "ran") is (units >= total), units


@pytest.mark.parametrize("engine", ["interpreter", "compiled"])
def test_a_budget_stops_a_run_alike_after_the_same_run_and_the_other_engines(engine: str) -> None:
    """The reviewer's histories (stop 47, w37-attack9, unreproduced after w37-budget): the very
    same run first, unbudgeted, and every input on both engines; each budget stops the run at
    the same point with the same random state as in a process that kept nothing (before
    w37-budget, budgets 21-62 of its 84 stopped it elsewhere after each of these histories).
    Only what is spent past the stop differs: a kept law charges its first enumeration's cost
    at once, the enumeration unit by unit."""
    library = Library()
    _forget()
    total = _spent(library, engine)
    other = "compiled" if engine == "interpreter" else "interpreter"
    budgets = sorted({3, 21, total // 2, total - 22, total - 21, total - 1, total})
    cold = []
    for units in budgets:
        _forget()
        cold.append(_run(library, engine, 0, 0, units))
    _forget()
    _run(library, engine, 0, 0, 10**9)  # the same run, its law kept
    for index in range(4):
        for e in (other, engine):
            _run(library, e, index, 1 + index, 10**9)
    warm = [_run(library, engine, 0, 0, units) for units in budgets]
    assert [c[:-1] for c in cold] == [w[:-1] for w in warm], budgets
    for units, c, w in zip(budgets, cold, warm, strict=True):
        assert (c[0] == "ran") is (units >= total) and (w[0] == "ran") is (units >= total), units
        assert c[-1] == w[-1] or (c[0] != "ran" and min(c[-1], w[-1]) > units), (units, c[-1], w[-1])
