"""Turning cards over: what the players see, and (on request) every possible reveal per step."""

from __future__ import annotations

from ... import steps as st
from ...cards import EMPTY, ROTATIONS, Card
from ...expressions import EvalError
from ...table import State
from ..frame import Frame
from ..frontier import Frontier, add_vec
from ..lazypiles import settle
from ..plans import _flats, _res
from ..runner import Ctx, Runner, _touching, handles


@handles(st.Turn)
def h_turn(run: Runner, frame: Frame, step: st.Turn, frontier: Frontier, ctx: Ctx) -> Frontier:
    assert step.what is not None
    ev = run.evaluator(frame)
    out: Frontier = {}
    frontier = settle(frontier, _touching(run, frame, step, step.what), run.shared.deferred)
    for state, vec in frontier.items():
        try:
            flats = _flats(_res(ev.public(step.what, state), "turn"), "turn")
        except EvalError as exc:
            raise run.fail(frame, step, str(exc)) from None
        cells = list(state.cells)
        revealed = []
        where = []
        for f in flats:
            if cells[f] == EMPTY:
                raise run.fail(frame, step, f"turn: {state.layout.describe(f)} is empty")
            cells[f] ^= 1
            if cells[f] & 1:
                revealed.append(cells[f])
                where.append(f)
        if run.shared.reveals is not None and revealed:
            _note_reveal(run, frame, ctx, state, where, revealed)
        sym = run.shared.symmetry
        if revealed and sym is not None and not run.call_path and sym.reveals(step):
            view = run.views.extend(state.view, sym.observe(step, state, cells, where))
        else:
            view = run.views.extend(state.view, ("turn", tuple(revealed))) if revealed else state.view
        new = state.replace(cells=tuple(cells), meters=state.meters.add_turn(), view=view)
        if run.events is not None:
            run.record(
                frame,
                ctx,
                "turn",
                {
                    "cards": [state.layout.describe(f) for f in flats],
                    "revealed": [Card.from_code(c).symbol for c in revealed],
                },
                state,
                new,
            )
        add_vec(out, new, vec)
    return out


def _note_reveal(
    run: Runner, frame: Frame, ctx: Ctx, state: State, flats: list[int], codes: list[int]
) -> None:
    assert run.shared.reveals is not None
    obs = []
    for f, card in zip(flats, codes):
        reg = state.layout.owner(f)
        r, c = reg.address(f)
        obs.append((reg.name, r, c, Card.from_code(card).symbol))
    run.shared.reveals.setdefault((frame.proto.name, ctx.number or "?"), set()).add(tuple(obs))


@handles(st.Rotate)
def h_rotate(run: Runner, frame: Frame, step: st.Rotate, frontier: Frontier, ctx: Ctx) -> Frontier:
    """A public half turn of cards where they lie: up-down cards show their other face (face up
    the table sees it; face down nothing changes in sight, and which cards turned is public)."""
    assert step.what is not None
    ev = run.evaluator(frame)
    out: Frontier = {}
    frontier = settle(frontier, _touching(run, frame, step, step.what), run.shared.deferred)
    for state, vec in frontier.items():
        try:
            flats = _flats(_res(ev.public(step.what, state), "rotate"), "rotate")
        except EvalError as exc:
            raise run.fail(frame, step, str(exc)) from None
        cells = list(state.cells)
        for f in flats:
            if cells[f] == EMPTY:
                raise run.fail(frame, step, f"rotate: {state.layout.describe(f)} is empty")
            cells[f] = ROTATIONS.rotate(cells[f])
        new = state.replace(cells=tuple(cells))
        if run.events is not None:
            run.record(frame, ctx, "rotate", {"cards": [state.layout.describe(f) for f in flats]}, state, new)
        add_vec(out, new, vec)
    return out
