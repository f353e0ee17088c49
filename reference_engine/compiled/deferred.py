"""A discard that takes a region off the table, then an ``if exists('X')`` whose one step
returns a whole row of ``X`` to hands, carried out as one plan (Step 11's tail: the virtual
player's owner cards ``L[2, *]`` to the spares, then ``if exists('unselected')``, the sleeves the
lottery did not pick back to the virtual player). The table between the two, made only to be
dropped, is never made.

The discard's step counts its cards back to the supply at once (the helper cards out, the
counters, the view's record of cards going back: everything of it but the table), and leaves
the table as it is; the ``if`` then reads the table before the discard, which its condition
cannot tell from the one after (``exists('X')`` of another region than the one going); the
return then carries out both tables' changes in one plan (:func:`~.runs.return_row` with the
region gone). Each step keeps its place in the block, so the run counts and checks each as
before, and the view records the same events in the same order. Taken only where, at each run:

- the discard is ``NAME[k, *]`` (``k`` a whole number), the region's bottom row, its other rows
  empty places (the region goes), no hand, its sleeves going whole (the keep rule holds);
- the ``if`` is ``exists('X')`` (the built-in), X not NAME, with one step, a return of a whole
  row ``X[j, *]`` to owners that read no region (variables, parameters and constants: their
  value cannot tell the tables apart), and nothing else;
- nothing shows, no display labels, no limits on the supply's counters, the table before both
  already noted in the run's table space (the table between has no region larger);
- X is on the table (the ``if`` goes into its branch), the arguments evaluate without an
  error, and the return is of one whole row to hands of one row (else each step as compiled,
  with its own messages).

With ``evaluate.CHECKED`` the two steps are also carried out one after the other, as compiled,
and the outcomes compared. Should the return not run after all (an error in the ``if``), the
discard's table change is made when the ``if`` ends.

A deferred discard remembers the run it waits for (by identity), as :mod:`.fused`'s pairs do:
one compiled program runs one run at a time per thread of control.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from .. import steps as st
from ..expressions import EvalError, Expression
from ..expressions.nodes import Call, Const
from ..kept import Kept
from ..machine import Plan
from . import evaluate as ev
from . import families, tails
from .base import Op, _out_added, discarded, gather, landed, spelled
from .codegen import function_kind, variables_only
from .pairing import RowArgs, check, return_args, row_of
from .run import Run
from .runs import bottom_row, return_row

Entry = tuple[Op, str | None, st.Step]


class Waiting(NamedTuple):
    """A return compiled as the one step of a block, waiting for a discard before its ``if``
    to hand it a plan: the return's op as compiled, and the run and plan handed over."""

    back_op: Op
    pending: list[tuple[Run, Plan | None] | None]


KEPT = 1024
"""Plans a deferred discard and return keeps, by the table before both and their resolved
arguments (bounded as :data:`~.ops.KEPT_PLANS`): the virtual player's sleeves back to it are
one hand's, so the table before both (the grid's and the hand's widths) alone decides the plan,
and a game meets those tables again in its later games."""

_WAITING: dict[int, tuple[st.Step, Waiting]] = {}
WAITING_KEPT = 64
"""Returns remembered by their step until the block around their ``if``, compiled just after
theirs, takes them (or never: a return in no such ``if``); bounded: it starts afresh beyond
this (a return then forgotten is not carried out with the discard before its ``if``)."""


def waiting(entry: Entry) -> Entry:
    """``entry``, a return that is its block's one step, as an op that carries out the plan a
    discard before its ``if`` hands it (else the return as compiled)."""
    back_op, number, step = entry
    pending: list[tuple[Run, Plan | None] | None] = [None]
    if len(_WAITING) >= WAITING_KEPT:
        _WAITING.clear()
    _WAITING[id(step)] = (step, Waiting(back_op, pending))

    def op(run: Run) -> None:
        got = pending[0]
        if got is not None and got[0] is run:
            pending[0] = None
            if got[1] is not None:  # else a tail's (tails.py): Step 12 puts the table in place
                _table(run, step, got[1])
            return
        back_op(run)

    return (op, number, step)


def _table(run: Run, step: st.Step, plan: Plan) -> None:
    """The plan's change of the table alone (the supply's counts are done): its gather, its
    layout."""
    before = run.layout
    run.cells = gather(run.cells, plan, ())
    landed(run, step, plan, before, {})


def _exists(cond: Expression | None, proto: Any) -> str | None:
    """X where ``cond`` is ``exists('X')`` with the built-in ``exists``; None otherwise."""
    node = None if cond is None else cond.node
    if not isinstance(node, Call) or node.func != "exists" or len(node.args) != 1:
        return None
    arg = node.args[0]
    if not isinstance(arg, Const) or type(arg.value) is not str:
        return None
    return arg.value if function_kind(proto, "exists") == "builtin" else None


def discard_if(
    discard: Entry, branch: Entry, compiled: Callable[[Expression | None], ev.Expr]
) -> tuple[Op, Op] | None:
    """The ops of a discard and the ``if`` after it, of the kind in the module docs (the
    ``if``'s op as compiled, checked when it ends); None where the steps are not of that kind."""
    discard_op, discard_number, discard_step = discard
    if_op, if_number, if_step = branch
    assert isinstance(discard_step, st.Discard) and isinstance(if_step, st.If)
    got = None if discard_step.what is None else row_of(discard_step.what.node)
    if got is None or len(if_step.then) != 1 or if_step.other:
        return None
    name = got[0]
    back_step = if_step.then[0]
    hit = _WAITING.get(id(back_step))
    if hit is None or hit[0] is not back_step or not isinstance(back_step, st.Return):
        return None
    if back_step.cards is None or back_step.to is None:
        return None
    row = row_of(back_step.cards.node)
    what = compiled(discard_step.what)
    there = _exists(if_step.cond, what.proto)
    if row is None or there is None or row[0] != there or there == name:
        return None
    free = variables_only(back_step.to.node, what.proto)
    if free is None:
        return None
    del _WAITING[id(back_step)]  # taken: its op lives as long as the program
    back_op, pending = hit[1]
    cards, to = compiled(back_step.cards), compiled(back_step.to)
    owners_row = families.family_row(back_step.to.node, to.proto)
    kept: Kept[Plan] = Kept(KEPT)
    rows = RowArgs(what, cards)

    def args_for(run: Run) -> tails.Args | None:
        """The slots discarded, the slots returned and their hands (and () after), on the run's
        table, where every condition on it but its table space holds (:mod:`.tails`)."""
        layout = run.layout
        if layout.labels or layout.shown or run.runner.limits is not None:
            return None
        if there not in layout.by_name:
            return None  # the ``if`` runs nothing: the discard alone
        env = run.vars()
        if name in env or there in env:
            return None  # the rows are a variable's, not the regions'
        if free:
            by_name = layout.by_name
            if any(n in by_name and n not in env for n in free):
                return None  # a region read (a variable comes first, as it is looked up)
        got = rows.rows(run)
        if got is None:
            return None
        drop, flats, _ = got
        try:
            flats, names = return_args(run, cards, to, owners_row, flats)
        except EvalError:
            return None  # the return's own message, at its step
        return drop, flats, names, ()

    def plan_for(run: Run) -> tuple[Plan, tuple[int, ...]] | None:
        layout = run.layout
        if id(layout) not in run.shared.layouts_seen:
            return None  # the table space of the table between: at most this one's
        got_args = args_for(run)
        if got_args is None:
            return None
        drop, flats, names, _ = got_args
        key = (layout, names)  # the rows (by number, of regions no variable names) are the layout's
        plan = kept.get(key)
        if plan is None:
            plan = return_row(layout, flats, names, gone=drop)
            if plan is None or plan.layout.shown:
                return None
            kept.put(key, plan)
        return plan, drop

    def supply(run: Run, drop: tuple[int, ...]) -> None:
        """The discard's count of its cards back (as :func:`~.base.apply_plan` does it)."""
        cells = run.cells
        codes = [cells[f] for f in drop]
        counts, hidden = discarded(codes)
        delta = {sid: -k for sid, k in counts}
        if hidden:
            run.view = run.views.extend(run.view, ("discard", spelled(counts)))
        if delta:
            run.out = _out_added(run.out, delta)
            run.meters = run.meters.note_out(run.out)

    role = tails.Role(discard_step, args_for, free)
    tails.offer(discard_step, role)

    def first(run: Run) -> None:
        pending[0] = None
        chain = role.tail
        if chain is not None and role is chain.l_role and chain.middle(run):
            pending[0] = (run, None)  # the return in the ``if``: nothing to do (tails.py)
            return
        got = plan_for(run)
        if got is None:
            discard_op(run)
            return
        plan, drop = got
        if ev.CHECKED:
            _check(run, plan, drop)
        supply(run, drop)
        pending[0] = (run, plan)

    def second(run: Run) -> None:
        try:
            if_op(run)
        finally:
            got = pending[0]
            if got is not None and got[0] is run:  # the return did not run: the discard's table
                pending[0] = None
                assert got[1] is not None, "a tail's return runs (exists('unselected') holds)"
                alone = bottom_row(run.layout, what.sel(run, "discard"))
                assert alone is not None, "a deferred discard is a bottom row"
                _table(run, discard_step, Plan(alone.layout, alone.src, (), {}))

    def _check(run: Run, plan: Plan, drop: tuple[int, ...]) -> None:
        def both() -> None:
            supply(run, drop)
            _table(run, back_step, plan)

        check(run, discard_op, back_op, discard_number, if_number, both)

    return first, second
