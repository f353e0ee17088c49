"""Whether a long card-level simulation stays within bounded memory: turns/s and max RSS, game by game.

Usage:  python bench/card_memory.py [--games 100] [--every 20] [--players 4] [--engine compiled]

Plays whole UNO games at card level (every seat virtual, the rule set's default protocol, as
``bench/uno_speed.py``'s ``card_game_turns_per_s``), seeds 0, 1, 2, ..., in one process, and
prints every ``--every`` games: the games and virtual turns so far, virtual turns per CPU second
(this process's user+sys time, so that a shared machine's load counts less than in wall time),
the process's maximum resident set size, and how many layouts are interned (alive). Memory that
keeps growing with the games, rather than levelling off, is a cache without a bound: 10,000
games must fit in the memory 100 do.

It records nothing: a check to run after changing a cache, not a figure of record.
"""

from __future__ import annotations

import argparse
import gc
import resource
import time

from reference_engine.kinds.shedding import Game, load_rules
from reference_engine.registry import Library
from reference_engine.selection import ENGINE
from reference_engine.table import Layout


def max_rss_mb() -> float:
    """The process's maximum resident set size so far, in MiB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="whole games to play")
    parser.add_argument("--every", type=int, default=20, help="print a line every this many games")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--engine", default="compiled", choices=["compiled", "interpreter"])
    args = parser.parse_args()
    rules = load_rules("uno")
    library = Library()
    ENGINE.set(args.engine)
    print(f"{'games':>6} {'turns':>7} {'turns/s':>8} {'max RSS MB':>10} {'layouts':>8}")
    turns = 0
    cpu = time.process_time()
    for seed in range(args.games):
        result = Game(
            rules, library, players=args.players, virtual=args.players, level="card", seed=seed
        ).play()
        assert result is not None
        turns += result.virtual_turns
        if (seed + 1) % args.every == 0 or seed + 1 == args.games:
            rate = turns / (time.process_time() - cpu)
            gc.collect()  # the layouts still alive, not those only cycles hold
            layouts = sum(ref() is not None for ref in Layout._interned.values())
            print(
                f"{seed + 1:6d} {turns:7d} {rate:8.1f} {max_rss_mb():10.1f} {layouts:8d}",
                flush=True,
            )


if __name__ == "__main__":
    main()
