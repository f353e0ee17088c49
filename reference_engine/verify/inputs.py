"""The inputs an exact verification runs through, and how inputs and views read in a report."""

from __future__ import annotations

import itertools
from typing import Any

from ..cards import SYMBOLS, Symbol
from ..errors import SimulationError, SpecError, UsageError
from ..expressions import Chain, EvalError, Scope, plain, truthy
from ..machine import Frame, ViewTable


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
            "protocols it is built from, or give smaller «param» values; simulate it with kitgen simulate."
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
    key = (id(frame.proto), frame.key, tuple(s.name for s in deal) if deal is not None else None)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is frame.proto:
        return [dict(v) for v in hit[1]]
    out = _by_parts(frame, domains) if frame.proto.admissible is not None else None
    if out is None:
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
    if not out:
        raise _nothing_to_verify(frame, declared_inputs(frame, deal))
    if len(_CACHE) >= 4:
        _CACHE.clear()
    _CACHE[key] = (frame.proto, out)  # holding the spec keeps its id from being reused
    return [dict(v) for v in out]


def _nothing_to_verify(frame: Frame, total: int) -> SpecError:
    """Zero inputs to check is a spec error: a verdict over no input would say nothing."""
    proto = frame.proto
    if proto.admissible is not None:
        message = (
            f"no input is admissible: {proto.admissible.text!r} excludes every one of the "
            f"{total:,} possible inputs, so a verification would check nothing"
        )
        return SpecError([proto.src.problem(("admissible",), message)])
    return SpecError([proto.src.problem(("inputs",), "the inputs have no possible value: nothing to verify")])


def declared_inputs(frame: Frame, deal: list[Symbol] | None = None) -> int:
    """How many inputs the spec declares before ``admissible`` filters them (every value of
    every input; a grouped input of a scenario: every deal)."""
    total = 1
    for name in frame.proto.inputs:
        sizes = frame.groups(name)
        if sizes is not None and deal is not None:
            total *= len(deals(deal, sizes))
        else:
            total *= frame.domain_size(name)
    return total


# The last few enumerations: a verification needs its inputs in the coordinator and in each
# partition (worker processes started by fork find them here).
_CACHE: dict[tuple[Any, ...], tuple[Any, list[dict[str, Any]]]] = {}


def _by_parts(frame: Frame, domains: dict[str, list[Any]]) -> list[dict[str, Any]] | None:
    """The admissible assignments, filtering each group of inputs on its own.

    ``admissible`` is often a conjunction of conditions on separate inputs (Alice's three
    bundles, Bob's three): each condition is tried on the combinations of the inputs it
    names, and only the combinations that pass every condition are multiplied out. The
    result is the same list, in the same order, as trying every combination on the whole
    expression; None when that cannot be promised (a condition fails to evaluate), and the
    caller then tries every combination.
    """
    admissible = frame.proto.admissible
    assert admissible is not None
    node = admissible.node
    parts = [node.first] + [n for _, n in node.rest] if isinstance(node, Chain) and _is_and(node) else [node]
    names = list(domains)
    group = {n: n for n in names}

    def find(n: str) -> str:
        while group[n] != n:
            n = group[n]
        return n

    conditions = []
    for part in parts:
        used = [n for n in names if n in part.names()]
        conditions.append((part.compile(), used))
        for a, b in itertools.pairwise(used):
            group[find(b)] = find(a)
    components: dict[str, list[str]] = {}
    for n in names:
        components.setdefault(find(n), []).append(n)
    position = {n: i for i, n in enumerate(names)}
    lists = []
    try:
        for fn, used in conditions:
            if not used and not truthy(fn(frame.globals)):
                return []
        for members in components.values():
            mine = [(fn, used) for fn, used in conditions if used and used[0] in members]
            index_ranges = [range(len(domains[n])) for n in members]
            kept = []
            for idx in itertools.product(*index_ranges):
                values = {n: domains[n][i] for n, i in zip(members, idx)}
                scope = value_scope(frame, values)
                if all(truthy(fn(scope)) for fn, _ in mine):
                    kept.append((idx, values))
            lists.append((members, kept))
    except EvalError:
        return None
    if [n for members, _ in lists for n in members] == names:
        # Each group's inputs are next to each other, in order: the product of the groups' lists
        # (each in index order) comes out in the order of trying every combination already.
        out = []
        for combo in itertools.product(*(kept for _, kept in lists)):
            values = {}
            for _, vals in combo:
                values.update(vals)
            out.append(values)
        return out
    rows = []
    for combo in itertools.product(*(kept for _, kept in lists)):
        order = [0] * len(names)
        values = {}
        for (members, _), (idx, vals) in zip(lists, combo):
            for n, i in zip(members, idx):
                order[position[n]] = i
            values.update(vals)
        rows.append((order, values))
    rows.sort(key=lambda r: r[0])
    return [{n: values[n] for n in names} for _, values in rows]


def _is_and(node: Any) -> bool:
    return isinstance(node, Chain) and bool(node.rest) and all(op == "and" for op, _ in node.rest)


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


def _is_shown(value: Any) -> bool:
    """A called protocol's public card output as it was shown (see ``SubResult.shown``)."""
    return (
        isinstance(value, tuple) and len(value) == 3 and value[0] == "shown" and isinstance(value[2], tuple)
    )


def describe_view(views: ViewTable, vid: int) -> str:
    parts = []
    for obs in views.observations(vid):
        kind = obs[0]
        if kind == "turn":
            parts.append("turned " + " ".join(SYMBOLS.by_id(c >> 1).glyph for c in obs[1]))
        elif kind == "discard":
            parts.append("returned " + " ".join(SYMBOLS.by_id(s).glyph for s in obs[1]))
        elif kind == "hand":
            parts.append(f"took {' '.join(SYMBOLS.by_id(s).glyph for s in obs[2])} into {obs[1]}")
        elif kind == "shown":
            parts.append(f"saw {obs[1]} shown: {' '.join(SYMBOLS.by_id(s).glyph for s in obs[2])}")
        elif kind == "shuffle":
            parts.append("saw a shuffle of face-up cards")
        elif kind == "call":
            inner = obs[2]
            if isinstance(inner, int):
                parts.append(f"{obs[1]}: [{describe_view(views, inner)}]")
            elif inner:
                said = [x for x in inner if not _is_shown(x)]
                if said:
                    parts.append(f"{obs[1]} -> {describe_value(said)}")
                parts += [
                    f"{obs[1]} showed {x[1]}: {' '.join(s.glyph for s in x[2]) or 'no card'}"
                    for x in inner
                    if _is_shown(x)
                ]
        elif kind == "shift":
            parts.append(f"shifted by {obs[1]}")
        elif kind == "merged":
            parts.append(f"one of {obs[3]} views alike up to a constant factor after step {obs[1]}")
    return "; ".join(parts) or "nothing"
