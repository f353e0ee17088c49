"""A small callee's law on carried cards some of which are equal, merged from the law kept for
the same call with them all different (:func:`reference_engine.machine.relabel._merged`): on
every pattern of the knockout lottery it is the law the plain enumeration keeps, the outcomes a
session gets are the plain enumeration's, and a budget still charges what an enumeration spends."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Any

import pytest

from reference_engine.cards import SYMBOLS, code
from reference_engine.machine import Runner, Shared, frontier
from reference_engine.machine import relabel as rl
from reference_engine.machine.subruns import _sub_outcomes
from reference_engine.registry import Library

POOL = [SYMBOLS.intern(f"relabel_merged_card_{i}") for i in range(8)]  # faces no spec names


@pytest.fixture(autouse=True)
def _fresh(relabel_fresh: None) -> None:
    """Every test starts with nothing kept."""


def shapes(m: int) -> Iterator[tuple[int, ...]]:
    """Every way ``m`` cards can be equal (restricted growth strings: 0 first, each index at
    most one above the largest before it)."""
    for s in itertools.product(range(m), repeat=m):
        if all(s[i] <= max(s[:i], default=-1) + 1 for i in range(m)):
            yield s


def calls(m: int, rng: random.Random) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every pattern of a lottery on ``m`` candidates: the arrows' bits, then which cards are
    equal (all different first, so that the others can be merged), each on fresh faces."""
    up, down = (code(SYMBOLS.get(n)) for n in ("up", "down"))  # type: ignore[arg-type]
    out = []
    for shape in sorted(shapes(m), key=lambda s: -len(set(s))):
        for bits in itertools.product((0, 1), repeat=m):
            faces = rng.sample(POOL, m)
            out.append((tuple(code(faces[i]) for i in shape), tuple(up if b else down for b in bits)))
    return out


def test_every_pattern_of_the_knockout_lottery_merges_to_its_enumeration() -> None:
    """With ``check``, each call on equal cards is enumerated and its law compared with the
    merged one (an AssertionError otherwise); then, nothing kept, merged laws give each call the
    plain enumeration's outcomes, and the merged ones are kept with an unknown cost."""
    lib = Library()
    proto = lib.protocol("knockout-lottery")
    rng = random.Random(3)
    compared = 0
    for m in (2, 3, 4):
        pattern = calls(m, rng)
        runner = Runner(lib, "sample", shared=Shared())
        sub = runner.frame(proto, proto.resolve_params({"m": m, "shuffled": 1}))
        for codes in pattern:
            before = len(rl._KEPT)
            rl.small_call(runner, sub, codes, None, check=True)
            assert len(rl._KEPT) == before + 1
            compared += len(set(codes[0])) < m
        kept = dict(rl._KEPT)
        rl._KEPT.clear()
        merged = Runner(lib, "sample", shared=Shared())
        plain = Runner(lib, "sample", shared=Shared())
        for codes in pattern:
            sub = merged.frame(proto, proto.resolve_params({"m": m, "shuffled": 1}))
            got = rl.small_outcomes(merged, sub, codes, None)
            want = _sub_outcomes(plain, plain.frame(proto, sub.params), codes)
            assert [(p, _spelt(merged, o), r) for p, o, r in got] == [
                (p, _spelt(plain, o), r) for p, o, r in want
            ]
        for key, (law, _, cost) in rl._KEPT.items():
            assert law == kept[key][0]
            assert (cost < 0) is (len(set(key[2][0])) < m)
    assert compared == 4 * 1 + 8 * 4 + 16 * 14


def _spelt(runner: Runner, obs: Any) -> Any:
    if obs is not None and obs[0] == "call" and isinstance(obs[2], int):
        return ("call", obs[1], runner.views.expanded(obs[2]))
    return obs


def test_a_merged_law_is_enumerated_under_a_budget() -> None:
    """Attack: a merged law's cost is unknown; charging it nothing (or -1) would let a budget
    stop a run later than an enumeration would. Under a budget the call is enumerated (and its
    cost kept), spending what a process that never merged spends."""
    lib = Library()
    proto = lib.protocol("knockout-lottery")
    up, down = (code(SYMBOLS.get(n)) for n in ("up", "down"))  # type: ignore[arg-type]
    x = (up, down, down)
    distinct = (tuple(code(s) for s in POOL[:3]), x)
    alike = ((code(POOL[3]), code(POOL[4]), code(POOL[3])), x)

    def spent(merge_first: bool) -> int:
        rl._KEPT.clear()
        runner = Runner(lib, "sample", shared=Shared())
        sub = runner.frame(proto, proto.resolve_params({"m": 3, "shuffled": 1}))
        rl.small_call(runner, sub, distinct, None)
        if merge_first:
            rl.small_call(Runner(lib, "sample", shared=Shared()), sub, alike, None)
            assert any(cost < 0 for _, _, cost in rl._KEPT.values())
        with frontier.budget(10**9):
            rl.small_call(Runner(lib, "sample", shared=Shared()), sub, alike, None)
            left = frontier._BUDGET.get()
            assert left is not None
            return 10**9 - left[0]

    cold = spent(merge_first=False)
    assert cold > 0
    assert spent(merge_first=True) == cold
    assert all(cost >= 0 for _, _, cost in rl._KEPT.values())
