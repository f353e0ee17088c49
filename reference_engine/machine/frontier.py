"""The frontier: every distinct machine state with its probability under each secret input.

A probability vector (:data:`Vec`) is a common denominator and one numerator per input.
Identical states are merged by :func:`add_vec`; lazily scrambled piles (a pile-scramble whose
order is left open) are drawn by :func:`materialize` and :func:`settle`; views that make no
difference are merged by :func:`forget`.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from .. import steps as st
from ..cards import Symbol
from ..expressions import EvalError, plain
from ..table import Layout, State
from .deferred import has_placeholders
from .frame import _MISS

if TYPE_CHECKING:  # runner.py imports this module
    from .deferred import Deferred
    from .views import ViewTable

Vec = tuple[int, dict[int, int]]
"""Probabilities of a state per secret input: (denominator, {input index: numerator})."""
Frontier = dict[State, Vec]
ONE: Vec = (1, {0: 1})
Env = tuple[tuple[str, Any], ...]
"""A state's public variables, sorted by name."""
Needed = Callable[[State], frozenset[int] | None]
"""state -> the slots whose lazy piles must be drawn (None: all of them)."""
K = TypeVar("K")
_BIG = 1 << 96


def add_vec(out: dict[K, Vec], state: K, vec: Vec, owned: set[int] | None = None) -> None:
    """Add ``vec`` to the probabilities of ``state`` in ``out``, merging identical states.

    Numerator dicts may be shared between states; a merge copies one unless its id is in
    ``owned`` (dicts this frontier created itself), which it then updates in place.
    """
    old = out.get(state)
    if old is None:
        out[state] = vec
        return
    d1, n1 = old
    d2, n2 = vec
    if d1 != d2:
        lcm = d1 * d2 // math.gcd(d1, d2)
        a, b = lcm // d1, lcm // d2
        merged = {k: v * a for k, v in n1.items()} if a != 1 else dict(n1)
        for k, v in n2.items():
            merged[k] = merged.get(k, 0) + v * b
        d1 = lcm
    else:
        merged = n1 if owned is not None and id(n1) in owned else dict(n1)
        for k, v in n2.items():
            merged[k] = merged.get(k, 0) + v
    if d1 > _BIG:
        g = d1
        for v in merged.values():
            g = math.gcd(g, v)
            if g == 1:
                break
        if g > 1:
            d1 //= g
            merged = {k: v // g for k, v in merged.items()}
    if owned is not None:
        owned.add(id(merged))
    out[state] = (d1, merged)


_add = add_vec  # the name the verifier imports


def _scale(vec: Vec, p: Fraction | Prob) -> Vec:
    """``vec`` times the probability ``p`` (a Fraction or a (numerator, denominator) pair)."""
    a, b = p if isinstance(p, tuple) else (p.numerator, p.denominator)
    if a == b:
        return vec
    if a == 1:
        return (vec[0] * b, vec[1])
    return (vec[0] * b, {k: v * a for k, v in vec[1].items()})


def vec_prob(vec: Vec, key: int) -> Fraction:
    return Fraction(vec[1].get(key, 0), vec[0])


def _groups(frontier: Frontier) -> list[list[tuple[State, Vec]]]:
    """States that share a layout and variables (public selectors resolve alike for them)."""
    groups: dict[tuple[Layout, Env], list[tuple[State, Vec]]] = {}
    for state, vec in frontier.items():
        key = (state.layout, state.env)
        g = groups.get(key)
        if g is None:
            groups[key] = [(state, vec)]
        else:
            g.append((state, vec))
    return list(groups.values())


def sort_hands(frontier: Frontier) -> Frontier:
    """The same frontier with every hand's cards in sorted order, so that equal hands merge.

    Exact, because a hand's order is nobody's to see: nothing reads it (the loader and
    :class:`~.frame.StateScope` refuse to name a hand), and its cards leave it only as an
    output, in a uniformly random order (the holder mixes them face down, see
    :func:`~.calls.collect`)."""
    layouts = {state.layout for state in frontier}
    if not any(_hand_slices(layout) for layout in layouts):
        return frontier
    out: Frontier = {}
    owned: set[int] = set()
    for state, vec in frontier.items():
        hands = _hand_slices(state.layout)
        if not hands:
            add_vec(out, state, vec, owned)
            continue
        cells = list(state.cells)
        for lo, hi in hands:
            cells[lo:hi] = sorted(cells[lo:hi])
        add_vec(out, state.replace(cells=tuple(cells)), vec, owned)
    return out


_HANDS: dict[int, tuple[Layout, tuple[tuple[int, int], ...]]] = {}
_HAND_SLOTS: dict[int, tuple[Layout, frozenset[int]]] = {}


def hand_slots(layout: Layout) -> frozenset[int]:
    """The slots of ``layout`` that are in hands (empty for most tables)."""
    hit = _HAND_SLOTS.get(id(layout))
    if hit is None or hit[0] is not layout:
        slots = frozenset(f for r in layout.regions if r.hand is not None for f in r.slots)
        hit = _HAND_SLOTS[id(layout)] = (layout, slots)
    return hit[1]


def _hand_slices(layout: Layout) -> tuple[tuple[int, int], ...]:
    hit = _HANDS.get(id(layout))
    if hit is None or hit[0] is not layout:
        slices = tuple(
            (r.offset, r.offset + r.size) for r in layout.regions if r.hand is not None and r.size > 1
        )
        hit = _HANDS[id(layout)] = (layout, slices)
    return hit[1]


ViewInfo = dict[str, tuple[int, int, int, int]]
"""What one partition of the inputs knows about the views of its frontier, by view digest:
(its local class: views with proportional distributions share one, the constant as a reduced
fraction numerator and denominator, the view's weight)."""
Merge = tuple[str, list[str], int]
"""Views merged into one: (the new view's digest, the members' digests, its weight)."""
Sizes = dict[str, tuple[int, int, int]]
"""By view digest: how many states have the view, how many (state, input) entries, and its
local support class (views of one partition share one exactly when the same tables have them:
a necessary condition for proportional distributions)."""


class MergeDecider(Protocol):
    """Decides which views to merge, on every input of the verification (see :func:`forget`)."""

    def candidates(self, label: str, sizes: Sizes) -> list[str]:
        """The views that may be merged: those sharing their sizes with another view."""

    def merges(self, label: str, info: ViewInfo) -> list[Merge]:
        """The merges, from the candidates' classes and constants."""


class LocalDecider:
    """The decision when this process holds every input; the notes go to ``notes``."""

    def __init__(self, notes: list[str]):
        self.notes = notes
        self.views = 0

    def candidates(self, label: str, sizes: Sizes) -> list[str]:
        self.views = len(sizes)
        return decide_candidates([sizes])

    def merges(self, label: str, info: ViewInfo) -> list[Merge]:
        merges, note = decide_merges(label, [info], self.views)
        if note:
            self.notes.append(note)
        return merges


def forget(
    views_of: ViewTable,
    merge_views: MergeDecider | None,
    forgotten: list[str],
    frontier: Frontier,
    step: st.Step,
) -> Frontier:
    """Merge views that make no difference: a pure speed-up with the same verdicts. ``views_of``:
    the run's views; ``merge_views``, ``forgotten``: its shared decider and notes.

    Let D_v(S, u) be the probability of reaching table S with view v under input u. When
    D_v = c * D_w for all S and u (one constant c), everything that can follow v is c times
    as likely as what follows w, under every input. Then for every continuation x,
    P(vx | u) = c * P(wx | u), so the security condition holds for vx exactly when it holds
    for wx, and merging v and w into one view changes no verdict. Only top-level exact runs
    do this: the decision needs every input of the verification. When the inputs are split
    over processes, ``merge_views`` takes the decision on all parts together:
    first on the views' sizes (views that may be proportional, :func:`decide_candidates`),
    then, when there are any, on their classes and constants (:func:`decide_merges`), so
    every process merges the same views.
    """
    decider: MergeDecider = merge_views or LocalDecider(forgotten)
    by_view: dict[int, list[tuple[State, Vec]]] = {}
    for state, vec in frontier.items():
        have = by_view.get(state.view)
        if have is None:
            by_view[state.view] = [(state, vec)]
        else:
            have.append((state, vec))
    by_digest = {views_of.digest(v): v for v in by_view}
    label = str(step.number or "?")
    wanted = decider.candidates(label, view_sizes({d: by_view[v] for d, v in by_digest.items()}))
    if not wanted:
        return frontier
    mine = {by_digest[d] for d in wanted if d in by_digest}
    views = {v: {_table_key(state): vec for state, vec in by_view[v]} for v in mine}
    info = view_info(
        {d: views[v] for d, v in by_digest.items() if v in mine},
        {d: views_of.weight(v) for d, v in by_digest.items() if v in mine},
    )
    merges = decider.merges(label, info)
    if not merges:
        return frontier
    renamed: dict[int, int] = {}
    for digest, members, weight in merges:
        if members[0] not in by_digest:
            continue  # views of other inputs (a merge takes views present in the same parts)
        local_members = [by_digest[m] for m in members]
        fresh = views_of.merged(("merged", step.number, digest, weight))
        renamed.update((v, fresh) for v in local_members)
    out: Frontier = {}
    owned: set[int] = set()
    for state, vec in frontier.items():
        new_view = renamed.get(state.view)
        add_vec(out, state if new_view is None else state.replace(view=new_view), vec, owned)
    return out


def _table_key(state: State) -> tuple[Any, ...]:
    """A state without its view: the table a view's distribution is over."""
    return (id(state.layout), state.cells, state.out, state.env, state.meters, state.lazy)


def view_sizes(views: dict[str, list[tuple[State, Vec]]]) -> Sizes:
    """The :data:`Sizes` of one partition's views (their states with probabilities).

    The support class (which tables a view has) is worked out only for views that share their
    counts with another view here: a view with counts of its own gets a class of its own,
    since no other view of this partition can be proportional to it (nor one absent here, as
    proportional views have the same inputs). That keeps the common case linear in the
    states, not in the (state, input) entries.
    """
    counts = {d: (len(members), sum(len(vec[1]) for _, vec in members)) for d, members in views.items()}
    shared: dict[tuple[int, int], int] = defaultdict(int)
    for c in counts.values():
        shared[c] += 1
    classes: dict[frozenset[tuple[Any, ...]], int] = {}
    out: Sizes = {}
    for d in sorted(views):
        c = counts[d]
        if shared[c] > 1:
            support = frozenset(_table_key(s) for s, vec in views[d] if any(vec[1].values()))
            cls = classes.setdefault(support, len(classes))
        else:
            cls = -1 - len(out)  # a class of its own
        out[d] = (c[0], c[1], cls)
    return out


def decide_candidates(sizes: list[Sizes]) -> list[str]:
    """Views that may be proportional to another over all inputs: the same sizes and support
    class in every partition (proportional distributions have the same entries on the same
    tables). Sorted; empty when no view shares them."""
    groups: dict[tuple[Any, ...], list[str]] = defaultdict(list)
    every: set[str] = set().union(*sizes)
    for d in every:
        groups[tuple(part.get(d) for part in sizes)].append(d)
    return sorted(d for members in groups.values() if len(members) > 1 for d in members)


def view_info(dists: dict[str, dict[Any, Vec]], weights: dict[str, int]) -> ViewInfo:
    """Describe views for :func:`decide_merges`: views whose distributions (state -> per-input
    probabilities) are proportional get one local class; each gets its constant."""
    local: dict[frozenset[tuple[Any, ...]], int] = {}
    info: ViewInfo = {}
    for d, dist in dists.items():
        direction, (num, den) = _direction(dist)
        info[d] = (local.setdefault(direction, len(local)), num, den, weights[d])
    return info


def decide_merges(label: str, infos: list[ViewInfo], views: int = 0) -> tuple[list[Merge], str | None]:
    """Which views to merge, from every partition's :data:`ViewInfo` (in partition order).

    Views v and w are proportional over all inputs exactly when, in every partition, both are
    absent or both present in the same local class, and the ratio of their constants is the
    same in every partition where they are present. With one partition this is the local
    classes. Returns the merges (in a canonical order) and the note for the report, which
    counts ``views`` views before merging (default: those in ``infos``).
    """
    every: dict[str, None] = {}
    for info in infos:
        every.update(dict.fromkeys(info))
    groups: dict[tuple[Any, ...], list[str]] = defaultdict(list)
    for d in sorted(every):
        classes = tuple(info[d][0] if d in info else None for info in infos)
        scales = [Fraction(info[d][1], info[d][2]) for info in infos if d in info]
        norm = tuple(s / scales[0] for s in scales) if scales[0] else tuple(scales)
        groups[(classes, norm)].append(d)
    merges: list[Merge] = []
    for members in groups.values():
        if len(members) > 1:
            weight = sum(next(info[m][3] for info in infos if m in info) for m in members)
            digest = hashlib.blake2b(
                ("merged|" + label + "|" + ",".join(members)).encode(), digest_size=16
            ).hexdigest()
            merges.append((digest, members, weight))
    if not merges:
        return [], None
    total = max(views, len(every))
    left = total - sum(len(m) for _, m, _ in merges) + len(merges)
    return sorted(merges), f"{label} ({total} views into {left})"


def _direction(dist: dict[tuple[Any, ...], Vec]) -> tuple[frozenset[tuple[Any, ...]], tuple[int, int]]:
    """The distribution up to a constant factor, in integers, and that factor: two views'
    distributions are proportional exactly when their directions are equal.

    Every probability is brought to one common denominator and the numerators divided by their
    greatest common divisor, leaving the unique primitive integer vector on the distribution's
    ray (zero entries are left out: a missing entry and a zero are the same probability).
    """
    dens = {den for den, _ in dist.values()}
    common = dens.pop() if len(dens) == 1 else math.lcm(*dens)
    g = 0
    scaled: list[tuple[tuple[Any, ...], int, int]] = []
    for key, (den, nums) in dist.items():
        f = common // den
        for u, num in nums.items():
            if num:
                v = num * f
                g = math.gcd(g, v)
                scaled.append((key, u, v))
    r = math.gcd(g, common)
    scale = (g // r, common // r)
    if g > 1:
        return frozenset((key, u, v // g) for key, u, v in scaled), scale
    return frozenset(scaled), scale


# --------------------------------------------------------------------------- lazy piles

Prob = tuple[int, int]
"""A probability as (numerator, denominator), not necessarily reduced: plain integers are
several times faster than ``Fraction`` on the hot paths, and vectors reduce themselves."""
Draw = tuple[tuple[tuple[int, ...], ...], Prob]
"""An ordered draw of piles (each pile's card codes) and its probability."""


class OverBudget(Exception):
    """A run went past its budget of work (:func:`budget`): an exploration that gives up
    without a verdict."""


_BUDGET: ContextVar[list[int] | None] = ContextVar("kitgen_run_budget", default=None)


@contextmanager
def budget(units: int) -> Iterator[None]:
    """Within the block, runs may make at most ``units`` states (every state a step carries,
    every shuffle outcome, every draw of a lazily scrambled block) before :class:`OverBudget`:
    the checks sit where the states are made, so no single step can exhaust the memory first."""
    token = _BUDGET.set([units])
    try:
        yield
    finally:
        _BUDGET.reset(token)


def spend(units: int = 1) -> None:
    """Count ``units`` states against the budget in force, if any."""
    left = _BUDGET.get()
    if left is not None:
        left[0] -= units
        if left[0] < 0:
            raise OverBudget()


_DRAWS: dict[tuple[tuple[tuple[int, ...], ...], int], list[Draw]] = {}


def _draws(contents: list[tuple[int, ...]], n: int) -> list[Draw]:
    """Ordered draws of ``n`` piles without replacement from a multiset, with probabilities."""
    key = (tuple(contents), n)
    hit = _DRAWS.get(key)
    if hit is None:
        hit = _DRAWS[key] = _draws_uncached(contents, n)
        if len(_DRAWS) > 200_000:
            _DRAWS.clear()
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
    out = []
    for seq, p in _draws(drawn, len(block)):
        c2 = list(cells)
        places: dict[tuple[int, ...], list[int]] = defaultdict(list)
        for i, d in enumerate(seq):
            places[d].append(i)
            for k, v in zip(rows, d):
                c2[block[i][k]] = v
        blocks = []
        for d, where in places.items():
            for i, part in zip(where, rest[d]):
                for k, v in zip(other, part):
                    c2[block[i][k]] = v
            if len(where) > 1:
                blocks.append(tuple(tuple(block[i][k] for k in other) for i in where))
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


# --------------------------------------------------------------------------- variables

_ENV: dict[tuple[Env, str, Any], Env] = {}


def env_set(env: Env, name: str, value: Any) -> Env:
    value = _freeze(value)
    key = (env, name, value)
    hit = _ENV.get(key)
    if hit is None:
        d = dict(env)
        d[name] = value
        hit = tuple(sorted(d.items()))
        if len(_ENV) > 100_000:
            _ENV.clear()
        _ENV[key] = hit
    return hit


def env_drop(env: Env, name: str, old: Any = _MISS) -> Env:
    d = dict(env)
    if old is _MISS:
        d.pop(name, None)
    else:
        d[name] = old
    return tuple(sorted(d.items()))


def _freeze(v: Any) -> Any:
    v = plain(v)
    if isinstance(v, list):
        return tuple(_freeze(x) for x in v)
    if isinstance(v, (int, str, bool, Symbol, tuple)) or v is None:
        return v
    raise EvalError(f"a public value must be a number, card, text or list, not {type(v).__name__}")
