"""Mutated specs through every command: no traceback, no hang, the right exit code, nothing left behind.

Usage:  python bench/badinput.py --mutants N [--seed S] [--jobs J] [--base NAME ...] [--json]

Draws N mutants of the shipped protocol specs (tests/kitgen/mutants.py: deleted keys and
actions, changed types, out-of-range indices, huge and negative numbers, unknown steps,
duplicates, unicode, empty and binary files, very long strings, truncated YAML, range bombs,
a name that differs from the file's, deep nesting; the classes in turn), writes each into a
fresh folder, loads it alone (``Library().protocol(file)``, "the loader"), and runs every
command that takes a spec file on it, in one driver process per mutant (kitgen's ``main``
through click's test runner, as the ``kitgen`` script calls it), each command with its own
TMPDIR: ``verify``, ``simulate`` (with the shipped spec's worked example), ``booklet``,
``view``, and for card selection and Gakmoro round specs ``build`` and ``play`` of a game that
runs them (uno-small, hearts, gakmoro). ``--jobs`` mutants run at a time (default 2); the same
seed gives the same mutants.

It counts, over every command run ("tried"):

* **tracebacks**: an exception that escaped the command, or output containing ``Traceback
  (most recent call last)`` (a verification worker's included);
* **hangs**: a command that used more than 20 s of CPU time, its verification workers included,
  and more than 3 times what the same command takes on the unchanged shipped spec on the same
  machine (measured once, with an empty cache: Gakmoro's full-size verification alone takes
  about 20 s on a slow machine); a command is stopped at 120 s. Or a driver still running after
  6 x 20 s per command on the clock (killed with its workers; the machine this is measured on
  is shared, so the clock is not the measure);
* **leftovers**: a command that left a file in its TMPDIR, beside the spec, in the output
  folder other than the folder it was asked to write, an output folder although it failed,
  or a temporary file in the verification cache;
* **wrong exit codes**, one for each of these that happens:
  1. an exit code other than 0, 1 or 2 (a crash, a signal);
  2. a spec the loader refuses (exit 2: a YAML, schema, name, size or call problem) must give
     2 in every command;
  3. a spec that loads but fails a check of ``verify`` (exit 1) must not be printed: ``booklet``
     and ``build`` exit 1 (or 2), never 0;
  4. a spec that ``verify`` passes (0) must not be refused by ``booklet`` or ``build`` as
     failing a check (1);
  5. a spec that ``verify`` refuses as broken (exit 2 with a spec, load or run error, not a
     size limit of the options) must not succeed in any other command: ``simulate``, ``view``,
     ``booklet``, ``build`` and ``play`` exit non-zero.

Prints a line per mutant with a problem, then the figures; with ``--json`` one object:
``{"seed", "mutants", "tried", "tracebacks", "wrong_exit_codes", "hangs", "leftovers",
"slowest_seconds", "seconds", "classes", "problems"}``. Exit code 0 when every count is 0.

``--attacks`` also runs the attacks on files and options of issue 38 (tests/kitgen/attacks.py:
``play --record`` over a user's file, a FIFO, a socket, a device, a link or a folder; forged,
linked, FIFO and huge ``.kitgen-kit`` markers, an edited kit file, a kit folder's ``previews``
linking out of it; a FIFO, a device, a folder, a 2 MB file and a YAML list as ``--table-time``,
a spec, a rule set, a protocol or a record; repeated and absurd ``--weights``; impossible
deals), each judged on its exit code, its one-line message, every file of its folder unchanged
but what it may write, nothing left behind and an answer within 60 s; the figures go under
``"attacks"`` (``attacks``, ``handled``, ``hangs``, ``slowest_seconds``, ``problems``).
``--mutants 0 --attacks`` runs only them (a few seconds).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "kitgen"))

import attacks  # noqa: E402
import mutants  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutants", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2, help="mutants at a time (default 2)")
    parser.add_argument("--base", action="append", default=None, help="mutate only this shipped spec")
    parser.add_argument("--first", type=int, default=0, help="start at this mutant index")
    parser.add_argument("--attacks", action="store_true", help="also the file and option attacks (issue 38)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    bases = tuple(args.base) if args.base else mutants.BASES
    drawn = [mutants.mutant(args.seed, i, bases) for i in range(args.first, args.first + args.mutants)]
    sim = {b: mutants.simulate_args(b) for b in sorted({m.base for m in drawn})}
    work = mutants.temporary_work()
    cache = work / "cache"
    started = time.perf_counter()
    verdicts = []
    try:
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            jobs = [pool.submit(mutants.run_mutant, m, work, cache, sim[m.base]) for m in drawn]
            for job in jobs:
                verdict = job.result()
                verdicts.append(verdict)
                for problem in verdict.problems():
                    print(f"{verdict.mutant.label[:160]}\n    {problem}", file=sys.stderr, flush=True)
                if not args.json and len(verdicts) % 10 == 0:
                    print(f"  {len(verdicts)}/{len(drawn)} mutants", file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    figures = mutants.summary(verdicts)
    figures = {"seed": args.seed, **figures, "seconds": round(time.perf_counter() - started, 1)}
    classes = Counter(v.mutant.kind for v in verdicts)
    problems = [{"mutant": v.mutant.label, "problems": v.problems()} for v in verdicts if v.problems()]
    attacked = attacks.summary(attacks.run()) if args.attacks else None
    if attacked is not None:
        for problem in attacked["problems"]:
            print(f"{problem['attack']}\n    {'; '.join(problem['problems'])}", file=sys.stderr, flush=True)
    if args.json:
        data = {**figures, "classes": dict(sorted(classes.items())), "problems": problems}
        if attacked is not None:
            data["attacks"] = attacked
        print(json.dumps(data, indent=2))
    else:
        for key, value in figures.items():
            print(f"{key:>18}: {value}")
        if attacked is not None:
            labels = {"attacks": "attacks", "handled": "handled", "hangs": "attack hangs"}
            labels["slowest_seconds"] = "slowest attack s"
            for key, label in labels.items():
                print(f"{label:>18}: {attacked[key]}")
    bad = figures["tracebacks"] + figures["wrong_exit_codes"] + figures["hangs"] + figures["leftovers"]
    if attacked is not None:
        bad += len(attacked["problems"])
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
