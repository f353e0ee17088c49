"""w48-attack3: a virtual player's protocol must fit what the game does with a hand that holds no
valid card. card-selection-original (and -fast) play any card when none is valid (Hearts: a
player who cannot follow suit plays any card); in UNO, Crazy Eights, Sevens or Dominoes that card
is not a legal play, and the game stopped at the first such turn (exit 1). The other way round,
a protocol that may play no card stopped a Hearts game. Both are now refused before the game
starts, with one line (exit 2)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from kitgen.cli.main import main
from reference_engine.errors import UsageError
from reference_engine.kinds.kind import PlaySettings
from reference_engine.kinds.ruleset import kind_of, load_game
from reference_engine.registry import Library


@pytest.mark.parametrize("protocol", ["card-selection-original", "card-selection-original-fast"])
def test_a_protocol_that_plays_an_invalid_card_is_refused_before_the_game(protocol: str) -> None:
    settings = PlaySettings(players=4, virtual=2, level="card", seed=0, protocol=protocol)
    with pytest.raises(UsageError, match=protocol):
        kind_of("uno").play(load_game("uno"), Library(), settings)


@pytest.mark.parametrize(
    ("game", "protocol", "why"),
    [
        ("uno", "card-selection-original", "plays a card even when none may be played"),
        ("crazy-eights", "card-selection-original-fast", "plays a card even when none may be played"),
        ("sevens", "card-selection-original", "plays a card even when none may be played"),
        ("dominoes", "card-selection-original", "plays a card even when none may be played"),
        ("hearts", "card-selection-fast", "may play no card"),
    ],
)
def test_kitgen_play_refuses_a_misfit_in_one_line(game: str, protocol: str, why: str) -> None:
    result = CliRunner().invoke(
        main, ["play", game, "--level", "card", "--virtual", "2", "--seed", "1", "--protocol", protocol]
    )
    assert result.exit_code == 2, result.output
    assert why in result.output and game in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("game", ["uno", "crazy-eights", "sevens", "dominoes", "hearts"])
def test_the_default_protocol_of_every_game_fits(game: str) -> None:
    rules = load_game(game)
    settings = PlaySettings(players=4, virtual=1, level="card", seed=0)
    kind = kind_of(game)
    kind.game_type(kind.rules_of(rules), Library(), **kind.table(settings, "card"))  # no error
