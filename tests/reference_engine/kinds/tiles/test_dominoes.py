"""Dominoes, Muggins / All Fives (UNO paper, Section 5.3): the tiles, legal moves against the
`dominoes` package, scoring, the first player found with the protocol, drawing until a tile fits."""

from __future__ import annotations

import random

import dominoes
import pytest

from reference_engine.kinds import PlaySettings, find_kind, load_game
from reference_engine.kinds.tiles import MugginsGame, TileRules
from reference_engine.registry import Library
from reference_engine.verify import verify


@pytest.fixture(scope="module")
def rules() -> TileRules:
    loaded = load_game("dominoes")
    assert isinstance(loaded, TileRules)
    return loaded


def test_a_double_six_set(rules: TileRules) -> None:
    tiles = rules.tiles()
    assert len(tiles) == 28 and len({t.name for t in tiles}) == 28
    assert [d.glyph for d in rules.doublets()][:2] == ["6|6", "5|5"]


def test_legal_moves_agree_with_the_dominoes_package(rules: TileRules) -> None:
    """On random lines, a tile is valid here exactly when the dominoes package accepts it on an end."""
    rng = random.Random(1)
    for _ in range(300):
        tiles = rules.tiles()
        rng.shuffle(tiles)
        board = dominoes.Board()
        ends = None
        for tile in tiles[: rng.randint(1, 8)]:
            low, high = int(tile.attrs["low"]), int(tile.attrs["high"])
            placed = False
            for left in (True, False):
                try:
                    board.add(dominoes.Domino(low, high), left)
                    placed = True
                    break
                except dominoes.EndsMismatchException:
                    continue
            if not placed:
                continue
            ends = ((board.left_end(), False), (board.right_end(), False))
        if ends is None:
            continue
        valid = rules.validity(ends)
        for tile in rules.tiles():
            low, high = int(tile.attrs["low"]), int(tile.attrs["high"])
            theirs = any(_fits(board, dominoes.Domino(low, high), left) for left in (True, False))
            assert valid(tile) == theirs, (tile.glyph, ends)


def _fits(board: dominoes.Board, domino: dominoes.Domino, left: bool) -> bool:
    end = board.left_end() if left else board.right_end()
    return end in (domino.first, domino.second)


def test_scoring_of_open_ends(rules: TileRules) -> None:
    """Hand-worked: 6|6 opens (12, nothing); 2|6 on the left makes 2 + 12 = 14; 2|3 then 3 + 12 = 15."""
    assert rules.count(((6, True), (6, True)), rules.symbol("t66")) == 12
    assert rules.count(((2, False), (6, True)), None) == 14
    assert rules.count(((3, False), (6, True)), None) == 15
    assert rules.count(((5, True), (5, False)), None) == 15


def test_a_card_level_game_finds_the_first_player_and_draws_until_a_tile_fits(
    library: Library, rules: TileRules
) -> None:
    kind = find_kind("tiles")
    settings = PlaySettings(players=4, virtual=2, level="card", seed=1)
    first = kind.play(rules, library, settings).to_json()
    assert first == kind.play(rules, library, settings).to_json()
    assert first["all_checks_passed"] and first["protocol_runs"] > 0
    log = first["log"]
    opening = [t for t in log if t["index"] == 1]
    assert (
        opening[-1]["action"] == "open"
        and opening[-1]["tile"].split("|")[0] == opening[-1]["tile"].split("|")[1]
    )
    # A virtual player that drew ran the protocol once more for every tile drawn.
    virtual_turns = [t for t in log if t["seat"] in (1, 2) and t["index"] > 1]
    assert virtual_turns and all(t["runs"] == t.get("drew", 0) + 1 for t in virtual_turns)
    assert any(t.get("drew") for t in virtual_turns)
    assert first["scores"] == [sum(t.get("scored", 0) for t in log if t["seat"] == s) for s in (1, 2, 3, 4)]


def test_the_protocol_verifies_on_a_reduced_table(library: Library) -> None:
    report = verify(library, library.protocol("card-selection"), scenario="dominoes-mini")
    assert report.ok and report.inputs == 30


def test_no_doublet_means_a_new_draw(library: Library, rules: TileRules) -> None:
    game = MugginsGame(rules, library, players=2, virtual=0, level="rule", seed=0)
    game.deal()
    game.hands = [[rules.symbol("t01"), rules.symbol("t23")], [rules.symbol("t45"), rules.symbol("t16")]]
    assert game.open() is None
