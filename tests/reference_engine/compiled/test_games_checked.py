"""w48-attack3: every shipped card-level game played whole on the compiled engine with every
fast path checked against the general one (:data:`~reference_engine.compiled.evaluate.CHECKED`:
a :class:`~reference_engine.compiled.evaluate.Mismatch` fails the test) and compared with the
interpreter's game, result for result (the log, the tables, the counts; only the engine named
differs)."""

from __future__ import annotations

import json

import pytest

from reference_engine.compiled import evaluate as ev
from reference_engine.kinds.kind import PlaySettings
from reference_engine.kinds.ruleset import kind_of, load_game
from reference_engine.registry import Library
from reference_engine.selection import ENGINE

# (game, seeds): the quick games three seeds each; hearts (286 runs a game) and daifugo one.
GAMES = [
    *[
        (game, seed)
        for game in ("uno", "uno-small", "crazy-eights", "sevens", "dominoes", "gakmoro")
        for seed in range(3)
    ],
    ("daifugo", 0),
    ("hearts", 0),
]


def _play(
    game: str, seed: int, engine: str, checked: bool, monkeypatch: pytest.MonkeyPatch
) -> dict[str, object]:
    monkeypatch.setattr(ev, "CHECKED", checked)
    token = ENGINE.set(engine)
    try:
        settings = PlaySettings(players=2 if game == "gakmoro" else 4, virtual=2, level="card", seed=seed)
        return kind_of(game).play(load_game(game), Library(), settings).to_json()
    finally:
        ENGINE.reset(token)


@pytest.mark.parametrize(("game", "seed"), GAMES)
def test_a_whole_card_level_game_checked_is_the_interpreters(
    game: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    want = _play(game, seed, "interpreter", False, monkeypatch)
    got = _play(game, seed, "compiled", True, monkeypatch)
    assert (want["engine_used"], got["engine_used"]) == ("interpreter", "compiled")
    assert got["protocol_runs"] and got["level"] == "card"
    want["engine_used"] = got["engine_used"]
    assert json.dumps(got, sort_keys=True, default=str) == json.dumps(want, sort_keys=True, default=str)
