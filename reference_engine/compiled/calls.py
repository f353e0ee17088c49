"""Calls of sub-protocols in a compiled run.

As in the interpreter's single run (:mod:`reference_engine.machine.calls`): a callee on at most
:data:`~reference_engine.machine.SMALL_CALL` cards is enumerated exactly once per argument cards
(the interpreter's own cached enumeration, kept up to the faces of the cards it only carries:
:mod:`reference_engine.machine.relabel`) and one outcome is drawn from it with one random
number; a larger one runs step by step, here as its compiled program, and its whole view
becomes one observation of the caller's. What is computed once here: the callee's frame (for a
callee without game functions: it is the same in every run), the thresholds of each
enumeration's draw.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from itertools import chain
from typing import Any

from .. import steps as st
from ..errors import UsageError
from ..expressions import EvalError, as_int
from ..kept import KEPT_PLANS, Kept
from ..machine import SMALL_CALL, Frame, Plan, Runner
from ..machine.actions.sleeving import check_arguments
from ..machine.calls import _call_plan, _inline
from ..machine.frontier import env_set
from ..machine.relabel import small_call, thresholds
from ..machine.subruns import with_shown
from ..meters import out_add
from ..seating import Seats
from ..spec import Protocol
from ..table import Layout, State
from . import evaluate as ev
from . import plans as fp
from .base import Op, Unsupported, fail, gather, same_plan, strip
from .callrows import Rows, Where, kept_rows, lands_up, row_of
from .collect import collect_single
from .run import NO_METERS, Run

_DRAWS: dict[int, tuple[Any, int, list[int]]] = {}
DRAWS_KEPT = 1024
"""Enumerations :func:`_draw` keeps (each holds its outcomes: once the game or law that made
them is gone, nothing else does, and they are never met again; a game meets ~20)."""


def _draw(runner: Runner, outcomes: Sequence[Any]) -> Any:
    """The interpreter's ``_draw`` (one ``randrange`` over the common denominator), with the
    cumulative thresholds of each enumeration computed once."""
    hit = _DRAWS.get(id(outcomes))
    if hit is None or hit[0] is not outcomes:
        lcm, cum = thresholds(outcomes)
        if len(_DRAWS) >= DRAWS_KEPT:
            _DRAWS.clear()
        hit = _DRAWS[id(outcomes)] = (outcomes, lcm, cum)
    _, lcm, cum = hit
    return outcomes[bisect_right(cum, runner.rng.randrange(lcm))]


class _Frames:
    """The frames of a callee by the parameters a call gives (kept when it reads no game function)."""

    def __init__(self, callee: Protocol):
        self.callee = callee
        self.kept: dict[tuple[Any, ...], Frame] = {}

    def get(self, runner: Runner, given: dict[str, int], values: tuple[int, ...]) -> Frame:
        """The frame for ``given``, kept by ``values`` (its values in the call's order of
        parameters: one order per call step, whose frames these are)."""
        frame = self.kept.get(values)
        if frame is not None:
            return frame
        key = tuple(sorted(given.items()))
        shared_key = ("frame-for", self.callee.name, key)
        frame = runner.shared.frames.get(shared_key)
        if frame is None:
            try:
                resolved = self.callee.resolve_params(given)
            except UsageError as exc:  # the caller's spec is wrong: located at its call step
                name = self.callee.name
                raise EvalError(
                    f"the call to {name}: {exc.format_message().removeprefix(name + ': ')}"
                ) from None
            frame = runner.frame(self.callee, resolved)
            runner.shared.frames[shared_key] = frame
        if not self.callee.context and len(self.kept) < 1_000:
            self.kept[values] = frame
        return frame


def compile_call(c: Any, step: st.Call, number: str | None) -> Op:
    program = c.callee(step.protocol)  # compiled first: a callee that cannot be is refused here
    callee: Protocol = program.protocol
    card_outputs = [o for o in callee.outputs.values() if o.cards is not None]
    value_outputs = [o for o in callee.outputs.values() if o.cards is None]
    names = []
    for o in value_outputs:
        t = step.results.get(o.name)
        names.append(t.name if t is not None else None)
    params = [(k, c.e(e)) for k, e in step.params.items()]
    param_names = [k for k, _ in params]
    missing = [n for n in callee.inputs if n not in step.args] + [
        o.name for o in card_outputs if o.name not in step.results
    ]
    if missing:
        raise Unsupported(f"a call of {callee.name} without {', '.join(missing)}")
    args = [(n, c.e(step.args[n]), f"argument {n}") for n in callee.inputs]
    targets = [step.results[o.name] for o in card_outputs]
    # Targets that are all region names resolve alike in every state (Runner.resolve_target).
    named = tuple(("name", t.name) for t in targets) if all(t.name is not None for t in targets) else None
    frames = _Frames(callee)
    sid = id(step)
    name = callee.name
    mapped = bool(step.hands or step.players)
    seated: dict[Seats, Seats] = {}  # the caller's seats -> the callee's (see seating.Seats.into)
    sizes: dict[tuple[int, str], tuple[Frame, int]] = {}  # (frame, input) -> its number of cards

    def size(sub: Frame, n: str) -> int:
        """``sub.input_size(n)``, kept per frame (it depends on the frame's parameters alone)."""
        hit = sizes.get((id(sub), n))
        if hit is None or hit[0] is not sub:
            if len(sizes) >= 1_000:
                sizes.clear()
            hit = sizes[(id(sub), n)] = (sub, sub.input_size(n))
        return hit[1]

    # The call's plans by layout, kept while met again (kept.py: on a card-level game's full
    # table, the arguments' columns are random and never met again), for a call whose plan is
    # not placed by rows: whole rows in, new regions out (Step 10's lottery) is kept per form
    # (callrows.py: one plan serves every layout of the form, whatever the hands' sizes).
    planned: Kept[Plan] = Kept(KEPT_PLANS)
    forms: dict[tuple[Any, ...], Rows | None] = {}

    def seats_of(run: Run) -> Seats | None:
        """Who holds the callee's hands, when the call says (None: as nobody is followed in a
        compiled run, a call without a mapping seats nobody)."""
        if not mapped:
            return None  # the callee's hands get no holders from this call: nothing to check
        mine = run.runner.seats
        got = seated.get(mine)
        if got is None:
            src = run.frame.proto.src
            where = f"the call to {name} at {src.problem(step.path + ('call',), '')}".rstrip(": ")
            got = seated[mine] = mine.into(step, callee, where)
        return got

    def op(run: Run) -> None:
        runner = run.runner
        layout = run.layout
        try:
            values = tuple([as_int(e.value(run)) for _, e in params])
            sub = frames.kept.get(values)  # kept by the values alone (_Frames.get)
            if sub is None:
                sub = frames.get(runner, dict(zip(param_names, values)), values)
            arg_flats = []
            where: list[Where] | None = []
            for n, e, what in args:
                flats = e.sel(run, what)
                need = size(sub, n)
                if len(flats) != need:
                    raise EvalError(f"{name} needs {need} cards for {n}, the call gives {len(flats)}")
                if layout.holes:
                    for f in flats:
                        if f in layout.holes:
                            raise EvalError(f"argument slot {layout.describe(f)} is empty")
                row = row_of(layout, flats) if where is not None else None
                if row is None:
                    where = None
                else:
                    where.append(row)  # type: ignore[union-attr]
                if (
                    layout.sleeved
                    and not layout.inside.isdisjoint(flats)
                    and (row is None or lands_up(layout, row))  # the checker's own message
                ):
                    check_arguments(layout, flats, n)
                arg_flats.append(flats)
            if named is not None:
                resolved = named
            else:
                state = run.state()
                resolved = tuple(runner.resolve_target(run.frame, t, state, run.fev) for t in targets)
        except EvalError as exc:
            raise fail(run, step, exc) from None
        cells0 = run.cells
        if where is not None:  # whole rows: slices of the cells
            codes = tuple(tuple(cells0[fl[0] : fl[0] + len(fl)]) for fl in arg_flats)
        else:
            codes = tuple(tuple([cells0[f] for f in fl]) for fl in arg_flats)
        handed = sum(map(len, arg_flats))
        seats = seats_of(run)
        if handed <= SMALL_CALL:
            outcomes, drawn = small_call(runner, sub, codes, seats, ev.CHECKED)
            if drawn is None:
                _, obs, res = _draw(runner, outcomes)
            else:  # one randrange over the common denominator, as _draw: thresholds kept per law
                _, obs, res = outcomes[bisect_right(drawn[1], runner.rng.randrange(drawn[0]))]
        else:
            obs, res = inline(runner, program, sub, codes, seats)
        consts = tuple(x for _, cs in res.cards for x in cs)
        rows = None if where is None else kept_rows(forms, layout, where, arg_flats, resolved, res)
        if rows is not None:
            after, run.cells = rows.apply(layout, cells0, consts)
            if ev.CHECKED:
                ref = _plan(run, step, arg_flats, resolved, res, name)
                if ref.layout is not after or gather(cells0, ref, consts) != run.cells:
                    raise ev.Mismatch(
                        f"step {step.number or step.kind}: the call's plan by rows is not the reference"
                    )
        else:
            key = ("call", sid, layout, tuple(arg_flats), resolved, tuple(shape for shape, _ in res.cards))
            plan = planned.get(key)
            if plan is None:
                plan = planned.put(key, _plan(run, step, arg_flats, resolved, res, name))
            run.cells = gather(cells0, plan, consts)
            after = plan.layout
        env = run.env
        for target, v in zip(names, res.values):
            if target is not None:
                env = env_set(env, target, v)
        run.env = env
        # The interpreter's _absorb without its cache: a caller's counters differ at nearly every
        # call of a game (none was met again in 20 whole games), so keying them cost more than this.
        out0 = run.out
        run.out = out = out_add(out0, dict(res.delta)) if res.delta else out0
        run.meters = run.meters.absorb(res.meters, out0, name, handed).note_out(out)
        if obs is not None:
            run.view = run.views.extend(run.view, obs)
        run.layout = after
        if runner.limits is not None:
            runner.check_limits(run.frame, step, run.state())

    return op


def _plan(
    run: Run, step: st.Call, arg_flats: list[tuple[int, ...]], targets: Any, res: Any, callee: str
) -> Plan:
    try:
        plan = fp.build_call(run.layout, arg_flats, targets, [(shape, len(cs)) for shape, cs in res.cards])
    except fp.Defer:
        pass
    except EvalError as exc:  # a result's region its sleeves refuse: the interpreter names the step
        raise fail(run, step, exc) from None
    else:
        if ev.CHECKED:
            same_plan(step, plan, strip(_call_plan(run.layout, arg_flats, targets, res, callee)))
        return plan
    try:
        return strip(_call_plan(run.layout, arg_flats, targets, res, callee))
    except EvalError as exc:
        raise fail(run, step, exc) from None


_STARTS: dict[tuple[int, tuple[int, ...]], tuple[Frame, Layout]] = {}
STARTS_KEPT = 256
"""A callee's starting layouts :func:`start` keeps (by its frame and its inputs' sizes: a game
meets a few, one per number of candidates)."""


def start(sub: Frame, codes: tuple[tuple[int, ...], ...]) -> State:
    """``sub.state_from_codes(codes)``, its layout (a function of the frame and the inputs'
    sizes) kept."""
    sizes = tuple(map(len, codes))
    hit = _STARTS.get((id(sub), sizes))
    if hit is None or hit[0] is not sub:
        first = sub.state_from_codes(codes)
        if len(_STARTS) >= STARTS_KEPT:
            _STARTS.clear()
        _STARTS[(id(sub), sizes)] = (sub, first.layout)
        return first
    got = State(hit[1], tuple(chain.from_iterable(codes)), (), (), NO_METERS, 0)  # no counters yet
    if ev.CHECKED and got != sub.state_from_codes(codes):
        raise ev.Mismatch(f"the start of {sub.proto.name}: {got} is not the reference")
    return got


def inline(
    runner: Runner, program: Any, sub: Frame, codes: tuple[tuple[int, ...], ...], seats: Seats | None = None
) -> tuple[Any, Any]:
    """A callee too large to enumerate, run step by step (the interpreter's ``_inline``)."""
    if seats is not None and seats.watched:  # a run that follows people: the interpreter's
        ((_, obs, res),) = _inline(runner, sub, codes, seats)
        return obs, res
    child = Runner(
        runner.library,
        "sample",
        context=runner.context,
        rng=runner.rng,
        views=runner.views,
        shared=runner.shared,
        call_path=runner.call_path + [sub.proto.name],
    )
    if seats is not None:
        child.seat(seats)
    state = program.run(child, sub, start(sub, codes))
    res = collect_single(child, sub, state)  # collect's one result: see collect.py
    return ("call", sub.proto.name, with_shown(runner.views, state.view, res)), res
