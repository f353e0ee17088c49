"""The kind base states what every kind shares, so a kind states only what differs (issue 27):
its rules, game and name from ``TableKind[Rules, Game]``, a scenario bound by ``bind``, the
statistical check's two deals from one attempt, a kind's play switches, the rule set fields
every kind reads, a log entry's JSON, a deal event, and the referees' shared steps."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from reference_engine.cards import Symbol
from reference_engine.errors import SpecError, UsageError
from reference_engine.kinds import PlayOption, find_kind, load_game
from reference_engine.kinds.game import Attempt, GameRecord, LogEntry, TableKind
from reference_engine.kinds.kind import check_name, game_fields
from reference_engine.kinds.layout import Layout, LayoutRules, SevensGame
from reference_engine.kinds.trick import Trick
from reference_engine.records.referee import (
    Illegal,
    Verdict,
    Walk,
    cards_only,
    check_hands_run,
    without_book,
)
from reference_engine.registry import Library
from reference_engine.schema import Checker
from reference_engine.source import load_file


def test_a_table_kind_takes_its_rules_game_and_name_from_its_type_arguments() -> None:
    assert Layout.rules_type is LayoutRules and Layout.game_type is SevensGame
    assert Layout.name == LayoutRules.kind == "layout"
    assert find_kind("layout").name == "layout"


def test_a_scenario_names_a_card_the_game_lacks_then_binds_the_state() -> None:
    kind, rules = find_kind("tiles"), load_game("dominoes")

    def problem(path: tuple[str | int, ...], message: str) -> Exception:
        return ValueError(f"{path}: {message}")

    with pytest.raises(ValueError, match=r"\('deal',\): dominoes has no card 'x' \(tiles are named t05"):
        kind.scenario(rules, {"ends": [5, 3]}, ["x"], problem)
    with pytest.raises(ValueError, match=r"\('state', 'ends'\): the open ends"):
        kind.scenario(rules, {}, ["t05"], problem)
    bound = kind.scenario(rules, {"ends": [5, 3]}, ["t05", "t12"], problem)
    assert [c.name for c in bound.deal] == ["t05", "t12"] and bound.state_text == "open ends 5 and 3"
    assert bound.context["valid"](bound.deal[0]) and not bound.context["valid"](bound.deal[1])


def test_a_kind_without_bind_has_no_scenario_to_verify() -> None:
    class Bare(TableKind[LayoutRules, SevensGame]):
        name = "bare"
        summary = "a kind that verifies no game protocol"

    def problem(path: tuple[str | int, ...], message: str) -> Exception:
        return ValueError(message)

    with pytest.raises(UsageError, match=r"sevens \(bare\) has no game protocol to verify in a scenario"):
        Bare().scenario(load_game("sevens"), {}, ["x"], problem)


def test_two_deals_retry_until_p1_holds_three_valid_cards_and_differ() -> None:
    kind = find_kind("trick")
    assert isinstance(kind, Trick)
    cards = load_game("hearts").deck()[:12]
    tries = []

    def attempt() -> Attempt | None:
        tries.append(1)
        if len(tries) == 1:
            return None  # a layout that does not serve: try again
        valid = (lambda c: True) if len(tries) > 2 else (lambda c: False)
        return list(cards), [4, 4, 4], valid, "the public"

    a, b, _ = kind.deal_twice(random.Random(1), attempt)
    assert len(tries) == 3 and a.public == b.public == "the public"
    assert sorted(c.name for c in a.owners[0]) != sorted(c.name for c in b.owners[0])


def test_a_switch_is_a_flag_that_is_off_unless_given() -> None:
    assert PlayOption.switch("pass_three", "help") == PlayOption("pass_three", "help", False, flag=True)
    assert "pass_three" in {o.name for o in find_kind("trick").play_options if o.flag and o.default is False}


def test_the_rule_set_fields_every_kind_reads_and_the_name_check(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text("game: mine\ntitle: Mine\nsource: {paper: here}\nkit: {size: 3}\n", encoding="utf-8")
    ck = Checker(load_file(path))
    fields = game_fields(ck, ck.source.data, "mine", "mine.yaml")
    assert fields == {
        "name": "mine",
        "title": "Mine",
        "summary": "",
        "source": {"paper": "here"},
        "file": "mine.yaml",
        "kit": {"size": 3},
    }
    check_name(ck, "mine", "mine")
    check_name(ck, "mine", None)
    with pytest.raises(SpecError, match="the file declares game 'mine'; the name must match the file name"):
        check_name(ck, "mine", "yours")


@dataclass(slots=True)
class _Entry(LogEntry):
    index: int
    seat: int
    action: str
    card: str | None = None
    drew: int = 0
    secret: str = ""
    unlogged = ("secret",)


def test_a_log_entry_shows_index_seat_and_what_is_set_but_the_unlogged() -> None:
    assert _Entry(0, 0, "pass").to_json() == {"index": 0, "seat": 0, "action": "pass"}
    entry = _Entry(3, 1, "play", "r5", 2, "kept for the record")
    assert entry.to_json() == {"index": 3, "seat": 1, "action": "play", "card": "r5", "drew": 2}


class _Recorder:
    def __init__(self) -> None:
        self.parameters: dict[str, Any] = {}
        self.events: list[tuple[str, dict[str, Any]]] = []

    def set_seats(self, seats: Any) -> None:
        self.seats = seats

    def names(self, cards: list[Symbol]) -> list[str]:
        return [c.name for c in cards]

    def event(self, kind: str, **parts: Any) -> None:
        self.events.append((kind, parts))


def test_a_deal_event_hides_every_hand_and_pile_and_shows_a_person_their_own() -> None:
    game = SevensGame(load_game("sevens"), Library(), players=3, virtual=1, level="rule", seed=1)
    game.hands = [[c] for c in game.rules.deck()[:3]]
    rec = _Recorder()
    record = GameRecord(rec, game, {"x": 1})  # type: ignore[arg-type]
    record.deal_event({"dealer": 2}, {"pile": game.rules.deck()[3:5]})
    names = [[c.name for c in h] for h in game.hands]
    assert rec.parameters == {"x": 1}
    assert rec.events == [
        (
            "deal",
            {
                "public": {"dealer": 2, "sizes": [1, 1, 1], "pile": 2},
                "hidden": {"hands": names, "pile": [c.name for c in game.rules.deck()[3:5]]},
                "seen": {2: {"hand": names[1]}, 3: {"hand": names[2]}},
            },
        )
    ]


def _walk(events: list[dict[str, Any]]) -> Walk:
    seats = [{"name": "Virtual 1", "virtual": True}, {"name": "Human 1", "virtual": False}]
    return Walk({"events": [{"n": i + 1, **e} for i, e in enumerate(events)], "seats": seats})


def test_a_referee_expects_the_next_event_of_a_type_and_seat() -> None:
    w = _walk([{"type": "turn", "seat": 2, "turn": 1}, {"type": "deal"}])
    assert w.expect_next(("deal", "turn"), "a turn", 2)["seat"] == 2
    with pytest.raises(Illegal, match="the game must end here"):
        w.expect_next("game-end", "the game must end here")
    with pytest.raises(Illegal, match="one more event"):
        w.expect_next("deal", "one more event")


def test_a_decision_on_every_hand_is_one_run_for_a_virtual_seat_at_card_level_only() -> None:
    w = _walk([{"type": "turn", "seat": 2}])
    w.next()
    hands: list[Any] = [{}, {}]
    check_hands_run(w, {"runs": []}, None, hands, 0, None)
    check_hands_run(w, {"runs": []}, "card-selection", hands, 1, None)
    with pytest.raises(Illegal, match="a protocol run where nobody runs the protocol"):
        check_hands_run(w, {"runs": [{}]}, "card-selection", hands, 1, None)
    with pytest.raises(Illegal, match="2 protocol runs for one decision"):
        check_hands_run(w, {"runs": [{}, {}]}, "card-selection", hands, 0, None)


def test_a_referee_without_a_rule_book_says_what_it_checked() -> None:
    note = "the referee has no rule book for 'uno': nothing was checked but the record's form"
    assert without_book("uno", "rounds") == Verdict(0, "rounds", rules=False, note=note)
    followed = cards_only(Verdict(12, "turns"), "uno")
    assert not followed.rules and "it checked every card and count" in followed.note
    found = Verdict(3, "turns", finding=object())  # type: ignore[arg-type]
    assert cards_only(found, "uno").rules
