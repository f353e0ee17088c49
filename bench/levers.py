"""Issue 36's levers side by side: a virtual turn's minutes per protocol, both profiles.

Usage:  python bench/levers.py [--game uno] [--protocols P1,P2,...] (default: card-selection-fast,
        card-selection-draw, card-selection-arrow) [--virtual-draw play|keep] [--games 30] [--json]

Plays ``--games`` seeded rule-level games (4 players, 1 virtual, 3 people sharing the work) of
the game with each protocol (the protocol decides whether a draw is part of the run) and costs
every virtual decision with kitgen's table-time model (kitgen/cost/gametime.py) under the optimistic
and the cautious profile of templates/table_time.yaml. Prints one line per protocol: minutes per
virtual turn, for the first virtual turn of a game, and per game; ``--json`` ends with one JSON
line {protocol: {profile: {turn_minutes, first_turn_minutes, game_minutes_mean}}}.
"""

from __future__ import annotations

import argparse
import json
import time

from kitgen.cost.gametime import RunTimer, cost_tables, game_times, simulate_games
from kitgen.cost.timemodel import time_models
from reference_engine.api import Library, PlaySettings, find_kind, load_game

DEFAULT = "card-selection-fast,card-selection-draw,card-selection-arrow"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="uno")
    parser.add_argument("--protocols", default=DEFAULT)
    parser.add_argument("--virtual-draw", default="play", choices=("play", "keep"))
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    library = Library()
    rules = load_game(args.game)
    players = 4
    moment = find_kind(rules.kind).example_moment(rules, library, PlaySettings(players, 1))
    deck = [c for o in moment.owners for c in o]
    out: dict[str, dict[str, dict[str, float]]] = {}
    for proto in args.protocols.split(","):
        t0 = time.process_time()
        options = {"virtual_draw": args.virtual_draw}
        played = simulate_games(args.game, library, players, 1, args.games, options, protocol=proto)
        out[proto] = {}
        parts = []
        models = time_models()
        timer = RunTimer(library, library.protocol(proto), deck, moment.valid, players - 1, models)
        times = game_times(cost_tables(played, timer), proto, players - 1, models)
        for profile, gt in times.items():
            out[proto][profile] = {
                "turn_minutes": round(gt.turn_minutes, 1),
                "first_turn_minutes": round(gt.first_turn_minutes, 1),
                "game_minutes_mean": round(gt.game_minutes_mean, 1),
            }
            parts.append(
                f"{profile}: turn {gt.turn_minutes:5.1f} first {gt.first_turn_minutes:5.1f} "
                f"game {gt.game_minutes_mean:6.1f}"
            )
        print(
            f"{proto:22} ({args.virtual_draw}) "
            + " | ".join(parts)
            + f" [{time.process_time() - t0:.0f} s CPU]"
        )
    if args.json:
        print(json.dumps(out))


if __name__ == "__main__":
    main()
