"""Sub-protocol calls.

In exact mode a callee runs once per distinct argument cards (cached in ``Shared.subruns``)
and its view is factored out of the caller's when that is provably lossless
(:func:`.subruns._factor`). When it is not, ``Shared.restart`` is set and the whole run stops,
to be run again with the callee inlined. In sample mode a small callee is enumerated exactly and one
outcome drawn from it (its enumeration kept up to the faces of the cards it only carries, see
:mod:`.relabel`); a larger one (or any, when a trace is recorded) runs step by step.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from .. import steps as st
from ..expressions import EvalError, as_int
from ..kept import Kept
from ..meters import Meters, out_add
from ..seating import Seats
from ..table import Draft, Layout, State, gather
from .actions.sleeving import check_arguments
from .frame import Evaluator, Frame
from .frontier import (
    ONE,
    Frontier,
    _groups,
    _scale,
    add_vec,
    env_set,
    sort_hands,
)
from .lazypiles import settle
from .plans import Plan, Resolved, SubResult, _flats, _res, _target_coords, seen_in_hands
from .relabel import small_outcomes
from .runner import Ctx, Outcome, Runner, _jsonable, handles
from .subruns import _sub_outcomes as _sub_outcomes  # re-exported: tests call it by this path
from .subruns import collect, with_shown

SMALL_CALL = 8  # callees on at most this many cards are run exactly once per argument, then sampled

CallSetup = tuple[Frame, dict[str, int], list[tuple[int, ...]], tuple[Resolved, ...]]
"""A call resolved in one state: the callee's frame, its parameters, the argument slots and
the targets of its card outputs."""


def _call_setup(run: Runner, frame: Frame, step: st.Call, state: State, ev: Evaluator, ctx: Ctx) -> CallSetup:
    callee = run.library.protocol(step.protocol)
    card_outputs = [o for o in callee.outputs.values() if o.cards is not None]
    try:
        params = {k: as_int(ev.value(e, state)) for k, e in step.params.items()}
        sub = run.frame_for(callee, params, ctx)
        arg_flats = []
        for name in callee.inputs:
            flats = _flats(_res(ev.public(step.args[name], state), f"argument {name}"), f"argument {name}")
            need = sub.input_size(name)
            if len(flats) != need:
                raise EvalError(f"{callee.name} needs {need} cards for {name}, the call gives {len(flats)}")
            for f in flats:
                if f in state.layout.holes:
                    raise EvalError(f"argument slot {state.layout.describe(f)} is empty")
            if state.layout.inside:
                check_arguments(state.layout, flats, name)
            arg_flats.append(flats)
        targets = tuple(run.resolve_target(frame, step.results[o.name], state, ev) for o in card_outputs)
    except EvalError as exc:
        raise run.fail(frame, step, str(exc)) from None
    return sub, params, arg_flats, targets


@handles(st.Call)
def h_call(run: Runner, frame: Frame, step: st.Call, frontier: Frontier, ctx: Ctx) -> Frontier:
    callee = run.library.protocol(step.protocol)
    ev = run.evaluator(frame)
    out: Frontier = {}
    card_outputs = [o for o in callee.outputs.values() if o.cards is not None]
    value_outputs = [o for o in callee.outputs.values() if o.cards is None]
    plans = run.shared.plans

    def touched(setup: CallSetup, state: State) -> frozenset[int]:
        _, _, arg_flats, targets = setup
        out = {f for fl in arg_flats for f in fl}
        for t in targets:
            if t[0] == "S":
                out.update(t[1])
            elif t[0] == "grid":
                reg = state.layout.by_name[t[1]]
                out.update(reg.slot(r, c) for r in t[2] for c in t[3] if r <= reg.rows)
        return frozenset(out)

    owned: set[int] = set()
    where = f"the call to {callee.name} at {frame.proto.src.problem(step.path + ('call',), '')}".rstrip(": ")
    seats = run.seats.into(step, callee, where)
    for group in _groups(frontier):
        shared_setup = None
        if run.events is None:
            ev.touched = False
            setup = _call_setup(run, frame, step, group[0][0], ev, ctx)
            if not ev.touched:
                shared_setup = setup
        if any(st_.lazy for st_, _ in group) or run.shared.deferred is not None:
            if shared_setup is not None:
                need = touched(shared_setup, group[0][0])

                def same(state: State, need: frozenset[int] = need) -> frozenset[int]:
                    return need

                group = list(settle(dict(group), same, run.shared.deferred).items())
            else:

                def each(state: State) -> frozenset[int]:
                    return touched(_call_setup(run, frame, step, state, ev, ctx), state)

                group = list(settle(dict(group), each, run.shared.deferred).items())
        for state, vec in group:
            sub, params, arg_flats, targets = shared_setup or _call_setup(run, frame, step, state, ev, ctx)
            cells0 = state.cells
            codes = tuple(tuple([cells0[f] for f in fl]) for fl in arg_flats)
            if run.events is not None:
                run.record(
                    frame,
                    ctx,
                    "call",
                    {
                        "protocol": callee.name,
                        "params": params,
                        "args": {
                            n: [state.layout.describe(f) for f in fl]
                            for n, fl in zip(callee.inputs, arg_flats)
                        },
                    },
                    state,
                    state,
                )
            if run.mode == "exact":
                block = None
                sym = run.shared.symmetry
                if sym is not None and not run.call_path:  # a verification by classes
                    under = sym.under_scramble(step, state, arg_flats, codes)
                    if under is None:
                        sym.plain_call(step, codes)
                    else:
                        codes, block = under
                outcomes = _sub_outcomes(run, sub, codes, block, seats)
            elif run.events is None and sum(len(c) for c in codes) <= SMALL_CALL:
                outcomes = small_outcomes(run, sub, codes, seats)
                if run.shared.restart is None:
                    outcomes = [_draw(run, outcomes)]
            else:
                outcomes = _inline(run, sub, codes, seats)
            if run.shared.restart is not None:
                return {}  # a callee's view does not factor: the run stops (see Shared.restart)
            sym = run.shared.symmetry
            if sym is not None and not run.call_path and sym.bags(step):
                outcomes = _unordered(outcomes, sym.bags(step))
            for prob, obs, res in outcomes:
                key = (
                    "call",
                    id(step),
                    state.layout,
                    tuple(arg_flats),
                    targets,
                    tuple(shape for shape, _ in res.cards),
                )
                plan: Plan | None = plans.get(key)
                if plan is None:
                    try:
                        plan = _call_plan(state.layout, arg_flats, targets, res, callee.name)
                    except EvalError as exc:
                        raise run.fail(frame, step, str(exc)) from None
                    plans[key] = plan
                consts = tuple(c for _, cs in res.cards for c in cs)
                cells = gather(cells0, plan.src, consts)
                env = state.env
                for o, v in zip(value_outputs, res.values):
                    t = step.results.get(o.name)
                    if t is not None and t.name is not None:
                        env = env_set(env, t.name, v)
                handed = sum(len(fl) for fl in arg_flats)
                o_out, meters = _absorb(plans, state.out, state.meters, res, callee.name, handed)
                view = run.views.extend(state.view, obs) if obs is not None else state.view
                if run.watched:
                    view = seen_in_hands(run.views, view, run.watched, plan.entered(state.layout), cells)
                new = State(plan.layout, cells, o_out, env, meters, view, plan.carry(state.lazy))
                run.check_limits(frame, step, new)
                if run.events is not None:
                    run.record(
                        frame,
                        ctx,
                        "return",
                        {
                            "protocol": callee.name,
                            "results": {o.name: step.results[o.name].text for o in card_outputs},
                            "values": {o.name: _jsonable(v) for o, v in zip(value_outputs, res.values)},
                        },
                        state,
                        new,
                    )
                add_vec(out, new, _scale(vec, prob), owned)
    return sort_hands(out) if run.mode == "exact" and run.shared.hands else out


def _unordered(outcomes: Sequence[Outcome], bags: tuple[int, ...]) -> list[Outcome]:
    """The outcomes with the results at ``bags`` in one order (sorted), merged: the caller only
    uses those results whole, so their order is never seen (a verification by classes checks that,
    see :mod:`reference_engine.verify.symmetry`)."""
    merged: dict[tuple[Any, SubResult], Fraction] = {}
    for prob, obs, res in outcomes:
        cards = tuple(
            ((1, len(codes)), tuple(sorted(codes))) if k in bags else (shape, codes)
            for k, (shape, codes) in enumerate(res.cards)
        )
        key = (obs, SubResult(cards, res.values, res.delta, res.meters, res.shown))
        merged[key] = merged.get(key, Fraction(0)) + prob
    return [(p, obs, res) for (obs, res), p in merged.items()]


def _absorb(
    cache: dict[tuple[Any, ...], Any] | Kept[Any],
    out: tuple[tuple[int, int], ...],
    meters: Meters,
    res: SubResult,
    callee: str,
    handed: int,
) -> tuple[tuple[tuple[int, int], ...], Meters]:
    """Helper usage and counters after a call (memoized: the same few combinations recur)."""
    key = ("absorb", out, meters, res.delta, res.meters, callee, handed)
    hit: tuple[tuple[tuple[int, int], ...], Meters] | None = cache.get(key)
    if hit is None:
        o_out = out_add(out, dict(res.delta))
        hit = (o_out, meters.absorb(res.meters, out, callee, handed).note_out(o_out))
        cache[key] = hit
    return hit


def _call_plan(
    layout: Layout,
    arg_flats: list[tuple[int, ...]],
    targets: tuple[Resolved, ...],
    res: SubResult,
    callee: str,
) -> Plan:
    d = Draft.of(layout)
    for fl in arg_flats:
        d.take_tokens(fl)
    for tres, (shape, codes) in zip(targets, res.cards):
        toks = [d.new_token(0) for _ in codes]
        if toks:
            _target_coords(d, tres, len(toks), shape, toks, f"result of {callee}")
    layout2, src, consts = d.finish()
    return Plan(layout2, src, consts, {})


def _draw(run: Runner, outcomes: Sequence[Outcome]) -> Outcome:
    """One outcome of a callee, drawn from its exact distribution (same law as running it)."""
    lcm = math.lcm(*(p.denominator for p, _, _ in outcomes))
    pick = run.rng.randrange(lcm)
    for p, obs, res in outcomes:
        pick -= int(p * lcm)
        if pick < 0:
            return Fraction(1), obs, res
    raise AssertionError("probabilities do not add up to 1")


def _inline(run: Runner, sub: Frame, codes: tuple[tuple[int, ...], ...], seats: Seats) -> list[Outcome]:
    child = Runner(
        run.library,
        "sample",
        context=run.context,
        rng=run.rng,
        events=run.events,
        views=run.views,
        shared=run.shared,
        call_path=run.call_path + [sub.proto.name],
    )
    child.seat(seats)
    final = child.run(sub, {sub.state_from_codes(codes): ONE})
    if run.shared.restart is not None:
        return []  # a callee further down stopped the run
    (state,) = final
    ((_, res),) = collect(child, sub, state)  # a single run draws its one result
    # In a single run the callee's whole view is kept, so statistics can look inside it.
    return [(Fraction(1), ("call", sub.proto.name, with_shown(run.views, state.view, res)), res)]
