"""How exact verification scales: with the lottery's m, and with the number of workers.

Usage:  python bench/verify_scaling.py [--min-m 2] [--max-m 8] [--protocol covert-lottery-modified]
                                      [--workers 1,2,4,8] [--json]

Each run is a fresh Python process (so its peak memory is its own): the wall time of a full
exact verification (correctness, security and resource counts over every input and every
shuffle outcome), the peak resident memory, the processor time, the number of distinct table
states left at the end after merging, the largest frontier, the total number of state-steps
processed, and whether the protocol verified. A protocol without a parameter m (such as
``gakmoro-round``) runs once per worker count, at its defaults.

--workers takes one count or several (``1,2,4,8``): each is run in turn (kitgen verify --workers N).
With N > 1 the inputs are split over N processes that share their sub-protocol runs; peak memory
is the largest of the processes, states are added up over the workers, and for each partition
the processor time it used, its inputs and the sub-runs it ran or read from another. On a machine
with fewer cores than N the wall time is no guide, so the runs also *predict* the wall time on N
free cores: the coordinator's own processor time (split, combine, checks) plus the largest
partition's (the partitions run side by side, in lockstep). With --json the last line is one JSON
object: {"protocol", "seconds": {m: ...}, "peak_mb": {...}, "states_processed": {...},
"verified": {...}} for the first worker count, and "workers": {"1": {"seconds": {m: ...},
"peak_mb", "cpu_seconds", "predicted_seconds", "partitions": {m: [...]}}, "2": ...}; m is
"default" for a protocol without m.
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
params = {"m": int(sys.argv[2])} if sys.argv[2] != "default" else None
started = time.perf_counter()
cpu0 = time.process_time()
report = verify(library, proto, params, workers=int(sys.argv[3]))
seconds = time.perf_counter() - started
own = time.process_time() - cpu0
usage = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
peak_kb = max(u.ru_maxrss for u in usage)
children = usage[1].ru_utime + usage[1].ru_stime
print(json.dumps({"seconds": seconds, "peak_mb": peak_kb / 1024, "inputs": report.inputs,
                  "cpu_seconds": own + children, "coordinator_cpu": own,
                  "stats": report.stats, "ok": report.ok, "failed": report.failed()}))
"""


def measure(protocol: str, m: str, workers: int) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, protocol, m, str(workers)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"m = {m}: the verification process failed:\n{done.stderr}")
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def worker_counts(text: str) -> list[int]:
    counts = [int(x) for x in text.split(",") if x.strip()]
    if not counts or any(n < 1 for n in counts):
        raise argparse.ArgumentTypeError("worker counts from 1 up, e.g. 1,2,4,8")
    return counts


def sizes(protocol: str, lo: int, hi: int) -> list[str]:
    from reference_engine.registry import Library

    proto = Library().protocol(protocol)
    return [str(m) for m in range(lo, hi + 1)] if "m" in proto.params else ["default"]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--min-m", type=int, default=2)
    parser.add_argument("--max-m", type=int, default=8)
    parser.add_argument("--protocol", default="covert-lottery-modified")
    parser.add_argument(
        "--workers",
        type=worker_counts,
        default=[1],
        help="processes per verification: N or N,N,... (default 1)",
    )
    parser.add_argument("--json", action="store_true", help="end with one JSON object on the last line")
    args = parser.parse_args()
    print(
        f"{args.protocol}: exact verification, Python {platform.python_version()} on {platform.machine()}, "
        f"workers {','.join(map(str, args.workers))}"
    )
    print(
        f"{'m':>7} {'workers':>7} {'inputs':>7} {'seconds':>9} {'cpu s':>8} {'predicted':>9} {'peak MB':>8} "
        f"{'final states':>13} {'largest frontier':>17} {'states processed':>17}  verified"
    )
    by_workers: dict[str, dict[str, dict[str, object]]] = {}
    for w in args.workers:
        figures: dict[str, dict[str, object]] = {
            "seconds": {},
            "peak_mb": {},
            "cpu_seconds": {},
            "predicted_seconds": {},
            "states_processed": {},
            "verified": {},
            "partitions": {},
        }
        for m in sizes(args.protocol, args.min_m, args.max_m):
            r = measure(args.protocol, m, w)
            st = r["stats"]
            assert isinstance(st, dict)
            seconds = float(r["seconds"])  # type: ignore[arg-type]
            peak = float(r["peak_mb"])  # type: ignore[arg-type]
            parts = st.get("partitions", [])
            largest = max((float(p["cpu_seconds"]) for p in parts), default=0.0)
            coordinator = float(r["coordinator_cpu"])  # type: ignore[arg-type]
            predicted = coordinator + largest if parts else float(r["cpu_seconds"])  # type: ignore[arg-type]
            verdict = "yes" if r["ok"] else "NO: " + ", ".join(r["failed"])  # type: ignore[arg-type]
            print(
                f"{m:>7} {w:>7} {r['inputs']:>7} {seconds:>9.2f} {float(r['cpu_seconds']):>8.2f} "  # type: ignore[arg-type]
                f"{predicted:>9.2f} {peak:>8.0f} {st['final_states']:>13} {st['peak_frontier']:>17} "
                f"{st['states_processed']:>17}  {verdict}",
                flush=True,
            )
            for i, p in enumerate(parts):
                print(
                    f"{'':>17} partition {i + 1}: {p['inputs']} inputs, {p['cpu_seconds']:.2f} s processor, "
                    f"{p['states_processed']} states, sub-runs {p['subruns_run']} run, "
                    f"{p['subruns_loaded']} read from another partition"
                )
            figures["seconds"][m] = round(seconds, 2)
            figures["peak_mb"][m] = round(peak, 1)
            figures["cpu_seconds"][m] = round(float(r["cpu_seconds"]), 2)  # type: ignore[arg-type]
            figures["predicted_seconds"][m] = round(predicted, 2)
            figures["states_processed"][m] = st["states_processed"]
            figures["verified"][m] = bool(r["ok"])
            figures["partitions"][m] = parts
        by_workers[str(w)] = figures
    if args.json:
        first = by_workers[str(args.workers[0])]
        keep = ("seconds", "peak_mb", "states_processed", "verified")
        print(json.dumps({"protocol": args.protocol, **{k: first[k] for k in keep}, "workers": by_workers}))


if __name__ == "__main__":
    main()
