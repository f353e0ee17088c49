"""The frontier: every distinct machine state with its probability under each secret input.

A probability vector (:data:`Vec`) is a common denominator and one numerator per input.
Identical states are merged by :func:`add_vec`; lazily scrambled piles (a pile-scramble whose
order is left open) are drawn by :func:`materialize` and :func:`settle`; views that make no
difference are merged by :func:`forget`.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar

from .. import steps as st
from ..cards import Symbol
from ..expressions import EvalError, plain
from ..table import Layout, State
from .frame import _MISS

if TYPE_CHECKING:  # runner.py imports this module
    from .runner import Runner

Vec = tuple[int, dict[int, int]]
"""Probabilities of a state per secret input: (denominator, {input index: numerator})."""
Frontier = dict[State, Vec]
ONE: Vec = (1, {0: 1})
Env = tuple[tuple[str, Any], ...]
"""A state's public variables, sorted by name."""
Needed = Callable[[State], frozenset[int] | None]
"""state -> the slots whose lazy piles must be drawn (None: all of them)."""
K = TypeVar("K")
_BIG = 1 << 96


def add_vec(out: dict[K, Vec], state: K, vec: Vec, owned: set[int] | None = None) -> None:
    """Add ``vec`` to the probabilities of ``state`` in ``out``, merging identical states.

    Numerator dicts may be shared between states; a merge copies one unless its id is in
    ``owned`` (dicts this frontier created itself), which it then updates in place.
    """
    old = out.get(state)
    if old is None:
        out[state] = vec
        return
    d1, n1 = old
    d2, n2 = vec
    if d1 != d2:
        lcm = d1 * d2 // math.gcd(d1, d2)
        a, b = lcm // d1, lcm // d2
        merged = {k: v * a for k, v in n1.items()} if a != 1 else dict(n1)
        for k, v in n2.items():
            merged[k] = merged.get(k, 0) + v * b
        d1 = lcm
    else:
        merged = n1 if owned is not None and id(n1) in owned else dict(n1)
        for k, v in n2.items():
            merged[k] = merged.get(k, 0) + v
    if d1 > _BIG:
        g = d1
        for v in merged.values():
            g = math.gcd(g, v)
            if g == 1:
                break
        if g > 1:
            d1 //= g
            merged = {k: v // g for k, v in merged.items()}
    if owned is not None:
        owned.add(id(merged))
    out[state] = (d1, merged)


_add = add_vec  # the name the verifier imports


def _scale(vec: Vec, p: Fraction) -> Vec:
    if p == 1:
        return vec
    a, b = p.numerator, p.denominator
    if a == 1:
        return (vec[0] * b, vec[1])
    return (vec[0] * b, {k: v * a for k, v in vec[1].items()})


def vec_prob(vec: Vec, key: int) -> Fraction:
    return Fraction(vec[1].get(key, 0), vec[0])


def _groups(frontier: Frontier) -> list[list[tuple[State, Vec]]]:
    """States that share a layout and variables (public selectors resolve alike for them)."""
    groups: dict[tuple[Layout, Env], list[tuple[State, Vec]]] = {}
    for state, vec in frontier.items():
        key = (state.layout, state.env)
        g = groups.get(key)
        if g is None:
            groups[key] = [(state, vec)]
        else:
            g.append((state, vec))
    return list(groups.values())


def forget(run: Runner, frontier: Frontier, step: st.Step) -> Frontier:
    """Merge views that make no difference: a pure speed-up with the same verdicts.

    Let D_v(S, u) be the probability of reaching table S with view v under input u. When
    D_v = c * D_w for all S and u (one constant c), everything that can follow v is c times
    as likely as what follows w, under every input. Then for every continuation x,
    P(vx | u) = c * P(wx | u), so the security condition holds for vx exactly when it holds
    for wx, and merging v and w into one view changes no verdict. Only top-level exact runs
    do this: the frontier must hold every input of the verification.
    """
    if len({s.view for s in frontier}) < 2:
        return frontier
    views: dict[int, dict[tuple[Any, ...], Vec]] = {}
    for state, vec in frontier.items():
        key = (id(state.layout), state.cells, state.out, state.env, state.meters, state.lazy)
        views.setdefault(state.view, {})[key] = vec
    classes: dict[frozenset[tuple[Any, ...]], list[int]] = defaultdict(list)
    for view, dist in views.items():
        pivot_key = min(dist, key=hash)
        pden, pnums = dist[pivot_key]
        pu = min(pnums)
        pivot = Fraction(pnums[pu], pden)
        signature = frozenset(
            (key, u, Fraction(num, den) / pivot)
            for key, (den, nums) in dist.items()
            for u, num in nums.items()
        )
        classes[signature].append(view)
    renamed: dict[int, int] = {}
    for members in classes.values():
        if len(members) > 1:
            fresh = run.views.merged(members, ("merged", step.number, len(run.views)))
            renamed.update((v, fresh) for v in members)
    if not renamed:
        return frontier
    out: Frontier = {}
    owned: set[int] = set()
    for state, vec in frontier.items():
        new_view = renamed.get(state.view)
        add_vec(out, state if new_view is None else state.replace(view=new_view), vec, owned)
    left = len(views) - len(renamed) + len(set(renamed.values()))
    run.shared.forgotten.append(f"{step.number or '?'} ({len(views)} views into {left})")
    return out


# --------------------------------------------------------------------------- lazy piles

Draw = tuple[tuple[tuple[int, ...], ...], Fraction]
"""An ordered draw of piles (each pile's card codes) and its probability."""
_DRAWS: dict[tuple[tuple[tuple[int, ...], ...], int], list[Draw]] = {}


def _draws(contents: list[tuple[int, ...]], n: int) -> list[Draw]:
    """Ordered draws of ``n`` piles without replacement from a multiset, with probabilities."""
    key = (tuple(contents), n)
    hit = _DRAWS.get(key)
    if hit is None:
        hit = _DRAWS[key] = _draws_uncached(contents, n)
        if len(_DRAWS) > 200_000:
            _DRAWS.clear()
    return hit


def _draws_uncached(contents: list[tuple[int, ...]], n: int) -> list[Draw]:
    counts: dict[tuple[int, ...], int] = {}
    for c in contents:
        counts[c] = counts.get(c, 0) + 1
    keys = sorted(counts)
    out: list[Draw] = []
    seq: list[tuple[int, ...]] = []

    def rec(left: int, prob: Fraction) -> None:
        if len(seq) == n:
            out.append((tuple(seq), prob))
            return
        for k in keys:
            c = counts[k]
            if c:
                counts[k] = c - 1
                seq.append(k)
                rec(left - 1, prob * Fraction(c, left))
                seq.pop()
                counts[k] = c

    rec(len(contents), Fraction(1))
    return out


def materialize(state: State, needed: frozenset[int] | set[int] | None) -> list[tuple[State, Fraction]]:
    """Fix the order of the lazily scrambled piles that touch ``needed`` (None: all piles).

    A lazy block stands for every order of its piles, equally likely. Fixing the piles
    at some positions means drawing their contents without replacement; the remaining
    piles stay lazy, in sorted order, so equal situations keep merging.
    """
    if not state.lazy:
        return [(state, Fraction(1))]
    partial: list[tuple[list[int], tuple[tuple[tuple[int, ...], ...], ...], Fraction]] = [
        (list(state.cells), (), Fraction(1))
    ]
    for block in state.lazy:
        idx = [i for i, pile in enumerate(block) if needed is None or not needed.isdisjoint(pile)]
        if not idx:
            partial = [(c, kept + (block,), p) for c, kept, p in partial]
            continue
        rest = [i for i in range(len(block)) if i not in idx]
        nxt = []
        for cells, kept, prob in partial:
            contents = [tuple(cells[f] for f in pile) for pile in block]
            for seq, q in _draws(contents, len(idx)):
                remaining = list(contents)
                for c in seq:
                    remaining.remove(c)
                remaining.sort()
                c2 = list(cells)
                for i, content in zip(idx, seq):
                    for f, v in zip(block[i], content):
                        c2[f] = v
                for i, content in zip(rest, remaining):
                    for f, v in zip(block[i], content):
                        c2[f] = v
                keep = kept + ((tuple(block[i] for i in rest),) if len(rest) > 1 else ())
                nxt.append((c2, keep, prob * q))
        partial = nxt
    return [(state.replace(cells=tuple(c), lazy=k), p) for c, k, p in partial]


def _lazy_flats(state: State) -> set[int]:
    return {f for block in state.lazy for pile in block for f in pile}


def settle(frontier: Frontier, needed: Needed) -> Frontier:
    """Materialize, in every state, the lazy piles that ``needed(state)`` touches."""
    if not any(s.lazy for s in frontier):
        return frontier
    out: Frontier = {}
    owned: set[int] = set()
    for state, vec in frontier.items():
        if not state.lazy:
            add_vec(out, state, vec, owned)
            continue
        want = needed(state)
        if want is not None and _lazy_flats(state).isdisjoint(want):
            add_vec(out, state, vec, owned)
            continue
        for s2, p in materialize(state, want):
            add_vec(out, s2, _scale(vec, p), owned)
    return out


# --------------------------------------------------------------------------- variables

_ENV: dict[tuple[Env, str, Any], Env] = {}


def env_set(env: Env, name: str, value: Any) -> Env:
    value = _freeze(value)
    key = (env, name, value)
    hit = _ENV.get(key)
    if hit is None:
        d = dict(env)
        d[name] = value
        hit = tuple(sorted(d.items()))
        if len(_ENV) > 100_000:
            _ENV.clear()
        _ENV[key] = hit
    return hit


def env_drop(env: Env, name: str, old: Any = _MISS) -> Env:
    d = dict(env)
    if old is _MISS:
        d.pop(name, None)
    else:
        d[name] = old
    return tuple(sorted(d.items()))


def _freeze(v: Any) -> Any:
    v = plain(v)
    if isinstance(v, list):
        return tuple(_freeze(x) for x in v)
    if isinstance(v, (int, str, bool, Symbol, tuple)) or v is None:
        return v
    raise EvalError(f"a public value must be a number, card, text or list, not {type(v).__name__}")
