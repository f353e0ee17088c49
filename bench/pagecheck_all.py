"""The page check on every shipped kit and every protocol booklet: what it finds, and how long it takes.

Usage:  python bench/pagecheck_all.py [--quick] [--no-ink-saver] [--only NAME ...] [--json]

Builds, into a temporary folder, every game kit with its defaults (and again with --ink-saver,
unless --no-ink-saver), the puzzle kit, and `kitgen booklet PROTOCOL` for every built-in protocol
a booklet can verify (gakmoro-game is too big to verify as a whole; the verifier refuses it), then
runs `kitgen.paper.pagecheck` on each: every page of every PDF (--quick: the pixel checks only on the
calibration pages and the first front and back page of each card type). Verification reports come
from the user's cache (kitgen build's default), so a second run is faster. Prints one line per kit
with its findings by kind and the seconds the check took, then every finding; exits 1 if there is
any. With --json the last line is one JSON object {"kits": {name: {"findings": n, "seconds": s}}}.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import tempfile
import time
from pathlib import Path

from kitgen.kit.build import BookletOptions, KitOptions, build, build_booklet
from kitgen.paper.pagecheck import Finding, check_kit
from reference_engine.api import Library, games_dir

PUZZLES = "uno-puzzles"  # not a kit of cards: built once, without --ink-saver
# Every shipped game rule set (a new one is checked without editing this file).
GAMES = tuple(sorted(p.stem for p in games_dir().glob("*.yaml") if p.stem != PUZZLES))
NOT_A_BOOKLET = ("gakmoro-game",)  # too big to verify as a whole (the verifier says so)


def targets(ink_saver: bool) -> list[tuple[str, dict[str, object]]]:
    out: list[tuple[str, dict[str, object]]] = []
    for game in GAMES:
        out.append((f"kit {game}", {"kit": game}))
        if ink_saver:
            out.append((f"kit {game} --ink-saver", {"kit": game, "ink_saver": True}))
    out.append((f"kit {PUZZLES}", {"kit": PUZZLES}))
    for name in sorted(Library().names()):
        if name not in NOT_A_BOOKLET:
            out.append((f"booklet {name}", {"booklet": name}))
    return out


def make(spec: dict[str, object], folder: Path) -> Path:
    if "kit" in spec:
        opts = KitOptions(
            ruleset=str(spec["kit"]),
            output=str(folder),
            previews=False,
            ink_saver=bool(spec.get("ink_saver")),
        )
        build(opts)
    else:
        build_booklet(BookletOptions(name=str(spec["booklet"]), output=str(folder), previews=False))
    return folder


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--no-ink-saver", action="store_true")
    parser.add_argument("--only", nargs="*", default=None, help="kits or protocols whose label contains NAME")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures: dict[str, dict[str, float | int]] = {}
    every: list[tuple[str, Finding]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for k, (label, spec) in enumerate(targets(not args.no_ink_saver)):
            if args.only is not None and not any(o in label for o in args.only):
                continue
            folder = make(spec, Path(tmp) / f"t{k}")
            start = time.perf_counter()
            found = check_kit(folder, every_card_page=True, sample_pixels=args.quick)
            seconds = time.perf_counter() - start
            kinds = collections.Counter(f.kind for f in found)
            print(f"{label}: {len(found)} finding(s) {dict(kinds) or ''} in {seconds:.1f} s", flush=True)
            figures[label] = {"findings": len(found), "seconds": round(seconds, 1)}
            every += [(label, f) for f in found]
    for label, f in every:
        print(f"  {label}: {f}")
    total = sum(int(v["findings"]) for v in figures.values())
    print(f"{len(figures)} kits and booklets, {total} finding(s)")
    if args.json:
        print(json.dumps({"kits": figures}))
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
