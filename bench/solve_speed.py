"""Solitaire UNO solve time against the number of cards, for each method and a naive search.

    python bench/solve_speed.py [--per-size 10] [--limit 10] [--seed 1]

Random instances: every card's colour uniform in 1..4 and number in 0..9 (our deck's 4 colours
x 10 numbers), ``--per-size`` instances per number of cards. Each method (the trail search
``search``, the programme ``dp``, the card-by-card search ``cards``, and a naive search that
tries every unused matching card in turn with no memory and no pruning) runs on the same
instances, each instance with a time limit of ``--limit`` seconds; a method is dropped after
the first size where its slowest instance takes longer than that. The sizes grow until every
method is dropped or 10,000 cards (the command line's limit). Prints one line per size: the
median and the slowest time of each method, and how many instances were playable.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from reference_engine.hardness import Card, OutOfTime, solve_solitaire

SIZES = [5, 10, 15, 20, 25, 30, 40, 50, 60, 80, 100, 150, 200, 300, 500, 1000, 2000, 5000, 10000]
METHODS = ("search", "dp", "cards", "naive")


def naive(cards: list[Card], limit: float) -> bool | None:
    """Depth-first over card orders, every matching unused card in turn; None past ``limit``."""
    deadline = time.perf_counter() + limit
    n = len(cards)
    used = [False] * n
    stack: list[tuple[int, int]] = []  # (card index placed, next index to try after it)
    start = 0
    steps = 0
    while True:
        steps += 1
        if steps % 4096 == 0 and time.perf_counter() > deadline:
            return None
        if len(stack) == n:
            return True
        last = cards[stack[-1][0]] if stack else None
        placed = False
        for i in range(start, n):
            if not used[i] and (last is None or cards[i].matches(last)):
                used[i] = True
                stack.append((i, i + 1))
                start = 0
                placed = True
                break
        if placed:
            continue
        if not stack:
            return False
        i, start = stack.pop()
        used[i] = False


def timed(method: str, cards: list[Card], limit: float) -> tuple[float, bool | None]:
    begin = time.perf_counter()
    if method == "naive":
        answer = naive(cards, limit)
    else:
        try:
            answer = solve_solitaire(cards, method, time_limit=limit).playable
        except OutOfTime:
            answer = None
    return time.perf_counter() - begin, answer


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--per-size", type=int, default=10)
    parser.add_argument("--limit", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    alive = list(METHODS)
    print(
        f"solitaire UNO, random cards of 4 colours x 10 numbers, {args.per_size} instances per size, "
        f"limit {args.limit:g} s per instance"
    )
    print("cards  " + "  ".join(f"{m:>22}" for m in METHODS) + "  playable")
    print("       " + "  ".join(f"{'median / slowest (s)':>22}" for _ in METHODS))
    for n in SIZES:
        if not alive:
            break
        rng = random.Random(args.seed * 100003 + n)
        instances = [
            [Card(rng.randint(1, 4), rng.randint(0, 9)) for _ in range(n)] for _ in range(args.per_size)
        ]
        cells = []
        playable: set[int] = set()
        for method in METHODS:
            if method not in alive:
                cells.append(f"{'-':>22}")
                continue
            times = []
            answers = []
            for cards in instances:
                seconds, answer = timed(method, cards, args.limit)
                times.append(seconds)
                answers.append(answer)
            slowest = max(times)
            over = slowest > args.limit or None in answers
            if not over:
                playable.add(sum(bool(a) for a in answers))
            cells.append(f"{statistics.median(times):>10.4f} / {slowest:>8.3f}{'+' if over else ' '}")
            if over:
                alive.remove(method)
        agreed = "/".join(str(p) for p in sorted(playable)) if len(playable) == 1 else f"DISAGREE {playable}"
        print(f"{n:>5}  " + "  ".join(cells) + f"  {agreed}")
        sys.stdout.flush()
    print("+: past the limit on some instance; the method is not run on larger sizes")


if __name__ == "__main__":
    main()
