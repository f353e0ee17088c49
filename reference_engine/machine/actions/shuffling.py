"""Shuffles (scramble, shift, cut, bisect, set; spin and each, several at once) and the public
cyclic shift of piles.

In exact mode each table is first replaced by a fixed member of its orbit under the shuffle's
group, and a scramble of face-down piles is left lazy (see :func:`~..lazypiles.materialize`).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from operator import itemgetter
from typing import Any

from ... import steps as st
from ...cards import ROTATIONS, is_up
from ...expressions import EvalError, truthy
from ...shuffles import Shuffle, pile_gather
from ...table import Layout, State, visible
from ..frame import Evaluator, Frame, _checked
from ..frontier import Frontier, _scale, add_vec, spend
from ..lazypiles import before_scramble, settle
from ..plans import _flats, _res
from ..runner import Ctx, Runner, _touching, handles
from .sleeving import check_piles

Piles = tuple[tuple[int, ...], ...]


def _piles(
    run: Runner, frame: Frame, step: st.Shuffle, state: State, ev: Evaluator
) -> tuple[Shuffle, Piles, str]:
    """The shuffle, its piles and its kind on ``state``, checked (EvalError when they cannot be
    shuffled).

    In an exact run they are kept per step, layout and the piles' public value: the evaluator
    hands back the very object it remembered for every table that shows what that value read
    (:meth:`~..frame.Evaluator.public`), and the piles and their checks depend on that value and
    the layout alone, so the thousands of tables of one frontier check them once. The entry holds
    the value itself (its id cannot be reused while it is kept) and is used only for that same
    object; a refusal is never kept (every table that meets it raises it again). Under the
    compiled path's checks every kept answer is computed again and compared."""
    assert step.piles is not None
    value = ev.public(step.piles, state)
    if run.mode != "exact":
        return _piles_of(step, state, value)
    key = ("piles", id(step), state.layout, id(value))
    plans = run.shared.plans
    hit = plans.get(key)
    if hit is not None and hit[0] is value:
        if _checked():
            assert hit[1] == _piles_of(step, state, value), (step.text, hit[1])
        kept: tuple[Shuffle, Piles, str] = hit[1]
        return kept
    out = _piles_of(step, state, value)
    plans[key] = (value, out)
    return out


def _piles_of(step: st.Shuffle, state: State, value: Any) -> tuple[Shuffle, Piles, str]:
    """:func:`_piles` computed from the piles' public value."""
    how = step.how
    if how in ("cut", "bisect"):
        items = [_flats(_res(value, how), how)]
    else:
        values = value if isinstance(value, list) else [value]
        items = [_flats(_res(v, "shuffle"), "shuffle") for v in values]
    return shuffle_piles(step, items, state.layout)


def shuffle_piles(
    step: st.Shuffle, items: list[tuple[int, ...]], layout: Layout
) -> tuple[Shuffle, Piles, str]:
    """The shuffle, its piles and its kind from the slots its ``piles:`` value names (``items``:
    one tuple of slots per value, all of them one run of cards for a cut or a bisection), checked:
    EvalError, with the interpreter's messages in its order, when they cannot be shuffled. The
    compiled path reads the same value its own way and checks it here (:mod:`~...compiled.piles`)."""
    how = step.how
    piles: Piles
    if how in ("cut", "bisect"):
        flats = tuple(f for p in items for f in p)
        if how == "cut":
            piles = tuple((f,) for f in flats)
            shuffle = Shuffle("shift", len(piles))
        else:
            if len(flats) % 2:
                raise EvalError(f"a bisection cut needs an even number of cards, got {len(flats)}")
            h = len(flats) // 2
            piles = (flats[:h], flats[h:])
            shuffle = Shuffle("scramble", 2)
    else:
        piles = tuple(items)
        if how == "set":
            if step.perms and len(step.perms[0]) != len(piles):
                raise EvalError(
                    f"the permutations act on {len(step.perms[0])} piles, but there are {len(piles)}"
                )
            shuffle = Shuffle("set", len(piles), tuple(step.perms))
        else:
            shuffle = Shuffle(how, len(piles))
    if not piles:
        raise EvalError("nothing to shuffle")
    sizes = {len(p) for p in piles}
    if len(sizes) != 1:
        raise EvalError(f"piles must have the same number of cards, got sizes {sorted(sizes)}")
    every = [f for p in piles for f in p]
    if len(set(every)) != len(every):
        raise EvalError("the piles overlap")
    holes = layout.holes
    if holes:
        for f in every:
            if f in holes:
                raise EvalError(f"{layout.describe(f)} is empty")
    if layout.sleeved:
        check_piles(layout, piles)  # a shuffle mixes whole sleeves
    return shuffle, piles, how


@handles(st.Shuffle)
def h_shuffle(run: Runner, frame: Frame, step: st.Shuffle, frontier: Frontier, ctx: Ctx) -> Frontier:
    if step.how in AT_ONCE:
        return _at_once(run, frame, step, frontier, ctx)
    ev = run.evaluator(frame)
    plans = run.shared.plans

    def resolve(state: State) -> tuple[Shuffle, Piles, str]:
        try:
            return _piles(run, frame, step, state, ev)
        except EvalError as exc:
            raise run.fail(frame, step, str(exc)) from None

    out: Frontier = {}
    if run.mode == "sample":
        for state, vec in frontier.items():
            shuffle, piles, how = resolve(state)
            perm = shuffle.sample(run.rng)
            g = _gather_map(plans, state.layout.size, piles, perm)
            cells = tuple([state.cells[i] for i in g])
            view = state.view
            if any(is_up(state.cells[f]) for p in piles for f in p):  # as the exact mode sees it
                view = run.views.extend(view, ("shuffle", tuple(visible(cells[f]) for p in piles for f in p)))
            new = State(
                _unlabel(plans, state.layout, piles),
                cells,
                state.out,
                state.env,
                state.meters.add_shuffle(how),
                view,
            )
            if run.events is not None:
                run.record(
                    frame,
                    ctx,
                    "shuffle",
                    {
                        "kind": how,
                        "size": shuffle.size,
                        "piles": [[state.layout.describe(f) for f in p] for p in piles],
                        "perm": [i + 1 for i in perm],
                        "how": step.text,
                        **({"uses": step.uses} if step.uses else {}),
                        **({} if shuffle.is_uniform else {"weighted": True}),
                    },
                    state,
                    new,
                )
            add_vec(out, new, vec)
        return out

    sym = run.shared.symmetry
    if sym is not None and not run.call_path:
        region = sym.scrambles(step)
        if region is not None:
            return _one_per_orbit(run, step, frontier, resolve, sym, region)

    # Exact: a scramble of face-down piles that are already lazily scrambled changes nothing.
    def needed(state: State) -> frozenset[int] | None:
        shuffle, piles, _ = resolve(state)
        if shuffle.kind == "scramble" and frozenset(piles) in {frozenset(b) for b in state.lazy}:
            return frozenset()
        return frozenset(f for p in piles for f in p)

    frontier = settle(_ready(frontier, resolve), needed)
    # Replace each table by the representative of its orbit, merge, then expand or stay lazy.
    canon: Frontier = {}
    owned: set[int] = set()
    owned_canon: set[int] = set()
    info: dict[State, tuple[Shuffle, Piles, str]] = {}
    for state, vec in frontier.items():
        shuffle, piles, how = resolve(state)
        layout2 = _unlabel(plans, state.layout, piles)
        meters = state.meters.add_shuffle(how)
        if shuffle.kind == "scramble" and frozenset(piles) in {frozenset(b) for b in state.lazy}:
            add_vec(out, state.replace(layout=layout2, meters=meters), vec, owned)
            continue
        contents = [tuple(state.cells[f] for f in p) for p in piles]
        rep = shuffle.canonical(contents)
        if rep is not None:
            g = _gather_map(plans, state.layout.size, piles, rep)
            state = state.replace(cells=tuple([state.cells[i] for i in g]))
        observe = any(is_up(state.cells[f]) for p in piles for f in p)
        if shuffle.kind == "scramble" and not observe and len(piles) > 1:
            lazy = state.lazy + (piles,)
            add_vec(out, state.replace(layout=layout2, meters=meters, lazy=lazy), vec, owned)
            continue
        add_vec(canon, state, vec, owned_canon)
        info[state] = (shuffle, piles, how)
    for state, vec in canon.items():
        shuffle, piles, how = info[state]
        layout2 = _unlabel(plans, state.layout, piles)
        meters = state.meters.add_shuffle(how)
        contents = [tuple(state.cells[f] for f in p) for p in piles]
        observe = any(is_up(state.cells[f]) for p in piles for f in p)
        for perm, prob in shuffle.outcomes(contents):
            spend()  # an exploration's budget: a scramble of many piles stops it at once
            g = _gather_map(plans, state.layout.size, piles, perm)
            cells = tuple([state.cells[i] for i in g])
            view = state.view
            if observe:
                view = run.views.extend(view, ("shuffle", tuple(visible(cells[f]) for p in piles for f in p)))
            add_vec(
                out,
                State(layout2, cells, state.out, state.env, meters, view, state.lazy),
                _scale(vec, prob),
                owned,
            )
    return out


def _one_per_orbit(
    run: Runner, step: st.Shuffle, frontier: Frontier, resolve: Any, sym: Any, region: str
) -> Frontier:
    """A scramble of every column of ``region`` in a verification by classes: each table goes
    to the representative of its orbit (sorted columns) with probability 1, and stays there
    (see :mod:`reference_engine.verify.symmetry`, whose checks this calls)."""
    plans = run.shared.plans
    frontier = settle(frontier, lambda state: None, run.shared.deferred)
    out: Frontier = {}
    owned: set[int] = set()
    first = not sym.hands_checked
    for state, vec in frontier.items():
        shuffle, piles, how = resolve(state)
        sym.check_piles(state, region, piles, first)
        contents = [tuple(state.cells[f] for f in p) for p in piles]
        rep = shuffle.canonical(contents)
        assert rep is not None  # a scramble is uniform over a group
        g = _gather_map(plans, state.layout.size, piles, rep)
        new = state.replace(
            layout=_unlabel(plans, state.layout, piles),
            cells=tuple([state.cells[i] for i in g]),
            meters=state.meters.add_shuffle(how),
        )
        add_vec(out, new, vec, owned)
    sym.hands_checked = True
    return out


def _shifts(
    plans: dict[tuple[Any, ...], Any], n: int, piles: Piles
) -> list[Callable[[tuple[int, ...]], tuple[int, ...]]]:
    """For each cyclic shift of ``piles`` (by 0, 1, ...): cells -> the cells after it."""
    key = ("shifts", n, piles)
    hit: list[Callable[[tuple[int, ...]], tuple[int, ...]]] | None = plans.get(key)
    if hit is None:
        k = len(piles)
        hit = []
        for s in range(k):
            g = _gather_map(plans, n, piles, tuple((i + s) % k for i in range(k)))
            hit.append(itemgetter(*g) if len(g) > 1 else _one_by_one(g))
        plans[key] = hit
    return hit


def _one_by_one(g: tuple[int, ...]) -> Callable[[tuple[int, ...]], tuple[int, ...]]:
    """cells -> the cells at ``g`` (itemgetter returns a bare item for one index)."""

    def get(cells: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(cells[i] for i in g)

    return get


def _gather_map(
    plans: dict[tuple[Any, ...], Any], n: int, piles: Piles, perm: tuple[int, ...]
) -> tuple[int, ...]:
    key = ("gather", n, piles, perm)
    g: tuple[int, ...] | None = plans.get(key)
    if g is None:
        g = pile_gather(n, piles, perm)
        plans[key] = g
    return g


def _unlabel(plans: dict[tuple[Any, ...], Any], layout: Layout, piles: Piles) -> Layout:
    """A shuffle makes labels on the shuffled cards meaningless: drop them."""
    if not layout.labels:
        return layout
    key = ("unlabel", layout, piles)
    hit: Layout | None = plans.get(key)
    if hit is None:
        touched = {f for p in piles for f in p}
        labels = [lab for lab in layout.labels if not touched & set(lab.slots)]
        shapes = [(r.name, r.rows, r.cols, r.unit, r.hand, r.sleeve) for r in layout.regions]
        hit = Layout.make(shapes, layout.holes, labels)
        plans[key] = hit
    return hit


@handles(st.Shift)
def h_shift(run: Runner, frame: Frame, step: st.Shift, frontier: Frontier, ctx: Ctx) -> Frontier:
    assert step.piles is not None and step.until is not None
    ev = run.evaluator(frame)
    out: Frontier = {}
    frontier = settle(frontier, _touching(run, frame, step, step.piles))
    for state, vec in frontier.items():
        try:
            value = ev.public(step.piles, state)
            items = value if isinstance(value, list) else [value]
            piles = tuple(_flats(_res(v, "shift"), "shift") for v in items)
            if len({len(p) for p in piles}) != 1:
                raise EvalError("piles must have the same number of cards")
            k = len(piles)
            chosen = None
            for s, getter in enumerate(_shifts(run.shared.plans, state.layout.size, piles)):
                trial = state.replace(cells=getter(state.cells))
                if truthy(ev.value(step.until, trial)):
                    chosen = (s, trial)
                    break
        except EvalError as exc:
            raise run.fail(frame, step, str(exc)) from None
        if chosen is None:
            raise run.fail(frame, step, f"no shift of the {k} piles makes {step.until.text!r} true")
        s, trial = chosen
        layout2 = _unlabel(run.shared.plans, state.layout, piles) if s else state.layout
        new = trial.replace(layout=layout2, view=run.views.extend(state.view, ("shift", s)))
        if run.events is not None:
            run.record(
                frame,
                ctx,
                "shift",
                {
                    "piles": [[state.layout.describe(f) for f in p] for p in piles],
                    "by": s,
                    "until": step.until.text,
                },
                state,
                new,
            )
        add_vec(out, new, vec)
    return out


def _ready(frontier: Frontier, resolve: Any) -> Frontier:
    """Before a uniform scramble, lazy blocks inside its piles are drawn only as far as the
    scramble can tell (:func:`~..lazypiles.before_scramble`); what is left is drawn whole."""
    if not any(s.lazy for s in frontier):
        return frontier
    out: Frontier = {}
    owned: set[int] = set()
    for state, vec in frontier.items():
        if state.lazy:
            shuffle, piles, _ = resolve(state)
            if (
                shuffle.kind == "scramble"
                and shuffle.is_uniform
                and frozenset(piles) not in {frozenset(b) for b in state.lazy}
            ):
                drawn = before_scramble(state, piles)
                if drawn is not None:
                    for s2, p in drawn:
                        add_vec(out, s2, _scale(vec, p), owned)
                    continue
        add_vec(out, state, vec, owned)
    return out


# --------------------------------------------------------------------------- several at once

AT_ONCE = ("spin", "each")
Groups = tuple[Piles, ...]


def _groups(run: Runner, frame: Frame, step: st.Shuffle, state: State) -> Groups:
    """The groups of a shuffle done by several people at once (``spin``, ``each``): a list of
    rows (spin) or of groups of piles (each), every pile a selection of cards."""
    assert step.piles is not None
    try:
        return groups_of(step, run.evaluator(frame).public(step.piles, state), state.layout)
    except EvalError as exc:
        raise run.fail(frame, step, str(exc)) from None


def groups_of(step: st.Shuffle, value: Any, layout: Layout) -> Groups:
    """The groups of :func:`_groups` from the value of its piles (an :class:`EvalError` says
    what is wrong with them; the compiled path calls this too)."""
    if not isinstance(value, list):
        raise EvalError(f"{step.how} takes a list of groups of piles, e.g. [[a, b], [c, d]]")
    groups: list[Piles] = []
    for g in value:
        items = g if isinstance(g, list) else [g]
        groups.append(tuple(_flats(_res(v, step.how), step.how) for v in items))
    every = [f for g in groups for p in g for f in p]
    if not every:
        raise EvalError("nothing to shuffle")
    if len(set(every)) != len(every):
        raise EvalError("the piles overlap")
    for f in every:
        if f in layout.holes:
            raise EvalError(f"{layout.describe(f)} is empty")
    for g in groups:
        if step.how == "each" and len({len(p) for p in g}) > 1:
            raise EvalError(
                f"piles must have the same number of cards, got sizes {sorted(len(p) for p in g)}"
            )
        if step.how == "spin" and any(len(a) != len(b) for a, b in zip(g, reversed(g))):
            raise EvalError(
                "a row turned round swaps its first and last pile, its second and last but one...: "
                f"those must have the same number of cards, got sizes {[len(p) for p in g]}"
            )
    return tuple(groups)


def _group_outcomes(how: str, group: Piles, cells: tuple[int, ...]) -> list[tuple[tuple[int, ...], Fraction]]:
    """The tables one group can leave (each equally likely choice, merged when alike): ``each``
    mixes its piles (every order equally likely); ``spin`` turns the row round or not (its piles
    in the reverse order, every card with a half turn)."""
    out: dict[tuple[int, ...], Fraction] = {}
    if how == "each":
        contents = [tuple(cells[f] for f in p) for p in group]
        for perm, prob in Shuffle("scramble", len(group)).outcomes(contents):
            new = list(cells)
            for dst, src in zip(group, (group[i] for i in perm)):
                for d, sc in zip(dst, src):
                    new[d] = cells[sc]
            key = tuple(new)
            out[key] = out.get(key, Fraction(0)) + prob
        return list(out.items())
    turned = list(cells)
    for dst, src in zip(group, reversed(group)):
        for d, sc in zip(dst, src):
            turned[d] = ROTATIONS.rotate(cells[sc])
    for key in (tuple(cells), tuple(turned)):
        out[key] = out.get(key, Fraction(0)) + Fraction(1, 2)
    return list(out.items())


def _at_once(run: Runner, frame: Frame, step: st.Shuffle, frontier: Frontier, ctx: Ctx) -> Frontier:
    """Several independent shuffles at once, one per group, done by different people in one
    shuffle's time: ``each`` (every group's piles mixed, e.g. two sleeves behind one's back) or
    ``spin`` (every row of piles on its own mat, turned round or not). Uniform over a product of
    groups; no orbit shortcut is taken."""
    out: Frontier = {}
    frontier = settle(frontier, _touching(run, frame, step, step.piles), run.shared.deferred)
    for state, vec in frontier.items():
        groups = _groups(run, frame, step, state)
        piles = tuple(p for g in groups for p in g)
        layout2 = _unlabel(run.shared.plans, state.layout, piles)
        meters = state.meters.add_shuffle(step.how)
        observe = any(is_up(state.cells[f]) for p in piles for f in p)
        outcomes: list[tuple[tuple[int, ...], Fraction]] = [(state.cells, Fraction(1))]
        for g in groups:
            if run.mode == "sample":
                options = _group_outcomes(step.how, g, outcomes[0][0])
                pick = run.rng.random()
                acc = Fraction(0)
                chosen = options[-1][0]
                for cells, prob in options:
                    acc += prob
                    if pick < acc:
                        chosen = cells
                        break
                outcomes = [(chosen, Fraction(1))]
            else:
                outcomes = [
                    (c2, p1 * p2) for c1, p1 in outcomes for c2, p2 in _group_outcomes(step.how, g, c1)
                ]
        for cells, prob in outcomes:
            if run.mode != "sample":
                spend()
            view = state.view
            if observe:
                view = run.views.extend(view, ("shuffle", tuple(visible(cells[f]) for p in piles for f in p)))
            new = State(layout2, cells, state.out, state.env, meters, view, state.lazy)
            if run.events is not None:
                run.record(
                    frame,
                    ctx,
                    "shuffle",
                    {
                        "kind": step.how,
                        "size": 2 ** len(groups) if step.how == "spin" else 0,
                        "piles": [[state.layout.describe(f) for f in p] for p in piles],
                        "groups": [len(g) for g in groups],
                        "how": step.text,
                        **({"uses": step.uses} if step.uses else {}),
                    },
                    state,
                    new,
                )
            add_vec(out, new, vec if run.mode == "sample" else _scale(vec, prob))
    return out
