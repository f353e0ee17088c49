"""The chi-square machinery of statistical verification."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from reference_engine.statistics import binned, chi2_sf, goodness_of_fit, two_sample, uniform_transform


@pytest.mark.parametrize(
    ("x", "df", "p"),
    [
        # Critical values from standard chi-square tables (e.g. NIST/SEMATECH e-Handbook, Table 1.4.2.2).
        (3.841, 1, 0.05),
        (6.635, 1, 0.01),
        (5.991, 2, 0.05),
        (18.307, 10, 0.05),
        (23.209, 10, 0.01),
        (29.588, 10, 0.001),
        (124.342, 100, 0.05),
    ],
)
def test_chi2_survival_matches_tables(x: float, df: int, p: float) -> None:
    assert chi2_sf(x, df) == pytest.approx(p, rel=2e-3)


def test_goodness_of_fit_accepts_uniform_and_rejects_biased() -> None:
    rng = random.Random(3)
    fair = Counter(rng.randrange(6) for _ in range(6000))
    assert goodness_of_fit("fair", fair, {i: 1 / 6 for i in range(6)}).p > 0.001
    loaded = Counter(min(rng.randrange(7), 5) for _ in range(6000))
    assert goodness_of_fit("loaded", loaded, {i: 1 / 6 for i in range(6)}).p < 1e-6


def test_two_sample_detects_a_shift() -> None:
    rng = random.Random(4)
    a = Counter(rng.randrange(10) for _ in range(3000))
    b = Counter(rng.randrange(10) for _ in range(3000))
    c = Counter(min(rng.randrange(12), 9) for _ in range(3000))
    assert two_sample("same", a, b).p > 0.001
    assert two_sample("shifted", a, c).p < 1e-6


def test_uniform_transform_pools_choices_of_different_sizes() -> None:
    rng = random.Random(5)
    fair, biased = [], []
    for _ in range(3000):
        options = tuple(sorted(f"c{i}" for i in range(rng.randrange(1, 8))))
        fair.append((options, rng.choice(options)))
        # A subtly biased chooser: the first option a third of the time.
        biased.append((options, options[0] if rng.random() < 1 / 3 else rng.choice(options)))
    expected = {i: 0.1 for i in range(10)}
    assert goodness_of_fit("fair", binned(uniform_transform(fair, rng)), expected).p > 0.001
    assert goodness_of_fit("biased", binned(uniform_transform(biased, rng)), expected).p < 1e-6
