"""A fixed segment of a block's steps run as one kept chain: card-selection-arrow's steps 1-9
(lay the hands out, owner cards, turns, two washes, sleeves front and back, arrows, owner
cards slid out), a run of steps with no branch, no call, no variable set.

Run step by step, each of these steps works out again at every run what follows from the
layout alone: a sleeve step its plan (a look-up by the layout and its arguments) and the cards
it slides out, a wash its piles (``columns(M)`` evaluated, the piles checked), a turn of a row
its slots. A :class:`Segment` keeps, per layout at its start (and the names of the variables,
which decide what a name means), the chain of those: each step's *link*, made the first time
the step is met in that chain, from the layout it meets then. At each run a link is used only
where the run's layout is the very layout it was made for (an identity check), and does exactly
what the step's own compiled operation does; anything else (a step without a link, a link made
for another layout, a row with an empty place, a layout the link cannot handle) runs the step's
own operation. A link depends on nothing but its layout and the variables' names: the cards,
the random numbers (drawn at each run by the same calls, in the same order), the game's answers,
the parameters' values are all read at each run.

Every step keeps its place: a chain is a block of run_block's entries (each step's link or its
own operation, then the ``do`` steps it ends), run by :func:`~.ops.run_block` itself, so the step
being carried out is named for messages (``runner.current``) as it starts, and after each step
(and each ``do`` around steps) the shown cards are checked and the step counted, the budget
spent, by the one after-step bookkeeping there is: an error, a budget or the limit of steps
stops at the same step with the same message. The last step's check and count are the
enclosing block's, which sees the segment as that step.

What a link knows from the steps right before it in the chain, it uses: a wash of a region's
columns right after ``turn: up()`` (steps 3-4 and 7-8) meets no face-up card outside the hands
(the turn left none, on the very layout the link is made for), so it shows none and its cards
are not scanned for one (a region that is a hand is scanned as before); a row turned right
after such a wash (steps 5 and 9) turns face-down cards only, so each comes face up and all
are observed without reading them again (:func:`fold` marks both).

With :data:`~.evaluate.CHECKED` set, a segment runs both ways from the same table and generator
and compares everything (the table, the counters, the view, the generator's state, the count of
steps, the error), then keeps the step-by-step result.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import Any, NamedTuple

from .. import steps as st
from ..expressions import Call, EvalError, ListLit, Name
from ..machine.actions import layout as lay
from ..machine.actions.shuffling import AT_ONCE
from ..machine.actions.sleeving import _sleeve_build
from ..machine.frontier import _BUDGET
from ..machine.plans import landings
from ..table import visible
from . import evaluate as ev
from . import plans as fp
from . import rows
from .base import Op, apply_plan, gather
from .codegen import function_kind
from .run import Run

Entry = tuple[Op, str | None, st.Step]
Link = tuple[Any, Callable[[Run], bool]]
"""The layout a link was made for, and what it does (False: nothing, the step's own op runs)."""
Maker = Callable[[Run], Link | None]


class Tools(NamedTuple):
    """What a segment takes from the step compilers (:mod:`.ops`, which folds segments): a
    step's plan for a layout, a shuffle's piles checked, and the block runner."""

    make_plan: Callable[..., Any]
    shuffle_of: Callable[..., Any]
    run_block: Callable[[Run, Any], None]


KEPT = 128
"""Chains a segment keeps (one per layout at its start and variables' names); afresh beyond."""

_NONE: Any = object()  # a link position whose step has no link for its layout (its op runs)


class Leaf:
    """One step of a segment: its own compiled operation, what makes its link (None: it has
    none), and the ``do`` step it ends, if any (number and step: counted right after it)."""

    __slots__ = ("ends", "make", "number", "op", "step")

    def __init__(self, op: Op, number: str | None, step: st.Step, make: Maker | None):
        self.op = op
        self.number = number
        self.step = step
        self.make = make
        self.ends: tuple[str | None, st.Step] | None = None


class Chain:
    """The links of one layout at a segment's start (``links``, one per leaf, None until the
    leaf is first met), and the block that runs them: each leaf's operation (its link where
    the run's layout is the link's), then the ``do`` steps it ends, as :func:`~.ops.run_block`
    entries, so that the checks and counts after each step are run_block's own. ``tail`` is the
    last entry, whose checks and count are the caller's (it sees the segment as that step)."""

    __slots__ = ("head", "links", "tail", "used")

    def __init__(self, links: list[Any], leaves: Sequence[Leaf]):
        self.links = links
        self.used = False  # whether this run used a link (for the tests)
        block: list[Entry] = []
        for k, leaf in enumerate(leaves):
            block.append((self._linked(k, leaf), leaf.number, leaf.step))
            if leaf.ends is not None:
                # The do's own count, after its last step's: run_block names the do for the
                # count's message; the step being carried out stays its last step.
                block.append((_back(leaf.number), *leaf.ends))
        self.tail = block.pop()
        self.head = tuple(block)

    def _linked(self, k: int, leaf: Leaf) -> Op:
        """The leaf's operation: its link where one was made for the run's layout, else its own."""
        make, own, links = leaf.make, leaf.op, self.links
        if make is None and links[k] is None:
            return own  # never a link

        def op(run: Run) -> None:
            link = links[k]
            if link is None:
                link = links[k] = (None if make is None else make(run)) or _NONE
            if link is _NONE or link[0] is not run.layout or not link[1](run):
                own(run)
            else:
                self.used = True

        return op


def _back(number: str | None) -> Op:
    def op(run: Run) -> None:
        run.runner.current = number

    return op


class Segment:
    """A block's consecutive steps carried out as one (see the module docs)."""

    def __init__(self, entries: Sequence[Entry], leaves: list[Leaf], tools: Tools):
        self.tools = tools
        self.entries = tuple(entries)
        self.leaves = tuple(leaves)
        self.chains: dict[Any, Chain] = {}
        self.fast_runs = 0  # runs that used at least one link (for the tests)

    def chain(self, links: list[Any] | None = None) -> Chain:
        """A chain of these leaves (with ``links``: those; else none made yet)."""
        return Chain([None] * len(self.leaves) if links is None else links, self.leaves)

    def __call__(self, run: Run) -> None:
        if ev.CHECKED:
            self._checked(run)
        else:
            self._fast(run)

    def _fast(self, run: Run) -> None:
        env = run.env
        key = (run.layout, tuple([name for name, _ in env])) if env else run.layout
        chain = self.chains.get(key)
        if chain is None:
            if len(self.chains) >= KEPT:
                self.chains.clear()
            chain = self.chains[key] = self.chain()
        chain.used = False
        self.tools.run_block(run, chain.head)
        op, number, _ = chain.tail
        run.runner.current = number
        op(run)
        if chain.used:
            self.fast_runs += 1

    def _general(self, run: Run) -> None:
        """The steps one by one, as the enclosing block runs them (the last one's checks and
        count are the caller's)."""
        run_block = self.tools.run_block
        *most, last = self.entries
        for entry in most:
            run_block(run, (entry,))
        run.runner.current = last[1]
        last[0](run)

    def _checked(self, run: Run) -> None:
        """Both ways from the same table and generator, compared; the step-by-step one kept."""
        rng = run.runner.rng
        if not (hasattr(rng, "getstate") and hasattr(rng, "setstate")):
            self._general(run)  # a generator that cannot be taken back: one way only
            return
        before = _snapshot(run)
        try:
            self._fast(run)
            fast: Any = _snapshot(run)
        except Exception as exc:  # compared with the general path's below
            fast = (type(exc), str(exc))
        _restore(run, before)
        try:
            self._general(run)
        except Exception as exc:
            if fast != (type(exc), str(exc)):
                where = self.entries[0][1]
                raise ev.Mismatch(f"segment {where}: failed with {exc!r}, its chain {fast!r}") from exc
            raise
        general = _snapshot(run)
        if fast != general:
            raise ev.Mismatch(f"segment {self.entries[0][1]}: its chain ends with {fast!r}, not {general!r}")


def _snapshot(run: Run) -> tuple[Any, ...]:
    runner, shared = run.runner, run.shared
    left = _BUDGET.get()
    return (
        run.layout,
        list(run.cells),
        run.out,
        run.env,
        run.meters,
        run.view,
        runner.rng.getstate(),
        runner.current,
        shared.states_processed,
        None if left is None else left[0],
        dict(shared.layouts_seen),
        shared.extent,
        shared.hands,
        shared.peak_frontier,
    )


def _restore(run: Run, snap: tuple[Any, ...]) -> None:
    runner, shared = run.runner, run.shared
    (layout, cells, run.out, run.env, run.meters, run.view, rng, runner.current) = snap[:8]
    run.layout = layout
    run.cells = list(cells)
    runner.rng.setstate(rng)
    shared.states_processed = snap[8]
    left = _BUDGET.get()
    if left is not None:
        left[0] = snap[9]
    shared.layouts_seen.clear()
    shared.layouts_seen.update(snap[10])
    shared.extent, shared.hands, shared.peak_frontier = snap[11:14]


def both_ways(
    run: Run,
    direct: Callable[[Run], Any],
    steps: Callable[[Run], Any],
    what: str,
    same: Callable[[Any, Any], bool] | None = None,
) -> None:
    """Under the compiled path's checks: ``direct`` and then ``steps`` from the same table and
    generator (:func:`_snapshot`, :func:`_restore`), their ends or their errors compared (by
    ``same``, else equality); the steps' end is kept. A Mismatch names ``what`` ("a direct
    knockout round")."""
    before = _snapshot(run)
    try:
        direct(run)
        mine: Any = _snapshot(run)
    except Exception as exc:  # compared with the steps' below
        mine = (type(exc), str(exc))
    _restore(run, before)
    try:
        steps(run)
    except Exception as exc:
        if mine != (type(exc), str(exc)):
            raise ev.Mismatch(f"{what} failed with {mine!r}, its steps {exc!r}") from exc
        raise
    theirs = _snapshot(run)
    if not (mine == theirs if same is None else same(mine, theirs)):
        raise ev.Mismatch(f"{what} ends with {mine!r}, its steps with {theirs!r}")


# --------------------------------------------------------------------------- links


def _sleeve(step: st.Sleeve, make_plan: Callable[..., Any]) -> Maker:
    """A sleeve step's plan for the layout (its arguments are the step's own): applied with
    one gather where it slides out no card, counts none and returns none to the supply."""
    res = tuple(step.ops)

    def make(run: Run) -> Link | None:
        layout = run.layout
        try:
            plan = make_plan(run, step, res, _sleeve_build, fp.build_sleeve)
        except EvalError:
            return None  # the step's own op says what is wrong
        consts, after = plan.consts, plan.layout
        if plan.returned or plan.delta or (layout.sleeved and landings(plan, layout)):

            def go(run: Run) -> bool:
                apply_plan(run, step, plan)
                return True

        else:

            def go(run: Run) -> bool:
                run.cells = gather(run.cells, plan, consts)
                run.layout = after
                return True

        return layout, go

    return make


def _row_turn(what: ev.Expr, name: str, r: int, down: bool = False) -> Maker:
    """``turn: name[r, *]``: the row's slots, read from the layout once. ``down``: no card
    outside the hands is face up before it (see :func:`fold`), so every card turned comes face
    up (:func:`~.rows.turn_row`)."""

    def make(run: Run) -> Link | None:
        ab = rows.row_slots(run, name, r)
        if ab is None:
            return None
        a, b = ab

        def go(run: Run) -> bool:
            return rows.turn_row(run, what, a, b, down)

        return run.layout, go

    return make


def _washed_columns(
    step: st.Shuffle, piles: ev.Expr, name: str, shuffle_of: Callable[..., Any], down: bool = False
) -> Maker:
    """A scramble of ``columns(name)``: the piles and the rows of the region, read from the
    layout once; the permutation drawn at each run (:func:`~.rows.scramble`). ``down``: the
    step right before it in the segment is ``turn: up()`` (see :func:`fold`), which leaves no
    card face up outside the hands on this very layout (its link's): where the region is not a
    hand, no card of it is face up, so the wash shows none (its cards are not read for that)."""

    def make(run: Run) -> Link | None:
        layout = run.layout
        if name in run.vars() or name not in layout.by_name:
            return None
        try:
            got = piles.piles(run)
            if not isinstance(got, tuple):
                return None
            shuffle, flats, how = shuffle_of(step, got[0], got[1], layout)
        except EvalError:
            return None
        bounds = rows.column_rows(layout, flats)
        if shuffle.kind != "scramble" or bounds is None:
            return None
        k = shuffle.k
        lo, hi = bounds[0][0], bounds[-1][1]
        reg = layout.owner(lo)
        if down and reg.hand is None and reg.offset <= lo and hi <= reg.offset + reg.size:

            def hidden(run: Run) -> bool:
                rows.permute_rows(run.cells, bounds, rows.scramble(run.runner.rng, k))
                run.meters = run.meters.add_shuffle(how)
                return True

            return layout, hidden

        def go(run: Run) -> bool:
            perm = rows.scramble(run.runner.rng, k)
            cells = run.cells
            seg = cells[lo:hi]
            face_up = 1 in [v & 1 for v in seg] and (min(seg) >= 0 or any(v >= 0 and v & 1 for v in seg))
            rows.permute_rows(cells, bounds, perm)
            if face_up:
                seen = tuple(visible(cells[f]) for p in flats for f in p)
                run.view = run.views.extend(run.view, ("shuffle", seen))
            run.meters = run.meters.add_shuffle(how)
            return True

        return layout, go

    return make


def _placed_regions(step: st.Place, names: set[str], make_plan: Callable[..., Any]) -> Maker:
    """A place of regions' cards (``M: [cards]``): its plan for the layout, where every name
    its values read is a region and not a variable (what they select follows from the layout)."""
    up = step.up

    def make(run: Run) -> Link | None:
        layout = run.layout
        known = run.vars()
        if any(name in known or name not in layout.by_name for name in names):
            return None
        try:
            res = lay._place_resolve(run.runner, run.frame, step, run.state(), run.fev)
            plan = make_plan(
                run, step, res, lay._place_build, lambda layout, res: fp.build_place(layout, res, up)
            )
        except EvalError:
            return None  # the step's own op says what is wrong

        def go(run: Run) -> bool:
            apply_plan(run, step, plan)
            return True

        return layout, go

    return make


def _region_names(c: Any, step: st.Place) -> set[str] | None:
    """The names a place step's values are made of, where each value is a name or a list of
    names and each target a name or a row read from the layout alone; else None."""
    names: set[str] = set()
    for target, _, items in step.targets:
        if target.name is None and rows.target_reader(target) is None:
            return None
        node = c.e(items).expr.node
        parts = node.items if isinstance(node, ListLit) else [node]
        if not parts or not all(isinstance(p, Name) for p in parts):
            return None
        names.update(p.name for p in parts if isinstance(p, Name))
    return names or None


def _owner_row(new: Any) -> Maker:
    """A row of owner cards by owner sizes (:meth:`~.rows.NewPlace.owner_link`)."""

    def make(run: Run) -> Link | None:
        go = new.owner_link(run)
        return None if go is None else (run.layout, go)

    return make


def maker(c: Any, step: st.Step, tools: Tools, op: Op, down: bool = False) -> Maker | None:
    """What makes ``step``'s link (``c``: the compiler; ``op``: the step's own operation),
    None where it has none. ``down``: no card outside the hands is face up before it (the
    step right before it is ``turn: up()``, or a wash right after one)."""
    if isinstance(step, st.Place):
        names = _region_names(c, step)
        if names is not None:
            return _placed_regions(step, names, tools.make_plan)
        new = getattr(op, "new", None)
        if new is not None and new.owners is not None and new.arrows is None and new.pure is not None:
            return _owner_row(new)
        return None
    if isinstance(step, st.Sleeve):
        return _sleeve(step, tools.make_plan)
    if isinstance(step, st.Turn):
        what = c.e(step.what)
        row = rows.whole_row(what)
        return None if row is None else _row_turn(what, *row, down=down)
    if isinstance(step, st.Shuffle) and step.how not in AT_ONCE and step.piles is not None:
        piles = c.e(step.piles)
        node = piles.expr.node
        if (
            isinstance(node, Call)
            and node.func == "columns"
            and function_kind(piles.proto, "columns") == "builtin"
            and len(node.args) == 1
            and isinstance(node.args[0], Name)
        ):
            return _washed_columns(step, piles, node.args[0].name, tools.shuffle_of, down)
    return None


# --------------------------------------------------------------------------- folding

_LEAVES = (st.Place, st.Turn, st.Shuffle, st.Sleeve)
"""The step kinds a segment holds (and ``do`` steps of them alone): no branch, no call, no
variable set, nothing that runs a block of its own."""


def _leaf(entry: Entry) -> bool:
    step = entry[2]
    return type(step) in _LEAVES and not (isinstance(step, st.Shuffle) and step.how in AT_ONCE)


def fold(c: Any, entries: list[Entry], tools: Tools) -> list[Entry]:
    """``entries`` (a protocol's top-level block, compiled) with each run of two or more
    consecutive steps of the kinds above (or ``do`` steps of them alone) that makes at least
    one link carried out as one :class:`Segment`."""
    out: list[Entry] = []
    run: list[tuple[Entry, list[Leaf]]] = []

    def flush() -> None:
        leaves = [leaf for _, ls in run for leaf in ls]
        down = False  # whether no card outside the hands is face up after ``before``
        for before, leaf in pairwise(leaves):
            # ``turn: up()`` leaves none face up; a wash of a region's columns right after
            # (nothing between them: a do's own count is no step) only moves cards around.
            down = _all_turned_down(c, before.step) or (down and _washes_columns(before))
            if down and leaf.make is not None and isinstance(leaf.step, (st.Shuffle, st.Turn)):
                leaf.make = maker(c, leaf.step, tools, leaf.op, down=True)
        if len(run) >= 2 and any(leaf.make is not None for leaf in leaves):
            seg = Segment([e for e, _ in run], leaves, tools)
            last = run[-1][0]
            out.append((seg, last[1], last[2]))  # its last step's checks and count: the caller's
        else:
            out.extend(e for e, _ in run)
        run.clear()

    for i, entry in enumerate(entries):
        leaves = _leaves(c, entry, tools)
        # A sleeve step right before a discard may be fused with it (fused.py): left alone.
        fused_next = i + 1 < len(entries) and isinstance(entries[i + 1][2], st.Discard)
        if isinstance(entry[2], st.Sleeve) and fused_next:
            leaves = None
        if leaves is None:
            flush()
            out.append(entry)
        else:
            run.append((entry, leaves))
    flush()
    return out


def _washes_columns(leaf: Leaf) -> bool:
    """Whether ``leaf`` is a scramble of a region's columns (it has a link: :func:`maker`),
    which moves cards around without turning any."""
    return isinstance(leaf.step, st.Shuffle) and leaf.make is not None


def _all_turned_down(c: Any, step: st.Step) -> bool:
    """Whether ``step`` is ``turn: up()`` (the built-in): after it, no card outside the hands
    is face up."""
    return isinstance(step, st.Turn) and rows.every_face_up(c.e(step.what))


def _leaves(c: Any, entry: Entry, tools: Tools) -> list[Leaf] | None:
    """The steps of ``entry`` as a segment's leaves, None where it cannot be one."""
    op, number, step = entry
    if _leaf(entry):
        return [Leaf(op, number, step, maker(c, step, tools, op))]
    if type(step) is not st.Do or not step.body:
        return None
    body = [(step_, step_.number or number) for step_ in step.body]
    if not all(type(s) in _LEAVES and not (isinstance(s, st.Shuffle) and s.how in AT_ONCE) for s, _ in body):
        return None
    leaves = []
    for s, here in body:
        op_ = c.step(s, here)
        leaves.append(Leaf(op_, here, s, maker(c, s, tools, op_)))
    leaves[-1].ends = (number, step)  # the do's own checks and count, after its last step's
    return leaves
