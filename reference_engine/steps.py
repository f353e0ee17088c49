"""The steps of a protocol spec: one dataclass per action, read from YAML by :mod:`.stepparser`.

A step is a mapping with an optional number (``step: 4(a)``), the sentence a booklet
prints (``say:``), optional display ``labels:`` and exactly one action key::

    place      put cards on the table: moved from where they are, or new from the supply
    rearrange  a public permutation of a row's cards, or of a matrix's columns or rows
    swap       exchange two equally sized groups of cards
    move       move cards to another place (a new region, empty slots, a hand)
    take       remove whole columns of a matrix into a new region
    shuffle    a uniformly random permutation from a set: scramble, shift, cut, bisect, set
    turn       turn cards over
    rotate     give cards a half turn where they lie (up-down cards point the other way)
    discard    put cards back into the supply
    return     put cards back into a player's hand (``to: 2`` is P_2's hand)
    shift      a public cyclic shift of piles until a condition on face-up cards holds
    if         branch on face-up cards (then/else)
    for        repeat the sub-steps in ``do`` for each value
    call       run another protocol on some cards (params, with, results)
    let        remember a public value computed from face-up cards
    do         a list of sub-steps under this step's number and sentence
    note       no card moves: the step happens away from the table (``note:`` says why)
    sleeve     turn sleeves over, or slide rows of cards out of them and back in (sleeves.py)

A step without an action is refused: deleting a step's ``do:`` or ``shuffle:`` would otherwise
leave a protocol that runs, prints the step's sentence, and does something else than it says.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .expressions import Expression
from .sleeves import SleeveOp
from .source import KeyPath

ACTIONS = (
    "place",
    "rearrange",
    "swap",
    "move",
    "take",
    "shuffle",
    "turn",
    "rotate",
    "discard",
    "return",
    "shift",
    "if",
    "for",
    "call",
    "let",
    "do",
    "note",
    "sleeve",
)
COMPANIONS = {
    "if": ("then", "else"),
    "for": ("do",),
    "call": ("params", "with", "results", "hands", "players"),
}
COMMON = ("step", "say", "brief", "labels", "face", "table", "paper")
MAX_STEP_NUMBER = 12  # characters of a step's number ("12", "4(b)"), written or a YAML number
# What holds each pile of a shuffle at the table (a kit counts them from the trace).
SHUFFLE_HOLDERS = ("envelope", "sleeve", "clip", "nothing")
SHUFFLE_KINDS = ("scramble", "shift", "cut", "bisect", "set", "spin", "each")
IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass
class Template:
    """A sentence with ``{expression}`` placeholders filled in at run time."""

    text: str
    parts: list[str | Expression]

    def names(self) -> set[str]:
        out: set[str] = set()
        for p in self.parts:
            if isinstance(p, Expression):
                out |= p.names()
        return out


@dataclass
class Target:
    """Where cards go: a region name, or an expression for slots (or a region name)."""

    text: str
    name: str | None
    expr: Expression | None
    index_args: list[Expression] | None = field(default=None, repr=False, compare=False)


@dataclass
class Step:
    path: KeyPath
    line: int | None
    number: str | None
    say: Template | None
    labels: list[tuple[Expression, str]] = field(default_factory=list)
    brief: str | None = None  # the step in a few words, for the quick reference card
    # How the table does the step's card work (for the table-time model; the engine ignores it):
    # action (or "all") -> kept | slide | sleeves, and "during" -> the step it runs beside.
    table: dict[str, str] = field(default_factory=dict)
    # The paper's own wording (its notation), when ``say`` puts the step in a player's words.
    paper: str | None = None

    @property
    def kind(self) -> str:
        return type(self).__name__.lower()

    def children(self) -> list[list[Step]]:
        return []


@dataclass
class Note(Step):
    """A step that only says something (a paper step with no physical action): ``note: why``."""

    why: str = ""


@dataclass
class Sleeve(Step):
    """Sleeves turned over, or rows of cards slid out of them or back in (no card moves)."""

    ops: list[SleeveOp] = field(default_factory=list)


@dataclass
class Place(Step):
    targets: list[tuple[Target, str, Expression]] = field(default_factory=list)  # target, form, items
    up: bool = False


@dataclass
class Rearrange(Step):
    region: str = ""
    axis: str = "cards"  # cards | columns | rows
    order: Expression | None = None


@dataclass
class Swap(Step):
    a: Expression | None = None
    b: Expression | None = None


@dataclass
class Move(Step):
    pairs: list[tuple[Target, Expression]] = field(default_factory=list)


@dataclass
class Take(Step):
    source: str = ""
    columns: Expression | None = None
    into: str = ""


@dataclass
class Shuffle(Step):
    how: str = "scramble"
    piles: Expression | None = None
    perms: list[tuple[int, ...]] = field(default_factory=list)
    text: str = ""
    uses: str = ""  # what holds each pile at the table (``uses:``); "" lets the kit decide by kind


@dataclass
class Turn(Step):
    what: Expression | None = None


@dataclass
class Rotate(Step):
    """A public half turn of cards where they lie (face up or down): an up-down card shows its
    other face (``rotated:``), every other card looks the same."""

    what: Expression | None = None


@dataclass
class Discard(Step):
    what: Expression | None = None


@dataclass
class Return(Step):
    """Cards go back into hands: ``to`` is an owner number, a list of them, or a hand's name."""

    cards: Expression | None = None
    to: Expression | None = None


@dataclass
class Shift(Step):
    piles: Expression | None = None
    until: Expression | None = None


@dataclass
class If(Step):
    cond: Expression | None = None
    then: list[Step] = field(default_factory=list)
    other: list[Step] = field(default_factory=list)

    def children(self) -> list[list[Step]]:
        return [self.then, self.other]


@dataclass
class For(Step):
    var: str = ""
    values: Expression | None = None
    body: list[Step] = field(default_factory=list)

    def children(self) -> list[list[Step]]:
        return [self.body]


@dataclass
class Call(Step):
    protocol: str = ""
    params: dict[str, Expression] = field(default_factory=dict)
    args: dict[str, Expression] = field(default_factory=dict)
    results: dict[str, Target] = field(default_factory=dict)
    # Who holds the callee's hands (see reference_engine/seating.py): ``hands`` maps a hand of
    # the callee to a hand here (its holder holds it), ``players`` a player the callee declares
    # to a player here (who then holds that player's hands); hands by region name (``hand1``).
    hands: dict[str, str] = field(default_factory=dict)
    players: dict[str, str] = field(default_factory=dict)


@dataclass
class Let(Step):
    values: dict[str, Expression] = field(default_factory=dict)


@dataclass
class Do(Step):
    body: list[Step] = field(default_factory=list)

    def children(self) -> list[list[Step]]:
        return [self.body]


def walk(steps: list[Step]) -> list[Step]:
    """Every step, depth first, in spec order."""
    out: list[Step] = []
    for s in steps:
        out.append(s)
        for block in s.children():
            out.extend(walk(block))
    return out
