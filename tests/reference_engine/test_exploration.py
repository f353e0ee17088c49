"""An exploration's budget (reference_engine/exploration.py) is spent alike whatever the process
kept before: the same spec explored cold (nothing kept) or after other runs stops at the same
point, so its verdict (carried out, a located error, or no verdict) never depends on what ran
before it in the process (`kitgen simulate` explores after its own seeded run)."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from typing import Any

import pytest

from reference_engine import exploration
from reference_engine.machine import ONE, Runner, frontier, lazypiles, relabel
from reference_engine.machine.frontier import OverBudget
from reference_engine.registry import Library
from reference_engine.verify import input_assignments, verify
from reference_engine.verify.setting import setting

SPECS = ["knockout-lottery", "card-selection-arrow"]


def _forget() -> None:
    """What the process keeps across runs and an exploration's spending could meet: cold."""
    lazypiles._DRAWS.clear()
    relabel._KEPT.clear()


def _explored(monkeypatch: pytest.MonkeyPatch, name: str, units: int = 10**9) -> tuple[bool, int]:
    """The verdict of exploring ``name`` within ``units`` states, and the states it spent."""
    spent: list[int] = []
    real = frontier.budget  # (not exploration.budget: patched by an earlier call)

    @contextlib.contextmanager
    def measured(_: int) -> Iterator[None]:
        with real(units):
            left = frontier._BUDGET.get()
            assert left is not None
            try:
                yield
            finally:
                spent.append(units - left[0])

    monkeypatch.setattr(exploration, "budget", measured)
    library = Library()
    ok = exploration.explore(library, library.protocol(name))
    return ok, spent[-1]


def _warm_up(library: Library) -> None:
    """Sampled runs of the arrow protocol (its lottery's calls) and an exploration of each spec."""
    proto = library.protocol("card-selection-arrow")
    st_ = setting(proto, None, None)
    runner = Runner(library, "sample", rng=random.Random(0), context=st_.context)
    frame = runner.frame(proto, st_.params)
    runner.limits = frame.helpers
    for values in input_assignments(frame, st_.deal)[:6]:
        for seed in range(3):
            run = Runner(library, "sample", rng=random.Random(seed), context=st_.context)
            run.limits = frame.helpers
            run.run(frame, {frame.initial_state(values): ONE})
    for name in SPECS:
        exploration.explore(library, library.protocol(name))


@pytest.mark.parametrize("name", SPECS)
def test_an_exploration_spends_the_same_cold_and_warm(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    _forget()
    cold = _explored(monkeypatch, name)
    _warm_up(Library())
    warm = _explored(monkeypatch, name)
    assert cold[0] and cold == warm


def test_a_budget_at_the_edge_gives_the_same_verdict_cold_and_warm(monkeypatch: pytest.MonkeyPatch) -> None:
    """Just enough states: explored cold and warm; one fewer: no verdict cold and warm (the
    shuffles' draws were charged only when first listed: warm, the same exploration spent 48
    states fewer and went on where the cold one gave up)."""
    name = "knockout-lottery"
    _forget()
    _, cost = _explored(monkeypatch, name)
    for units, verdict in ((cost, True), (cost - 1, False)):
        _forget()
        assert _explored(monkeypatch, name, units)[0] is verdict, ("cold", units)
        assert _explored(monkeypatch, name, units)[0] is verdict, ("warm", units)


def test_the_draws_cost_the_same_listed_or_kept() -> None:
    contents = [(1,), (2,), (2,), (3,)]
    spent = []
    lazypiles._DRAWS.clear()
    for _ in range(2):
        with frontier.budget(1000):
            draws = lazypiles._draws(contents, 3)
            left = frontier._BUDGET.get()
            assert left is not None
            spent.append(1000 - left[0])
    assert spent == [len(draws)] * 2
    with frontier.budget(len(draws) - 1), pytest.raises(OverBudget):
        lazypiles._draws(contents, 3)  # kept, and still too many for this budget


def _report(library: Library, name: str, workers: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """A verification's report without its timings: (what it says, its work figures)."""
    data = verify(library, library.protocol(name), workers=workers).to_json()
    stats = data.pop("stats")
    stats.pop("seconds")
    for part in stats.get("partitions") or []:
        part.pop("cpu_seconds")
    return data, stats


def test_an_exact_verification_is_the_same_cold_and_warm() -> None:
    """No budget is in force in a verification: its report (verdicts, checks, resources) is
    the same cold, after other runs in the process, and in one or two workers; its work
    figures (states processed, peak frontier) the same cold and warm in as many workers (they
    are the workers' own: split in two, the partitions merge fewer states)."""
    _forget()
    cold, cold_stats = _report(Library(), "knockout-lottery", 1)
    assert cold["verified"] and cold["correct"] and cold["secure"]
    _warm_up(Library())
    assert _report(Library(), "knockout-lottery", 1) == (cold, cold_stats)
    _forget()
    cold2 = _report(Library(), "knockout-lottery", 2)
    _warm_up(Library())
    assert _report(Library(), "knockout-lottery", 2) == cold2
    assert cold2[0] == cold
