"""Exact verification of the card selection protocol on whole decks, hand size by hand size.

Usage:  python bench/full_deck.py [--game uno] [--players 4] [--hands 1..10] [--workers N] [--json]
        python bench/full_deck.py --all [--fast] [--json]

Each hand size runs in a fresh Python process (its peak memory is its own): the wall time and the
processor time (its own and its workers'; on a shared machine the wall time also counts waiting) of
``kitgen verify PROTOCOL --game GAME --players N --hand H`` (every deal of the cards in play,
every shuffle outcome, through the validity classes), the peak resident memory and its forecast
(reference_engine/verify/memory.py: what ``--max-memory`` is checked against), the deals it
stands for, the class deals run and the verdict. ``--all`` runs the issue's tables: UNO with
4 players and hands 1..10, Crazy Eights, Sevens, Hearts (card-selection-original) and Dominoes
at their hand sizes; ``--fast`` runs them with the quick protocols the kits teach by default
(``card-selection-fast``, ``card-selection-original-fast``). With --json the last line is one
JSON object: {"tables": [{"game", "protocol", "players", "hands": {"1": {"seconds",
"cpu_seconds", "peak_mb", "forecast_mb", "deals", "class_deals", "verified"}, ...}}]}.
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
from reference_engine.verify import verify_deck
library = Library()
proto = library.protocol(sys.argv[1])
started = time.perf_counter()
game, players, hand, workers = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
report = verify_deck(library, proto, game, players, hand, workers=workers)
seconds = time.perf_counter() - started
usage = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
peak_kb = max(u.ru_maxrss for u in usage)
cpu = sum(u.ru_utime + u.ru_stime for u in usage)
red = report.reduction or {}
from reference_engine.verify.memory import class_forecast, per_deal_card
per_card = per_deal_card(sys.argv[1], hand)
forecast = class_forecast(red.get("class_deals") or 0, red.get("cards") or 0, per_card=per_card) if red else 0
print(json.dumps({"seconds": round(seconds, 2), "cpu_seconds": round(cpu, 2),
                  "peak_mb": round(peak_kb / 1024), "forecast_mb": round(forecast / 2**20),
                  "deals": str(red.get("deals")),
                  "class_deals": red.get("class_deals"), "sizes": red.get("sizes"), "verified": report.ok,
                  "failed": report.failed()}))
"""

ALL = [
    ("card-selection", "uno", 4, list(range(1, 11))),
    ("card-selection", "crazy-eights", 4, [5]),
    ("card-selection", "crazy-eights", 2, [7]),
    ("card-selection", "sevens", 4, [13]),
    ("card-selection-original", "hearts", 4, [13]),
    ("card-selection", "dominoes", 4, [5]),
]


def measure(protocol: str, game: str, players: int, hand: int, workers: int) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, protocol, game, str(players), str(hand), str(workers)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{game}, hand {hand}: the verification process failed:\n{done.stderr}")
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def hand_range(text: str) -> list[int]:
    lo, sep, hi = text.partition("..")
    return list(range(int(lo), int(hi) + 1)) if sep else [int(lo)]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--protocol", default="card-selection")
    parser.add_argument("--game", default="uno")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--hands", type=hand_range, default=[1, 2, 3])
    parser.add_argument("--all", action="store_true", help="every table of the issue (see above)")
    parser.add_argument("--fast", action="store_true", help="with --all: the quick protocols (see above)")
    parser.add_argument("--workers", type=int, default=1, help="processes per verification (default 1)")
    parser.add_argument("--json", action="store_true", help="end with one JSON object on the last line")
    args = parser.parse_args()
    tables = ALL if args.all else [(args.protocol, args.game, args.players, args.hands)]
    if args.all and args.fast:
        tables = [(p + "-fast", g, n, h) for p, g, n, h in tables]
    print(f"# {platform.python_implementation()} {platform.python_version()}, workers {args.workers}")
    out = []
    for protocol, game, players, hands in tables:
        rows: dict[str, dict[str, object]] = {}
        for h in hands:
            r = measure(protocol, game, players, h, args.workers)
            rows[str(h)] = r
            print(
                f"{protocol} {game} {players} players, hand {h:>2}: {r['seconds']:>7} s "
                f"({r['cpu_seconds']} s processor), {r['peak_mb']:>5} MB (forecast {r['forecast_mb']} MB), "
                f"{r['class_deals']} class deals for {r['deals']} deals, "
                f"{'verified' if r['verified'] else 'FAILED ' + str(r['failed'])}",
                flush=True,
            )
        out.append({"protocol": protocol, "game": game, "players": players, "hands": rows})
    if args.json:
        print(json.dumps({"tables": out}))


if __name__ == "__main__":
    main()
