"""Build time of the kits: CPU seconds of whole `kitgen build` processes, with caches empty and warm.

Usage:  python bench/build_speed.py [--repeat 2] [--quick] [--no-gakmoro] [--only TEXT] [--json]
                                    [--no-record] [--machine NAME]

Each figure is one `kitgen build` (or `kitgen booklet`) run as its own process, the way a person
runs it: Python's start-up and imports, protocol verification, the bill of materials, the table
time, card and label sheets, the booklet, a PNG preview of every page, index.html and the
manifest. "cold" runs with an empty kitgen cache (verification reports, table-time games, page
previews: a new $KITGEN_CACHE_DIR); "warm" runs again with the cache a first build filled, as a
second `kitgen build` does. The figure is the CPU time of the process and its children
(user + sys; exact verification's worker processes included), best of --repeat runs: CPU time
moves far less than wall time on a shared machine. Wall seconds are reported beside it.

Kits: the default kit (`kitgen build`: UNO, A4, 4 players, 1 virtual; target under 6 s warm and
15 s cold), its Letter variant, the weighted UNO kit (`--strategy weighted --weights
action=3,number=1,wild=1`; target under 20 s), the UNO booklet (`kitgen booklet uno`, and A5
saddle-stitched), the six-card AND booklet and the Gakmoro kit (`--no-gakmoro` skips it); and `kitgen list
--times` (every rule set's table-time figures: cold costs their games, warm reads them back;
target under 3 s warm). ``--quick`` measures the default kit alone, ``--only TEXT`` (repeatable)
the figures whose label holds TEXT, and the default kit.

With --json the last line is one JSON object {"cpu_seconds": {label: s}, "seconds": {label: s},
"default_kit_warm_cpu_s": s}. Every run is appended to bench/results/build_speed.jsonl (the
figures of record, see bench/figures.py) unless --no-record; `python bench/compare.py` compares
it with the record before.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from figures import add_record_options, append_record

WEIGHTED = ("uno", "--strategy", "weighted", "--weights", "action=3,number=1,wild=1")
KITS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("default kit", ("build",)),
    ("Letter variant", ("build", "uno", "--paper", "letter")),
    ("weighted UNO kit", ("build", *WEIGHTED)),
    ("UNO booklet", ("booklet", "uno")),
    ("UNO booklet, A5 saddle-stitched", ("booklet", "uno", "--imposition", "a5-saddle")),
    ("six-card AND booklet", ("booklet", "six-card-and")),
    ("Gakmoro kit", ("build", "gakmoro")),
    ("list --times", ("list", "--times")),
)
# Issue 37's targets, CPU seconds.
TARGETS = {
    "default kit, warm": 6.0,
    "default kit, cold": 15.0,
    "weighted UNO kit, cold": 20.0,
    "list --times, warm": 3.0,
}
WRITES = ("build", "booklet")  # the commands that write a folder (given ``-o``)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(command: tuple[str, ...], cache: Path, out: Path) -> tuple[float, float]:
    """CPU and wall seconds of one kitgen process (its worker processes included)."""
    env = {**os.environ, "KITGEN_CACHE_DIR": str(cache), "XDG_CACHE_HOME": str(cache / "xdg")}
    before, start = children_cpu(), time.perf_counter()
    folder = ("-o", str(out)) if command[0] in WRITES else ()
    done = subprocess.run(
        [sys.executable, "-m", "kitgen", *command, *folder],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    wall, cpu = time.perf_counter() - start, children_cpu() - before
    if done.returncode != 0:
        raise SystemExit(f"kitgen {' '.join(command)} failed ({done.returncode}):\n{done.stderr}")
    return cpu, wall


def measure(
    label: str, command: tuple[str, ...], repeat: int, scratch: Path
) -> dict[str, tuple[float, float]]:
    """Best of ``repeat`` cold runs (each with a new, empty cache) and warm runs (one cache)."""
    cold: list[tuple[float, float]] = []
    warm: list[tuple[float, float]] = []
    for i in range(repeat):
        cache = scratch / f"cache-{label}-{i}"
        cold.append(run_once(command, cache, scratch / f"out-{label}-cold-{i}"))
        warm.append(run_once(command, cache, scratch / f"out-{label}-warm-{i}"))
    return {"cold": min(cold), "warm": min(warm)}


def chosen(quick: bool, no_gakmoro: bool, only: list[str]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The figures to measure: the default kit always (every record carries it)."""
    kits = KITS[:1] if quick else tuple(k for k in KITS if not (no_gakmoro and "Gakmoro" in k[0]))
    if only:
        kits = tuple(k for k in kits if k == KITS[0] or any(text in k[0] for text in only))
    return kits if KITS[0] in kits else (KITS[0], *kits)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2, help="runs of each figure; the best counts")
    parser.add_argument("--quick", action="store_true", help="the default kit only")
    parser.add_argument("--no-gakmoro", action="store_true", help="skip the Gakmoro kit")
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="TEXT",
        help="measure only the figures whose label holds TEXT (repeatable; e.g. --only weighted)",
    )
    parser.add_argument("--json", action="store_true", help="end with one JSON object on the last line")
    add_record_options(parser)
    args = parser.parse_args()
    kits = chosen(args.quick, args.no_gakmoro, args.only)
    print(
        f"kitgen build speed: CPU seconds (user + sys, with child processes) of whole processes, "
        f"best of {args.repeat}; Python {platform.python_version()} on {platform.machine()}"
    )
    cpu: dict[str, float] = {}
    wall: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="kitgen-bench-") as tmp:
        for label, command in kits:
            for state, (c, w) in measure(label, command, args.repeat, Path(tmp)).items():
                key = f"{label}, {state}"
                cpu[key], wall[key] = round(c, 2), round(w, 2)
                print(f"  {key:<42} {c:6.2f} s CPU  {w:6.2f} s wall   kitgen {' '.join(command)}")
    figures = {"cpu_seconds": cpu, "seconds": wall, "default_kit_warm_cpu_s": cpu["default kit, warm"]}
    for key, limit in TARGETS.items():
        if key in cpu:
            target = "under" if cpu[key] < limit else "NOT under"
            print(f"{key}: {cpu[key]:.2f} s CPU ({target} the {limit:g} s target)")
    append_record("build_speed", figures, {"repeat": args.repeat, "kits": [k[0] for k in kits]}, args)
    if args.json:
        print(json.dumps(figures, ensure_ascii=False))


if __name__ == "__main__":
    main()
