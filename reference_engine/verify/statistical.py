"""Statistical verification of the card selection protocol on a game's full deck.

Exact verification enumerates every deal, which only a reduced deck allows. On the full
table the engine instead runs the protocol many times (every run is checked: valid
card, cards back to their owners, no card lost, helpers returned, paper's counts) and
tests, with chi-square tests:

* **uniformity**: in deal A, the played card is uniform among P_1's valid cards;
* **independence**: deals A and B have the same public information (hand sizes, the public
  state of the game) but different hands; every feature of the view has the same
  distribution in both, and matches its theoretical distribution where that is known.

The game's kind supplies the two deals (:meth:`reference_engine.kinds.GameKind.two_deals`).
A test fails when its p-value is below ``ALPHA``.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

from .. import progress
from ..cards import symbol_of
from ..errors import CheckFailure, UsageError, VerificationError
from ..registry import Library
from ..report import VERSION, Check, Expectation, Report, Resources, Scenario, Stats, empty_stats
from ..selection import CallCache, check_selection, run_selection
from ..spec import Protocol
from ..statistics import ALPHA, goodness_of_fit, two_sample

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


def refuse_players(proto: Protocol) -> None:
    """A spec that seats people (``players``) is refused, naming its ``players`` line: the runs
    test features of the table's view, between two deals with the same public information. What
    a person sees of their own hands would have to be compared between deals that agree on what
    that person knows, with features of that person's view; these runs draw no such deals, so a
    VERIFIED would say nothing about the people. The exact check (``--deck``) checks each one."""
    if not proto.people():
        return
    names = ", ".join(p.name for p in proto.people())
    why = (
        f"{proto.name} seats people ({names}): the statistical check («runs») compares features of "
        "the table's view between two deals with the same public information, and cannot check what "
        "each person sees of their own hands given what they know; verify it exactly instead («deck» "
        "SCENARIO), which checks every person's view"
    )
    raise VerificationError(str(proto.src.problem(("players",), why)))


def _failed(proto: Protocol, exc: CheckFailure, seconds: float) -> Report:
    checks = [
        Check("correct", False, f"a run broke a check: {exc.format_message()}"),
        Check("secure", False, "not checked: a run broke a check"),
    ]
    stats = empty_stats(seconds)
    return Report(proto.name, proto.title, {}, "statistical", 2, checks, {}, [], stats, [], proto.source)


def _strategy_setting(
    proto: Protocol, kind: Any, rules: Any, game: str, weights: Any
) -> tuple[dict[str, Any], dict[str, Any]]:
    """For a protocol that takes weights (``weight``): the given weights (a kit's), else those and
    ``w`` of its first scenario of this game, bound by the game's kind."""
    if "weight" not in proto.context:
        if weights is not None:
            raise UsageError(f"{proto.name} takes no weights (it has no game function 'weight')")
        return {}, {}
    if weights is not None:
        return {"weight": kind.weight_function(rules, weights)}, {"w": weights.largest}
    for sc in proto.scenarios.values():
        if sc.game == game and "weights" in sc.state:

            def problem(path: tuple[str | int, ...], message: str, sc: Any = sc) -> Exception:
                return UsageError(f"{proto.name}: scenario {sc.name}: {message}")

            bound = kind.scenario(rules, sc.state, sc.deal, problem)
            return {"weight": bound.context["weight"]}, {k: v for k, v in sc.params.items() if k == "w"}
    raise UsageError(f"{proto.name} takes weights, but none of its scenarios of {game} gives them")


def verify_runs(
    library: Library,
    proto: Protocol,
    runs: int,
    seed: int = 0,
    game: str | None = None,
    players: int = 4,
    weights: Any = None,
) -> Report:
    """Statistical verification of a card selection spec on the full deck (see module docs)."""
    started = time.perf_counter()
    refuse_players(proto)
    from ..kinds import find_kind, kind_name, load_game

    game = game or next((s.game for s in proto.scenarios.values()), None)
    if game is None:
        raise UsageError(f"{proto.name} names no game to check it on (its scenarios name none)")
    rules = load_game(game)
    rng = random.Random(seed)
    kind = find_kind(kind_name(game))
    own = kind.verify_runs(library, proto, rules, runs, seed, players)
    if own is not None:
        if weights is not None:
            raise UsageError(f"{proto.name} takes no weights")
        assert isinstance(own, Report)
        return own
    check_selection(proto)  # what the runs give the spec and read from it
    deal_a, deal_b, valid = kind.two_deals(rules, players, rng)
    context, params = _strategy_setting(proto, kind, rules, game, weights)
    weight = context.get("weight")
    tickets = int(params.get("w", 1))  # lottery tickets per card (the weighted selection's w)
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
                progress.report(f"checking {proto.name} statistically", d * runs + i, 2 * runs, "runs")
                run = run_selection(
                    library,
                    proto,
                    [list(o) for o in deal.owners],
                    valid,
                    rng,
                    cache,
                    f"run {i + 1} of deal {'AB'[d]}",
                    check_counts=False,
                    context=context or None,
                    params=params or None,
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
    valid_cards: Counter[str] = Counter()
    for c in deal_a.owners[0]:
        if valid(c):
            valid_cards[c.name] += weight(c) if weight is not None else 1
    total = sum(valid_cards.values())
    uni = goodness_of_fit("played card in deal A", played, {n: c / total for n, c in valid_cards.items()})
    glyphs = {c.name: c.glyph for o in deal_a.owners for c in o}
    law = (
        "uniform among"
        if weight is None
        else "weighted ("
        + ", ".join(f"{glyphs[n]}: {valid_cards[n]}/{total}" for n in sorted(valid_cards))
        + ") among"
    )
    checks.append(
        Check(
            "correct",
            uni.ok,
            f"every run checked (valid card played, all cards back, helpers returned) and the played "
            f"card is {law} {', '.join(glyphs[n] for n in sorted(valid_cards))}: "
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
                m = tickets * k1  # the lottery's piles: one per ticket
                expected = {j: 1 / m for j in range(m)}
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
    resources: Resources = {
        "runs": 2 * runs,
        "cards": k,
        "shuffles": sorted(shuffles),
        "helper_cards": sorted(helpers),
    }
    expect: list[Expectation] = []
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
    stats: Stats = {
        "final_states": 0,
        "views": 0,
        "states_processed": 2 * runs,
        "peak_frontier": 1,
        "subprotocol_runs": len(cache.subruns),
        "seconds": round(time.perf_counter() - started, 3),
    }
    notes = [
        f"statistical verification with {runs} runs per deal, seed {seed}, on the full {rules.name} deck "
        f"with {players} players (k = {k} cards, k1 = {k1}); {deal_a.public}",
        f"deal A: {deal_a.describe()}; deal B: {deal_b.describe()} (same public information)",
        "every run passed the checks: valid card (or none exactly when no card is valid), every card back "
        "to its owner, no card created or lost, every helper card back in the supply",
        f"a test fails when p < {ALPHA}; kitgen reference engine {VERSION}",
    ]
    scenario: Scenario = {
        "name": "full",
        "game": rules.name,
        "deal": [],
        "state": deal_a.public,
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
