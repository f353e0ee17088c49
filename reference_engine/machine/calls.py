"""Sub-protocol calls.

In exact mode a callee runs once per distinct argument cards (cached in ``Shared.subruns``)
and its view is factored out of the caller's when that is provably lossless (:func:`_factor`).
When it is not, :func:`_factor` sets ``Shared.restart`` and the whole run stops, to be run
again with the callee inlined. In sample mode a small callee is enumerated exactly and one
outcome drawn from it (its enumeration kept up to the faces of the cards it only carries, see
:mod:`.relabel`); a larger one (or any, when a trace is recorded) runs step by step.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from .. import steps as st
from ..cards import EMPTY, Symbol, symbol_of
from ..expressions import EvalError, as_int
from ..meters import Meters, out_add
from ..seating import Seats
from ..spec import SHOW_MIXED
from ..table import Draft, Layout, State, gather
from .actions.sleeving import check_arguments
from .frame import Evaluator, Frame
from .frontier import (
    ONE,
    Frontier,
    Prob,
    _freeze,
    _groups,
    _scale,
    add_vec,
    env_set,
    hand_slots,
    sort_hands,
    vec_prob,
)
from .lazypiles import _draws, settle
from .outputs import output_flats
from .plans import Plan, Resolved, SubResult, _flats, _res, _target_coords, seen_in_hands
from .relabel import small_outcomes
from .runner import Ctx, Outcome, Runner, _jsonable, handles
from .store import export_outcomes, import_outcomes, store_key
from .views import ViewTable

SMALL_CALL = 8  # callees on at most this many cards are run exactly once per argument, then sampled

CallSetup = tuple[Frame, dict[str, int], list[tuple[int, ...]], tuple[Resolved, ...]]
"""A call resolved in one state: the callee's frame, its parameters, the argument slots and
the targets of its card outputs."""


def collect(run: Runner, frame: Frame, state: State) -> list[tuple[Prob, SubResult]]:
    """Read a finished sub-run: its card outputs, public values and resource counts.

    The cards go back to the caller in the order they lie on the table, whatever the output's
    encoding: an unordered output ('cards') is compared as a multiset, but the caller can still
    see or use the order the callee left them in. A hand has no order anybody knows: its holder
    mixes its cards face down before laying them out, so they come back in a uniformly random
    order, the same law on every path. An exact run has one result per distinct order, with its
    probability; a single run draws one order with the run's random numbers.
    """
    proto = frame.proto
    ev = run.evaluator(frame)
    used: set[int] = set()
    cards: list[tuple[tuple[int, int], tuple[int, ...]]] = []
    mixed: list[int] = []  # the card outputs that come back mixed: hands, and shown 'mixed'
    values = []
    shown: list[tuple[str, str, tuple[Symbol, ...]]] = []  # the public card outputs, as seen
    in_hands = hand_slots(state.layout)
    for out in proto.outputs.values():
        if out.cards is not None:
            flats, shape = output_flats(run, frame, out, state, ev)
            used |= set(flats)
            codes = tuple(state.cells[f] for f in flats if state.cells[f] != EMPTY)
            if out.decode == "cards" or len(codes) != len(flats):
                shape = (1, len(codes))
            hand = bool(in_hands) and not in_hands.isdisjoint(flats)
            mix = len(codes) > 1 and (hand or (out.public and out.show == SHOW_MIXED))
            if out.public:  # shown to everyone as the callee ends: its caller's table sees them
                syms = [symbol_of(c) for c in codes]
                shown.append(("shown", out.name, tuple(sorted(syms, key=lambda x: x.name) if mix else syms)))
            if mix:
                mixed.append(len(cards))
                if run.mode == "sample":
                    shuffled = list(codes)
                    run.rng.shuffle(shuffled)
                    codes = tuple(shuffled)
            cards.append((shape, codes))
        else:
            assert out.value is not None
            try:
                values.append(_freeze(ev.value(out.value, state)))
            except EvalError as exc:
                raise run.fail(frame, None, f"output {out.name}: {exc}") from None
    left = [f for f in range(len(state.cells)) if state.cells[f] != EMPTY and f not in used]
    if left:
        raise run.fail(
            frame,
            None,
            "cards are left on the table that are not outputs: "
            + ", ".join(state.layout.describe(f) for f in left[:8])
            + " (put them back with 'discard' or declare them as outputs)",
        )
    results = [((1, 1), cards)]
    if run.mode == "exact":
        for i in mixed:  # every order of the hand, each as likely as it is
            shape, codes = cards[i]
            results = [
                (p, [*cs[:i], (shape, tuple(c for (c,) in seq)), *cs[i + 1 :]])
                for p0, cs in results
                for seq, q in _draws([(c,) for c in codes], len(codes))
                for p in [(p0[0] * q[0], p0[1] * q[1])]
            ]
    return [
        (p, SubResult(tuple(cs), tuple(values), state.out, state.meters, tuple(shown))) for p, cs in results
    ]


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


def _unordered(outcomes: list[Outcome], bags: tuple[int, ...]) -> list[Outcome]:
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
    cache: dict[tuple[Any, ...], Any],
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


def _draw(run: Runner, outcomes: list[Outcome]) -> Outcome:
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


def with_shown(views: ViewTable, view: int, res: SubResult) -> int:
    """A callee's view ending with its public card outputs as everyone saw them shown."""
    for _, name, syms in res.shown:
        view = views.extend(view, ("shown", name, tuple(s.id for s in syms)))
    return view


def _sub_outcomes(
    run: Runner,
    sub: Frame,
    codes: tuple[tuple[int, ...], ...],
    block: tuple[tuple[int, ...], ...] | None = None,
    seats: Seats | None = None,
) -> list[Outcome]:
    """The outcomes of ``sub`` on the argument ``codes`` (cached). With ``block`` (positions in
    the concatenated arguments, one pile per column), the callee gets its input lazily scrambled
    by those piles: in a verification by classes, a callee that relies on its caller's scramble
    (:meth:`reference_engine.verify.symmetry.Symmetry.under_scramble`); ``codes`` then lie with
    the piles in sorted order, as a lazy block does. ``seats``: who holds the callee's hands
    (see :mod:`reference_engine.seating`); a run that watches some of them is its own sub-run."""
    seats = seats if seats is not None else Seats()
    key = _sub_key(run, sub, codes, block, seats)
    sub_key = key[0]
    hit = run.shared.subruns.get(key)
    if hit is not None:
        return hit
    store = run.shared.store
    shared_key = None
    if store is not None and run.shared.restart is None and not sub.proto.context:
        shared_key = store_key(sub_key, codes, sub.proto.name in run.shared.no_factor)
        found = store.claim(shared_key)
        if found is not None:  # another partition ran it (and checks its view, see .store)
            hit = import_outcomes(found)
            run.shared.subruns[key] = hit
            return hit
    try:
        hit = _run_sub(run, sub, codes, key, block, seats)
    finally:
        if shared_key is not None and store is not None:  # the others wait for it
            done = run.shared.subruns.get(key) if run.shared.restart is None else None
            store.publish(shared_key, export_outcomes(done) if done is not None else None)
    return hit


def _sub_key(
    run: Runner,
    sub: Frame,
    codes: tuple[tuple[int, ...], ...],
    block: tuple[tuple[int, ...], ...] | None,
    seats: Seats | None,
) -> tuple[Any, ...]:
    """The key of ``sub``'s enumeration on ``codes`` in ``Shared.subruns``."""
    sub_key: Any = sub.key if block is None else (sub.key, "scrambled", block)
    if seats is not None and seats.key() is not None:
        sub_key = (sub_key, "seats", seats.key())
    key: tuple[Any, ...] = (sub_key, codes)
    if sub.proto.context:
        key = key + (id(run.context),)  # its outcomes depend on this run's game functions
    return key


def _run_sub(
    run: Runner,
    sub: Frame,
    codes: tuple[tuple[int, ...], ...],
    key: tuple[Any, ...],
    block: tuple[tuple[int, ...], ...] | None,
    seats: Seats,
    check: Callable[[Runner, dict[tuple[int, SubResult], Fraction]], None] | None = None,
) -> list[Outcome]:
    """Enumerate ``sub`` exactly; ``check`` (see :mod:`.relabel`) may refuse what it gives
    before anything is kept."""
    child = Runner(
        run.library,
        "exact",
        views=run.views,
        shared=run.shared,
        call_path=run.call_path + [sub.proto.name],
        context=run.context,
    )
    child.seat(seats)
    start = sub.state_from_codes(codes)
    if block is not None:
        start = start.replace(lazy=(block,))
    final = child.run(sub, {start: ONE})
    if run.shared.restart is not None:
        return []  # a callee further down stopped the run: nothing to cache
    joint: dict[tuple[int, SubResult], Fraction] = defaultdict(Fraction)
    for state, vec in final.items():
        p = vec_prob(vec, 0)
        for (a, b), res in collect(child, sub, state):
            joint[(with_shown(run.views, state.view, res), res)] += p * a / b if a != b else p
    if check is not None:
        check(run, joint)
    hit = _factor(run, sub, joint, seats)
    if run.shared.restart is None:
        run.shared.subruns[key] = hit
    return hit


def _factor(
    run: Runner, sub: Frame, joint: dict[tuple[int, SubResult], Fraction], seats: Seats | None = None
) -> list[Outcome]:
    """Drop a callee's view from the caller's when that is provably lossless.

    If, for every argument the callee is ever run on, P(view, result | args) equals
    Q(view | public outputs) * P(result | args) with one Q for all arguments, the
    callee's view is independent of everything else given its public outputs; keeping
    only the public outputs in the caller's view changes P(view | input) by the same
    factor for every input, so security and correctness are decided the same way. Its
    public outputs are its public values and its public card outputs as they were shown
    (:attr:`SubResult.public`): everyone at the table saw those, so the caller's view keeps
    them either way. ``seats``: who holds its hands; each seating that watches some has its own Q.
    Otherwise the callee's whole view becomes one observation of the caller's: the
    outcomes are returned inlined and ``run.shared.restart`` names the callee, so that
    the run stops and is run again with the callee in ``no_factor`` (an earlier call may
    already have been factored).
    """
    name = sub.proto.name
    if name in run.shared.no_factor:
        return _inlined(name, joint)
    p_res: dict[SubResult, Fraction] = defaultdict(Fraction)
    p_o: dict[tuple[Any, ...], Fraction] = defaultdict(Fraction)
    q: dict[tuple[Any, ...], dict[int, Fraction]] = defaultdict(lambda: defaultdict(Fraction))
    for (v, res), p in joint.items():
        p_res[res] += p
        p_o[res.public] += p
        q[res.public][v] += p
    cond = {o: {v: p / p_o[o] for v, p in dist.items()} for o, dist in q.items()}
    ok = all(p == cond[res.public].get(v, 0) * p_res[res] for (v, res), p in joint.items())
    ok = ok and all(sum(1 for (v, r) in joint if r == res) == len(cond[res.public]) for res in p_res)
    watched = seats.key() if seats is not None else None
    ref = run.shared.factor_refs.setdefault(
        sub.key if watched is None else (*sub.key, ("seats", watched)), {}
    )
    for o, dist in cond.items():
        if o in ref and ref[o] != dist:
            ok = False
        ref.setdefault(o, dist)
    if not ok:
        if run.shared.restartable:
            run.shared.restart = name  # an exact verification starts again (see Shared)
        else:
            run.shared.no_factor.add(name)  # a single run keeps the callee's view from now on
        return _inlined(name, joint)
    public = [
        o.name + (" shown" if o.cards is not None else "") for o in sub.proto.outputs.values() if o.public
    ]
    run.shared.factored[name] = (
        f"{name}: its view depends only on its public outputs ({', '.join(public) or 'none'})"
    )
    return [(p, ("call", name, res.public) if res.public else None, res) for res, p in p_res.items()]


def _inlined(name: str, joint: dict[tuple[int, SubResult], Fraction]) -> list[Outcome]:
    """The outcomes of a callee whose whole view is one observation of the caller's."""
    return [(p, ("call", name, v), res) for (v, res), p in joint.items()]
