"""Build time of the default UNO kit (A4) and of its full Letter variant.

Usage:  python bench/build_speed.py [--repeat 3]

Each build is a complete `kitgen build`: protocol verification, the bill of materials
(1000 simulated games), card and label sheets, a PNG preview of every page and the
manifest. The figure is the best of --repeat runs. Target: under 10 s for the default kit.
"""

from __future__ import annotations

import argparse
import platform
import tempfile
import time
from pathlib import Path

from kitgen.kit import KitOptions, build


def timed(opts: KitOptions, repeat: int) -> tuple[float, dict[str, object]]:
    best = float("inf")
    manifest: dict[str, object] = {}
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            manifest = build(KitOptions(**{**opts.__dict__, "output": str(Path(tmp) / "kit")}))
            best = min(best, time.perf_counter() - start)
    return best, manifest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(
        f"kitgen build speed, Python {platform.python_version()} on {platform.machine()}, "
        f"best of {args.repeat}"
    )
    for label, opts in (
        ("default UNO kit (A4, 4 players, 1 virtual)", KitOptions()),
        ("full Letter variant", KitOptions(paper="letter")),
    ):
        seconds, manifest = timed(opts, args.repeat)
        sheets = manifest["sheets"]  # type: ignore[index]
        cards = sheets["cards"]  # type: ignore[index]
        print(
            f"  {label:<45} {seconds:6.2f} s  ({cards['pages']} card pages, "  # type: ignore[index]
            f"{sheets['labels']['pages']} label pages, {len(manifest['files'])} files)"
        )  # type: ignore[index]


if __name__ == "__main__":
    main()
