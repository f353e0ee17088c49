"""Sub-protocol enumerations: a callee run exactly on given argument cards, its finished runs
read back (:func:`collect`), kept in ``Shared.subruns`` per argument, and its view factored out
of the caller's when that is provably lossless (:func:`_factor`). Used by the calls
(:mod:`.calls`) and by the enumerations kept up to relabelling (:mod:`.relabel`).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from ..cards import EMPTY, Symbol, symbol_of
from ..expressions import EvalError
from ..seating import Seats
from ..spec import SHOW_MIXED
from ..table import State
from .frame import Frame
from .frontier import (
    ONE,
    Prob,
    _freeze,
    hand_slots,
    vec_prob,
)
from .lazypiles import _draws
from .outputs import output_flats
from .plans import SubResult
from .runner import Outcome, Runner
from .store import export_outcomes, import_outcomes, store_key
from .views import ViewTable


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
) -> Sequence[Outcome]:
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
            store.publish(shared_key, export_outcomes(list(done)) if done is not None else None)
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
    f = factoring(name, joint)
    return f.factored if settle(run, sub, f, seats) else f.inlined


class Factoring(NamedTuple):
    """What :func:`_factor` decides from a joint law alone (its side effects aside)."""

    ok: bool  # the law alone factors (whether the run's earlier laws agree is checked by settle)
    cond: dict[tuple[Any, ...], dict[Any, Fraction]]  # Q(view | public outputs)
    factored: list[Outcome]  # the outcomes when it factors (in the order of the results)
    inlined: list[Outcome]  # the outcomes when it does not (in the order of the joint law)


def factoring(name: str, joint: dict[tuple[Any, SubResult], Fraction]) -> Factoring:
    """The pure part of :func:`_factor` on ``joint``: the same for any renaming of its result
    cards (their public parts hold none of them, see :mod:`.relabel`), so it is kept with a law.

    In whole numbers: each probability as its numerator over the law's common denominator
    ``lcm`` (their sums exact, as the fractions'), a fraction made only for what is handed out
    (Q, each result's probability); the test that the law factors, ``p == Q(v | o) * P(res)``,
    cross-multiplied (``x * p_o == q * p_res``, every sum positive). Each result is hashed once
    (a sub-result's hash is its fields', computed each time): its number keys the rest. The
    same values in the same order, without a fraction's operators (each through its numeric
    tower: ~2 us)."""
    lcm = math.lcm(*[p.denominator for p in joint.values()])
    number: dict[SubResult, int] = {}  # each result's number, in the order first met
    results: list[SubResult] = []
    publics: list[tuple[Any, ...]] = []
    p_res: list[int] = []
    n_res: list[int] = []  # the entries of each result
    p_o: dict[tuple[Any, ...], int] = {}
    q: dict[tuple[Any, ...], dict[Any, int]] = {}
    entries: list[tuple[Any, int, int]] = []
    for (v, res), p in joint.items():
        k = number.get(res)
        if k is None:
            k = number[res] = len(results)
            results.append(res)
            publics.append(res.public)
            p_res.append(0)
            n_res.append(0)
        o = publics[k]
        x = p.numerator * (lcm // p.denominator)
        p_res[k] += x
        n_res[k] += 1
        p_o[o] = p_o.get(o, 0) + x
        dist = q.get(o)
        if dist is None:
            dist = q[o] = {}
        dist[v] = dist.get(v, 0) + x
        entries.append((v, k, x))
    cond = {o: {v: Fraction(x, p_o[o]) for v, x in dist.items()} for o, dist in q.items()}
    ok = all(x * p_o[publics[k]] == q[publics[k]][v] * p_res[k] for v, k, x in entries)
    # Each result's entries counted as the law is walked, not by comparing it with every entry
    # again (n^2).
    ok = ok and all(n == len(q[o]) for n, o in zip(n_res, publics))
    factored = [
        (Fraction(p, lcm), ("call", name, o) if o else None, res)
        for p, o, res in zip(p_res, publics, results)
    ]
    return Factoring(ok, cond, factored, _inlined(name, joint))


def settle(run: Runner, sub: Frame, f: Factoring, seats: Seats | None = None) -> bool:
    """The rest of :func:`_factor` (``sub`` not in ``no_factor``): whether ``f`` factors in
    this run, with the side effects on the run's shared state that deciding it has."""
    name = sub.proto.name
    ok = f.ok
    watched = seats.key() if seats is not None else None
    ref = run.shared.factor_refs.setdefault(
        sub.key if watched is None else (*sub.key, ("seats", watched)), {}
    )
    for o, dist in f.cond.items():
        have = ref.get(o)
        if have is None:
            ref[o] = dist
        elif have is not dist and have != dist:  # a law kept with its table meets its own Q again
            ok = False
    if not ok:
        if run.shared.restartable:
            run.shared.restart = name  # an exact verification starts again (see Shared)
        else:
            run.shared.no_factor.add(name)  # a single run keeps the callee's view from now on
        return False
    public = [
        o.name + (" shown" if o.cards is not None else "") for o in sub.proto.outputs.values() if o.public
    ]
    run.shared.factored[name] = (
        f"{name}: its view depends only on its public outputs ({', '.join(public) or 'none'})"
    )
    return True


def _inlined(name: str, joint: dict[tuple[int, SubResult], Fraction]) -> list[Outcome]:
    """The outcomes of a callee whose whole view is one observation of the caller's."""
    return [(p, ("call", name, v), res) for (v, res), p in joint.items()]
