""":func:`reference_engine.machine.subruns.factoring` in whole numbers gives what it gave with
fractions' operators: the same Q, the same verdict, the same outcomes in the same order."""

from __future__ import annotations

import random
from collections import defaultdict
from fractions import Fraction
from typing import Any

from reference_engine.machine.plans import SubResult
from reference_engine.machine.subruns import Factoring, _inlined, factoring
from reference_engine.meters import Meters


def _reference(name: str, joint: dict[tuple[Any, SubResult], Fraction]) -> Factoring:
    """The factoring as it was computed with fractions (the reference)."""
    p_res: dict[SubResult, Fraction] = defaultdict(Fraction)
    n_res: dict[SubResult, int] = defaultdict(int)
    p_o: dict[tuple[Any, ...], Fraction] = defaultdict(Fraction)
    q: dict[tuple[Any, ...], dict[Any, Fraction]] = defaultdict(lambda: defaultdict(Fraction))
    for (v, res), p in joint.items():
        o = res.public
        p_res[res] += p
        n_res[res] += 1
        p_o[o] += p
        q[o][v] += p
    cond = {o: {v: p / p_o[o] for v, p in dist.items()} for o, dist in q.items()}
    ok = all(p == cond[res.public].get(v, 0) * p_res[res] for (v, res), p in joint.items())
    ok = ok and all(n_res[res] == len(cond[res.public]) for res in p_res)
    factored = [(p, ("call", name, res.public) if res.public else None, res) for res, p in p_res.items()]
    return Factoring(ok, cond, factored, _inlined(name, joint))


def _res(cards: int, value: Any, shown: bool = False) -> SubResult:
    return SubResult(
        cards=(((1, 1), (cards,)),),
        values=(value,),
        delta=(),
        meters=Meters(),
        shown=(("out", "shown", ()),) if shown else (),
    )


def _joints(rng: random.Random) -> list[dict[tuple[Any, SubResult], Fraction]]:
    out: list[dict[tuple[Any, SubResult], Fraction]] = [{}]
    for _ in range(300):
        n = rng.randint(1, 9)
        views = rng.sample(range(40), n)
        results = [
            _res(rng.randint(0, 3) * 2, rng.choice([True, False, 1, 0]), rng.random() < 0.3) for _ in range(n)
        ]
        weights = [rng.randint(1, 12) for _ in range(n)]
        total = sum(weights)
        joint = {(v, r): Fraction(w, total) for v, r, w in zip(views, results, weights)}
        out.append(joint)
        # A product law: each public output's views with the same conditional law (it factors).
        q = {0: Fraction(1, 3), 1: Fraction(2, 3)}
        p = {_res(0, True): Fraction(1, 4), _res(2, True): Fraction(1, 2), _res(4, False): Fraction(1, 4)}
        out.append({(v + 2 * (not r.values[0]), r): pv * pr for r, pr in p.items() for v, pv in q.items()})
        # Each result seen in every view of its public output, in other proportions: no product.
        a, b = rng.randint(1, 5), rng.randint(1, 5)
        skew = {(0, _res(0, True)): a, (1, _res(0, True)): b, (0, _res(2, True)): b, (1, _res(2, True)): a}
        out.append({key: Fraction(w, 2 * (a + b)) for key, w in skew.items()})
    return out


def _same(a: Factoring, b: Factoring) -> bool:
    def typed(f: Factoring) -> Any:
        cond = [(o, [(v, p, type(p)) for v, p in d.items()]) for o, d in f.cond.items()]
        factored = [(p, type(p), obs, res) for p, obs, res in f.factored]
        return f.ok, cond, factored, f.inlined

    return bool(typed(a) == typed(b))


def test_factoring_in_whole_numbers_is_the_fractions() -> None:
    rng = random.Random(3)
    verdicts = set()
    for joint in _joints(rng):
        want = _reference("callee", joint)
        got = factoring("callee", joint)
        assert _same(got, want), joint
        counts = all(len(got.cond[r.public]) == sum(1 for _, s in joint if s == r) for _, r in joint)
        verdicts.add((got.ok, counts))
    assert verdicts == {(True, True), (False, True), (False, False)}  # each test decides some
