"""Chi-square tests for the statistical checks: goodness of fit and two-sample tests.

A test fails when its p-value is below ``ALPHA``.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypedDict

ALPHA = 0.001


# --------------------------------------------------------------------------- chi-square


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with ``df`` degrees of freedom."""
    if df <= 0:
        raise ValueError("df must be positive")
    if x <= 0:
        return 1.0
    return _gamma_q(df / 2.0, x / 2.0)


def _gamma_q(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x)."""
    if x < a + 1.0:
        term = total = 1.0 / a
        ap = a
        for _ in range(10_000):
            ap += 1.0
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(-x + a * math.log(x) - math.lgamma(a)))
    # Continued fraction (modified Lentz).
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return min(1.0, math.exp(-x + a * math.log(x) - math.lgamma(a)) * h)


class TestJSON(TypedDict):
    """One chi-square test as a statistical check's detail keeps it."""

    feature: str
    chi2: float
    df: int
    p: float
    runs: int
    ok: bool


@dataclass
class TestResult:
    name: str
    statistic: float
    df: int
    p: float
    n: int

    @property
    def ok(self) -> bool:
        return self.df == 0 or self.p >= ALPHA

    def to_json(self) -> TestJSON:
        return {
            "feature": self.name,
            "chi2": round(self.statistic, 3),
            "df": self.df,
            "p": round(self.p, 4),
            "runs": self.n,
            "ok": self.ok,
        }


def goodness_of_fit(name: str, counts: Counter[Any], expected: dict[Any, float]) -> TestResult:
    """Observed counts against expected probabilities (bins with expected count < 5 are pooled)."""
    n = sum(counts.values())
    bins: list[tuple[float, float]] = []
    pool_o = pool_e = 0.0
    for key, p in sorted(expected.items(), key=lambda kv: str(kv[0])):
        e = p * n
        if e < 5:
            pool_o += counts.get(key, 0)
            pool_e += e
        else:
            bins.append((counts.get(key, 0), e))
    stray = sum(c for k, c in counts.items() if k not in expected)
    pool_o += stray
    if pool_e > 0 or pool_o > 0:
        bins.append((pool_o, max(pool_e, 1e-9)))
    stat = sum((o - e) ** 2 / e for o, e in bins)
    df = len(bins) - 1
    return TestResult(name, stat, df, chi2_sf(stat, df) if df > 0 else 1.0, n)


def two_sample(name: str, a: Counter[Any], b: Counter[Any]) -> TestResult:
    """Whether two samples come from the same distribution (2 x k contingency table)."""
    na, nb = sum(a.values()), sum(b.values())
    keys = sorted(set(a) | set(b), key=str)
    bins: list[tuple[float, float]] = []
    pa = pb = 0.0
    for k in keys:
        oa, ob = float(a.get(k, 0)), float(b.get(k, 0))
        if (oa + ob) * min(na, nb) / (na + nb) < 5:
            pa += oa
            pb += ob
        else:
            bins.append((oa, ob))
    if pa + pb > 0:
        bins.append((pa, pb))
    stat = 0.0
    total = na + nb
    for oa, ob in bins:
        col = oa + ob
        for o, size in ((oa, na), (ob, nb)):
            e = col * size / total
            if e > 0:
                stat += (o - e) ** 2 / e
    df = len(bins) - 1
    return TestResult(name, stat, df, chi2_sf(stat, df) if df > 0 else 1.0, na + nb)


def uniform_transform(choices: list[tuple[tuple[str, ...], str]], rng: random.Random) -> list[float]:
    """Map each choice to [0, 1): uniform exactly when every choice is uniform among its options.

    For options o_1 <= ... <= o_n (names, with repeats) and the chosen name c, the value is
    P(option < c) + U * P(option = c) with U uniform: the randomized probability integral
    transform, so choices among different numbers of cards can be pooled.
    """
    return weighted_transform(choices, lambda name: 1, rng)


def weighted_transform(
    choices: list[tuple[tuple[str, ...], str]], weight: Callable[[str], int], rng: random.Random
) -> list[float]:
    """:func:`uniform_transform` for a choice of option o with probability weight(o) / the sum
    of the weights (a weighted virtual player): uniform exactly when every choice is."""
    out = []
    for options, chosen in choices:
        total = sum(weight(o) for o in options)
        below = sum(weight(o) for o in options if o < chosen)
        same = sum(weight(o) for o in options if o == chosen)
        if same == 0:
            raise ValueError(f"{chosen} was not one of the options")
        out.append((below + rng.random() * same) / total)
    return out


def binned(values: list[float], bins: int = 10) -> Counter[int]:
    return Counter(min(int(v * bins), bins - 1) for v in values)
