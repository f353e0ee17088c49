"""Where the one-time costs of a process's first card-level turns go, step by step.

Usage:  python bench/first_turns.py [--turns 1000] [--top 30] [--fresh-libraries 0]

Plays whole UNO games at card level (every seat virtual, the rule set's default protocol, as
``bench/uno_speed.py``'s ``card_game_turns_per_s``) on a fresh library for at least ``--turns``
virtual turns, then the very same games (the same seeds) again on the same library, and times
every compiled step of both passes (CPU seconds of this process, time.process_time, as
``bench/card_steps.py`` does per step). The second pass pays none of the one-time costs (the
first plan of each new table shape, the first enumeration of each small lottery, compiling the
protocol), so the difference, step by step, is what the first pass paid once; the first line
gives both passes and what was spent outside the protocol's steps (the game, the run's set-up,
its checks, a law read from the cache). Timing each step inflates both passes alike.

``--fresh-libraries N`` plays N games the way a script calling ``reference_engine.api.play``
without a library does (a fresh ``Library()`` each; a compiled program is shared between
libraries, compiled/program.py ``shares``: the first game compiles it, the others take it),
after the passes, and prints their CPU seconds.

It records nothing: it is a profile to decide what to make faster, not a figure of record.
"""

from __future__ import annotations

import argparse
import collections
import time
from typing import Any

from card_steps import Key, timed  # bench/ is this script's folder, first on sys.path

from reference_engine.api import play
from reference_engine.compiled import ops, program
from reference_engine.kinds.kind import PlaySettings
from reference_engine.kinds.shedding import Game, load_rules
from reference_engine.registry import Library
from reference_engine.selection import ENGINE


def one_pass(rules: Any, library: Library, turns: int) -> tuple[float, int, dict[Key, float]]:
    """CPU seconds, virtual turns and seconds by step of the games of seeds 0, 1, ... until at
    least ``turns`` virtual turns are played."""
    spent: dict[Key, float] = {}
    ops.run_block = timed(spent, collections.Counter(), [0], clock=time.process_time)
    program.run_block = ops.run_block  # type: ignore[attr-defined]  # the name the program calls
    played = seed = 0
    start = time.process_time()
    while played < turns:
        result = Game(rules, library, players=4, virtual=4, level="card", seed=seed).play()
        assert result is not None
        played += result.virtual_turns
        seed += 1
    return time.process_time() - start, played, spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=1000, help="virtual turns of the first pass (at least)")
    parser.add_argument("--top", type=int, default=30, help="steps to print, most one-time cost first")
    parser.add_argument(
        "--fresh-libraries", type=int, default=0, metavar="N", help="also N games via api.play"
    )
    args = parser.parse_args()
    real = ops.run_block
    rules = load_rules("uno")
    library = Library()
    ENGINE.set("compiled")
    first, turns, a = one_pass(rules, library, args.turns)
    again, _, b = one_pass(rules, library, args.turns)
    ops.run_block = real
    program.run_block = real  # type: ignore[attr-defined]
    steps = sum(v for k, v in a.items() if k[1] == 0) - sum(v for k, v in b.items() if k[1] == 0)
    print(
        f"{turns} virtual turns: first pass {first:.3f} CPU s, the same games again {again:.3f} s; "
        f"one-time {first - again:.3f} s, of which {steps:.3f} s in the protocol's steps "
        f"and {first - again - steps:.3f} s outside them"
    )
    print(f"{'one-time':>8} {'first':>7} {'again':>7}  protocol, depth, step, kind (CPU s)")
    rows = sorted(((a.get(k, 0.0) - b.get(k, 0.0), k) for k in set(a) | set(b)), reverse=True)
    for extra, key in rows[: args.top]:
        print(f"{extra:8.3f} {a.get(key, 0.0):7.3f} {b.get(key, 0.0):7.3f}  {', '.join(map(str, key))}")
    if args.fresh_libraries:
        program.unshare()  # the first of them compiles afresh, as in a process of its own
        start = time.process_time()
        for seed in range(args.fresh_libraries):
            play("uno", None, PlaySettings(players=4, virtual=4, level="card", seed=seed, engine="compiled"))
        cpu = time.process_time() - start
        print(f"{args.fresh_libraries} games via api.play, a fresh library each: {cpu:.2f} CPU s")


if __name__ == "__main__":
    main()
