"""Puzzles for the printed puzzle kits, each made from seeded random cards and checked by the solvers.

Two kinds:

* ``chain``: "play all these cards in one chain, each matching the one before". Checked by the
  trail search and the programme (they must agree); a chain answer is a chain of exactly the
  puzzle's cards; a "no" is kept only with a short reason a reader can check (:mod:`.reasons`).
* ``who-wins``: two open hands of uncooperative UNO-2: who wins with best play, and with which
  first card? Checked by the matching method and the whole game tree (they must agree); the
  answer carries the winner's strategy (a maximum matching: answer each card with its partner).

Difficulty comes from search effort: a chain puzzle's is the number of positions a plain
card-by-card search (every kind of card in turn, backtracking, remembering failed positions,
no other cleverness) visits before it knows the answer: how much trying a methodical player
needs. A who-wins puzzle's is the number of positions the game-tree search visits. A level
(easy, medium, hard) gives the number of cards, how many colours and numbers they are drawn
from, and the range of effort; ``mixed`` goes from easy to hard through the puzzles.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..errors import RunError, UsageError
from .cards import Budget, Card, is_chain, same_cards
from .reasons import Reason, why_no_chain
from .solitaire import CardSearch, solve_solitaire
from .uncooperative import solve_uncooperative

LEVELS = ("easy", "medium", "hard")
DIFFICULTIES = (*LEVELS, "mixed")
TRIES = 20_000  # random draws per puzzle before giving up


@dataclass(frozen=True)
class Level:
    """What one level of difficulty draws and accepts."""

    chain_cards: tuple[int, int]
    chain_colours: tuple[int, int]
    chain_numbers: tuple[int, int]
    chain_effort: tuple[int, int | None]
    hand_cards: tuple[int, int]
    hand_colours: tuple[int, int]
    hand_numbers: tuple[int, int]
    hand_effort: tuple[int, int | None]
    no_chain: tuple[str, ...] = ("split", "ends")  # reasons a puzzle without a chain may have


@dataclass(frozen=True)
class PuzzleSpec:
    """How a rule set's puzzles are made (``puzzles:`` of a ``uno-puzzles`` rule set)."""

    colours: int  # colours 1..colours
    numbers: tuple[int, ...]  # the numbers on the cards
    copies: dict[int, int]  # copies of each card of a number in the deck (default 1)
    levels: dict[str, Level]
    chain_share: int  # of every ``chain_share + 1`` puzzles, all but one are chain puzzles
    impossible_every: int  # every n-th chain puzzle has no chain

    def deck(self) -> list[Card]:
        return [
            Card(c, n)
            for c in range(1, self.colours + 1)
            for n in self.numbers
            for _ in range(self.copies.get(n, 1))
        ]


@dataclass
class Puzzle:
    number: int
    kind: str  # chain | who-wins
    level: str
    effort: int
    cards: list[Card] = field(default_factory=list)  # chain
    hand1: list[Card] = field(default_factory=list)  # who-wins
    hand2: list[Card] = field(default_factory=list)
    playable: bool = False  # chain
    sequence: list[Card] | None = None
    reason: Reason | None = None
    loser: int = 0  # who-wins
    first_card: Card | None = None
    winning_first_cards: list[Card] = field(default_factory=list)
    strategy: list[tuple[Card, Card]] = field(default_factory=list)
    checked_by: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "number": self.number,
            "kind": self.kind,
            "level": self.level,
            "effort": self.effort,
        }
        if self.kind == "chain":
            out.update(
                cards=[str(c) for c in self.cards],
                playable=self.playable,
                sequence=[str(c) for c in self.sequence] if self.sequence else None,
                reason=self.reason.kind if self.reason else None,
                reason_cards=[str(c) for c in self.reason.cards] if self.reason else [],
                reason_groups=[[str(c) for c in g] for g in self.reason.groups] if self.reason else [],
            )
        else:
            out.update(
                hand1=[str(c) for c in self.hand1],
                hand2=[str(c) for c in self.hand2],
                loser=self.loser,
                first_card=str(self.first_card) if self.first_card else None,
                winning_first_cards=[str(c) for c in self.winning_first_cards],
                strategy=[[str(a), str(b)] for a, b in self.strategy],
            )
        out["checked_by"] = list(self.checked_by)
        return out


def plan(count: int, difficulty: str, spec: PuzzleSpec) -> list[tuple[str, str, bool | int]]:
    """Each puzzle's (kind, level, target): a chain puzzle's target is whether it has a chain,
    a who-wins puzzle's is the loser."""
    if count < 1:
        raise UsageError(f"«count» must be at least 1, got {count}")
    if difficulty not in DIFFICULTIES:
        raise UsageError(f"«difficulty» is one of {', '.join(DIFFICULTIES)}, not {difficulty!r}")
    out: list[tuple[str, str, bool | int]] = []
    chains = duels = 0
    for i in range(count):
        level = LEVELS[min(2, i * 3 // count)] if difficulty == "mixed" else difficulty
        if i % (spec.chain_share + 1) == spec.chain_share:
            duels += 1
            out.append(("who-wins", level, 2 if duels % 2 else 1))
        else:
            chains += 1
            out.append(("chain", level, chains % spec.impossible_every != 0))
    return out


def make_puzzles(spec: PuzzleSpec, count: int, difficulty: str, seed: int) -> list[Puzzle]:
    """``count`` puzzles at ``difficulty``, the same for the same arguments; each one checked."""
    seen: set[tuple[Any, ...]] = set()
    puzzles = []
    for i, (kind, level, target) in enumerate(plan(count, difficulty, spec), 1):
        rng = random.Random(f"uno-puzzles:{seed}:{i}")
        make = _chain_puzzle if kind == "chain" else _duel_puzzle
        for _ in range(TRIES):
            puzzle = make(rng, spec, spec.levels[level], target, seen)
            if puzzle is not None:
                puzzle.number, puzzle.level = i, level
                puzzles.append(puzzle)
                break
        else:
            raise RunError(
                f"could not make puzzle {i} ({kind}, {level}) in {TRIES:,} tries: the level's ranges in "
                "the rule set may be impossible to meet"
            )
    return puzzles


def _draw(
    rng: random.Random, spec: PuzzleSpec, cards: int, colours: tuple[int, int], numbers: tuple[int, int]
) -> list[Card]:
    palette_c = set(rng.sample(range(1, spec.colours + 1), min(spec.colours, rng.randint(*colours))))
    palette_n = set(rng.sample(spec.numbers, min(len(spec.numbers), rng.randint(*numbers))))
    pool = [c for c in spec.deck() if c.colour in palette_c and c.number in palette_n]
    return sorted(rng.sample(pool, min(len(pool), cards)))


def _within(effort: int, band: tuple[int, int | None]) -> bool:
    return band[0] <= effort and (band[1] is None or effort <= band[1])


def _chain_puzzle(
    rng: random.Random, spec: PuzzleSpec, level: Level, target: bool | int, seen: set[tuple[Any, ...]]
) -> Puzzle | None:
    n = rng.randint(*level.chain_cards)
    cards = _draw(rng, spec, n, level.chain_colours, level.chain_numbers)
    key = ("chain", tuple(cards))
    if len(cards) < n or key in seen:
        return None
    meter = Budget()
    plain = CardSearch(cards, meter, heuristics=False).run()
    if (plain is not None) != target or not _within(meter.effort, level.chain_effort):
        return None
    reason = None if target else why_no_chain(cards)
    if not target and (reason is None or reason.kind not in level.no_chain):
        return None  # a "no" must come with a reason a reader can check
    search, dp = solve_solitaire(cards, "search"), solve_solitaire(cards, "dp")
    if search.playable != target or dp.playable != target:
        raise AssertionError(f"the solvers disagree on {cards}")
    if search.sequence is not None and not (is_chain(search.sequence) and same_cards(search.sequence, cards)):
        raise AssertionError(f"the chain for {cards} is not a chain")
    seen.add(key)
    return Puzzle(
        0,
        "chain",
        "",
        meter.effort,
        cards=cards,
        playable=bool(target),
        sequence=search.sequence,
        reason=reason,
        checked_by=("search", "dp", "cards"),
    )


def _duel_puzzle(
    rng: random.Random, spec: PuzzleSpec, level: Level, target: bool | int, seen: set[tuple[Any, ...]]
) -> Puzzle | None:
    n1, n2 = rng.randint(*level.hand_cards), rng.randint(*level.hand_cards)
    cards = _draw(rng, spec, n1 + n2, level.hand_colours, level.hand_numbers)
    if len(cards) < n1 + n2:
        return None
    rng.shuffle(cards)
    hand1, hand2 = sorted(cards[:n1]), sorted(cards[n1:])
    key = ("who-wins", tuple(hand1), tuple(hand2))
    if key in seen or not _interesting(hand1, hand2):
        return None
    tree = solve_uncooperative(hand1, hand2, "search")
    if tree.loser != target or not _within(tree.effort, level.hand_effort):
        return None
    answer = solve_uncooperative(hand1, hand2, "matching")
    if (answer.loser, answer.winning_first_cards) != (tree.loser, tree.winning_first_cards):
        raise AssertionError(f"the solvers disagree on {hand1} against {hand2}")
    seen.add(key)
    return Puzzle(
        0,
        "who-wins",
        "",
        tree.effort,
        hand1=hand1,
        hand2=hand2,
        loser=answer.loser,
        first_card=answer.first_card,
        winning_first_cards=answer.winning_first_cards,
        strategy=answer.strategy,
        checked_by=("matching", "search"),
    )


def _interesting(hand1: list[Card], hand2: list[Card]) -> bool:
    """Not decided at a glance: every card of player 1 can be answered at least once."""
    return all(any(a.matches(b) for b in hand2) for a in hand1) and len(Counter(hand1 + hand2)) > 2


__all__ = ["DIFFICULTIES", "LEVELS", "Level", "Puzzle", "PuzzleSpec", "make_puzzles", "plan"]
