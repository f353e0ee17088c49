"""Lazily scrambled piles: a pile-scramble whose order is left open until something reads it.
:func:`materialize` and :func:`settle` draw the piles a step needs (only some rows of every
pile when that is enough), :func:`before_scramble` just enough of them for a scramble, and
:func:`fill_in` the deferred inputs whose cards are read. Split from :mod:`.frontier`, which
holds the states and their probabilities."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from typing import TYPE_CHECKING, Any

from ..cards import CODE_ORDER
from ..table import State
from .deferred import has_placeholders
from .frontier import Frontier, Needed, Prob, _scale, add_vec, spend

if TYPE_CHECKING:
    from .deferred import Deferred


Draw = tuple[tuple[tuple[int, ...], ...], Prob]
"""An ordered draw of piles (each pile's card codes) and its probability."""


_DRAWS: dict[tuple[tuple[tuple[int, ...], ...], int], list[Draw]] = {}


def _draws(contents: list[tuple[int, ...]], n: int) -> list[Draw]:
    """Ordered draws of ``n`` piles without replacement from a multiset, with probabilities.

    Every call costs an exploration's budget one unit a draw, listed now or kept from an
    earlier call (in this run or any run before it in the process): what a run spends, and so
    where a budget stops it, never depends on what the process kept (:data:`_DRAWS`)."""
    CODE_ORDER.reads += 1
    key = (tuple(contents), n)
    hit = _DRAWS.get(key)
    if hit is None:
        hit = _DRAWS[key] = _draws_uncached(contents, n)  # spends as it lists them
        if len(_DRAWS) > 200_000:
            _DRAWS.clear()
    else:
        spend(len(hit))  # as listing them again would
    return hit


def _draws_uncached(contents: list[tuple[int, ...]], n: int) -> list[Draw]:
    counts: dict[tuple[int, ...], int] = {}
    for c in contents:
        counts[c] = counts.get(c, 0) + 1
    keys = sorted(counts)
    out: list[Draw] = []
    seq: list[tuple[int, ...]] = []

    def rec(left: int, num: int, den: int) -> None:
        if len(seq) == n:
            spend()
            g = math.gcd(num, den)
            out.append((tuple(seq), (num // g, den // g)))
            return
        for k in keys:
            c = counts[k]
            if c:
                counts[k] = c - 1
                seq.append(k)
                rec(left - 1, num * c, den * left)
                seq.pop()
                counts[k] = c

    rec(len(contents), 1, 1)
    return out


def materialize(state: State, needed: frozenset[int] | set[int] | None) -> list[tuple[State, Prob]]:
    """Fix the order of the lazily scrambled piles that touch ``needed`` (None: all piles).

    A lazy block stands for every order of its piles, equally likely. Fixing the piles
    at some positions means drawing their contents without replacement; the remaining
    piles stay lazy, in sorted order, so equal situations keep merging. Each table comes
    with its probability as (numerator, denominator).

    When ``needed`` touches only some of each pile's cards (the bottom rows of columns, say),
    those rows may be drawn in every pile of the block instead (:func:`_draw_rows`): always
    when every pile is touched, and otherwise when that leaves fewer orders to tell apart
    (:func:`_rows_first`). Drawing more than is needed is exact too: it only splits the
    distribution further.
    """
    if not state.lazy:
        return [(state, (1, 1))]
    partial: list[tuple[list[int], tuple[tuple[tuple[int, ...], ...], ...], int, int]] = [
        (list(state.cells), (), 1, 1)
    ]
    for block in state.lazy:
        idx = [i for i, pile in enumerate(block) if needed is None or not needed.isdisjoint(pile)]
        if not idx:
            partial = [(c, kept + (block,), a, b) for c, kept, a, b in partial]
            continue
        rows = _touched_rows(block, needed)
        rest = [i for i in range(len(block)) if i not in idx]
        nxt = []
        for cells, kept, a, b in partial:
            contents = [tuple(cells[f] for f in pile) for pile in block]
            if rows is not None and (len(idx) == len(block) or _rows_first(contents, rows)):
                nxt += [
                    (c2, kept + more, a * qa, b * qb) for c2, more, (qa, qb) in _draw_rows(cells, block, rows)
                ]
                continue
            for seq, (qa, qb) in _draws(contents, len(idx)):
                remaining = list(contents)
                for c in seq:
                    remaining.remove(c)
                remaining.sort()
                c2 = list(cells)
                for i, content in zip(idx, seq):
                    for f, v in zip(block[i], content):
                        c2[f] = v
                for i, content in zip(rest, remaining):
                    for f, v in zip(block[i], content):
                        c2[f] = v
                keep = kept + ((tuple(block[i] for i in rest),) if len(rest) > 1 else ())
                nxt.append((c2, keep, a * qa, b * qb))
        spend(len(nxt))
        partial = nxt
    return [(state.replace(cells=tuple(c), lazy=k), (a, b)) for c, k, a, b in partial]


def _touched_rows(
    block: tuple[tuple[int, ...], ...], needed: frozenset[int] | set[int] | None
) -> list[int] | None:
    """The places within a pile (0 = its first card) that ``needed`` touches in some pile of
    ``block``, when that is only some of them and the piles are alike in size; else None."""
    if needed is None:
        return None
    size = len(block[0])
    if size < 2 or any(len(pile) != size for pile in block):
        return None
    rows = [k for k in range(size) if any(pile[k] in needed for pile in block)]
    return rows if len(rows) < size else None


def _orders(contents: list[tuple[int, ...]]) -> int:
    """How many different sequences a multiset of pile contents can be laid out in."""
    n = math.factorial(len(contents))
    for k in Counter(contents).values():
        n //= math.factorial(k)
    return n


def _rows_first(contents: list[tuple[int, ...]], rows: list[int]) -> bool:
    """Whether to draw ``rows`` of every pile rather than the touched piles whole: when the
    rows alone have fewer distinct orders than the whole piles. Drawing whole piles one by
    one ends, once every pile is touched, in every order of the piles; drawing the rows first
    ends in the orders of the rows, the rest of each pile staying scrambled among the piles
    with equal rows (the candidate cards above the bits of a lottery: 70 orders of four 1 and
    four 0 bits instead of the 40,320 orders of eight distinct piles)."""
    return _orders([tuple(c[k] for k in rows) for c in contents]) < _orders(contents)


def _draw_rows(
    cells: list[int], block: tuple[tuple[int, ...], ...], rows: list[int]
) -> list[tuple[list[int], tuple[tuple[tuple[int, ...], ...], ...], Prob]]:
    """Draw only the cards at ``rows`` of every pile of a lazy block.

    The block's order is a uniformly random permutation of its piles. Drawing the ``rows``
    part of every pile gives a sequence of parts, as likely as an ordered draw of all of
    them from their multiset (:func:`_draws`). Given that sequence the permutation is still
    uniform among the piles whose drawn parts are equal, so the rest of those piles (the
    cards at the other rows) is uniformly scrambled over their positions: a new lazy block
    for each group of two or more positions sharing a drawn part, its contents in sorted
    order like every lazy block. Returns (cells, the new blocks, probability) per sequence.
    """
    other = [k for k in range(len(block[0])) if k not in rows]
    contents = [tuple(cells[f] for f in pile) for pile in block]
    drawn = [tuple(c[k] for k in rows) for c in contents]
    rest: dict[tuple[int, ...], list[tuple[int, ...]]] = defaultdict(list)
    for d, c in zip(drawn, contents):
        rest[d].append(tuple(c[k] for k in other))
    for parts in rest.values():
        parts.sort()
    # Each pile's slots at the drawn rows and at the others, looked up once for every sequence.
    at_rows = [tuple(pile[k] for k in rows) for pile in block]
    at_other = [tuple(pile[k] for k in other) for pile in block]
    out = []
    for seq, p in _draws(drawn, len(block)):
        c2 = list(cells)
        places: dict[tuple[int, ...], list[int]] = defaultdict(list)
        for i, d in enumerate(seq):
            places[d].append(i)
            for f, v in zip(at_rows[i], d):
                c2[f] = v
        blocks = []
        for d, where in places.items():
            for i, part in zip(where, rest[d]):
                for f, v in zip(at_other[i], part):
                    c2[f] = v
            if len(where) > 1:
                blocks.append(tuple(at_other[i] for i in where))
        blocks.sort()
        out.append((c2, tuple(blocks), p))
    return out


def before_scramble(state: State, piles: tuple[tuple[int, ...], ...]) -> list[tuple[State, Prob]] | None:
    """Draw just enough of the lazy blocks inside ``piles`` for a uniform scramble of them.

    A uniform scramble leaves every order of the piles equally likely, whatever their order
    before: what follows depends only on the multiset of the piles' contents. When each pile
    holds at most one piece (a pile of a lazy block, e.g. the candidate card above a bit) and
    every lazy block touching the piles lies inside them, that multiset is fixed by which
    contents of each block go to which *kind* of place: places whose pile has the same other
    cards (and the piece at the same place in it). So each block's contents are split over
    those kinds, as multisets, each split as likely as under a uniformly random order:
    prod over contents c of mult(c)! / prod over kinds g of m(g, c)!, times prod over kinds
    of size(g)!, over n!. The pieces of a kind are laid out in sorted order (the scramble
    forgets it) and the blocks are dropped. Returns None when this does not apply (a piece
    spans piles, two pieces share a pile, a block reaches outside the piles): then the
    piles are drawn whole.
    """
    where: dict[int, tuple[int, int]] = {}
    for pi, pile in enumerate(piles):
        for k, f in enumerate(pile):
            where[f] = (pi, k)
    keep: list[tuple[tuple[int, ...], ...]] = []
    inside: list[tuple[tuple[int, ...], ...]] = []
    for block in state.lazy:
        flats = [f for piece in block for f in piece]
        hits = sum(1 for f in flats if f in where)
        if not hits:
            keep.append(block)
        elif hits < len(flats):
            return None
        else:
            inside.append(block)
    if not inside:
        return None
    taken: set[int] = set()
    for block in inside:
        for piece in block:
            pis = {where[f][0] for f in piece}
            if len(pis) != 1 or not taken.isdisjoint(pis):
                return None
            taken |= pis
    cells = state.cells
    partial: list[tuple[list[int], int, int]] = [(list(cells), 1, 1)]
    for block in inside:
        kinds: dict[tuple[Any, ...], list[tuple[int, ...]]] = defaultdict(list)
        for piece in block:
            pile = piles[where[piece[0]][0]]
            mine = set(piece)
            key = (
                tuple(where[f][1] for f in piece),
                tuple((k, cells[f]) for k, f in enumerate(pile) if f not in mine),
            )
            kinds[key].append(piece)
        groups = [kinds[k] for k in sorted(kinds)]
        contents = Counter(tuple(cells[f] for f in piece) for piece in block)
        splits = _splits(contents, [len(g) for g in groups])
        nxt = []
        for c0, a, b in partial:
            for parts, (qa, qb) in splits:
                c2 = list(c0)
                for group, part in zip(groups, parts):
                    for piece, content in zip(group, part):
                        for f, v in zip(piece, content):
                            c2[f] = v
                nxt.append((c2, a * qa, b * qb))
        partial = nxt
    lazy = tuple(keep)
    return [(state.replace(cells=tuple(c), lazy=lazy), (a, b)) for c, a, b in partial]


def _splits(
    contents: Counter[tuple[int, ...]], sizes: list[int]
) -> list[tuple[list[list[tuple[int, ...]]], Prob]]:
    """Every way to split a multiset over groups of the given sizes (each part sorted), with
    its probability when the multiset is laid out in a uniformly random order."""
    n = sum(sizes)
    base_num = math.prod(math.factorial(k) for k in contents.values()) * math.prod(
        math.factorial(g) for g in sizes
    )
    base_den = math.factorial(n)
    kinds = sorted(contents)
    out: list[tuple[list[list[tuple[int, ...]]], Prob]] = []

    def choose(
        i: int,
        left: dict[tuple[int, ...], int],
        size: int,
        start: int,
        part: list[tuple[int, ...]],
        parts: list[list[tuple[int, ...]]],
        den: int,
    ) -> None:
        if size == 0:
            fill(i + 1, left, parts + [list(part)], den)
            return
        for j in range(start, len(kinds)):
            c = kinds[j]
            have = left[c]
            for take in range(min(have, size), 0, -1):
                left[c] = have - take
                choose(i, left, size - take, j + 1, part + [c] * take, parts, den * math.factorial(take))
            left[c] = have
            # try the next kind without taking this one (the loop continues)

    def fill(i: int, left: dict[tuple[int, ...], int], parts: list[list[tuple[int, ...]]], den: int) -> None:
        if i == len(sizes):
            num, d = base_num, base_den * den
            g = math.gcd(num, d)
            out.append((parts, (num // g, d // g)))
            return
        choose(i, left, sizes[i], 0, [], parts, den)

    fill(0, dict(contents), [], 1)
    return out


def _lazy_flats(state: State) -> set[int]:
    return {f for block in state.lazy for pile in block for f in pile}


def settle(frontier: Frontier, needed: Needed, deferred: Deferred | None = None) -> Frontier:
    """Materialize, in every state, the lazy piles that ``needed(state)`` touches; with
    ``deferred``, first fill in the deferred inputs whose cards lie there or in those piles."""
    if deferred is not None:
        frontier = fill_in(frontier, needed, deferred)
    if not any(s.lazy for s in frontier):
        return frontier
    out: Frontier = {}
    owned: set[int] = set()
    for state, vec in frontier.items():
        if not state.lazy:
            add_vec(out, state, vec, owned)
            continue
        want = needed(state)
        if want is not None and _lazy_flats(state).isdisjoint(want):
            add_vec(out, state, vec, owned)
            continue
        for s2, p in materialize(state, want):
            add_vec(out, s2, _scale(vec, p), owned)
    return out


def fill_in(frontier: Frontier, needed: Needed, deferred: Deferred) -> Frontier:
    """Fill in the deferred inputs (:mod:`.deferred`) that ``needed(state)`` touches, directly or
    through a lazy block it touches (drawing a block reads its contents)."""
    if not any(has_placeholders(s) for s in frontier):
        return frontier
    out: Frontier = {}
    owned: set[int] = set()
    for state, vec in frontier.items():
        if has_placeholders(state):
            want = needed(state)
            flats: set[int] | None = None
            if want is not None:
                flats = set(want)
                for block in state.lazy:
                    cards = {f for pile in block for f in pile}
                    if not cards.isdisjoint(want):
                        flats |= cards
            parts = deferred.split(state, vec, flats)
            if parts is not None:
                for s2, v2 in parts:
                    add_vec(out, s2, v2, owned)
                continue
        add_vec(out, state, vec, owned)
    return out
