"""A virtual player's strategy: public weights over what it may play (issue 28).

The UNO paper's virtual player plays a uniformly random valid card. With public weights it
plays valid card c with probability w(c) / (the sum of w over its valid cards), and still
reveals nothing else about its hand: the weighted selection protocol
(``rulesets/protocols/weighted-selection.yaml``) gives each card w(c) lottery tickets.

A weight is named by a *class* of card that a kind defines (shedding games: ``number``,
``action``, ``wild``) or by a card kind of the game (``draw2``); a kind's own weight wins over
its class's. Classes and kinds not named weigh 1. Weights are whole numbers from 1 to
:data:`MAX_WEIGHT`: every card carries as many tickets as the largest weight, so a weight is
paid for in cards at the table, and a weight of 0 would let a virtual player that may play
keep its turn, which the rules do not allow.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Symbol
from ..errors import UsageError

STRATEGIES = ("uniform", "weighted")
MAX_WEIGHT = 9
MAX_TEXT = 500  # characters of a --weights text: every class and card kind of a game, named once
WEIGHTED_PROTOCOL = "weighted-selection"  # the protocol a weighted virtual player's turn runs

Classify = Callable[[Symbol], tuple[str, str]]
"""A card's (kind, class), e.g. ``("draw2", "action")``."""


@dataclass(frozen=True)
class Weights:
    """Weights by class or card kind (``{"action": 3, "number": 1, "wild": 1}``)."""

    by_name: tuple[tuple[str, int], ...]

    @classmethod
    def parse(cls, text: str) -> Weights:
        """``action=3,number=1,wild=1`` (the command line's form): at most :data:`MAX_TEXT`
        characters, each name once."""
        if len(text) > MAX_TEXT:
            raise UsageError(
                f"«weights» {text[:30]!r}... is {len(text):,} characters long; weights are at most "
                f"{MAX_TEXT} (one name=weight per class or card kind)"
            )
        pairs: dict[str, Any] = {}
        for part in text.split(","):
            part = part.strip()
            if not part:
                raise UsageError(f"«weights» {text!r}: an empty entry (write name=weight, comma-separated)")
            name, eq, value = part.partition("=")
            if not eq or not name.strip():
                raise UsageError(f"«weights» {text!r}: {part!r} is not name=weight")
            if name.strip() in pairs:
                raise UsageError(f"«weights» {text!r}: {name.strip()!r} is given twice")
            pairs[name.strip()] = value.strip()
        return cls.of(pairs, f"«weights» {text!r}")

    @classmethod
    def of(cls, mapping: Mapping[str, Any], where: str = "weights") -> Weights:
        if not mapping:
            raise UsageError(f"{where}: give at least one weight")
        out: dict[str, int] = {}
        for name, value in mapping.items():
            if isinstance(value, bool):
                raise UsageError(f"{where}: the weight of {name!r} must be a whole number, not {value!r}")
            try:
                w = int(str(value), 10)
            except ValueError:
                raise UsageError(
                    f"{where}: the weight of {name!r} must be a whole number, not {value!r}"
                ) from None
            if not 1 <= w <= MAX_WEIGHT:
                raise UsageError(f"{where}: the weight of {name!r} is {w}; weights go from 1 to {MAX_WEIGHT}")
            out[str(name)] = w
        return cls(tuple(sorted(out.items())))

    def text(self) -> str:
        return ",".join(f"{k}={v}" for k, v in self.by_name)

    def check_names(self, known: Iterable[str], game: str) -> None:
        names = set(known)
        for name, _ in self.by_name:
            if name not in names:
                known_names = ", ".join(sorted(names))
                raise UsageError(
                    f"«weights»: {game} has no class or card kind {name!r} (known: {known_names})"
                )

    @property
    def largest(self) -> int:
        return max([1] + [w for _, w in self.by_name])

    def function(self, classify: Classify) -> Callable[[Any], int]:
        """``weight(card)``: the card kind's weight, else its class's, else 1."""
        table = dict(self.by_name)
        cache: dict[int, int] = {}

        def weight(card: Any) -> int:
            from .virtual import one_card

            c = one_card(card)
            hit = cache.get(c.id)
            if hit is None:
                kind, klass = classify(c)
                hit = cache[c.id] = table.get(kind, table.get(klass, 1))
            return hit

        return weight


@dataclass(frozen=True)
class Strategy:
    """How a virtual player chooses among its valid cards: ``uniform`` (the paper) or ``weighted``."""

    name: str = "uniform"
    weights: Weights | None = None

    def __post_init__(self) -> None:
        if self.name not in STRATEGIES:
            raise UsageError(f"«strategy» is {' or '.join(STRATEGIES)}, not {self.name!r}")
        if self.name == "weighted" and self.weights is None:
            raise UsageError("«strategy» weighted needs «weights» (e.g. action=3,number=1,wild=1)")
        if self.name == "uniform" and self.weights is not None:
            raise UsageError("«weights» needs «strategy» weighted")

    @property
    def weighted(self) -> bool:
        return self.name == "weighted"

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "weights": dict(self.weights.by_name) if self.weights else None}


def strategy_from_options(options: Mapping[str, Any]) -> Strategy:
    """The strategy a kind's play options give (``strategy``, ``weights``)."""
    name = options.get("strategy") or "uniform"
    text = options.get("weights")
    weights = Weights.parse(str(text)) if text else None
    return Strategy(str(name), weights)


def weighted_pick(cards: Sequence[Symbol], weight: Callable[[Any], int], rng: random.Random) -> Symbol:
    """Card c with probability weight(c) / the sum of the weights (one random number, as a
    lottery over every card's tickets draws one ticket)."""
    weights = [weight(c) for c in cards]
    ticket = rng.randrange(sum(weights))
    for c, w in zip(cards, weights):
        if ticket < w:
            return c
        ticket -= w
    raise AssertionError("unreachable: the ticket lies within the total")


__all__ = [
    "MAX_WEIGHT",
    "STRATEGIES",
    "WEIGHTED_PROTOCOL",
    "Classify",
    "Strategy",
    "Weights",
    "strategy_from_options",
    "weighted_pick",
]
