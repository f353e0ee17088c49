"""The typed model of a protocol spec: parameters, symbols, inputs, outputs, players, the
:class:`Protocol` itself. :mod:`reference_engine.spec` reads a spec's YAML into these, and the
modules that check or run a protocol (names, machine, verify) take them from here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .encodings import Encoding
from .errors import SpecError
from .expressions import Expression
from .sleeves import SleeveFrame
from .source import KeyPath, Source
from .steps import Call, Step, Target, walk

HAND_NAME = re.compile(r"^hand\d+$")
HAND_IS_UNORDERED = (
    "{name} is a player's hand, and the order of a hand is its owner's: a step may only add cards "
    "to it (return, or move onto the end of it), and an output reads it whole with encoding: cards"
)

ParamValue = int | tuple[int, ...]
Params = dict[str, ParamValue]


@dataclass
class Param:
    """An integer parameter, or a list of integers (``sizes: [7, 7, 79]``)."""

    name: str
    default: ParamValue
    minimum: int | None
    maximum: int | None
    doc: str

    @property
    def is_list(self) -> bool:
        return isinstance(self.default, tuple)


@dataclass
class SymbolDecl:
    name: str
    glyph: str
    family: bool
    doc: str
    # An up-down card (a face that a half turn changes, ``rotated: down``): the symbol it shows
    # after a half turn. "" for a face that looks the same either way up.
    rotated: str = ""


@dataclass
class Words:
    """A spec name in a player's words (``booklet: names:``): what it is called, and for an
    output, parameter or input its values in words (``{1: Alice wins, -1: Bob wins}``); a
    name with ``{}`` takes the value (``"{} cards in the lottery"``). ``says`` is a sentence
    about it (how an encoding is laid out, in plain words)."""

    name: str
    values: dict[str, str] = field(default_factory=dict)
    says: str = ""


@dataclass
class BookletText:
    """What a booklet says about a protocol beyond its steps (``booklet:`` in a spec).

    ``overview`` explains the protocol in plain words; ``if_wrong`` tells the table what to
    do when a reveal shows something a correct run cannot; ``example`` fixes the worked
    example the booklet draws (parameters, inputs as for ``--input``, seed, scenario);
    ``regions`` names the table's places in the pictures in a player's words (``M: matrix``);
    ``names`` gives every other name of the spec a player's words (cards, inputs, outputs,
    parameters, encodings, variables; see :class:`Words`), so that no page for players prints a
    spec's identifier; ``notation`` explains the paper's symbols (``P_1: the virtual player``)
    for the "for the curious" box and the validation pages; ``owners`` names the owners of the
    worked example's hands (``[the virtual player, the other player, the draw pile]``).
    """

    overview: str = ""
    regions: dict[str, str] = field(default_factory=dict)
    names: dict[str, Words] = field(default_factory=dict)
    notation: dict[str, str] = field(default_factory=dict)
    owners: list[str] = field(default_factory=list)
    if_wrong: str = ""
    example_params: dict[str, ParamValue] = field(default_factory=dict)
    example_inputs: dict[str, str] = field(default_factory=dict)
    example_seed: int = 1
    example_scenario: str | None = None


@dataclass
class Scenario:
    """A concrete situation to verify a protocol in (``kitgen verify NAME --deck mini``).

    ``deal`` lists the cards that are dealt, in every possible way, into the input that is
    grouped into hands; ``state`` is the public game state the ``context`` functions see.
    """

    name: str
    doc: str
    game: str
    params: dict[str, ParamValue]
    deal: list[str]
    state: dict[str, Any]
    path: KeyPath


@dataclass
class InputDecl:
    name: str
    encoding: str
    count: Expression | None
    public: bool
    doc: str
    path: KeyPath
    groups: Expression | None = None


SHOW_IN_ORDER = "in-order"
SHOW_MIXED = "mixed"
SHOW_KINDS = (SHOW_IN_ORDER, SHOW_MIXED)


@dataclass
class OutputDecl:
    name: str
    cards: Target | None
    decode: str | None
    value: Expression | None
    public: bool
    equals: Expression | None
    uniform: Expression | None
    doc: str
    path: KeyPath
    # A random choice with weights: a list of ``[value, weight]`` pairs (weights whole numbers
    # >= 0); the output is each value with probability weight / total (none when the total is 0).
    weighted: Expression | None = None
    # How a public card output is shown at the end: turned over where the cards lie, so the
    # table sees their order (``in-order``), or mixed face down first (``mixed``: only which
    # cards they are is seen). None for an output that is not shown.
    show: str | None = None

    @property
    def choice(self) -> Expression | None:
        """The expression of a random choice (``uniform`` or ``weighted``), or None."""
        return self.uniform if self.uniform is not None else self.weighted


@dataclass
class PlayerDecl:
    """A person (or a virtual player) at the table, and what they see beyond the table.

    ``knows`` are expressions of the inputs (``a``, ``part(cards, sizes, 2)``) whose values the
    person knows (their own secrets); ``hands`` the hands they hold (region names: ``hand2``,
    ``alice``), whose cards they see as they come in. A virtual player knows nothing and nobody
    sees its hands.
    """

    name: str
    knows: list[Expression]
    hands: list[str]
    virtual: bool
    doc: str
    path: KeyPath


@dataclass
class ExpectDecl:
    name: str
    value: Expression | None
    by_symbol: dict[str, Expression]
    cite: str
    path: KeyPath


@dataclass
class Protocol:
    name: str
    title: str
    summary: str
    source: dict[str, str]
    file: str
    params: dict[str, Param]
    symbols: dict[str, SymbolDecl]
    encodings: dict[str, Encoding]
    inputs: dict[str, InputDecl]
    helpers: dict[str, Expression] | None
    admissible: Expression | None
    steps: list[Step]
    outputs: dict[str, OutputDecl]
    expect: dict[str, ExpectDecl]
    notes: str
    src: Source = field(repr=False)
    context: dict[str, str] = field(default_factory=dict)
    scenarios: dict[str, Scenario] = field(default_factory=dict)
    booklet: BookletText = field(default_factory=BookletText)
    # How the table does this protocol physically (``table:``, e.g. sleeves instead of
    # envelopes), for the booklet; the steps' ``table:`` hints say it step by step.
    table: str = ""
    players: dict[str, PlayerDecl] = field(default_factory=dict)
    # The regions whose cards lie in sleeves or envelopes (``sleeves:``, see sleeves.py).
    sleeves: dict[str, SleeveFrame] = field(default_factory=dict)

    def calls(self) -> list[Call]:
        return [s for s in walk(self.steps) if isinstance(s, Call)]

    def numbered_steps(self) -> list[Step]:
        return [s for s in walk(self.steps) if s.number is not None]

    def people(self) -> list[PlayerDecl]:
        """The players who see something of their own (not the virtual ones)."""
        return [p for p in self.players.values() if not p.virtual]

    def watched_hands(self) -> dict[str, str]:
        """Hand region -> the person who holds it and sees the cards that come into it."""
        return {h: p.name for p in self.people() for h in p.hands}

    def resolve_params(self, given: Mapping[str, ParamValue] | None = None, where: str = "") -> Params:
        """Defaults overlaid with ``given``; unknown names and out-of-range values are errors."""
        from .errors import UsageError

        given = dict(given or {})
        out: dict[str, ParamValue] = {}
        for name in given:
            if name not in self.params:
                known = ", ".join(self.params) or "none"
                raise UsageError(f"{self.name} has no parameter {name!r} (parameters: {known}){where}")
        for name, p in self.params.items():
            v = given.get(name, p.default)
            if isinstance(v, list):
                v = tuple(v)
            if p.is_list != isinstance(v, tuple):
                shape = "a list like 7,7,79" if p.is_list else "one number"
                raise UsageError(f"{self.name}: {name} must be {shape}, got {v}{where}")
            for x in v if isinstance(v, tuple) else (v,):
                if p.minimum is not None and x < p.minimum:
                    raise UsageError(f"{self.name}: {name} must be at least {p.minimum}, got {x}{where}")
                if p.maximum is not None and x > p.maximum:
                    raise UsageError(f"{self.name}: {name} must be at most {p.maximum}, got {x}{where}")
            out[name] = v
        return out


def require(proto: Protocol, role: str, needs: list[tuple[bool, str]]) -> None:
    """Refuse (exit 2, at the spec's ``protocol`` line) a protocol a game runs in ``role`` that
    lacks what the game gives it or reads from it: ``needs`` pairs a condition with what it asks."""
    missing = [what for ok, what in needs if not ok]
    if missing:
        raise SpecError(
            [
                proto.src.problem(
                    ("protocol",), f"{proto.name} cannot run {role}: it needs {'; '.join(missing)}"
                )
            ]
        )
