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
   ``pi(x) = s``, and ``T_pi(d) = T_d``. :func:`.discipline._expect_weights` admits only expressions for
   which this holds: lists of ``[choice, weight]`` pairs, made by list literals, comprehensions
   over lists of dealt cards used as multisets (``part``, ``without``, ``minus``, ``sorted``)
   with conditions that are plain, concatenation, and choices between such lists by a plain
   condition; each choice is a dealt card (it maps by ``pi``) or plain, each weight plain.
   *Plain* means what :func:`.discipline._kind` means by it for ``equals``: a value that reads the dealt
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
  (:func:`.discipline.check_outputs`); a card output compared with them decodes as an unordered ``cards``
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
    plain,
)


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
