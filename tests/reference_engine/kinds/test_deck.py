"""The rule set checks the kinds share (reference_engine/kinds/deck.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from reference_engine.errors import KitgenError
from reference_engine.kinds import load_game

GAMES = Path(__file__).resolve().parents[3] / "rulesets" / "games"


@pytest.mark.parametrize(
    ("game", "hand", "message"),
    [
        ("hearts", "hand_size: 14", "4 hands of 14 need more than the deck's cards"),
        ("dominoes", "hand_size: 8", "4 hands of 8 need more than the 28 tiles"),
    ],
)
def test_hands_that_do_not_fit_the_deck_are_refused(
    game: str, hand: str, message: str, tmp_path: Path
) -> None:
    """A hand size past what the deck (or the set of tiles) deals to the most seats is refused,
    naming the file and the key."""
    text = (GAMES / f"{game}.yaml").read_text(encoding="utf-8")
    assert "\nhand_size: " in text
    lines = [hand if line.startswith("hand_size: ") else line for line in text.splitlines()]
    path = tmp_path / f"{game}.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(KitgenError) as raised:
        load_game(str(path))
    text = str(raised.value)
    assert message in text and "hand_size" in text and f"{game}.yaml" in text
    # the shipped rule set itself fits
    load_game(str(GAMES / f"{game}.yaml"))
