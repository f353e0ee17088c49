"""What a game loop tells its record: events, the cards they name, every protocol run.

A game being recorded holds a :class:`Recorder` (a game that is not being recorded holds
None, and its loop skips every hook). The loop, through its kind's small ``record.py``, adds
one event per thing that happens at the table (a deal, a turn, the end of a hand) with three
parts (see docs/records.md):

* ``public``: what every seat sees;
* ``seen``: by seat, what that seat alone sees (a person looks at their own cards; nobody looks
  at a virtual player's);
* ``hidden``: the referee's copy: every card identity the table did not see face up.

A card-level run of a protocol made during the event is added to it by :meth:`protocol_run`
with its public view (every observation, cards by name) and its counts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from ..cards import SYMBOLS, Symbol
from ..selection import SelectionRun

Event = dict[str, Any]


class Recorder:
    """The events of one game, in order, and the cards they name (name -> glyph)."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.cards: dict[str, str] = {}
        self.parameters: dict[str, Any] = {}  # the rule set's parameters the referee reads
        self.seats: list[dict[str, Any]] = []
        # Protocol runs of a decision not yet in an event: the next event created takes them
        # (a virtual decision comes before the event that says what it decided).
        self.pending: list[dict[str, Any]] = []

    def set_seats(self, seats: Iterable[Any]) -> None:
        """The seats (objects with ``number``, ``name`` and ``virtual``), in seat order."""
        self.seats = [{"seat": s.number, "name": s.name, "virtual": s.virtual} for s in seats]

    # -- cards ------------------------------------------------------------------------
    def name(self, card: Symbol) -> str:
        self.cards.setdefault(card.name, card.glyph)
        return card.name

    def names(self, cards: Iterable[Symbol]) -> list[str]:
        return [self.name(c) for c in cards]

    # -- events -----------------------------------------------------------------------
    def event(
        self,
        kind: str,
        *,
        turn: int | None = None,
        seat: int | None = None,
        public: Mapping[str, Any] | None = None,
        hidden: Mapping[str, Any] | None = None,
        seen: Mapping[int, Mapping[str, Any]] | None = None,
    ) -> Event:
        """Add an event (``seat`` counts from 1) and return it, so later hooks can add to it."""
        event: Event = {"n": len(self.events) + 1, "type": kind}
        if turn is not None:
            event["turn"] = turn
        if seat is not None:
            event["seat"] = seat
        event["public"] = dict(public or {})
        event["seen"] = {str(s): dict(v) for s, v in sorted((seen or {}).items()) if v}
        event["hidden"] = dict(hidden or {})
        event["runs"], self.pending = self.pending, []
        self.events.append(event)
        return event

    def settle(self) -> None:
        """Give the runs made since the current event began to it (when the event is created
        before its decisions, as a shedding turn is)."""
        self.current["runs"].extend(self.pending)
        self.pending = []

    @property
    def current(self) -> Event:
        return self.events[-1]

    def selection_run(self, protocol: str, table: list[int], run: SelectionRun) -> None:
        """A card selection run: the table it laid out (cards per owner,
        P_1 first), the card it selected (None: it reported none), its view and its counts."""
        self.protocol_run(
            protocol,
            run.engine,
            table,
            {"shuffles": run.shuffles, "helper_cards": run.helper_cards, "checks": run.checks},
            {k: int(v) for k, v in sorted(run.expected.items())},
            run.observations,
            selected=None if run.played is None else self.name(run.played),
        )

    def protocol_run(
        self,
        protocol: str,
        engine: str,
        table: list[int],
        counts: Mapping[str, Any],
        paper: Mapping[str, Any],
        observations: Iterable[Any],
        **outcome: Any,
    ) -> None:
        """A protocol run (for the next event, or the current one on :meth:`settle`): the
        protocol, the engine that ran it, the table (cards per owner or the table's extent), its
        outcome, its counts (with the paper's) and its public view."""
        entry: dict[str, Any] = {"protocol": protocol, "engine": engine, "table": list(table)}
        entry.update(outcome)
        entry["counts"] = dict(counts)
        entry["paper"] = dict(paper)
        entry["view"] = view_json(observations)
        self.pending.append(entry)


def view_json(observations: Iterable[Any]) -> list[Any]:
    """A protocol run's public view as JSON: every observation, with cards by name (``?`` for a
    face-down card in a shuffle's visible sequence, null for an empty place)."""
    return [_observation(o) for o in observations]


def _observation(obs: Any) -> Any:
    kind = obs[0]
    if kind in ("turn", "shuffle"):
        return [kind, [_code(c) for c in obs[1]]]
    if kind == "discard":  # a multiset: by name, whatever order a process numbered the cards in
        return [kind, sorted(SYMBOLS.by_id(s).name for s in obs[1])]
    if kind == "call" and isinstance(obs[2], list):
        return ["call", obs[1], [_observation(o) for o in obs[2]]]
    return _plain(obs)


def _code(c: int) -> str | None:
    if c == -1:
        return None
    if c < 0 or not c & 1:
        return "?"
    return SYMBOLS.by_id(c >> 1).name


def _plain(value: Any) -> Any:
    if isinstance(value, Symbol):
        return value.name
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, bool | int | str | float) or value is None:
        return value
    return str(value)
