"""Symmetry between scrambled columns: one table per orbit, reveals as multisets.

A pile-scramble of every column of a region ``R`` leaves each order of the columns equally
likely. From then on, as long as every action treats all columns alike (it is *equivariant*:
permuting the columns before it is the same as permuting them after), the distribution of
everything is invariant under permuting ``R``'s columns. So one table per orbit suffices,
with the orbit's probability: the verifier keeps the columns sorted (the representative the
engine already uses before a shuffle, :meth:`~reference_engine.shuffles.Shuffle.canonical`),
and a reveal in those columns, whose sequence is then a uniformly random order of what the
columns show, is recorded as the multiset of what each column shows, standing for the number
of distinct sequences the players could have seen (all equally likely under every input: the
verdicts are those of the sequences).

This is a claim with a precondition, checked on the spec before anything runs
(:func:`~.segments.plan_segments`, in :mod:`.segments`) and refused with the step's place
when it fails:

* a *segment* starts at ``shuffle: {scramble: "columns(R)"}`` of a whole region (at the top
  level of the protocol); inside it, ``R`` and the regions made from it (``take`` of columns
  chosen by what each column shows, ``move`` of whole rows, which stay aligned with ``R``'s
  columns) may only be used by equivariant actions: turning whole rows or ``up()``/``down()``;
  placing ``{columns: [f(R[.., j]) for j in 1..ncols(R)]}`` where ``f`` reads column ``j``
  only; taking columns by such a condition; moving, returning or discarding whole rows;
  returning row cards to ``[f(t) for t in R[r, *]]``; decisions that read only the shape
  (``ncols``, ``nrows``, ``len``, ``exists``); calling a protocol on whole rows or columns;
* between two scrambles of a segment's columns, at most one turn reveals cards in them (a
  second reveal would let the players line up the two sequences, which a multiset forgets);
* a callee given scrambled columns must not depend on their order: before its first shuffle
  it only places its inputs' items, item by item (``[[c[i], x[i]] for i in 1..m]``), and its
  first shuffle scrambles exactly those piles; then the canonical order is as good as any;
* or, for a callee that may depend on their order (one that leaves out its own first scramble
  because its caller has just scrambled, like ``covert-lottery-fast`` with ``shuffled: 1``),
  the caller's scramble must still hold at the call: the callee is given every column of one
  region of the group (whole rows or ``columns(...)``), and since the group's reveal no card of
  it left the table or was turned back (the players' knowledge of each column is still on the
  table to compare). At run time every card given is face down and every other card of the
  group's columns is the same in all of them, so nothing the players know or the table holds
  tells the columns apart: their order is uniformly random given everything else, and the
  callee runs once per multiset of columns, on a lazily scrambled block of them (the same
  distribution, no shuffle counted, nothing seen), see :meth:`Symmetry.under_scramble`;
* a take of "the first column of ``R`` with a property" (``[j for j in 1..ncols(R) if a and
  b(j) and not any(b(i) for i in 1..j - 1)]``, ``b`` reading ``R`` at its own column only and
  the same for the earlier columns, :func:`~.columns.first_column`; the draw of the arrow
  protocol, the first sleeve of the draw pile) when, since the reveal, no card of the group
  left the table or was turned back; at run time its candidates (the columns with the
  property) all show the same and the columns are drawn in full. Then nothing the players saw
  or the table holds tells the candidates apart: given everything else they lie in a uniformly
  random order, so the first of them is each candidate with the same probability, and the
  verifier draws it so: one table per content ``t`` of the candidates, with probability
  ``n_t / n``, a column of content ``t`` moved to the front (:meth:`Symmetry.take_first`). On
  the sorted columns the take would always take the same class (``test_classes_weighted.py``
  shows the verdict that follows). The one column taken is a region in no order;
* at run time: a segment scramble's piles are exactly the region's columns, all face down;
  the first one holds every dealt card, one per pile, and the other cards of a pile depend
  only on its card's owner and class (so the order of a hand, which the verifier fixes, cannot
  matter);
  a reveal of dealt cards reveals every dealt card in play, each alone in its column.

``tests/reference_engine/verify/test_classes.py`` breaks each of these in a spec of its own.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from .. import steps as st
from ..cards import DEALT, EMPTY, SYMBOLS, is_up
from ..errors import ReductionRefused
from ..machine.frontier import Frontier, _scale, add_vec
from ..machine.views import Observation
from ..table import State
from .segments import SegmentPlan

# --------------------------------------------------------------------------- at run time


class Symmetry:
    """The run-time side: checks at segment scrambles, reveals recorded as multisets.

    ``owner`` maps each dealt class symbol's id to its owner's number; ``faces`` is the
    multiset of the dealt cards' real faces (how many sequences a reveal of all of them has).
    """

    def __init__(self, plan: SegmentPlan, owner: dict[int, int], faces: Counter[str]):
        self.plan = plan
        self.owner = owner
        self.faces = faces
        self.dealt = sum(faces.values())
        self.hands_checked = False  # the first segment scramble checks the hands' piles

    def scrambles(self, step: st.Step) -> str | None:
        return self.plan.scrambles.get(id(step))

    def check_piles(self, state: State, region: str, piles: tuple[tuple[int, ...], ...], first: bool) -> None:
        """The piles of a segment scramble: the region's columns, face down; the first one holds
        every dealt card, one per pile, with companions that depend only on the card's owner and
        class (its class symbol)."""
        reg = state.layout.by_name.get(region)
        if reg is None:
            raise ReductionRefused(f"{region} is not on the table")
        columns = tuple(tuple(reg.slot(r, c) for r in range(1, reg.rows + 1)) for c in range(1, reg.cols + 1))
        if piles != columns:
            raise ReductionRefused(f"the piles of this scramble are not the columns of {region}")
        cells = state.cells
        if any(is_up(cells[f]) for p in piles for f in p):
            raise ReductionRefused(
                "a scramble of columns with face-up cards (the players would see where they go)"
            )
        if not first:
            return
        companions: dict[int, tuple[int, ...]] = {}  # dealt class symbol -> the rest of its piles
        inside = 0
        for pile in piles:
            dealt = [k for k, f in enumerate(pile) if cells[f] >= 0 and cells[f] >> 1 in DEALT.ids]
            if len(dealt) > 1:
                raise ReductionRefused("a pile of the first scramble holds two dealt cards")
            if not dealt:
                continue
            inside += 1
            k = dealt[0]
            sid = cells[pile[k]] >> 1
            rest = tuple(-3 if i == k else cells[f] for i, f in enumerate(pile))
            if companions.setdefault(sid, rest) != rest:
                raise ReductionRefused(
                    f"the cards of P_{self.owner[sid]} are in piles that differ apart from the card: the "
                    "order of a hand would matter, which the verifier (one order per hand) cannot tell"
                )
        if inside != self.dealt:
            raise ReductionRefused(
                f"the first scramble of whole columns holds {inside} of the {self.dealt} dealt cards: "
                "the others keep the order of their hands"
            )

    def plain_call(self, step: st.Step, codes: tuple[tuple[int, ...], ...]) -> None:
        """A call given no scrambled columns, to a callee that may depend on the order of its
        inputs: refused when it is given dealt cards (their order is the one the verifier fixed
        for a hand, standing for every order)."""
        hit = self.plan.plain.get(id(step))
        if hit is None or not any(c >= 0 and c >> 1 in DEALT.ids for arg in codes for c in arg):
            return
        number, reason = hit
        raise ReductionRefused(
            f"step {number}: {step.protocol if isinstance(step, st.Call) else 'a callee'} is given "
            f"dealt cards in the order they lie, not in scrambled columns, and may depend on their "
            f"order ({reason}): the verifier's one order per hand would stand for every order"
        )

    def under_scramble(
        self,
        step: st.Step,
        state: State,
        arg_flats: list[tuple[int, ...]],
        codes: tuple[tuple[int, ...], ...],
    ) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...] | None] | None:
        """For a call that relies on its caller's scramble (``SegmentPlan.scrambled``): the
        arguments with their columns in sorted order and the lazy block, in the callee's input
        cells, that scrambles those columns (None with one column); None for any other call.

        The run-time half of the precondition (module docs): the arguments are every column of
        the group's regions they lie in, the same rows of each column, all face down; every
        other card in the group's columns is the same in each column (empty included). Then no
        card on the table and nothing the players saw tells the columns apart (the static half
        keeps what they saw on the table), so the columns lie in a uniformly random order given
        everything else: the callee's input is scrambled, as the lazy block says."""
        regions = self.plan.scrambled.get(id(step))
        if regions is None:
            return None
        layout = state.layout
        cells = state.cells
        present = [layout.by_name[n] for n in regions if n in layout.by_name]
        widths = {reg.cols for reg in present}
        if len(widths) != 1:
            raise ReductionRefused(
                f"the regions made from {regions[0]} are no longer aligned column by column"
            )
        (n,) = widths
        piles: dict[int, list[int]] = {c: [] for c in range(1, n + 1)}
        roles: dict[int, list[tuple[int, str, int]]] = {c: [] for c in range(1, n + 1)}
        given: set[int] = set()
        pos = 0
        for a, flats in enumerate(arg_flats):
            for f in flats:
                reg = layout.owner(f)
                if reg.name not in regions:
                    raise ReductionRefused(
                        f"step {step.number}: an argument lies outside the scrambled columns"
                    )
                r, c = reg.address(f)
                piles[c].append(pos)
                roles[c].append((a, reg.name, r))
                given.add(f)
                pos += 1
        if any(roles[c] != roles[1] for c in piles) or not roles[1]:
            raise ReductionRefused(
                f"step {step.number}: the call is not given the same cards of every scrambled column"
            )
        flat_codes = [c for arg in codes for c in arg]
        if any(is_up(c) for c in flat_codes):
            raise ReductionRefused(
                f"step {step.number}: a card given to the callee lies face up: the players see the "
                "order of the columns, which the caller's scramble no longer hides"
            )
        for reg in present:
            for r in range(1, reg.rows + 1):
                row = [reg.slot(r, c) for c in range(1, n + 1)]
                rest = {EMPTY if f in layout.holes else cells[f] for f in row if f not in given}
                if len(rest) > 1:
                    raise ReductionRefused(
                        f"step {step.number}: row {r} of {reg.name} differs from column to column but is "
                        "not given to the callee: the columns can be told apart, so their order is not "
                        "uniformly random given the rest of the table"
                    )
        items = [tuple(flat_codes[p] for p in piles[c]) for c in range(1, n + 1)]
        items.sort()
        out = list(flat_codes)
        for c, item in zip(range(1, n + 1), items):
            for p, v in zip(piles[c], item):
                out[p] = v
        sorted_codes: list[tuple[int, ...]] = []
        k = 0
        for arg in codes:
            sorted_codes.append(tuple(out[k : k + len(arg)]))
            k += len(arg)
        block = tuple(tuple(piles[c]) for c in range(1, n + 1)) if n > 1 else None
        return tuple(sorted_codes), block

    def takes_first(self, step: st.Step) -> bool:
        """Whether ``step`` takes the first column of scrambled columns with a property
        (``SegmentPlan.firsts``): then :meth:`take_first` draws which one before it runs."""
        return id(step) in self.plan.firsts

    def take_first(
        self, step: st.Step, frontier: Frontier, pick: Callable[[State], tuple[int, ...]]
    ) -> Frontier:
        """Before a take of the first column of scrambled columns that has a property (read on
        that column alone, ``SegmentPlan.firsts``): each table, whose columns lie in sorted order
        standing for every order, becomes one table per content ``t`` of the columns that have
        it, with a column of content ``t`` moved to the front, with probability ``n_t / n`` (``n_t``
        such columns, ``n`` in all), so that the take (``pick``, what it takes from a table) takes
        that column.

        The run-time half of the precondition (module docs): the scramble still holds (the
        static half: nothing seen left the table or was turned back since), the tables are drawn
        in full (no lazy block in the columns), and every column that has the property shows the
        same: nothing the players saw tells them apart, so they lie in a uniformly random order
        given everything else, and the first of them is each with the same probability."""
        group = self.plan.firsts[id(step)]
        region = group[0]
        out: Frontier = {}
        owned: set[int] = set()
        for state, vec in frontier.items():
            reg = state.layout.by_name.get(region)
            if reg is None or reg.cols < 2:
                add_vec(out, state, vec, owned)
                continue
            # The regions aligned with it column by column (whole rows moved out of it) move along.
            regs = [state.layout.by_name[n] for n in group if n in state.layout.by_name]
            if any(r.cols != reg.cols for r in regs):
                raise ReductionRefused(
                    f"the regions made from {region} are no longer aligned column by column"
                )
            slots = [
                [r.slot(row, c) for r in regs for row in range(1, r.rows + 1)] for c in range(1, reg.cols + 1)
            ]
            flats = {f for column in slots for f in column}
            if any(f in flats for block in state.lazy for pile in block for f in pile):
                raise ReductionRefused(
                    f"step {step.number}: the columns of {region} are not all drawn when their first "
                    "column with a property is taken"
                )
            where: dict[tuple[int, ...], list[int]] = {}
            for c, column in enumerate(slots, start=1):
                where.setdefault(tuple(state.cells[f] for f in column), []).append(c)
            chosen = []
            for content, columns in where.items():
                moved = _to_front(state, slots, columns[0])
                if pick(moved) == (1,):
                    chosen.append((content, len(columns), moved))
            if not chosen:
                add_vec(out, state, vec, owned)
                continue
            if len({tuple(_visible(c) for c in content) for content, _, _ in chosen}) > 1:
                raise ReductionRefused(
                    f"step {step.number}: the columns of {region} that the take may take first show "
                    "different cards: the players could tell them apart, so the first of them is "
                    "not a uniformly random one"
                )
            total = sum(n for _, n, _ in chosen)
            for _, n, moved in chosen:
                add_vec(out, moved, _scale(vec, Fraction(n, total)), owned)
        return out

    def bags(self, step: st.Step) -> tuple[int, ...]:
        return self.plan.bags.get(id(step), ())

    def reveals(self, step: st.Step) -> list[list[str]] | None:
        return self.plan.turns.get(id(step))

    def observe(self, step: st.Step, state: State, cells: list[int], where: list[int]) -> Observation:
        """What a turn in scrambled columns shows, as a multiset (module docs)."""
        groups = self.plan.turns[id(step)]
        layout = state.layout
        index = {r: gi for gi, g in enumerate(groups) for r in g}
        seen: dict[int, set[int]] = {}
        positional: list[str] = []
        for f in where:
            reg = layout.owner(f)
            gi = index.get(reg.name)
            if gi is None:
                if cells[f] >> 1 in DEALT.ids:
                    raise ReductionRefused("a turn shows a dealt card outside the scrambled columns")
                positional.append(SYMBOLS.by_id(cells[f] >> 1).name)
                continue
            seen.setdefault(gi, set()).add(reg.address(f)[1])
        patterns: Counter[tuple[Any, ...]] = Counter()
        dealt = 0
        for gi, cols in sorted(seen.items()):
            present = [layout.by_name[n] for n in groups[gi] if n in layout.by_name]
            if len({reg.cols for reg in present}) != 1:
                raise ReductionRefused(
                    f"the regions made from {groups[gi][0]} are no longer aligned column by column"
                )
            for c in sorted(cols):
                shown = [_visible(cells[reg.slot(r, c)]) for reg in present for r in range(1, reg.rows + 1)]
                ups = [v for v in shown if v not in (None, "")]
                if any(isinstance(v, int) for v in ups):
                    if len(ups) != 1:
                        raise ReductionRefused(
                            "a dealt card is revealed next to another face-up card of its column: the "
                            "players would see which card goes with which (not only the classes)"
                        )
                    dealt += 1
                else:
                    patterns[tuple(shown)] += 1
        if dealt and dealt != self.dealt:
            raise ReductionRefused(
                f"a turn reveals {dealt} of the {self.dealt} dealt cards: which cards are shown would "
                "depend on the deal, not only on the classes"
            )
        orders = _orders(patterns, self.faces if dealt else Counter())
        items = tuple(sorted(patterns.items(), key=repr))
        return ("unordered", step.number or "?", dealt, items, tuple(positional), orders)


def _to_front(state: State, slots: list[list[int]], column: int) -> State:
    """``state`` with column ``column`` (``slots[c - 1]``: its cells, in every aligned region)
    moved to the front, the other columns in their order."""
    order = [column] + [c for c in range(1, len(slots) + 1) if c != column]
    cells = list(state.cells)
    for c, src in enumerate(order, start=1):
        for to, frm in zip(slots[c - 1], slots[src - 1]):
            cells[to] = state.cells[frm]
    return state.replace(cells=tuple(cells))


def _visible(c: int) -> Any:
    """A cell as the players see it: a face-up card's name, None face down, "" empty; a dealt
    card's class symbol id (an int, never put in a view)."""
    if c == EMPTY:
        return ""
    if not is_up(c):
        return None
    sid = c >> 1
    if sid in DEALT.ids:
        return sid
    return SYMBOLS.by_id(sid).name


def _orders(patterns: Counter[tuple[Any, ...]], faces: Counter[str]) -> int:
    """How many sequences the columns can show: a multinomial of their (real) contents."""
    n = sum(patterns.values()) + sum(faces.values())
    out = math.factorial(n)
    for k in list(patterns.values()) + list(faces.values()):
        out //= math.factorial(k)
    return out
