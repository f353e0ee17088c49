"""w48-attack3: a virtual player's protocol must fit the game's rules. card-selection-original
(and -fast) play any card when no card is valid (Hearts: a player who cannot follow suit plays
any card); in UNO that card is not a legal play, and the game's check stops it mid-game."""

from __future__ import annotations

import pytest

from reference_engine.errors import CheckFailure, UsageError
from reference_engine.kinds.kind import PlaySettings
from reference_engine.kinds.ruleset import kind_of, load_game
from reference_engine.registry import Library


@pytest.mark.xfail(
    strict=True,
    raises=CheckFailure,
    reason=(
        "w48-attack3: `kitgen play uno --level card --protocol card-selection-original` is "
        "accepted and fails mid-game ('played G6, which is not a valid card of the hand', exit "
        "1), on both engines and on main; it should be refused before the game with one line "
        "(exit 2): the protocol plays any card when none is valid, which UNO does not allow"
    ),
)
@pytest.mark.parametrize("protocol", ["card-selection-original", "card-selection-original-fast"])
def test_a_protocol_that_plays_an_invalid_card_is_refused_before_the_game(protocol: str) -> None:
    settings = PlaySettings(players=4, virtual=2, level="card", seed=0, protocol=protocol)
    with pytest.raises(UsageError, match=protocol):
        kind_of("uno").play(load_game("uno"), Library(), settings)
