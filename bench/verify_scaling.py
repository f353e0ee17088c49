"""How exact verification of the covert lottery scales with m (issue: m = 8 under 60 s, 1 GB).

Usage:  python bench/verify_scaling.py [--min-m 2] [--max-m 8] [--protocol covert-lottery-modified]
                                      [--workers N] [--json]

Each m runs in a fresh Python process (so its peak memory is its own): the wall time of a full
exact verification (correctness, security and resource counts over all 2^m inputs and every
shuffle outcome), the peak resident memory of that process, the number of distinct table
states left at the end after merging, the largest frontier, the total number of state-steps
processed, and whether the protocol verified. With --workers N the inputs are split over N
processes (kitgen verify --workers); peak memory is then the largest of the processes
(coordinator or worker), and states are added up over the workers. With --json the last
line is one JSON object:
{"seconds": {"2": ..., "8": ...}, "peak_mb": {...}, "states_processed": {...}, "verified": {...}}.
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys

CHILD = r"""
import json, resource, sys, time
from reference_engine.registry import Library
from reference_engine.verify import verify
library = Library()
proto = library.protocol(sys.argv[1])
started = time.perf_counter()
report = verify(library, proto, {"m": int(sys.argv[2])}, workers=int(sys.argv[3]))
seconds = time.perf_counter() - started
peak_kb = max(resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
print(json.dumps({"seconds": seconds, "peak_mb": peak_kb / 1024, "inputs": report.inputs,
                  "stats": report.stats, "ok": report.ok, "failed": report.failed()}))
"""


def measure(protocol: str, m: int, workers: int) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, protocol, str(m), str(workers)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"m = {m}: the verification process failed:\n{done.stderr}")
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--min-m", type=int, default=2)
    parser.add_argument("--max-m", type=int, default=8)
    parser.add_argument("--protocol", default="covert-lottery-modified")
    parser.add_argument("--workers", type=int, default=1, help="processes per verification (default 1)")
    parser.add_argument("--json", action="store_true", help="end with one JSON object on the last line")
    args = parser.parse_args()
    print(
        f"{args.protocol}: exact verification in {args.workers} process(es), "
        f"Python {platform.python_version()} on {platform.machine()}"
    )
    print(
        f"{'m':>3} {'inputs':>7} {'seconds':>9} {'peak MB':>8} {'final states':>13} {'largest frontier':>17} "
        f"{'states processed':>17}  verified"
    )
    figures: dict[str, dict[str, object]] = {
        "seconds": {},
        "peak_mb": {},
        "states_processed": {},
        "verified": {},
    }
    for m in range(args.min_m, args.max_m + 1):
        r = measure(args.protocol, m, args.workers)
        st = r["stats"]
        assert isinstance(st, dict)
        seconds = float(r["seconds"])  # type: ignore[arg-type]
        peak = float(r["peak_mb"])  # type: ignore[arg-type]
        verdict = "yes" if r["ok"] else "NO: " + ", ".join(r["failed"])  # type: ignore[arg-type]
        print(
            f"{m:>3} {r['inputs']:>7} {seconds:>9.2f} {peak:>8.0f} {st['final_states']:>13} "
            f"{st['peak_frontier']:>17} {st['states_processed']:>17}  {verdict}",
            flush=True,
        )
        figures["seconds"][str(m)] = round(seconds, 2)
        figures["peak_mb"][str(m)] = round(peak, 1)
        figures["states_processed"][str(m)] = st["states_processed"]
        figures["verified"][str(m)] = bool(r["ok"])
    if args.json:
        print(json.dumps({"protocol": args.protocol, "workers": args.workers, **figures}))


if __name__ == "__main__":
    main()
