"""Steps 11 and 12 of card-selection-arrow's found case carried out as one plan: the two
intermediate tables, made only to be dropped, are never made.

Step by step, the three fused pairs of the turn's tail each make a new table (the hands change
size every turn, so none of the three plans is ever met again: a run builds all three, and the
two layouts between them, every turn):

- Step 11's found case (:func:`~.fused.discard_return` joined by :func:`~.fused._after_if`): the
  draw-pile sleeve's arrow ``D[3, *]`` out, its card ``D[1, *]`` back to the draw pile, its
  owner card ``D[2, *]`` out: the region ``D`` goes;
- Step 11's tail (:mod:`.deferred`): the virtual player's owner cards ``L[2, *]`` out (the region
  ``L`` goes), then ``if exists('unselected')``, the sleeves the lottery did not pick
  ``unselected[1, *]`` back to the virtual player;
- Step 12 with 12(a) (:func:`~.fused.discard_return` with its nested pair): the arrows
  ``M[3, *]`` out, every card ``M[1, *]`` back to the owner its owner card names, the owner
  cards ``M[2, *]`` out: the grid goes.

A :class:`Tail` links the three (:func:`link`, when the protocol's top-level block is compiled:
Step 11 a ``do`` whose last two steps are the deferred discard and its ``if``, right after an
``if`` whose ``then`` block ends with the joined discard of ``D``; Step 12 the next ``do``, the
fused pair of ``M`` first). At each run, where the first of them (the discard of ``D[3, *]``)
is met, the tail works out every argument of the three on the table as it is then (each pair's
own arguments and conditions, :func:`~.fused.discard_return`'s ``args_for`` and
:mod:`.deferred`'s: the rows read are whole rows of regions by number, which the steps between
do not change; the owners are read from the same owner cards) and builds the one plan from that
table to the table after Step 12 (:func:`build`). Each step then keeps its place and does at its
place what it did: the supply's counts of the cards going back, the view's record of them, in
the same order, at the same steps; the table is left as it was until Step 12's first step,
which puts the last table in place. Between them, the steps that run read the table only
through ``exists('unselected')``, which is true of the table before as of the tables between.

Where nothing was found and the draw-pile sleeve was drawn (its card played or kept, its arrow
out: ``D`` is left with its owner card below an empty place), the tail starts at the discard of
``D[2, *]`` just after the ``if`` (:func:`~.fused._after_if` hands it over, :meth:`Tail.drawn`):
that discard (``D`` goes), the deferred pair and Step 12 as one plan, the two tables between
never made (a quarter of a game's turns). Where no tail started at either (the run had no
draw-pile sleeve), it starts at the discard of ``L[2, *]`` instead: the deferred pair and
Step 12 as one plan, the one table between them never made.

Taken only where (else every step as before):

- the table before has no display labels, nothing shown, no limits on the supply's counters,
  and its only empty places are the rows of ``L`` above its bottom row (and, in the drawn
  case, those of ``D`` above its owner card: so the tables between have no empty place but
  those, and show nothing);
- each pair's own conditions hold on it, both pairs carry out the row after them (``D[2, *]``,
  ``M[2, *]``), and the four regions are ``D``, ``L``, ``unselected`` and ``M``, none a hand,
  of the shapes those steps take off the table whole (three rows for ``D`` and ``M``, one for
  ``unselected``);
- every hand a card goes back to is a hand of one row or a new one, named by no region of the
  four;
- in the drawn case, the discard of ``D[2, *]`` meets its own conditions as it would (its
  slots as it selects them, the sleeves it empties emptied whole), and they are the whole
  bottom row of a region that is no hand.

The table space the run needs counts the two tables between as if they had been made: every
region of theirs is a region of the table before (``M``, ``L``, ``unselected`` and the others,
unchanged) or a hand of the last table with at most as many cards (a hand only gains cards), and
the last table holds a hand; the largest region and whether a hand was held are the same.

With :data:`~.evaluate.CHECKED` the plan is compared with the three plans built one after the
other (:func:`~.runs.return_row`, from the tables between; in the drawn case after the discard's
own, :func:`~.runs.bottom_row`): the same last table, the same gather.

A tail remembers the run it is carrying out (by identity), as the fused pairs do: one compiled
program runs one run at a time per thread of control.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise
from operator import itemgetter
from typing import Any, NamedTuple

from .. import steps as st
from ..expressions import EvalError
from ..machine import Plan
from ..machine.plans import remember_landings
from ..table import Layout
from . import evaluate as ev
from .base import _few, _out_added, discarded, gather, landed, spelled
from .plans import kept_whole
from .run import Run
from .runs import bottom_row, region_at, return_row

ENABLED = True
"""Whether tails are carried out at once (the tests of each fused pair alone switch it off)."""

Args = tuple[tuple[int, ...], tuple[int, ...], tuple[str, ...], tuple[int, ...]]
"""A pair's slots discarded, slots returned, their hands, and the row discarded after it."""


class Role:
    """What one of the three fused steps offers the tail that links it: its arguments on the
    run's table (None where a condition fails), the free names its owners read (each a
    variable, a parameter or one of the spec's names where it names no region of the table:
    a tail takes only variables, which no table between can shadow), and the tail, once linked."""

    __slots__ = ("args", "free", "step", "tail")

    def __init__(self, step: st.Step, args: Callable[[Run], Any], free: tuple[str, ...]) -> None:
        self.step = step
        self.args = args
        self.free = free
        self.tail: Tail | None = None


_ROLES: dict[int, tuple[st.Step, Role]] = {}
ROLES_KEPT = 64
"""Roles remembered by their discard step until the protocol's top-level block, compiled after
theirs, links them (or never); bounded: beyond this the older half is forgotten (a role then
forgotten is not linked: each step runs as before). The newest are kept, so the protocol being
compiled keeps its own roles until its top-level block links them, whatever was compiled before
it in the process (with a clear, a protocol whose roles came just before the bound lost its tail)."""


def offer(step: st.Step, role: Role) -> None:
    """Remember ``role``, the fused op of the discard ``step``, for :func:`link`."""
    if len(_ROLES) >= ROLES_KEPT:
        for old in list(_ROLES)[: ROLES_KEPT // 2]:  # a dict keeps the order of insertion
            del _ROLES[old]
    _ROLES[id(step)] = (step, role)


def _role(step: st.Step | None) -> Role | None:
    hit = None if step is None else _ROLES.get(id(step))
    return hit[1] if hit is not None and hit[0] is step else None


def count(run: Run, codes: Sequence[int], always: bool = False) -> None:
    """A discard's cards ``codes`` back to the supply: the counters, their meters and the
    view's record (``always``: the counters noted even where none changes, as a joined
    discard's count does; else as :func:`~.base.apply_plan`'s)."""
    counts, hidden = discarded(codes)
    delta = {sid: -k for sid, k in counts}
    if hidden:
        run.view = run.views.extend(run.view, ("discard", spelled(counts)))
    if delta or always:
        run.out = _out_added(run.out, delta)
        run.meters = run.meters.note_out(run.out)


class Tail:
    """The three fused steps of Steps 11 and 12 linked (see the module docs): ``start`` at
    the discard of ``D[3, *]``, ``middle`` at the discard of ``L[2, *]``, ``finish`` at the
    discard of ``M[3, *]``; each True where it carried its step out as part of the tail."""

    __slots__ = ("d", "l_role", "layout", "left", "m", "plan", "run")

    def __init__(self, d: Role, l_role: Role, m: Role) -> None:
        self.d, self.l_role, self.m = d, l_role, m
        self.run: Run | None = None  # the run carrying the tail out
        self.plan: Plan | None = None
        self.layout: Layout | None = None  # the table at the start, kept until the last step
        self.left: tuple[slice, ...] = ()  # the discards still to count (whole rows: slices of the cells)

    def start(self, run: Run) -> bool:
        return self._begin(run, from_d=True)

    @staticmethod
    def _variables(run: Run, *roles: Role) -> bool:
        """Whether every free name the later steps' owners read is a variable (a name that is
        none could name a region of a table between: a hand the tail makes)."""
        env = run.vars()
        return all(name in env for role in roles for name in role.free)

    def middle(self, run: Run) -> bool:
        if self.run is not run:
            return self._owner_cards(run)
        assert len(self.left) == 3 and run.layout is self.layout, "a tail's steps in order"
        count(run, run.cells[self.left[0]])
        self.left = self.left[1:]
        return True

    def _owner_cards(self, run: Run) -> bool:
        """Where no tail started at the draw-pile sleeve (the case where nothing was found, a
        run with no draw-pile sleeve): from the owner cards out on, the deferred pair and
        Step 12 as one plan (the table between them never made)."""
        return self._begin(run, from_d=False)

    def drawn(self, run: Run, what: ev.Expr) -> bool:
        """Where the draw-pile sleeve was drawn (nothing found; its card played or kept, its
        arrow out): from the discard of its owner card ``what`` (``D[2, *]``, just after the
        ``if``: the whole bottom row of a region whose other rows are empty places, so that
        the region goes) on, that discard, the deferred pair and Step 12 as one plan (the two
        tables between never made). The discard's own conditions as it would meet them: its
        slots as it selects them, no limit on the supply's counters, the sleeves it empties
        emptied whole."""
        self.run = self.plan = self.layout = None
        layout = run.layout
        if not ENABLED or run.runner.limits is not None or layout.labels or layout.shown:
            return False
        try:
            first = what.sel(run, "discard")
        except EvalError:
            return False  # its own message, at its step
        if not first or (layout.sleeved and not kept_row(layout, first) and not kept_whole(layout, first)):
            return False
        return self._begin(run, from_d=False, first=first)

    def _begin(self, run: Run, from_d: bool, first: tuple[int, ...] = ()) -> bool:
        """Start the tail at the draw-pile sleeve's discard (``from_d``), at its owner card's
        discard where it was drawn (``first``: that row) or at the owner cards' discard: build
        and check the plan, count the first step's discards, keep the rest."""
        self.run = self.plan = self.layout = None  # a run that ended between its steps: forgotten
        later = (self.l_role, self.m) if from_d or first else (self.m,)
        if not ENABLED or not self._variables(run, *later):
            return False
        layout = run.layout
        if id(layout) not in run.shared.layouts_seen:
            return False  # the table space of the tables between: at most this one's
        d = None
        if from_d:
            d = self.d.args(run)
            if d is None or not d[3]:
                return False
        got = self.l_role.args(run)
        if got is None:
            return False
        m = self.m.args(run)
        if m is None or not m[3]:
            return False
        plan = build(layout, d, got, m, first)
        if plan is None:
            return False
        if ev.CHECKED:
            _check(layout, plan, d, got, m, first)
        cells = run.cells
        if d is not None:
            count(run, cells[_span(d[0])])
            count(run, cells[_span(d[3])], always=True)
            self.left = (_span(got[0]), _span(m[0]), _span(m[3]))
        elif first:
            count(run, cells[_span(first)])  # as the discard alone counts it (apply_plan's)
            self.left = (_span(got[0]), _span(m[0]), _span(m[3]))
        else:
            count(run, cells[_span(got[0])])
            self.left = (_span(m[0]), _span(m[3]))
        self.run, self.plan, self.layout = run, plan, layout
        return True

    def finish(self, run: Run, step: st.Step) -> bool:
        if self.run is not run:
            return False
        plan = self.plan
        assert plan is not None and len(self.left) == 2, "a tail's steps in order"
        assert run.layout is self.layout, "the table left as it was until the tail's last step"
        self.run = self.plan = self.layout = None
        cells = run.cells
        drop, then = self.left
        counts, hidden = discarded(cells[drop])
        codes = cells[then]
        before = run.layout
        run.cells = gather(cells, plan, ())
        if hidden:
            run.view = run.views.extend(run.view, ("discard", spelled(counts)))
        landed(run, step, plan, before, {sid: -k for sid, k in counts})
        count(run, codes, always=True)
        return True


class Frame(NamedTuple):
    """What :func:`build` works out from the layout and the rows alone (the slots of the rows
    discarded and returned, never the owners read): the regions that go, the regions kept (their
    names, shapes and slots, in order) and the rows it was worked out for (``rows``)."""

    rows: tuple[Any, ...]
    gone: frozenset[str]
    names: frozenset[str]
    shapes: tuple[tuple[Any, ...], ...]
    src: tuple[int, ...]


FRAMES_KEPT = 1024
"""Frames :func:`build` keeps by layout and case; it starts afresh beyond (a plain bounded dict,
as :data:`~.pairing.ROWS_KEPT`'s)."""

_FRAMES: dict[tuple[Layout, bool, bool], Frame] = {}


def build(layout: Layout, d: Args | None, got: Args, m: Args, first: Sequence[int] = ()) -> Plan | None:
    """The plan of the three fused steps from ``layout`` (``d`` None: the last two; see the
    module docs), after ``first`` where given (``d`` None: the drawn draw-pile sleeve's owner
    card, the whole bottom row of a region that is no hand, whose other rows are empty places:
    the region goes); None where they are not of that kind. The last table's regions are the
    regions kept (in order; a hand named keeps its slots and gets its cards at its end) and
    then the new hands in the order of their first card, as :func:`~.runs.return_row` makes
    them one return after the other: each hand's cards gathered once, in order.

    What follows from the layout and the rows alone (:class:`Frame`: which regions go, the
    kept regions' shapes and slots) is kept per layout and case, for the very rows it was worked
    out for (compared at each run: the rows a run reads from the regions of a layout met again
    are the very tuples read before, so the comparison is one of identities); the owners are
    read at each run."""
    rows = (None if d is None else (d[0], d[1], d[3]), got[0], got[1], m[0], m[1], m[3], tuple(first))
    key = (layout, d is None, bool(first))
    frame = _FRAMES.get(key)
    if frame is None or frame.rows != rows:
        frame = _frame(layout, d, got, m, first, rows)
        if frame is None:
            return None
        if len(_FRAMES) >= FRAMES_KEPT:
            _FRAMES.clear()
        _FRAMES[key] = frame
    if ev.CHECKED and frame != _frame(layout, d, got, m, first, rows):
        raise ev.Mismatch(f"the frame kept for {layout} is not the one worked out")
    back = (got, m) if d is None else (d, got, m)  # the returns, in order
    more = _hands(back, frame.gone)
    if more is None:
        return None
    if frame.names.isdisjoint(more):  # every hand a new one (the common case)
        shapes = [*frame.shapes, *[(name, 1, len(extra), 1, name, None) for name, extra in more.items()]]
        src = list(frame.src)
        for extra in more.values():
            src += extra
    else:
        got_ = _with_hands(layout, frame.gone, more)
        if got_ is None:
            return None
        shapes, src = got_
    after = Layout.make(shapes, (), ())
    if after.shown:
        return None
    plan = Plan(after, tuple(src), (), {})
    plan.__dict__["_getter"] = itemgetter(*src) if len(src) > 1 else _few(tuple(src))
    plan.__dict__["_bare"] = True  # every slot keeps an old card: gathered from the cells as they are
    remember_landings(plan, layout, ())
    return plan


def _frame(
    layout: Layout, d: Args | None, got: Args, m: Args, first: Sequence[int], rows: tuple[Any, ...]
) -> Frame | None:
    """:func:`build`'s :class:`Frame` (None where the steps are not of that kind)."""
    if layout.labels or layout.shown:
        return None
    back = (got, m) if d is None else (d, got, m)  # the returns, in order
    regs = []
    for args, nrows in zip(back, (1, 3) if d is None else (3, 1, 3)):
        flats = args[1]
        if not flats or not 0 <= flats[0] < layout.size:
            return None
        reg = region_at(layout, flats[0])
        if reg.hand is not None or reg.rows != nrows or not _row(reg, 1, flats):
            return None
        regs.append(reg)
    mreg = regs[-1]
    if not (_row(mreg, 3, m[0]) and _row(mreg, 2, m[3])):
        return None
    if d is not None and not (_row(regs[0], 3, d[0]) and _row(regs[0], 2, d[3])):
        return None
    drop = got[0]
    if not drop or not 0 <= drop[0] < layout.size:
        return None
    lreg = region_at(layout, drop[0])
    if lreg.hand is not None or not _row(lreg, lreg.rows, drop):
        return None
    away = [lreg, *regs]  # the regions that go
    if first:
        if d is not None or not 0 <= first[0] < layout.size:
            return None
        freg = region_at(layout, first[0])
        if freg.hand is not None or not _row(freg, freg.rows, first):
            return None
        away.append(freg)
    gone = frozenset(reg.name for reg in away)
    if len(gone) != len(away):
        return None
    empty = [range(r.offset, r.offset + (r.rows - 1) * r.cols) for r in away[:1] + away[len(regs) + 1 :]]
    if layout.holes != frozenset().union(*empty):
        return None  # an empty place elsewhere, or a card left in a row above the last of L (or D)
    shapes: list[tuple[Any, ...]] = []
    src: list[int] = []
    for r in layout.regions:
        if r.name not in gone:
            shapes.append((r.name, r.rows, r.cols, r.unit, r.hand, r.sleeve))
            src += _slots(r.offset, r.rows * r.cols)
    names = frozenset(r.name for r in layout.regions) - gone
    return Frame(rows, gone, names, tuple(shapes), tuple(src))


def _with_hands(
    layout: Layout, gone: frozenset[str], more: dict[str, list[int]]
) -> tuple[list[tuple[Any, ...]], list[int]] | None:
    """The last table's shapes and slots where a hand kept gets cards (a hand of one row
    gets them at its end; anything else is not of this kind: None)."""
    shapes: list[tuple[Any, ...]] = []
    src: list[int] = []
    for r in layout.regions:
        name = r.name
        if name in gone:
            continue
        start = r.offset
        extra = more.pop(name, None)
        if extra is None:
            shapes.append((name, r.rows, r.cols, r.unit, r.hand, r.sleeve))
            src += _slots(start, r.rows * r.cols)
            continue
        if r.hand is None or r.rows != 1:
            return None  # not a hand, or a hand of rows (return_row's general case)
        shapes.append((name, 1, r.cols + len(extra), r.unit, r.hand, r.sleeve))
        src += _slots(start, r.cols)
        src.extend(extra)
    for name, extra in more.items():  # new hands, in the order of their first card
        shapes.append((name, 1, len(extra), 1, name, None))
        src.extend(extra)
    return shapes, src


def _hands(back: Sequence[Args], gone: frozenset[str]) -> dict[str, list[int]] | None:
    """Each hand named by the returns ``back`` with the slots of its cards, in order; the hands
    in order of their first card; None where a return has not one hand per card or names a
    region that goes."""
    more: dict[str, list[int]] = {}
    for args in back:
        flats, names = args[1], args[2]
        kinds = dict.fromkeys(names)  # the hands, in order of their first card
        if len(flats) != len(names) or not gone.isdisjoint(kinds):
            return None
        if len(kinds) == 1:  # one hand (Step 11's returns)
            hand = more.get(names[0])
            if hand is None:
                more[names[0]] = list(flats)
            else:
                hand.extend(flats)
            continue
        for name in kinds:  # several (Step 12's: a hundred cards, five owners)
            if name not in more:
                more[name] = []
        for f, name in zip(flats, names):
            more[name].append(f)
    return more


def _row(reg: Any, row: int, flats: Sequence[int]) -> bool:
    """Whether ``flats`` is the whole row ``row`` (from 1) of ``reg``, in order."""
    cols = reg.cols
    a = reg.offset + (row - 1) * cols
    if len(flats) != cols or flats[0] != a:
        return False
    return (flats if type(flats) is tuple else tuple(flats)) == _slots(a, cols)


_SLOTS: dict[tuple[int, int], tuple[int, ...]] = {}
SLOTS_KEPT = 4096
"""Runs of slots :func:`_slots` keeps (by start and length: a game meets a few hundred)."""


def _slots(a: int, n: int) -> tuple[int, ...]:
    """``tuple(range(a, a + n))``, kept (its ints made once, not at every build)."""
    hit = _SLOTS.get((a, n))
    if hit is None:
        if len(_SLOTS) >= SLOTS_KEPT:
            _SLOTS.clear()
        hit = _SLOTS[(a, n)] = tuple(range(a, a + n))
    return hit


def kept_row(layout: Layout, flats: Sequence[int]) -> bool:
    """Whether ``flats`` is a whole row of a region, in order, that its sleeves keep no card
    in (or a region without sleeves): then :func:`~.plans.kept_whole` is true. Its slots lie in
    that region alone (every other is passed over), and every row the sleeves keep is another,
    disjoint from them: no sleeve is touched in a kept row. False says nothing (the caller asks
    :func:`~.plans.kept_whole`). Found from the region and one comparison, no set made."""
    if type(flats) is not tuple or not flats or not 0 <= flats[0] < layout.size:
        return False
    a = flats[0]
    reg = layout.owner(a)
    cols = reg.cols
    k, rem = divmod(a - reg.offset, cols)
    if rem or len(flats) != cols or flats != _slots(a, cols):
        return False
    sleeve = reg.sleeve
    if sleeve is not None and k + 1 in sleeve.keeps:
        return False
    if ev.CHECKED and not kept_whole(layout, flats):
        raise ev.Mismatch(f"the row {flats} of {reg.name} goes whole, kept_whole says not")
    return True


def _span(flats: Sequence[int]) -> slice:
    """The cells of ``flats``, a whole row (:func:`build` checked it) as one slice."""
    return slice(flats[0], flats[-1] + 1)


def _check(layout: Layout, plan: Plan, d: Args | None, got: Args, m: Args, drawn: Sequence[int] = ()) -> None:
    """The plan against the three built one after the other, from the tables between (after
    the discard of ``drawn``, where given: :func:`~.runs.bottom_row`)."""

    def rows_of(lay: Layout, name: str, *rows: int) -> list[tuple[int, ...]]:
        reg = lay.by_name[name]
        return [tuple(range(reg.offset + (r - 1) * reg.cols, reg.offset + r * reg.cols)) for r in rows]

    uname = region_at(layout, got[1][0]).name
    lname = region_at(layout, got[0][0]).name
    mname = region_at(layout, m[1][0]).name
    first: Any = Plan(layout, tuple(range(layout.size)), (), {})  # from the owner cards on: none
    if d is not None:
        dname = region_at(layout, d[1][0]).name
        first = return_row(layout, d[1], d[2], d[0], d[3])
        assert first is not None and dname not in first.layout.by_name, "the found case's plan"
    elif drawn:
        dname = region_at(layout, drawn[0]).name
        first = bottom_row(layout, drawn)
        assert first is not None and dname not in first.layout.by_name, "the drawn case's plan"
    u1 = rows_of(first.layout, uname, 1)[0]
    l2 = rows_of(first.layout, lname, first.layout.by_name[lname].rows)[0]
    second = return_row(first.layout, u1, got[2], gone=l2)
    assert second is not None, "the unselected sleeves' plan"
    m1, m2, m3 = rows_of(second.layout, mname, 1, 2, 3)
    third = return_row(second.layout, m1, m[2], m3, m2)
    assert third is not None, "Step 12's plan"
    cells = list(range(layout.size))
    want = gather(gather(gather(cells, first, ()), second, ()), third, ())
    if third.layout is not plan.layout or gather(cells, plan, ()) != want:
        raise ev.Mismatch(f"Steps 11 and 12 at once: {plan.layout} {plan.src} is not {third.layout} {want}")


def link(entries: Sequence[tuple[Any, str | None, st.Step]]) -> None:
    """Link the tails among a block's steps (see the module docs): a ``do`` (Step 11) whose
    last two steps are a deferred discard and its ``if``, right after an ``if`` whose ``then``
    block's last step is the joined discard of a fused pair at the end of an ``if``'s ``then``
    block, then a ``do`` (Step 12) whose first step is a fused pair's discard with the pair
    after it carried out too."""
    for (_, _, eleven), (_, _, twelve) in pairwise(entries):
        if not isinstance(eleven, st.Do) or not isinstance(twelve, st.Do):
            continue
        body = eleven.body
        if len(body) < 3 or not twelve.body:
            continue
        m = _role(twelve.body[0])
        mid = _role(body[-2])
        d = _d_role(body[-3])
        if m is None or mid is None or d is None or not isinstance(body[-1], st.If):
            continue
        if m.tail is not None or mid.tail is not None or d.tail is not None:
            continue
        tail = Tail(d, mid, m)
        d.tail = mid.tail = m.tail = tail


def _d_role(step: st.Step) -> Role | None:
    """The role of the fused pair ending the ``then`` block of an ``if`` that ends the ``then``
    block of ``step`` (an ``if``), just before that block's last step, the discard joined."""
    if not isinstance(step, st.If) or len(step.then) < 2:
        return None
    inner, after = step.then[-2], step.then[-1]
    if not isinstance(inner, st.If) or not isinstance(after, st.Discard) or len(inner.then) < 2:
        return None
    pair = inner.then[-2]
    return _role(pair) if isinstance(pair, st.Discard) and isinstance(inner.then[-1], st.Return) else None
