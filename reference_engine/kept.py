"""A bounded cache that keeps values only while they are met again (:class:`Kept`).

A card-level game builds a plan per step and per layout. Some steps meet the same layout
again often (a sleeve turned on a table whose shape follows the hand sizes); others never do
(a take of random columns, a call on a table that changes every turn). Kept for nothing, those
plans, their layouts and regions outlive the run that made them, are promoted by the cyclic
garbage collector to its oldest generation and walked there at every full collection: on
whole UNO games that was most of the collector's time (issue 37). A :class:`Kept` that
notices its misses are never followed by hits stops keeping values, and remembers only the
hashes of the keys it was asked for (ints: nothing for the collector to walk), to start
keeping again when those keys recur. What a cache returns never changes a result: a value is
a function of its key, built the same way whether or not it is kept.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

V = TypeVar("V")

KEPT_PLANS = 1024
"""Plans a step keeps by default (a few megabytes at most on a full UNO table)."""


def exact(value: Any) -> Any:
    """``value`` as a key equal only to that of a value of the same types all the way down.

    Python's ``1 == True``, ``0 == False`` and ``(1,) == (True,)`` hold, but a spec's language
    tells them apart (``str(k)`` is "1" or "True"): a value kept by variables' values is keyed
    by this, never by the values alone."""
    t = type(value)
    if t is int or t is str or value is None:
        return value
    if t is tuple:
        plain = _PLAIN
        if plain.issuperset(map(type, value)):  # numbers and texts only: as it is
            return value
        # Each item as exact() gives it: numbers, texts and flat tuples of them (a spec's rows
        # and lists of rows, most of what is met) as they are, inline; the rest through exact().
        out: list[Any] = [tuple]
        for x in value:
            tx = type(x)
            if tx is int or tx is str or x is None or (tx is tuple and plain.issuperset(map(type, x))):
                out.append(x)
            else:
                out.append(exact(x))
        return tuple(out)
    return (t, value)


def exact_env(env: tuple[tuple[str, Any], ...]) -> Any:
    """A state's variables (``(name, value)`` pairs) as a key equal only to that of variables of
    the same types: :func:`exact`'s, or the variables themselves when every value is a number, a
    text or a flat tuple of them (the common case, kept without building a key: such values are
    equal only to values of the same types, and an :func:`exact` key of variables never equals
    variables, since it starts with a type). Kept by the variables' object (:data:`_ENV_KEYS`):
    the interpreter meets the same variables, kept by ``env_set``, again and again."""
    hit = _ENV_KEYS.get(id(env))
    if hit is not None and hit[0] is env:
        return hit[1]
    key = env
    plain = _PLAIN
    for _, v in env:
        t = type(v)
        if t is not int and t is not str and not (t is tuple and plain.issuperset(map(type, v))):
            key = exact(env)
            break
    if len(_ENV_KEYS) >= ENV_KEYS:
        _ENV_KEYS.clear()
    _ENV_KEYS[id(env)] = (env, key)  # the variables held: their id names no other object meanwhile
    return key


ENV_KEYS = 1 << 16
"""Variables whose keys :func:`exact_env` keeps (it starts afresh beyond). An exact frontier
holds tens of thousands of distinct variables (play-selection-fast's pair scenario: ~47,000,
each met again at every step that reads one): kept for 4,096 only, the keys were made again
for most tables (that scenario's CPU time fell ~12 % with them all kept). ``env_set`` keeps up
to 100,000 variables alive anyway; these entries hold nothing more than their keys."""
_ENV_KEYS: dict[int, tuple[Any, Any]] = {}


_PLAIN = frozenset((int, str))
"""Types whose values compare equal only to values of the same type among a spec's values
(a key made by :func:`exact` holds a type wherever it differs from the value: no plain value
equals it)."""


WINDOW = 64
"""Misses between two decisions whether to keep values."""


class Kept(Generic[V]):
    """A dict of at most ``limit`` values (it starts afresh beyond). It stops keeping when its
    hits were fewer than an eighth of its last :data:`WINDOW` misses (or more: see ``_window``),
    and starts again when a quarter of the keys it was asked for since had been asked before."""

    __slots__ = ("_hashes", "_hits", "_kept", "_misses", "_window", "limit")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._kept: dict[Any, V] = {}
        self._hits = 0
        self._misses = 0
        self._hashes: set[int] | None = None  # the keys' hashes, while not keeping
        # Misses before deciding whether keeping pays: twice as many each time keys that were
        # no longer kept recur (a set of recurring keys larger than the window has no hits in
        # its first window, only misses).
        self._window = WINDOW

    def get(self, key: Any) -> V | None:
        """The value kept for ``key``, or None."""
        value = self._kept.get(key)
        if value is not None:
            self._hits += 1
        return value

    def put(self, key: Any, value: V) -> V:
        """Keep ``value`` for ``key`` (a miss of :meth:`get`) while keeping pays; returns it."""
        self._misses += 1
        hashes = self._hashes
        if hashes is None:
            kept = self._kept
            if len(kept) >= self.limit:
                kept.clear()
            kept[key] = value
            if self._misses >= self._window:
                if self._hits * 8 < self._misses:
                    kept.clear()
                    self._hashes = set()
                self._hits = self._misses = 0
            return value
        h = hash(key)
        if h in hashes:
            self._hits += 1  # would have been a hit
        else:
            if len(hashes) >= self.limit:
                hashes.clear()
            hashes.add(h)
        if self._misses >= WINDOW:
            if self._hits * 4 >= self._misses:
                self._hashes = None
                self._window = min(2 * self._window, max(self.limit, WINDOW))
            self._hits = self._misses = 0
        return value

    def __setitem__(self, key: Any, value: V) -> None:
        self.put(key, value)

    @property
    def keeping(self) -> bool:
        """Whether values are kept now."""
        return self._hashes is None

    def __len__(self) -> int:
        return len(self._kept)

    def clear(self) -> None:
        self._kept.clear()
