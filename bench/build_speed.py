"""Build time of the kits: CPU seconds of whole `kitgen build` processes, with caches empty and warm.

Usage:  python bench/build_speed.py [--repeat 2] [--quick] [--no-gakmoro] [--json]
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
saddle-stitched), the six-card AND booklet and the Gakmoro kit (`--no-gakmoro` skips it).
``--quick`` measures the default kit alone.

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
)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(command: tuple[str, ...], cache: Path, out: Path) -> tuple[float, float]:
    """CPU and wall seconds of one kitgen process (its worker processes included)."""
    env = {**os.environ, "KITGEN_CACHE_DIR": str(cache), "XDG_CACHE_HOME": str(cache / "xdg")}
    before, start = children_cpu(), time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "kitgen", *command, "-o", str(out)],
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


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2, help="runs of each figure; the best counts")
    parser.add_argument("--quick", action="store_true", help="the default kit only")
    parser.add_argument("--no-gakmoro", action="store_true", help="skip the Gakmoro kit")
    parser.add_argument("--json", action="store_true", help="end with one JSON object on the last line")
    add_record_options(parser)
    args = parser.parse_args()
    kits = KITS[:1] if args.quick else tuple(k for k in KITS if not (args.no_gakmoro and "Gakmoro" in k[0]))
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
    target = "under" if cpu["default kit, warm"] < 6 else "NOT under"
    print(f"default kit, warm: {cpu['default kit, warm']:.2f} s CPU ({target} the 6 s target)")
    append_record("build_speed", figures, {"repeat": args.repeat, "kits": [k[0] for k in kits]}, args)
    if args.json:
        print(json.dumps(figures, ensure_ascii=False))


if __name__ == "__main__":
    main()
