"""Where a card-level virtual turn's time goes: milliseconds per turn, step by step.

Usage:  python bench/card_steps.py [--games 6] [--players 4] [--top 40] [--engine compiled]

Plays whole UNO games at card level (every seat virtual, the rule set's default protocol, as
``bench/uno_speed.py``'s ``card_game_turns_per_s``) and times every compiled step, callees'
steps included, by (protocol, nesting depth, step number, step kind). A step's time includes
the steps nested in it (a ``do`` includes its parts, a ``call`` its callee). Wall time of this
process (time.perf_counter): run it on an idle machine, or compare figures taken together. The
first line gives virtual turns per second with the timing in place (a little slower than
uno_speed.py's figure) and the share of a turn spent outside the protocol's steps (the game
itself, the run's set-up and its checks); the second, the time Python's cyclic garbage collector
took, in the steps and outside them (a run pauses it, so it mostly runs just after a run: it is
counted outside, though the steps made the objects it walks), and the process's CPU time.

It records nothing: it is a profile to decide what to make faster, not a figure of record.
"""

from __future__ import annotations

import argparse
import collections
import gc
import time
from collections.abc import Callable
from typing import Any

from reference_engine.compiled import ops, program
from reference_engine.compiled.run import after_step
from reference_engine.kinds.shedding import Game, load_rules
from reference_engine.machine.plans import check_shown
from reference_engine.registry import Library
from reference_engine.selection import ENGINE

Key = tuple[str, int, str, str]


def timed(
    spent: dict[Key, float],
    count: collections.Counter[Key],
    depth: list[int],
    clock: Callable[[], float] = time.perf_counter,
) -> Any:
    """A ``run_block`` doing what :func:`ops.run_block` does, timing each step with ``clock``
    (``depth[0]``: how many steps are being carried out now; bench/first_turns.py times in CPU
    seconds)."""

    def run_block(run: Any, block: Any) -> None:
        runner = run.runner
        for op, number, step in block:
            runner.current = number
            key = (run.frame.proto.name, depth[0], number or "-", step.kind)
            depth[0] += 1
            start = clock()
            try:
                op(run)
                if run.layout.shown:
                    check_shown(run.state())
                after_step(run, number)
            finally:
                depth[0] -= 1
            spent[key] = spent.get(key, 0.0) + clock() - start
            count[key] += 1

    return run_block


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="whole games to time (after one to warm up)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--top", type=int, default=40, help="steps to print, costliest first")
    parser.add_argument("--engine", default="compiled", choices=["compiled", "interpreter"])
    args = parser.parse_args()
    rules = load_rules("uno")
    library = Library()
    ENGINE.set(args.engine)
    Game(rules, library, players=args.players, virtual=args.players, level="card", seed=10_000).play()
    spent: dict[Key, float] = {}
    count: collections.Counter[Key] = collections.Counter()
    depth = [0]
    ops.run_block = timed(spent, count, depth)
    program.run_block = ops.run_block  # type: ignore[attr-defined]  # the name the program calls
    collector = [0.0, 0.0, 0.0]  # seconds in the steps, outside them; when the running one began

    def clock(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            collector[2] = time.perf_counter()
        else:
            collector[0 if depth[0] else 1] += time.perf_counter() - collector[2]

    gc.callbacks.append(clock)
    turns = 0
    cpu = time.process_time()
    start = time.perf_counter()
    for seed in range(args.games):
        result = Game(
            rules, library, players=args.players, virtual=args.players, level="card", seed=seed
        ).play()
        assert result is not None
        turns += result.virtual_turns
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu
    gc.callbacks.remove(clock)
    top_level = sum(v for k, v in spent.items() if k[1] == 0)
    print(
        f"{turns} virtual turns in {elapsed:.2f} s: {turns / elapsed:.1f} turns/s, "
        f"{1000 * elapsed / turns:.3f} ms a turn, of which {1000 * top_level / turns:.3f} ms in the "
        f"protocol's steps and {1000 * (elapsed - top_level) / turns:.3f} ms outside them"
    )
    print(
        f"cyclic garbage collector: {1000 * (collector[0] + collector[1]) / turns:.3f} ms a turn "
        f"({1000 * collector[0] / turns:.3f} in the steps, {1000 * collector[1] / turns:.3f} outside them); "
        f"process CPU {1000 * cpu / turns:.3f} ms a turn"
    )
    print(f"{'ms/turn':>8} {'runs/turn':>9}  protocol, depth, step, kind")
    for key, secs in sorted(spent.items(), key=lambda kv: -kv[1])[: args.top]:
        print(f"{1000 * secs / turns:8.3f} {count[key] / turns:9.2f}  {key[0]}, {key[1]}, {key[2]}, {key[3]}")


if __name__ == "__main__":
    main()
