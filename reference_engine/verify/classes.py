"""Data independence: a game protocol verified by validity classes instead of card by card.

A card selection protocol reads the faces of the dealt cards in two ways only: through the
game's functions (``valid(card)``), and by turning all of them face up in scrambled columns,
where the players see the deck in play in a uniformly random order, whatever the deal. Two
deals that give every owner the same number of cards of each *class* (the values of the game's
functions on the card: valid or not) then run alike, card for card, up to renaming the cards
of one class; and a renaming that keeps every class changes no verdict. So the verifier deals
*class cards* instead of faces: ``valid card of P_2`` and so on, one symbol per class and
owner (keeping the owner in the name lets the ``hands`` check see a card go to a wrong owner),
every way the classes can be dealt (a few thousand ways for a 108-card deck, instead of about
10^70 deals), each standing for all the deals of the physical cards it describes.

Where the protocol chooses among the cards of one class (the lottery's uniform choice among
P_1's valid cards), those cards are one symbol here, so the check reads "a valid card of P_1,
always"; that each of them is equally likely follows from the same renaming: swapping two
cards of one class in one hand maps every run to a run of the same deal (a hand's order does
not matter, :mod:`.symmetry` checks that) with the same probability.

Weighted choices. Below, a *card* is one physical card (two copies of a face are two cards), a
deal ``d`` says which cards each owner holds, and ``pi`` maps each dealt card to its class
symbol (its class and its owner); other values (``none``, a card the protocol takes from the
supply) it leaves alone. A ``weighted`` output promises, for every deal ``d``, the distribution
``P(x | d) = W_d(x) / T_d``, where ``W_d(x)`` sums the weights of the pairs ``[x, w]`` of its
expression on ``d`` and ``T_d`` sums them all (``T_d = 0``: none). The verifier checks, on each
class deal ``pi(d)``, that the class run gives symbol ``s`` with probability
``W_pi(d)(s) / T_pi(d)``, the weights summed by symbol (``checks._wanted`` sums equal values).
That implies the promise for every deal it stands for:

1. The class run's distribution is the image under ``pi`` of the run on ``d`` (the argument
   above: the runs agree up to renaming, the renaming being ``pi`` on the dealt cards).
2. The weights map the same way: ``W_pi(d)(s)`` is the sum of ``W_d(x)`` over the ``x`` with
   ``pi(x) = s``, and ``T_pi(d) = T_d``. :func:`_expect_weights` admits only expressions for
   which this holds: lists of ``[choice, weight]`` pairs, made by list literals, comprehensions
   over lists of dealt cards used as multisets (``part``, ``without``, ``minus``, ``sorted``)
   with conditions that are plain, concatenation, and choices between such lists by a plain
   condition; each choice is a dealt card (it maps by ``pi``) or plain, each weight plain.
   *Plain* means what :func:`_kind` means by it for ``equals``: a value that reads the dealt
   cards only through their classes (game functions, ``len``, ``any``...) and the multisets of
   the hands, never a card's name, a card compared with another, or a place in a list; so its
   value is the same on ``d`` and ``pi(d)``. Then the pairs on ``pi(d)`` are those on ``d``
   with each choice mapped by ``pi`` (in another order, which a sum does not see).
3. So for every symbol ``s``, summed over the cards ``x`` with ``pi(x) = s`` (one owner's cards
   of one class), ``P(x | d)`` and ``W_d(x) / T_d`` have the same sum; for a value that is no
   dealt card the two are equal at once. Within one such set both are the same for every
   ``x``: swapping two of them is a renaming that keeps every class and maps ``d`` to ``d``
   itself up to the order of one hand, which changes neither the run (:mod:`.symmetry` checks
   that a hand's order does not matter) nor the weights (plain, and multisets: step 2 with
   the swap in place of ``pi``). Equal terms with equal sums are equal: the promise holds for
   every card, in every deal.

A weights expression that reads a card's name or place is refused, with the file, the line
and the key (``outputs.played.weighted``): ``[[part(cards, sizes, 1)[1], 1]]``, ``c ==
symbol('red1')``, two dealt cards compared, a weight by a card's place in a hand, a function
the discipline does not know (``count(hand, c)``) or the choice of several cards at once.

Refused too, as the renaming does not keep them (docs/verification.md, ``test_classes_hostile.py``):
``part`` by other sizes than the hands' (a card by its place); a supply card beside dealt cards
or as a card output's choice (it may share a dealt card's face: equal in the deal, never in the
class deal); one card removed twice (``minus(hand, [played, played])``).

The precondition, checked and refused otherwise (:class:`~reference_engine.errors.ReductionRefused`):

* at run time, a decision reads a dealt card's face only as the argument of a game function
  (:class:`~reference_engine.cards.DealtFaces`, checked at every read), and no view shows a
  dealt card except in a reveal of all of them in scrambled columns (:mod:`.symmetry`); nor
  does a public output shown at the end in the order its dealt cards lie (``ViewTable.extend``);
* in the spec, the inputs are the dealt cards (``groups``) only, with no ``admissible``
  (the class deals stand for every deal) and no ``players`` (a person's own view would show
  faces); the outputs' ``equals`` and ``uniform`` use the dealt cards only as a multiset:
  through ``part``, ``without``, ``minus``, ``sorted``, ``len``, whole lists, comprehensions
  over them whose element is the card itself, the game's functions and a comparison of one
  card with ``none`` (a card is none only where there is no card, whatever the renaming)
  (:func:`check_outputs`); a card output compared with them decodes as an unordered ``cards``
  or a single ``card``; a ``weighted`` output's weights obey the discipline of step 2 above,
  and a card output it chooses is one ``card``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..cards import DEALT, SYMBOLS, Symbol
from ..errors import ReductionRefused
from ..expressions import (
    Attr,
    Call,
    Chain,
    Compare,
    Comprehension,
    Conditional,
    Const,
    Index,
    ListLit,
    Name,
    Node,
    RangeNode,
    Star,
    Unary,
    plain,
)
from ..spec import OutputDecl, Protocol


@dataclass(frozen=True)
class Table:
    """A table to verify by classes, as plain data (it travels to worker processes): the game
    and its public state, the dealt cards by name (repeats for copies) and the owners' sizes."""

    game: str
    state: tuple[tuple[str, Any], ...]
    deck: tuple[str, ...]
    sizes: tuple[int, ...]
    text: str = ""  # the table in words, for the report

    def state_dict(self) -> dict[str, Any]:
        return {k: _thaw(v) for k, v in self.state}


def freeze_state(state: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted((k, _freeze(v)) for k, v in state.items()))


def _freeze(v: Any) -> Any:
    if isinstance(v, dict):
        return ("__dict__", tuple(sorted((k, _freeze(x)) for k, x in v.items())))
    if isinstance(v, list):
        return tuple(_freeze(x) for x in v)
    return v


def _thaw(v: Any) -> Any:
    if isinstance(v, tuple) and len(v) == 2 and v[0] == "__dict__":
        return {k: _thaw(x) for k, x in v[1]}
    if isinstance(v, tuple):
        return [_thaw(x) for x in v]
    return v


@dataclass
class ClassDeal:
    """One way to deal the classes: per owner, how many cards of each class; and how many deals
    of the physical cards it stands for."""

    counts: tuple[tuple[int, ...], ...]  # [owner][class]
    deals: int


class ClassDeck:
    """The dealt cards by class: the class symbols, every class deal, and the game functions
    that read a class symbol as its class (and any other card as the game does)."""

    def __init__(self, deck: list[Symbol], sizes: list[int], context: dict[str, Callable[..., Any]]):
        if sum(sizes) != len(deck):
            raise ReductionRefused(f"{len(deck)} cards cannot be dealt into hands of sizes {sizes}")
        self.names = sorted(context)
        self.real = context
        keys: dict[str, tuple[Any, ...]] = {}
        for card in deck:
            if card.name not in keys:
                keys[card.name] = tuple(_class_value(context[n](card), n) for n in self.names)
        self.classes: list[tuple[Any, ...]] = sorted(set(keys.values()), key=repr)
        self.faces: Counter[str] = Counter(c.name for c in deck)
        self.per_class = [sum(n for f, n in self.faces.items() if keys[f] == key) for key in self.classes]
        self.sizes = list(sizes)
        self.symbols: list[list[Symbol]] = []  # [owner - 1][class]
        self.key_of: dict[int, tuple[Any, ...]] = {}
        self.owner: dict[int, int] = {}
        for i in range(1, len(sizes) + 1):
            row = []
            for c, key in enumerate(self.classes):
                sym = SYMBOLS.intern(f"dealt_{c + 1}_p{i}", f"[{self.label(key)} card of P{i}]")
                row.append(sym)
                self.key_of[sym.id] = key
                self.owner[sym.id] = i
            self.symbols.append(row)
        self._deals: list[ClassDeal] | None = None

    @property
    def deals(self) -> list[ClassDeal]:
        """Every class deal (listed on first use: :meth:`count` counts them without listing)."""
        if self._deals is None:
            self._deals = list(self._class_deals())
        return self._deals

    def count(self, cap: int) -> int:
        """How many class deals there are, counted without listing them; ``cap + 1`` when there
        are more than ``cap`` (the count stops there: a table can have some 10^10 of them)."""
        if self._deals is not None:
            return min(len(self._deals), cap + 1)
        sizes, last = self.sizes, len(self.sizes) - 1
        memo: dict[tuple[int, tuple[int, ...]], int] = {}

        def rec(i: int, left: tuple[int, ...]) -> int:
            if i == last:
                return 1 if sum(left) == sizes[i] else 0
            hit = memo.get((i, left))
            if hit is None:
                hit = 0
                for row in _rows(sizes[i], list(left)):
                    hit += rec(i + 1, tuple(a - b for a, b in zip(left, row)))
                    if hit > cap:
                        hit = cap + 1
                        break
                memo[(i, left)] = hit
            return hit

        return rec(0, tuple(self.per_class))

    def label(self, key: tuple[Any, ...]) -> str:
        parts = []
        for name, v in zip(self.names, key):
            parts.append(name if v is True else f"not {name}" if v is False else f"{name} {v}")
        return ", ".join(parts)

    def describe(self) -> str:
        return "; ".join(f"{n} {self.label(k)}" for k, n in zip(self.classes, self.per_class))

    def _class_deals(self) -> Iterator[ClassDeal]:
        n_owners = len(self.sizes)
        total = math.prod(math.factorial(n) for n in self.per_class)

        def rec(i: int, left: list[int], acc: list[tuple[int, ...]]) -> Iterator[list[tuple[int, ...]]]:
            if i == n_owners - 1:
                if sum(left) == self.sizes[i]:
                    yield acc + [tuple(left)]
                return
            for row in _rows(self.sizes[i], left):
                yield from rec(i + 1, [a - b for a, b in zip(left, row)], acc + [row])

        for counts in rec(0, list(self.per_class), []):
            den = math.prod(math.factorial(k) for row in counts for k in row)
            yield ClassDeal(tuple(counts), total // den)

    def assignment(self, deal: ClassDeal) -> list[Symbol]:
        """The dealt cards of a class deal in the protocol's input order (owner by owner)."""
        out: list[Symbol] = []
        for i, row in enumerate(deal.counts):
            for c, k in enumerate(row):
                out += [self.symbols[i][c]] * k
        return out

    def context(self) -> dict[str, Callable[..., Any]]:
        """The game's functions for the class run: a class symbol reads as its class."""
        out: dict[str, Callable[..., Any]] = {}
        for pos, name in enumerate(self.names):
            out[name] = self._function(self.real[name], pos)
        return out

    def _function(self, real: Callable[..., Any], pos: int) -> Callable[..., Any]:
        key_of = self.key_of

        def fn(card: Any) -> Any:
            with DEALT.through_game():
                value = plain(card)
            if isinstance(value, list) and len(value) == 1:
                value = value[0]
            if isinstance(value, Symbol) and value.id in key_of:
                return key_of[value.id][pos]
            return real(card)

        return fn

    def hide(self) -> None:
        """From now on decisions and views may not read the class symbols' faces (see
        :class:`~reference_engine.cards.DealtFaces`)."""
        DEALT.ids.update(self.key_of)


def _class_value(v: Any, name: str) -> Any:
    v = plain(v)
    if isinstance(v, (bool, int, str)) or v is None:
        return v
    raise ReductionRefused(f"the game function {name} gives {v!r}, not a plain value: cards have no class")


def _rows(size: int, left: list[int]) -> Iterator[tuple[int, ...]]:
    """Every way to take ``size`` cards with at most ``left[c]`` of class c."""
    if len(left) == 1:
        if size <= left[0]:
            yield (size,)
        return
    rest = sum(left[1:])
    for k in range(max(0, size - rest), min(size, left[0]) + 1):
        for tail in _rows(size - k, left[1:]):
            yield (k, *tail)


# --------------------------------------------------------------------------- the outputs


LIST, CARD, PLAIN, LISTS = "list", "card", "plain", "lists"


def check_outputs(proto: Protocol) -> None:
    """The spec's side of the precondition (module docs); ReductionRefused when it fails."""
    dealt = {n for n, d in proto.inputs.items() if d.groups is not None}
    others = [n for n in proto.inputs if n not in dealt]
    if not dealt or others:
        why = (
            f"{proto.name}: the reduction by classes needs the dealt cards (an input with 'groups') "
            f"as the only input{'; it also has ' + ', '.join(others) if others else ''}"
        )
        raise ReductionRefused(why, proto.src.problem(("inputs",), why))
    if proto.people():
        why = (
            f"{proto.name} seats people ('players'): what each person knows and sees of their own "
            "hands is checked on the cards' faces, which a verification by classes does not have"
        )
        raise ReductionRefused(why, proto.src.problem(("players",), why))
    if proto.admissible is not None:
        why = (
            f"{proto.name} restricts its inputs ('admissible'): the class deals stand for every "
            "deal of the cards, admissible or not, so their count would not be the deals checked"
        )
        raise ReductionRefused(why, proto.src.problem(("admissible",), why))
    # the outputs that are one chosen card, each with its region when it is read from one by name
    cards = {
        o.name: o.cards.name or ""
        for o in proto.outputs.values()
        if o.cards is not None and o.choice is not None
    }
    # each dealt input with the name of its sizes ('groups: sizes'): part() reads hands by them only
    groups = {n: g.node.name for n in dealt if (g := proto.inputs[n].groups) and isinstance(g.node, Name)}
    cards |= {"=" + n: s for n, s in groups.items()}
    context = set(proto.context)
    for out in proto.outputs.values():
        if out.weighted is not None:
            _expect_weights(proto, out, dealt, cards, context)
        for key, expr in (("equals", out.equals), ("uniform", out.uniform)):
            if expr is None:
                continue
            kind = _expect(
                proto, out.path + (key,), expr.node, dealt, cards, context, (PLAIN, LIST, CARD, LISTS)
            )
            if key == "uniform" and out.name in cards and kind == PLAIN and not _cardless(expr.node):
                why = f"output {out.name} may be a card from the supply (only dealt cards or none)"
                raise ReductionRefused(why, proto.src.problem(out.path + (key,), why))
            if kind != PLAIN and out.cards is not None and out.decode not in ("cards", "card"):
                why = (
                    f"output {out.name} compares dealt cards in an order ({out.decode}): only a "
                    "multiset ('cards') or one card can be compared by classes"
                )
                raise ReductionRefused(why, proto.src.problem(out.path, why))


def _expect(
    proto: Protocol,
    path: tuple[Any, ...],
    node: Node,
    dealt: set[str],
    cards: dict[str, str],
    context: set[str],
    allowed: tuple[str, ...],
) -> str:
    try:
        kind = _kind(node, _env(dealt, cards), context)
    except _Uses as exc:
        why = (
            f"it uses the dealt cards other than as a multiset ({exc}): its answer could depend "
            "on more than the cards' classes"
        )
        raise ReductionRefused(why, proto.src.problem(path, why)) from None
    if kind not in allowed:
        why = "it gives dealt cards where a plain value is expected"
        raise ReductionRefused(why, proto.src.problem(path, why))
    return kind


def _expect_weights(
    proto: Protocol, out: OutputDecl, dealt: set[str], cards: dict[str, str], context: set[str]
) -> None:
    """A ``weighted`` output's side of the precondition (module docs, "Weighted choices"): its
    expression is a list of ``[choice, weight]`` pairs built only by :func:`_weights`' rules,
    each choice one dealt card or a value that reads them only as a multiset (``none``), each
    weight such a value; and a card output it chooses for is one card (``encoding: card``)."""
    path = out.path + ("weighted",)
    assert out.weighted is not None
    try:
        # a card output's choices are dealt cards or none ("#card"): its value is removed as one
        _weights(out.weighted.node, _env(dealt, cards) | ({"#card": CARD} if out.cards else {}), context)
    except _Uses as exc:
        why = (
            f"output {out.name}'s weights use the dealt cards other than as a multiset ({exc}): "
            "they could depend on more than the cards' classes"
        )
        raise ReductionRefused(why, proto.src.problem(path, why)) from None
    if out.cards is not None and out.decode != "card":
        why = (
            f"output {out.name} is a weighted choice of {out.decode}, not of one card: only the "
            "choice of one card (or none) is checked by classes"
        )
        raise ReductionRefused(why, proto.src.problem(out.path, why))


def _env(dealt: set[str], cards: dict[str, str]) -> dict[str, str]:
    """The kinds of the names outputs read: dealt cards, card outputs (``@name``: their region);
    ``=input``: the name of the sizes that split a dealt input into hands."""
    env = {n: LIST for n in dealt} | {n: CARD for n in cards if n[0] != "="}
    env |= {"@" + n: r for n, r in cards.items() if r and n[0] != "="}
    return env | {k: v for k, v in cards.items() if k[0] == "="}


def _weights(node: Node, env: dict[str, str], context: set[str]) -> None:
    """Check a weights expression: ``[p, ...]`` of pairs, ``[p for ...]`` over dealt cards or
    plain values with plain conditions, ``a + b`` or ``a or b`` of weights (concatenation, or
    the first non-empty: decided by lengths), ``a if c else b`` with a plain condition, or any
    plain value. Under a renaming of the dealt cards that keeps every class (and owner), each
    form gives the same pairs with their choices renamed (:func:`_pair`), in some order."""
    if isinstance(node, ListLit):
        for item in node.items:
            _pair(item, env, context)
    elif isinstance(node, Comprehension):
        _pair(node.element, _bound(node, env, context), context)
    elif isinstance(node, Conditional):
        _plain(node.cond, env, context, "a condition")
        _weights(node.then, env, context)
        _weights(node.other, env, context)
    elif isinstance(node, Chain) and {op for op, _ in node.rest} <= {"+", "or"}:
        for part in [node.first] + [n for _, n in node.rest]:
            _weights(part, env, context)
    else:
        _plain(node, env, context, "the weights")
        _no_supply(node, env)


def _pair(node: Node, env: dict[str, str], context: set[str]) -> None:
    """One ``[choice, weight]`` pair: the choice one dealt card (or none) or a plain value, the
    weight plain (a count, a game function of the card: never its name or place)."""
    if not isinstance(node, ListLit) or len(node.items) != 2:
        _plain(node, env, context, "a [choice, weight] pair")
        _no_supply(node, env)
        return
    choice, weight = node.items
    kind = _kind(choice, env, context)
    if kind not in (CARD, PLAIN):
        raise _Uses("a choice of several dealt cards")
    if kind == PLAIN:
        _no_supply(choice, env)
    _plain(weight, env, context, "a weight")


def _no_supply(node: Node, env: dict[str, str]) -> None:
    """A card output's plain choice is none (a supply card would be removed as a dealt one)."""
    if "#card" in env and not _cardless(node):
        raise _Uses("a card output that may be a card from the supply (only dealt cards or none)")


class _Uses(Exception):
    """An expression uses the dealt cards in a way that depends on more than their classes."""


_MULTISET = {
    "part": (LIST, PLAIN, PLAIN),
    "without": (LIST, None),
    "minus": (LIST, LIST),
    "sorted": (LIST,),
}
_PLAIN_OF = {"len", "any", "all", "exists", "sum", "count_true"}


def _kind(node: Node, env: dict[str, str], context: set[str]) -> str:
    """What ``node`` gives: PLAIN (no dealt card), CARD (one dealt card, or none), LIST (a list
    of dealt cards, used as a multiset) or LISTS (a list of such lists)."""
    if isinstance(node, (Const, Star)):
        return PLAIN
    if isinstance(node, Name):
        return env.get(node.name, PLAIN)
    if isinstance(node, RangeNode):
        _plain(node.lo, env, context, "a range bound")
        _plain(node.hi, env, context, "a range bound")
        return PLAIN
    if isinstance(node, Call):
        kinds = [_kind(a, env, context) for a in node.args]
        if all(k == PLAIN for k in kinds):
            return PLAIN
        if node.func in context:
            if kinds != [CARD]:
                raise _Uses(f"{node.func}() of something other than one card")
            return PLAIN
        if node.func in _MULTISET:
            want = _MULTISET[node.func]
            if len(kinds) != len(want):
                raise _Uses(f"{node.func}() with {len(kinds)} arguments")
            for k, w in zip(kinds, want):
                if w == LIST and k != LIST:
                    raise _Uses(f"{node.func}() of something other than a list of cards")
                if w == PLAIN and k != PLAIN:
                    raise _Uses(f"{node.func}() with dealt cards as a count or an index")
                if w is None and k not in (CARD, PLAIN):
                    raise _Uses(f"{node.func}() removing a list")
            if node.func in ("without", "minus"):
                _removal(node.func, node.args[0], node.args[1], env, context)
            if node.func == "part" and not _hands(node, env):
                # other sizes would pick cards by their place in a hand ('part(cards, [1, 4], 1)')
                raise _Uses("part() of the dealt cards by other sizes than their hands'")
            return LIST
        if node.func in ("len", "exists") and kinds in ([LIST], [LISTS]):
            return PLAIN
        raise _Uses(f"{node.func}() of dealt cards")
    if isinstance(node, Comprehension):
        return _comprehension(node, env, context)
    if isinstance(node, ListLit):
        kinds = [_kind(i, env, context) for i in node.items]
        if all(k == PLAIN for k in kinds):
            return PLAIN
        if all(k == CARD for k in kinds):
            return LIST
        if all(k == LIST for k in kinds):
            return LISTS
        raise _Uses("a list mixing dealt cards and other values")
    if isinstance(node, Conditional):
        _plain(node.cond, env, context, "a condition")
        a, b = _kind(node.then, env, context), _kind(node.other, env, context)
        if a != b and PLAIN not in (a, b):
            raise _Uses("two branches giving different kinds of dealt cards")
        if a != b and not _cardless(node.then if a == PLAIN else node.other):
            # a supply card may share a dealt card's face: equal in the deal, never in the class deal
            raise _Uses("two branches giving dealt cards and other values (other than none or [])")
        return a if a != PLAIN else b
    if isinstance(node, Chain):
        kinds = [_kind(node.first, env, context)] + [_kind(n, env, context) for _, n in node.rest]
        if all(k == PLAIN for k in kinds):
            return PLAIN
        ops = {op for op, _ in node.rest}
        if ops <= {"or", "+"} and all(k == LIST for k in kinds):
            return LIST  # concatenation, or the first non-empty list: decided by lengths only
        raise _Uses(f"{' '.join(sorted(ops))} on dealt cards")
    if isinstance(node, Unary):
        if _kind(node.operand, env, context) != PLAIN:
            raise _Uses(f"{node.op} of dealt cards")
        return PLAIN
    if isinstance(node, Compare):
        sides = [node.first] + [n for _, n in node.rest]
        # A dealt card is none only when there is no card: the answer keeps every renaming.
        if (
            len(sides) == 2
            and node.rest[0][0] in ("==", "!=")
            and any(_is_none(n) for n in sides)
            and {_kind(n, env, context) for n in sides} <= {CARD, PLAIN}
        ):
            return PLAIN
        for side in sides:
            _plain(side, env, context, "a comparison")
        return PLAIN
    if isinstance(node, Index):
        if _kind(node.obj, env, context) != PLAIN:
            raise _Uses("an item of a list of dealt cards picked by its place")
        for arg in node.args:
            _plain(arg, env, context, "an index")
        return PLAIN
    if isinstance(node, Attr):
        if _kind(node.obj, env, context) != PLAIN:
            raise _Uses(f"the field {node.attr} of a dealt card")
        return PLAIN
    raise _Uses(f"{type(node).__name__}")


def _removal(func: str, source: Node, gone: Node, env: dict[str, str], context: set[str]) -> None:
    """``without(xs, c)`` and ``minus(xs, ys)`` map by every renaming ``pi`` that keeps classes
    and owners (``pi(without(xs, c)) = without(pi(xs), pi(c))`` as multisets) when ``xs`` is
    *whole*: with each dealt card it holds every card of the same owner and class (a hand, the
    cards of a hand that pass a plain test, ...), and each card removed is a dealt card or
    none (each once). Then a removed card is in ``xs`` exactly when its class symbol is in
    ``pi(xs)``. A supply card (``symbol('red5')``) may share a dealt card's face: never removed."""
    if not _whole(source, env, context):
        raise _Uses(f"{func}() from a list that is not every card of some owners' classes")
    items = gone.items if func == "minus" and isinstance(gone, ListLit) else [gone]
    if func == "minus" and not isinstance(gone, ListLit):
        if _whole(gone, env, context):
            return
        raise _Uses("minus() of a list that is neither cards one by one nor whole hands")
    for item in items:
        if not _dealt_or_none(item, env, context):
            raise _Uses(f"{func}() removing a card that may not be a dealt card")
    names = [_card_names(item) for item in items]
    if sum(1 for n in names if n) > 1:
        # one card removed twice finds another of its class in the class deal only; distinct
        # outputs of distinct regions never hold the same card (loop variables may)
        regions = [env.get("@" + n) for ns in names for n in ns]
        if None in regions or len(set(regions)) != len(regions):
            raise _Uses(
                f"{func}() of a card that may be removed twice (only distinct outputs, each "
                "read from its own region, may be removed together)"
            )


def _whole(node: Node, env: dict[str, str], context: set[str]) -> bool:
    if _kind(node, env, context) == PLAIN:
        return True  # no dealt card in it
    if isinstance(node, Name):
        return env.get(node.name) == LIST and "~" + node.name not in env
    if isinstance(node, Call):
        return node.func == "part" or (node.func == "sorted" and _whole(node.args[0], env, context))
    if isinstance(node, Comprehension):
        fors = [c for kind, c in node.clauses if kind == "for"]
        return (
            len(fors) == 1
            and node.clauses[0][0] == "for"
            and isinstance(node.element, Name)
            and node.element.name == node.variables[0]
            and _whole(fors[0], env, context)
        )
    if isinstance(node, Chain):
        ops = {op for op, _ in node.rest}
        return ops == {"+"} and all(_whole(n, env, context) for n in [node.first] + [n for _, n in node.rest])
    if isinstance(node, Conditional):
        return _whole(node.then, env, context) and _whole(node.other, env, context)
    return False


def _dealt_or_none(node: Node, env: dict[str, str], context: set[str]) -> bool:
    if _is_none(node) or (isinstance(node, Name) and env.get(node.name) == CARD):
        return True
    if isinstance(node, Conditional):
        return _dealt_or_none(node.then, env, context) and _dealt_or_none(node.other, env, context)
    return False


def _hands(node: Call, env: dict[str, str]) -> bool:
    """``part(cards, sizes, i)``: a dealt input split by its own sizes (``groups``): a hand."""
    xs, sizes = node.args[0], node.args[1]
    return (
        isinstance(xs, Name)
        and env.get(xs.name) == LIST
        and "~" + xs.name not in env
        and isinstance(sizes, Name)
        and env.get("=" + xs.name) == sizes.name
    )


def _card_names(node: Node) -> list[str]:
    """The names a removed item (a dealt card or none, :func:`_dealt_or_none`) may be."""
    if isinstance(node, Name):
        return [node.name]
    if isinstance(node, Conditional):
        return _card_names(node.then) + _card_names(node.other)
    return []


def _cardless(node: Node) -> bool:
    """A plain value that is no card and holds none: ``none``, ``[]`` (lists of them)."""
    if isinstance(node, ListLit):
        return all(_cardless(i) for i in node.items)
    if isinstance(node, Conditional):
        return _cardless(node.then) and _cardless(node.other)
    return _is_none(node)


def _is_none(node: Node) -> bool:
    return isinstance(node, Const) and node.value is None


def _plain(node: Node, env: dict[str, str], context: set[str], what: str) -> None:
    if _kind(node, env, context) != PLAIN:
        raise _Uses(f"dealt cards in {what}")


def _comprehension(node: Comprehension, env: dict[str, str], context: set[str]) -> str:
    elem = _kind(node.element, _bound(node, env, context), context)
    if elem == PLAIN:
        return PLAIN
    if elem == CARD:
        return LIST
    if elem == LIST:
        return LISTS
    raise _Uses("a list of lists of lists")


def _bound(node: Comprehension, env: dict[str, str], context: set[str]) -> dict[str, str]:
    """The kinds of a comprehension's loop variables (a loop over a list of dealt cards gives
    one dealt card), its conditions checked plain."""
    inner = dict(env)
    vi = 0
    for kind, clause in node.clauses:
        if kind == "for":
            k = _kind(clause, inner, context)
            var = node.variables[vi]
            vi += 1
            for key in [key for key, v in inner.items() if key.startswith("=") and v == var]:
                del inner[key]  # the hands' sizes renamed by the loop: part() no longer reads hands
            inner.pop("@" + var, None)  # an output's name for a loop variable: no region of its own
            if k == PLAIN:
                inner[var] = PLAIN
            elif k == LIST:
                inner[var] = CARD
            elif k == LISTS:
                inner[var] = LIST
                inner["~" + var] = LIST  # one of several lists: not known to be whole (_whole)
            else:
                raise _Uses("a loop over one card")
        else:
            _plain(clause, inner, context, "a condition")
    return inner
