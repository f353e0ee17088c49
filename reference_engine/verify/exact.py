"""Exact verification: correctness, security and resource counts of a protocol spec.

For every admissible input u the machine runs the protocol over *all* shuffle outcomes
with exact rational probabilities (see :mod:`reference_engine.machine`). Then:

* **correct**: every run's outputs equal the spec's ``equals`` expression of u; outputs
  declared ``uniform`` have exactly the uniform distribution over the listed values
  (``none`` when the list is empty);
* **secure**: the view (everything the players saw: turned faces, public decisions,
  cards returned to the supply, public sub-protocol results) is independent of u given
  the public inputs and public outputs: P(view | u, o) is the same for every input u
  that can produce the public output o;
* **tidy**: when the protocol ends, every card on the table belongs to an output;
* **resources**: cards per symbol, helper cards, shuffles and turns, compared with the
  ``expect`` block quoted from the paper.
"""

from __future__ import annotations

import bisect
import time
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..cards import SYMBOLS, Symbol
from ..collector import paused
from ..errors import EvalError, SimulationError
from ..machine import (
    DecodeFailure,
    Frame,
    Frontier,
    Runner,
    Shared,
    _add,
    _freeze,
    leftovers,
    read_outputs,
    shown,
)
from ..registry import Library
from ..spec import Params, Protocol
from .checks import correctness, expectations, resources, security, tidiness
from .inputs import declared_inputs, input_assignments
from .partition import LEFT_EXAMPLES, Backend, Part, ReadError, run_partitions
from .report import Check, Report, empty_stats
from .setting import setting

# (view, output values) -> (denominator, {input: numerator}): what every final state adds up to.
Aggregate = dict[tuple[int, tuple[Any, ...]], tuple[int, dict[int, int]]]


@dataclass
class ExactRun:
    """Every input run through every shuffle outcome."""

    runner: Runner
    frame: Frame
    assignments: list[dict[str, Any]]
    final: Frontier


@paused()
def run_exact(
    library: Library,
    proto: Protocol,
    params: Params,
    context: dict[str, Any] | None = None,
    deal: list[Symbol] | None = None,
    record_reveals: bool = False,
) -> ExactRun:
    """Run every input through every shuffle outcome. When a callee's view turns out not to
    factor, the run is repeated with that callee's view kept whole (see ``machine.calls``).

    With ``record_reveals``, ``runner.shared.reveals`` holds every possible reveal per step.
    """
    no_factor: set[str] = set()
    while True:
        shared = Shared(no_factor=set(no_factor), reveals={} if record_reveals else None, restartable=True)
        runner = Runner(library, "exact", shared=shared, context=context)
        runner.forget_views = True
        frame = runner.frame(proto, params)
        runner.limits = frame.helpers
        assignments = input_assignments(frame, deal)
        frontier: Frontier = {}
        for i, values in enumerate(assignments):
            try:
                state = frame.initial_state(values)
            except EvalError as exc:
                raise SimulationError("", proto.src.problem(("inputs",), str(exc))) from None
            frontier.setdefault(state, (1, {}))[1][i] = 1
        final = runner.run(frame, frontier)
        if shared.restart is not None:
            no_factor.add(shared.restart)
            continue
        return ExactRun(runner, frame, assignments, final)


def outcome_distribution(
    library: Library, proto: Protocol, params: Params | None = None, scenario: str | None = None
) -> list[tuple[dict[str, Any], dict[tuple[Any, ...], Fraction]]]:
    """For each input: the exact distribution of the output values (in ``proto.outputs`` order)."""
    st_ = setting(proto, params, scenario)
    run = run_exact(library, proto, st_.params, st_.context, st_.deal)
    dist: list[dict[tuple[Any, ...], Fraction]] = [defaultdict(Fraction) for _ in run.assignments]
    for state, (den, nums) in run.final.items():
        outs = read_outputs(run.runner, run.frame, state)
        key = tuple(
            outs[n] if isinstance(outs[n], DecodeFailure) else _freeze(outs[n]) for n in proto.outputs
        )
        for u, num in nums.items():
            dist[u][key] += Fraction(num, den)
    return [(a, dict(d)) for a, d in zip(run.assignments, dist)]


@dataclass
class Outcomes:
    """The final states read once: outputs per view, stray cards, and the resources used."""

    agg: Aggregate = field(default_factory=dict)
    left: list[str] = field(default_factory=list)  # the first few (sorted) descriptions of stray cards
    shuffles: list[int] = field(default_factory=list)
    turns: list[int] = field(default_factory=list)
    peak: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    kinds: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    calls: dict[tuple[int, str], int] = field(default_factory=dict)  # (position, callee) -> most cards
    input_cards: dict[str, int] = field(default_factory=dict)  # most input cards of each symbol

    @classmethod
    def read(cls, runner: Runner, frame: Frame, final: Frontier) -> Outcomes:
        out = cls()
        names = list(frame.proto.outputs)
        owned: set[int] = set()
        for state, vec in final.items():
            outs = read_outputs(runner, frame, state)
            stray = leftovers(runner, frame, state)
            if stray:  # keep the smallest few descriptions: the same whatever the partitions
                text = ", ".join(stray)
                if text not in out.left and (len(out.left) < LEFT_EXAMPLES or text < out.left[-1]):
                    bisect.insort(out.left, text)
                    del out.left[LEFT_EXAMPLES:]
            out.shuffles.append(state.meters.shuffles)
            out.turns.append(state.meters.turns)
            for sid, n in state.meters.peak:
                out.peak[sid] = max(out.peak[sid], n)
            for k, n in state.meters.kinds:
                out.kinds[k] = max(out.kinds[k], n)
            for i, (callee, n) in enumerate(state.meters.calls):
                out.calls[(i, callee)] = max(out.calls.get((i, callee), 0), n)
            values = tuple(outs[n] if isinstance(outs[n], DecodeFailure) else _freeze(outs[n]) for n in names)
            view = state.view
            for obs in shown(runner, frame, state, outs):  # the public card outputs, as shown
                view = runner.views.extend(view, obs)
            _add(out.agg, (view, values), vec, owned)
        return out

    @classmethod
    def of(cls, parts: list[Part], agg: Aggregate) -> Outcomes:
        """The partitions' outcomes added up (the examples of stray cards: the smallest)."""
        out = cls(agg=agg)
        out.left = sorted({x for p in parts for x in p.left})[:LEFT_EXAMPLES]
        for p in parts:
            out.shuffles += p.shuffles
            out.turns += p.turns
            for name, n in p.peak.items():
                sid = SYMBOLS.intern(name).id
                out.peak[sid] = max(out.peak[sid], n)
            for k, n in p.kinds.items():
                out.kinds[k] = max(out.kinds[k], n)
            for key, n in p.calls.items():
                out.calls[key] = max(out.calls.get(key, 0), n)
            for name, n in p.input_cards.items():
                out.input_cards[name] = max(out.input_cards.get(name, 0), n)
        return out


@paused()
def verify(
    library: Library,
    proto: Protocol,
    params: Params | None = None,
    scenario: str | None = None,
    record_reveals: bool = False,
    workers: int = 1,
    backend: Backend | None = None,
) -> Report:
    """Exact verification of ``proto`` (defaults where parameters are not given).

    ``record_reveals`` also keeps every possible reveal (see :mod:`reference_engine.reveals`).
    With ``workers`` > 1 the inputs are split over that many local processes, or over the
    workers of ``backend`` (a Dask cluster, see :mod:`.cluster`); the report is the same
    except for the work statistics (see :mod:`.partition`).
    """
    started = time.perf_counter()
    st_ = setting(proto, params, scenario)
    params = st_.params
    # The inputs first: they name their cards (c1, c2...), and workers started now share the names.
    runner = Runner(library, "exact", context=st_.context)
    frame = runner.frame(proto, params)
    assignments: list[dict[str, Any]] = []
    declared: int | None = None
    try:
        assignments = input_assignments(frame, st_.deal)
        declared = declared_inputs(frame, st_.deal)
        workers = max(1, min(workers, len(assignments)))  # a partition per input at most
        combined = run_partitions(library, proto, params, scenario, record_reveals, workers, backend)
        # Each person who holds a hand: a run of their own, whose view adds what came into
        # their hands (one observer per run, so views still merge exactly as for the table).
        own = {
            p.name: run_partitions(library, proto, params, scenario, False, workers, backend, tuple(p.hands))
            for p in proto.people()
            if p.hands
        }
    except ReadError as exc:
        raise exc.error from None
    except SimulationError as exc:
        return _stuck(proto, params, exc, time.perf_counter() - started, len(assignments), declared)
    parts = combined.parts
    outcomes = Outcomes.of(parts, combined.agg)
    views = combined.views
    by_person = {name: (c.agg, c.views) for name, c in own.items()}
    checks = [
        correctness(proto, frame, assignments, outcomes.agg, views),
        security(proto, frame, assignments, outcomes.agg, views, by_person),
        tidiness(outcomes.left),
    ]
    res = resources(frame, assignments, outcomes)
    res["table"] = [max(p.extent[0] for p in parts), max(p.extent[1] for p in parts)]
    expect_rows = expectations(proto, frame, res)
    checks += [
        Check(
            f"expect {row['name']}",
            row["match"],
            f"measured {_fmt(row['measured'])}, paper {_fmt(row['expected'])}"
            + (f"  [{row['cite']}]" if row["cite"] else ""),
        )
        for row in expect_rows
    ]
    merged = {v for v, _ in outcomes.agg}
    subruns: set[Any] = set().union(*(p.subruns for p in parts))
    stats = {
        "final_states": sum(p.final_states for p in parts),
        "views": sum(views.weight(v) for v in merged),
        "views_after_merging": len(merged),
        "states_processed": sum(p.states_processed for p in parts),
        "peak_frontier": max(p.peak_frontier for p in parts),
        "subprotocol_runs": len(subruns),
        "seconds": round(time.perf_counter() - started, 3),
    }
    if len(parts) > 1:
        stats["workers"] = len(parts)
    factored: dict[str, str] = {}
    for p in parts:
        factored.update(p.factored)
    reveals: dict[tuple[str, str], set[tuple[Any, ...]]] | None = None
    if record_reveals:
        reveals = {}
        for p in parts:
            for k, seen in (p.reveals or {}).items():
                reveals.setdefault(k, set()).update(seen)
    no_factor = {n for p in parts for n in p.no_factor}
    return Report(
        proto.name,
        proto.title,
        params,
        "exact",
        len(assignments),
        checks,
        res,
        expect_rows,
        stats,
        _notes(factored, no_factor, combined.notes, st_.scenario),
        proto.source,
        st_.scenario,
        reveals,
        declared,
    )


def _notes(
    factored: dict[str, str], no_factor: set[str], forgotten: list[str], scenario: dict[str, Any] | None
) -> list[str]:
    notes = [f"composition: {v}; its view is factored out" for v in sorted(factored.values())]
    notes += [f"composition: {n} is inlined (its view is kept whole)" for n in sorted(no_factor)]
    if forgotten:
        notes.append(
            "views merged after step "
            + ", ".join(forgotten)
            + ": views after which every situation is equally likely up to one constant factor "
            "(the verdicts are the same)"
        )
    if scenario:
        sc = scenario
        notes.insert(
            0,
            f"scenario {sc['name']} ({sc['game']}): deal {' '.join(sc['deal'])} in every possible "
            f"way; {sc['state']}. {sc['doc']}".strip(),
        )
    return notes


def _stuck(
    proto: Protocol,
    params: Params,
    exc: SimulationError,
    seconds: float,
    inputs: int = 0,
    declared: int | None = None,
) -> Report:
    """A report for a protocol that cannot be carried out to the end in some run."""
    what = str(exc.problem) if exc.problem is not None else exc.format_message()
    checks = [
        Check("correct", False, f"some run cannot be carried out: {what}", {"error": what}),
        Check("secure", False, "not checked: the protocol does not always run to the end"),
    ]
    return Report(
        proto.name,
        proto.title,
        params,
        "exact",
        inputs,
        checks,
        {},
        [],
        empty_stats(seconds),
        [],
        proto.source,
        declared=declared,
    )


def _fmt(v: Any) -> str:
    if isinstance(v, dict):
        return ", ".join(f"{k} {n}" for k, n in v.items())
    return str(v)
