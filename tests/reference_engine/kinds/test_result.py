"""Each kind's typed play result (:mod:`reference_engine.kinds.result`) says what the game's
dict said before it: ``to_json()`` is ``kitgen play --json``'s object, key for key and in order."""

from __future__ import annotations

import hashlib
import json

import pytest

from reference_engine.api import Library, PlayResult, PlaySettings, TableResult, play

# SHA-256 of json.dumps(result, ensure_ascii=False) of seed 1, one virtual player (Gakmoro: none),
# as the games returned them before the typed results (commit 70e121c).
BEFORE = {
    ("crazy-eights", "rule"): "e5baf4c52b7b86db77b4f4820dda39908663b6273fc3d773844e71870d3e6536",
    ("crazy-eights", "card"): "69566795468529a3363265ca05c1e9c3dafe38955aad6647a7475c2c63815fbe",
    ("daifugo", "rule"): "e3b0bf2b36e87f4ed62e26a4f506f0fc00976be60eccb8d7faca7e66ac3c20e4",
    ("daifugo", "card"): "0037388ff2ed67f7e3c5cea896e95d257fe5153a324f789ccce35e13f3b7ded7",
    ("dominoes", "rule"): "8788c89a6664d0eabecd9c1cdaf3fe0924efa3ddac0734ef11d9bb63f37ba8c2",
    ("dominoes", "card"): "a6479dbb9c12e483e19981cd24a1fe2881efc1c6512f0c2847d9f84a1adcc736",
    ("gakmoro", "rule"): "90f1f01ae7b6fcdb270bb4c76afa1459adff02bacb329d81a07c320549bb520c",
    ("gakmoro", "card"): "d83f8254baf2262fcf76a1b9a5578d0c73d75dea98a696727896f6ebd4d2a3d9",
    ("hearts", "rule"): "f808bfe4abb45521427c1ff63a369b05801f431f4ab7682a3e9ba71eb8199f4a",
    ("hearts", "card"): "9faf22c0023d9d1d9ce67c686e2f7ea9a2b4ae75ee161f6c21ef61afb105658e",
    ("sevens", "rule"): "400379d4e6f5096b7593f22a10e5e8491c8aecc5edb5335705172ccc1fce7050",
    ("sevens", "card"): "f1dfecd96a1130c3a344da3364c94371561248f6775a5ae8c6a0ac002204cb9d",
    ("uno-official", "rule"): "1bb6fa5f4744d0c34e92d1ac64103da0e549c969d2b0d604049b6698d6d899cf",
    ("uno-official", "card"): "1d704b920b9bd59250b61d6fad222570952b44fb39d7ee9990d81464a8077965",
    ("uno-small", "rule"): "0ce5c160d536104d310ed08254afe01571d50673fe00eb45bf14ae88de7604f2",
    ("uno-small", "card"): "a86a6ac7aa26ce015a8eebf51365fec09a10eee5a53e4909ebb7217d43f4aa27",
    ("uno", "rule"): "c8e0a0b62074a28ea535c25f7b5b6d4d0743ceeb40876e1bb835488fd06db545",
    ("uno", "card"): "6330caa2bb4b977b3876861ba2cd07841bd638438bcc053be12ffe4ef7a8e467",
}


def _settings(game: str, level: str) -> PlaySettings:
    if game == "gakmoro":
        return PlaySettings(None, 0, level, 1)
    # UNO's games as they were played then: a virtual player kept a drawn card (the default is
    # the paper's draw rule again since issue 36; these hashes pin the same games).
    options: dict[str, object] = {"virtual_draw": "keep"} if game.startswith("uno") else {}
    if game == "uno-official":
        options["wild4"] = "bluff"
    # And with the protocols they were played with then (since issue 36 the UNO kits default to
    # card-selection-arrow and Daifugō to play-selection-fast: other games, same typed result).
    then = {"uno": "card-selection-fast", "daifugo": "play-selection"}
    protocol = (
        then["uno" if game.startswith("uno") else game]
        if game in ("uno", "uno-small", "uno-official", "daifugo")
        else None
    )
    return PlaySettings(None, 1, level, 1, protocol if level == "card" else None, options)


@pytest.mark.parametrize(("game", "level"), sorted(BEFORE))
def test_the_typed_result_writes_the_same_json(game: str, level: str) -> None:
    result = play(game, Library(), _settings(game, level))
    assert isinstance(result, PlayResult)
    data = result.to_json()
    # Which engine ran the protocol (issue 37) is new; everything else is as it was.
    engine = data.pop("engine_used"), data.pop("fallback_reason")
    # Every kit's default protocol is compiled, the sleeved quick ones included.
    assert engine == (("compiled", None) if level == "card" else (None, None))
    assert hashlib.sha256(json.dumps(data, ensure_ascii=False).encode()).hexdigest() == BEFORE[game, level]
    # The typed fields are the JSON's.
    assert (data["game"], data["seed"], data["level"], data["protocol"]) == (
        result.game,
        result.seed,
        result.level,
        result.protocol,
    )
    if isinstance(result, TableResult):
        assert (data["winner"], data["turns"], data["protocol_runs"]) == (
            result.winner,
            result.turns,
            result.work.protocol_runs,
        )
        assert sum(len(log) for log in result.rounds_log()) > 0


def test_pick_lists_the_keys_in_their_order_spreads_and_leaves_a_none_out() -> None:
    from types import SimpleNamespace

    from reference_engine.kinds.result import pick

    class Work:
        def to_json(self) -> dict[str, int]:
            return {"runs": 2, "checks": 3}

    source = SimpleNamespace(b=1, a=None, c="x", work=Work())
    assert list(pick(source, "c b *work a")) == ["c", "b", "runs", "checks", "a"]
    assert pick(source, "a? b") == {"b": 1}
    assert pick(source, "c? a") == {"c": "x", "a": None}
    with pytest.raises(AttributeError):  # a misspelt key fails, never writes a wrong object
        pick(source, "b winer")
