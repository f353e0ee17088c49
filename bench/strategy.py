"""What a weighted virtual player does to the game: its win rate against a uniform one.

Usage:  python bench/strategy.py [--games 4000] [--seed 0] [--json]

Rule-level games of UNO (the paper's rules, rule set ``uno``) and Crazy Eights in which one
virtual player follows public weights (``--strategy weighted``) and another chooses uniformly
among its valid cards (the paper's virtual player). Two tables:

* ``heads-up``: two players, both virtual: the weighted player against the uniform one;
* ``four``: four players, the two virtual players (weighted and uniform) and two human seats
  playing the fixed policy of ``kitgen play`` (keep wild cards, play the card worth most).

In every pair of games the seats swap roles on the same deal (the same seed), so neither the
deal nor the seat order favours a strategy. Each weight setting is one row: the weighted and
the uniform player's win rates with a 95% Wilson interval, the difference and a two-sided
p-value (a paired test on the pairs of games: the sign test on the pairs the two strategies
split), and the games per second.

``--json`` prints one JSON object on the last line: ``settings`` (the arguments) and ``rows``
(game, table, weights, games, weighted_wins, uniform_wins, weighted_rate, uniform_rate,
weighted_ci, uniform_ci, difference, p, seconds).
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import time
from typing import Any

from reference_engine.kinds.shedding import Game, load_rules
from reference_engine.kinds.strategy import Strategy, Weights
from reference_engine.registry import Library

SETTINGS = {
    "uno": [
        "action=3,number=1,wild=1",  # the example: action cards first
        "action=3,number=3,wild=1",  # keep the wild cards for last
        "action=9,number=3,wild=1",  # action cards first, wild cards last
        "number=9",  # keep the action cards
        "wild=9",  # throw the wild cards away early
    ],
    "crazy-eights": ["number=9", "wild=9"],  # keep the eights; throw them away early
}
TABLES = {"heads-up": (2, 2), "four": (4, 2)}  # (players, virtual players)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (round(centre - half, 4), round(centre + half, 4))


def sign_test(a: int, b: int) -> float:
    """Two-sided p-value of a split of ``a + b`` decided pairs into ``a`` and ``b`` under 1/2."""
    n = a + b
    if n == 0:
        return 1.0
    k = min(a, b)
    # The normal approximation with continuity correction is exact enough past a few dozen pairs.
    if n > 60:
        z = (abs(a - b) - 1) / math.sqrt(n)
        return min(1.0, math.erfc(max(z, 0.0) / math.sqrt(2)))
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def row(game: str, table: str, weights: str, games: int, seed: int, library: Library) -> dict[str, Any]:
    rules = load_rules(game)
    players, virtual = TABLES[table]
    strategy = Strategy("weighted", Weights.parse(weights))
    wins = {"weighted": 0, "uniform": 0}
    split = {"weighted": 0, "uniform": 0}  # pairs where only one strategy won
    start = time.process_time()
    pairs = games // 2
    for i in range(pairs):
        won = {}
        for weighted_seat in (1, 2):
            game_ = Game(
                rules,
                library,
                players=players,
                virtual=virtual,
                level="rule",
                seed=seed + i,
                hands=1,
                strategy=strategy,
                weighted_seats={weighted_seat},
            )
            winner = game_.play().to_json()["winner"]
            uniform_seat = 3 - weighted_seat
            won[weighted_seat] = (winner == weighted_seat, winner == uniform_seat)
        for w_won, u_won in won.values():
            wins["weighted"] += w_won
            wins["uniform"] += u_won
        w_pair = sum(w for w, _ in won.values())
        u_pair = sum(u for _, u in won.values())
        if w_pair > u_pair:
            split["weighted"] += 1
        elif u_pair > w_pair:
            split["uniform"] += 1
    seconds = time.process_time() - start
    n = 2 * pairs
    return {
        "game": game,
        "table": table,
        "players": players,
        "weights": weights,
        "games": n,
        "weighted_wins": wins["weighted"],
        "uniform_wins": wins["uniform"],
        "weighted_rate": round(wins["weighted"] / n, 4),
        "uniform_rate": round(wins["uniform"] / n, 4),
        "weighted_ci": wilson(wins["weighted"], n),
        "uniform_ci": wilson(wins["uniform"], n),
        "difference": round((wins["weighted"] - wins["uniform"]) / n, 4),
        "p": round(sign_test(split["weighted"], split["uniform"]), 5),
        "games_per_s": round(n / seconds, 1) if seconds > 0 else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000, help="games per row (pairs of games on one deal)")
    parser.add_argument("--seed", type=int, default=0, help="the first deal's seed")
    parser.add_argument("--json", action="store_true", help="print one JSON object on the last line")
    args = parser.parse_args()
    if args.games < 2:
        parser.error("--games must be at least 2")
    library = Library()
    rows = []
    for game, settings in SETTINGS.items():
        for table in TABLES:
            for weights in settings:
                r = row(game, table, weights, args.games, args.seed, library)
                rows.append(r)
                if not args.json:
                    print(
                        f"{game:13} {table:8} {weights:26} weighted {r['weighted_rate']:.3f} "
                        f"{tuple(r['weighted_ci'])}  uniform {r['uniform_rate']:.3f} "
                        f"{tuple(r['uniform_ci'])}  "
                        f"difference {r['difference']:+.3f}  p = {r['p']:.4f}  ({r['games']} games, "
                        f"{r['games_per_s']} games/s)",
                        flush=True,
                    )
    settings = {"games": args.games, "seed": args.seed, "python": platform.python_version()}
    if args.json:
        print(json.dumps({"settings": settings, "rows": rows}))


if __name__ == "__main__":
    main()
