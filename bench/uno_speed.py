"""UNO speed: rule-level games per second (ours and RLCard's) and card-level virtual turns.

Usage:  python bench/uno_speed.py [--games 300] [--rounds 5] [--turns 100] [--players 4] [--json]

Rule level, like with like: our UNO with RLCard's draw rule (a player who draws plays the drawn
card if it can: ``virtual_draw: play``; the rule set's own default keeps it), every seat picking
uniformly at random among its legal moves, as the RLCard loop does. Both engines play ``--games``
games once to warm up, then ``--rounds`` interleaved timed rounds of the same games; each round
gives a ratio (ours / RLCard's, games/s and turns/s), and the median ratio counts (the machine
may be shared: a median of paired rounds is what other work disturbs least). The best round of
each engine and the cold first round are printed too. Every figure is CPU time of this process
(time.process_time). A game's result is not made into JSON (``kitgen play --json`` does that).

Card level: every virtual turn runs the rule set's default protocol (``card_game_protocol``,
card-selection-arrow for UNO) on the simulated table, with all the checks of ``kitgen play
--level card``: on a full table (one run per turn) and in whole games (all seats virtual), on
the compiled path (reference_engine/compiled/, the default) and on the interpreter, with the
same seeds; the compiled path runs 10x as many virtual turns.

``--json`` prints one JSON object on the last line: rule_games_per_s, rlcard_games_per_s (null
without RLCard), rule_vs_rlcard (median ratio of games/s), rule_turns_vs_rlcard (of turns/s),
rule_turns_per_game, rlcard_turns_per_game, the cold first rounds, card_game_protocol,
card_game_engine_used, card_turns_per_s (compiled path, full table),
card_interpreter_turns_per_s, card_compiled_vs_interpreter, card_game_turns_per_s,
card_game_interpreter_turns_per_s and card_game_compiled_vs_interpreter (whole games), and the
settings.

RLCard is an optional benchmark dependency: pip install -e '.[bench]'. The rule differences
between RLCard's UNO and ours are listed in README ("Rule differences against RLCard").
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time
from typing import Any

from figures import add_record_options, append_record

from reference_engine.kinds.shedding import Game, load_rules
from reference_engine.registry import Library
from reference_engine.selection import ENGINE, CallCache, run_selection


def ours_rule_level(games: int, players: int, rules: Any, library: Library) -> tuple[float, float]:
    """Games per second and turns per game: RLCard's draw rule (play a drawn card if it can)."""
    turns = 0
    start = time.process_time()
    for seed in range(games):
        game = Game(
            rules, library, players=players, virtual=players, level="rule", seed=seed, virtual_draw="play"
        )
        result = game.play()
        assert result is not None
        turns += result.turns
    elapsed = time.process_time() - start
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
    start = time.process_time()
    for _ in range(games):
        game.init_game()
        while not game.is_over():
            game.step(rng.choice(game.get_legal_actions()))
            turns += 1
    elapsed = time.process_time() - start
    return games / elapsed, turns / games


def rule_level(games: int, players: int, rounds: int) -> dict[str, Any]:
    """Both engines on the same games: a warm-up round each (one rule set for the whole
    benchmark, as in a long simulation: its validity answers are cached from game to game),
    then ``rounds`` interleaved rounds, each giving a ratio; the median ratio counts (see the
    module docs), the best round of each engine and the first (cold) are reported too."""
    rules = load_rules("uno")
    library = Library()
    cold, avg = ours_rule_level(games, players, rules, library)
    theirs_cold = rlcard_rule_level(games, players)
    ours: list[float] = []
    theirs: list[tuple[float, float]] = []
    for _ in range(rounds):
        ours.append(ours_rule_level(games, players, rules, library)[0])
        t = rlcard_rule_level(games, players)
        if t is not None:
            theirs.append(t)
    out: dict[str, Any] = {
        "rule_games_per_s": round(max(ours), 1),
        "rule_cold_games_per_s": round(cold, 1),
        "rule_turns_per_game": round(avg, 1),
        "rule_turns_per_s": round(max(ours) * avg, 1),
        "rule_draw_rule": "play a drawn card if it can (virtual_draw: play)",
        "rlcard_games_per_s": None,
        "rlcard_cold_games_per_s": None,
        "rule_vs_rlcard": None,
        "rule_turns_vs_rlcard": None,
    }
    if theirs_cold is not None:
        their_turns = theirs_cold[1]
        games_ratios = [o / t[0] for o, t in zip(ours, theirs)]
        turns_ratios = [o * avg / (t[0] * their_turns) for o, t in zip(ours, theirs)]
        out.update(
            rlcard_games_per_s=round(max(t[0] for t in theirs), 1),
            rlcard_cold_games_per_s=round(theirs_cold[0], 1),
            rlcard_turns_per_game=round(their_turns, 1),
            rlcard_turns_per_s=round(max(t[0] for t in theirs) * their_turns, 1),
            rule_vs_rlcard=round(statistics.median(games_ratios), 2),
            rule_turns_vs_rlcard=round(statistics.median(turns_ratios), 2),
            rule_vs_rlcard_rounds=[round(r, 2) for r in games_ratios],
        )
    return out


def card_level_full_table(runs: int, players: int, engine: str) -> tuple[float, int, int]:
    """Protocol runs per second on a freshly dealt full table (P_1 holds 7 cards), with the
    rule set's default protocol."""
    rules = load_rules("uno")
    library = Library()
    protocol = library.protocol(rules.virtual_protocol)
    rng = random.Random(1)
    cache = CallCache(engine=engine)
    deck = rules.deck()
    rng.shuffle(deck)
    top = next(c for c in deck if c.attrs["color"] != "black")
    deck.remove(top)
    owners = [[deck.pop() for _ in range(7)] for _ in range(players)] + [deck]
    valid = rules.validity(top, str(top.attrs["color"]))
    start = time.process_time()
    for i in range(runs):
        run_selection(library, protocol, [list(o) for o in owners], valid, rng, cache, f"run {i}")
    elapsed = time.process_time() - start
    return runs / elapsed, sum(len(o) for o in owners), len(owners[0])


def card_level_games(min_turns: int, players: int, engine: str) -> tuple[float, int, int, str | None]:
    token = ENGINE.set(engine)
    try:
        return _card_level_games(min_turns, players)
    finally:
        ENGINE.reset(token)


def _card_level_games(min_turns: int, players: int) -> tuple[float, int, int, str | None]:
    """Virtual turns per second in whole games with the rule set's default protocol, and the
    engine that ran them."""
    rules = load_rules("uno")
    library = Library()
    turns = games = 0
    used: str | None = None
    start = time.process_time()
    seed = 0
    while turns < min_turns:
        result = Game(rules, library, players=players, virtual=players, level="card", seed=seed).play()
        assert result is not None
        turns += result.virtual_turns
        used = result.work.engine_used
        games += 1
        seed += 1
    elapsed = time.process_time() - start
    return turns / elapsed, turns, games, used


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
    parser.add_argument(
        "--rounds", type=int, default=5, help="timed rule-level rounds per engine (the median ratio counts)"
    )
    parser.add_argument("--json", action="store_true", help="also print one JSON object on the last line")
    add_record_options(parser)  # every run is appended to bench/results/uno_speed.jsonl
    args = parser.parse_args()
    fast = args.compiled_turns or 10 * args.turns
    out: dict[str, object] = {"players": args.players, "python": platform.python_version()}
    print(f"UNO speed, {args.players} players, Python {platform.python_version()} on {platform.machine()}")
    rule = rule_level(args.games, args.players, args.rounds)
    out.update(rule, games=args.games, rounds=args.rounds)
    print(
        f"  rule level, kitgen uno:      {rule['rule_games_per_s']:8.1f} games/s   "
        f"({rule['rule_turns_per_game']:.1f} turns per game, {args.games} games, RLCard's draw rule; "
        f"cold first round {rule['rule_cold_games_per_s']:.1f})"
    )
    if rule["rlcard_games_per_s"] is None:
        print("  rule level, RLCard 1.2 UNO:  not installed (pip install -e '.[bench]')")
    else:
        print(
            f"  rule level, RLCard 1.2 UNO:  {rule['rlcard_games_per_s']:8.1f} games/s   "
            f"({rule['rlcard_turns_per_game']:.1f} turns per game; "
            f"cold first round {rule['rlcard_cold_games_per_s']:.1f})"
        )
        print(
            f"  ours / RLCard, median of {args.rounds} paired rounds: {rule['rule_vs_rlcard']:.2f}x games/s, "
            f"{rule['rule_turns_vs_rlcard']:.2f}x turns/s (rounds: {rule['rule_vs_rlcard_rounds']})"
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
    out["card_game_protocol"] = load_rules("uno").virtual_protocol
    game_rates: dict[str, float] = {}
    for engine, turns_wanted, key in (
        ("compiled", fast, "card_game_turns_per_s"),
        ("interpreter", args.turns, "card_game_interpreter_turns_per_s"),
    ):
        rate, turns, games, used = card_level_games(turns_wanted, args.players, engine)
        game_rates[engine] = rate
        out[key] = round(rate, 1)
        if engine == "compiled":
            out["card_game_engine_used"] = used
        print(
            f"  card level, whole games, {engine + ':':12} {rate:7.1f} virtual turns/s  "
            f"({turns} virtual turns in {games} games, all seats virtual, {out['card_game_protocol']}, "
            f"engine used: {used})"
        )
    out["card_game_compiled_vs_interpreter"] = round(game_rates["compiled"] / game_rates["interpreter"], 2)
    append_record("uno_speed", out, {k: out[k] for k in ("games", "rounds", "players")}, args)
    if args.json:
        print(json.dumps(out))


if __name__ == "__main__":
    main()
