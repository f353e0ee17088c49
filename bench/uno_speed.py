"""UNO speed: rule-level games per second (ours and RLCard's) and card-level virtual turns.

Usage:  python bench/uno_speed.py [--games 300] [--turns 100] [--players 4]

RLCard is an optional benchmark dependency: pip install -e '.[bench]'. Both engines play
4-player games in which every seat picks uniformly at random among its legal moves.

Rule differences (RLCard 1.2 UNO vs our `uno` rule set): RLCard plays a drawn card
automatically when it is playable; allows wild draw four only when no other card is
legal; gives a wild first card a random colour; and reshuffles the whole discard pile,
top card included. Ours follows the paper's rules (wild draw four always playable, a
drawn valid card is played, the first player names a wild first card's colour, the top
card stays), and also handles both piles running out, which RLCard does not.

Card level: every virtual turn runs the card selection protocol spec on the simulated
table, with all the checks of `kitgen play --level card`.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from reference_engine.kinds.shedding import Game, load_rules
from reference_engine.registry import Library
from reference_engine.selection import CallCache, run_selection


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


def card_level_full_table(runs: int, players: int) -> tuple[float, int, int]:
    """Protocol runs per second on a freshly dealt full table (P_1 holds 7 cards)."""
    rules = load_rules("uno")
    library = Library()
    protocol = library.protocol("card-selection")
    rng = random.Random(1)
    cache = CallCache()
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


def card_level_games(min_turns: int, players: int) -> tuple[float, int, int]:
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
    parser.add_argument("--turns", type=int, default=100, help="card-level virtual turns to time")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    print(f"UNO speed, {args.players} players, Python {platform.python_version()} on {platform.machine()}")
    rate, avg = ours_rule_level(args.games, args.players)
    print(
        f"  rule level, kitgen uno:      {rate:8.1f} games/s   ({avg:.1f} turns per game, {args.games} games)"
    )
    theirs = rlcard_rule_level(args.games, args.players)
    if theirs is None:
        print("  rule level, RLCard 1.2 UNO:  not installed (pip install -e '.[bench]')")
    else:
        print(f"  rule level, RLCard 1.2 UNO:  {theirs[0]:8.1f} games/s   ({theirs[1]:.1f} turns per game)")
    rate, k, k1 = card_level_full_table(max(10, args.turns // 2), args.players)
    print(
        f"  card level, full table:      {rate:8.1f} virtual turns/s  "
        f"(k = {k} cards, k1 = {k1}, one protocol run each)"
    )
    rate, turns, games = card_level_games(args.turns, args.players)
    print(
        f"  card level, whole games:     {rate:8.1f} virtual turns/s  "
        f"({turns} virtual turns in {games} games, all seats virtual)"
    )


if __name__ == "__main__":
    main()
