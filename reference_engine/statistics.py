"""Statistical verification of the card selection protocol on the full 108-card table.

Exact verification enumerates every deal, which only a reduced deck allows. On the full
table the engine instead runs the protocol many times (every run is checked: valid
card, cards back to their owners, no card lost, helpers returned, paper's counts) and
tests, with chi-square tests:

* **uniformity**: in deal A, the played card is uniform among P_1's valid cards;
* **independence**: deals A and B have the same public information (hand sizes, top card,
  discard pile) but different hands; every feature of the view has the same distribution
  in both, and matches its theoretical distribution where that is known.

A test fails when its p-value is below ``ALPHA``.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from .cards import Symbol, symbol_of
from .game import CallCache, CheckFailure, run_selection
from .registry import Library
from .rules import RuleSet, load_rules
from .spec import Protocol
from .verify import VERSION, Check, Report, empty_stats

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

    def to_json(self) -> dict[str, Any]:
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
    out = []
    for options, chosen in choices:
        n = len(options)
        below = sum(1 for o in options if o < chosen)
        same = sum(1 for o in options if o == chosen)
        if same == 0:
            raise ValueError(f"{chosen} was not one of the options")
        out.append((below + rng.random() * same) / n)
    return out


def binned(values: list[float], bins: int = 10) -> Counter[int]:
    return Counter(min(int(v * bins), bins - 1) for v in values)


# --------------------------------------------------------------------------- deals


@dataclass
class Deal:
    top: Symbol
    owners: list[list[Symbol]]  # P_1 (virtual), P_2.., the draw pile

    def describe(self) -> str:
        return "P_1 holds " + " ".join(c.glyph for c in self.owners[0])


def make_deals(rules: RuleSet, players: int, rng: random.Random, hand_size: int) -> tuple[Deal, Deal]:
    """Two deals with the same public information; P_1 has at least 3 valid cards in deal A."""
    while True:
        deck = rules.deck()
        rng.shuffle(deck)
        top = next(c for c in deck if c.attrs["color"] != "black")
        deck.remove(top)
        valid = rules.validity(top, str(top.attrs["color"]))
        sizes = [hand_size] * players + [len(deck) - hand_size * players]

        def deal(cards: list[Symbol], sizes: list[int] = sizes) -> list[list[Symbol]]:
            out, i = [], 0
            for n in sizes:
                out.append(cards[i : i + n])
                i += n
            return out

        a = deal(deck)
        if len({c.name for c in a[0] if valid(c)}) < 3:
            continue
        for _ in range(1000):
            other = list(deck)
            rng.shuffle(other)
            b = deal(other)
            if any(valid(c) for c in b[0]) and sorted(c.name for c in b[0]) != sorted(c.name for c in a[0]):
                return Deal(top, a), Deal(top, b)


# --------------------------------------------------------------------------- features


def features(obs: list[Any], k: int, theta1: str, marker: str | None) -> dict[str, Any]:
    """The view features of one run: what the table saw at Steps 5 and 9 and in the lottery."""
    turns = [o[1] for o in obs if o[0] == "turn"]
    out: dict[str, Any] = {}
    if len(turns) >= 2:
        row, thetas = turns[0], turns[1]
        names = [symbol_of(c).name for c in row]
        if marker is not None and marker in names:
            out["step 5: position of the marker card (tenths of the row)"] = names.index(marker) * 10 // k
        owners = [symbol_of(c).name for c in thetas]
        ones = [i for i, n in enumerate(owners) if n == theta1]
        if ones:
            out["step 9: first θ1 column (tenths of the row)"] = ones[0] * 10 // k
            out["step 9: θ1 cards in the left half"] = sum(1 for i in ones if i < k // 2)
            # Steps 5 and 9 together: the card seen at Step 5 where the first θ1 shows at Step 9.
            # Without the second shuffle this would be one of P_1's own cards.
            out["steps 5 and 9: card seen at Step 5 above the first θ1"] = names[ones[0]]
    calls = [o for o in obs if o[0] == "call" and isinstance(o[2], list)]
    if calls:
        inner = [o[1] for o in calls[0][2] if o[0] == "turn"]
        if inner:
            pairs = [symbol_of(c).name for c in inner[-1]]
            m = len(pairs) // 2
            # Row-major: the first row holds the first card of every pair, the second row the second.
            hit = [j for j in range(m) if pairs[j] == "beta" and pairs[m + j] == "alpha"]
            if hit:
                out["lottery step 7: position of the pair reading 1"] = hit[0]
    return out


# --------------------------------------------------------------------------- verification


def _failed(proto: Protocol, exc: CheckFailure, seconds: float) -> Report:
    checks = [
        Check("correct", False, f"a run broke a check: {exc.format_message()}"),
        Check("secure", False, "not checked: a run broke a check"),
    ]
    stats = empty_stats(seconds)
    return Report(proto.name, proto.title, {}, "statistical", 2, checks, {}, [], stats, [], proto.source)


def verify_runs(
    library: Library, proto: Protocol, runs: int, seed: int = 0, game: str | None = None, players: int = 4
) -> Report:
    """Statistical verification of a card selection spec on the full deck (see module docs)."""
    started = time.perf_counter()
    game = game or next((s.game for s in proto.scenarios.values()), "uno")
    rules = load_rules(game)
    rng = random.Random(seed)
    deal_a, deal_b = make_deals(rules, players, rng, rules.hand_size)
    valid = rules.validity(deal_a.top, str(deal_a.top.attrs["color"]))
    cache = CallCache()
    k = sum(len(o) for o in deal_a.owners)
    k1 = len(deal_a.owners[0])
    counts = Counter(c.name for o in deal_a.owners for c in o)
    marker = next((n for n in sorted(counts) if counts[n] == 1), None)
    feats: list[dict[str, Counter[Any]]] = [{}, {}]
    played: Counter[str] = Counter()
    shuffles: set[int] = set()
    helpers: set[int] = set()
    paper: dict[str, set[Any]] = {"shuffles": set(), "helper_cards": set()}
    try:
        outcomes = []
        for d, deal in enumerate((deal_a, deal_b)):
            for i in range(runs):
                run = run_selection(
                    library,
                    proto,
                    [list(o) for o in deal.owners],
                    valid,
                    rng,
                    cache,
                    f"run {i + 1} of deal {'AB'[d]}",
                    check_counts=False,
                )
                outcomes.append((d, run))
    except CheckFailure as exc:
        return _failed(proto, exc, time.perf_counter() - started)
    for d, run in outcomes:
        if True:
            shuffles.add(run.shuffles)
            helpers.add(run.helper_cards)
            for name, value in run.expected.items():
                paper[name].add(value)
            if d == 0 and run.played is not None:
                played[run.played.name] += 1
            views = run.observations
            for name, value in features(views, k, "theta1", marker).items():
                feats[d].setdefault(name, Counter())[value] += 1
    checks: list[Check] = []
    valid_cards = Counter(c.name for c in deal_a.owners[0] if valid(c))
    total = sum(valid_cards.values())
    uni = goodness_of_fit("played card in deal A", played, {n: c / total for n, c in valid_cards.items()})
    glyphs = {c.name: c.glyph for o in deal_a.owners for c in o}
    checks.append(
        Check(
            "correct",
            uni.ok,
            f"every run checked (valid card played, all cards back, helpers returned) and the played "
            f"card is uniform among {', '.join(glyphs[n] for n in sorted(valid_cards))}: "
            f"chi2 = {uni.statistic:.2f}, df = {uni.df}, p = {uni.p:.3f}",
            {"tests": [uni.to_json()], "played": {glyphs[n]: c for n, c in sorted(played.items())}},
        )
    )
    tests = []
    for name in sorted(set(feats[0]) | set(feats[1])):
        a, b = feats[0].get(name, Counter()), feats[1].get(name, Counter())
        tests.append(two_sample(f"{name}: deal A vs deal B", a, b))
        if name.startswith("step 5") or name.startswith("lottery"):
            if name.startswith("step 5"):
                expected = {t: sum(1 for pos in range(k) if pos * 10 // k == t) / k for t in range(10)}
            else:
                expected = {j: 1 / k1 for j in range(k1)}
            tests.append(goodness_of_fit(f"{name}: deal A against uniform", a, expected))
    worst = min(tests, key=lambda t: t.p) if tests else None
    checks.append(
        Check(
            "secure",
            all(t.ok for t in tests),
            f"{len(tests)} chi-square tests of view features, smallest p = {worst.p:.3f} ({worst.name})"
            if worst
            else "no features",
            {"tests": [t.to_json() for t in tests]},
        )
    )
    resources = {"runs": 2 * runs, "cards": k, "shuffles": sorted(shuffles), "helper_cards": sorted(helpers)}
    expect = []
    for name, measured in (("shuffles", shuffles), ("helper_cards", helpers)):
        exp = proto.expect.get(name)
        if exp is not None:
            match = measured == paper[name]
            expect.append(
                {
                    "name": name,
                    "expected": sorted(paper[name]),
                    "measured": sorted(measured),
                    "match": match,
                    "cite": exp.cite,
                    "formula": exp.value.text if exp.value else "",
                }
            )
            checks.append(
                Check(
                    f"expect {name}",
                    match,
                    f"measured {sorted(measured)}, paper {sorted(paper[name])} "
                    f"({exp.value.text if exp.value else ''})" + (f"  [{exp.cite}]" if exp.cite else ""),
                )
            )
    stats = {
        "final_states": 0,
        "views": 0,
        "states_processed": 2 * runs,
        "peak_frontier": 1,
        "subprotocol_runs": len(cache.subruns),
        "seconds": round(time.perf_counter() - started, 3),
    }
    notes = [
        f"statistical verification with {runs} runs per deal, seed {seed}, on the full {rules.name} deck "
        f"with {players} players (k = {k} cards, k1 = {k1}); top card {deal_a.top.glyph}",
        f"deal A: {deal_a.describe()}; deal B: {deal_b.describe()} (same public information)",
        "every run passed the checks: valid card (or none exactly when no card is valid), every card back "
        "to its owner, no card created or lost, every helper card back in the supply",
        f"a test fails when p < {ALPHA}; kitgen reference engine {VERSION}",
    ]
    scenario = {
        "name": "full",
        "game": rules.name,
        "deal": [],
        "state": f"top card {deal_a.top.glyph}",
        "doc": f"full {rules.name} deck, {players} players",
    }
    return Report(
        proto.name,
        proto.title,
        {"sizes": tuple(len(o) for o in deal_a.owners)},
        "statistical",
        2,
        checks,
        resources,
        expect,
        stats,
        notes,
        proto.source,
        scenario,
    )
