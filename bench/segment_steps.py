"""card-selection-arrow's steps 1-9 as one kept chain (compiled/segments.py) against the same steps
one by one, in one process, CPU time.

Usage:  python bench/segment_steps.py [--games 3] [--trials 6]

Plays whole UNO games at card level (every seat virtual, as ``bench/card_steps.py``) and keeps
the table at the start of each run's segment (the first ~200 runs): its layout, cards, counters,
view, variables and the generator's state. Each is then run again from there, through the
segment and through its steps one by one (``run_block`` of the segment's own steps), alternating,
each the best of three CPU times (``time.process_time``), and both must end with the same table
and generator. The chains are warm (every start met before), as in a long simulation: a figure
of the steps' own work, not of a game's first meetings of each layout.

It records nothing: a profile to compare the two ways, not a figure of record.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from reference_engine.compiled import ops, program
from reference_engine.compiled.run import Run
from reference_engine.compiled.segments import Segment
from reference_engine.kinds.shedding import Game, load_rules
from reference_engine.registry import Library
from reference_engine.selection import ENGINE
from reference_engine.table import SLEEVES

Start = tuple[Any, ...]


def starts(games: int, most: int = 200) -> list[Start]:
    """The tables at the start of card-selection-arrow's segment, with its block."""
    rules = load_rules("uno")
    library = Library()
    ENGINE.set("compiled")
    found: list[Start] = []
    plain = ops.run_block

    def run_block(run: Any, block: Any) -> None:
        first = block[0][0] if block else None
        wanted = run.frame.proto.name == "card-selection-arrow" and len(found) < most
        if isinstance(first, Segment) and wanted:
            rng = run.runner.rng
            found.append(
                (run.runner, run.frame, run.layout, list(run.cells), run.out, run.env, run.meters, run.view)
                + (rng.getstate(), run.fev, first)
            )
        plain(run, block)

    ops.run_block = run_block
    program.run_block = run_block  # type: ignore[attr-defined]  # the name the program calls
    try:
        for seed in range(games):
            Game(rules, library, players=4, virtual=4, level="card", seed=seed).play()
    finally:
        ops.run_block = plain
        program.run_block = plain  # type: ignore[attr-defined]
    return found


def once(start: Start, chain: bool) -> tuple[float, Any]:
    """One run of the segment (``chain``) or of its steps one by one from ``start``: its CPU
    seconds and how it ends."""
    runner, frame, layout, cells, out, env, meters, view, rng, fev, seg = start
    runner.rng.setstate(rng)
    run = Run.__new__(Run)
    run.runner, run.shared, run.views, run.frame = runner, runner.shared, runner.views, frame
    run.ev = runner.evaluator(frame)
    run.layout, run.cells, run.out, run.env = layout, list(cells), out, env
    run.meters, run.view, run.fev = meters, view, fev
    run._vars, run._vars_of = {}, None
    fev.run = run
    token = SLEEVES.set(frame.proto.sleeves)
    try:
        t = time.process_time()
        if chain:
            seg(run)
        else:
            ops.run_block(run, seg.entries[:-1])
            runner.current = seg.entries[-1][1]
            seg.entries[-1][0](run)
        spent = time.process_time() - t
    finally:
        SLEEVES.reset(token)
    return spent, (run.layout, run.cells, run.out, run.env, run.meters, run.view, runner.rng.getstate())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="whole games whose runs are kept")
    parser.add_argument("--trials", type=int, default=6, help="rounds over every kept start")
    args = parser.parse_args()
    found = starts(args.games)
    spent = {True: 0.0, False: 0.0}
    for _ in range(args.trials):
        for start in found:
            ends = {}
            for chain in (True, False):
                best, end = min((once(start, chain) for _ in range(3)), key=lambda t: t[0])
                spent[chain] += best
                ends[chain] = end
            assert ends[True] == ends[False], "the chain and the steps one by one end differently"
    n = args.trials * len(found)
    chain, steps = 1000 * spent[True] / n, 1000 * spent[False] / n
    print(
        f"{len(found)} runs of card-selection-arrow's steps 1-9, {args.trials} rounds, best of 3, CPU: "
        f"as one chain {chain:.4f} ms, step by step {steps:.4f} ms ({chain / steps:.2f}x)"
    )


if __name__ == "__main__":
    main()
