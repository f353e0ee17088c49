"""What each game kit costs at the table: minutes per turn and per game, both profiles.

Usage:  python bench/table_time.py [--levers] [--json] [--write-docs] [--table-time FILE]
                                   [--profile optimistic|cautious]

For every game kit (uno, uno-official, uno-small, crazy-eights, sevens, hearts, dominoes,
daifugo, gakmoro) it asks the kit's own figures (kitgen.kit.figures: the one function kits,
``kitgen list --times`` and the README read), at the seating and with the options
``kitgen build NAME`` uses, under both profiles of the table-time model (optimistic and
cautious, templates/table_time.yaml, or ``--table-time FILE``). The figures come from simulated
games costed with the model (kitgen/cost/gametime.py, kitgen/cost/tabletime.py), kept in the
verification cache: the first run simulates (minutes), later ones read them.

``--json`` ends with one JSON line: {"GAME": {"turn", "turn_minutes", "turn_minutes_cautious",
"first_turn_minutes", "first_turn_minutes_cautious", "game_minutes_mean",
"game_minutes_mean_cautious", "game_minutes_p90", "game_minutes_p90_cautious",
"table_width_cm", "table_depth_cm", "players", "virtual", "people", "games", "protocol",
"virtual_draw" ("play", "keep" or null), "paper_protocol", "paper_turn_minutes", "build"},
...} (and "levers" with --levers). A Gakmoro "turn" is a round; its game includes making the
bundles.

``--write-docs`` writes docs/kit-figures.json and the tables of README.md and
docs/table-time.md between their ``<!-- figures:... -->`` markers (tests/test_figures.py
fails when they drift from the kits).

``--levers`` also prints, for uno and uno-small, what each lever of issue 22 changes, from the
paper's protocol summed for one person (the model before) to the kit as it ships.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from figures import add_record_options, append_record

from kitgen.core.durations import short_range
from kitgen.core.files import write_atomic
from kitgen.cost.gametime import RunTimer, cost_tables, game_times, simulate_games
from kitgen.cost.timemodel import PROFILES, TimeModel, time_model, using_model
from kitgen.kit.figures import default_plan, generated, summaries, weighted_summaries
from reference_engine.api import Library, PlaySettings, find_kind, load_game

ROOT = Path(__file__).resolve().parent.parent


def levers(library: Library, name: str) -> list[dict[str, Any]]:
    """The kit's virtual turn after each lever, cumulatively, on the same simulated games."""
    rules = load_game(name)
    plan = default_plan(rules)
    players, virtual = plan.players, plan.virtual
    fast = rules.virtual_protocol  # type: ignore[attr-defined]
    paper = library.protocol(fast).source.get("variant_of", fast)
    people = players - virtual
    shipped = time_model()
    before: TimeModel = replace(shipped, mix_per_pile=0.0)  # every shuffle 15 s, as the model was
    moment = find_kind(rules.kind).example_moment(rules, library, PlaySettings(players, virtual))
    deck = [c for o in moment.owners for c in o]
    games = 30
    play = simulate_games(name, library, players, virtual, games, {"virtual_draw": "play"})
    keep = simulate_games(name, library, players, virtual, games, {"virtual_draw": "keep"})

    def turn(proto: str, p: int, model: TimeModel, hints: bool, played: Any) -> float:
        timer = RunTimer(library, library.protocol(proto), deck, moment.valid, p, (model,), use_hints=hints)
        times = game_times(cost_tables(played, timer), proto, p, (model,))
        return round(next(iter(times.values())).turn_minutes, 1)

    paper_, fast_ = (paper, 1, before, True, play), (fast, people, shipped)
    steps = [
        ("the paper's protocol, one person, every shuffle 15 s (the model before)", *paper_),
        ("1. everyone works at once (the people share the card work)", paper, people, before, True, play),
        (
            "2. big shuffles take longer (15 s for 8 piles, +1 s per pile shared)",
            paper,
            people,
            shipped,
            True,
            play,
        ),
        ("4. quicker protocol: lottery's first shuffle left out, direct six-card AND", *fast_, False, play),
        ("3. sleeves instead of envelopes, owner cards kept in the sleeves", *fast_, True, play),
        ("5. a virtual player keeps a drawn card (one run per turn)", *fast_, True, keep),
    ]
    return [
        {"lever": label, "protocol": proto, "turn_minutes": turn(proto, p, model, hints, played)}
        for label, proto, p, model, hints, played in steps
    ]


def line(name: str, row: dict[str, Any]) -> str:
    def span(key: str) -> str:
        return short_range(row[key], row.get(f"{key}_cautious"))

    paper = ""
    if row.get("paper_protocol"):
        turn = short_range(row["paper_turn_minutes"], row["paper_turn_minutes_cautious"])
        paper = f"; the paper's protocol {turn}"
    return (
        f"{name:13} {row['turn']} {span('turn_minutes')} (first {span('first_turn_minutes')}), "
        f"game {span('game_minutes_mean')} mean, {span('game_minutes_p90')} p90, "
        f"table {row['table_width_cm']} x {row['table_depth_cm']} cm, {row['players']} players, "
        f"{row['people']} people, {row['games']} games{paper}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levers", action="store_true")
    parser.add_argument("--table-time", default=None, metavar="FILE")
    parser.add_argument(
        "--profile",
        default=None,
        choices=PROFILES,
        help="the profile in force for --levers (the kits' figures always give both)",
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--write-docs",
        action="store_true",
        help="write docs/kit-figures.json and the README's and docs/table-time.md's tables",
    )
    add_record_options(parser)  # every run is appended to bench/results/table_time.jsonl
    args = parser.parse_args()
    library = Library()
    out: dict[str, Any] = {}
    with using_model(args.table_time, args.profile):
        t0 = time.process_time()
        rows = summaries(library)
        for name, row in rows.items():
            out[name] = row
            print(line(name, row))
        print(f"[{time.process_time() - t0:.1f} s CPU]")
        weighted = weighted_summaries(library) if args.write_docs else {}
        for command, row in weighted.items():
            print(line(command.removeprefix("kitgen build "), row))
        if args.levers:
            out["levers"] = {}
            for name in ("uno", "uno-small"):
                out["levers"][name] = levers(library, name)
                print(f"\nlevers, {name}:")
                for row in out["levers"][name]:
                    print(f"  {row['turn_minutes']:5.1f} min  {row['lever']}")
    if args.write_docs:
        if args.table_time:
            parser.error("--write-docs writes the shipped model's figures: leave out --table-time")
        for path, text in generated(ROOT, {"kits": rows, "weighted": weighted}).items():
            write_atomic(ROOT / path, text.encode("utf-8"))
            print(f"wrote {path}")
    append_record("table_time", out, {"profile": args.profile, "table_time": args.table_time}, args)
    if args.json:
        print(json.dumps(out))


if __name__ == "__main__":
    main()
