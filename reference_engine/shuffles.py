"""Shuffles: a set of permutations of piles, one of which is applied uniformly at random.

Every shuffle in the card-based literature is a uniform choice from a permutation set Pi
acting on *piles* (equal-sized groups of cards that move together):

========================  ==========================================  ===========
kind                      Pi                                          size
========================  ==========================================  ===========
``scramble`` (piles)      every permutation of the k piles            k!
``shift`` (piles)         the k cyclic shifts of the piles            k
``cut`` (cards)           the cyclic shifts of single cards            n
``bisect`` (cards)        identity or swapping the two halves          2
``set``                   an explicit list of pile permutations        len(list)
========================  ==========================================  ===========

A ``set`` is a *multiset*: each entry of the list is drawn with probability 1/len(list), so a
permutation listed twice is twice as likely (a non-uniform shuffle). The verifier's orbit
shortcut (:meth:`Shuffle.canonical`) needs a shuffle that is uniform over a group; for a
``set`` it checks both on the multiset (every permutation listed equally often, and the
distinct permutations closed under composition) and is skipped otherwise.

A permutation ``p`` is a tuple: after the shuffle, pile position ``i`` holds what was in
pile ``p[i]`` (0-based here; specs write 1-based).
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .cards import CODE_ORDER

Perm = tuple[int, ...]
Content = tuple[int, ...]


def is_permutation(p: Sequence[int], n: int) -> bool:
    return len(p) == n and sorted(p) == list(range(n))


def is_group(perms: Sequence[Perm]) -> bool:
    """Whether the distinct permutations are closed under composition (then they form a group)."""
    s = set(perms)
    return all(tuple(a[b[i]] for i in range(len(a))) in s for a in s for b in s)


def is_uniform_group(perms: Sequence[Perm]) -> bool:
    """Whether drawing an entry of the list ``perms`` is a uniform draw from a group.

    The list is a multiset: it is uniform over its distinct permutations only when every one
    is listed equally often, and those must be closed under composition.
    """
    counts = Counter(perms)
    return len(set(counts.values())) <= 1 and is_group(list(counts))


@dataclass(frozen=True)
class Shuffle:
    """A uniform shuffle over a permutation set of ``k`` piles."""

    kind: str  # scramble | shift | set
    k: int
    perms: tuple[Perm, ...] = ()  # only for kind == "set"

    @property
    def size(self) -> int:
        if self.kind == "scramble":
            return math.factorial(self.k)
        if self.kind == "shift":
            return self.k
        return len(self.perms)

    @property
    def is_uniform_group(self) -> bool:
        """Uniform over a group of permutations: the precondition of :meth:`canonical`."""
        return self.kind != "set" or is_uniform_group(self.perms)

    @property
    def is_uniform(self) -> bool:
        """Every possible permutation equally likely (a ``set`` with no permutation listed more often)."""
        return self.kind != "set" or len(set(Counter(self.perms).values())) <= 1

    def all_perms(self) -> Iterator[Perm]:
        if self.kind == "scramble":
            yield from itertools.permutations(range(self.k))
        elif self.kind == "shift":
            for s in range(self.k):
                yield tuple((i + s) % self.k for i in range(self.k))
        else:
            yield from self.perms

    def sample(self, rng: random.Random) -> Perm:
        if self.kind == "scramble":
            p = list(range(self.k))
            rng.shuffle(p)
            return tuple(p)
        if self.kind == "shift":
            s = rng.randrange(self.k)
            return tuple((i + s) % self.k for i in range(self.k))
        return self.perms[rng.randrange(len(self.perms))]

    def canonical(self, contents: Sequence[Content]) -> Perm | None:
        """A permutation taking ``contents`` to a fixed representative of its orbit.

        Two tables in the same orbit give the same distribution after the shuffle, so
        the verifier replaces each table by its representative and merges them first. That
        holds only for a shuffle drawn uniformly from a group: returns None otherwise (a
        ``set`` whose multiset is not uniform, or whose permutations are not closed).
        """
        k = self.k
        CODE_ORDER.reads += 1
        if self.kind == "scramble":
            return tuple(sorted(range(k), key=lambda i: contents[i]))
        if self.kind == "shift":
            best = min(range(k), key=lambda s: [contents[(i + s) % k] for i in range(k)])
            return tuple((i + best) % k for i in range(k))
        if not self.is_uniform_group:
            return None
        return min(self.perms, key=lambda p: [contents[i] for i in p])

    def outcomes(self, contents: Sequence[Content]) -> list[tuple[Perm, Fraction]]:
        """Distinct resulting arrangements with their exact probabilities."""
        if self.kind == "scramble":
            return _multiset_arrangements(contents)
        total = self.size
        seen: dict[tuple[Content, ...], tuple[Perm, int]] = {}
        for p in self.all_perms():
            key = tuple(contents[i] for i in p)
            if key in seen:
                seen[key] = (seen[key][0], seen[key][1] + 1)
            else:
                seen[key] = (p, 1)
        return [(p, Fraction(n, total)) for p, n in seen.values()]


def _multiset_arrangements(contents: Sequence[Content]) -> list[tuple[Perm, Fraction]]:
    """All distinct orders of the piles, each with probability prod(n_j!) / k!.

    Listed in the order of the piles' contents (card codes): counted in CODE_ORDER (an
    ``each`` shuffle lists them without an orbit's representative first)."""
    CODE_ORDER.reads += 1
    k = len(contents)
    groups: dict[Content, list[int]] = {}
    for i, c in enumerate(contents):
        groups.setdefault(c, []).append(i)
    keys = sorted(groups)
    counts = Counter({key: len(groups[key]) for key in keys})
    prob = Fraction(math.prod(math.factorial(n) for n in counts.values()), math.factorial(k))
    out: list[tuple[Perm, Fraction]] = []
    order: list[Content] = []

    def rec() -> None:
        if len(order) == k:
            used: dict[Content, int] = {}
            perm = []
            for key in order:
                j = used.get(key, 0)
                perm.append(groups[key][j])
                used[key] = j + 1
            out.append((tuple(perm), prob))
            return
        for key in keys:
            if counts[key]:
                counts[key] -= 1
                order.append(key)
                rec()
                order.pop()
                counts[key] += 1

    rec()
    return out


def pile_gather(n: int, piles: Sequence[Sequence[int]], perm: Perm) -> tuple[int, ...]:
    """Gather map over ``n`` cells: pile position i receives the cards of pile perm[i]."""
    src = list(range(n))
    for i, p in enumerate(perm):
        for dst, s in zip(piles[i], piles[p]):
            src[dst] = s
    return tuple(src)
