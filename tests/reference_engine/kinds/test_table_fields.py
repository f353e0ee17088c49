"""The shared fields of a table game's rule set (``players``, ``source``, ``kit``) are checked
before the loader gives up or returns: a bad value is refused with its key, never replaced by a
default in silence (a climbing or layout game reads them through ``table_fields``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from reference_engine.errors import SpecError
from reference_engine.kinds import load_game


@pytest.mark.parametrize("game", ["daifugo", "sevens"])
@pytest.mark.parametrize(
    ("before", "after", "key"),
    [
        ("players: {min: 3,", "players: {min: 1,", "players.min"),
        ("default: 4}", "default: many}", "players.default"),
    ],
)
def test_a_bad_players_entry_is_refused(tmp_path: Path, game: str, before: str, after: str, key: str) -> None:
    source = Path(load_game(game).file)
    text = source.read_text(encoding="utf-8")
    assert before in text
    path = tmp_path / f"{game}.yaml"
    path.write_text(text.replace(before, after, 1), encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_game(str(path))
    assert key in str(info.value), str(info.value)


@pytest.mark.parametrize("game", ["daifugo", "sevens"])
def test_a_bad_kit_entry_is_refused(tmp_path: Path, game: str) -> None:
    source = Path(load_game(game).file)
    path = tmp_path / f"{game}.yaml"
    path.write_text(source.read_text(encoding="utf-8") + "kit: [not, a, table]\n", encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_game(str(path))
    assert "kit" in str(info.value), str(info.value)
