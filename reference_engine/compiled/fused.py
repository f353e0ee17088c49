"""Two consecutive steps of one block carried out at once where nothing between them can tell:
a ``sleeve:`` step that only slides rows in or turns sleeves over, then the discard of a whole
row (``R[k, *]``) of the same region that takes what is left of it off the table (Step 12(a):
the owner cards pushed back into their sleeves, then the sleeves handed over, owner cards and
all). The layout between the two, made only to be dropped, is never made.

The pair keeps its two places in the block, so the run counts and checks each step as before
(the first carries out both, the second then does nothing). It is the two steps' outcome
exactly, under these conditions, checked at each run (anything else runs each step as compiled):

- the sleeve step slides nothing out (no card lands) and leaves no sleeve of the region lying
  front up (nothing shows), on a table where nothing shows (so no check after either step can
  see a card), with no display labels;
- the discard's cards are ``NAME[k, *]`` for a whole number ``k``: a selection of the layout's
  shape alone, which the sleeve step does not change (the same slots before it as after it);
- the discard is a whole bottom row whose region has no other card (its other rows are empty
  places: :func:`~.runs.bottom_row`): the region goes, so its sleeves after the first step
  play no part in the layout left, and every sleeve the discard touches goes whole (the
  sleeves' keep rule holds);
- the sleeve step touches that region alone.

The table space the run needs (``shared.extent``, ``shared.hands``) counts the table between
the two steps, as if it had been made: it has the shape of the table before them.

With ``evaluate.CHECKED`` (the differential tests) the two steps are also carried out one
after the other, as compiled, and the outcomes compared.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .. import steps as st
from ..expressions import EvalError, Expression
from ..expressions.nodes import Const, Index, Name, Star
from ..machine import Plan
from ..sleeves import SleeveFrame
from . import evaluate as ev
from .base import Op, apply_plan
from .plans import Defer, _sleeved
from .run import Run, note_shape
from .runs import bottom_row

Entry = tuple[Op, str | None, st.Step]


def whole_row(what: Expression | None) -> str | None:
    """The region of a selection ``NAME[k, *]`` (``k`` a whole number); None for any other."""
    node = None if what is None else what.node
    if not isinstance(node, Index) or not isinstance(node.obj, Name) or len(node.args) != 2:
        return None
    row, rest = node.args
    if not isinstance(row, Const) or type(row.value) is not int or not isinstance(rest, Star):
        return None
    return node.obj.name


def pairs(entries: Sequence[Entry], compiled: Callable[[Expression | None], ev.Expr]) -> list[Entry]:
    """``entries`` (a block's compiled steps) with each sleeve-then-discard pair of the kind
    above carried out at once (``compiled``: the compiled form of an expression)."""
    out = list(entries)
    for i in range(len(out) - 1):
        sleeve, discard = out[i][2], out[i + 1][2]
        if not isinstance(sleeve, st.Sleeve) or not isinstance(discard, st.Discard):
            continue
        name = whole_row(discard.what)
        if name is None or not sleeve.ops or any(o.region != name or o.out for o in sleeve.ops):
            continue
        first, second = pair(out[i], out[i + 1], compiled(discard.what), name)
        out[i] = (first, out[i][1], sleeve)
        out[i + 1] = (second, out[i + 1][1], discard)
    return out


def pair(sleeve: Entry, discard: Entry, what: ev.Expr, name: str) -> tuple[Op, Op]:
    """The two ops of a fused pair: the first carries out both steps (or, where a condition
    fails, its own step as compiled), the second nothing after it (else its own step)."""
    sleeve_op, sleeve_number, sleeve_step = sleeve
    discard_op, discard_number, discard_step = discard
    assert isinstance(sleeve_step, st.Sleeve)
    ops = tuple(sleeve_step.ops)
    done: list[Run | None] = [None]  # the run whose second step is already carried out

    def plan_for(run: Run) -> Plan | None:
        layout = run.layout
        if layout.labels or layout.shown:
            return None
        reg = layout.by_name.get(name)
        if reg is None or reg.sleeve is None:
            return None  # the sleeve step's own message
        frame: SleeveFrame = reg.sleeve
        try:
            for o in ops:
                frame = _sleeved(frame, o)
        except Defer:
            return None  # a row not declared or already in: its message
        if frame.kind == "sleeve" and frame.side == "front":
            return None  # a sleeve lying front up may show a card
        try:
            flats = what.sel(run, "discard")
        except EvalError:
            return None  # the discard's own message, at its step
        if not flats:
            return None
        plan = bottom_row(layout, flats)
        if plan is None or name in plan.layout.by_name or plan.layout.shown:
            return None  # not the region's last cards, or a case of the general builder
        return plan

    def carry_out(run: Run, plan: Plan) -> None:
        runner = run.runner
        runner.current = discard_number  # as the discard's own step would report a problem
        try:
            apply_plan(run, discard_step, plan)
        finally:
            runner.current = sleeve_number

    def first(run: Run) -> None:
        done[0] = None
        plan = plan_for(run)
        if plan is None:
            sleeve_op(run)
            return
        if ev.CHECKED:
            check(run, plan)
        # The table between the two steps, never made, has this one's shape (the sleeve step
        # changes no region's rows or columns): the table space the run needs counts it, as
        # after_step would have after the sleeve step (this table may never have been noted:
        # the run's first table, never noted by a step).
        note_shape(run.shared, run.layout)
        carry_out(run, plan)
        done[0] = run

    def second(run: Run) -> None:
        if done[0] is run:
            done[0] = None
            return
        discard_op(run)

    def check(run: Run, plan: Plan) -> None:
        """Both steps one after the other, as compiled, then the table put back."""
        saved = (run.layout, list(run.cells), run.out, run.env, run.meters, run.view)
        runner = run.runner
        try:
            sleeve_op(run)
            runner.current = discard_number
            discard_op(run)
        except Exception as exc:  # at once they would have gone through
            raise ev.Mismatch(
                f"steps {sleeve_number} and {discard_number} go through at once, not one by one: {exc}"
            ) from exc
        runner.current = sleeve_number
        want = _table(run)
        run.layout, run.cells, run.out, run.env, run.meters, run.view = saved
        carry_out(run, plan)
        got = _table(run)
        run.layout, run.cells, run.out, run.env, run.meters, run.view = saved
        run.cells = list(saved[1])
        if got != want:
            raise ev.Mismatch(f"steps {sleeve_number} and {discard_number} at once: {got} is not {want}")

    return first, second


def _table(run: Run) -> tuple[Any, ...]:
    return (run.layout, list(run.cells), run.out, run.env, run.meters, run.view)
