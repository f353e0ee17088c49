"""Replaying records: every rule set at both levels replays; a changed record is caught (by the
referee alone and by playing the game again); the first divergence is named."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from reference_engine.api import Library, PlaySettings, ReplayReport, record_game, replay_record

from .conftest import CASES, case_id, schema_valid

Recorded = Callable[..., dict[str, Any]]


def replayed(record: dict[str, Any], rerun: bool = True) -> ReplayReport:
    return replay_record(schema_valid(record), Library(), rerun=rerun)


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_every_rule_set_replays_at_both_levels(
    recorded: Recorded, case: tuple[str, dict[str, Any], int, str]
) -> None:
    name, options, virtual, level = case
    record = recorded(name, level, virtual, **options)
    report = replayed(record)
    assert report.ok, [str(f) for f in report.findings]
    assert report.reran and report.verdict.rules and report.verdict.actions > 0
    assert report.verdict.unit == ("rounds" if name == "gakmoro" else "turns")
    runs = sum(len(e["runs"]) for e in record["events"])
    assert (runs > 0) == (level == "card" and (virtual > 0 or name == "gakmoro") and "variant" not in options)
    assert runs == record["result"]["protocol_runs"]


def test_a_record_holds_the_referees_copy(recorded: Recorded) -> None:
    """What the public log cannot show: the first card, every card drawn (hidden, seen by a person
    only), whether a virtual player that drew held a valid card (the protocol's runs), hand points."""
    record = recorded("uno", "card")
    deal, first = record["events"][0], record["events"][1]
    assert deal["type"] == "deal" and first["type"] == "first-card"
    assert sum(len(h) for h in deal["hidden"]["hands"]) + len(deal["hidden"]["draw_pile"]) == 108
    assert set(deal["seen"]) == {"3", "4"}  # the people see their own hands; nobody a virtual one's
    drawing = [e for e in record["events"] if e["type"] == "turn" and e["public"]["draws"]]
    assert drawing
    for e in drawing:
        for item, cards in zip(e["public"]["draws"], e["hidden"]["draws"]):
            assert item["count"] == len(cards)
            assert (str(item["seat"]) in e["seen"]) == (item["seat"] in (3, 4))
    # uno's rule set plays the paper's way with the arrow protocol (card-selection-arrow): a
    # virtual player with no valid card draws and plays the drawn card if it may, in the same run.
    assert record["game"]["parameters"]["virtual_draw"] == "play"
    assert record["game"]["parameters"]["draw_in_run"] is True
    virtual_draws = [e for e in drawing if e["seat"] in (1, 2) and e["public"]["action"] != "play"]
    assert virtual_draws
    for e in virtual_draws:
        assert len(e["runs"]) == 1 and e["runs"][0]["selected"] == e["public"].get("card")
    assert {e["public"]["action"] for e in virtual_draws} >= {"draw"}
    # Keeping a drawn card: one run, which found no card, and no second run.
    keep = recorded("uno", "card", virtual_draw="keep")
    assert keep["game"]["parameters"]["virtual_draw"] == "keep"
    kept = next(
        e
        for e in keep["events"]
        if e["type"] == "turn"
        and e["seat"] in (1, 2)
        and e["public"]["draws"]
        and e["public"]["action"] != "play"
    )
    assert len(kept["runs"]) == 1 and kept["runs"][0]["selected"] is None
    # The paper's protocol runs twice: the second run on the drawn card.
    _, paper = record_game(
        "uno", Library(), PlaySettings(virtual=2, level="card", seed=1, protocol="card-selection")
    )
    again = next(
        e
        for e in paper["events"]
        if e["type"] == "turn"
        and e["seat"] in (1, 2)
        and e["public"]["draws"]
        and e["public"]["action"] != "play"
    )
    assert len(again["runs"]) == 2 and again["runs"][0]["selected"] is None
    end = record["events"][-1]
    assert (
        end["type"] == "hand-end" and end["public"]["points"] == record["result"]["hand_results"][0]["points"]
    )


# --------------------------------------------------------------------------- a changed record


def _played(record: dict[str, Any]) -> dict[str, Any]:
    """A play by a person past the first few turns (its card or tile named in ``public``)."""
    people = {s["seat"] for s in record["seats"] if not s["virtual"]}
    return next(
        e
        for e in record["events"]
        if e["type"] == "turn"
        and e.get("turn", 0) > 3
        and e["seat"] in people
        and (e["public"].get("card") or e["public"].get("tile"))
    )


TAMPERED = [
    ("uno", {}),
    ("crazy-eights", {}),
    ("sevens", {}),
    ("hearts", {"pass_three": True, "rounds": 1}),
    ("dominoes", {}),
]


@pytest.mark.parametrize(("name", "options"), TAMPERED, ids=[t[0] for t in TAMPERED])
@pytest.mark.parametrize("level", ["rule", "card"])
def test_one_card_changed_is_caught(
    recorded: Recorded, name: str, options: dict[str, Any], level: str
) -> None:
    record = recorded(name, level, **options)
    event = _played(record)
    key = "card" if "card" in event["public"] else "tile"
    was = event["public"][key]
    event["public"][key] = next(c for c in sorted(record["cards"]) if c != was)
    report = replayed(record)
    first = report.findings[0]
    assert first.event == event["n"] and f"turn {event['turn']}" in first.where
    assert report.rerun is not None and was in report.rerun.message
    alone = replayed(record, rerun=False)
    assert alone.verdict.finding is not None and alone.verdict.finding.event >= event["n"]


@pytest.mark.parametrize(("name", "options"), TAMPERED, ids=[t[0] for t in TAMPERED])
def test_a_turn_dropped_is_caught(recorded: Recorded, name: str, options: dict[str, Any]) -> None:
    record = recorded(name, "card", **options)
    events = record["events"]
    i = next(i for i, e in enumerate(events) if e["type"] == "turn" and e.get("turn", 0) > 5)
    dropped = events.pop(i)
    for n, e in enumerate(events, 1):  # numbered again, as a careful forger would
        e["n"] = n
    alone = replayed(record, rerun=False)
    assert alone.verdict.finding is not None and alone.verdict.finding.event == dropped["n"]
    report = replayed(record)
    assert report.findings[0].event == dropped["n"] and report.rerun is not None


def test_a_gap_in_the_events_is_named(recorded: Recorded) -> None:
    record = recorded("sevens", "rule")
    gone = record["events"].pop(10)
    report = replayed(record, rerun=False)
    assert report.verdict.finding is not None
    assert (
        "an event is missing" in report.verdict.finding.message
        and report.verdict.finding.event == gone["n"] + 1
    )


def _swap_in_deal(record: dict[str, Any]) -> tuple[str, str]:
    """Swap a card between the first two hands of the (first) deal, in the hidden section and in
    what the people saw, so that the record stays consistent with itself."""
    deal = record["events"][0]
    hands = deal["hidden"]["hands"]
    a, b = hands[0][0], next(c for c in hands[1] if c != hands[0][0])
    hands[0][0], hands[1][hands[1].index(b)] = b, a
    for seat, (old, new) in (("1", (a, b)), ("2", (b, a))):
        if seat in deal["seen"]:
            held = deal["seen"][seat]["hand"]
            held[held.index(old)] = new
    return a, b


@pytest.mark.parametrize("name", ["uno", "sevens", "dominoes", "hearts"])
def test_a_hidden_card_swapped_in_the_deal_is_caught(recorded: Recorded, name: str) -> None:
    options = {"pass_three": True, "rounds": 1} if name == "hearts" else {}
    record = recorded(name, "card", **options)
    _swap_in_deal(record)
    report = replayed(record)
    assert (
        report.findings[0].event == 1 and report.rerun is not None and "hidden.hands" in report.rerun.message
    )
    alone = replayed(record, rerun=False)
    assert alone.verdict.finding is not None  # later: a card played from the wrong hand, or a run's table


def test_a_drawn_card_swapped_is_caught(recorded: Recorded) -> None:
    """The identity of a card drawn (hidden, seen by the person who drew it) swapped for another
    card of the draw pile: the game played again differs at once; the referee finds it when the
    card is played or the hands are turned up."""
    record = recorded("uno", "rule")
    event = next(e for e in record["events"] if e["type"] == "turn" and any(e["hidden"]["draws"]))
    cards = next(c for c in event["hidden"]["draws"] if c)
    was = cards[0]
    pile = record["events"][0]["hidden"]["draw_pile"]
    cards[0] = now = next(c for c in pile if c != was and c not in cards)
    for seen in event["seen"].values():
        seen["drawn"] = [now if c == was else c for c in seen["drawn"]]
    report = replayed(record)
    assert report.findings[0].event == event["n"] and report.rerun is not None
    alone = replayed(record, rerun=False)
    assert alone.verdict.finding is not None and alone.verdict.finding.event > event["n"]


def test_a_passed_card_swapped_is_caught(recorded: Recorded) -> None:
    record = recorded("hearts", "rule", pass_three=True, rounds=1)
    event = next(e for e in record["events"] if e["type"] == "pass" and e["seat"] == 3)  # a person
    was = event["hidden"]["card"]
    hand = record["events"][0]["hidden"]["hands"][2]
    now = next(c for c in hand if c != was)
    event["hidden"]["card"] = now
    for seen in event["seen"].values():
        for key in ("passed", "received"):
            if key in seen:
                seen[key] = [now]
    report = replayed(record)
    assert report.findings[0].event == event["n"]
    assert replayed(record, rerun=False).verdict.finding is not None


def test_a_virtual_player_that_drew_must_have_had_no_valid_card(recorded: Recorded) -> None:
    """A virtual turn that drew, rewritten as if the virtual player had held a valid card all
    along (a card it could play put into its hand at the deal): the referee says so."""
    record = recorded("uno", "rule")
    drew = next(
        e
        for e in record["events"]
        if e["type"] == "turn" and e["seat"] == 1 and e["public"]["action"] == "draw"
    )
    report = replayed(record, rerun=False)
    assert report.ok
    # Make the hand hold a wild card from the start: wild is always valid.
    deal = record["events"][0]["hidden"]
    pile = deal["draw_pile"]
    hand = deal["hands"][0]
    wild = "wild" if "wild" in pile else "wild4"
    pile[pile.index(wild)], hand[0] = hand[0], wild
    report = replayed(record, rerun=False)
    assert report.verdict.finding is not None
    assert report.verdict.finding.event <= drew["n"]


def test_a_wrong_challenge_outcome_is_caught(recorded: Recorded) -> None:
    record = recorded("uno-official", "rule", 0, hands=2)
    event = next((e for e in record["events"] if "challenge" in e["public"]), None)
    if event is None:
        pytest.skip("no challenge in this game")
    event["public"]["challenge"]["guilty"] = not event["public"]["challenge"]["guilty"]
    report = replayed(record, rerun=False)
    assert report.verdict.finding is not None and report.verdict.finding.event == event["n"]
    assert "challenge" in report.verdict.finding.message


def test_a_changed_protocol_view_is_caught(recorded: Recorded) -> None:
    """A run's view that does not turn up the cards of the table at Step 5."""
    record = recorded("sevens", "card")
    event = next(e for e in record["events"] if e["runs"])
    view = event["runs"][0]["view"]
    view[0][1][0] = "spades_king" if view[0][1][0] != "spades_king" else "spades_queen"
    report = replayed(record, rerun=False)
    assert report.verdict.finding is not None and "Step 5" in report.verdict.finding.message
    run_counts = recorded("sevens", "card")
    ev = next(e for e in run_counts["events"] if e["runs"])
    ev["runs"][0]["counts"]["shuffles"] += 1
    found = replayed(run_counts, rerun=False).verdict.finding
    assert found is not None and "the paper says" in found.message


def test_a_gakmoro_announcement_against_the_totals_is_caught(recorded: Recorded) -> None:
    record = recorded("gakmoro", "card", 0)
    event = next(e for e in record["events"] if e["type"] == "round")
    sub = event["hidden"]["submitted"]
    sub[0], sub[1] = sub[1], sub[0]
    event["hidden"]["order"] = [list(reversed(o)) for o in reversed(event["hidden"]["order"])]
    event["seen"] = {"1": {"submitted": sub[0]}, "2": {"submitted": sub[1]}}
    found = replayed(record, rerun=False).verdict.finding
    assert found is not None and found.event == event["n"]


def test_the_game_played_again_names_what_differs(recorded: Recorded) -> None:
    record = recorded("dominoes", "rule")
    record["settings"]["seed"] += 1
    report = replayed(record)
    assert report.rerun is not None and report.rerun.event >= 1
    record = recorded("dominoes", "rule")
    record["events"] = record["events"][:-3]
    report = replayed(record)
    assert report.rerun is not None and "the record ends here" in report.rerun.message
