"""Statistical verification of the play selection protocol on the full deck (Daifugō).

Exact verification enumerates every deal of a reduced deck (the spec's scenarios). On the full
52-card table the engine runs the protocol many times from two deals with the same public
information (the hand sizes and the last play), every run checked (a valid play, or a pass
exactly when there is none; every card back to its owner; nothing created or lost; helper
cards returned; the shuffles the steps call for), in two situations: following a single, and
leading. Chi-square tests:

* **correct**: in deal A, the distinct plays are equally likely, and the cards of a play are
  uniform among P_1's cards of its rank (the played sets against their exact probabilities);
* **secure**: features of the view (where the θ1 cards lie in the last θ row; where the
  lottery's live pair lies) have the same distribution in deals A and B, and the lottery's
  position is uniform.

A test fails when its p-value is below ``ALPHA``.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from typing import Any

from ...cards import Symbol, symbol_of
from ...errors import CheckFailure
from ...registry import Library
from ...report import VERSION, Check, Report, Resources, Scenario, empty_stats
from ...selection import CallCache
from ...spec import Protocol
from ...statistics import ALPHA, TestResult, goodness_of_fit, two_sample
from ..virtual import split
from .rules import ClimbingRules, Play
from .selection import check_play_selection, run_play_selection


def _deals(
    rules: ClimbingRules, players: int, rng: random.Random
) -> tuple[list[list[Symbol]], list[list[Symbol]], Play]:
    """Deal A and deal B of the whole deck with the same hand sizes, and a single to follow on
    which P_1 (deal A) has at least three distinct plays, one of a rank it holds twice or more
    (so that equal chances per play differ from equal chances per card)."""
    deck = rules.deck()
    sizes = [len(deck) // players + (1 if i < len(deck) % players else 0) for i in range(players)]
    while True:
        rng.shuffle(deck)
        a = split(list(deck), sizes)
        counts = Counter(rules.strength(c) for c in a[0])
        for r0 in range(len(rules.order) - 1):
            above = {r: n for r, n in counts.items() if r > r0}
            if len(above) >= 3 and max(above.values()) >= 2 and r0 in {rules.strength(c) for c in deck}:
                other = list(deck)
                rng.shuffle(other)
                b = split(other, sizes)
                if sorted(c.name for c in b[0]) != sorted(c.name for c in a[0]):
                    return a, b, Play(1, r0)


def _features(obs: list[Any], theta1: str, rng: random.Random) -> dict[str, int]:
    """Features of one run's view, each mapped to a tenth of [0, 1) that is uniform whatever the
    hands and the play (a randomized probability integral transform), so runs with different
    numbers of θ1 cards or of lottery tickets can be pooled:

    * the first θ1 column of the last θ row: uniform among the rows' columns as a random set;
    * the live pair of the last covert lottery: uniform among its tickets.
    """
    out: dict[str, int] = {}
    turns = [o[1] for o in obs if o[0] == "turn" and isinstance(o[1], tuple)]
    thetas = [t for t in turns if t and symbol_of(t[0]).name.startswith("theta")]
    if thetas:
        row = [symbol_of(c).name for c in thetas[-1]]
        k = len(row)
        ones = [i for i, n in enumerate(row) if n == theta1]
        if ones:
            c, i = len(ones), ones[0]
            total = math.comb(k, c)
            below = total - math.comb(k - i, c)  # sets whose first column is left of i
            at = math.comb(k - i - 1, c - 1)
            out["last θ row: first θ1 column"] = _tenth((below + rng.random() * at) / total)
    calls = [o for o in obs if o[0] == "call" and isinstance(o[2], list)]
    if calls:
        inner = [o[1] for o in calls[-1][2] if o[0] == "turn"]
        if inner:
            pairs = [symbol_of(c).name for c in inner[-1]]
            m = len(pairs) // 2
            hit = [j for j in range(m) if pairs[j] == "beta" and pairs[m + j] == "alpha"]
            if hit:
                out["last lottery: position of the live pair"] = _tenth((hit[0] + rng.random()) / m)
    return out


def _tenth(u: float) -> int:
    return min(int(u * 10), 9)


TENTHS = {t: 0.1 for t in range(10)}


def _exact(rules: ClimbingRules, hand: list[Symbol], last: Play | None) -> dict[tuple[str, ...], float]:
    """The promised probability of each played set: 1 / (distinct plays x C(n_r, size))."""
    plays = rules.plays(hand, last)
    out: dict[tuple[str, ...], float] = {}
    for p in plays:
        same = sorted(c.name for c in hand if rules.strength(c) == p.strength)
        ways = math.comb(len(same), p.size)
        for combo in _combinations(same, p.size):
            out[tuple(combo)] = 1 / (len(plays) * ways)
    return out


def _combinations(items: list[str], k: int) -> list[list[str]]:
    import itertools

    return [list(c) for c in itertools.combinations(items, k)]


def verify_play_runs(
    library: Library, proto: Protocol, rules: ClimbingRules, runs: int, seed: int, players: int
) -> Report:
    """Statistical verification of a play selection spec on the full deck (see module docs)."""
    check_play_selection(proto)  # what the runs give the spec and read from it
    started = time.perf_counter()
    rng = random.Random(seed)
    deal_a, deal_b, single = _deals(rules, players, rng)
    cache = CallCache()
    situations = {"following a single": single, "leading": None}
    played: dict[str, Counter[tuple[str, ...]]] = {s: Counter() for s in situations}
    feats: dict[str, list[dict[str, Counter[Any]]]] = {s: [{}, {}] for s in situations}
    shuffles: set[int] = set()
    helpers: set[int] = set()
    try:
        for name, last in situations.items():
            for d, deal in enumerate((deal_a, deal_b)):
                for i in range(runs):
                    where = f"{name}: run {i + 1} of deal {'AB'[d]}"
                    run = run_play_selection(
                        library, rules, proto, [list(o) for o in deal], last, rng, cache, where
                    )
                    shuffles.add(run.shuffles)
                    helpers.add(run.helper_cards)
                    if d == 0:
                        played[name][tuple(sorted(c.name for c in run.played or []))] += 1
                    for key, value in _features(run.observations, "theta1", rng).items():
                        feats[name][d].setdefault(key, Counter())[value] += 1
    except CheckFailure as exc:
        checks = [
            Check("correct", False, f"a run broke a check: {exc.format_message()}"),
            Check("secure", False, "not checked: a run broke a check"),
        ]
        stats = empty_stats(time.perf_counter() - started)
        return Report(proto.name, proto.title, {}, "statistical", 2, checks, {}, [], stats, [], proto.source)
    glyphs = {c.name: c.glyph for o in deal_a for c in o}
    correct: list[TestResult] = []
    texts = []
    for name, last in situations.items():
        want = _exact(rules, deal_a[0], last)
        correct.append(goodness_of_fit(f"{name}: played set in deal A", played[name], want))
        by_play = Counter({_play_code(rules, k): 0 for k in want})  # every distinct play, equally likely
        for cards, n in played[name].items():
            by_play[_play_code(rules, cards)] += n
        plays = sorted(by_play)
        correct.append(
            goodness_of_fit(f"{name}: play in deal A", by_play, {p: 1 / len(plays) for p in plays})
        )
        texts.append(f"{name}: {len(plays)} distinct plays")
    worst = min(correct, key=lambda t: t.p)
    checks = [
        Check(
            "correct",
            all(t.ok for t in correct),
            "every run checked (a valid play or a pass exactly when there is none, all cards back, "
            f"helpers returned, the shuffles the steps call for); {'; '.join(texts)}; each equally "
            f"likely and its cards uniform: {len(correct)} chi-square tests, smallest p = {worst.p:.3f}",
            {
                "tests": [t.to_json() for t in correct],
                "played": {
                    name: {" ".join(glyphs[n] for n in k) or "pass": c for k, c in sorted(cnt.items())}
                    for name, cnt in played.items()
                },
            },
        )
    ]
    tests: list[TestResult] = []
    for name in situations:
        a_feats, b_feats = feats[name]
        for key in sorted(set(a_feats) | set(b_feats)):
            a, b = a_feats.get(key, Counter()), b_feats.get(key, Counter())
            tests.append(goodness_of_fit(f"{name}: {key}: deal A against uniform", a, TENTHS))
            tests.append(two_sample(f"{name}: {key}: deal A vs deal B", a, b))
    worst_s = min(tests, key=lambda t: t.p)
    checks.append(
        Check(
            "secure",
            all(t.ok for t in tests),
            f"{len(tests)} chi-square tests of view features, smallest p = {worst_s.p:.3f} ({worst_s.name})",
            {"tests": [t.to_json() for t in tests]},
        )
    )
    k = sum(len(o) for o in deal_a)
    resources: Resources = {
        "runs": 4 * runs,
        "cards": k,
        "shuffles": sorted(shuffles),
        "helper_cards": sorted(helpers),
    }
    stats = {
        "final_states": 0,
        "views": 0,
        "states_processed": 4 * runs,
        "peak_frontier": 1,
        "subprotocol_runs": len(cache.subruns),
        "seconds": round(time.perf_counter() - started, 3),
    }
    public = f"the last play: a single {rules.rank_name(single.strength)} (or P_1 leads)"
    notes = [
        f"statistical verification with {runs} runs per deal and situation, seed {seed}, on the full "
        f"{rules.name} deck with {players} players (k = {k} cards, k1 = {len(deal_a[0])}); {public}",
        f"deal A: P_1 holds {' '.join(c.glyph for c in deal_a[0])}; deal B: P_1 holds "
        f"{' '.join(c.glyph for c in deal_b[0])} (same public information)",
        "every run passed the checks: a valid play (or a pass exactly when there is none), every card "
        "back to its owner, no card created or lost, every helper card back in the supply, the shuffles "
        "the steps call for",
        f"a test fails when p < {ALPHA}; kitgen reference engine {VERSION}",
    ]
    scenario: Scenario = {
        "name": "full",
        "game": rules.name,
        "deal": [],
        "state": public,
        "doc": f"full {rules.name} deck, {players} players",
    }
    return Report(
        proto.name,
        proto.title,
        {"sizes": tuple(len(o) for o in deal_a)},
        "statistical",
        2,
        checks,
        resources,
        [],
        stats,
        notes,
        proto.source,
        scenario,
    )


def _play_code(rules: ClimbingRules, names: tuple[str, ...]) -> str:
    if not names:
        return "pass"
    cards = [rules.symbol(n) for n in names]
    return rules.describe(rules.play_of(cards))
