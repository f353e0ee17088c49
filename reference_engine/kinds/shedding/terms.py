"""The cards a per-card validity rule allows in a public state, found term by term.

A game asks, at each public state (top card, colour in force) it meets first, which of the
deck's cards its rule allows (:meth:`~.rules.RuleSet.allowed_ids`): the rule evaluated on every
distinct card, some sixty states in the first thousand turns of UNO. Most rule sets' rule is an
``or`` of terms that each read little: ``card.color == 'black'`` reads the card's colour alone,
``card.color == color`` the card's colour and the colour in force, ``card.face == top.face`` the
two faces. A term's answer is a function of the values it reads, so it is kept by those values,
and the cards are classed by them for each term (kept while the cards and their values are the
same): a new state costs a look-up per class and term (UNO: 5 + 5 + 15) rather than the whole
rule evaluated on each of 54 cards.

Exact because of what a rule may do here, checked once on its tree (:func:`split`): its terms
read ``card`` and ``top`` only as ``card.<field>`` and ``top.<field>``, ``color`` as itself, and
otherwise hold only constants, comparisons, arithmetic, ``and``/``or``/``not`` (no function,
no list, no index: nothing else they could read). At each state the fields are read afresh from
the cards (a card's attributes are those last declared), and only values of the types whose
equality is sameness of meaning are keys (strings, whole numbers, None, and truth values kept with
their type: ``True == 1`` as keys, not to every operator; any other type, a float, a list, is
refused): equal keys, the same answer. An ``or`` of terms is true when one of them is, each
card's terms taken in the rule's order (the same evaluations, in the same order, as the rule's own
``or``). A field a card lacks, a value of another type, or an error in any term gives None: the
caller then evaluates the rule card by card, which reports the error as it always did.
``evaluate.CHECKED`` compares every set found here with that way's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

from ...cards import Symbol
from ...expressions import Expression, Scope, truthy
from ...expressions.nodes import Attr, Chain, Compare, Const, Name, Node, Unary
from ...functions import BUILTINS

KEYED = frozenset((str, int, bool, type(None)))
"""The types of the values a key may hold (see the module docs)."""

Key = Callable[[tuple[Any, ...]], Any]


class Terms:
    """A rule split into its ``or`` terms, each with the fields it reads and its kept answers."""

    __slots__ = ("card_fields", "classes", "read", "terms", "top_fields")

    def __init__(self, card_fields: tuple[str, ...], top_fields: tuple[str, ...]):
        self.card_fields = card_fields  # the fields of ``card`` any term reads, in a fixed order
        self.top_fields = top_fields
        self.read = _reader(card_fields)  # a card's attributes -> the values of card_fields
        # Per term: its function, its card key and top key (from the read values), whether it
        # reads ``color``, and its answers by state key then card key.
        self.terms: list[tuple[Callable[[Scope], Any], Key, Key, bool, dict[Any, dict[Any, bool]]]] = []
        # The cards' keys and ids last met, and per term the cards by their key for it (the
        # key, the index of its first card, the ids of its cards), in the order the cards come.
        self.classes: tuple[list[Any], list[int], list[list[tuple[Any, int, list[int]]]]] | None = None

    def allowed(self, cards: Sequence[Symbol], top: Symbol, color: Any) -> frozenset[int] | None:
        """The ids of ``cards`` the rule allows with ``top`` and ``color``, or None (see the
        module docs: then evaluate the rule card by card).

        A term is asked once per class of cards (equal keys: the same answer), each class's
        first card standing for it; a term that fails on a card an earlier term allowed (the
        rule's ``or`` never asks it) gives None too."""
        try:
            if type(top) is not Symbol or not {*map(type, cards)} <= _SYMBOL:
                return None
            tops = _keyed([_reader(self.top_fields)(top.attrs)])
            given = _keyed([(color,)])
            read = self.read
            keys = _keyed([read(c.attrs) for c in cards])
            if tops is None or given is None or keys is None:
                return None
            now = [c.id for c in cards]
            classes = self.classes
            if classes is None or classes[0] != keys or classes[1] != now:  # equal one by one
                groups = [_classes(keys, now, term[1]) for term in self.terms]
                classes = self.classes = (keys, now, groups)
            scope = Scope({"top": top, "color": color, "hand": []}, functions=BUILTINS)
            ids: set[int] = set()
            for (fn, _, top_key, reads_color, kept), classed in zip(self.terms, classes[2]):
                state = (top_key(tops[0]), given[0] if reads_color else None)
                known = kept.get(state)
                if known is None:
                    known = kept[state] = {}
                for k, first, members in classed:
                    answer = known.get(k)
                    if answer is None:
                        answer = known[k] = truthy(fn(scope.child({"card": cards[first]})))
                    if answer:
                        ids.update(members)
            return frozenset(ids)
        except Exception:  # any error: the rule card by card reports it (see the module docs)
            return None


def _classes(keys: list[Any], ids: list[int], card_key: Key) -> list[tuple[Any, int, list[int]]]:
    """The cards by their key for one term: (key, its first card's index, its cards' ids)."""
    out: dict[Any, tuple[Any, int, list[int]]] = {}
    for i, row in enumerate(keys):
        k = card_key(row)
        hit = out.get(k)
        if hit is None:
            out[k] = (k, i, [ids[i]])
        else:
            hit[2].append(ids[i])
    return list(out.values())


_SYMBOL = {Symbol}
_RAW = frozenset((str, int, type(None)))
"""The types whose values are their own keys (a truth value is keyed with its type: see
:func:`_keyed`)."""


def _reader(fields: tuple[str, ...]) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    """The tuple of the values of ``fields`` in a card's attributes (KeyError where one lacks:
    the caller's None)."""
    if len(fields) > 1:
        return itemgetter(*fields)
    if fields:
        field = fields[0]
        return lambda attrs: (attrs[field],)
    return lambda attrs: ()


def _keyed(rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]] | None:
    """``rows`` as keys: a string, whole number or None as itself, a truth value as ``(bool,
    value)`` (``True == 1`` as keys, but not to every operator); None where a value is of another
    type. Equal keys are values of the same type and equal: the same answers."""
    types = {type(v) for row in rows for v in row}
    if types <= _RAW:
        return rows  # no truth value: each value is its key
    if not types <= KEYED:
        return None
    return [tuple([(bool, v) if type(v) is bool else v for v in row]) for row in rows]


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
