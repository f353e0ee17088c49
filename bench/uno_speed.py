"""UNO speed: rule-level games per second (ours and RLCard's) and card-level virtual turns.

Usage:  python bench/uno_speed.py [--games 300] [--rounds 5] [--chunk 25] [--turns 100] [--players 4] [--json]

Rule level, like with like: our UNO with RLCard's draw rule (a player who draws plays the drawn
card if it can: ``virtual_draw: play``; the rule set's own default keeps it), every seat picking
uniformly at random among its legal moves, as the RLCard loop does. Both engines play ``--games``
games in a first (cold) round, then ``--rounds`` timed rounds of the same games; within a round
the two engines take turns ``--chunk`` games at a time (on a shared machine both then run under
the same load), and each round gives a ratio (ours / RLCard's, games/s and turns/s); the median
ratio counts. The best round of each engine and the cold first round (and its ratio) are printed
too. Every figure is CPU time of this process (time.process_time). Loading the rule set and its
protocol spec (once per process, as importing RLCard is) is not timed; each game's set-up is, on
both sides. A game's result is not made into JSON (``kitgen play --json`` does that).

Card level: every virtual turn runs the rule set's default protocol (``card_game_protocol``,
card-selection-arrow for UNO) on the simulated table, with all the checks of ``kitgen play
--level card``: on a full table (one run per turn) and in whole games (all seats virtual), on
the compiled path (reference_engine/compiled/, the default) and on the interpreter, with the
same seeds; the compiled path runs 10x as many virtual turns.

``--json`` prints one JSON object on the last line: rule_games_per_s, rlcard_games_per_s (null
without RLCard), rule_vs_rlcard (median ratio of games/s), rule_turns_vs_rlcard (of turns/s),
rule_turns_per_game, rlcard_turns_per_game, the rounds' ratios (rule_vs_rlcard_rounds), the cold
first rounds and their ratio (rule_vs_rlcard_cold), card_game_protocol,
card_game_engine_used, card_turns_per_s (compiled path, full table),
card_interpreter_turns_per_s, card_compiled_vs_interpreter, card_game_turns_per_s,
card_game_interpreter_turns_per_s and card_game_compiled_vs_interpreter (whole games),
card_game_steady_turns_per_s (the compiled games that follow, as many turns again), and the
settings.

RLCard is an optional benchmark dependency: pip install -e '.[bench]'. The rule differences
between RLCard's UNO and ours are listed in README ("Rule differences against RLCard").
"""

from __future__ import annotations

import argparse
import importlib.util
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


def ours_rule_level(seeds: range, players: int, rules: Any, library: Library) -> tuple[float, int]:
    """CPU seconds and turns of our games with ``seeds``: RLCard's draw rule (play a drawn card
    if it can)."""
    turns = 0
    start = time.process_time()
    for seed in seeds:
        game = Game(
            rules, library, players=players, virtual=players, level="rule", seed=seed, virtual_draw="play"
        )
        result = game.play()
        assert result is not None
        turns += result.turns
    return time.process_time() - start, turns


class RLCardRound:
    """RLCard's UnoGame playing a round's games a slice at a time (the same games as in one go:
    one game object and one generator for the round), every seat choosing uniformly among its
    legal actions; CPU seconds and turns of each slice."""

    def __init__(self, players: int):
        import numpy as np
        from rlcard.games.uno.game import UnoGame

        start = time.process_time()  # its set-up is timed, as ours is in every Game
        self.rng = random.Random(0)
        self.game = UnoGame(num_players=players)
        self.game.np_random = np.random.RandomState(0)
        self.setup = time.process_time() - start

    def play(self, games: int) -> tuple[float, int]:
        game, choice = self.game, self.rng.choice
        turns = 0
        start = time.process_time()
        for _ in range(games):
            game.init_game()
            while not game.is_over():
                game.step(choice(game.get_legal_actions()))
                turns += 1
        elapsed = time.process_time() - start + self.setup
        self.setup = 0.0  # counted once, with the first slice
        return elapsed, turns


def rlcard_installed() -> bool:
    return all(importlib.util.find_spec(m) is not None for m in ("numpy", "rlcard"))


def paired_round(
    games: int, players: int, rules: Any, library: Library, chunk: int, theirs: bool
) -> tuple[tuple[float, int], tuple[float, int] | None]:
    """One round: ``games`` games of each engine, played in turn ``chunk`` games at a time (so
    that both run under the same load on a shared machine): (CPU seconds, turns) of ours and of
    RLCard's (None without RLCard)."""
    rl = RLCardRound(players) if theirs else None
    ours_s = theirs_s = 0.0
    ours_t = theirs_t = 0
    for lo in range(0, games, chunk):
        hi = min(games, lo + chunk)
        s, t = ours_rule_level(range(lo, hi), players, rules, library)
        ours_s, ours_t = ours_s + s, ours_t + t
        if rl is not None:
            s, t = rl.play(hi - lo)
            theirs_s, theirs_t = theirs_s + s, theirs_t + t
    return (ours_s, ours_t), ((theirs_s, theirs_t) if rl is not None else None)


def rule_level(games: int, players: int, rounds: int, chunk: int = 25) -> dict[str, Any]:
    """Both engines on the same games: a first (cold) round, then ``rounds`` rounds, each giving
    a ratio; the median ratio counts (see the module docs), the best round of each engine and the
    first are reported too. Each round interleaves the engines ``chunk`` games at a time. One rule
    set for the whole benchmark, as in a long simulation; loading it and its protocol spec (once
    per process, like importing RLCard) is not timed."""
    rules = load_rules("uno")
    library = Library()
    library.protocol(rules.virtual_protocol)  # a rule-level game asks whether its protocol draws
    theirs = rlcard_installed()
    (cold_s, cold_t), theirs_cold = paired_round(games, players, rules, library, chunk, theirs)
    avg = cold_t / games
    ours: list[float] = []
    their_rates: list[tuple[float, float]] = []
    for _ in range(rounds):
        (s, _t), t = paired_round(games, players, rules, library, chunk, theirs)
        ours.append(games / s)
        if t is not None:
            their_rates.append((games / t[0], t[1] / games))
    out: dict[str, Any] = {
        "rule_games_per_s": round(max(ours), 1),
        "rule_cold_games_per_s": round(games / cold_s, 1),
        "rule_turns_per_game": round(avg, 1),
        "rule_turns_per_s": round(max(ours) * avg, 1),
        "rule_draw_rule": "play a drawn card if it can (virtual_draw: play)",
        "rlcard_games_per_s": None,
        "rlcard_cold_games_per_s": None,
        "rule_vs_rlcard": None,
        "rule_turns_vs_rlcard": None,
    }
    if theirs_cold is not None:
        their_turns = theirs_cold[1] / games
        games_ratios = [o / t[0] for o, t in zip(ours, their_rates)]
        turns_ratios = [o * avg / (t[0] * their_turns) for o, t in zip(ours, their_rates)]
        out.update(
            rlcard_games_per_s=round(max(t[0] for t in their_rates), 1),
            rlcard_cold_games_per_s=round(games / theirs_cold[0], 1),
            rlcard_turns_per_game=round(their_turns, 1),
            rlcard_turns_per_s=round(max(t[0] for t in their_rates) * their_turns, 1),
            rule_vs_rlcard=round(statistics.median(games_ratios), 2),
            rule_turns_vs_rlcard=round(statistics.median(turns_ratios), 2),
            rule_vs_rlcard_rounds=[round(r, 2) for r in games_ratios],
            rule_vs_rlcard_cold=round(theirs_cold[0] / cold_s, 2),
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


def card_level_games(
    min_turns: int, players: int, engine: str, steady: bool = False
) -> tuple[float, int, int, str | None, float | None]:
    token = ENGINE.set(engine)
    try:
        return _card_level_games(min_turns, players, steady)
    finally:
        ENGINE.reset(token)


def _card_level_games(
    min_turns: int, players: int, steady: bool
) -> tuple[float, int, int, str | None, float | None]:
    """Virtual turns per second in whole games with the rule set's default protocol, from a
    fresh library (the first ``min_turns`` turns of a process pay every one-time cost: loading and
    compiling the protocol, the first plan of each new table shape, the first enumeration of each
    small lottery), and the engine that ran them. With ``steady``, also the rate of the games
    that follow, for as many turns again, timed apart: the same games once those costs are paid."""
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
    later: float | None = None
    if steady:
        more = 0
        start = time.process_time()
        while more < min_turns:
            result = Game(rules, library, players=players, virtual=players, level="card", seed=seed).play()
            assert result is not None
            more += result.virtual_turns
            seed += 1
        later = more / (time.process_time() - start)
    return turns / elapsed, turns, games, used, later


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
    parser.add_argument(
        "--chunk", type=int, default=25, help="games each engine plays in turn within a rule-level round"
    )
    parser.add_argument("--json", action="store_true", help="also print one JSON object on the last line")
    add_record_options(parser)  # every run is appended to bench/results/uno_speed.jsonl
    args = parser.parse_args()
    fast = args.compiled_turns or 10 * args.turns
    out: dict[str, object] = {"players": args.players, "python": platform.python_version()}
    print(f"UNO speed, {args.players} players, Python {platform.python_version()} on {platform.machine()}")
    rule = rule_level(args.games, args.players, args.rounds, max(1, args.chunk))
    out.update(rule, games=args.games, rounds=args.rounds, chunk=args.chunk)
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
            f"{rule['rule_turns_vs_rlcard']:.2f}x turns/s (rounds: {rule['rule_vs_rlcard_rounds']}; "
            f"cold first round {rule['rule_vs_rlcard_cold']:.2f}x)"
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
        rate, turns, games, used, later = card_level_games(
            turns_wanted, args.players, engine, steady=engine == "compiled"
        )
        game_rates[engine] = rate
        out[key] = round(rate, 1)
        if engine == "compiled":
            out["card_game_engine_used"] = used
        print(
            f"  card level, whole games, {engine + ':':12} {rate:7.1f} virtual turns/s  "
            f"({turns} virtual turns in {games} games, all seats virtual, {out['card_game_protocol']}, "
            f"engine used: {used})"
        )
        if later is not None:
            out["card_game_steady_turns_per_s"] = round(later, 1)
            print(
                f"  card level, whole games, compiled, the next {turns_wanted} turns: {later:7.1f} "
                "virtual turns/s  (the same process: one-time costs already paid)"
            )
    out["card_game_compiled_vs_interpreter"] = round(game_rates["compiled"] / game_rates["interpreter"], 2)
    append_record("uno_speed", out, {k: out[k] for k in ("games", "rounds", "players")}, args)
    if args.json:
        print(json.dumps(out))


if __name__ == "__main__":
    main()
