"""Cards of the "UNO is hard" model: a colour and a number, written ``c/n`` (``1/3``).

Demaine et al. (TCS 2014, Section 2.2) define a card as a pair (x, y) of a colour and a
number; a set of cards may repeat a card. Two cards *match* when they agree in colour or in
number. On the command line a set is ``1/3,2/2,2/3``; every problem with such a text is
one line naming the bad card (exit code 2).
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from ..errors import RunError, UsageError

MAX_CARDS = 10_000  # a card text with more cards is refused before any work
MAX_VALUE = 1_000_000  # colours and numbers are whole numbers 0..MAX_VALUE
_CARD = re.compile(r"^(\d+)/(\d+)$")


@dataclass(frozen=True, order=True)
class Card:
    """One card: a colour and a number (both whole numbers; the paper counts from 1)."""

    colour: int
    number: int

    @classmethod
    def parse(cls, text: str) -> Card:
        """``"1/3"`` -> ``Card(1, 3)``; a ValueError says what is wrong."""
        m = _CARD.match(text.strip())
        if not m:
            raise ValueError(f"{text.strip()!r} is not a card: write colour/number, e.g. 1/3")
        colour, number = int(m.group(1)), int(m.group(2))
        if colour > MAX_VALUE or number > MAX_VALUE:
            raise ValueError(f"{text.strip()!r}: colours and numbers go up to {MAX_VALUE:,}")
        return cls(colour, number)

    def matches(self, other: Card) -> bool:
        """Whether ``other`` may follow this card (or this one follow it): same colour or number."""
        return self.colour == other.colour or self.number == other.number

    def __str__(self) -> str:
        return f"{self.colour}/{self.number}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


def parse_cards(text: str, option: str = "«cards»") -> list[Card]:
    """A comma-separated set of cards, as given to ``option``; a UsageError names the bad card."""
    if not text.strip():
        raise UsageError(f"{option} is empty: give cards as colour/number separated by commas, e.g. 1/3,2/2")
    parts = text.split(",")
    if len(parts) > MAX_CARDS:
        raise UsageError(f"{option} has {len(parts):,} cards; at most {MAX_CARDS:,} are accepted")
    cards: list[Card] = []
    for i, part in enumerate(parts, 1):
        if not part.strip():
            raise UsageError(f"{option}: card {i} is empty (two commas in a row, or a comma at an end)")
        try:
            cards.append(Card.parse(part))
        except ValueError as exc:
            raise UsageError(f"{option}: card {i}: {exc}") from None
    return cards


def cards_text(cards: Iterable[Card]) -> str:
    """The command-line text of a set of cards (``1/3,2/2``)."""
    return ",".join(str(c) for c in cards)


def is_chain(sequence: Sequence[Card]) -> bool:
    """Whether every card of ``sequence`` matches the one before it."""
    return all(a.matches(b) for a, b in pairwise(sequence))


def same_cards(a: Iterable[Card], b: Iterable[Card]) -> bool:
    """Whether two collections hold the same cards, each as often."""
    return Counter(a) == Counter(b)


class OutOfTime(RunError):
    """A search ran past its time limit (an NP-complete problem can take very long)."""


class Capped(Exception):
    """A search reached the effort its caller allowed it (not an error: the caller goes on)."""


class Budget:
    """A search's time limit, and how much work it did (its *effort*: positions or states)."""

    def __init__(self, seconds: float | None = None, cap: int | None = None):
        self.limit = seconds
        self.cap = cap
        self.start = time.perf_counter()
        self.effort = 0

    def tick(self, what: str) -> None:
        """Count one unit of work; every 4096 units, check the clock."""
        self.effort += 1
        if self.cap is not None and self.effort > self.cap:
            raise Capped(what)
        if self.limit is not None and self.effort % 4096 == 0 and self.elapsed() > self.limit:
            raise OutOfTime(
                f"{what}: no answer within the time limit of {self.limit:g} s "
                f"({self.effort:,} positions searched); allow more with «time_limit»"
            )

    def elapsed(self) -> float:
        return time.perf_counter() - self.start


__all__ = [
    "MAX_CARDS",
    "Budget",
    "Capped",
    "Card",
    "OutOfTime",
    "cards_text",
    "is_chain",
    "parse_cards",
    "same_cards",
]
