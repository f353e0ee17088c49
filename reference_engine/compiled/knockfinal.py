"""The knockout lottery's last step (``5``) as one operation.

A knockout lottery (``knockout-lottery``) ends with one block: ``move V: P[2, alive[1]]``,
``turn V``, ``if V[1] == up: move sel: P[1, alive[1]]``, ``discard V``. As steps it costs, at
every call of the lottery, a key made and looked up for each move's arguments and plan, the
turn's places and the condition, and a block run for the block and the branch. Here
(:class:`Final`) it is one function of the layout, ``alive[1]`` and the one card turned: the
plans of both moves and the discard are those of the steps' own resolvers and builders
(:func:`~.ops.make_plan`), kept by layout and ``alive[1]`` (a lottery's layout at its end
follows from its number of candidates and who won, so a game meets few), applied as the steps
apply them (:func:`~.base.apply_plan`, :func:`~.discards.apply`); the same views (the turned
card, the condition, a discard of a face-down card), the same counters, the same steps counted
and layouts noted as ``run_block`` counts and notes them, and the step number a message would
name left as it would be. Nothing is drawn.

When it applies. Statically (:func:`final`): the block is the lottery's, node for node (the
prose aside), compiled as four plain steps. At each run, before anything is done: the budget and
the limit of steps cannot be reached within its five steps; no limit on the supply is in force;
``alive`` a non-empty tuple whose first item is a whole number; ``P``, ``V``, ``sel`` and ``up``
no variables, ``up`` a symbol of the frame; per layout and ``alive[1]`` (kept, with the frame
and the sleeves given for ``V`` and ``sel``, which the plans read): no labels and no sleeve
showing a card on any of the tables met, ``P`` two rows of single cards, no hand, with a card in
both places of column ``alive[1]``, no region ``V``, ``sel`` or ``up``, ``V`` one card after the
move. The card moved to ``V`` must lie face down (the turn shows it): else the rest of the block
runs as compiled, from the turn on, as ``run_block`` would run it. Anything else: the block as
compiled, every error and observation its steps'. With ``ev.CHECKED`` every run is carried out
both ways from the same table and generator and must end the same
(:func:`~.segments._snapshot`).

Measured (valgrind, the bench's card-level UNO turns, hash seed 0, with the call's rows kept per
layout, :mod:`.callrows`, before and after): the first 1,017 turns 4,742.5 M instructions before,
4,716.2 M after (-0.55 %); the next 1,007 turns 3,876.4 M before, 3,854.6 M after (-0.56 %).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import steps as st
from ..cards import SYMBOLS, Symbol
from ..expressions import EvalError
from ..machine.actions import layout as lay
from ..machine.frontier import _BUDGET
from ..machine.runner import MAX_RUN_STEPS
from ..table import SLEEVES, Layout
from . import discards
from . import evaluate as ev
from . import plans as fp
from .base import apply_plan, fail
from .knockout import _e, _shape, _sig
from .knockround import _apply, _checks
from .run import Run

STEPS = 5
"""The most steps the block counts: the move, the turn, the condition, the move in its branch, the discard."""

KEPT = 1024
"""Layouts (with ``alive[1]``) a block keeps what it made of; it starts afresh beyond."""

_SIG: dict[str, Any] = {}


def _canonical() -> Any:
    """The signatures of the lottery's Step 5 (see :func:`~.knockout._sig`)."""
    if "final" not in _SIG:
        _SIG["final"] = (
            ("move", None, (("V", None, _e("P[2, alive[1]]")),)),
            ("turn", None, _e("V")),
            ("if", None, _e("V[1] == up"), (("move", None, (("sel", None, _e("P[1, alive[1]]")),)),), ()),
            ("discard", None, _e("V")),
        )
    return _SIG["final"]


def _signature(step: st.Step) -> Any:
    """:func:`~.knockout._sig`, with an ``if`` (its condition, both branches)."""
    if isinstance(step, st.If):
        if step.labels or step.cond is None:
            return None
        return (
            "if",
            step.number,
            _shape(step.cond.node),
            tuple(_sig(s) for s in step.then),
            tuple(_sig(s) for s in step.other),
        )
    return _sig(step)


def final(
    step: st.Do, body: Any, run_block: Callable[..., None], make_plan: Callable[..., Any]
) -> Final | None:
    """The block ``body`` (``step``'s, compiled) as a :class:`Final` where it is the lottery's
    Step 5 (see the module docs), else None."""
    if step.labels or len(step.body) != 4 or len(body) != 4:
        return None
    if any(body[i][2] is not step.body[i] for i in range(4)):
        return None
    if tuple(_signature(s) for s in step.body) != _canonical():
        return None
    return Final(step, body, run_block, make_plan)


def do_op(
    step: st.Do, body: Any, run_block: Callable[..., None], make_plan: Callable[..., Any]
) -> Callable[[Run], None]:
    """The op of a ``do`` block run by ``run_block`` (looked up at each run: see
    ``bench/card_steps.py``): the lottery's Step 5 as a :class:`Final`, any other block its
    steps run by ``run_block``."""
    last = final(step, body, run_block, make_plan)
    return last.run if last is not None else lambda run: run_block(run, body)


class Final:
    """The lottery's Step 5 (see the module docs): ``run(run)`` does what ``run_block(run,
    body)`` does."""

    __slots__ = ("body", "hits", "kept", "make_plan", "run_block", "sel", "then_no")

    def __init__(self, step: st.Do, body: Any, run_block: Callable[..., None], make_plan: Callable[..., Any]):
        self.body = body
        cond = step.body[2]
        assert isinstance(cond, st.If)
        self.sel = cond.then[0]
        self.then_no = self.sel.number or body[2][1]  # as Compiler.block numbers the branch's step
        self.run_block = run_block
        self.make_plan = make_plan
        # (layout, alive[1]) -> [frame, the move's plan, V's place after it, the plan of the move
        # of the branch (None until met), the discard on each table it can meet, the sleeves
        # given for V and sel], or False (kept by layout and alive[1] alone: a frame or sleeves
        # other than those an entry was made for make it afresh)
        self.kept: dict[tuple[Layout, int], Any] = {}
        self.hits = 0  # runs carried out directly (the tests count them)

    def run(self, run: Run) -> None:
        if ev.CHECKED:
            self._checked(run)
        elif not self._direct(run):
            self.run_block(run, self.body)

    def _checked(self, run: Run) -> None:
        """Both ways from the same table and generator, compared; the steps' end kept."""
        from .segments import both_ways

        def direct(r: Run) -> None:
            if not self._direct(r):
                self.run_block(r, self.body)

        both_ways(run, direct, lambda r: self.run_block(r, self.body), "a direct lottery end")

    def _direct(self, run: Run) -> bool:
        """The block carried out directly, or False (nothing done) where the module docs'
        conditions do not hold."""
        shared = run.shared
        left = _BUDGET.get()
        runner = run.runner
        if (
            not shared.peak_frontier
            or (left is not None and left[0] < STEPS)
            or shared.states_processed - shared.run_start + STEPS >= MAX_RUN_STEPS
            or runner.limits is not None
        ):
            return False
        env = run.vars()
        alive = env.get("alive")
        if type(alive) is not tuple or not alive or type(alive[0]) is not int:
            return False
        if "P" in env or "V" in env or "sel" in env or "up" in env:
            return False
        up = run.frame.globals.names.get("up")
        if type(up) is not Symbol:
            return False
        given = SLEEVES.get()
        sleeves = (given.get("V"), given.get("sel"))  # the new regions' sleeves: part of the plans
        a = alive[0]
        key = (run.layout, a)
        entry = self.kept.get(key)
        if entry is None or (entry is not False and (entry[0] is not run.frame or entry[5] != sleeves)):
            entry = self._entry(run, a, sleeves)
            if len(self.kept) >= KEPT:
                self.kept.clear()
            self.kept[key] = entry
        if entry is False:
            return False
        _, plan, v, _, gone, _ = entry
        body = self.body
        # move V: P[2, alive[1]]
        runner.current = body[0][1]
        apply_plan(run, body[0][2], plan)
        _checks(run, body[0][2])
        cells = run.cells
        c = cells[v]
        if c < 0 or c & 1:  # an empty place, or a card face up: the turn's own way
            self.run_block(run, body[1:])
            return True
        # turn V
        runner.current = body[1][1]
        c ^= 1
        cells[v] = c
        run.view = run.views.extend(run.view, ("turn", (c,)))
        run.meters = run.meters.add_turn()
        _checks(run, body[1][2])
        # if V[1] == up: move sel: P[1, alive[1]]
        runner.current = body[2][1]
        found = SYMBOLS.by_id(c >> 1) == up
        run.view = run.views.extend(run.view, ("if", found))
        if found:
            runner.current = self.then_no
            sel = entry[3]
            if sel is None:
                sel = entry[3] = self._plan(run, self.sel, lay._move_resolve, lay._move_build, fp.build_move)
            apply_plan(run, self.sel, sel)
            _checks(run, self.sel)
        _checks(run, body[2][2])  # the if
        # discard V
        runner.current = body[3][1]
        layout = run.layout
        step = body[3][2]
        at = layout.by_name["V"].offset
        flats = (at,)
        how = gone.get(layout)
        if how is None:
            done = discards.after(layout, flats)
            how = gone[layout] = (done, None if done is not None else self._discard(run, step, flats))
        if how[0] is not None:
            discards.apply(run, how[0], flats)
            _checks(run, step)
        else:
            _apply(run, step, how[1])
        self.hits += 1
        return True

    def _entry(self, run: Run, a: int, sleeves: tuple[Any, Any]) -> Any:
        """What the block needs of the layout and ``alive[1]`` (see :class:`Final`), or False
        where a condition on them does not hold."""
        layout = run.layout
        by = layout.by_name
        if layout.labels or layout.shown or "V" in by or "sel" in by or "up" in by:
            return False
        P = by.get("P")
        if P is None or P.rows != 2 or P.unit != 1 or P.hand is not None or not 1 <= a <= P.cols:
            return False
        top, low = P.offset + a - 1, P.offset + P.cols + a - 1
        if layout.holes and (top in layout.holes or low in layout.holes):
            return False
        step = self.body[0][2]
        try:
            res = lay._move_resolve(run.runner, run.frame, step, run.state(), run.fev)
            plan = self.make_plan(run, step, res, lay._move_build, fp.build_move)
        except EvalError:  # the step's own message, from the steps
            return False
        after = plan.layout
        V = after.by_name.get("V")
        if after.labels or after.shown or V is None or V.size != 1 or V.hand is not None:
            return False
        return [run.frame, plan, V.offset, None, {}, sleeves]

    def _plan(
        self, run: Run, step: st.Step, resolve: Callable[..., Any], build: Callable[..., Any], fast: Any
    ) -> Any:
        """A move's plan as its op makes it (its resolver, :func:`~.ops.make_plan`)."""
        try:
            res = resolve(run.runner, run.frame, step, run.state(), run.fev)
            return self.make_plan(run, step, res, build, fast)
        except EvalError as exc:
            raise fail(run, step, exc) from None

    def _discard(self, run: Run, step: st.Step, flats: tuple[int, ...]) -> Any:
        try:
            return self.make_plan(run, step, flats, lay._discard_build, fp.build_discard)
        except EvalError as exc:
            raise fail(run, step, exc) from None


__all__ = ["Final", "do_op", "final"]
