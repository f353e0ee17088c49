"""Build time of the default UNO kit (A4), its full Letter variant, the booklets and the Gakmoro kit.

Usage:  python bench/build_speed.py [--repeat 3] [--no-gakmoro] [--json]

Each kit build is a complete `kitgen build`: protocol verification (exact, plus the
statistical check on the full deck for the booklet's validation pages), the bill of
materials (1000 simulated games), card and label sheets, the booklet, a PNG preview of
every page and the manifest. The booklet figures are `kitgen booklet uno` (A4, and the A5
saddle-stitched imposition) and `kitgen booklet six-card-and`. Each figure is the best of
--repeat runs, with the verification cache off (every protocol verified again), except the
lines marked "warm cache": a rebuild that reuses the verification reports of a first build
(in a temporary cache folder, never the user's). Target: under 10 s for the default kit. The
Gakmoro kit is built cold with one worker and with every core (`kitgen build`'s default
--workers), then cold and warm through the cache.
With --json the last line is one JSON object {"seconds": {label: seconds, ...}}.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kitgen.kit import BookletOptions, KitOptions, build, build_booklet
from kitgen.manifest import Manifest


def timed(make: Callable[[str], Manifest], repeat: int) -> tuple[float, dict[str, Any]]:
    best = float("inf")
    manifest: dict[str, Any] = {}
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            manifest = make(str(Path(tmp) / "out")).to_json()
            best = min(best, time.perf_counter() - start)
    return best, manifest


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-gakmoro", action="store_true", help="skip the Gakmoro kit (about 50 s)")
    parser.add_argument("--json", action="store_true", help="end with one JSON object on the last line")
    args = parser.parse_args()
    figures: dict[str, float] = {}
    print(
        f"kitgen build speed, Python {platform.python_version()} on {platform.machine()}, "
        f"best of {args.repeat}"
    )
    kits = (
        ("default UNO kit (A4, 4 players, 1 virtual)", KitOptions(cache=False)),
        ("full Letter variant", KitOptions(paper="letter", cache=False)),
        ("default UNO kit, warm cache", KitOptions()),
    )
    scratch = tempfile.TemporaryDirectory(prefix="kitgen-bench-")  # caches and the warm-up kit
    os.environ["KITGEN_CACHE_DIR"] = str(Path(scratch.name) / "cache")
    build(KitOptions(output=str(Path(scratch.name) / "warm-up")))  # fills the cache
    for label, opts in kits:
        seconds, m = timed(
            lambda out, o=opts: build(KitOptions(**{**o.__dict__, "output": out})), args.repeat
        )
        sheets = m["sheets"]
        figures[label] = round(seconds, 2)
        print(
            f"  {label:<45} {seconds:6.2f} s  ({sheets['cards']['pages']} card pages, "
            f"{sheets['labels']['pages']} label pages, {m['booklet']['pages']} booklet pages, "
            f"{len(m['files'])} files)"
        )
    booklets = (
        ("UNO booklet (A4, 100 statistical runs)", BookletOptions(cache=False)),
        ("UNO booklet (A4, no statistical runs)", BookletOptions(runs=0, cache=False)),
        ("UNO booklet (A5 saddle-stitched)", BookletOptions(imposition="a5-saddle", cache=False)),
        ("six-card AND booklet (A4)", BookletOptions(name="six-card-and", cache=False)),
    )
    for label, bopts in booklets:
        seconds, m = timed(
            lambda out, o=bopts: build_booklet(BookletOptions(**{**o.__dict__, "output": out})), args.repeat
        )
        figures[label] = round(seconds, 2)
        print(f"  {label:<45} {seconds:6.2f} s  ({m['pages']} pages on {m['printed_sides']} sides)")
    if not args.no_gakmoro:
        _gakmoro(scratch.name, figures)
    scratch.cleanup()
    if args.json:
        print(json.dumps({"seconds": figures}, ensure_ascii=False))


def _gakmoro(scratch: str, figures: dict[str, float]) -> None:
    os.environ["KITGEN_CACHE_DIR"] = str(Path(scratch) / "cache-gakmoro")  # empty: cold
    cores = len(os.sched_getaffinity(0))
    for label, gopts in (
        ("Gakmoro kit, cold, 1 worker", KitOptions(ruleset="gakmoro", cache=False)),
        (f"Gakmoro kit, cold, {cores} workers", KitOptions(ruleset="gakmoro", cache=False, workers=cores)),
        ("Gakmoro kit (exact round verification)", KitOptions(ruleset="gakmoro", workers=cores)),
        ("Gakmoro kit, warm cache", KitOptions(ruleset="gakmoro", workers=cores)),
    ):
        seconds, m = timed(lambda out, o=gopts: build(KitOptions(**{**o.__dict__, "output": out})), 1)
        figures[label] = round(seconds, 2)
        print(f"  {label:<45} {seconds:6.2f} s  ({len(m['files'])} files)")


if __name__ == "__main__":
    main()
