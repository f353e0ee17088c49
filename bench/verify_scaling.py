"""How exact verification of the covert lottery scales with m (issue: m = 7 under 60 s).

Usage:  python bench/verify_scaling.py [--max-m 8] [--protocol covert-lottery-modified]

For each m it prints the wall time of a full `kitgen verify` (correctness, security and
resource counts over all 2^m inputs and every shuffle outcome), the number of distinct
table states left at the end after merging, the largest frontier, the total number of
state-steps processed, and whether the protocol verified.
"""

from __future__ import annotations

import argparse
import platform
import time

from reference_engine.registry import Library
from reference_engine.verify import verify


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-m", type=int, default=2)
    parser.add_argument("--max-m", type=int, default=8)
    parser.add_argument("--protocol", default="covert-lottery-modified")
    args = parser.parse_args()
    library = Library()
    proto = library.protocol(args.protocol)
    print(f"{args.protocol}: exact verification, Python {platform.python_version()} on {platform.machine()}")
    print(
        f"{'m':>3} {'inputs':>7} {'seconds':>9} {'final states':>13} {'largest frontier':>17} "
        f"{'states processed':>17}  verified"
    )
    for m in range(args.min_m, args.max_m + 1):
        started = time.perf_counter()
        report = verify(library, proto, {"m": m})
        seconds = time.perf_counter() - started
        st = report.stats
        print(
            f"{m:>3} {report.inputs:>7} {seconds:>9.2f} {st['final_states']:>13} {st['peak_frontier']:>17} "
            f"{st['states_processed']:>17}  {'yes' if report.ok else 'NO: ' + ', '.join(report.failed())}",
            flush=True,
        )


if __name__ == "__main__":
    main()
