"""A virtual turn with the paper's draw rule in one run (card-selection-draw): it verifies exactly,
the broken versions are refused, and the game runs it once per virtual turn.

The paper (Section 3.2) runs the protocol again after a draw; card-selection-draw sets one sleeve
of the draw pile aside at Step 10 and turns its pair only when the lottery found no card.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from reference_engine.api import Library, verify
from reference_engine.errors import CheckFailure
from reference_engine.kinds.shedding import Game, load_rules
from reference_engine.selection import CallCache, draw_pile, run_selection

DRAW = "card-selection-draw"


@pytest.mark.parametrize(
    "scenario",
    # mini-discard (the discard pile owned too) is 16 s of CPU: the slow tier's; the others are fast.
    [
        "mini",
        "mini-draw",
        pytest.param("mini-discard", marks=pytest.mark.slow),
        "crazy-eights-mini",
        "dominoes-mini",
    ],
)
def test_the_draw_run_verifies(library: Library, scenario: str) -> None:
    report = verify(library, library.protocol(DRAW), scenario=scenario)
    assert report.ok, report.to_json()["checks"]


def test_without_the_draw_it_is_the_quick_protocol(library: Library) -> None:
    report = verify(library, library.protocol(DRAW), {"draw": 0}, scenario="mini-draw")
    assert report.ok, report.to_json()["checks"]
    quick = verify(library, library.protocol("card-selection-fast"), scenario="mini")
    same = verify(library, library.protocol(DRAW), {"draw": 0}, scenario="mini")
    assert same.to_json()["resources"] == quick.to_json()["resources"]


# Each broken version is refused on the smallest scenario that shows it (SCENARIO_OF; ~0.5 s of
# CPU on "mini", ~5 s on "mini-draw", where the virtual player often draws): on "mini" every card
# it could draw may be played, so a draw that ignores validity, or a kept card shown, goes
# unnoticed there.
BROKEN: dict[str, tuple[list[tuple[str, str]], str]] = {
    # Turning the set-aside sleeve's pair even when the lottery found a card shows the validity of
    # a random card of the draw pile: the paper's player never learns it.
    "drawn pair turned always": (
        [
            (
                """          - if: "found"
            then:
              - return: {cards: "D[1, *]", to: "pile"}
            else:
              - turn: "D[3..4, 1]"
""",
                """          - turn: "D[3..4, 1]"
          - if: "found"
            then:
              - return: {cards: "D[1, *]", to: "pile"}
            else:
""",
            )
        ],
        "secure",
    ),
    # Playing the drawn card whatever its pair says.
    "drawn card always played": (
        [
            (
                """                else:
                  - move: {kept: "D[1, 1]"}""",
                """                else:
                  - move: {played: "D[1, 1]"}""",
            )
        ],
        "correct",
    ),
    # Drawing from another owner's sleeves (P_2's).
    "drawn from a player": ([('pile: "len(sizes) - discard"', 'pile: "2"')], "correct"),
    # Showing the drawn card that the virtual player keeps.
    "kept card shown": (
        [
            (
                """                  - move: {kept: "D[1, 1]"}""",
                '''                  - move: {kept: "D[1, 1]"}
                  - turn: "kept"''',
            )
        ],
        "secure",
    ),
}


SCENARIO_OF = {
    "drawn pair turned always": "mini",
    "drawn card always played": "mini-draw",
    "drawn from a player": "mini",
    "kept card shown": "mini-draw",
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_draw_runs_are_refused(variant: Callable[..., Library], name: str) -> None:
    changes, check = BROKEN[name]
    lib = variant(DRAW, *changes)
    report = verify(lib, lib.protocol(DRAW), scenario=SCENARIO_OF[name])
    assert check in report.failed(), report.to_json()["checks"]


def test_a_draw_pile_is_named_only_for_a_run_that_draws(library: Library) -> None:
    spec = library.protocol(DRAW)
    assert draw_pile(spec, 4, None) == 3
    assert draw_pile(spec, 5, {"discard": 1}) == 3
    assert draw_pile(spec, 4, {"draw": 0}) is None
    assert draw_pile(library.protocol("card-selection-fast"), 4, None) is None


def test_a_run_draws_a_card_of_the_draw_pile_and_plays_it_only_if_valid(library: Library) -> None:
    import random

    rules = load_rules("uno")
    card = rules.symbol
    owners = [[card("green2"), card("blue7")], [card("red1")], [card("yellow5"), card("green8")]]
    valid = rules.validity(card("red5"), "red", None)
    spec = library.protocol(DRAW)
    cache = CallCache()
    drawn = set()
    for seed in range(8):
        run = run_selection(library, spec, owners, valid, random.Random(seed), cache, f"run {seed}")
        assert run.drawn in (card("yellow5"), card("green8"))
        drawn.add(run.drawn)
        assert (run.played is not None) == (run.drawn == card("yellow5"))
        assert len(run.returned[0]) == 2 + (run.played is None) and len(run.returned[2]) == 1
    assert len(drawn) == 2


@pytest.mark.parametrize("level", ["rule", "card"])
def test_a_virtual_turn_is_one_run_even_when_it_draws(library: Library, level: str) -> None:
    # The UNO kits teach the sleeved card-selection-fast (a second run after a draw); a game may
    # name card-selection-draw instead, the whole turn in one run.
    rules = replace(load_rules("uno"), virtual_protocol=DRAW)
    assert rules.virtual_draw == "play"
    game = Game(rules, library, players=4, virtual=2, level=level, seed=3)
    result = game.play().to_json()
    log = [t for hand in result["log"] for t in hand]
    virtual = [t for t in log if t["seat"] in (1, 2) and t["action"] != "skipped"]
    assert any(t["action"] == "draw" for t in virtual) and any(t["action"] == "draw-play" for t in virtual)
    assert len(game.stats.tables) == len(virtual)  # one protocol run per virtual turn
    if level == "card":
        assert result["all_checks_passed"] and result["protocol_runs"] == len(virtual)


def test_keep_still_works(library: Library) -> None:
    rules = load_rules("uno")
    game = Game(rules, library, players=4, virtual=2, level="card", seed=3, virtual_draw="keep")
    result = game.play().to_json()
    log = [t for hand in result["log"] for t in hand]
    assert not any(t["action"] == "draw-play" for t in log if t["seat"] in (1, 2))
    assert result["all_checks_passed"] and not game.draw_in_run


def test_an_empty_draw_pile_draws_after_the_run(library: Library) -> None:
    """With nothing to set aside (the draw pile is empty), the virtual player draws as a person
    does (the discard pile but its top card becomes the draw pile) and the protocol runs again on
    the drawn card without drawing, as the paper does: two runs for that turn."""
    rules = load_rules("uno")
    card = rules.symbol
    game = Game(rules, library, players=2, virtual=1, level="card", seed=0)
    stop = game.run_until(lambda g, seat, valid: True)
    assert stop is not None
    seat = stop[0]
    game.observer, game.stopped = None, None
    game.hands[seat] = [card("green2"), card("blue7")]
    game.draw_pile = []
    game.discard = [card("yellow5"), card("green8"), card("red1"), card("red5")]
    game.color = "red"
    runs = len(game.stats.tables)
    action = game.take_turn(99, seat)
    assert action in ("draw", "play") and len(game.stats.tables) == runs + 2
    assert len(game.hands[seat]) == (3 if action == "draw" else 2)


def test_the_game_refuses_a_run_that_plays_an_invalid_drawn_card(
    variant: Callable[..., Library],
) -> None:
    lib = variant(DRAW, *BROKEN["drawn card always played"][0])
    rules = replace(load_rules("uno"), virtual_protocol=DRAW)
    with pytest.raises(CheckFailure, match="drawn card"):
        for seed in range(20):
            Game(rules, lib, players=4, virtual=2, level="card", seed=seed).play()
