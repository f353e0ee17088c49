"""What a shedding game tells its record (docs/records.md): the game loop calls these hooks.

Events: ``deal`` (every hand and the draw pile, hidden; a person sees their own hand),
``first-card`` (the cards turned up, buried ones included, who starts, the colour in force,
its effects), ``turn`` (the action, the card played, the colour named, every card drawn by
anyone during the turn with its identity hidden, a challenge and its outcome), ``hand-end``
(the winner, the points, the hands turned up to count them).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any, Protocol

from ...cards import Symbol
from ...records.recorder import Recorder
from ...selection import SelectionRun
from ..game import Dealt, GameRecord, LogEntry
from .rules import Effect, RuleSet


@dataclass(slots=True)
class Turn(LogEntry):
    index: int
    seat: int
    action: str  # play | draw-play | draw | pass | skipped
    card: str | None = None
    color: str | None = None
    drew: int = 0
    runs: int = 0
    note: str = ""
    challenge: tuple[int, bool] | None = None  # (challenger seat, guilty): for the record only
    unlogged = ("challenge",)


# A turn as the quick loop logs it (quickhand.py): the fields of a :class:`Turn` up to ``drew``
# (a turn that no card effect changed) or up to ``note``, made into one only when the log is
# asked for (see logged).
TurnRow = tuple[int, int, str, str | None, None, int] | tuple[int, int, str, str, str | None, int, int, str]


@functools.cache
def draws_note(who: str) -> re.Pattern[str]:
    """A note that ends with ``who`` drawing cards (compiled once per name)."""
    return re.compile(rf"\b{re.escape(who)} draws \d+$")


def logged(entry: Turn | TurnRow) -> Turn:
    """A log entry as a :class:`Turn`."""
    return entry if isinstance(entry, Turn) else Turn(*entry)


@dataclass
class HandResult:
    winner: int
    turns: int
    points: int
    reason: str
    log: list[Turn | TurnRow]


class Shedding(Dealt, Protocol):
    """What the record reads of a game (:class:`~.play.Game`)."""

    rules: RuleSet
    draw_pile: list[Symbol]
    scores: list[int]
    color: str
    direction: int
    bluff: bool
    discard_owner: bool
    virtual_draw: str
    draw_in_run: bool
    max_hands: int | None
    protocol_name: str


class SheddingRecord(GameRecord[Shedding]):
    """The hooks of one shedding game into its :class:`Recorder`."""

    def __init__(self, recorder: Recorder, game: Shedding):
        rules = game.rules
        super().__init__(
            recorder,
            game,
            {
                "hand_size": rules.hand_size_for(len(game.seats)),
                "target_score": rules.target_score,
                "wild4": "bluff" if game.bluff else "strict",
                "discard_owner": game.discard_owner,
                # What a virtual player does with a card it drew and may play: play or keep it.
                "virtual_draw": game.virtual_draw,
                # Whether one protocol run is a virtual player's whole turn, a draw included.
                "draw_in_run": game.draw_in_run,
                "max_hands": game.max_hands,
                # What a referee without a rule book of its own reads (the deck and the effects).
                "players": list(rules.players[:2]),
                "colours": list(rules.colors),
                "deck": {
                    ct.name: {
                        "colour": ct.color if ct.color in rules.colors else None,
                        "face": str(ct.value) if ct.value is not None else ct.kind,
                        "copies": ct.copies,
                        "points": ct.points,
                    }
                    for ct in rules.cards.values()
                },
                "effects": _effects(rules.effects),
                "first_card": _effects(rules.first_card),
                "draw_until": rules.draw_until,
                "two_player_reverse": rules.two_player_reverse,
                "challenge": rules.challenge,
            },
        )
        self.hand = 0

    def _seen(self, seat: int, key: str, cards: list[Symbol]) -> dict[int, dict[str, Any]]:
        """A person sees the cards they get; nobody looks at a virtual player's."""
        return {} if self.game.seats[seat].virtual else {seat + 1: {key: self.rec.names(cards)}}

    def deal(self) -> None:
        self.hand += 1
        self.deal_event({"hand": self.hand}, {"draw_pile": self.game.draw_pile})

    def first_card(self, turned: list[Symbol], starts: int) -> None:
        """Before the first card's effects: the cards turned up (the last is the first card)."""
        rec = self.rec
        rec.event(
            "first-card",
            public={
                "turned": rec.names(turned),
                "starts": starts + 1,
                "draws": [],
            },
            hidden={"draws": []},
        )

    def first_card_done(self, skipped: int | None) -> None:
        g, ev = self.game, self.rec.current
        ev["public"].update(
            {"color": g.color, "direction": g.direction, "skipped": None if skipped is None else skipped + 1}
        )

    def begin_turn(self, index: int, seat: int) -> None:
        self.rec.event("turn", turn=index, seat=seat + 1, public={"draws": []}, hidden={"draws": []})

    def drew(self, seat: int, drawn: list[Symbol], wanted: int, reshuffled: tuple[int, int] | None) -> None:
        """Cards drawn by ``seat`` (of ``wanted``); ``reshuffled``: (cards drawn before the discard
        pile became the draw pile, how many cards it gave)."""
        ev = self.rec.current
        item: dict[str, Any] = {"seat": seat + 1, "count": len(drawn)}
        if wanted != len(drawn):
            item["wanted"] = wanted
        if reshuffled is not None:
            item["reshuffle_at"], item["reshuffled"] = reshuffled
        ev["public"]["draws"].append(item)
        ev["hidden"]["draws"].append(self.rec.names(drawn))
        for s, v in self._seen(seat, "drawn", drawn).items():
            ev["seen"].setdefault(str(s), {}).setdefault("drawn", []).extend(v["drawn"])

    def end_turn(self, turn: Turn, card: Symbol | None) -> None:
        self.rec.settle()
        ev = self.rec.current
        pub = ev["public"]
        pub["action"] = turn.action
        pub["card"] = None if card is None else self.rec.name(card)
        pub["color"] = turn.color
        if turn.challenge is not None:
            pub["challenge"] = {"by": turn.challenge[0] + 1, "guilty": turn.challenge[1]}
        pub["note"] = turn.note

    def run(self, owners: list[list[Symbol]], run: SelectionRun) -> None:
        self.rec.selection_run(self.game.protocol_name, [len(o) for o in owners], run)

    def hand_end(self, result: HandResult) -> None:
        g, rec = self.game, self.rec
        rec.event(
            "hand-end",
            public={
                "hand": self.hand,
                "winner": result.winner,
                "points": result.points,
                "reason": result.reason,
                "turns": result.turns,
                "hands": [rec.names(h) for h in g.hands],
                "scores": list(g.scores),
            },
        )


def _effects(effects: dict[str, list[Effect]]) -> dict[str, list[str]]:
    """Effects by card kind in the words of a rule book (``skip``, ``draw 2``, ``name``)."""
    word = {"choose_color": "name"}
    return {
        kind: [f"draw {e.count}" if e.kind == "draw" else word.get(e.kind, e.kind) for e in items]
        for kind, items in effects.items()
    }
