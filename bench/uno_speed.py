"""UNO speed: rule-level games per second (ours and RLCard's) and card-level virtual turns.

Usage:  python bench/uno_speed.py [--games 300] [--turns 100] [--players 4] [--json]

``--json`` prints one JSON object on the last line: rule_games_per_s, rlcard_games_per_s (null
without RLCard), rule_vs_rlcard, card_turns_per_s (compiled path, full table),
card_interpreter_turns_per_s, card_compiled_vs_interpreter, card_game_turns_per_s and
card_game_interpreter_turns_per_s (whole games, all seats virtual), and the settings.

RLCard is an optional benchmark dependency: pip install -e '.[bench]'. Both engines play
4-player games in which every seat picks uniformly at random among its legal moves.

Rule differences (RLCard 1.2 UNO vs our `uno` rule set): RLCard plays a drawn card
automatically when it is playable; allows wild draw four only when no other card is
legal; gives a wild first card a random colour; and reshuffles the whole discard pile,
top card included. Ours follows the paper's rules (wild draw four always playable, a
drawn valid card is played, the first player names a wild first card's colour, the top
card stays), and also handles both piles running out, which RLCard does not.

Card level: every virtual turn runs the card selection protocol spec on the simulated
table, with all the checks of `kitgen play --level card`, once with the compiled runner
(reference_engine/compiled.py, the default) and once with the interpreter, on the same seeds.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time

from reference_engine.kinds.shedding import Game, load_rules
from reference_engine.registry import Library
from reference_engine.selection import ENGINE, CallCache, run_selection


def ours_rule_level(games: int, players: int) -> tuple[float, float]:
    rules = load_rules("uno")
    library = Library()
    turns = 0
    start = time.perf_counter()
    for seed in range(games):
        result = Game(rules, library, players=players, virtual=players, level="rule", seed=seed).play()
        turns += result["turns"]
    elapsed = time.perf_counter() - start
    return games / elapsed, turns / games


def rlcard_rule_level(games: int, players: int) -> tuple[float, float] | None:
    try:
        import numpy as np
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    rng = random.Random(0)
    game = UnoGame(num_players=players)
    game.np_random = np.random.RandomState(0)
    turns = 0
    start = time.perf_counter()
    for _ in range(games):
        game.init_game()
        while not game.is_over():
            game.step(rng.choice(game.get_legal_actions()))
            turns += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, turns / games


def card_level_full_table(runs: int, players: int, engine: str) -> tuple[float, int, int]:
    """Protocol runs per second on a freshly dealt full table (P_1 holds 7 cards)."""
    rules = load_rules("uno")
    library = Library()
    protocol = library.protocol("card-selection")
    rng = random.Random(1)
    cache = CallCache(engine=engine)
    deck = rules.deck()
    rng.shuffle(deck)
    top = next(c for c in deck if c.attrs["color"] != "black")
    deck.remove(top)
    owners = [[deck.pop() for _ in range(7)] for _ in range(players)] + [deck]
    valid = rules.validity(top, str(top.attrs["color"]))
    start = time.perf_counter()
    for i in range(runs):
        run_selection(library, protocol, [list(o) for o in owners], valid, rng, cache, f"run {i}")
    elapsed = time.perf_counter() - start
    return runs / elapsed, sum(len(o) for o in owners), len(owners[0])


def card_level_games(min_turns: int, players: int, engine: str) -> tuple[float, int, int]:
    token = ENGINE.set(engine)
    try:
        return _card_level_games(min_turns, players)
    finally:
        ENGINE.reset(token)


def _card_level_games(min_turns: int, players: int) -> tuple[float, int, int]:
    rules = load_rules("uno")
    library = Library()
    turns = games = 0
    start = time.perf_counter()
    seed = 0
    while turns < min_turns:
        result = Game(rules, library, players=players, virtual=players, level="card", seed=seed).play()
        turns += result["virtual_turns"]
        games += 1
        seed += 1
    elapsed = time.perf_counter() - start
    return turns / elapsed, turns, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="rule-level games per engine")
    parser.add_argument(
        "--turns", type=int, default=100, help="card-level virtual turns to time (interpreter)"
    )
    parser.add_argument(
        "--compiled-turns",
        type=int,
        default=None,
        help="card-level virtual turns for the compiled path (10x)",
    )
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--json", action="store_true", help="also print one JSON object on the last line")
    args = parser.parse_args()
    fast = args.compiled_turns or 10 * args.turns
    out: dict[str, object] = {"players": args.players, "python": platform.python_version()}
    print(f"UNO speed, {args.players} players, Python {platform.python_version()} on {platform.machine()}")
    rate, avg = ours_rule_level(args.games, args.players)
    out.update(rule_games_per_s=round(rate, 1), rule_turns_per_game=round(avg, 1), games=args.games)
    print(
        f"  rule level, kitgen uno:      {rate:8.1f} games/s   ({avg:.1f} turns per game, {args.games} games)"
    )
    theirs = rlcard_rule_level(args.games, args.players)
    if theirs is None:
        out.update(rlcard_games_per_s=None, rule_vs_rlcard=None)
        print("  rule level, RLCard 1.2 UNO:  not installed (pip install -e '.[bench]')")
    else:
        out.update(rlcard_games_per_s=round(theirs[0], 1), rule_vs_rlcard=round(rate / theirs[0], 2))
        print(
            f"  rule level, RLCard 1.2 UNO:  {theirs[0]:8.1f} games/s   ({theirs[1]:.1f} turns per game)"
            f"   ours / RLCard: {rate / theirs[0]:.2f}x"
        )
    rates = {}
    for engine, runs in (("compiled", fast), ("interpreter", args.turns)):
        rate, k, k1 = card_level_full_table(max(10, runs // 2), args.players, engine)
        rates[engine] = rate
        print(
            f"  card level, full table, {engine + ':':12} {rate:8.1f} virtual turns/s  "
            f"(k = {k} cards, k1 = {k1}, one protocol run each)"
        )
    out.update(
        card_turns_per_s=round(rates["compiled"], 1),
        card_interpreter_turns_per_s=round(rates["interpreter"], 1),
        card_compiled_vs_interpreter=round(rates["compiled"] / rates["interpreter"], 2),
    )
    print(f"  card level, compiled / interpreter: {rates['compiled'] / rates['interpreter']:.1f}x")
    for engine, turns_wanted, key in (
        ("compiled", fast, "card_game_turns_per_s"),
        ("interpreter", args.turns, "card_game_interpreter_turns_per_s"),
    ):
        rate, turns, games = card_level_games(turns_wanted, args.players, engine)
        out[key] = round(rate, 1)
        print(
            f"  card level, whole games, {engine + ':':12} {rate:7.1f} virtual turns/s  "
            f"({turns} virtual turns in {games} games, all seats virtual)"
        )
    if args.json:
        print(json.dumps(out))


if __name__ == "__main__":
    main()
