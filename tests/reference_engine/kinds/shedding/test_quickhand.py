"""The quick loop of a rule-level hand (quickhand.py) plays exactly the games of the general loop.

The general loop (``Game.take_turn``) runs when someone watches the game: an observer that never
stops it makes a game take that loop with the same seed. Everything must agree: the result and
its log, the statistics of every virtual decision (the table sizes and the choices), the final
hands and piles, and the generator's state afterwards.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from reference_engine.kinds.shedding import Game, load_rules, play
from reference_engine.kinds.shedding.record import Turn, logged
from reference_engine.records.recorder import Recorder
from reference_engine.registry import Library, rulesets_dir

SETTINGS = [
    # rule set, players, virtual, keyword settings
    ("uno", 4, 4, {"virtual_draw": "play"}),
    ("uno", 4, 1, {}),
    ("uno", 2, 2, {"virtual_draw": "keep"}),
    ("uno", 3, 0, {}),
    ("uno", 5, 3, {"discard_owner": True}),
    ("uno-small", 3, 2, {}),
    ("crazy-eights", 4, 2, {}),  # draws up to three cards until one may be played
    ("crazy-eights", 2, 2, {"discard_owner": True}),
]


def fingerprint(game: Game) -> tuple[Any, ...]:
    result = game.play()
    assert result is not None
    s = game.stats
    return (
        result.to_json(),
        [[vars_of(logged(t)) for t in hand.log] for hand in game.results],
        s.tables,
        s.choices,
        s.virtual_turns,
        [[c.name for c in h] for h in game.hands],
        [c.name for c in game.draw_pile],
        [c.name for c in game.discard],
        game.color,
        game.direction,
        game.rng.getstate(),
    )


def vars_of(t: Turn) -> tuple[Any, ...]:
    return (t.index, t.seat, t.action, t.card, t.color, t.drew, t.runs, t.note, t.challenge)


@pytest.mark.parametrize(("name", "players", "virtual", "extra"), SETTINGS)
def test_the_quick_loop_plays_the_general_loops_games(
    name: str, players: int, virtual: int, extra: dict[str, Any]
) -> None:
    rules, library = load_rules(name), Library()
    for seed in range(12):
        quick = Game(rules, library, players=players, virtual=virtual, level="rule", seed=seed, **extra)
        general = Game(rules, library, players=players, virtual=virtual, level="rule", seed=seed, **extra)
        general.observer = lambda game, seat, valid: False  # watched: the general loop
        assert fingerprint(quick) == fingerprint(general), (name, seed)
        assert quick.quick_hands and not general.quick_hands


def test_a_hand_dependent_rule_and_a_record_keep_the_general_loop() -> None:
    """The quick loop reads a rule of the card alone and tells no record: uno-official's rule
    reads the hand, and a recorded game must give its record every turn."""
    library = Library()
    official = Game(load_rules("uno-official"), library, players=3, virtual=0, level="rule", seed=1, hands=1)
    assert official.play() is not None and not official.quick_hands
    recorded = Game(
        load_rules("uno"), library, players=3, virtual=1, level="rule", seed=1, recorder=Recorder()
    )
    assert recorded.play() is not None and not recorded.quick_hands


@pytest.mark.parametrize(
    ("base", "players", "virtual"),
    [("uno-small", 2, 1), ("uno-small", 3, 1), ("uno-small", 2, 2), ("uno", 3, 2)],
)
def test_the_quick_loops_card_effects_under_other_rules(
    tmp_path: Path, base: str, players: int, virtual: int
) -> None:
    """The card effects the quick loop plays itself, under rules no shipped rule set of the
    card alone has: a reverse that skips with two players, and the challenge of a wild draw
    four (left to Game.effects); people name colours and challenge; the small deck reshuffles
    the discard pile in the middle of a draw four."""
    text = (rulesets_dir() / "games" / f"{base}.yaml").read_text(encoding="utf-8")
    text = text.replace("two_player_reverse: reverse", "two_player_reverse: skip\n  challenge: true")
    path = tmp_path / f"{base}.yaml"
    path.write_text(text, encoding="utf-8")
    rules, library = load_rules(str(path)), Library()
    assert rules.challenge and rules.two_player_reverse == "skip" and not rules.hand_dependent
    notes = set()
    for seed in range(25):
        quick = Game(rules, library, players=players, virtual=virtual, level="rule", seed=seed)
        general = Game(rules, library, players=players, virtual=virtual, level="rule", seed=seed)
        general.observer = lambda game, seat, valid: False
        assert fingerprint(quick) == fingerprint(general), (base, seed)
        assert quick.quick_hands and not general.quick_hands
        notes |= {logged(t).note.split(":")[0] for hand in quick.results for t in hand.log}
    assert {"challenged", "challenged without reason"} <= notes or players == virtual
    assert any("misses a turn" in n for n in notes)


@pytest.mark.parametrize("limit", [1, 7, 30])
def test_a_hand_stopped_at_the_turn_limit_ends_alike(monkeypatch: pytest.MonkeyPatch, limit: int) -> None:
    """A hand that reaches the turn limit (MAX_TURNS, 5,000 in play) is stopped the same way by
    both loops: the same result ("stopped after N turns"), log and state."""
    monkeypatch.setattr(play, "MAX_TURNS", limit)
    rules, library = load_rules("uno"), Library()
    reasons = set()
    for seed in range(10):
        quick = Game(rules, library, players=4, virtual=3, level="rule", seed=seed)
        general = Game(rules, library, players=4, virtual=3, level="rule", seed=seed)
        general.observer = lambda game, seat, valid: False
        assert fingerprint(quick) == fingerprint(general), (limit, seed)
        reasons |= {r.reason for r in quick.results}
    assert f"stopped after {limit} turns" in reasons
