"""The cards a per-card validity rule allows in a public state, found term by term.

A game asks, at each public state (top card, colour in force) it meets first, which of the
deck's cards its rule allows (:meth:`~.rules.RuleSet.allowed_ids`): the rule evaluated on every
distinct card, some sixty states in the first thousand turns of UNO. Most rule sets' rule is an
``or`` of terms that each read little: ``card.color == 'black'`` reads the card's colour alone,
``card.color == color`` the card's colour and the colour in force, ``card.face == top.face`` the
two faces. A term's answer is a function of the values it reads, so it is kept by those values
and a new state costs a look-up per card and term rather than an evaluation of the whole rule.

Exact because of what a rule may do here, checked once on its tree (:func:`split`): its terms
read ``card`` and ``top`` only as ``card.<field>`` and ``top.<field>``, ``color`` as itself, and
otherwise hold only constants, comparisons, arithmetic, ``and``/``or``/``not`` (no function,
no list, no index: nothing else they could read). At each state the fields are read afresh from
the cards (a card's attributes are those last declared), each value kept with its type (``1``,
``True`` and ``1.0`` are different keys) and only of the types whose equality is identity of
meaning (strings, whole numbers, booleans, None): equal keys, the same answer. An ``or`` of terms
is true when one of them is, each card's terms taken in the rule's order (the same evaluations,
in the same order, as the rule's own ``or``). A field a card lacks, a value of another type, or
an error in any term gives None: the caller then evaluates the rule card by card, which reports
the error as it always did. ``evaluate.CHECKED`` compares every set found here with that way's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

from ...cards import Symbol
from ...expressions import Expression, Scope, truthy
from ...expressions.nodes import Attr, Chain, Compare, Const, Name, Node, Unary
from ...functions import BUILTINS

KEYED = (str, int, bool, type(None))
"""The types of the values a key may hold (see the module docs)."""

Key = Callable[[tuple[Any, ...]], Any]


class Terms:
    """A rule split into its ``or`` terms, each with the fields it reads and its kept answers."""

    __slots__ = ("card_fields", "terms", "top_fields")

    def __init__(self, card_fields: tuple[str, ...], top_fields: tuple[str, ...]):
        self.card_fields = card_fields  # the fields of ``card`` any term reads, in a fixed order
        self.top_fields = top_fields
        # Per term: its function, its card key and top key (from the read values), whether it
        # reads ``color``, and its answers by state key then card key.
        self.terms: list[tuple[Callable[[Scope], Any], Key, Key, bool, dict[Any, dict[Any, bool]]]] = []

    def allowed(self, cards: Sequence[Symbol], top: Symbol, color: Any) -> frozenset[int] | None:
        """The ids of ``cards`` the rule allows with ``top`` and ``color``, or None (see the
        module docs: then evaluate the rule card by card)."""
        try:
            tops = _values(top, self.top_fields)
            if tops is None or type(color) not in KEYED:
                return None
            fields = self.card_fields
            keys = []
            for c in cards:
                vals = _values(c, fields)
                if vals is None:
                    return None
                keys.append(vals)
            scope = Scope({"top": top, "color": color, "hand": []}, functions=BUILTINS)
            tcolor = (type(color), color)
            ids: list[int] = []
            left: Sequence[int] = range(len(cards))
            for fn, card_key, top_key, reads_color, kept in self.terms:
                state = (top_key(tops), tcolor if reads_color else None)
                known = kept.get(state)
                if known is None:
                    known = kept[state] = {}
                rest = []
                for i in left:
                    k = card_key(keys[i])
                    answer = known.get(k)
                    if answer is None:
                        answer = known[k] = truthy(fn(scope.child({"card": cards[i]})))
                    if answer:
                        ids.append(cards[i].id)
                    else:
                        rest.append(i)
                left = rest
            return frozenset(ids)
        except Exception:  # any error: the rule card by card reports it (see the module docs)
            return None


def _values(card: Any, fields: tuple[str, ...]) -> tuple[Any, ...] | None:
    """``((value, type), ...)`` of ``card``'s attributes ``fields``, or None (not a card, a field
    it lacks, a value of another type)."""
    if type(card) is not Symbol:
        return None
    attrs = card.attrs
    out = []
    for f in fields:
        if f not in attrs:
            return None
        v = attrs[f]
        t = type(v)
        if t not in KEYED:
            return None
        out.append((v, t))
    return tuple(out)


def split(expr: Expression) -> Terms | None:
    """``expr``'s terms (one where it is no ``or``), or None where a term reads anything but the
    fields and names the module docs list."""
    node = expr.node
    if isinstance(node, Chain) and node.rest and all(op == "or" for op, _ in node.rest):
        parts = [node.first, *(n for _, n in node.rest)]
    else:
        parts = [node]
    reads = []
    for part in parts:
        read: dict[str, set[str]] = {"card": set(), "top": set(), "color": set()}
        if not _reads(part, read):
            return None
        reads.append(read)
    card_fields = tuple(sorted(set().union(*(r["card"] for r in reads))))
    top_fields = tuple(sorted(set().union(*(r["top"] for r in reads))))
    terms = Terms(card_fields, top_fields)
    for part, read in zip(parts, reads):
        card_key = _getter([card_fields.index(f) for f in sorted(read["card"])])
        top_key = _getter([top_fields.index(f) for f in sorted(read["top"])])
        terms.terms.append((part.compile(), card_key, top_key, bool(read["color"]), {}))
    return terms


def _getter(positions: list[int]) -> Key:
    """The key of the values at ``positions`` (a tuple of them; () for none)."""
    if not positions:
        return lambda vals: ()
    get = itemgetter(*positions)
    if len(positions) == 1:
        return lambda vals: (get(vals),)
    return get  # a tuple of the items


def _reads(node: Node, read: dict[str, set[str]]) -> bool:
    """Whether ``node`` reads only what the module docs allow (noting the fields in ``read``); a
    node of a subclass is not one of these."""
    kind = type(node)
    if isinstance(node, Const) and kind is Const:
        return type(node.value) in KEYED
    if isinstance(node, Name) and kind is Name:
        if node.name != "color":
            return False
        read["color"].add("color")
        return True
    if isinstance(node, Attr) and kind is Attr:
        obj = node.obj
        if not isinstance(obj, Name) or type(obj) is not Name or obj.name not in ("card", "top"):
            return False
        read[obj.name].add(node.attr)
        return True
    if isinstance(node, Unary) and kind is Unary:
        return _reads(node.operand, read)
    if isinstance(node, (Chain, Compare)) and kind in (Chain, Compare):
        return all(_reads(n, read) for n in (node.first, *(n for _, n in node.rest)))
    return False
