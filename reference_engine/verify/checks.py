"""The checks of an exact verification, each from the outcomes of every run.

Correctness compares each run's outputs with the spec (``equals``, or the exact
distribution of a ``uniform`` choice); security compares, input against input, the
probability of every view given the public inputs and outputs; tidiness looks for cards
left on the table; the resources are measured and set against the paper's counts.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..cards import SYMBOLS, Symbol
from ..errors import EvalError, SimulationError
from ..expressions import as_int, equal, plain
from ..machine import DecodeFailure, Frame, ViewTable, _freeze
from ..report import Check, CheckDetail, Counterexample, Expectation, Resources, views_phrase
from ..spec import OutputDecl, PlayerDecl, Protocol
from ..steps import walk
from .inputs import describe_inputs, describe_value, describe_view, value_scope
from .outcomes import Aggregate, Outcomes

ViewKey = tuple[int, tuple[Any, ...]]
Expected = Callable[[int, str, dict[str, Any]], Any]


# --------------------------------------------------------------------------- correct


def expected_values(proto: Protocol, frame: Frame, assignments: list[dict[str, Any]]) -> Expected:
    """``expected(u, output, outputs)``: what the spec says an output is under input u. An
    ``equals`` may name outputs that are random choices (``uniform``; the loader refuses any
    other output), which are then read from ``outputs``."""
    random_choices = {o.name for o in proto.outputs.values() if o.choice is not None}
    cache: dict[tuple[Any, ...], Any] = {}

    def expected(u: int, name: str, outs: dict[str, Any]) -> Any:
        out = proto.outputs[name]
        expr = out.equals if out.equals is not None else out.choice
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

    return expected


@dataclass
class Wrong:
    """The wrong outcomes among some inputs (one partition's, or all): how many, the first five
    of the ``equals`` checks in the report's order (by view digest, output values, input, output)
    and every random choice's (``uniform``, ``weighted``) mismatch with its input. Partitions
    find their own; :func:`correctness` puts them together, so the check reads the same
    whatever the number of partitions."""

    count: int = 0
    first: list[tuple[tuple[Any, ...], Counterexample]] = field(default_factory=list)
    uniform: list[tuple[int, Counterexample]] = field(default_factory=list)


def wrong_outcomes(
    proto: Protocol,
    frame: Frame,
    assignments: list[dict[str, Any]],
    agg: Aggregate,
    views: ViewTable,
    inputs: Iterable[int] | None = None,
) -> Wrong:
    """Compare every run's outputs with the spec, for the inputs in ``agg`` (``inputs``: whose
    random choices (``uniform``, ``weighted``) to check, default all)."""
    expected = expected_values(proto, frame, assignments)
    names = list(proto.outputs)
    found = Wrong()
    dists: dict[int, dict[str, dict[Any, Fraction]]] = defaultdict(
        lambda: defaultdict(lambda: defaultdict(Fraction))
    )
    order = sorted(agg, key=lambda k: (views.digest(k[0]), repr(k[1])))
    for view, values in order:
        den, nums = agg[(view, values)]
        outs = dict(zip(names, values))
        for u in sorted(nums):
            num = nums[u]
            if num == 0:
                continue
            p = Fraction(num, den)
            for k, (name, out) in enumerate(proto.outputs.items()):
                value = outs[name]
                if out.choice is not None:
                    dists[u][name][value] += p
                elif out.equals is not None:
                    exp = expected(u, name, outs)
                    if isinstance(value, DecodeFailure) or not matches(out, value, exp):
                        found.count += 1
                        if len(found.first) < 5:
                            example: Counterexample = {
                                "inputs": describe_inputs(assignments[u]),
                                "output": name,
                                "got": str(value)
                                if isinstance(value, DecodeFailure)
                                else describe_value(value),
                                "expected": describe_value(exp),
                                "view": describe_view(views, view),
                                "probability": str(p),
                            }
                            found.first.append(((views.digest(view), repr(values), u, k), example))
    for u in inputs if inputs is not None else range(len(assignments)):
        for name, out in proto.outputs.items():
            if out.choice is not None:
                try:
                    want = _wanted(out, expected(u, name, {}))
                except EvalError as exc:
                    raise SimulationError("", proto.src.problem(out.path, str(exc))) from None
                for example in _choice_mismatch(out, want, dists[u][name], assignments[u]):
                    found.uniform.append((u, example))
                    found.count += 1
    return found


def correctness(proto: Protocol, found: list[Wrong], n_inputs: int, inputs_text: str | None = None) -> Check:
    """The ``correct`` check from the wrong outcomes every partition found."""
    count = sum(w.count for w in found)
    if not count:
        return Check("correct", True, _correct_figure(proto, inputs_text or f"{n_inputs} inputs"))
    first = [e for _, e in sorted((x for w in found for x in w.first), key=lambda x: x[0])[:5]]
    real = first + [e for _, e in sorted((x for w in found for x in w.uniform), key=lambda x: x[0])]
    top = real[0]
    return Check(
        "correct",
        False,
        f"{count} wrong outcome(s); e.g. with {top['inputs']}, output "
        f"{top['output']} is {top['got']} instead of {top['expected']}"
        + (f" (after: {top['view']})" if top["view"] else ""),
        {"counterexamples": real},
    )


def matches(out: OutputDecl, got: Any, want: Any) -> bool:
    """Whether an output's value ``got`` is what the spec says (``want``). The cards of an
    unordered output (``encoding: cards``) are a multiset: ``[be, al]`` is ``[al, be]``; for a
    list of groups, each group is a multiset."""
    if out.decode != "cards":
        return equal(got, want)
    many = isinstance(got, tuple) and bool(got) and all(isinstance(g, tuple) for g in got)
    return equal(got, multiset(want, many))


def multiset(value: Any, many: bool = False) -> Any:
    """An expected value of an unordered output in the order the engine reads such an output
    (its cards sorted by name): a list of cards, or with ``many`` a list of groups, each sorted.
    Anything else (one card, a value that is no list of cards) is left as it is."""
    value = plain(value)
    if not isinstance(value, (list, tuple)):
        return value
    if many:
        return tuple(multiset(group) for group in value)
    items = [plain(v) for v in value]
    if all(isinstance(v, Symbol) for v in items):
        return tuple(sorted(items, key=lambda s: s.name))
    if items and all(isinstance(v, (list, tuple)) for v in items):
        return tuple(multiset(v) for v in items)
    return value


def _wanted(out: OutputDecl, pool: Any) -> dict[Any, Fraction]:
    """The exact distribution a random choice promises: ``uniform`` over a list (a value listed
    twice is twice as likely; an empty list means none), or ``weighted`` over ``[value, weight]``
    pairs (whole weights >= 0; all zero, or no pair, means none)."""
    items = list(pool) if isinstance(pool, (list, tuple)) else [pool]
    if out.uniform is not None:
        pairs = [(v, 1) for v in items]
    else:
        pairs = []
        for item in items:
            item = plain(item)
            if not isinstance(item, (list, tuple)) or len(item) != 2:
                raise EvalError(
                    f"'weighted' needs a list of [value, weight] pairs, got {describe_value(item)}"
                )
            w = as_int(item[1])
            if w < 0:
                raise EvalError(f"'weighted': the weight of {describe_value(item[0])} is {w}, below 0")
            pairs.append((item[0], w))
    total = sum(w for _, w in pairs)
    if not total:  # no choice: no card (a list of cards: no cards)
        return {_freeze([] if out.decode in ("cards", "faces") else None): Fraction(1)}
    want: dict[Any, Fraction] = defaultdict(Fraction)
    for v, w in pairs:
        if w:  # an unordered output's choices as multisets: [be, al] and [al, be] are one value
            want[_freeze(multiset(v) if out.decode == "cards" else v)] += Fraction(w, total)
    return dict(want)


def _choice_mismatch(
    out: OutputDecl, want: dict[Any, Fraction], dist: dict[Any, Fraction], values: dict[str, Any]
) -> list[Counterexample]:
    """A randomised output's exact distribution against its specification."""
    got = {k: v for k, v in dist.items() if v}
    if got == want:
        return []
    return [
        {
            "inputs": describe_inputs(values),
            "output": out.name,
            "got": _describe_dist(got),
            "expected": _describe_dist(want),
            "view": "",
            "probability": "",
        }
    ]


def _describe_dist(d: dict[Any, Fraction]) -> str:
    parts = [f"{describe_value(k)}: {v}" for k, v in sorted(d.items(), key=lambda kv: str(kv[0]))]
    return "{" + ", ".join(parts) + "}"


def _correct_figure(proto: Protocol, inputs: str) -> str:
    parts = []
    for o in proto.outputs.values():
        if o.equals is not None:
            parts.append(f"{o.name} = {o.equals.text}")
        elif o.uniform is not None:
            parts.append(f"{o.name} uniform over {o.uniform.text}")
        elif o.weighted is not None:
            parts.append(f"{o.name} weighted by {o.weighted.text}")
    what = "; ".join(parts) or "no output has a specification"
    return f"{what}: exact, for all {inputs} and every shuffle outcome"


# --------------------------------------------------------------------------- secure


def security(
    proto: Protocol,
    frame: Frame,
    assignments: list[dict[str, Any]],
    agg: Aggregate,
    views: ViewTable,
    own: dict[str, tuple[Aggregate, ViewTable]] | None = None,
    hands_seen: dict[str, list[str]] | None = None,
) -> Check:
    """What the players saw (the view, and every output card shown afterwards) must have the
    same probability under every input with the same public inputs and public outputs; and for
    each person the spec seats (``players``), what that person saw must have the same
    probability under every input with the same public inputs, public outputs and values of
    what they know (``knows``). A person who holds hands sees more than the table (the cards
    that came into them): ``own`` has, by name, the outcomes of a run whose views add that;
    ``hands_seen``: the hands each holds, called protocols' included (default: their own)."""
    holding = hands_seen or {}
    public_outputs = [o for o in proto.outputs.values() if o.public]
    value_outputs = [o for o in public_outputs if o.cards is None]
    names = list(proto.outputs)
    announced: dict[int, tuple[Any, ...]] = {}
    mismatch: list[str] = []
    for view, values in agg:
        outs = dict(zip(names, values))
        said = tuple(outs[o.name] for o in value_outputs)
        if announced.setdefault(view, said) != said and len(mismatch) < 3:
            mismatch.append(describe_view(views, view))
    if mismatch:
        return Check(
            "secure",
            False,
            f"a public output is not determined by what the players saw (after: {mismatch[0]})",
            {"counterexamples": mismatch},
        )
    public_inputs = [n for n, d in proto.inputs.items() if d.public]
    own = own or {}
    observers: list[tuple[PlayerDecl | None, Aggregate, ViewTable]] = [(None, agg, views)]
    observers += [(p, *own.get(p.name, (agg, views))) for p in proto.people()]
    for player, seen, table in observers:
        p_view, public_of_view = _view_probabilities(proto, seen)
        classes: dict[tuple[Any, ...], list[int]] = defaultdict(list)
        for u, inputs in enumerate(assignments):
            known = _known(proto, frame, player, inputs) if player is not None else ()
            classes[(tuple(_freeze(inputs[n]) for n in public_inputs), known)].append(u)
        for members in classes.values():
            failed = _compare_inputs(members, p_view, public_of_view, _canonical(table))
            if failed is not None:
                return _insecure(proto, player, assignments, table, public_outputs, failed, holding)
    final = {view for view, _ in agg}
    merged, raw = len(final), sum(views.weight(v) for v in final)
    given = f" given {', '.join(o.name for o in public_outputs)}" if public_outputs else ""
    extra = f" and public inputs {', '.join(public_inputs)}" if public_inputs else ""
    people = ""
    if proto.people():
        who = ", ".join(_person(p, holding) for p in proto.people())
        people = f"; and for {who}, whatever the others' inputs"
    return Check(
        "secure",
        True,
        f"{views_phrase(merged, raw)}, {'each ' if raw != 1 else ''}"
        f"equally likely under every input{given}{extra}{people}",
        _secure_detail(raw, merged, [p.name for p in proto.people()]),
    )


def _secure_detail(views: int, merged: int, players: list[str]) -> CheckDetail:
    detail: CheckDetail = {"views": views, "views_after_merging": merged}
    if players:
        detail["players"] = players
    return detail


def _person(player: PlayerDecl, holding: dict[str, list[str]] | None = None) -> str:
    """``alice (knowing a; seeing what comes into alice, deal's hand1)``: a person and what they
    see of their own (their hands, and called protocols' hands they hold through the calls)."""
    own = []
    hands = (holding or {}).get(player.name, player.hands)
    if player.knows:
        own.append("knowing " + ", ".join(e.text for e in player.knows))
    if hands:
        own.append("seeing what comes into " + ", ".join(hands))
    return player.name + (f" ({'; '.join(own)})" if own else "")


def _known(proto: Protocol, frame: Frame, player: PlayerDecl, inputs: dict[str, Any]) -> tuple[Any, ...]:
    """What ``player`` knows of ``inputs`` (their ``knows`` expressions' values)."""
    scope = value_scope(frame, inputs)
    out = []
    for i, e in enumerate(player.knows):
        try:
            out.append(_freeze(plain(e(scope))))
        except EvalError as exc:
            raise SimulationError("", proto.src.problem(player.path + ("knows", i), str(exc))) from None
    return tuple(out)


def _view_probabilities(
    proto: Protocol, agg: Aggregate
) -> tuple[dict[int, dict[ViewKey, tuple[int, int]]], dict[ViewKey, tuple[Any, ...]]]:
    """P(view, shown outputs | input) as (numerator, denominator), and the public outputs of
    each such key."""
    public_outputs = [o for o in proto.outputs.values() if o.public]
    shown_outputs = [o for o in public_outputs if o.cards is not None]
    names = list(proto.outputs)
    p_view: dict[int, dict[ViewKey, tuple[int, int]]] = defaultdict(dict)
    public_of_view: dict[ViewKey, tuple[Any, ...]] = {}
    for (view, values), (den, nums) in agg.items():
        outs = dict(zip(names, values))
        key: ViewKey = (view, tuple(outs[o.name] for o in shown_outputs))
        public_of_view[key] = tuple(outs[o.name] for o in public_outputs)
        for u, num in nums.items():
            if num:
                mine = p_view[u]
                had = mine.get(key)
                if had is None:
                    mine[key] = (num, den)
                elif had[1] == den:
                    mine[key] = (had[0] + num, den)
                else:
                    mine[key] = (had[0] * den + num * had[1], had[1] * den)
    return p_view, public_of_view


def _insecure(
    proto: Protocol,
    player: PlayerDecl | None,
    assignments: list[dict[str, Any]],
    views: ViewTable,
    public_outputs: list[OutputDecl],
    failed: tuple[int, int, tuple[Any, ...], ViewKey, Fraction, Fraction],
    holding: dict[str, list[str]] | None = None,
) -> Check:
    u0, u, o, vkey, ref, dist = failed
    seen = describe_view(views, vkey[0])
    shown = ", ".join(f"{po.name}={describe_value(x)}" for po, x in zip(public_outputs, o))
    given = f" given {shown}" if o else ""
    who = "" if player is None else f"{_person(player, holding)} can tell the inputs apart: "
    whose = "the view" if player is None else f"{player.name}'s view"
    return Check(
        "secure",
        False,
        f'{who}{whose} "{seen}" has probability {ref} with {describe_inputs(assignments[u0])} but '
        f"{dist} with {describe_inputs(assignments[u])}{given}",
        {
            "counterexample": {
                "player": None if player is None else player.name,
                "view": seen,
                "inputs": [describe_inputs(assignments[u0]), describe_inputs(assignments[u])],
                "probabilities": [str(ref), str(dist)],
            }
        },
    )


def _canonical(views: ViewTable) -> Callable[[ViewKey], tuple[str, str]]:
    """A view key's place in one order that every process and hash seed agree on: its view's
    digest (a hash of what was seen, see :meth:`ViewTable.digest`), then the shown outputs."""

    def key(vkey: ViewKey) -> tuple[str, str]:
        return views.digest(vkey[0]), repr(vkey[1])

    return key


def _compare_inputs(
    members: list[int],
    p_view: dict[int, dict[ViewKey, tuple[int, int]]],
    public_of_view: dict[ViewKey, tuple[Any, ...]],
    order: Callable[[ViewKey], Any],
) -> tuple[int, int, tuple[Any, ...], ViewKey, Fraction, Fraction] | None:
    """The first difference in P(view | input, public outputs) between inputs of one class;
    the view quoted is the first of those whose probabilities differ in ``order`` (never a set's
    order, which changes with the hash seed: the same inputs give the same report).

    Each input's probabilities given a public output are compared in integers: brought to one
    denominator and divided by their greatest common divisor, two distributions are equal
    exactly when these primitive vectors are (no ``Fraction`` per entry). Only a difference
    is written out in fractions, for the report."""
    by_output: dict[tuple[Any, ...], dict[int, dict[ViewKey, int]]] = defaultdict(dict)
    # Many inputs have the very same probabilities (numerator, denominator) view by view: each
    # distinct one is brought to its primitive vector once (this check runs in the coordinator,
    # after every partition, so its time is not shared out among workers).
    seen: dict[
        frozenset[tuple[ViewKey, tuple[int, int]]], list[tuple[tuple[Any, ...], dict[ViewKey, int]]]
    ] = {}
    for u in members:
        mine = p_view[u]
        key = frozenset(mine.items())
        hit = seen.get(key)
        if hit is None:
            parts: dict[tuple[Any, ...], dict[ViewKey, tuple[int, int]]] = defaultdict(dict)
            for v, p in mine.items():
                parts[public_of_view[v]][v] = p
            hit = seen[key] = [(o, _primitive(part)) for o, part in parts.items()]
        for o, prim in hit:
            by_output[o][u] = prim
    for o, conds in by_output.items():
        items = list(conds.items())
        u0, ref = items[0]
        for u, dist in items[1:]:
            if dist is not ref and dist != ref:
                ref_f, dist_f = _conditional(ref), _conditional(dist)
                differ = [v for v in ref_f.keys() | dist_f.keys() if ref_f.get(v, 0) != dist_f.get(v, 0)]
                vkey = min(differ, key=order)
                return u0, u, o, vkey, ref_f.get(vkey, Fraction(0)), dist_f.get(vkey, Fraction(0))
    return None


def _primitive(dist: dict[ViewKey, tuple[int, int]]) -> dict[ViewKey, int]:
    """Probabilities (numerator, denominator) as the primitive integer vector on their ray."""
    dens = {d for _, d in dist.values()}
    common = dens.pop() if len(dens) == 1 else math.lcm(*dens)
    scaled = {v: n * (common // d) for v, (n, d) in dist.items()}
    g = 0
    for x in scaled.values():
        g = math.gcd(g, x)
    return {v: x // g for v, x in scaled.items()} if g > 1 else scaled


def _conditional(vector: dict[ViewKey, int]) -> dict[ViewKey, Fraction]:
    total = sum(vector.values())
    return {v: Fraction(x, total) for v, x in vector.items()}


# --------------------------------------------------------------------------- tidy and resources


def tidiness(left: list[str]) -> Check:
    if left:
        return Check("tidy", False, f"cards left on the table at the end: {left[0]}", {"examples": left})
    return Check("tidy", True, "every card ends in an output or back in the supply")


def resources(frame: Frame, assignments: list[dict[str, Any]], outcomes: Outcomes) -> Resources:
    input_cards = dict(outcomes.input_cards)
    # By name, not by symbol id: ids follow the order specs were loaded in, which a report must not.
    helpers = dict(sorted((SYMBOLS.by_id(s).name, n) for s, n in outcomes.peak.items() if n))
    by_symbol = dict(input_cards)
    for k, n in helpers.items():
        by_symbol[k] = by_symbol.get(k, 0) + n
    by_callee: dict[str, list[int]] = {}
    for (_, callee), n in sorted(outcomes.calls.items()):
        by_callee.setdefault(callee, []).append(n)
    return {
        "cards": sum(by_symbol.values()),
        "cards_by_symbol": dict(sorted(by_symbol.items())),
        "input_cards": sum(input_cards.values()),
        "helper_cards": sum(helpers.values()),
        "helpers_by_symbol": helpers,
        "shuffles": max(outcomes.shuffles, default=0),
        "shuffles_min": min(outcomes.shuffles, default=0),
        "shuffles_by_kind": dict(sorted(outcomes.kinds.items())),
        "turns": max(outcomes.turns, default=0),
        "turns_min": min(outcomes.turns, default=0),
        "steps": len([s for s in frame.proto.steps if s.number is not None]),
        "substeps": len([s for s in walk(frame.proto.steps) if s.number is not None]),
        "calls": by_callee,
    }


def _as_list(v: Any) -> list[Any]:
    v = plain(v)
    if not isinstance(v, (list, tuple)):
        raise EvalError(f"expected a list of numbers, got {v!r}")
    return list(v)


def expectations(proto: Protocol, frame: Frame, resources: Resources) -> list[Expectation]:
    rows: list[Expectation] = []
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
                got = dict(resources)[name]  # a count the spec names (the spec checks the name)
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
