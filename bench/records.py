"""Game records: size, and the time to write and to replay them, for every rule set and level.

Usage:  python bench/records.py [--seed 1] [--json]

Plays one game of each rule set at rule level and at card level (two virtual players; Hearts with
passing; whole games: UNO official to 500, Hearts to 100), writes its record, and replays it: the
referee alone, then the referee and the engine playing the game again. Times are CPU seconds of
this process (time.process_time). ``--json`` prints one JSON object on the last line: ``games``,
a list of {game, level, bytes, events, runs, play_and_record_s, referee_s, replay_s}.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from reference_engine.api import Library, PlaySettings, read_record, record_game, record_text, replay_record

GAMES: list[tuple[str, dict[str, Any], int]] = [
    ("uno", {}, 2),
    ("uno-official", {"wild4": "bluff"}, 2),
    ("uno-small", {}, 2),
    ("crazy-eights", {}, 2),
    ("sevens", {}, 2),
    ("hearts", {"pass_three": True}, 2),
    ("dominoes", {}, 2),
    ("daifugo", {}, 2),
    ("gakmoro", {}, 0),
]


def measure(
    name: str, options: dict[str, Any], virtual: int, level: str, seed: int, tmp: Any
) -> dict[str, Any]:
    library = Library()
    t = time.process_time()
    _, record = record_game(
        name, library, PlaySettings(virtual=virtual, level=level, seed=seed, options=options)
    )
    text = record_text(record)
    played = time.process_time() - t
    path = tmp / f"{name}-{level}.json"
    path.write_text(text, encoding="utf-8")
    t = time.process_time()
    alone = replay_record(read_record(path), library, rerun=False)
    referee = time.process_time() - t
    t = time.process_time()
    full = replay_record(read_record(path), library)
    replay = time.process_time() - t
    assert alone.ok and full.ok, (name, level, [str(f) for f in full.findings])
    return {
        "game": name,
        "level": level,
        "bytes": len(text.encode("utf-8")),
        "events": len(record["events"]),
        "runs": sum(len(e["runs"]) for e in record["events"]),
        "play_and_record_s": round(played, 3),
        "referee_s": round(referee, 3),
        "replay_s": round(replay, 3),
    }


def main() -> None:
    import tempfile
    from pathlib import Path

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for name, options, virtual in GAMES:
            for level in ("rule", "card"):
                rows.append(measure(name, options, virtual, level, args.seed, Path(folder)))
    head = ("game", "level", "size", "events", "runs", "play+record", "referee", "replay")
    print("{:13} {:5} {:>9} {:>6} {:>5} {:>11} {:>8} {:>7}".format(*head))
    for r in rows:
        print(
            f"{r['game']:13} {r['level']:5} {r['bytes'] / 1000:7.0f}kB {r['events']:6} {r['runs']:5} "
            f"{r['play_and_record_s']:10.2f}s {r['referee_s']:7.2f}s {r['replay_s']:6.2f}s"
        )
    if args.json:
        print(json.dumps({"seed": args.seed, "games": rows}))


if __name__ == "__main__":
    main()
