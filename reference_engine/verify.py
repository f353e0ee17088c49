"""Exact verification: correctness, security and resource counts of a protocol spec.

For every admissible input u the machine runs the protocol over *all* shuffle outcomes
with exact rational probabilities (see :mod:`machine`). Then:

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

import itertools
import time
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .cards import SYMBOLS, Symbol
from .errors import SimulationError, UsageError
from .expressions import EvalError, Scope, as_int, equal, plain
from .machine import (
    DecodeFailure,
    Frame,
    Frontier,
    Refactor,
    Runner,
    Shared,
    ViewTable,
    _add,
    _freeze,
    leftovers,
    read_outputs,
)
from .registry import Library
from .spec import Params, Protocol
from .steps import walk

VERSION = "0.1.0"


@dataclass
class Check:
    """One line of a verification report."""

    name: str
    ok: bool
    figure: str
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass
class Report:
    protocol: str
    title: str
    params: Params
    method: str
    inputs: int
    checks: list[Check]
    resources: dict[str, Any]
    expect: list[dict[str, Any]]
    stats: dict[str, Any]
    notes: list[str]
    source: dict[str, str]
    scenario: dict[str, Any] | None = None
    # With verify(..., record_reveals=True): every possible reveal per (protocol, step).
    reveals: dict[tuple[str, str], set[Any]] | None = field(default=None, repr=False)

    def check(self, name: str) -> Check | None:
        return next((c for c in self.checks if c.name == name), None)

    @property
    def correct(self) -> bool:
        c = self.check("correct")
        return bool(c and c.ok)

    @property
    def secure(self) -> bool:
        c = self.check("secure")
        return bool(c and c.ok)

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    def failed(self) -> list[str]:
        return [c.name for c in self.checks if not c.ok]

    def to_json(self) -> dict[str, Any]:
        return {
            "protocol": self.protocol,
            "title": self.title,
            "params": self.params,
            "method": self.method,
            "inputs": self.inputs,
            "verified": self.ok,
            "correct": self.correct,
            "secure": self.secure,
            "failed": self.failed(),
            "checks": [{"name": c.name, "ok": c.ok, "figure": c.figure, **c.detail} for c in self.checks],
            "resources": self.resources,
            "expect": self.expect,
            "stats": self.stats,
            "notes": self.notes,
            "source": self.source,
            "scenario": self.scenario,
            "engine": f"kitgen reference engine {VERSION}",
        }

    @classmethod
    def from_json(
        cls, data: dict[str, Any], reveals: dict[tuple[str, str], set[Any]] | None = None
    ) -> Report:
        """The report :meth:`to_json` describes (the derived verdicts are recomputed)."""
        checks = []
        for c in data["checks"]:
            detail = {k: v for k, v in c.items() if k not in ("name", "ok", "figure")}
            checks.append(Check(c["name"], bool(c["ok"]), c["figure"], detail))
        return cls(
            protocol=data["protocol"],
            title=data["title"],
            params=data["params"],
            method=data["method"],
            inputs=data["inputs"],
            checks=checks,
            resources=data["resources"],
            expect=data["expect"],
            stats=data["stats"],
            notes=data["notes"],
            source=data["source"],
            scenario=data["scenario"],
            reveals=reveals,
        )

    def lines(self) -> list[str]:
        params = ", ".join(f"{k}={v}" for k, v in self.params.items())
        name = f"{self.protocol} ({params})" if params else self.protocol
        head = f"{name}: {self.method} verification over {self.inputs} inputs"
        out = [head]
        width = max((len(c.name) for c in self.checks), default=0)
        for c in self.checks:
            mark = "ok  " if c.ok else "FAIL"
            out.append(f"  {mark} {c.name:<{width}}  {c.figure}")
        for n in self.notes:
            out.append(f"  note: {n}")
        st = self.stats
        n_views = _views_phrase(st.get("views_after_merging", st["views"]), st["views"])
        out.append(
            f"  {st['final_states']} final states, {n_views}, "
            f"{st['states_processed']} states processed (largest frontier {st['peak_frontier']}), "
            f"{st['seconds']:.2f} s"
        )
        out.append("VERIFIED" if self.ok else f"NOT VERIFIED: failed {', '.join(self.failed())}")
        return out


# --------------------------------------------------------------------------- inputs


def deals(cards: list[Symbol], sizes: list[int]) -> list[list[Symbol]]:
    """Every way to deal ``cards`` into hands of the given sizes (a hand's order is irrelevant)."""
    if sum(sizes) != len(cards):
        raise UsageError(f"cannot deal {len(cards)} cards into hands of sizes {sizes} ({sum(sizes)} cards)")
    out: list[list[Symbol]] = []

    def rec(remaining: list[Symbol], i: int, acc: list[Symbol]) -> None:
        if i == len(sizes):
            out.append(acc)
            return
        seen: set[tuple[str, ...]] = set()
        for combo in itertools.combinations(range(len(remaining)), sizes[i]):
            hand = [remaining[j] for j in combo]
            key = tuple(s.name for s in hand)
            if key in seen:
                continue
            seen.add(key)
            rest = [c for j, c in enumerate(remaining) if j not in combo]
            rec(rest, i + 1, acc + hand)

    rec(sorted(cards, key=lambda s: s.name), 0, [])
    return out


MAX_INPUTS = 2_000_000  # input combinations an exact verification will enumerate


def input_assignments(frame: Frame, deal: list[Symbol] | None = None) -> list[dict[str, Any]]:
    """Every admissible assignment of the inputs; a grouped input gets every deal of ``deal``."""
    total = 1
    for name in frame.proto.inputs:
        if frame.groups(name) is None or deal is None:
            try:
                total *= frame.domain_size(name)
            except EvalError:
                continue
    if total > MAX_INPUTS:
        raise UsageError(
            f"{frame.proto.name} has {f'{total:,}' if total < 1e15 else f'about 2^{total.bit_length() - 1}'} "
            "combinations of inputs to try before 'admissible' "
            f"filters them, too many to verify exactly (the limit is {MAX_INPUTS:,}). Verify the "
            "protocols it is built from, or give smaller --param values; simulate it with kitgen simulate."
        )
    domains: dict[str, list[Any]] = {}
    for name in frame.proto.inputs:
        sizes = frame.groups(name)
        if sizes is not None and deal is not None:
            domains[name] = deals(deal, sizes)
        else:
            try:
                domains[name] = frame.domain(name)
            except EvalError as exc:
                raise UsageError(f"{frame.proto.name}: input {name}: {exc}") from None
    names = list(domains)
    out = []
    for combo in itertools.product(*(domains[n] for n in names)):
        values = dict(zip(names, combo))
        if frame.proto.admissible is not None:
            try:
                if not plain(frame.proto.admissible(value_scope(frame, values))):
                    continue
            except EvalError as exc:
                raise SimulationError("", frame.proto.src.problem(("admissible",), str(exc))) from None
        out.append(values)
    return out


def value_scope(frame: Frame, values: dict[str, Any]) -> Scope:
    return frame.globals.child(dict(values))


def describe_value(v: Any) -> str:
    v = plain(v)
    if isinstance(v, Symbol):
        return v.glyph
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(describe_value(x) for x in v) + "]"
    if v is None:
        return "none"
    return str(v)


def describe_inputs(values: dict[str, Any]) -> str:
    return ", ".join(f"{k}={describe_value(v)}" for k, v in values.items())


def describe_view(views: ViewTable, vid: int) -> str:
    parts = []
    for obs in views.observations(vid):
        kind = obs[0]
        if kind == "turn":
            parts.append("turned " + " ".join(SYMBOLS.by_id(c >> 1).glyph for c in obs[1]))
        elif kind == "discard":
            parts.append("returned " + " ".join(SYMBOLS.by_id(s).glyph for s in obs[1]))
        elif kind == "shuffle":
            parts.append("saw a shuffle of face-up cards")
        elif kind == "call":
            inner = obs[2]
            if isinstance(inner, int):
                parts.append(f"{obs[1]}: [{describe_view(views, inner)}]")
            elif inner:
                parts.append(f"{obs[1]} -> {describe_value(list(inner))}")
        elif kind == "shift":
            parts.append(f"shifted by {obs[1]}")
        elif kind == "merged":
            parts.append(
                f"one of {views.weight(obs[2])} views alike up to a constant factor after step {obs[1]}"
            )
    return "; ".join(parts) or "nothing"


# --------------------------------------------------------------------------- run


def run_exact(
    library: Library,
    proto: Protocol,
    params: Params,
    context: dict[str, Any] | None = None,
    deal: list[Symbol] | None = None,
    record_reveals: bool = False,
) -> tuple[Runner, Frame, list[dict[str, Any]], Frontier]:
    """Run every input through every shuffle outcome. Retries without view factoring if needed.

    With ``record_reveals``, ``runner.shared.reveals`` holds every possible reveal per step.
    """
    no_factor: set[str] = set()
    while True:
        shared = Shared(no_factor=set(no_factor), reveals={} if record_reveals else None)
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
        try:
            final = runner.run(frame, frontier)
        except Refactor as exc:
            no_factor.add(exc.protocol)
            continue
        return runner, frame, assignments, final


def outcome_distribution(
    library: Library, proto: Protocol, params: Params | None = None, scenario: str | None = None
) -> list[tuple[dict[str, Any], dict[tuple[Any, ...], Fraction]]]:
    """For each input: the exact distribution of the output values (in ``proto.outputs`` order)."""
    st_ = setting(proto, params, scenario)
    runner, frame, assignments, final = run_exact(library, proto, st_.params, st_.context, st_.deal)
    dist: list[dict[tuple[Any, ...], Fraction]] = [defaultdict(Fraction) for _ in assignments]
    for state, (den, nums) in final.items():
        outs = read_outputs(runner, frame, state)
        key = tuple(
            outs[n] if isinstance(outs[n], DecodeFailure) else _freeze(outs[n]) for n in proto.outputs
        )
        for u, num in nums.items():
            dist[u][key] += Fraction(num, den)
    return [(a, dict(d)) for a, d in zip(assignments, dist)]


@dataclass
class Setting:
    """What a verification runs with: parameters, game functions and a deck to deal."""

    params: Params
    context: dict[str, Any] = field(default_factory=dict)
    deal: list[Symbol] | None = None
    scenario: dict[str, Any] | None = None


def setting(proto: Protocol, params: Params | None = None, scenario: str | None = None) -> Setting:
    """Bind a protocol to its parameters and, for game protocols, to a scenario (a reduced deck)."""
    if scenario is None and proto.context:
        if not proto.scenarios:
            raise UsageError(
                f"{proto.name} needs a game (functions {', '.join(proto.context)}) "
                "but declares no scenario to verify it in"
            )
        scenario = next(iter(proto.scenarios))
    if scenario is None:
        return Setting(proto.resolve_params(params))
    if scenario not in proto.scenarios:
        known = ", ".join(proto.scenarios) or "none"
        raise UsageError(f"{proto.name} has no scenario {scenario!r} (scenarios: {known})")
    from .rules import load_rules

    sc = proto.scenarios[scenario]
    rules = load_rules(sc.game)
    unknown = [n for n in sc.deal if n not in rules.cards]
    if unknown:
        raise SimulationError(
            "", proto.src.problem(sc.path + ("deal",), f"{sc.game} has no card {unknown[0]!r}")
        )
    deal = [rules.symbol(n) for n in sc.deal]
    context: dict[str, Any] = {}
    if "valid" in proto.context:
        top_name = str(sc.state.get("top", ""))
        if top_name not in rules.cards:
            raise SimulationError(
                "", proto.src.problem(sc.path + ("state",), "the state needs a 'top' card of the game")
            )
        top = rules.symbol(top_name)
        color = str(sc.state.get("color", top.attrs.get("color", "")))
        context["valid"] = rules.validity(top, color)
        state_text = f"top card {top.glyph}, colour {color}"
    else:
        state_text = ""
    merged = {**sc.params, **(params or {})}
    info = {
        "name": sc.name,
        "doc": sc.doc,
        "game": sc.game,
        "deal": [d.glyph for d in deal],
        "state": state_text,
    }
    return Setting(proto.resolve_params(merged), context, deal, info)


def verify(
    library: Library,
    proto: Protocol,
    params: Params | None = None,
    scenario: str | None = None,
    record_reveals: bool = False,
) -> Report:
    """Exact verification of ``proto`` (defaults where parameters are not given).

    ``record_reveals`` also keeps every possible reveal (see :mod:`reference_engine.reveals`).
    """
    started = time.perf_counter()
    st_ = setting(proto, params, scenario)
    params = st_.params
    try:
        runner, frame, assignments, final = run_exact(
            library, proto, params, st_.context, st_.deal, record_reveals=record_reveals
        )
    except SimulationError as exc:
        return _stuck(proto, params, exc, time.perf_counter() - started)
    views = runner.views

    wrong: list[dict[str, Any]] = []
    left: list[str] = []
    dists: dict[int, dict[str, dict[Any, Fraction]]] = defaultdict(
        lambda: defaultdict(lambda: defaultdict(Fraction))
    )
    # What the players saw: the view, plus any output card that is shown afterwards.
    p_view: dict[int, dict[ViewKey, Fraction]] = defaultdict(lambda: defaultdict(Fraction))
    public_of_view: dict[ViewKey, tuple[Any, ...]] = {}
    announced: dict[int, tuple[Any, ...]] = {}
    public_mismatch: list[str] = []
    shuffles: list[int] = []
    turns: list[int] = []
    peak: dict[int, int] = defaultdict(int)
    kinds: dict[str, int] = defaultdict(int)
    public_outputs = [o for o in proto.outputs.values() if o.public]
    value_outputs = [o for o in public_outputs if o.cards is None]
    shown_outputs = [o for o in public_outputs if o.cards is not None]
    names = list(proto.outputs)
    # 'equals' may name outputs that are random choices (the loader refuses any other output).
    random_choices = {o.name for o in proto.outputs.values() if o.uniform is not None}
    cache: dict[tuple[Any, ...], Any] = {}

    def expected(u: int, name: str, outs: dict[str, Any]) -> Any:
        out = proto.outputs[name]
        expr = out.equals if out.equals is not None else out.uniform
        assert expr is not None
        deps = tuple(sorted(expr.names() & random_choices))
        key = (u, name, tuple(outs[d] for d in deps))
        if key not in cache:
            scope = value_scope(frame, {**assignments[u], **{d: outs[d] for d in deps}})
            try:
                cache[key] = plain(expr(scope))
            except EvalError as exc:
                raise SimulationError("", proto.src.problem(out.path, str(exc))) from None
        return cache[key]

    calls: dict[tuple[int, str], int] = {}  # (position, callee) -> the most cards that call used
    agg: dict[tuple[int, tuple[Any, ...]], tuple[int, dict[int, int]]] = {}  # (view, outputs) -> per input
    owned: set[int] = set()
    for state, vec in final.items():
        outs = read_outputs(runner, frame, state)
        stray = leftovers(runner, frame, state)
        if stray and len(left) < 5:
            left.append(", ".join(stray))
        shuffles.append(state.meters.shuffles)
        turns.append(state.meters.turns)
        for sid, n in state.meters.peak:
            peak[sid] = max(peak[sid], n)
        for k, n in state.meters.kinds:
            kinds[k] = max(kinds[k], n)
        for i, (callee, n) in enumerate(state.meters.calls):
            calls.setdefault((i, callee), 0)
            calls[(i, callee)] = max(calls[(i, callee)], n)
        values = tuple(outs[n] if isinstance(outs[n], DecodeFailure) else _freeze(outs[n]) for n in names)
        _add(agg, (state.view, values), vec, owned)

    for (view, values), (den, nums) in agg.items():
        outs = dict(zip(names, values))
        said = tuple(outs[o.name] for o in value_outputs)
        if announced.setdefault(view, said) != said and len(public_mismatch) < 3:
            public_mismatch.append(describe_view(views, view))
        key: ViewKey = (view, tuple(outs[o.name] for o in shown_outputs))
        public_of_view[key] = tuple(outs[o.name] for o in public_outputs)
        for u, num in nums.items():
            if num == 0:
                continue
            p = Fraction(num, den)
            p_view[u][key] += p
            for name, out in proto.outputs.items():
                value = outs[name]
                if out.uniform is not None:
                    dists[u][name][value] += p
                elif out.equals is not None:
                    exp = expected(u, name, outs)
                    if isinstance(value, DecodeFailure) or not equal(value, exp):
                        wrong.append(
                            {}
                            if len(wrong) >= 5
                            else {
                                "inputs": describe_inputs(assignments[u]),
                                "output": name,
                                "got": str(value)
                                if isinstance(value, DecodeFailure)
                                else describe_value(value),
                                "expected": describe_value(exp),
                                "view": describe_view(views, view),
                                "probability": str(p),
                            }
                        )

    # Randomised outputs: exact distribution against the uniform specification.
    for u in range(len(assignments)):
        for name, out in proto.outputs.items():
            if out.uniform is None:
                continue
            pool = expected(u, name, {})
            pool = list(pool) if isinstance(pool, (list, tuple)) else [pool]
            if pool:
                want: dict[Any, Fraction] = defaultdict(Fraction)
                for v in pool:
                    want[_freeze(v)] += Fraction(1, len(pool))
            else:
                want = {None: Fraction(1)}
            got = {k: v for k, v in dists[u][name].items() if v}
            if got != dict(want):
                wrong.append(
                    {
                        "inputs": describe_inputs(assignments[u]),
                        "output": name,
                        "got": _describe_dist(got),
                        "expected": _describe_dist(dict(want)),
                        "view": "",
                        "probability": "",
                    }
                )

    checks: list[Check] = []
    real_wrong = [w for w in wrong if w]
    if not wrong:
        checks.append(Check("correct", True, _correct_figure(proto, len(assignments))))
    else:
        first = real_wrong[0]
        checks.append(
            Check(
                "correct",
                False,
                f"{len(wrong)} wrong outcome(s); e.g. with {first['inputs']}, output "
                f"{first['output']} is {first['got']} instead of {first['expected']}"
                + (f" (after: {first['view']})" if first["view"] else ""),
                {"counterexamples": real_wrong},
            )
        )

    sec = _security(proto, assignments, p_view, public_of_view, public_outputs, views)
    if public_mismatch:
        sec = Check(
            "secure",
            False,
            f"a public output is not determined by what the players saw (after: {public_mismatch[0]})",
            {"counterexamples": public_mismatch},
        )
    checks.append(sec)

    if left:
        checks.append(
            Check("tidy", False, f"cards left on the table at the end: {left[0]}", {"examples": left})
        )
    else:
        checks.append(Check("tidy", True, "every card ends in an output or back in the supply"))

    resources = _resources(runner, frame, assignments, shuffles, turns, peak, kinds)
    by_callee: dict[str, list[int]] = {}
    for (_, callee), n in sorted(calls.items()):
        by_callee.setdefault(callee, []).append(n)
    resources["calls"] = by_callee
    resources["table"] = list(runner.shared.extent)
    expect_rows = _expectations(proto, frame, resources)
    for row in expect_rows:
        checks.append(
            Check(
                f"expect {row['name']}",
                row["match"],
                f"measured {_fmt(row['measured'])}, paper {_fmt(row['expected'])}"
                + (f"  [{row['cite']}]" if row["cite"] else ""),
            )
        )
    merged_views, raw_views = view_counts(views, {s.view for s in final})
    stats = {
        "final_states": len(final),
        "views": raw_views,
        "views_after_merging": merged_views,
        "states_processed": runner.shared.states_processed,
        "peak_frontier": runner.shared.peak_frontier,
        "subprotocol_runs": len(runner.shared.subruns),
        "seconds": round(time.perf_counter() - started, 3),
    }
    notes = [f"composition: {v}; its view is factored out" for v in sorted(runner.shared.factored.values())]
    notes += [
        f"composition: {n} is inlined (its view is kept whole)" for n in sorted(runner.shared.no_factor)
    ]
    if runner.shared.forgotten:
        notes.append(
            "views merged after step "
            + ", ".join(runner.shared.forgotten)
            + ": views after which every situation is equally likely up to one constant factor "
            "(the verdicts are the same)"
        )
    if st_.scenario:
        sc = st_.scenario
        notes.insert(
            0,
            f"scenario {sc['name']} ({sc['game']}): deal {' '.join(sc['deal'])} in every possible "
            f"way; {sc['state']}. {sc['doc']}".strip(),
        )
    return Report(
        proto.name,
        proto.title,
        params,
        "exact",
        len(assignments),
        checks,
        resources,
        expect_rows,
        stats,
        notes,
        proto.source,
        st_.scenario,
        runner.shared.reveals,
    )


ViewKey = tuple[int, tuple[Any, ...]]


def _stuck(proto: Protocol, params: Params, exc: SimulationError, seconds: float) -> Report:
    """A report for a protocol that cannot be carried out to the end in some run."""
    what = str(exc.problem) if exc.problem is not None else exc.format_message()
    checks = [
        Check("correct", False, f"some run cannot be carried out: {what}", {"error": what}),
        Check("secure", False, "not checked: the protocol does not always run to the end"),
    ]
    return Report(
        proto.name, proto.title, params, "exact", 0, checks, {}, [], empty_stats(seconds), [], proto.source
    )


def empty_stats(seconds: float) -> dict[str, Any]:
    """The figures of a report that stopped before any run finished."""
    return {
        "final_states": 0,
        "views": 0,
        "views_after_merging": 0,
        "states_processed": 0,
        "peak_frontier": 0,
        "subprotocol_runs": 0,
        "seconds": round(seconds, 3),
    }


def _describe_dist(d: dict[Any, Fraction]) -> str:
    parts = [f"{describe_value(k)}: {v}" for k, v in sorted(d.items(), key=lambda kv: str(kv[0]))]
    return "{" + ", ".join(parts) + "}"


def _fmt(v: Any) -> str:
    if isinstance(v, dict):
        return ", ".join(f"{k} {n}" for k, n in v.items())
    return str(v)


def _correct_figure(proto: Protocol, n: int) -> str:
    parts = []
    for o in proto.outputs.values():
        if o.equals is not None:
            parts.append(f"{o.name} = {o.equals.text}")
        elif o.uniform is not None:
            parts.append(f"{o.name} uniform over {o.uniform.text}")
    what = "; ".join(parts) or "no output has a specification"
    return f"{what}: exact, for all {n} inputs and every shuffle outcome"


def _security(
    proto: Protocol,
    assignments: list[dict[str, Any]],
    p_view: dict[int, dict[ViewKey, Fraction]],
    public_of_view: dict[ViewKey, tuple[Any, ...]],
    public_outputs: list[Any],
    views: ViewTable,
) -> Check:
    public_inputs = [n for n, d in proto.inputs.items() if d.public]
    classes: dict[tuple[Any, ...], list[int]] = defaultdict(list)
    for u, values in enumerate(assignments):
        classes[tuple(_freeze(values[n]) for n in public_inputs)].append(u)
    checked = 0
    for members in classes.values():
        by_output: dict[tuple[Any, ...], dict[int, dict[ViewKey, Fraction]]] = defaultdict(dict)
        for u in members:
            totals: dict[tuple[Any, ...], Fraction] = defaultdict(Fraction)
            for v, p in p_view[u].items():
                totals[public_of_view[v]] += p
            for o, total in totals.items():
                by_output[o][u] = {v: p / total for v, p in p_view[u].items() if public_of_view[v] == o}
        for o, conds in by_output.items():
            items = list(conds.items())
            u0, ref = items[0]
            for u, dist in items[1:]:
                checked += 1
                if dist != ref:
                    vkey = next(v for v in set(ref) | set(dist) if ref.get(v, 0) != dist.get(v, 0))
                    seen = describe_view(views, vkey[0])
                    shown = ", ".join(f"{po.name}={describe_value(x)}" for po, x in zip(public_outputs, o))
                    given = f" given {shown}" if o else ""
                    return Check(
                        "secure",
                        False,
                        f'the view "{seen}" has probability {ref.get(vkey, 0)} '
                        f"with {describe_inputs(assignments[u0])} but {dist.get(vkey, 0)} with "
                        f"{describe_inputs(assignments[u])}{given}",
                        {
                            "counterexample": {
                                "view": seen,
                                "inputs": [describe_inputs(assignments[u0]), describe_inputs(assignments[u])],
                                "probabilities": [str(ref.get(vkey, 0)), str(dist.get(vkey, 0))],
                            }
                        },
                    )
    merged, raw = view_counts(views, {key[0] for key in public_of_view})
    given = f" given {', '.join(o.name for o in public_outputs)}" if public_outputs else ""
    extra = f" and public inputs {', '.join(public_inputs)}" if public_inputs else ""
    return Check(
        "secure",
        True,
        f"{_views_phrase(merged, raw)}, {'each ' if raw != 1 else ''}"
        f"equally likely under every input{given}{extra}",
        {"views": raw, "views_after_merging": merged},
    )


def view_counts(views: ViewTable, final: set[int]) -> tuple[int, int]:
    """(distinct views after merging, distinct views the players could tell apart)."""
    return len(final), sum(views.weight(v) for v in final)


def _views_phrase(merged: int, raw: int) -> str:
    text = f"{raw} possible view{'s' if raw != 1 else ''}"
    if merged != raw:
        text += f" ({merged} after merging views that are alike up to a constant factor)"
    return text


def _resources(
    runner: Runner,
    frame: Frame,
    assignments: list[dict[str, Any]],
    shuffles: list[int],
    turns: list[int],
    peak: dict[int, int],
    kinds: dict[str, int],
) -> dict[str, Any]:
    input_cards: dict[str, int] = defaultdict(int)
    for values in assignments:
        state = frame.initial_state(values)
        counts: dict[str, int] = defaultdict(int)
        for c in state.cells:
            counts[SYMBOLS.by_id(c >> 1).name] += 1
        for k, n in counts.items():
            input_cards[k] = max(input_cards[k], n)
    helpers = {SYMBOLS.by_id(s).name: n for s, n in sorted(peak.items()) if n}
    by_symbol = dict(input_cards)
    for k, n in helpers.items():
        by_symbol[k] = by_symbol.get(k, 0) + n
    return {
        "cards": sum(by_symbol.values()),
        "cards_by_symbol": dict(sorted(by_symbol.items())),
        "input_cards": sum(input_cards.values()),
        "helper_cards": sum(helpers.values()),
        "helpers_by_symbol": helpers,
        "shuffles": max(shuffles, default=0),
        "shuffles_min": min(shuffles, default=0),
        "shuffles_by_kind": dict(sorted(kinds.items())),
        "turns": max(turns, default=0),
        "turns_min": min(turns, default=0),
        "steps": len([s for s in frame.proto.steps if s.number is not None]),
        "substeps": len([s for s in walk(frame.proto.steps) if s.number is not None]),
    }


def _as_list(v: Any) -> list[Any]:
    v = plain(v)
    if not isinstance(v, (list, tuple)):
        raise EvalError(f"expected a list of numbers, got {v!r}")
    return list(v)


def _expectations(proto: Protocol, frame: Frame, resources: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    scope = frame.globals
    for name, exp in proto.expect.items():
        try:
            if name == "cards_by_symbol":
                want: Any = {k: as_int(e(scope)) for k, e in exp.by_symbol.items()}
                got: Any = {k: resources["cards_by_symbol"].get(k, 0) for k in want}
            elif name == "calls":
                want = {k: [as_int(x) for x in _as_list(e(scope))] for k, e in exp.by_symbol.items()}
                got = {k: resources["calls"].get(k, []) for k in want}
            elif name == "table":
                assert exp.value is not None
                want = [as_int(x) for x in _as_list(exp.value(scope))]
                got = resources["table"]
            else:
                assert exp.value is not None
                want = as_int(exp.value(scope))
                got = resources[name]
        except EvalError as exc:
            raise SimulationError("", proto.src.problem(exp.path, str(exc))) from None
        formula = (
            exp.value.text
            if exp.value is not None
            else "; ".join(f"{k}: {e.text}" for k, e in exp.by_symbol.items())
        )
        rows.append(
            {
                "name": name,
                "expected": want,
                "measured": got,
                "match": want == got,
                "formula": formula,
                "cite": exp.cite,
            }
        )
    return rows
