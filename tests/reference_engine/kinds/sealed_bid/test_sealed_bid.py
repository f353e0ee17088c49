"""Gakmoro without a dealer: the protocols, the rule set, whole games."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from kitgen.cli.main import main
from reference_engine.errors import CheckFailure, SpecError, UsageError
from reference_engine.kinds import kind_name, load_game, rules_path
from reference_engine.kinds.sealed_bid import SealedBidGame, load_sealed_bid, plain_winner, submissions
from reference_engine.kinds.shedding import load_rules
from reference_engine.registry import Library
from reference_engine.simulate import simulate
from reference_engine.verify import verify

LIB = Library()


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


@pytest.mark.parametrize(
    ("name", "params", "cards"),
    [
        ("gakmoro-extension", {"n": 8, "to": 14}, 14),
        ("gakmoro-extension", {"n": 8, "to": 19}, 19),
        ("gakmoro-subtraction", {"m": 18}, 74),
        ("gakmoro-comparison", {"m": 6}, 26),
        ("ruangwises-itoh-addition", {"m": 13}, 28),
        ("ruangwises-itoh-addition", {"m": 18}, 38),
    ],
)
def test_building_blocks_verify_exactly(name: str, params: dict[str, int], cards: int) -> None:
    report = verify(LIB, LIB.protocol(name), params)
    assert report.ok, report.failed()
    assert report.resources["cards"] == cards


def test_comparison_reveals_only_the_sign() -> None:
    report = verify(LIB, LIB.protocol("gakmoro-comparison"), {"m": 5})
    assert report.ok
    # The ♥ shows at one of the 2m + 1 = 11 places: uniform in the left block (Alice wins), in
    # the middle (a tie) or uniform in the right block. The players can tell 11 tables apart;
    # the verifier merges the places of each block (alike up to a constant) into 3 views.
    secure = report.check("secure")
    assert secure is not None and "11 possible views (3 after merging" in secure.figure
    assert secure.detail == {"views": 11, "views_after_merging": 3}


def test_the_other_reading_of_the_comparison_fails(variant: Callable[..., Library]) -> None:
    """Shuffling -m..0 together with the middle card hides a tie among the losses: not correct."""
    lib = variant("gakmoro-comparison", ('scramble: "cards(d[1..m])"', 'scramble: "cards(d[1..m + 1])"'))
    report = verify(lib, lib.protocol("gakmoro-comparison"), {"m": 4})
    assert "correct" in report.failed()
    assert report.check("secure") is not None


def test_subtraction_verify_json_exact_with_the_papers_counts() -> None:
    """The whole round's report (from the kit, which verifies it once) is checked in
    tests/kitgen/kinds/test_sealed_bid.py; here the CLI on a protocol it calls."""
    code, out = run("verify", "gakmoro-subtraction", "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["method"] == "exact" and data["correct"] and data["secure"]
    assert data["inputs"] == 19 * 19  # every pair of inputs at the default m = 18 (19 values each)
    assert {e["name"] for e in data["expect"]} == {"cards", "shuffles"}
    assert all(e["match"] for e in data["expect"])


def test_play_card_level_checks_every_round() -> None:
    code, out = run("play", "gakmoro", "--seed", "3", "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["level"] == "card" and data["protocol_runs"] == len(data["rounds"])
    assert data["checks_passed"] == 5 * len(data["rounds"])
    wins = {"Alice": 0, "Bob": 0}
    for r in data["rounds"]:
        a, b = (tuple(r["submitted"][n]) for n in ("Alice", "Bob"))
        assert len(a) == len(b) == 3
        sign = plain_winner(a, b)
        assert r["announced"] == ("Alice wins" if sign > 0 else "Bob wins" if sign < 0 else "a tie")
        if sign:
            wins["Alice" if sign > 0 else "Bob"] += 1
        assert r["table"] == [2, 37]
    assert data["round_wins"] == wins
    # Later rounds reuse the opened cards: only the first round needs loose cards.
    assert data["loose_cards_needed"] == {"club": 30}
    assert run("play", "gakmoro", "--seed", "3", "--json")[1] == out


def test_every_hand_is_used_up_over_three_rounds() -> None:
    rules = load_game("gakmoro")
    for seed in range(20):
        game = SealedBidGame(rules, LIB, level="rule", seed=seed, strategies=("random", "greedy"))
        result = game.play().to_json()
        played = [v for r in result["rounds"] for v in r["submitted"]["Alice"]]
        assert len(played) == 3 * len(result["rounds"])
        assert all(played.count(v) <= (2 if v == 0 else 1) for v in played)
        a, b = result["round_wins"]["Alice"], result["round_wins"]["Bob"]
        expect = "Alice" if a > b else "Bob" if b > a else "draw"
        assert result["winner"] == expect


def test_dealer_variant_submits_one_to_three_real_cards() -> None:
    rules = load_game("gakmoro")
    options = submissions(rules, [1, 2, 3, 4, 5, 6, 7], "dealer", 3)
    assert {len(o) for o in options} == {1, 2, 3}
    assert all(0 not in o for o in options)
    # With two rounds to go after this one, at least two cards must stay in hand.
    assert all(len(o) <= 3 for o in submissions(rules, [1, 2, 3, 4], "dealer", 3))
    assert max(len(o) for o in submissions(rules, [1, 2, 3, 4], "dealer", 3)) == 2
    code, out = run("play", "gakmoro", "--variant", "dealer", "--seed", "1")
    assert code == 0 and "rule level (dealer)" in out


def test_a_broken_round_stops_the_game(variant: Callable[..., Library]) -> None:
    # The comparison gets the totals the wrong way round: every round that is not a tie
    # announces the wrong winner, and card-level play stops at the first one.
    lib = variant("gakmoro-round", ("with: {a: A, b: B}", "with: {a: B, b: A}"))
    assert not verify(lib, lib.protocol("gakmoro-extension")).failed()
    with pytest.raises(CheckFailure, match="round 1: the protocol announced"):
        SealedBidGame(load_game("gakmoro"), lib, seed=3).play().to_json()


def test_the_game_reuses_opened_cards() -> None:
    proto = LIB.protocol("gakmoro-game")
    sim = simulate(LIB, proto, {}, ["a=6,7,0,1,2,3,0,4,5", "b=1,5,4,0,7,6,0,2,3"], seed=1)
    assert list(sim.outputs["rounds"]) == [1, -1, 1] and sim.outputs["winner"] == 1
    # Three rounds, but the loose cards of one: the opened cards are spares afterwards.
    assert sum(n for _, n in sim.final.meters.peak) == 30
    # 13 vs 1, then 10 vs 9: Alice has won twice and round 3 is not played.
    sim = simulate(LIB, proto, {}, ["a=7,6,0,5,4,1,0,2,3", "b=0,0,1,2,3,4,5,6,7"], seed=1)
    assert list(sim.outputs["rounds"]) == [1, 1, 0] and sim.outputs["winner"] == 1


def test_the_whole_game_is_too_big_to_verify_exactly_and_says_so() -> None:
    code, out = run("verify", "gakmoro-game")
    assert code == 2
    assert "too many to verify exactly" in out and "Traceback" not in out


def test_rule_set_kinds() -> None:
    assert kind_name("gakmoro") == "sealed-bid" and kind_name("uno") == "shedding"
    with pytest.raises(UsageError, match="sealed-bid"):
        load_rules("gakmoro")


def test_bad_sealed_bid_rule_set_names_line_and_key(tmp_path: Path) -> None:
    text = rules_path("gakmoro").read_text(encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace('values: "1..7"', 'values: "1..x"').replace("bundle: 8", "bundle: 5"))
    with pytest.raises(SpecError) as info:
        load_sealed_bid(bad)
    found = {(p.path, p.line is not None) for p in info.value.problems}
    assert ("values", True) in found
    code, out = run("play", str(bad))
    assert code == 2 and "values" in out and "Traceback" not in out


def test_random_strategy_is_uniform_over_legal_submissions() -> None:
    rules = load_game("gakmoro")
    hand = rules.hand("dealerless")
    rng = random.Random(5)
    from reference_engine.kinds.sealed_bid import choose

    seen = {choose("random", rules, hand, "dealerless", 3, rng) for _ in range(3000)}
    assert seen == set(submissions(rules, hand, "dealerless", 3))
