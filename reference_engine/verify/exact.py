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

import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..cards import DEALT, Symbol
from ..collector import paused
from ..errors import EvalError, MemoryRefused, SimulationError
from ..machine import (
    DecodeFailure,
    Frame,
    Frontier,
    Runner,
    Shared,
    _freeze,
    read_outputs,
)
from ..registry import Library
from ..report import Check, Reduction, Report, Scenario, Stats, count_text
from ..seating import seen_hands
from ..spec import Params, Protocol
from .checks import correctness, expectations, resources, security, tidiness
from .classes import ClassDeck, Table
from .discipline import check_outputs
from .inputs import declared_inputs, input_assignments
from .memory import (
    BASE_BYTES,
    Guard,
    class_forecast,
    deals_within,
    general_advice,
    limit_share,
    machine_limit,
    per_deal_card,
    resident,
    size_text,
)
from .partition import Backend, ReadError, Run, class_assignments, outcomes_of, run_partitions
from .segments import plan_segments
from .setting import setting, table_setting
from .symmetry import Symmetry


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
    library: Library,
    proto: Protocol,
    params: Params | None = None,
    scenario: str | None = None,
    table: Table | None = None,
) -> list[tuple[dict[str, Any], dict[tuple[Any, ...], Fraction]]]:
    """For each input: the exact distribution of the output values (in ``proto.outputs`` order).
    With ``table``: for each deal of the validity classes (:mod:`.classes`), in class symbols."""
    if table is not None:
        return _class_outcomes(library, proto, table, params)
    st_ = setting(proto, params, scenario)
    run = run_exact(library, proto, st_.params, st_.context, st_.deal)
    return _distributions(run)


def _class_outcomes(
    library: Library, proto: Protocol, table: Table, params: Params | None
) -> list[tuple[dict[str, Any], dict[tuple[Any, ...], Fraction]]]:
    st_ = table_setting(proto, table, params)
    check_outputs(proto)
    assert st_.classes is not None
    shared = Shared(restartable=True)
    shared.symmetry = Symmetry(plan_segments(library, proto), st_.classes.owner, st_.classes.faces)
    hidden = set(st_.classes.key_of) - DEALT.ids
    st_.classes.hide()
    try:
        while True:
            runner = Runner(library, "exact", shared=shared, context=st_.context)
            runner.forget_views = True
            frame = runner.frame(proto, st_.params)
            runner.limits = frame.helpers
            assignments = class_assignments(proto, st_)
            frontier: Frontier = {}
            for i, values in enumerate(assignments):
                frontier.setdefault(frame.initial_state(values), (1, {}))[1][i] = 1
            final = runner.run(frame, frontier)
            if shared.restart is None:
                break
            no_factor = shared.no_factor | {shared.restart}
            shared = Shared(no_factor=no_factor, restartable=True, symmetry=shared.symmetry)
            shared.symmetry.hands_checked = False
    finally:
        DEALT.ids.difference_update(hidden)
    return _distributions(ExactRun(runner, frame, assignments, final))


def _distributions(run: ExactRun) -> list[tuple[dict[str, Any], dict[tuple[Any, ...], Fraction]]]:
    proto = run.frame.proto
    dist: list[dict[tuple[Any, ...], Fraction]] = [defaultdict(Fraction) for _ in run.assignments]
    for state, (den, nums) in run.final.items():
        outs = read_outputs(run.runner, run.frame, state)
        key = tuple(
            outs[n] if isinstance(outs[n], DecodeFailure) else _freeze(outs[n]) for n in proto.outputs
        )
        for u, num in nums.items():
            dist[u][key] += Fraction(num, den)
    return [(a, dict(d)) for a, d in zip(run.assignments, dist)]


@paused()
def verify(
    library: Library,
    proto: Protocol,
    params: Params | None = None,
    scenario: str | None = None,
    record_reveals: bool = False,
    workers: int = 1,
    backend: Backend | None = None,
    table: Table | None = None,
    max_memory: int | None = None,
    advice: Callable[[], str] | None = None,
) -> Report:
    """Exact verification of ``proto`` (defaults where parameters are not given).

    ``record_reveals`` also keeps every possible reveal (see :mod:`reference_engine.reveals`).
    With ``workers`` > 1 the inputs are split over that many local processes, or over the
    workers of ``backend`` (a Dask cluster, see :mod:`.cluster`); the report is the same
    except for the work statistics (see :mod:`.partition`). With ``table`` a game protocol is
    verified on a whole table by validity classes (:mod:`.classes`, :mod:`.symmetry`): every
    deal of its cards, exactly, or ReductionRefused when a precondition fails.

    It uses at most ``max_memory`` bytes (default: what the machine can give, see
    :mod:`.memory`): a verification by classes is forecast before anything is listed and refused
    when it would not fit; any verification is stopped when it passes the limit. Either way
    :class:`MemoryRefused` says so, with ``advice()`` (what would fit; default: general advice).
    """
    started = time.perf_counter()
    limit = max_memory if max_memory is not None else machine_limit()
    if table is not None:
        # The refusals that need no enumeration come first (nothing is dealt or listed before).
        check_outputs(proto)
        plan_segments(library, proto)  # refused before any work when the spec breaks it
        st_ = table_setting(proto, table, params)
        assert st_.classes is not None
        _fits(proto, st_.classes, limit, advice)
    else:
        st_ = setting(proto, params, scenario)
    params = st_.params
    # The inputs first: they name their cards (c1, c2...), and workers started now share the names.
    runner = Runner(library, "exact", context=st_.context)
    frame = runner.frame(proto, params)
    declared: int | None = None  # a verification by classes counts deals instead
    what = f"the exact verification of {proto.name}"
    try:
        # Split over local processes, this one only coordinates: what it grows by counts (its
        # partitions each guard their share of what is left, see partition.worker_main).
        with Guard(limit, what, advice or general_advice, grown=workers > 1 and backend is None):
            if st_.classes is not None:
                assignments = class_assignments(proto, st_)
            else:
                assignments = input_assignments(frame, st_.deal)
                declared = declared_inputs(frame, st_.deal)
            workers = max(1, min(workers, len(assignments)))  # a partition per input at most
            if backend is not None:  # each partition on its own machine: its share of a given limit
                share = max_memory // workers if max_memory is not None else None
            else:
                share = limit_share(limit, workers) if workers > 1 else limit
            job = Run(library, proto, params, scenario, workers, backend, table, share)
            combined = run_partitions(job, record_reveals)
            # Each person who sees something of their own (their hands, through calls too): a run
            # of their own, whose view adds it (one observer per run, so views still merge
            # exactly as for the table). (A verification by classes has no such person:
            # check_outputs refuses 'players'.)
            holding = seen_hands(library, proto)
            own = {name: run_partitions(job, False, name) for name, hands in holding.items() if hands}
    except ReadError as exc:
        raise exc.error from None
    parts = combined.parts
    outcomes = outcomes_of(parts, combined.agg)
    views = combined.views
    reduction = _reduction(st_.classes, table) if st_.classes is not None else None
    by_person = {name: (c.agg, c.views) for name, c in own.items()}
    checks = [
        correctness(
            proto, [p.wrong for p in parts], len(assignments), reduction["inputs_text"] if reduction else None
        ),
        security(proto, frame, assignments, outcomes.agg, views, by_person, holding),
        tidiness(outcomes.left),
    ]
    if st_.classes is not None:  # the dealt cards by their faces, not their classes
        outcomes.input_cards = dict(st_.classes.faces)
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
    stats: Stats = {
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
        stats["partitions"] = [
            {
                "inputs": p.share,
                "cpu_seconds": p.cpu_seconds,
                "states_processed": p.states_processed,
                "subruns_run": p.subruns_run,
                "subruns_loaded": p.subruns_loaded,
            }
            for p in parts
        ]
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
    notes = _notes(factored, no_factor, combined.notes, st_.scenario)
    for name, c in own.items():  # a callee a person's view keeps whole, though the table's factors
        for callee in sorted({n for p in c.parts for n in p.no_factor} - no_factor):
            notes.append(f"composition, in {name}'s view: {callee} is inlined (its view is kept whole)")
    if reduction is not None:
        notes = reduction["notes"] + notes[1:]
    return Report(
        proto.name,
        proto.title,
        params,
        "exact",
        reduction["deals"] if reduction else len(assignments),
        checks,
        res,
        expect_rows,
        stats,
        notes,
        proto.source,
        st_.scenario,
        reveals,
        reduction=_public(reduction) if reduction else None,
        declared=declared,
    )


def _fits(proto: Protocol, classes: ClassDeck, limit: int, advice: Callable[[], str] | None) -> None:
    """Refuse a verification by classes whose forecast (from its class deals, counted without
    listing them, on top of what this process holds already, at the protocol's bytes per card
    of a class deal for P_1's hand) is over ``limit``, before anything is listed or run."""
    cards = sum(classes.sizes)
    base = resident()
    per_card = per_deal_card(proto.name, classes.sizes[0] if classes.sizes else None)
    cap = deals_within(limit, cards, base, per_card)
    if classes.count(cap) <= cap:
        return
    held = f"{size_text(max(base, BASE_BYTES))} (this process)"
    raise MemoryRefused(
        f"the exact verification of {proto.name} on this table does not fit in its limit of "
        f"{size_text(limit)} («max_memory»): it has more than {cap:,} deals of the validity classes "
        f"({classes.describe()}) of {cards} cards, the most that fit (forecast: {held} plus about "
        f"{per_card:,} bytes per card of each class deal, "
        f"{size_text(class_forecast(cap + 1, cards, base, per_card))} for {cap + 1:,}); nothing was run. "
        + (advice() if advice is not None else general_advice())
    )


class Reduced(Reduction):
    """A reduction with its wording: the checks' and the notes' text."""

    inputs_text: str
    notes: list[str]


def _public(reduction: Reduced) -> Reduction:
    """The report's ``reduction``: what :func:`_reduction` gives, less its wording."""
    return {
        "deals": reduction["deals"],
        "class_deals": reduction["class_deals"],
        "classes": reduction["classes"],
        "cards": reduction["cards"],
        "sizes": reduction["sizes"],
        "table": reduction["table"],
    }


def _reduction(classes: ClassDeck, table: Table | None) -> Reduced:
    """What a verification by classes stands for: the deals of the physical cards, the class
    deals run, and the notes naming each reduction and its checked precondition."""
    deals = sum(d.deals for d in classes.deals)
    n = len(classes.deals)
    cards = sum(classes.faces.values())
    sizes = ", ".join(map(str, classes.sizes))
    text = f"{deals:,} deals" if deals < 10**15 else f"{count_text(deals)} deals"
    return {
        "deals": deals,
        "class_deals": n,
        "classes": [
            {"class": classes.label(k), "cards": c} for k, c in zip(classes.classes, classes.per_class)
        ],
        "cards": cards,
        "sizes": list(classes.sizes),
        "table": table.text if table is not None else "",
        "inputs_text": f"{text} of the {cards} cards ({n} deals of the validity classes)",
        "notes": [
            f"table: {table.text if table is not None else ''} {cards} cards dealt into hands of "
            f"{sizes}: {text}, every one verified through {n} deals of the validity classes "
            f"({classes.describe()})".strip(),
            "data independence: the protocol reads a dealt card's face only through the game's "
            "functions (checked at every read) and shows dealt cards only all at once in scrambled "
            "columns; its outputs use them only as multisets (checked on the spec): every deal "
            "with the same number of cards of each class per owner runs alike up to renaming, so "
            "one class deal stands for all of them, and cards of one class in one hand are equally "
            "likely to be chosen",
            "symmetry: after a scramble of every column, one table per orbit of column orders "
            "(sorted columns) with the orbit's probability; reveals there are multisets standing "
            "for every order (checked: equivariant actions only, one reveal per scramble, the "
            "hands' piles alike apart from the card, callees that scramble their inputs first); "
            "the first of scrambled columns with a property is each of them with the same "
            "probability (checked: they show the same, nothing seen has left the table)",
        ],
    }


def _notes(
    factored: dict[str, str], no_factor: set[str], forgotten: list[str], scenario: Scenario | None
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


def _fmt(v: Any) -> str:
    if isinstance(v, dict):
        return ", ".join(f"{k} {n}" for k, n in v.items())
    return str(v)
