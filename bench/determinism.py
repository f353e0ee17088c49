"""The same inputs give the same report: how many specs give different JSON across hash seeds
and numbers of workers.

Usage:  python bench/determinism.py [--examples N] [--seed S] [--seeds 0,1,2] [--workers 1,2,3]

Verifies every soundness and partition spec of the tests and N generated specs
(tests/reference_engine/specgen.py, seeded) with each number of workers, in one process per hash
seed (``PYTHONHASHSEED``), and compares the reports' JSON less the timings and work counters
(tests/reference_engine/determinism.py). Prints the specs run, the verifications, and every spec
whose reports differ with the first line that differs.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "reference_engine"))

import determinism  # noqa: E402
import specgen  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import seed as hypothesis_seed  # noqa: E402


def generated(n: int, seed: int, folder: Path) -> list[determinism.Case]:
    drawn: list[specgen.GeneratedLibrary] = []

    @hypothesis_seed(seed)
    @settings(max_examples=n, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(specgen.libraries())
    def draw(g: specgen.GeneratedLibrary) -> None:
        drawn.append(g)

    draw()
    cases: list[determinism.Case] = []
    for i, g in enumerate(drawn[:n]):
        g.write(folder / f"{i:05d}")
        cases.append((str(folder / f"{i:05d}"), g.main, {}))
    return cases


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--examples", type=int, default=100, help="generated specs (default 100)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--seeds", default="0,1,2", help="hash seeds, one process each")
    parser.add_argument("--workers", default="1,2,3")
    args = parser.parse_args()
    verify = ROOT / "tests" / "reference_engine" / "verify"
    cases: list[determinism.Case] = [
        (str(f.parent), f.stem, {}) for f in sorted(verify.glob("soundness/*/*.yaml"))
    ]
    cases += [(str(f.parent), "fzmain", {}) for f in sorted(verify.glob("partition_specs/*/fzmain.yaml"))]
    cases += [(str(f.parent), "fzmain", {}) for f in sorted(verify.glob("determinism_specs/*/fzmain.yaml"))]
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="kitgen-determinism-") as tmp:
        cases += generated(args.examples, args.seed, Path(tmp) / "specs")
        workers = [int(w) for w in args.workers.split(",")]
        seeds = [int(s) for s in args.seeds.split(",")]
        runs = {s: determinism.under_hash_seed(s, cases, workers, Path(tmp)) for s in seeds}
    differ = determinism.differences(runs)
    print(
        f"{len(cases)} specs ({args.examples} generated), hash seeds {args.seeds}, workers {args.workers}: "
        f"{len(cases) * len(seeds) * len(workers)} verifications in {time.perf_counter() - started:.0f} s"
    )
    print(f"specs whose reports differ: {len(differ)}")
    for line in differ:
        print("  " + line[:400])


if __name__ == "__main__":
    main()
