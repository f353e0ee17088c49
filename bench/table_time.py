"""What a virtual player costs at the table, per game kit: minutes per virtual turn and per game.

Usage:  python bench/table_time.py [--games 30] [--players 4] [--virtual 1] [--levers] [--json]
                                   [--table-time FILE] [--profile optimistic|cautious]

For every game kit (uno, uno-official, uno-small, crazy-eights, sevens, hearts, dominoes) it
plays ``--games`` seeded rule-level games with ``--players`` players (4 unless the rule set allows
fewer; 0: the rule set's own default), ``--virtual`` of them virtual and costs every virtual
decision with kitgen's table-time model (kitgen/tabletime.py, kitgen/gametime.py): the actions
of one run of the kit's protocol are counted from the engine's trace, the people at the table
(the human players) share each step's card work, a shuffle stops everyone while the piles are
mixed, and mixing takes longer the more piles there are. The seconds per action are the
estimates in templates/table_time.yaml unless ``--table-time`` gives another file.

``--levers`` also prints, for uno and uno-small, what each lever of issue 22 changes, from the
paper's protocol summed for one person (the model before) to the kit as it ships.

``--json`` ends with one JSON line: {"GAME": {"turn_minutes", "first_turn_minutes",
"run_minutes", "game_minutes_mean", "game_minutes_p90", "table_width_cm", "table_depth_cm",
"people", "protocol", "paper_turn_minutes", "paper_game_minutes_mean"}, ...} (and "levers" with
--levers).
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace
from typing import Any

from figures import add_record_options, append_record

from kitgen.gametime import RunTimer, game_time, simulate_games
from kitgen.kitcost import GAMES, kit_cost
from kitgen.tabletime import PROFILES, TimeModel, time_model, using_model
from reference_engine.api import Library, PlaySettings, find_kind, load_game

KITS = ("uno", "uno-official", "uno-small", "crazy-eights", "sevens", "hearts", "dominoes")


def options_for(name: str) -> dict[str, Any]:
    rules = load_game(name)
    return {"wild4": "bluff"} if getattr(rules, "hand_dependent", False) else {}


def seating(name: str, players: int | None) -> int:
    """The kit's default number of players, or ``players`` within the rule set's range."""
    lo, hi, default = load_game(name).players  # type: ignore[attr-defined]
    return default if not players else min(max(players, lo), hi)


def kit_figures(library: Library, name: str, players: int | None, virtual: int, games: int) -> dict[str, Any]:
    rules = load_game(name)
    n = seating(name, players)
    cost = kit_cost(
        library, name, rules.virtual_protocol, n, min(virtual, n), (63.0, 88.0), options_for(name), (), games
    )
    assert cost is not None, f"{name}: its games record no virtual tables"
    out = cost.to_json()
    return {
        "turn_minutes": out["virtual_turn_minutes"],
        "first_turn_minutes": out["first_turn_minutes"],
        "run_minutes": out["run_minutes"],
        "game_minutes_mean": out["game_minutes_mean"],
        "game_minutes_p90": out["game_minutes_p90"],
        "table_width_cm": out["table_width_cm"],
        "table_depth_cm": out["table_depth_cm"],
        "people": out["people"],
        "players": n,
        "protocol": out["protocol"],
        "paper_turn_minutes": (out["paper"] or {}).get("virtual_turn_minutes"),
        "paper_game_minutes_mean": (out["paper"] or {}).get("game_minutes_mean"),
    }


def levers(
    library: Library, name: str, players: int | None, virtual: int, games: int
) -> list[dict[str, Any]]:
    """The kit's virtual turn after each lever, cumulatively, on the same simulated games."""
    rules = load_game(name)
    players = seating(name, players)
    fast = rules.virtual_protocol  # type: ignore[attr-defined]
    paper = library.protocol(fast).source.get("variant_of", fast)
    people = players - virtual
    shipped = time_model()
    before: TimeModel = replace(shipped, mix_per_pile=0.0)  # every shuffle 15 s, as the model was
    moment = find_kind(rules.kind).example_moment(rules, library, PlaySettings(players, virtual))
    deck = [c for o in moment.owners for c in o]
    play = simulate_games(name, library, players, virtual, games, {"virtual_draw": "play"})
    keep = simulate_games(name, library, players, virtual, games, {"virtual_draw": "keep"})

    def turn(proto: str, p: int, model: TimeModel, hints: bool, played: Any) -> float:
        timer = RunTimer(library, library.protocol(proto), deck, moment.valid, p, model, use_hints=hints)
        return round(game_time(played, timer).turn_minutes, 1)

    steps = [
        (
            "the paper's protocol, one person, every shuffle 15 s (the model before)",
            paper,
            1,
            before,
            True,
            play,
        ),
        ("1. everyone works at once (3 people share the card work)", paper, people, before, True, play),
        (
            "2. big shuffles take longer (15 s for 8 piles, +1 s per pile shared)",
            paper,
            people,
            shipped,
            True,
            play,
        ),
        (
            "4. quicker protocol: lottery's first shuffle left out, direct six-card AND",
            fast,
            people,
            shipped,
            False,
            play,
        ),
        (
            "3. sleeves instead of envelopes, owner cards kept in the sleeves",
            fast,
            people,
            shipped,
            True,
            play,
        ),
        ("5. a virtual player keeps a drawn card (one run per turn)", fast, people, shipped, True, keep),
    ]
    return [
        {"lever": label, "protocol": proto, "turn_minutes": turn(proto, p, model, hints, played)}
        for label, proto, p, model, hints, played in steps
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument(
        "--players",
        type=int,
        default=4,
        help="players at the table, within each rule set's range (default 4, the issue's seating); "
        "0: each rule set's own default",
    )
    parser.add_argument("--virtual", type=int, default=1)
    parser.add_argument("--levers", action="store_true")
    parser.add_argument("--table-time", default=None, metavar="FILE")
    parser.add_argument(
        "--profile",
        default=None,
        choices=PROFILES,
        help="the figures of this profile of the table-time model (default: its base, optimistic)",
    )
    parser.add_argument("--json", action="store_true")
    add_record_options(parser)  # every run is appended to bench/results/table_time.jsonl
    args = parser.parse_args()
    library = Library()
    out: dict[str, Any] = {}
    with using_model(args.table_time, args.profile):
        for name in KITS:
            t0 = time.process_time()
            figures = kit_figures(library, name, args.players, args.virtual, args.games)
            out[name] = figures
            print(
                f"{name:13} virtual turn {figures['turn_minutes']:5.1f} min "
                f"(first {figures['first_turn_minutes']:5.1f}), "
                f"game {figures['game_minutes_mean']:7.1f} min mean, {figures['game_minutes_p90']:7.1f} p90, "
                f"table {figures['table_width_cm']} x {figures['table_depth_cm']} cm, "
                f"{figures['players']} players, {figures['people']} people; "
                f"paper's protocol {figures['paper_turn_minutes']} min/turn "
                f"[{time.process_time() - t0:.1f} s CPU]"
            )
        if args.levers:
            out["levers"] = {}
            for name in ("uno", "uno-small"):
                out["levers"][name] = levers(library, name, args.players, args.virtual, args.games)
                print(f"\nlevers, {name}:")
                for row in out["levers"][name]:
                    print(f"  {row['turn_minutes']:5.1f} min  {row['lever']}")
    settings = {"games": args.games, "players": args.players, "virtual": args.virtual}
    append_record(
        "table_time", out, {**settings, "profile": args.profile, "table_time": args.table_time}, args
    )
    if args.json:
        print(json.dumps(out))


if __name__ == "__main__":
    main()
