"""Control flow on public values: if, for, let, and do (a block of sub-steps)."""

from __future__ import annotations

from typing import Any

from ... import steps as st
from ...expressions import EvalError, truthy
from ...kept import exact
from ...table import State
from ..frame import Frame
from ..frontier import Frontier, _freeze, _groups, add_vec, env_drop, env_set, with_view
from ..runner import Ctx, Runner, _jsonable, handles


@handles(st.If)
def h_if(run: Runner, frame: Frame, step: st.If, frontier: Frontier, ctx: Ctx) -> Frontier:
    assert step.cond is not None
    ev = run.evaluator(frame)
    yes: Frontier = {}
    no: Frontier = {}
    for state, vec in frontier.items():
        try:
            result = truthy(ev.value(step.cond, state))
        except EvalError as exc:
            raise run.fail(frame, step, str(exc)) from None
        new = with_view(state, run.views.extend(state.view, ("if", result)))
        if run.events is not None:
            run.record(frame, ctx, "if", {"condition": step.cond.text, "result": result}, state, new)
        add_vec(yes if result else no, new, vec)
    out: Frontier = {}
    for branch, steps in ((yes, step.then), (no, step.other)):
        if branch:
            for s, v in run.block(frame, steps, branch, ctx).items():
                add_vec(out, s, v)
    return out


@handles(st.For)
def h_for(run: Runner, frame: Frame, step: st.For, frontier: Frontier, ctx: Ctx) -> Frontier:
    values_expr = step.values
    assert values_expr is not None
    ev = run.evaluator(frame)
    # By the values' exact types too (``[true]`` and ``[1]`` are equal in Python, not in a spec).
    groups: dict[Any, tuple[tuple[Any, ...], Frontier]] = {}

    def values_of(state: State) -> tuple[Any, ...]:
        try:
            values = ev.value(values_expr, state)
            if not isinstance(values, list):
                raise EvalError(f"'for' needs a list of values, got {values!r}")
            return tuple(_freeze(v) for v in values)
        except EvalError as exc:
            raise run.fail(frame, step, str(exc)) from None

    for group in _groups(frontier):
        ev.touched = False
        shared: tuple[Any, ...] | None = values_of(group[0][0])
        if ev.touched:
            shared = None
        for state, vec in group:
            values = shared if shared is not None else values_of(state)
            new = with_view(state, run.views.extend(state.view, ("for", values)))
            if run.events is not None:
                run.record(
                    frame, ctx, "for", {"var": step.var, "values": [_jsonable(v) for v in values]}, state, new
                )
            key = exact(values)
            group_of = groups.get(key)
            if group_of is None:
                group_of = groups[key] = (values, {})
            add_vec(group_of[1], new, vec)
    out: Frontier = {}
    run.loop_vars.append(step.var)
    try:
        for values, members in groups.values():
            current = members
            for v in values:
                current = {s.replace(env=env_set(s.env, step.var, v)): vec for s, vec in current.items()}
                current = run.block(frame, step.body, current, Ctx(ctx.number, ctx.say, step))
            for s, vec in current.items():
                add_vec(out, s.replace(env=env_drop(s.env, step.var)), vec)
    finally:
        run.loop_vars.pop()
    return out


@handles(st.Let)
def h_let(run: Runner, frame: Frame, step: st.Let, frontier: Frontier, ctx: Ctx) -> Frontier:
    ev = run.evaluator(frame)
    out: Frontier = {}
    for state, vec in frontier.items():
        env = state.env
        values = {}
        try:
            for name, expr in step.values.items():
                v = _freeze(ev.value(expr, state))
                values[name] = v
                env = env_set(env, name, v)
        except EvalError as exc:
            raise run.fail(frame, step, str(exc)) from None
        new = state.replace(env=env, view=run.views.extend(state.view, ("let", tuple(values.items()))))
        if run.events is not None:
            run.record(frame, ctx, "let", {k: _jsonable(v) for k, v in values.items()}, state, new)
        add_vec(out, new, vec)
    return out


@handles(st.Do)
def h_do(run: Runner, frame: Frame, step: st.Do, frontier: Frontier, ctx: Ctx) -> Frontier:
    if run.events is not None and step.number is not None:
        for state in frontier:
            run.record(frame, ctx, "note", {}, state, state)
    return run.block(frame, step.body, frontier, ctx)
