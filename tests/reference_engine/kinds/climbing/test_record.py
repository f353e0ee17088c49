"""Daifugō's records and its referee (issue 39): every game replays; a play changed, a rule broken
by a wrong engine, a forged protocol run are each named; the referee's shuffle count agrees with
the engine's on every run it sees."""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

from reference_engine.api import RECORD_SCHEMA, Library, PlaySettings, record_game, record_text, replay_record
from reference_engine.kinds.climbing.referee import shuffles

SCHEMA = json.loads(RECORD_SCHEMA.read_text(encoding="utf-8"))
_GAMES: dict[tuple[str, int, int, int], dict[str, Any]] = {}


def schema_valid(record: dict[str, Any]) -> dict[str, Any]:
    """The record as its file holds it, validated against the record schema."""
    data: dict[str, Any] = json.loads(record_text(record))
    jsonschema.validate(data, SCHEMA, cls=jsonschema.Draft202012Validator)
    return data


def recorded(level: str = "card", virtual: int = 2, seed: int = 1, players: int = 4) -> dict[str, Any]:
    key = (level, virtual, seed, players)
    if key not in _GAMES:
        settings = PlaySettings(players=players, virtual=virtual, level=level, seed=seed)
        _, record = record_game("daifugo", Library(), settings)
        _GAMES[key] = schema_valid(record)
    return copy.deepcopy(_GAMES[key])


def findings(record: dict[str, Any], rerun: bool = True) -> list[Any]:
    return replay_record(schema_valid(record), Library(), rerun=rerun).findings


@pytest.mark.parametrize(
    ("level", "virtual", "players"),
    [("rule", 2, 4), ("card", 2, 4), ("card", 3, 3), ("card", 0, 5), ("card", 6, 6)],
)
def test_every_game_replays(level: str, virtual: int, players: int) -> None:
    record = recorded(level, virtual, players=players)
    report = replay_record(record, Library())
    assert report.ok, [str(f) for f in report.findings]
    assert report.verdict.rules and report.verdict.unit == "turns" and report.verdict.actions > 20
    runs = sum(len(e["runs"]) for e in record["events"])
    assert runs == record["result"]["protocol_runs"] and (runs > 0) == (level == "card" and virtual > 0)
    types = Counter(e["type"] for e in record["events"])
    assert (
        types["deal"] == 1 and types["game-end"] == 1 and types["out"] == players - 1 and types["trick"] > 0
    )


def test_the_record_holds_what_the_table_saw() -> None:
    record = recorded()
    deal = record["events"][0]
    assert sum(len(h) for h in deal["hidden"]["hands"]) == 52
    assert set(deal["seen"]) == {"3", "4"}  # the people see their own hands; nobody a virtual one's
    run_turns = [e for e in record["events"] if e["runs"]]
    assert {e["seat"] for e in run_turns} == {1, 2}
    for e in run_turns:
        (run,) = e["runs"]
        assert run["protocol"] == "play-selection-fast" and run["played"] == e["public"]["cards"]
        assert run["paper"]["shuffles"] == run["counts"]["shuffles"]


def _play(record: dict[str, Any], seat: int, following: bool) -> dict[str, Any]:
    """A play by ``seat`` past the first few turns (following a play, or leading a trick)."""
    events = record["events"]
    for i, e in enumerate(events):
        if e["type"] != "turn" or e["seat"] != seat or e["turn"] < 4 or e["public"]["action"] != "play":
            continue
        leads = events[i - 1]["type"] in ("trick", "deal")
        if leads != following:
            return e
    raise AssertionError("no such play")


def test_the_cli_replays_and_names_a_changed_play(tmp_path: Path) -> None:
    """The issue's check: play with --record, replay (exit 0); one play changed: exit 1, naming it."""
    from kitgen.cli.main import main

    path = tmp_path / "game.json"
    runner = CliRunner()
    played = runner.invoke(main, ["play", "daifugo", "--seed", "3", "--record", str(path)])
    assert played.exit_code == 0, played.output
    ok = runner.invoke(main, ["replay", str(path)])
    assert ok.exit_code == 0 and ok.output.startswith("replayed: ") and "turns, all legal" in ok.output
    record = json.loads(path.read_text(encoding="utf-8"))
    event = _play(record, 3, following=True)
    was = event["public"]["cards"][0]
    hand = record["events"][0]["hidden"]["hands"][2]
    now = next(c for c in hand if c != was)
    event["public"]["cards"][0] = now
    path.write_text(record_text(record), encoding="utf-8")
    bad = runner.invoke(main, ["replay", str(path)])
    assert bad.exit_code == 1
    first = bad.output.splitlines()[0]
    assert first.startswith(f"divergence at event {event['n']}, turn {event['turn']} (Human 2)")
    assert now in first and was in bad.output  # the referee's finding, then the game played again's


def test_an_illegal_play_is_named_by_the_referee_alone() -> None:
    """A person's following single changed to a 3, the lowest rank: it beats nothing (or that
    player does not hold it); the referee alone names the turn and the card."""
    record = recorded("rule")
    event = next(
        e
        for e in record["events"]
        if e["type"] == "turn"
        and e["seat"] == 3
        and e["turn"] > 3
        and len(e["public"]["cards"] or []) == 1
        and not e["public"]["cards"][0].endswith("3")
    )
    event["public"]["cards"] = ["clubs3"]
    found = findings(record, rerun=False)
    assert found and found[0].event == event["n"] and f"turn {event['turn']}" in found[0].where
    assert "clubs3" in found[0].message


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda pub: pub.update(cards=pub["cards"] + ["clubs3"]), "of one rank"),
        (lambda pub: pub.update(cards=None, action="pass"), "may not pass"),
    ],
)
def test_plays_that_break_the_rules(change: Any, message: str) -> None:
    record = recorded("rule")
    events = record["events"]
    i = next(
        i
        for i, e in enumerate(events)
        if e["type"] == "turn"
        and events[i - 1]["type"] == "trick"
        and len(e["public"]["cards"] or []) < 4
        and not any(c.endswith("3") for c in e["public"]["cards"] or [])
    )
    change(events[i]["public"])
    found = findings(record, rerun=False)
    assert found and found[0].event == events[i]["n"] and message in found[0].message


def test_a_trick_that_ends_too_soon_is_named() -> None:
    record = recorded("rule")
    events = record["events"]
    i = next(i for i, e in enumerate(events) if e["type"] == "trick")
    events.pop(i)  # the pass before it now ends nothing; the next lead comes too soon
    for n, e in enumerate(events, 1):
        e["n"] = n
    found = findings(record, rerun=False)
    assert found and found[0].event == i + 1


def test_a_forged_run_is_named() -> None:
    record = recorded()
    event = next(e for e in record["events"] if e["runs"] and e["public"]["action"] == "play")
    run = event["runs"][0]
    run["counts"]["shuffles"] += 1
    (found,) = findings(record, rerun=False)
    assert found.event == event["n"] and "shuffles" in found.message
    run["counts"]["shuffles"] -= 1
    theta = next(o for o in reversed(run["view"]) if o[0] == "turn")
    theta[1][0] = "theta1" if theta[1][0] != "theta1" else "theta2"
    (found,) = findings(record, rerun=False)
    assert found.event == event["n"] and "θ" in found.message


def test_a_wrong_engine_is_named_though_playing_again_agrees(monkeypatch: pytest.MonkeyPatch) -> None:
    """Plays that need not climb (a rank ignored), and a virtual player that passes with a play:
    the engine repeats its own mistake when it plays again; the referee does not."""
    from reference_engine.kinds.climbing.rules import Play

    monkeypatch.setattr(Play, "beats", lambda self, last: last is None or self.size == last.size)
    _, record = record_game("daifugo", Library(), PlaySettings(virtual=2, level="rule", seed=1))
    report = replay_record(schema_valid(record), Library())
    assert report.rerun is None and report.verdict.finding is not None
    assert "does not beat the last play" in report.verdict.finding.message
    monkeypatch.undo()

    from reference_engine.kinds.climbing import DaifugoGame

    real = DaifugoGame.virtual

    def shy(self: DaifugoGame, index: int, seat: int) -> Any:
        return (None, 0) if self.last is not None else real(self, index, seat)

    monkeypatch.setattr(DaifugoGame, "virtual", shy)
    _, record = record_game("daifugo", Library(), PlaySettings(virtual=2, level="rule", seed=1))
    report = replay_record(schema_valid(record), Library())
    assert report.rerun is None and report.verdict.finding is not None
    assert "is virtual and passes holding a play" in report.verdict.finding.message


def test_the_referees_shuffle_count_is_the_engines() -> None:
    """Written apart from the engine's (from docs/daifugo.md), it agrees on every run of several games."""
    runs = 0
    for seed in (2, 4):
        record = recorded("card", 3, seed=seed, players=5)
        for e in record["events"]:
            for run in e["runs"]:
                assert run["counts"]["shuffles"] == run["paper"]["shuffles"]
                runs += 1
        assert replay_record(record, Library(), rerun=False).ok
    assert runs > 40
    # Leading with a pair of a rank of 3 cards on the table: rows and columns (2), a lottery on the
    # 2 columns left and the stop card (5), on the 1 left and the stop card (4); the final shuffle.
    assert shuffles(Counter({5: 3, 7: 1}), None, 2, 5, 2) == 2 + 5 + 4 + 1
    # Following a single 3 with two higher ranks of 2 cards: columns, tickets of each rank, chain
    # ANDs, the lottery on 4 tickets, the columns again.
    assert shuffles(Counter({0: 1, 4: 2, 6: 2}), (1, 0), 0, None, 5) == 1 + 0 + 2 + 4 + 6 + 1


def test_the_referee_counts_the_quick_versions_knockout_rounds() -> None:
    """The referee's own count for play-selection-fast (docs/daifugo.md, "Counts") agrees with
    the engine's on a table with one, two and three tickets in three ranks."""
    from reference_engine.api import load_game
    from reference_engine.kinds.climbing import expected_shuffles
    from reference_engine.kinds.climbing.rules import ClimbingRules, Play

    rules = load_game("daifugo")
    assert isinstance(rules, ClimbingRules)
    cards = rules.cards_by_name()
    owners = [["clubs4", "clubs5"], ["diamonds5", "clubs6"], ["diamonds6", "hearts6"]]
    table = [[cards[c] for c in o] for o in owners]
    ranks = Counter(rules.strength(c) for o in table for c in o)
    for last, played in (((1, 0), ["clubs5"]), ((2, 0), None), ((2, 12), None)):
        size, rank = (len(played), rules.strength(cards[played[0]])) if played else (0, None)
        left = sum(len(o) for o in owners) - size
        engine = expected_shuffles(
            rules, table, Play(*last), [cards[c] for c in played] if played else None, quick=True
        )
        assert shuffles(ranks, last, size, rank, left, quick=True) == engine
    # Following a single 3: grid, arrows, rank mix, 2 rounds in the ranks, the lottery's shuffle
    # and 2 rounds, the final shuffle.
    assert shuffles(ranks, (1, 0), 1, 2, 5, quick=True) == 1 + 1 + 1 + 2 + 1 + 2 + 1


def test_players_out_neither_play_nor_lead() -> None:
    """The referee skips the seats with no cards left: a turn or a new trick given to a player
    who is out is named, at its event."""
    record = recorded("rule", players=5)
    events = record["events"]
    out = next(e for e in events if e["type"] == "out")
    gone = out["seat"]
    later = [i for i, e in enumerate(events) if e["n"] > out["n"] + 1]
    turn = next(i for i in later if events[i]["type"] == "turn")
    trick = next(i for i in later if events[i]["type"] == "trick")
    for i, message in ((turn, "'s turn"), (trick, "leads the next trick")):
        forged = copy.deepcopy(record)
        forged["events"][i]["seat"] = gone
        found = findings(forged, rerun=False)
        assert found and found[0].event == events[i]["n"] and message in found[0].message
