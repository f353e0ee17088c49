"""The rules every game played at a table shares: seats, virtual players, a rule book.

Most kinds are games for a table of players, some of them virtual: their rule sets say how many
players (``players: {min, max, default}``), which protocol a virtual player runs
(``virtual_protocol``), notes, a kit's settings and a booklet's paragraphs. :class:`TableRules`
holds these and checks a table's seats (:meth:`TableRules.seat_count`, the one seat check);
:class:`DeckRules` adds a deck of cards (:mod:`.deck`). A kind's loader opens its file with
:func:`open_rule_set` and ends with :func:`table_fields`, so only what is its own is written
in the kind.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..cards import Symbol
from ..errors import SpecError, UsageError
from ..schema import Checker
from ..source import Source, load_file
from .deck import CardType, Deck, booklet_texts
from .deck import players as parse_players
from .kind import GameRules


@dataclass(kw_only=True)
class TableRules(GameRules):
    """A game for a table of players, some of them virtual (every kind but puzzles and Gakmoro)."""

    players: tuple[int, int, int]  # min, max, default
    virtual_protocol: str
    doc: str = ""
    notes: str = ""
    how_to_play: list[str] = field(default_factory=list)  # booklet paragraphs: goal, turns, scoring
    booklet_texts: dict[str, list[str]] = field(default_factory=dict)

    @property
    def protocol(self) -> str:
        return self.virtual_protocol

    def seat_count(self, players: int | None, virtual: int) -> int:
        """The number of players at the table (the rule set's default when ``players`` is None),
        after checking it and the number of ``virtual`` players among them: the one check of a
        table's seats, for games and kits."""
        lo, hi, default = self.players
        n = default if players is None else players
        if not lo <= n <= hi:
            raise UsageError(f"{self.name} is played by {lo} to {hi} players, not {n}")
        if not 0 <= virtual <= n:
            raise UsageError(f"«virtual» must be between 0 and {n}, got {virtual}")
        return n


@dataclass(kw_only=True)
class DeckRules(TableRules):
    """A table game with a deck of cards (``deck:`` in the rule set, or a shared deck's name)."""

    deck_def: Deck

    @property
    def cards(self) -> dict[str, CardType]:
        return self.deck_def.cards

    @property
    def word(self) -> str:
        return self.deck_def.word

    @property
    def colors(self) -> dict[str, dict[str, Any]]:
        return self.deck_def.colors

    def symbol(self, name: str) -> Symbol:
        return self.deck_def.symbol(name)

    def cards_by_name(self) -> dict[str, Symbol]:
        return {n: self.symbol(n) for n in self.cards}

    def deck(self) -> list[Symbol]:
        return self.deck_def.full()


def table_keys(*own: str, hand_size: bool = False) -> tuple[str, ...]:
    """The keys a table game's rule set may hold: the shared ones around the kind's ``own``."""
    hand = ("hand_size",) if hand_size else ()
    return (
        ("game", "kind", "title", "summary", "source", "players")
        + hand
        + ("virtual_protocol",)
        + own
        + ("notes", "kit", "booklet")
    )


@dataclass
class RuleSetFile:
    """A rule set file being read: its source, the checker collecting problems, the top mapping
    and the game's name."""

    src: Source
    ck: Checker
    doc: dict[str, Any]
    name: str


def open_rule_set(path: Path, required: tuple[str, ...], keys: tuple[str, ...], what: str) -> RuleSetFile:
    """Read a rule set's top mapping (SpecError when it is not one, or lacks a required key
    other than ``kind``) and its game's name."""
    src = load_file(path)
    ck = Checker(src)
    doc = ck.mapping(src.data, (), required=required, optional=keys, what=what)
    if doc is None or any(k not in doc for k in required if k != "kind"):
        raise SpecError(ck.problems)
    name = ck.string(doc["game"], ("game",), "a rule set name") or "?"
    return RuleSetFile(src, ck, doc, name)


def table_fields(
    f: RuleSetFile,
    expected_name: str | None,
    *,
    protocol: str,
    doc: str = "",
    players: tuple[int, int, int] | None = None,
) -> dict[str, Any]:
    """The shared fields of a table game's rules (:class:`TableRules`), after the last checks:
    the booklet's paragraphs, the name matching the file's, no problem found (SpecError lists
    every one). ``protocol``: the virtual protocol when the file names none; ``players``: the
    seats when the kind has read them already (it checks a hand size against them)."""
    ck, data = f.ck, f.doc
    texts = booklet_texts(ck, data.get("booklet", {}))
    # Every field is read (and checked) before the last look at the problems, so that a bad
    # `players:`, `source:` or `kit:` is refused, never silently replaced by a default.
    source = {str(k): str(v) for k, v in ck.table(data.get("source", {}), ("source",)).items()}
    seats = players if players is not None else parse_players(ck, data.get("players", {}))
    kit = dict(ck.table(data.get("kit", {}), ("kit",)))
    if expected_name is not None and f.name != expected_name:
        ck.error(("game",), f"the file declares game {f.name!r}; the name must match the file name")
    if ck.problems:
        raise SpecError(ck.problems)
    return {
        "name": f.name,
        "title": str(data["title"]),
        "summary": str(data.get("summary", "")),
        "source": source,
        "file": f.src.file,
        "players": seats,
        "virtual_protocol": str(data.get("virtual_protocol", protocol)),
        "doc": doc,
        "notes": str(data.get("notes", "")),
        "kit": kit,
        "how_to_play": texts["how_to_play"],
        "booklet_texts": texts,
    }
