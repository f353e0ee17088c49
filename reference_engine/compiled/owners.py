"""A row of a family's cards by owner sizes laid out at once: a place step whose value is

    ``[E for i in 1..len(S) for c in 1..S[i]]``

(card-selection-arrow's step 2: ``E`` is ``new(theta(i))``, an owner card per card of P_i's
hand, ``S`` the owners' sizes), ``E`` new cards that read neither ``c`` nor a region. The
generated code makes and counts one new card per column (108 on a UNO table); here ``E`` is
made once per owner (``[E for i in 1..len(S)]``, the same fast code) and the row's codes are
``[code_i] * S[i]`` joined in C, the supply counted per owner. Nothing here depends on the
layout: the plan is the one :class:`~.rows.NewPlace` keeps for the layout and the row's shape
(as :class:`~.rows.Lines` shapes it), built there by the general path the first time a layout is met.

Anything this path does not see as such (``S`` not a list or tuple of whole numbers, a range past the
interpreter's limit, ``E`` not one kind of new card, no row at all, no plan kept for the
layout yet, an error) leaves the step to the general path, which evaluates the value as
written and says what is wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import chain
from typing import Any

from ..cards import ROTATIONS
from ..expressions import Call, Comprehension, Const, Index, Name, RangeNode
from ..expressions.nodes import MAX_RANGE
from ..table import NewCards
from . import evaluate as ev
from .codegen import Fast, fast_function, function_kind
from .run import Run

KEPT = 64
"""Numbers of owners (and faces) whose cards :attr:`OwnerRow.made` keeps; afresh beyond."""


class OwnerRow:
    """The fast path of one place step of the form above (:meth:`match` says whether it is)."""

    __slots__ = ("each", "made", "row", "sizes")

    def __init__(self, each: Fast, sizes: Fast, row: bool, fixed: bool):
        self.each = each  # [E for i in 1..len(S)]
        self.sizes = sizes  # S
        self.row = row  # laid out as one group (the form "row"), else a group per card
        # Where E reads nothing but i and calls only new() and families' functions (the owner
        # cards): its cards and their codes per number of owners and face, made once.
        self.made: dict[tuple[int, bool], tuple[list[NewCards], list[tuple[int, ...]]]] | None = (
            {} if fixed else None
        )

    @classmethod
    def match(cls, items: ev.Expr, form: str) -> OwnerRow | None:
        node, proto = items.expr.node, items.proto
        if not (isinstance(node, Comprehension) and len(node.clauses) == 2 and len(node.variables) == 2):
            return None
        (k1, outer), (k2, inner) = node.clauses
        i, c = node.variables
        if k1 != "for" or k2 != "for" or i == c:
            return None
        if not (isinstance(outer, RangeNode) and isinstance(inner, RangeNode)):
            return None
        hi = outer.hi
        if not (
            _one(outer.lo)
            and isinstance(hi, Call)
            and hi.func == "len"
            and function_kind(proto, "len") == "builtin"
            and len(hi.args) == 1
            and isinstance(hi.args[0], Name)
        ):
            return None
        s = hi.args[0].name
        at = inner.hi
        if not (
            _one(inner.lo)
            and isinstance(at, Index)
            and isinstance(at.obj, Name)
            and at.obj.name == s
            and len(at.args) == 1
            and isinstance(at.args[0], Name)
            and at.args[0].name == i
        ):
            return None
        if s in (i, c) or c in node.element.names():
            return None
        each = fast_function(Comprehension(node.col, node.element, [("for", outer)], [i]), proto)
        sizes = fast_function(Name(hi.args[0].col, s), proto)
        if each is None or sizes is None:
            return None
        elem = node.element
        fixed = elem.names() <= {i} and all(
            function_kind(proto, f) == ("builtin" if f == "new" else "family") for f in elem.calls()
        )
        return cls(each, sizes, form == "row", fixed)

    def __call__(
        self, run: Run, items: ev.Expr, up: bool, kept: Callable[[tuple[Any, ...]], Any]
    ) -> tuple[Any, tuple[int, ...], dict[int, int]] | None:
        """The plan ``kept(shape)`` gives for the row's shape (None: none kept), the row's
        codes and the supply count; None where the general path must lay the row out."""
        try:
            env = items.env(run)
            sizes = self.sizes(env)
            if type(sizes) not in (list, tuple) or not all([type(x) is int for x in sizes]):
                return None
            if not sizes or min(sizes) < 0 or max(sizes) >= MAX_RANGE:
                return None
            made = self.made
            hit = None if made is None else made.get((len(sizes), up))
            if hit is None:
                cards = self.each(env)
                if type(cards) is not list or len(cards) != len(sizes) or set(map(type, cards)) != {NewCards}:
                    return None
                codes = [tuple([s.id << 1 | int(up or nc.up) for s in nc.symbols]) for nc in cards]
                if made is not None:
                    if len(made) >= KEPT:
                        made.clear()
                    made[len(sizes), up] = (cards, codes)
            else:
                cards, codes = hit
        except Exception:
            return None
        n = sum(sizes)
        if not n:
            return None
        if self.row:  # one group: its number of codes (Lines.add's shape of a row)
            shape: tuple[Any, ...] = (sum([len(code) * k for code, k in zip(codes, sizes)]),)
        else:  # a group per card, each as long: ("each", groups, codes of each)
            size = len(codes[0])
            if not size or any(len(code) != size for code in codes):
                return None
            shape = ("each", n, size)
        plan = kept(shape)
        if plan is None:
            return None
        consts = tuple(chain.from_iterable([code * k for code, k in zip(codes, sizes)]))
        delta: dict[int, int] = {}
        turned, physical = ROTATIONS.to, ROTATIONS.physical
        for nc, k in zip(cards, sizes):
            if k:
                for s in nc.symbols:
                    card = physical(s.id) if s.id in turned else s.id
                    delta[card] = delta.get(card, 0) + k
        if ev.CHECKED:
            laid = [nc for nc, k in zip(cards, sizes) for _ in range(k)]
            ev._same(items.expr, laid, run.ev.public(items.expr, run.state()))
        return plan, consts, delta


def _one(node: Any) -> bool:
    return isinstance(node, Const) and type(node.value) is int and node.value == 1
