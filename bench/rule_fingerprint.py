"""A fingerprint of many seeded rule-level shedding games: to show a change plays the same games.

Usage:  python bench/rule_fingerprint.py [--seeds 500]

Plays ``--seeds`` games (seeds 0, 1, ...) in each of eleven seatings and rule sets (uno with
RLCard's draw rule and with its own, a person or several, the discard pile as an owner, a kept
drawn card; uno-small; crazy-eights; uno-official with the bluff rule, which takes the general
loop), and hashes everything a game leaves: its result as JSON, every hand's log, the statistics
of every virtual decision (table sizes, choices), the final hands and piles, the colour and
direction, and the generator's state. It prints one hash per setting and one for all; run it
before and after a change of the rule level (quickhand.py, play.py, rules.py): the last line must
not change. Not a figure of record (nothing is appended to bench/results/).
"""

from __future__ import annotations

import argparse
import hashlib
from typing import Any

from reference_engine.kinds.shedding import Game, load_rules
from reference_engine.kinds.shedding.record import logged
from reference_engine.registry import Library

SETTINGS: list[tuple[str, int, int, dict[str, Any]]] = [
    ("uno", 4, 4, {"virtual_draw": "play"}),
    ("uno", 4, 1, {}),
    ("uno", 2, 2, {"virtual_draw": "keep"}),
    ("uno", 3, 0, {}),
    ("uno", 5, 3, {"discard_owner": True}),
    ("uno", 4, 4, {}),
    ("uno-small", 3, 2, {}),
    ("crazy-eights", 4, 2, {}),
    ("crazy-eights", 2, 2, {"discard_owner": True}),
    ("uno-official", 4, 4, {"wild4": "bluff", "hands": 2}),
    ("uno-official", 3, 1, {"wild4": "bluff", "hands": 1}),
]


def game_print(game: Game) -> str:
    """Everything a played game leaves, as text."""
    result = game.play()
    assert result is not None
    s = game.stats
    return repr(
        (
            result.to_json(),
            [[logged(t).to_json() for t in hand.log] for hand in game.results],
            s.tables,
            s.choices,
            s.virtual_turns,
            [[c.name for c in h] for h in game.hands],
            [c.name for c in game.draw_pile],
            [c.name for c in game.discard],
            game.color,
            game.direction,
            game.rng.getstate(),
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=500, help="games per setting")
    args = parser.parse_args()
    library = Library()
    total = hashlib.sha256()
    for name, players, virtual, extra in SETTINGS:
        rules = load_rules(name)
        h = hashlib.sha256()
        for seed in range(args.seeds):
            game = Game(rules, library, players=players, virtual=virtual, level="rule", seed=seed, **extra)
            h.update(game_print(game).encode())
        print(f"  {name}, {players} players, {virtual} virtual, {extra}: {h.hexdigest()[:16]}")
        total.update(h.digest())
    print(f"{args.seeds * len(SETTINGS)} games: {total.hexdigest()}")


if __name__ == "__main__":
    main()
