"""What every compiled step shares: applying a plan to the run's table, reporting an error at a
step (the interpreter's way), and the plan without display labels."""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter

from .. import steps as st
from ..cards import EMPTY, ROTATIONS, is_up
from ..expressions import EvalError
from ..machine import Plan
from ..machine.plans import check_landed
from ..meters import out_add
from ..table import NEW, Layout
from . import evaluate as ev
from .run import Run

Op = Callable[[Run], None]
"""One compiled step: carries the run's table through it."""


class Unsupported(Exception):
    """A step the compiler cannot compile (the message says which and why)."""


def fail(run: Run, step: st.Step, exc: Exception) -> Exception:
    return run.runner.fail(run.frame, step, str(exc))


# --------------------------------------------------------------------------- plans


def strip(plan: Plan) -> Plan:
    """The plan without display labels (a compiled run draws no trace)."""
    layout = plan.layout
    if layout.labels:
        shapes = [(r.name, r.rows, r.cols, r.unit, r.hand, r.sleeve) for r in layout.regions]
        layout = Layout.make(shapes, layout.holes, ())
    return Plan(layout, plan.src, plan.consts, plan.delta, plan.returned)


def gather(cells: list[int], plan: Plan, consts: tuple[int, ...]) -> list[int]:
    """The cells after ``plan`` (its new cards ``consts``): one C-level gather, its index kept
    on the plan."""
    getter = plan.__dict__.get("_getter")
    n = len(cells)
    if getter is None:
        if plan.__dict__.get("_identity") and not consts:
            return list(cells)  # every card stays where it is (a sleeve turned, rows slid)
        src = plan.src
        if not src or min(src) >= 0:
            idx = list(src)  # every slot keeps an old card: the plan's own index
        else:
            idx = [t if t >= 0 else (n if t == EMPTY else n + 1 + (NEW - t)) for t in src]
        getter = itemgetter(*idx) if len(idx) > 1 else _few(tuple(idx))
        plan.__dict__["_getter"] = getter
    if not consts:
        return list(getter([*cells, EMPTY]))
    return list(getter([*cells, EMPTY, *consts]))


def _few(idx: tuple[int, ...]) -> Callable[[list[int]], tuple[int, ...]]:
    """A gather of no or one slot (``itemgetter`` gives a bare item for one index)."""

    def get(xs: list[int]) -> tuple[int, ...]:
        return tuple(xs[j] for j in idx)

    return get


def apply_plan(run: Run, step: st.Step, plan: Plan) -> None:
    """What :meth:`Plan.apply` and :meth:`Runner._planned` do to the one state of a run."""
    cells = run.cells
    run.cells = gather(cells, plan, plan.consts)
    delta = plan.delta
    if plan.returned:
        delta = dict(delta)
        if ROTATIONS.to:  # what the table sees go back: pieces of the supply (up-down cards: one)
            physical = ROTATIONS.physical
            returned = sorted([physical(cells[f] >> 1) for f in plan.returned])
        else:
            returned = sorted([cells[f] >> 1 for f in plan.returned])
        for sid in returned:
            delta[sid] = delta.get(sid, 0) - 1
        if any(not is_up(cells[f]) for f in plan.returned):
            run.view = run.views.extend(run.view, ("discard", tuple(returned)))
    before = run.layout
    run.layout = plan.layout
    if before.inside:
        check_landings(run, step, plan, before)
    if delta:
        run.out = out_add(run.out, delta)
        run.meters = run.meters.note_out(run.out)
        if run.runner.limits is not None:
            run.runner.check_limits(run.frame, step, run.state())


def check_landings(run: Run, step: st.Step, plan: Plan, before: Layout) -> None:
    """A card slid out of a sleeve lands as it faced (the interpreter's check, its message)."""
    try:
        check_landed(plan, before, run.cells)
    except EvalError as exc:
        raise fail(run, step, exc) from None


def same_plan(step: st.Step, fast: Plan, reference: Plan) -> None:
    mine = (fast.layout, fast.src, fast.consts, fast.delta, fast.returned)
    theirs = (reference.layout, reference.src, reference.consts, reference.delta, reference.returned)
    if mine != theirs:
        raise ev.Mismatch(f"step {step.number or step.kind}: the compiled plan {mine} is not {theirs}")
