"""Differential fuzzing of the exact verifier against the naive enumerator, for a long run.

Usage:  python bench/fuzz_verify.py --examples N [--seed S] [--minutes M] [--save DIR] [--known]
                                    [--simulate RUNS]

Draws N random protocol libraries (tests/reference_engine/specgen.py), verifies each with
the engine and with tests/reference_engine/enumerator.py, and compares the verdicts
(correct, secure, tidy), the output distributions and "some run cannot be carried out"
(the same property as tests/reference_engine/test_fuzz.py). Without --seed the draws are
derandomized (the same N examples every time, like CI); --seed S draws others. --known also
draws the constructs of the engine issues still open in fuzz_regressions/ (test_fuzz.KNOWN;
they are avoided by default so that a run finds new ones). --minutes M bounds the run: the
examples are drawn in batches of at most 500 (batch k seeded S+k, or k without --seed) and
no batch starts after M minutes; an example drawn after them is not run (and not counted).

With --simulate RUNS each example is also run RUNS times per input through ``simulate``
(seeded single runs, as `kitgen simulate`), and every outcome (what the table saw, and the
outputs) is checked against the exact law: possible at all, and counts that fit it
(chi-square; tests/reference_engine/test_simulate.py does the same in the suite).

Prints a progress line, then the examples run, how many had each verdict combination,
the time, and every disagreement; with --save DIR each disagreement's spec files go to
DIR/<number>/ with a summary.txt saying what differed. The generated specs draw hands
(``return``, moves and call results onto a hand, hands handed back by a callee), public
outputs of several cards (shown in order or ``mixed``), ``players`` who know inputs and hold
hands (and virtual ones), and ``admissible`` sets (some admitting nothing: refused).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "reference_engine"))

import differential  # noqa: E402
import specgen  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import seed as hypothesis_seed  # noqa: E402
from test_fuzz import KNOWN  # noqa: E402

from reference_engine.registry import Library  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--save", type=Path, default=None, help="folder for the specs of every disagreement")
    parser.add_argument("--known", action="store_true", help="draw known engine issues too")
    parser.add_argument("--minutes", type=float, default=None, help="stop drawing examples after this long")
    parser.add_argument(
        "--simulate", type=int, default=0, metavar="RUNS", help="also check RUNS single runs per input"
    )
    args = parser.parse_args()
    specgen.avoid_known(set() if args.known else KNOWN)

    mix: Counter[str] = Counter()
    features: Counter[str] = Counter()
    found: list[tuple[str, specgen.GeneratedLibrary]] = []
    simulated = Counter[str]()
    started = time.perf_counter()
    deadline = None if args.minutes is None else started + 60 * args.minutes

    def out_of_time() -> bool:
        return deadline is not None and time.perf_counter() >= deadline

    def run(generated: specgen.GeneratedLibrary) -> None:
        if out_of_time() or sum(mix.values()) >= args.examples:
            return
        with tempfile.TemporaryDirectory(prefix="kitgen-fuzz-") as tmp:
            generated.write(Path(tmp))
            result = differential.compare_folder(Path(tmp), generated.main)
            if args.simulate and result.engine.status == "verdicts":
                law = differential.compare_simulation(Library([Path(tmp)]), generated.main, args.simulate)
                simulated["specs"] += 0 if law.skipped else 1
                simulated["runs"] += law.runs
                if not law.agree:
                    simulated["disagreements"] += 1
                    found.append(("simulate against exact: " + "; ".join(law.differences), generated))
        label = "skipped (unsupported)" if result.skipped else result.mine.label()
        mix[label] += 1
        features.update(generated.features)
        if not result.skipped and not result.agree:
            found.append((result.summary(), generated))
            if args.save is not None:
                folder = args.save / f"{len(found):03d}"
                generated.write(folder)
                (folder / "summary.txt").write_text(result.summary() + "\n", encoding="utf-8")
        done = sum(mix.values())
        if done % 50 == 0 or done == args.examples:
            rate = done / (time.perf_counter() - started)
            print(
                f"\r{done}/{args.examples} examples, {len(found)} disagreements, {rate:.1f} examples/s",
                end="",
                file=sys.stderr,
                flush=True,
            )

    if args.minutes is None:
        batches = [(args.seed, args.examples)]
    else:
        base = args.seed if args.seed is not None else 0
        batches = [(base + k, min(500, args.examples - 500 * k)) for k in range((args.examples + 499) // 500)]
    for batch_seed, batch_size in batches:
        if out_of_time():
            break
        batch = given(specgen.libraries())(run)
        batch = settings(
            max_examples=batch_size,
            deadline=None,
            database=None,
            derandomize=batch_seed is None,
            suppress_health_check=list(HealthCheck),
        )(batch)
        if batch_seed is not None:
            batch = hypothesis_seed(batch_seed)(batch)
        batch()
    seconds = time.perf_counter() - started
    print(file=sys.stderr)
    total = sum(mix.values())
    print(f"examples run: {total} in {seconds:.1f} s ({total / seconds:.1f} per second)")
    print("verdicts (enumerator):")
    for label, n in sorted(mix.items(), key=lambda kv: -kv[1]):
        print(f"  {n:>6}  {label}")
    ran = [k for k in mix if k.startswith("correct=")]
    for check in ("correct", "secure", "tidy"):
        false = sum(mix[k] for k in ran if f"{check}=False" in k)
        print(f"  {check} false in {false} of {sum(mix[k] for k in ran)} examples that ran")
    print("features drawn: " + ", ".join(f"{k} {n}" for k, n in sorted(features.items())))
    if args.simulate:
        print(
            f"simulate against exact: {simulated['specs']} specs, {simulated['runs']} single runs, "
            f"{simulated['disagreements']} disagreements"
        )
    print(f"disagreements: {len(found)}")
    for i, (summary, generated) in enumerate(found, 1):
        print(f"--- disagreement {i}")
        print(summary)
        print(generated.text())
    if args.save is not None and found:
        print(f"saved in {args.save}")


if __name__ == "__main__":
    main()
