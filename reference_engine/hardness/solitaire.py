"""SOLITAIRE UNO (UNO-1): can one player play every card, each matching the one before?

Three exact methods (every chain returned is checked to be a chain of exactly the cards):

* ``search`` (:mod:`.search`): a Hamiltonian path of the UNO-1 graph, searched as a trail of
  its root graph (colours and numbers joined by cards, Observation 1), with memoisation and
  reach and bridge-tree pruning. The fastest in general.
* ``dp`` (:mod:`.trails`): a dynamic programme polynomial for few colours or few numbers
  (Theorem 5), linear in the number of cards; up to :data:`MAX_SIDE` of the smaller side.
* ``cards`` (here): the search card by card on the UNO-1 graph itself. Cards of one colour and
  number are interchangeable, so a position is the top card's kind and how many of each kind
  are left; a position that failed once is remembered (one integer per position). Pruning: the
  cards left must form one group, the top card must match one of them, and at most one card
  left may match only one other card (a leaf of the line graph must end the chain); a leaf, if
  there is one, starts the chain (a chain read backwards is a chain). Moves with the fewest
  partners left first (Warnsdorff's rule). Its effort (positions searched) measures how much
  trying a methodical player needs: the puzzle kits rate difficulty by it.

``auto`` runs the search for up to :data:`AUTO_EFFORT` positions; if that is not enough and
the colours or the numbers are at most :data:`DP_SIDE`, it runs the programme, else the search
again without that cap.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import UsageError
from .cards import Budget, Capped, Card, is_chain, same_cards
from .reasons import Reason, why_no_chain
from .search import trail_chain
from .trails import MAX_SIDE, dp_chain, smaller_side

METHODS = ("auto", "search", "dp", "cards")
DP_SIDE = 6  # auto: the programme when the search needs long and min(colours, numbers) <= this
AUTO_EFFORT = 20_000  # auto: positions the search may take before the programme is tried


@dataclass
class SolitaireResult:
    """The answer for a set of cards: a chain (playable) or None, and how it was found."""

    cards: list[Card]
    playable: bool
    sequence: list[Card] | None
    method: str
    seconds: float
    effort: int  # positions (search) or states (programme) visited
    reason: Reason | None = None  # why no chain exists, when a short reason is known

    def to_json(self) -> dict[str, Any]:
        return {
            "playable": self.playable,
            "sequence": [str(c) for c in self.sequence] if self.sequence is not None else None,
            "method": self.method,
            "seconds": round(self.seconds, 6),
            "cards": len(self.cards),
            "effort": self.effort,
            "reason": self.reason.text() if self.reason is not None else None,
        }


class CardSearch:
    """The memoised depth-first search over kinds of cards (see the module docstring)."""

    def __init__(self, cards: Sequence[Card], budget: Budget, heuristics: bool = True):
        self.kinds = sorted(set(cards))
        self.budget = budget
        self.heuristics = heuristics
        count = Counter(cards)
        self.counts = [count[k] for k in self.kinds]
        k = len(self.kinds)
        self.colour = [c.colour for c in self.kinds]
        self.number = [c.number for c in self.kinds]
        # Neighbouring kinds (the same kind included: its other copies).
        self.near = [[j for j in range(k) if self.kinds[i].matches(self.kinds[j])] for i in range(k)]
        self.by_colour: Counter[int] = Counter()
        self.by_number: Counter[int] = Counter()
        for i, n in enumerate(self.counts):
            self.by_colour[self.colour[i]] += n
            self.by_number[self.number[i]] += n
        # A position's code: the counts in mixed radix, times k, plus the top card's kind.
        self.weight = []
        w = 1
        for n in self.counts:
            self.weight.append(w)
            w *= n + 1
        self.code = sum(n * wt for n, wt in zip(self.counts, self.weight))
        self.left = sum(self.counts)
        self.failed: set[int] = set()

    # ------------------------------------------------------------------ bookkeeping

    def _take(self, i: int) -> None:
        self.counts[i] -= 1
        self.by_colour[self.colour[i]] -= 1
        self.by_number[self.number[i]] -= 1
        self.code -= self.weight[i]
        self.left -= 1

    def _put(self, i: int) -> None:
        self.counts[i] += 1
        self.by_colour[self.colour[i]] += 1
        self.by_number[self.number[i]] += 1
        self.code += self.weight[i]
        self.left += 1

    def degree(self, i: int, top: int | None) -> int:
        """How many cards left (and the top card) a card of kind i matches, itself not counted."""
        d = self.by_colour[self.colour[i]] + self.by_number[self.number[i]] - self.counts[i] - 1
        if top is not None and self.kinds[top].matches(self.kinds[i]):
            d += 1
        return d

    # ------------------------------------------------------------------ pruning

    def connected(self) -> bool:
        """Whether the cards left form one group (their colours and numbers are connected)."""
        parent: dict[tuple[int, int], tuple[int, int]] = {}

        def find(x: tuple[int, int]) -> tuple[int, int]:
            while parent.setdefault(x, x) != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for i, n in enumerate(self.counts):
            if n:
                a, b = find((0, self.colour[i])), find((1, self.number[i]))
                if a != b:
                    parent[a] = b
        roots = {find(x) for x in list(parent)}
        return len(roots) <= 1

    def leaves(self, top: int | None) -> list[int]:
        """Kinds of the cards left that match exactly one other card (each copy counted)."""
        out: list[int] = []
        for i, n in enumerate(self.counts):
            if n and self.degree(i, top) <= 1:
                out.extend([i] * n)
        return out

    # ------------------------------------------------------------------ search

    def run(self) -> list[Card] | None:
        if self.left == 0:
            return []
        if self.heuristics:
            if not self.connected():
                return None
            ends = self.leaves(None)
            if len(ends) > 2:
                return None
            starts = sorted(set(ends)) if ends else self._ordered(range(len(self.kinds)), None)
        else:
            starts = list(range(len(self.kinds)))
        for i in starts:
            self._take(i)
            path = self._from(i)
            self._put(i)
            if path is not None:
                return [self.kinds[j] for j in [i, *path]]
        return None

    def _ordered(self, options: Any, top: int | None) -> list[int]:
        """Kinds to try next: fewest partners left first (ties: the kinds' order)."""
        return sorted(options, key=lambda j: (self.degree(j, top), j))

    def _from(self, top: int) -> list[int] | None:
        """A chain of every card left after ``top`` (iterative, so deep chains do not recurse)."""
        path: list[int] = []
        stack: list[tuple[int, list[int]]] = [(top, self._moves(top))]
        while stack:
            if self.left == 0:
                return path
            cur, moves = stack[-1]
            if not moves:
                stack.pop()
                self.failed.add(self.code * len(self.kinds) + cur)
                if path:
                    self._put(path.pop())
                continue
            j = moves.pop()
            self._take(j)
            path.append(j)
            next_moves = self._moves(j)
            if self.left and not next_moves:
                self._put(path.pop())
                continue
            stack.append((j, next_moves))
        return None

    def _moves(self, top: int) -> list[int]:
        """The kinds that may follow ``top`` (in reverse order of trying); [] when the position is
        known to fail or is pruned."""
        if self.left == 0:
            return []
        key = self.code * len(self.kinds) + top
        if key in self.failed:
            return []
        self.budget.tick("solitaire search")
        options = [j for j in self.near[top] if self.counts[j]]
        if not options:
            return []
        if self.heuristics:
            if len(self.leaves(top)) > 1 or not self.connected():
                self.failed.add(key)
                return []
            options = self._ordered(options, top)
        options.reverse()
        return options


def card_chain(
    cards: Sequence[Card], budget: Budget | None = None, heuristics: bool = True
) -> list[Card] | None:
    """A chain using every card by the card-by-card search, or None (exact). Without
    ``heuristics``: no pruning and the kinds in their order (a plain memoised search)."""
    return CardSearch(cards, budget or Budget(), heuristics).run()


def _run(method: str, cards: Sequence[Card], budget: Budget) -> list[Card] | None:
    if method == "dp":
        return dp_chain(cards, budget)
    if method == "cards":
        return card_chain(cards, budget)
    return trail_chain(cards, budget)


def solve_solitaire(
    cards: Sequence[Card], method: str = "auto", time_limit: float | None = None
) -> SolitaireResult:
    """Can every card be played in one chain? Exact; ``method`` is one of :data:`METHODS`."""
    if method not in METHODS:
        raise UsageError(f"«method» is one of {', '.join(METHODS)}, not {method!r}")
    if not cards:
        raise UsageError("no cards: give at least one card")
    if method == "dp" and smaller_side(cards) > MAX_SIDE:
        raise UsageError(
            f"«method» dp takes at most {MAX_SIDE} colours or at most {MAX_SIDE} numbers; these cards "
            f"have {smaller_side(cards)} of both (use «method» search)"
        )
    budget = Budget(time_limit)
    chosen = method
    if method == "auto":
        chosen = "search"
        trial = Budget(time_limit, cap=AUTO_EFFORT)
        try:
            chain = trail_chain(cards, trial)
        except Capped:
            chosen = "dp" if smaller_side(cards) <= DP_SIDE else "search"
            budget.effort = trial.effort
            chain = _run(chosen, cards, budget)
        else:
            budget = trial
    else:
        chain = _run(chosen, cards, budget)
    if chain is not None and not (is_chain(chain) and same_cards(chain, cards)):
        raise AssertionError(f"the {chosen} method returned a chain that is not a chain of the cards")
    result = SolitaireResult(list(cards), chain is not None, chain, chosen, budget.elapsed(), budget.effort)
    if chain is None:
        result.reason = why_no_chain(cards)
    return result


__all__ = [
    "AUTO_EFFORT",
    "DP_SIDE",
    "METHODS",
    "CardSearch",
    "SolitaireResult",
    "card_chain",
    "solve_solitaire",
]
