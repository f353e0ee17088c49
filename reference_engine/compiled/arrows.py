"""A row of answers laid out at once: a place step whose value is

    ``[A if f(R[r, j]) else B for j in 1..ncols(R)]``

(card-selection-arrow's step 6: an arrow per column, up if ``valid(M[1, j])``), ``f`` a game's
function, ``A`` and ``B`` new cards that do not read ``j``. The generated code asks ``f`` once a
column and picks ``A`` or ``B`` in Python, column by column; here ``f`` is asked once per card
code (in the order the row first shows each code: the first one that raises is the
interpreter's first one), and the row's new cards are one C-level map of its codes through
those answers. The answers outlive the run (:data:`ANSWERS`, per function object) only for a
function marked ``fixed`` (:func:`fixed`: its answer for a card is the same for as long as the
object lives, e.g. a shedding game's per-card ``valid``, one object per public state); any other
function may read state that changes between runs (a layout game's ``valid`` reads the live
layout), so it is asked again at every run. The plan is the general path's (:class:`~.rows.NewPlace`
keeps it by layout and shape), the supply counted as :class:`~.rows.Lines` counts it.

Within one run a game's function is a function of the card it is asked about (the game does
not move between the columns of a row): asking it once per code gives every column the answer
it gives. Anything this path does not see as such (a face-down or
hidden card, a name bound as a variable, a region of a hand, an answer or value that raises,
``A`` or ``B`` not one new card) leaves the step to the general path, which says why.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from typing import Any, Protocol, TypeVar

from ..cards import ROTATIONS, SYMBOLS
from ..expressions import Call, Comprehension, Conditional, Const, Index, Name, RangeNode, truthy
from ..table import Layout, NewCards
from . import evaluate as ev
from .codegen import Fast, fast_function, function_kind
from .helpers import h_direct
from .run import Run


class Lays(Protocol):
    """What lays the row out: :meth:`.rows.NewPlace.lay_each` (the plan kept for the shape)."""

    def lay_each(
        self,
        run: Run,
        tres: Any,
        n: int,
        groups: Callable[[], list[NewCards]],
        consts: tuple[int, ...],
        delta: dict[int, int],
    ) -> bool: ...


KEPT = 256
"""Game functions whose answers are kept (:data:`ANSWERS`); the store starts afresh beyond."""

ANSWERS: dict[tuple[Any, int, int], dict[int, int]] = {}
"""Per game function marked :func:`fixed` (the object itself, kept alive by the key) and the
codes of ``A`` and ``B``: the code laid out for each card code it was asked about. Such a
function answers for the public state it was made for (a shedding game's ``valid`` for this top
card and colour: the game keeps one per state, and makes a new one when the state is new), so
its answer for a card is the same at every run that is handed it."""

FIXED = "fixed"
"""The attribute (True) by which a game marks a function whose answers never change."""


F = TypeVar("F", bound=Callable[..., Any])


def fixed(fn: F) -> F:
    """Mark ``fn`` as answering each card the same way for as long as it lives (it reads
    nothing that changes: its public state is frozen in it), so that its answers may be kept
    from run to run. Never mark a function that reads a live game (a mutable layout or hand)."""
    setattr(fn, FIXED, True)
    return fn


ROWS_KEPT = 256
"""Layouts whose row :attr:`ArrowRow.rows` keeps; it starts afresh beyond."""

_UNSEEN: Any = object()


class ArrowRow:
    """The fast path of one place step of the form above (:meth:`match` says whether it is)."""

    __slots__ = ("cards", "cond", "encodings", "func", "name", "other", "r", "rows", "then")

    def __init__(
        self, name: str, r: int, func: str, then: Fast, other: Fast, encodings: tuple[str, str] | None = None
    ):
        self.name = name  # R
        self.r = r
        self.func = func  # f, a game's function
        self.then = then  # A's fast function
        self.other = other  # B's
        self.rows: dict[Layout, tuple[int, int] | None] = {}  # per layout: see _row
        # Where A and B are each an encoding of constants (``arrow(1)``): their encodings' names,
        # and per pair of bound encodings (by identity) those and the two new cards (see _cards).
        self.encodings = encodings
        self.cards: dict[tuple[int, int], tuple[Any, Any, NewCards, NewCards]] = {}

    @classmethod
    def match(cls, items: ev.Expr) -> ArrowRow | None:
        node, proto = items.expr.node, items.proto
        if not (isinstance(node, Comprehension) and len(node.clauses) == 1 and len(node.variables) == 1):
            return None
        kind, rng = node.clauses[0]
        j = node.variables[0]
        elem = node.element
        if kind != "for" or not (isinstance(rng, RangeNode) and isinstance(elem, Conditional)):
            return None
        cond = elem.cond
        if not (
            isinstance(cond, Call) and len(cond.args) == 1 and function_kind(proto, cond.func) == "context"
        ):
            return None
        at = cond.args[0]
        if not (isinstance(at, Index) and isinstance(at.obj, Name) and len(at.args) == 2):
            return None
        r, c = at.args
        name = at.obj.name
        if not (isinstance(r, Const) and type(r.value) is int and isinstance(c, Name) and c.name == j):
            return None
        lo, hi = rng.lo, rng.hi
        if not (
            isinstance(lo, Const)
            and type(lo.value) is int
            and lo.value == 1
            and isinstance(hi, Call)
            and hi.func == "ncols"
            and function_kind(proto, "ncols") == "builtin"
            and len(hi.args) == 1
            and isinstance(hi.args[0], Name)
            and hi.args[0].name == name
        ):
            return None
        if j in elem.then.names() or j in elem.other.names() or name == j:
            return None
        then, other = fast_function(elem.then, proto), fast_function(elem.other, proto)
        if then is None or other is None:
            return None
        encodings = None
        if _encoded(elem.then, proto) and _encoded(elem.other, proto):
            encodings = (elem.then.func, elem.other.func)  # type: ignore[attr-defined]  # Calls
        return cls(name, r.value, cond.func, then, other, encodings)

    def _cards(self, run: Run, items: ev.Expr) -> tuple[Any, Any]:
        """A's and B's values (the generated code's: once, A first). Where each is an encoding
        of constants, its value is the encoding's as the frame binds it (the frame's encoder
        makes ``NewCards(bound.encode(value))``): the new cards made with the same two bound
        encodings (by identity: a frame of the protocol binds an encoding that reads no
        parameter once, and hands it to the next frames) are kept and given again (new cards
        are never changed once made)."""
        encodings = self.encodings
        if encodings is None:
            env = items.env(run)
            return self.then(env), self.other(env)
        frame = run.frame
        one, two = frame.bound(encodings[0]), frame.bound(encodings[1])
        key = (id(one), id(two))
        hit = self.cards.get(key)
        if hit is not None and hit[0] is one and hit[1] is two:
            if ev.CHECKED:
                env = items.env(run)
                made = (self.then(env), self.other(env))
                fields = [(c.symbols, c.up, c.label) for c in hit[2:]]
                if [(c.symbols, c.up, c.label) for c in made] != fields:
                    raise ev.Mismatch(f"{items.text!r}: new cards kept {hit[2:]}, made {made}")
            return hit[2], hit[3]
        env = items.env(run)
        then, other = self.then(env), self.other(env)
        if type(then) is NewCards and type(other) is NewCards:
            if len(self.cards) >= KEPT:
                self.cards.clear()
            self.cards[key] = (one, two, then, other)
        return then, other

    def __call__(self, run: Run, place: Lays, items: ev.Expr, target: Any, up: bool) -> bool:
        """Lay out the row's new cards; False (nothing done) where the general path must."""
        name = self.name
        frame = run.frame
        if name in run.vars() or name in frame.globals.names:
            return False
        layout = run.layout
        where = self.rows.get(layout, _UNSEEN)
        if where is _UNSEEN:
            where = self._row(layout)
            if len(self.rows) >= ROWS_KEPT:
                self.rows.clear()
            self.rows[layout] = where
        if where is None:
            return False
        a, cols = where
        vals = run.cells[a : a + cols]
        try:
            tres = target(run)
            then, other = self._cards(run, items)  # as the generated code: once, A first
            if type(then) is not NewCards or type(other) is not NewCards:
                return False
            if len(then.symbols) != 1 or len(other.symbols) != 1:
                return False
            fn = h_direct(frame.globals.functions[self.func])
            yes, no = (
                then.symbols[0].id << 1 | int(up or then.up),
                other.symbols[0].id << 1 | int(up or other.up),
            )
            if getattr(fn, FIXED, False) is True:
                key = (fn, yes, no)
                answers = ANSWERS.get(key)
                if answers is None:
                    if len(ANSWERS) >= KEPT:
                        ANSWERS.clear()
                    answers = ANSWERS[key] = {}
            else:
                answers = {}  # this run's answers only: the function may read a live game
            # Only face-up cards are ever asked about: every code answered is one. The row's
            # answers by one itemgetter over the dict (valgrind, 108 columns: 22 k instructions;
            # a map of its bound __getitem__ 38 k); a row of one card is a tuple of one.
            get = itemgetter(*vals) if cols > 1 else (lambda d: (d[vals[0]],))
            try:
                consts = get(answers)
            except KeyError:  # cards not asked about yet: asked in the row's order
                if min(vals) < 0 or not all([v & 1 for v in vals]):
                    return False  # a place empty or a card face down: the general path says which
                by_id = SYMBOLS.by_id
                for code in dict.fromkeys(vals):
                    if code not in answers:
                        t = fn(by_id(code >> 1))
                        answers[code] = yes if (t is True or (t is not False and truthy(t))) else no
                consts = get(answers)
        except Exception:
            return False  # the general path evaluates it again, and says what is wrong
        n_yes = consts.count(yes) if yes != no else cols
        delta: dict[int, int] = {}
        turned, physical = ROTATIONS.to, ROTATIONS.physical
        for nc, n in ((then, n_yes), (other, cols - n_yes)):
            if n:
                s = nc.symbols[0].id
                card = physical(s) if s in turned else s
                delta[card] = delta.get(card, 0) + n
        if ev.CHECKED:
            picked = [then if c == yes else other for c in consts]
            ev._same(items.expr, picked, run.ev.public(items.expr, run.state()))
        return place.lay_each(
            run, tres, cols, lambda: [then if c == yes else other for c in consts], consts, delta
        )

    def _row(self, layout: Layout) -> tuple[int, int] | None:
        """The row's first slot and its number of columns in ``layout``; None where the region is
        not one of single cards outside the hands, the row is not in it, or a card of the row
        is hidden in a sleeve (what depends on the layout alone)."""
        reg = layout.by_name.get(self.name)
        if reg is None or reg.hand is not None or reg.unit != 1 or not 0 < self.r <= reg.rows or not reg.cols:
            return None
        cols = reg.cols
        a = reg.offset + (self.r - 1) * cols
        if layout.sleeved:
            inside, row = layout.inside, range(a, a + cols)
            if not inside.isdisjoint(row) and not layout.shown.issuperset(inside.intersection(row)):
                return None  # a card hidden in a sleeve
        return a, cols


def _encoded(node: Any, proto: Any) -> bool:
    """Whether ``node`` is a call of one of the protocol's encodings on constants alone
    (``arrow(1)``): its value then depends on the protocol and its parameters alone."""
    return (
        isinstance(node, Call)
        and function_kind(proto, node.func) == "encoder"
        and all(isinstance(a, Const) for a in node.args)
    )
