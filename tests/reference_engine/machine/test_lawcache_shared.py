"""A law file whose tuples share parts (reference_engine/machine/lawcache.py, stop 50's attack).

A pickle refers to a tuple it has already built by a short memo reference, so a file of a few
hundred bytes can hold ``t = (t', t')`` nested 30 deep: 2^31 values when walked as a tree. The
check of a law's shape walked it value by value (and a game would then hash it the same way):
an entry under its own key, format and faces made the first lottery of a game take hours. Such
an entry is refused like any malformed one (the law enumerated again), whichever part of the
law holds the shared tuples; a real law's sharing stays within the bound and is read back.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from reference_engine.machine import lawcache
from reference_engine.machine.plans import SubResult
from reference_engine.meters import Meters

KEY: tuple[Any, ...] = ("attack-shared", ("no-such-callee", ()), ((0, 1),))


@pytest.fixture(autouse=True)
def _on(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv(lawcache.ENV, "1")
    monkeypatch.setenv(lawcache.CACHE_ENV, str(tmp_path))
    return tmp_path


def _shared(depth: int) -> tuple[Any, ...]:
    """A tuple of two of the same tuple, ``depth`` deep: 2^(depth+1) - 1 values as a tree."""
    t: tuple[Any, ...] = ()
    for _ in range(depth):
        t = (t, t)
    return t


def _plant(where: str, t: tuple[Any, ...]) -> None:
    """A law holding ``t`` at ``where``, written as the cache writes one (its own key, format and
    faces: only its shape can refuse it)."""
    meters = Meters(kinds=t) if where == "kinds" else Meters()
    sub = SubResult(
        cards=t if where == "cards" else (),
        values=t if where == "values" else (),
        delta=(),
        meters=meters,
        shown=(),
    )
    law = (((t if where == "observations" else (),), sub, Fraction(1)),)
    data = lawcache._dumps(KEY, (law, (), 0), lawcache._numbered())
    assert len(data) < 400  # a few hundred bytes
    target = lawcache.path(KEY)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)


@pytest.mark.parametrize("where", ["observations", "values", "cards", "kinds"])
def test_a_law_of_shared_tuples_past_the_bound_is_refused(
    where: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The bound lowered so that the attack stays cheap whether or not it is refused (2^13 values
    # against 2^12): before the fix this law was taken, whatever its size as a tree.
    monkeypatch.setattr(lawcache, "MAX_NODES", 1 << 12, raising=False)
    _plant(where, _shared(12))
    assert lawcache.load(KEY) is None


@pytest.mark.parametrize("where", ["observations", "values"])  # cards, counters: typed pairs
def test_a_law_of_shared_tuples_within_the_bound_is_read_back(where: str) -> None:
    _plant(where, _shared(8))  # 511 values as a tree
    got = lawcache.load(KEY)
    assert got is not None and got[0][0][2] == 1


def test_the_bound_holds_a_thirty_deep_law_to_its_count() -> None:
    """The shape's check stops once the bound is spent: the attack of 2^31 values is refused
    after at most MAX_NODES of them (counted here, not timed)."""
    walked = [0]
    frozen = lawcache._frozen

    def counted(value: Any, left: list[int], depth: int = 0) -> bool:
        walked[0] += 1
        return frozen(value, left, depth)

    t = _shared(30)
    sub = SubResult(cards=(), values=(), delta=(), meters=Meters(), shown=())
    law = (((t,), sub, Fraction(1)),)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(lawcache, "_frozen", counted)
        assert not lawcache._well_formed(law)
    assert walked[0] <= lawcache.MAX_NODES + 64, walked


def test_probabilities_of_ever_new_large_denominators_stop_the_check_at_once() -> None:
    """A law whose probabilities have 4,096-bit denominators, each prime to the others: their sum
    grew thousands of bits an entry (1,000 entries: 25 s CPU to refuse). The check stops at the
    first partial sum past MAX_BITS (the entries walked are counted here, not timed)."""
    walked = [0]
    frozen = lawcache._frozen

    def counted(value: Any, left: list[int], depth: int = 0) -> bool:
        if depth == 0 and type(value) is tuple and len(value) == 7:  # one entry's sub-result
            walked[0] += 1
        return frozen(value, left, depth)

    sub = SubResult(cards=(), values=(), delta=(), meters=Meters(), shown=())
    primes = [(1 << 4095) + k for k in range(1, 4000, 2)][:120]  # odd, pairwise nearly prime
    law = tuple(((), sub, Fraction(1, d)) for d in primes)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(lawcache, "_frozen", counted)
        assert not lawcache._well_formed(law)
    assert walked[0] <= 3, walked


def test_a_law_of_small_probabilities_is_still_well_formed() -> None:
    sub = SubResult(cards=(), values=(), delta=(), meters=Meters(), shown=())
    law = tuple(((("turn", (i,)),), sub, Fraction(1, 720)) for i in range(720))
    assert lawcache._well_formed(law)


def _plain_frozen(value: Any, left: list[int], depth: int = 0) -> bool:
    """The check value by value, as it was before tuples met again were kept (the reference)."""
    left[0] -= 1
    if left[0] < 0:
        return False
    if isinstance(value, lawcache._FROZEN):
        return True
    return type(value) is tuple and depth < 32 and all(_plain_frozen(v, left, depth + 1) for v in value)


class _Int(int):
    """A subclass of a frozen leaf's type: frozen, by ``isinstance``."""


def _hostile_values() -> list[Any]:
    """Shared tuples met again deeper than they first lay, at the depth's and the count's edges,
    with a list, a float, bytes or a dict deep inside, and leaves of subclassed types."""
    deep: Any = ()
    for _ in range(30):
        deep = (deep,)
    shared = _shared(5)  # 63 values as a tree
    bad = (1, ("a", [2]))
    return [
        (shared, (shared,)),
        (shared, ((((shared,),),),)),
        (deep, (deep,), ((deep,),)),  # 31 deep first, then 32, then 33: refused there alone
        ((deep,), deep),  # the deeper one first: kept at 32, met again at 31
        (bad, bad),
        ((1, 2.5), (1, 2.5)),
        ((b"x",), ("x",)),
        ({"a": 1},),
        (_Int(3), (_Int(3), True, None, "s", Fraction(1, 2))),
        ((shared, shared), (shared, (shared, shared))),
        _shared(12),
        (),
    ]


@pytest.mark.parametrize("budget", [1, 2, 40, 63, 64, 65, 126, 127, 128, 200, 1 << 12, 1 << 14])
def test_the_kept_walk_answers_as_the_walk_value_by_value(budget: int) -> None:
    """Each value, and each value after another with the same kept tuples (one law's check): the
    same answer as the plain walk with the same budget, and where both take it, the same budget
    left (tuples met again counted as often as they occur, refused past 32 deep wherever they
    were kept)."""
    values = _hostile_values()
    for depth in (0, 1, 20, 31, 32):
        kept: list[Any] = [budget, {}]
        plain = [budget]
        for value in values + values:
            want = _plain_frozen(value, plain, depth)
            got = lawcache._frozen(value, kept, depth)
            assert got == want, (value, depth)
            if not want:
                break  # one value refused refuses the law: what the budget then holds is moot
            assert kept[0] == plain[0]
        alone = [budget]
        for value in values:
            assert lawcache._frozen(value, [budget], depth) == _plain_frozen(value, alone[:], depth)


def _plain_shaped(sub: SubResult, faces: int | None) -> bool:
    """The sub-result's check code by code, as it was before its bounds were taken at once."""

    def ints(values: Any, n: int | None = None) -> bool:
        return (
            type(values) is tuple and (n is None or len(values) == n) and all(type(v) is int for v in values)
        )

    for pair in sub.cards:
        if type(pair) is not tuple or len(pair) != 2 or not ints(pair[0], 2):
            return False
        rows, cols = pair[0]
        if rows < 0 or cols < 0 or not ints(pair[1], rows * cols):
            return False
        if faces is not None and not all(c == -1 or 0 <= c >> 1 < faces for c in pair[1]):
            return False
    m = sub.meters
    named = (*m.kinds, *m.calls)
    if not all(type(x) is tuple and len(x) == 2 and type(x[0]) is str and type(x[1]) is int for x in named):
        return False
    return all(ints(change, 2) for change in (*sub.delta, *m.peak))


@pytest.mark.parametrize("faces", [None, -2, -1, 0, 1, 3, 4])
def test_a_sub_result_s_codes_are_checked_as_code_by_code(faces: int | None) -> None:
    """Codes at every edge (an empty place, -2, the last face's two sides, the first face past
    them), a truth value or a subclass of int among them, and changes of every shape: the same
    answer as the check code by code."""
    codes: list[tuple[Any, ...]] = [(), (-1,), (-1, -1), (-2,), (0,), (5,), (7,), (8,), (-1, 7), (-1, 8)]
    codes += [(0, 1, 6, 7, -1), (True,), (_Int(2),), (0, 2.0), (1 << 70,), (-(1 << 70),)]
    changes: list[tuple[Any, ...]] = [(), ((0, 1),), ((0, True),), ((0,),), ((0, 1, 2),), ((_Int(0), 1),)]
    for cs in codes:
        for delta in changes:
            sub = SubResult(cards=(((1, len(cs)), cs),), values=(), delta=delta, meters=Meters(), shown=())
            assert lawcache._sub_shaped(sub, faces) == _plain_shaped(sub, faces), (cs, delta, faces)


@pytest.mark.parametrize("budget", [1, 30, 64, 127, 128, 129, 300, 1 << 12])
def test_a_law_s_chains_are_checked_as_observation_by_observation(
    budget: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Chains sharing their observations (and observations shared with the sub-results' values),
    deep ones, empty ones and ones holding a value that is not a tuple, at every budget: the
    same verdict as the check observation by observation with the plain walk."""
    deep: Any = ()
    for _ in range(31):
        deep = (deep,)
    obs = ("let", (("alive", (1, 2, 3, 4)),))
    sub = SubResult(cards=(), values=(obs,), delta=(), meters=Meters(), shown=())
    chains: list[tuple[Any, ...]] = [
        (obs, ("if", True)),
        (obs, ("if", True), obs),
        (),
        (deep,),
        ((deep,),),
        (obs, "if"),
        (_shared(6), obs),
        (obs, [1]),
    ]
    laws = [
        tuple((chain, sub, Fraction(1, 2)) for chain in pair) for pair in zip(chains, chains[1:] + chains[:1])
    ]
    laws += [((chain, sub, Fraction(1)),) for chain in chains]

    def reference(law: Any) -> bool:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(lawcache, "MAX_NODES", budget)
            mp.setattr(
                lawcache,
                "_frozen",
                lambda v, left, depth=0: _plain_frozen(v, [left[0]], depth) and _spend(v, left),
            )
            mp.setattr(
                lawcache,
                "_chain_frozen",
                lambda chain, left: all(type(o) is tuple and lawcache._frozen(o, left) for o in chain),
            )
            return lawcache._well_formed(law)

    monkeypatch.setattr(lawcache, "MAX_NODES", budget)
    for law in laws:
        assert lawcache._well_formed(law) == reference(law), (law, budget)
    for law in laws:  # at the budget's edge: the law's own count of values, one less, one more
        used = [1 << 62]
        for chain, sub, _ in law:
            for o in chain:
                _spend(o, used)
            _spend((sub.cards, sub.values, sub.delta, sub.shown, (), (), ()), used)
        n = (1 << 62) - used[0]
        for edge in (n - 1, n, n + 1):
            budget = edge
            monkeypatch.setattr(lawcache, "MAX_NODES", edge)
            assert lawcache._well_formed(law) == reference(law), (law, edge)


def _spend(value: Any, left: list[Any]) -> bool:
    """Spend ``value``'s count of values from ``left`` (the plain walk's count); whether some is left."""
    alone = [1 << 62]
    _plain_frozen(value, alone)
    left[0] -= (1 << 62) - alone[0]
    return bool(left[0] >= 0)
