"""The interpreter: :class:`Runner` carries a frontier of states through a protocol's steps.

Each step kind has one handler, registered with :func:`handles` by the module that implements
it (``actions/``, ``calls.py``) and looked up by :meth:`Runner.block`. Also here: what a run
and its sub-runs share (:class:`Shared`), errors located in the spec, trace recording, the
generic plan-based action (:meth:`Runner._planned`) and the display labels a step may add.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TypeVar

from .. import progress
from .. import steps as st
from ..cards import SYMBOLS, CardJSON, Symbol
from ..errors import Problem, ReductionRefused, RunError, SimulationError, UsageError
from ..expressions import EvalError, Expression, Index, Name, plain
from ..registry import Library
from ..seating import Seats
from ..source import format_path
from ..spec import Params, Protocol
from ..table import SLEEVES, Draft, Layout, State
from ..trace import Event, Snapshot
from .deferred import Deferred, has_placeholders
from .forgetting import MergeDecider, forget
from .frame import Evaluator, Frame, GameFunction, StateScope
from .frontier import Frontier, Needed, _groups, add_vec, spend
from .lazypiles import fill_in, settle
from .plans import (
    Plan,
    Resolved,
    SubResult,
    Watched,
    _flats,
    _index_list,
    _res,
    _target_args,
    check_landings,
    check_shown,
)
from .views import Observation, ViewTable

MAX_RUN_STEPS = 1_000_000
"""Steps one run of a protocol (sample mode: simulate, play) may carry out, its sub-protocols'
included: loops whose range the size estimate could not read stop here (README, "Limits")."""


Outcome = tuple[Fraction, Observation | None, SubResult]
"""One outcome of a sub-protocol: its probability, what the caller sees of it, its result."""


NOBODY_SEATED = Seats()
"""A runner's seats until :meth:`Runner.seat` is called: nobody followed. One instance for every
runner (the value is frozen and made of frozen values; a card-level game makes a runner a turn)."""


@dataclass
class Shared:
    """State shared by a run and all its sub-runs."""

    frames: dict[tuple[Any, ...], Frame] = field(default_factory=dict)
    evaluators: dict[tuple[Any, ...], Evaluator] = field(default_factory=dict)
    plans: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    # Sample mode only: a game's table of layout-only expression values (see Evaluator).
    constants: dict[Any, Any] | None = None
    # A kept law's outcomes renamed as read (:class:`.relabel.Renamed`) or a plain list.
    subruns: dict[tuple[Any, ...], Sequence[Outcome]] = field(default_factory=dict)
    factor_refs: dict[tuple[Any, ...], dict[Any, dict[int, Fraction]]] = field(default_factory=dict)
    no_factor: set[str] = field(default_factory=set)
    factored: dict[str, str] = field(default_factory=dict)
    states_processed: int = 0
    peak_frontier: int = 0
    forgotten: list[str] = field(default_factory=list)
    # When set, every reveal is recorded: (protocol, step) -> the possible observations, each a
    # tuple of (region, row, column, symbol name) for the cards turned face up.
    reveals: dict[tuple[str, str], set[tuple[tuple[str, int, int, str], ...]]] | None = None
    # The largest region any table of the run held, as (rows, columns), sub-protocols included.
    extent: tuple[int, int] = (0, 0)
    layouts_seen: dict[int, Layout] = field(default_factory=dict)
    # Whether any table of the run has held a hand (then exact runs keep hands sorted after
    # every action that may add to one, see frontier.sort_hands).
    hands: bool = False
    # Set (to the callee's name) when a callee's view turned out not to factor: the run stops,
    # every block returning an empty frontier, and must be run again with the callee added to
    # ``no_factor``.
    restart: str | None = None
    # Whether a callee that does not factor may stop the run (an exact verification, which
    # starts again); in a single run or a game the callee's view is simply kept whole.
    restartable: bool = False
    # When the inputs of an exact verification are split over processes: asked at every
    # merge of views (see :func:`~.forgetting.forget`) with what this part knows, it returns the
    # merges decided on all parts together.
    merge_views: MergeDecider | None = None
    # An exact verification's deferred inputs (see :mod:`.deferred`): placeholders are filled in
    # where a step reads them. Dropped once no table of the top-level run holds any.
    deferred: Deferred | None = None
    # ``states_processed`` when the current top-level run started (for MAX_RUN_STEPS).
    run_start: int = 0
    # A verification by validity classes (:mod:`reference_engine.verify.symmetry`): scrambles
    # of whole columns keep one table per orbit, reveals in them are recorded as multisets.
    symmetry: Any = None
    # Sub-runs shared with the other partitions of a verification (see :mod:`.store`).
    store: Any = None


@dataclass
class Ctx:
    """Where the interpreter is: the numbered step and sentence being carried out."""

    number: str | None
    say: st.Template | None
    step: st.Step | None


class Runner:
    """Executes steps over a frontier of states (see the package docs for the two modes)."""

    def __init__(
        self,
        library: Library,
        mode: str,
        *,
        rng: random.Random | None = None,
        events: list[Event] | None = None,
        views: ViewTable | None = None,
        shared: Shared | None = None,
        call_path: list[str] | None = None,
        limits: dict[int, int] | None = None,
        context: dict[str, GameFunction] | None = None,
    ):
        assert mode in ("sample", "exact")
        self.library = library
        self.mode = mode
        self.rng = rng or random.Random(0)
        self.events = events
        self.views = views if views is not None else ViewTable()
        self.shared = shared if shared is not None else Shared()
        self.call_path = call_path or []
        self.limits = limits
        self.loop_vars: list[str] = []  # names of the loop variables in force (for traces)
        # The last table snapshotted for a trace (see :meth:`snapshot`).
        self._snapped: tuple[Layout, tuple[int, ...], tuple[tuple[int, int], ...], Snapshot] | None = None
        self._rows: dict[tuple[int, ...], list[CardJSON | None]] = {}  # the rows snapshotted
        self.context = context or {}  # functions a game supplies to the protocols it runs
        # Forget view prefixes that provably carry no information (top-level exact runs only:
        # the check needs every input of the verification in the frontier).
        self.forget_views = False
        # The hands whose holders' views this run follows (top level only): what comes into
        # them joins the view (see plans.seen_in_hands). A verification follows one person at a
        # time (see verify.exact), a single run every person (see simulate). ``seats`` says who
        # holds this protocol's hands (a callee's: from its call, see reference_engine.seating).
        self.watched: Watched = {}
        self.current: str | None = None  # the numbered step being carried out (for messages)
        self.seats = NOBODY_SEATED

    def seat(self, seats: Seats) -> None:
        """Follow the people ``seats`` says into this protocol's hands (see :mod:`..seating`)."""
        self.seats = seats
        self.watched = seats.watching()

    # -- entry points ---------------------------------------------------------------
    def frame(self, proto: Protocol, params: Params) -> Frame:
        key = (proto.name, tuple(sorted(params.items())))
        f = self.shared.frames.get(key)
        if f is None:
            f = Frame(proto, params, self.context)
            self.shared.frames[key] = f
        return f

    def frame_for(self, callee: Protocol, given: dict[str, int], ctx: Ctx) -> Frame:
        """The callee bound to the parameters a call gives (defaults for the rest)."""
        key = ("frame-for", callee.name, tuple(sorted(given.items())))
        f = self.shared.frames.get(key)
        if f is None:
            try:
                resolved = callee.resolve_params(given)
            except UsageError as exc:  # the caller's spec is wrong: located at its call step
                raise EvalError(
                    f"the call to {callee.name}: {exc.format_message().removeprefix(callee.name + ': ')}"
                ) from None
            f = self.frame(callee, resolved)
            self.shared.frames[key] = f
        return f

    def evaluator(self, frame: Frame) -> Evaluator:
        ev = self.shared.evaluators.get(frame.key)
        if ev is None:
            ev = Evaluator(frame, single=self.mode == "sample", constants=self.shared.constants)
            self.shared.evaluators[frame.key] = ev
        return ev

    def run(self, frame: Frame, frontier: Frontier, drawn_at_end: Needed | None = None) -> Frontier:
        """Carry ``frontier`` through the protocol; at the end the lazily scrambled piles that
        ``drawn_at_end`` names are drawn (default: all of them)."""
        if not self.call_path:
            self.shared.run_start = self.shared.states_processed
        token = SLEEVES.set(frame.proto.sleeves)  # a region made with a declared name lies in sleeves
        try:
            final = self.block(frame, frame.proto.steps, frontier, Ctx(None, None, None), top=True)
        finally:
            SLEEVES.reset(token)
        if self.shared.deferred is not None:
            final = fill_in(final, lambda state: None, self.shared.deferred)
        return settle(final, drawn_at_end or (lambda state: None))

    def block(
        self, frame: Frame, steps: list[st.Step], frontier: Frontier, ctx: Ctx, top: bool = False
    ) -> Frontier:
        shared = self.shared
        for step in steps:
            if not frontier or shared.restart is not None:
                break
            inner = ctx
            if step.number is not None or step.say is not None:
                inner = Ctx(step.number or ctx.number, step.say or ctx.say, step)
            elif ctx.step is None:
                inner = Ctx(ctx.number, ctx.say, step)
            self.current = inner.number
            handler = HANDLERS.get(type(step))
            if handler is None:
                raise self.fail(frame, step, f"no handler for the step kind {step.kind!r}")
            try:
                frontier = handler(self, frame, step, frontier, inner)
            except ReductionRefused as exc:
                where = self.fail(frame, step, exc.reason).problem
                raise (exc.located(where) if where is not None else exc) from None
            if shared.restart is not None:
                break
            for state in frontier:
                if state.layout.shown:
                    try:
                        check_shown(state)
                    except EvalError as exc:
                        raise self.fail(frame, step, str(exc)) from None
            _note_extent(shared, frontier)
            if step.labels:
                frontier = _apply_labels(self, frame, step, frontier, inner)
            shared.states_processed += len(frontier)
            shared.peak_frontier = max(shared.peak_frontier, len(frontier))
            spend(len(frontier))  # an exploration's budget (frontier.budget), if one is in force
            if self.mode == "sample" and shared.states_processed - shared.run_start > MAX_RUN_STEPS:
                raise RunError(
                    f"{frame.proto.name} carried out more than {MAX_RUN_STEPS:,} steps in one run "
                    f"(at step {inner.number or '?'}); a loop's range is probably far too large"
                )
            if top and not self.call_path and self.mode == "exact" and progress.active():
                progress.report(
                    f"verifying {frame.proto.name}",
                    steps.index(step) + 1,
                    len(steps),
                    f"step {step.number or '?'}, {len(frontier):,} table states",
                )
            if top and self.forget_views and self.mode == "exact":
                frontier = forget(self.views, self.shared.merge_views, self.shared.forgotten, frontier, step)
            if (
                top
                and not self.call_path
                and shared.deferred is not None
                and not any(has_placeholders(s) for s in frontier)
            ):
                shared.deferred = None  # every input is filled in: no more placeholders to look for
        return {} if shared.restart is not None else frontier

    # -- errors and trace -----------------------------------------------------------
    def fail(self, frame: Frame, step: st.Step | None, message: str) -> SimulationError:
        proto = frame.proto
        number = step.number if step is not None and step.number else self.current
        where = f"step {number}: " if number else ""
        path = step.path if step is not None else ()
        problem = Problem(proto.file, proto.src.line(path), format_path(path), f"{where}{message}")
        return SimulationError(message, problem)

    def say(self, frame: Frame, ctx: Ctx, state: State) -> str:
        if ctx.say is None:
            return ""
        out = []
        scope = StateScope(frame, state, public=True)
        for part in ctx.say.parts:
            if isinstance(part, str):
                out.append(part)
            else:
                try:
                    v = plain(part(scope))
                except EvalError as exc:
                    raise self.fail(frame, ctx.step, f"in the sentence: {exc}") from None
                out.append(v.glyph if isinstance(v, Symbol) else str(v))
        return "".join(out)

    def record(
        self, frame: Frame, ctx: Ctx, action: str, detail: dict[str, Any], before: State, after: State
    ) -> None:
        if self.events is None:
            return
        env = dict(before.env)
        loop = {k: _jsonable(env[k]) for k in self.loop_vars if k in env}
        self.events.append(
            Event(
                index=len(self.events),
                protocol=frame.proto.name,
                call_path=list(self.call_path),
                step=ctx.number,
                say=self.say(frame, ctx, before),
                action=action,
                detail=detail,
                before=self.snapshot(before),
                after=self.snapshot(after),
                loop=loop,
            )
        )

    def snapshot(self, state: State) -> Snapshot:
        """``Snapshot.of(state)``, the same object as the last one when the table is the same
        (one action's table after is the next one's before): a snapshot is plain data nothing
        changes, made from the layout, the cells and the supply alone."""
        last = self._snapped
        if last is not None and last[0] is state.layout and last[1] == state.cells and last[2] == state.out:
            return last[3]
        snap = Snapshot.of(state, self._rows)
        self._snapped = (state.layout, state.cells, state.out, snap)
        return snap

    def check_limits(self, frame: Frame, step: st.Step, state: State) -> None:
        if self.limits is None:
            return
        for sid, n in state.meters.peak:
            limit = self.limits.get(sid, 0)
            if n > limit:
                name = SYMBOLS.by_id(sid).name
                raise self.fail(
                    frame,
                    step,
                    f"the supply has no more {SYMBOLS.by_id(sid).glyph}: {n} are needed at once but "
                    f"'helpers' declares {name}: {limit}",
                )

    # -- generic draft-based action ------------------------------------------------
    def _planned(
        self,
        frame: Frame,
        step: S,
        frontier: Frontier,
        ctx: Ctx,
        resolve: Resolve[S],
        build: Build[S],
        action: str,
    ) -> Frontier:
        """Carry ``frontier`` through a layout-changing action. ``resolve`` says, hashably, what
        the action does in one state; ``build`` compiles that into a :class:`Plan` for a layout
        (cached per step, layout and description). A group of states whose description reads
        no card shares one plan."""
        ev = self.evaluator(frame)
        out: Frontier = {}
        owned: set[int] = set()
        for group in _groups(frontier):
            shared_plan = None
            if self.events is None:
                ev.touched = False
                plan = self._plan(frame, step, group[0][0], ev, resolve, build)
                if not ev.touched:
                    shared_plan = plan
            if any(s.lazy for s, _ in group) or self.shared.deferred is not None:

                def lost(state: State, plan: Plan | None = shared_plan) -> frozenset[int]:
                    return (plan or self._plan(frame, step, state, ev, resolve, build)).lost(
                        state.layout.size
                    )

                group = list(settle(dict(group), lost, self.shared.deferred).items())
            for state, vec in group:
                plan = shared_plan or self._plan(frame, step, state, ev, resolve, build)
                new = plan.apply(state, self.views, self.watched)
                if state.layout.inside:
                    try:
                        check_landings(plan, state, new)
                    except EvalError as exc:
                        raise self.fail(frame, step, str(exc)) from None
                if plan.delta or plan.returned:
                    self.check_limits(frame, step, new)
                if self.events is not None:
                    self.record(frame, ctx, action, plan.detail(), state, new)
                add_vec(out, new, vec, owned)
        return out

    def _plan(
        self, frame: Frame, step: S, state: State, ev: Evaluator, resolve: Resolve[S], build: Build[S]
    ) -> Plan:
        try:
            res = resolve(self, frame, step, state, ev)
            key = (id(step), state.layout, res)
            plan: Plan | None = self.shared.plans.get(key)
            if plan is None:
                plan = build(self, frame, step, state.layout, res)
                self.shared.plans[key] = plan
            return plan
        except EvalError as exc:
            raise self.fail(frame, step, str(exc)) from None

    # -- targets --------------------------------------------------------------------
    def resolve_target(self, frame: Frame, target: st.Target, state: State, ev: Evaluator) -> Resolved:
        if target.name is not None:
            return ("name", target.name)
        assert target.expr is not None
        node = target.expr.node
        if (
            isinstance(node, Index)
            and isinstance(node.obj, Name)
            and len(node.args) == 2
            and node.obj.name in state.layout.by_name
        ):
            args = _target_args(target)
            reg = state.layout.by_name[node.obj.name]
            rows = _index_list(ev.public(args[0], state), None)
            cols = _index_list(ev.public(args[1], state), reg.cols) or []
            if rows is None:
                rows = list(range(1, reg.rows + 1))
            return ("grid", reg.name, tuple(rows), tuple(cols))
        value = ev.public(target.expr, state)
        if isinstance(value, str):
            return ("name", value)
        return ("S", _flats(_res(value, target.text), target.text))


# --------------------------------------------------------------------------- dispatch

S = TypeVar("S", bound=st.Step)
Handler = Callable[[Runner, Frame, S, Frontier, Ctx], Frontier]
"""Carries a frontier through one step of kind ``S``."""
Resolve = Callable[[Runner, Frame, S, State, Evaluator], Resolved]
"""What a plan-based action needs to know of one state (hashable; see :meth:`Runner._planned`)."""
Build = Callable[[Runner, Frame, S, Layout, Resolved], Plan]
"""The plan of a plan-based action for one layout and one resolved description."""

HANDLERS: dict[type[st.Step], Handler[Any]] = {}
"""Step class -> its handler (filled by :func:`handles` when the package is imported)."""


def handles(kind: type[S]) -> Callable[[Handler[S]], Handler[S]]:
    """Register the decorated function as the handler of the steps of class ``kind``."""

    def register(handler: Handler[S]) -> Handler[S]:
        if HANDLERS.get(kind, handler) is not handler:
            raise TypeError(f"two handlers for the step kind {kind.__name__}")
        HANDLERS[kind] = handler
        return handler

    return register


# --------------------------------------------------------------------------- helpers


def _jsonable(v: Any) -> Any:
    if isinstance(v, Symbol):
        return v.name
    if isinstance(v, tuple):
        return [_jsonable(x) for x in v]
    return v


def _touching(run: Runner, frame: Frame, step: st.Step, *exprs: Expression | None) -> Needed:
    """state -> the slots that ``exprs`` select there (to settle lazy piles first)."""
    ev = run.evaluator(frame)

    def needed(state: State) -> frozenset[int]:
        out: set[int] = set()
        try:
            for e in exprs:
                if e is not None:
                    out.update(_flats(_res(ev.public(e, state), step.kind), step.kind))
        except EvalError as exc:
            raise run.fail(frame, step, str(exc)) from None
        return frozenset(out)

    return needed


def _note_extent(shared: Shared, frontier: Frontier) -> None:
    """Keep in ``shared.extent`` the largest region any table of the run has held (most cards,
    then widest): every state the run reaches is reachable, so this is the table space needed."""
    seen = shared.layouts_seen
    for state in frontier:
        layout = state.layout
        if id(layout) in seen:
            continue
        seen[id(layout)] = layout  # keep it alive so its id stays unique
        for reg in layout.regions:
            if reg.hand is not None:
                shared.hands = True
            e = (reg.rows, reg.cols)
            if (e[0] * e[1], e[1]) > (shared.extent[0] * shared.extent[1], shared.extent[1]):
                shared.extent = e


# --------------------------------------------------------------------------- labels


def _labels_resolve(run: Runner, frame: Frame, step: st.Step, state: State, ev: Evaluator) -> Resolved:
    return tuple((_flats(_res(ev.public(e, state), "labels"), "labels"), text) for e, text in step.labels)


def _labels_build(run: Runner, frame: Frame, step: st.Step, layout: Layout, res: Resolved) -> Plan:
    d = Draft.of(layout)
    for flats, text in res:
        d.label(text, [d.locate(f) for f in flats])
    layout2, src, consts = d.finish(keep_empty=[r.name for r in layout.regions])
    return Plan(
        layout2,
        src,
        consts,
        {},
        describe=lambda: {"labels": [[t, [layout.describe(f) for f in fl]] for fl, t in res]},
    )


def _apply_labels(run: Runner, frame: Frame, step: st.Step, frontier: Frontier, ctx: Ctx) -> Frontier:
    """Add a step's display labels (no event: they belong to the step's own action)."""
    saved, run.events = run.events, None
    try:
        out = run._planned(frame, step, frontier, ctx, _labels_resolve, _labels_build, "labels")
    finally:
        run.events = saved
    if saved and len(out) == 1:
        saved[-1].after = Snapshot.of(next(iter(out)))
    return out
