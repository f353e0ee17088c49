"""The frontier: every distinct machine state with its probability under each secret input.

A probability vector (:data:`Vec`) is a common denominator and one numerator per input.
Identical states are merged by :func:`add_vec`; a state's public variables are set by
:func:`env_set`; a run's work is counted against its budget by :func:`spend`. Lazily scrambled
piles (a pile-scramble whose order is left open) are drawn by :func:`~.lazypiles.materialize`
and :func:`~.lazypiles.settle` (:mod:`.lazypiles`); views that make no difference are merged
by :func:`~.forgetting.forget` (:mod:`.forgetting`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from fractions import Fraction
from typing import Any, TypeVar

from ..cards import CODE_ORDER, Symbol
from ..expressions import EvalError, plain
from ..kept import exact, exact_env
from ..table import Layout, State
from .frame import _MISS

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


def with_view(state: State, view: int) -> State:
    """``state.replace(view=view)``, the fields passed by position (no keywords to sort out):
    the interpreter makes such a state for every state at every decision, loop and merge of
    views (play-selection-fast's pair scenario: ~300,000)."""
    return State(state.layout, state.cells, state.out, state.env, state.meters, view, state.lazy)


def _scale(vec: Vec, p: Fraction | Prob) -> Vec:
    """``vec`` times the probability ``p`` (a Fraction or a (numerator, denominator) pair)."""
    a, b = p if isinstance(p, tuple) else (p.numerator, p.denominator)
    if a == b:
        return vec
    if a == 1:
        return (vec[0] * b, vec[1])
    return (vec[0] * b, {k: v * a for k, v in vec[1].items()})


def vec_prob(vec: Vec, key: int) -> Fraction:
    return Fraction(vec[1].get(key, 0), vec[0])


def _groups(frontier: Frontier) -> list[list[tuple[State, Vec]]]:
    """States that share a layout and variables (public selectors resolve alike for them): the
    variables' values of the same types too (:func:`~..kept.exact`; ``str(x)`` of true and of 1
    differ)."""
    if len(frontier) == 1:
        return [list(frontier.items())]
    groups: dict[tuple[Layout, Any], list[tuple[State, Vec]]] = {}
    envs: dict[int, Any] = {}  # the variables' keys by their id (the frontier holds them)
    for state, vec in frontier.items():
        env = state.env
        env_key = envs.get(id(env))
        if env_key is None:
            env_key = envs[id(env)] = exact_env(env)
        key = (state.layout, env_key)
        g = groups.get(key)
        if g is None:
            groups[key] = [(state, vec)]
        else:
            g.append((state, vec))
    return list(groups.values())


def sort_hands(frontier: Frontier) -> Frontier:
    """The same frontier with every hand's cards in sorted order, so that equal hands merge.

    Exact, because a hand's order is nobody's to see: nothing reads it (the loader and
    :class:`~.frame.StateScope` refuse to name a hand), and its cards leave it only as an
    output, in a uniformly random order (the holder mixes them face down, see
    :func:`~.subruns.collect`)."""
    layouts = {state.layout for state in frontier}
    if not any(_hand_slices(layout) for layout in layouts):
        return frontier
    CODE_ORDER.reads += 1
    out: Frontier = {}
    owned: set[int] = set()
    for state, vec in frontier.items():
        hands = _hand_slices(state.layout)
        if not hands:
            add_vec(out, state, vec, owned)
            continue
        cells = list(state.cells)
        for lo, hi in hands:
            cells[lo:hi] = sorted(cells[lo:hi])
        add_vec(out, state.replace(cells=tuple(cells)), vec, owned)
    return out


_HANDS: dict[int, tuple[Layout, tuple[tuple[int, int], ...]]] = {}
_HAND_SLOTS: dict[int, tuple[Layout, frozenset[int]]] = {}
HANDS_KEPT = 1024
"""Layouts each of the two caches above keeps (they hold their layout, whose id keys them):
bounded, since a long simulation meets new layouts every turn; beyond it they start afresh."""


def hand_slots(layout: Layout) -> frozenset[int]:
    """The slots of ``layout`` that are in hands (empty for most tables)."""
    hit = _HAND_SLOTS.get(id(layout))
    if hit is None or hit[0] is not layout:
        slots = frozenset(f for r in layout.regions if r.hand is not None for f in r.slots)
        if len(_HAND_SLOTS) >= HANDS_KEPT:
            _HAND_SLOTS.clear()
        hit = _HAND_SLOTS[id(layout)] = (layout, slots)
    return hit[1]


def _hand_slices(layout: Layout) -> tuple[tuple[int, int], ...]:
    hit = _HANDS.get(id(layout))
    if hit is None or hit[0] is not layout:
        slices = tuple(
            (r.offset, r.offset + r.size) for r in layout.regions if r.hand is not None and r.size > 1
        )
        if len(_HANDS) >= HANDS_KEPT:
            _HANDS.clear()
        hit = _HANDS[id(layout)] = (layout, slices)
    return hit[1]


# --------------------------------------------------------------- probabilities, the work budget

Prob = tuple[int, int]
"""A probability as (numerator, denominator), not necessarily reduced: plain integers are
several times faster than ``Fraction`` on the hot paths, and vectors reduce themselves."""


class OverBudget(Exception):
    """A run went past its budget of work (:func:`budget`): an exploration that gives up
    without a verdict."""


_BUDGET: ContextVar[list[int] | None] = ContextVar("kitgen_run_budget", default=None)


@contextmanager
def budget(units: int) -> Iterator[None]:
    """Within the block, runs may make at most ``units`` states (every state a step carries,
    every shuffle outcome, every draw of a lazily scrambled block) before :class:`OverBudget`:
    the checks sit where the states are made, so no single step can exhaust the memory first."""
    token = _BUDGET.set([units])
    try:
        yield
    finally:
        _BUDGET.reset(token)


def spend(units: int = 1) -> None:
    """Count ``units`` states against the budget in force, if any."""
    left = _BUDGET.get()
    if left is not None:
        left[0] -= units
        if left[0] < 0:
            raise OverBudget()


# --------------------------------------------------------------------------- variables

_ENV: dict[tuple[Env, str, Any], tuple[Env, Env]] = {}
"""env_set's kept environments: (env, name, the value's :func:`~..kept.exact` key) -> (that env,
the env with ``name`` set). Keyed by types too (``True == 1`` in Python, not in a spec): an entry
serves an env equal to its own only when it is that env or holds values of the same types."""


def env_kept(env: Env, name: str, value: Any) -> Env | None:
    """The kept env with ``name`` set to the frozen ``value``, if it is kept for this very env."""
    got = _ENV.get((env, name, exact(value)))
    return got[1] if got is not None and got[0] is env else None


def env_set(env: Env, name: str, value: Any) -> Env:
    value = _freeze(value)
    key = (env, name, exact(value))
    got = _ENV.get(key)
    # exact_env's keys (each env's kept by the object) compare as exact()'s do: a plain env
    # equals only a plain env of the same values, and never an exact() key (it starts with a type).
    if got is not None and (got[0] is env or exact_env(got[0]) == exact_env(env)):
        return got[1]
    d = dict(env)
    d[name] = value
    hit = tuple(sorted(d.items()))
    if len(_ENV) > 100_000:
        _ENV.clear()
    _ENV[key] = (env, hit)
    return hit


def env_drop(env: Env, name: str, old: Any = _MISS) -> Env:
    d = dict(env)
    if old is _MISS:
        d.pop(name, None)
    else:
        d[name] = old
    return tuple(sorted(d.items()))


_AS_THEY_ARE = frozenset((int, str, bool, type(None)))
"""Types whose values :func:`_freeze` gives as they are (no :class:`Value` among them)."""


def _freeze(v: Any) -> Any:
    v = plain(v)
    if isinstance(v, list):
        if _AS_THEY_ARE.issuperset(map(type, v)):  # numbers, texts, truths: each frozen as it is
            return tuple(v)
        return tuple(_freeze(x) for x in v)
    if isinstance(v, (int, str, bool, Symbol, tuple)) or v is None:
        return v
    raise EvalError(f"a public value must be a number, card, text or list, not {type(v).__name__}")
