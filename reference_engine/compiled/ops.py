"""The steps of a spec compiled into operations on one :class:`~.run.Run`.

Each step kind has one compiler here, which returns an :data:`Op` (a closure over the typed
step) doing in one run what the interpreter's handler does to a frontier of one state in
sample mode, in the same order: the same expressions evaluated, the same random numbers drawn,
the same observations added to the view, the same errors at the same step. A kind without a
compiler here is refused when the spec is compiled (:class:`~.program.NotCompiled` names it);
so is a step carrying a field the compiler does not know (:data:`KNOWN_FIELDS`).

The generic compilers reuse the interpreter's resolvers and plan builders (a plan: what a
layout-changing action does to any table of a layout, :class:`~reference_engine.machine.Plan`),
cached per step, layout and resolved arguments; :mod:`.fast`'s fast paths take over where they apply.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from .. import steps as st
from ..cards import EMPTY, ROTATIONS, is_up
from ..expressions import EvalError, Expression, truthy
from ..machine import Plan, Runner
from ..machine.actions import layout as lay
from ..machine.actions.shuffling import AT_ONCE, _group_outcomes, _piles, _shifts, _unlabel, groups_of
from ..machine.actions.sleeving import _sleeve_build, _sleeve_resolve
from ..machine.frontier import _BUDGET, OverBudget, _freeze, env_drop, env_kept, env_set
from ..machine.plans import _flats, _res, check_shown
from ..machine.runner import MAX_RUN_STEPS
from ..table import Draft, Layout, State, visible
from . import calls, chained, families, fused, loops, pairing, placeargs, pure, rows, segments, takes
from . import evaluate as ev
from . import plans as fp
from .base import Op, RunResolve, Unsupported, apply_plan, fail, same_plan, strip
from .codes import learn_odd, shown_odd
from .knockfinal import do_op
from .knockround import branch as knockout_round
from .piles import shuffle_of as _shuffle_of
from .plans import Defer
from .run import Run, after_step, note_shape
from .steady import ByNames, kept_resolve, same, steady

Block = tuple[tuple[Op, str | None, st.Step], ...]
"""A list of compiled steps, each with the number of the step it belongs to (for messages) and
the step (where a check after it reports a problem)."""

# Every field of each step kind the compiler knows, semantic or not. A field added to a step
# kind later (a new key of the step language) is refused until the compiler says what it does.
_COMMON = {f.name for f in dataclasses.fields(st.Step)}
# Step kinds the compiler does not handle yet (``auto`` runs them on the interpreter, saying why;
# ``compiled`` refuses them). None today: sleeves, up-down cards, calls that seat people.
NOT_YET_COMPILED: tuple[str, ...] = ()

KNOWN_FIELDS: dict[type[st.Step], set[str]] = {
    st.Note: _COMMON | {"why"},
    st.Place: _COMMON | {"targets", "up"},
    st.Rearrange: _COMMON | {"region", "axis", "order"},
    st.Swap: _COMMON | {"a", "b"},
    st.Move: _COMMON | {"pairs"},
    st.Take: _COMMON | {"source", "columns", "into"},
    st.Shuffle: _COMMON | {"how", "piles", "perms", "text", "uses"},
    st.Turn: _COMMON | {"what"},
    st.Discard: _COMMON | {"what"},
    st.Return: _COMMON | {"cards", "to"},
    st.Shift: _COMMON | {"piles", "until"},
    st.If: _COMMON | {"cond", "then", "other"},
    st.For: _COMMON | {"var", "values", "body"},
    st.Call: _COMMON | {"protocol", "params", "args", "results", "hands", "players"},
    st.Sleeve: _COMMON | {"ops"},
    st.Rotate: _COMMON | {"what"},
    st.Let: _COMMON | {"values"},
    st.Do: _COMMON | {"body"},
}


class Compiler:
    """What compiling one protocol's steps needs: how to compile a callee (by name), and the
    compiled form of each of its expressions."""

    def __init__(self, callee: Callable[[str], Any], exprs: dict[int, ev.Expr]):
        self.callee = callee
        self.exprs = exprs
        self.depth = 0  # blocks being compiled (the protocol's own steps: 0)

    def e(self, expr: Expression | None) -> ev.Expr:
        assert expr is not None
        return self.exprs[id(expr)]

    def block(self, steps: list[st.Step], number: str | None) -> Block:
        top = not self.depth
        self.depth += 1
        try:
            out = []
            for step in steps:
                here = step.number or number
                out.append((self.step(step, here), here, step))
        finally:
            self.depth -= 1
        out = fused.pairs(out, self.e)  # a sleeve step and a discard at once (fused.py)
        # A protocol's own steps: runs of fixed steps as kept chains (segments.py).
        return tuple(segments.fold(self, out, _TOOLS) if top else out)

    def step(self, step: st.Step, number: str | None) -> Op:
        kind = type(step)
        make = _COMPILERS.get(kind)
        known = KNOWN_FIELDS.get(kind)
        if make is None or known is None:
            raise Unsupported(f"the step kind {step.kind!r} is not compiled")
        # A field the compiler does not know is refused unless it is empty (a call without a
        # ``hands:`` mapping runs as one without the field).
        extra = sorted(
            f.name for f in dataclasses.fields(step) if f.name not in known and getattr(step, f.name)
        )
        if extra:
            raise Unsupported(f"a {step.kind} step with {', '.join(extra)}: not known to the compiler")
        return make(self, step, number)


def run_block(run: Run, block: Block) -> None:
    if not block:  # an if's empty branch, a loop's empty body: nothing to do or count
        return
    runner = run.runner
    shared = run.shared
    seen = shared.layouts_seen
    # The exploration budget in force (spend()'s): a budget is set for a whole run or
    # exploration and reset when it ends, never between two steps of a block.
    left = _BUDGET.get()
    last = None  # the layout after the step before (noted: most steps keep the layout)
    for op, number, step in block:
        runner.current = number  # as the interpreter: messages name the step being carried out
        op(run)
        layout = run.layout
        shown = layout.shown
        # Every card a sleeve shows face up: at once in C where its codes are known (~85 slots
        # a few times a turn), else slot by slot as the interpreter checks (and its message).
        if shown and (len(shown) < 2 or not shown_odd(shown, run.cells)):
            cells = run.cells
            for f in shown:
                if not cells[f] & 1:  # a sleeve shows a card the protocol has face down
                    try:
                        check_shown(run.state())  # its message
                    except EvalError as exc:
                        raise fail(run, step, exc) from None
            if len(shown) > 1:
                learn_odd(shown, cells)
        # after_step(run, number): the table space noted for a layout this run has not held
        # yet (the layout the step before left is: noted then, and noting is idempotent);
        # then, far from the limit of steps, only the step counted and the budget spent.
        if layout is not last:
            last = layout
            if id(layout) not in seen:
                seen[id(layout)] = layout
                note_shape(shared, layout)
        if shared.peak_frontier and shared.states_processed - shared.run_start < MAX_RUN_STEPS:
            shared.states_processed += 1
            if left is not None:  # spend()
                left[0] -= 1
                if left[0] < 0:
                    raise OverBudget()
        else:
            after_step(run, number)


KEPT_PLANS = 1024
"""Plans a compiled step keeps, by layout and resolved arguments, for as long as its program
lives (one per library and protocol: across the runs of a game and across games). A plan
depends on nothing else, so a game whose table shrinks a card a turn meets again, in its
next game, the layouts of the steps whose arguments follow the layout alone (the sleeves
turned, the owner cards read, the grid laid out). The step starts afresh beyond this many
(a few megabytes a step at most on a full UNO table; at most 64 programs are kept). A plain
bounded dict, not a :class:`~reference_engine.kept.Kept` (as :data:`~.pairing.ROWS_KEPT`'s):
on whole UNO games about 70 % of its look-ups hit, kept or not, and a Kept's Python get and
put per look-up cost more than the few plans it would drop."""

Resolve = Callable[[Runner, Any, Any, State, Any], Any]
Build = Callable[[Runner, Any, Any, Layout, Any], Plan]
FastBuild = Callable[[Layout, Any], Plan]


def planned(step: st.Step, resolve: Resolve, build: Build, fast: FastBuild | None = None) -> Op:
    """A layout-changing step: the interpreter's resolver (with the compiled expressions), then
    the plan for this layout and these arguments, kept, built fast where it can be."""
    kept: dict[Any, Plan] = {}  # for the program's life, bounded: see KEPT_PLANS
    if isinstance(resolve, RunResolve):
        # A resolver that reads the run alone: no ``State`` made a step; a fixed resolver's
        # plans kept by the layout alone (its arguments are the same every time).
        of_run = resolve.of_run
        if resolve.fixed:
            return _fixed(step, of_run, build, fast, kept)
    else:

        def of_run(run: Run) -> Any:
            return resolve(run.runner, run.frame, step, run.state(), run.fev)

    def op(run: Run) -> None:
        try:
            res = of_run(run)
            key = (run.layout, res)
            plan = kept.get(key)
            if plan is None:
                plan = make_plan(run, step, res, build, fast)
                if len(kept) >= KEPT_PLANS:
                    kept.clear()
                kept[key] = plan
        except EvalError as exc:
            raise fail(run, step, exc) from None
        apply_plan(run, step, plan)

    return op


def _fixed(
    step: st.Step, of_run: Callable[[Run], Any], build: Build, fast: FastBuild | None, kept: dict[Any, Plan]
) -> Op:
    """:func:`planned` for a fixed resolver: its plans kept by the layout alone."""

    def fixed(run: Run) -> None:
        layout = run.layout
        plan = kept.get(layout)
        if plan is None:
            try:
                plan = make_plan(run, step, of_run(run), build, fast)
            except EvalError as exc:
                raise fail(run, step, exc) from None
            if len(kept) >= KEPT_PLANS:
                kept.clear()
            kept[layout] = plan
        apply_plan(run, step, plan)

    return fixed


def make_plan(run: Run, step: st.Step, res: Any, build: Build, fast: FastBuild | None) -> Plan:
    if fast is not None:
        try:
            plan = fast(run.layout, res)
        except Defer:
            pass
        else:
            if ev.CHECKED:
                same_plan(step, plan, strip(build(run.runner, run.frame, step, run.layout, res)), run.layout)
            return plan
    return strip(build(run.runner, run.frame, step, run.layout, res))


def _place(c: Compiler, step: st.Place, number: str | None) -> Op:
    """New cards only (bit pairs, owner cards, arrows): laid out by a plan kept per layout and
    shape, the faces filled in (:class:`~.rows.NewPlace`); anything else by the interpreter's
    resolver and a plan per layout and resolved arguments."""
    up = step.up
    generic = planned(
        step,
        placeargs.kept_place(step, lay._place_resolve),  # kept where its expressions are structural
        lay._place_build,
        lambda layout, res: fp.build_place(layout, res, up),
    )
    new = rows.NewPlace(step, [(t, form, c.e(items)) for t, form, items in step.targets])

    def op(run: Run) -> None:
        if not new(run):
            generic(run)

    op.new = new  # type: ignore[attr-defined]  # a segment's link for the step (segments.py)
    return op


def _rearrange(c: Compiler, step: st.Rearrange, number: str | None) -> Op:
    return planned(step, lay._rearrange_resolve, lay._rearrange_build)


def _swap(c: Compiler, step: st.Swap, number: str | None) -> Op:
    a, b = c.e(step.a), c.e(step.b)

    def resolve(run: Run) -> Any:
        return (a.sel(run, "swap"), b.sel(run, "swap"))

    return planned(step, RunResolve(resolve), lay._swap_build)


def _move(c: Compiler, step: st.Move, number: str | None) -> Op:
    return planned(step, kept_resolve(step, lay._move_resolve), lay._move_build, fp.build_move)


def _take(c: Compiler, step: st.Take, number: str | None) -> Op:
    return planned(step, *takes.compile_take(c.e(step.columns).proto, step))


def _discard(c: Compiler, step: st.Discard, number: str | None) -> Op:
    what = steady(c, step.what, same, "discard")
    return planned(step, RunResolve(what.value), lay._discard_build, fp.build_discard)


def _return(c: Compiler, step: st.Return, number: str | None) -> Op:
    cards, to = c.e(step.cards), c.e(step.to)
    row = None if step.to is None else families.family_row(step.to.node, to.proto)

    def resolve(run: Run) -> Any:
        return pairing.return_args(run, cards, to, row)

    return planned(step, RunResolve(resolve), lay._return_build, fp.build_return)


def _sleeve(c: Compiler, step: st.Sleeve, number: str | None) -> Op:
    """Sleeves turned over, rows slid out or in: a new layout (the interpreter's plan without its
    trace details, :func:`~.plans.build_sleeve`, kept per layout); a card slid out must land as
    the protocol has it (checked by the plan's apply)."""
    ops = _sleeve_resolve(None, None, step, None, None)  # type: ignore[arg-type]  # its operations
    return planned(step, RunResolve(lambda run: ops, fixed=True), _sleeve_build, fp.build_sleeve)


def _rotate(c: Compiler, step: st.Rotate, number: str | None) -> Op:
    """A public half turn of cards where they lie: no observation, no counter."""
    what = steady(c, step.what, same, "rotate")  # kept by the cards it reads (U[i] == up)
    rotate = ROTATIONS.rotate

    def op(run: Run) -> None:
        try:
            flats = what.value(run)
        except EvalError as exc:
            raise fail(run, step, exc) from None
        cells = run.cells
        for f in flats:
            if cells[f] == EMPTY:
                raise run.runner.fail(run.frame, step, f"rotate: {run.layout.describe(f)} is empty")
            cells[f] = rotate(cells[f])

    return op


def _note(c: Compiler, step: st.Note, number: str | None) -> Op:
    return lambda run: None


# --------------------------------------------------------------------------- turn, shuffle, shift


def _turn(c: Compiler, step: st.Turn, number: str | None) -> Op:
    what = c.e(step.what)
    if rows.every_face_up(what):
        return rows.turn_face_up(what)
    row = rows.whole_row(what)
    places = steady(c, step.what, same, "turn")  # anything else: kept by what it reads

    def op(run: Run) -> None:
        if row is not None:
            ab = rows.row_slots(run, *row)
            if ab is not None and rows.turn_row(run, what, *ab):
                return
        try:
            flats = places.value(run)
        except EvalError as exc:
            raise fail(run, step, exc) from None
        cells = run.cells
        n = len(flats)
        if n > 1 and flats[-1] - flats[0] == n - 1 and flats == tuple(range(flats[0], flats[0] + n)):
            a = flats[0]  # a stretch of slots (a whole row): turned by slices
            vals = cells[a : a + n]
            if EMPTY not in vals:
                new = [v ^ 1 for v in vals]
                cells[a : a + n] = new
                revealed = [v for v in new if v & 1]
                if revealed:
                    run.view = run.views.extend(run.view, ("turn", tuple(revealed)))
                run.meters = run.meters.add_turn()
                return
        vals = [cells[f] for f in flats]
        if EMPTY in vals or len(set(flats)) != len(flats):
            revealed = []
            for f in flats:  # as the interpreter turns them, one by one (and says which is empty)
                if cells[f] == EMPTY:
                    raise run.runner.fail(run.frame, step, f"turn: {run.layout.describe(f)} is empty")
                cells[f] ^= 1
                if cells[f] & 1:
                    revealed.append(cells[f])
        else:
            new = [v ^ 1 for v in vals]
            for f, v in zip(flats, new):
                cells[f] = v
            revealed = [v for v in new if v & 1]
        if revealed:
            run.view = run.views.extend(run.view, ("turn", tuple(revealed)))
        run.meters = run.meters.add_turn()

    return op


def _shuffle(c: Compiler, step: st.Shuffle, number: str | None) -> Op:
    if step.how in AT_ONCE:
        return _at_once(c, step, number)
    piles_expr = c.e(step.piles)
    sid = id(step)
    # Layout -> (the piles value it was for, whether a list, what shuffle_of made of them, the
    # rows of the region whose columns they are): the piles of ``columns(M)`` are one object per
    # region shape, so the same layout meets them again without hashing every pile.
    last: dict[Layout, tuple[Any, bool, Any, Any]] = {}

    def op(run: Run) -> None:
        runner = run.runner
        bounds = None
        try:
            got = piles_expr.piles(run)
            if isinstance(got, tuple):
                many, items = got
                seen = last.get(run.layout)
                if seen is not None and seen[0] is items and seen[1] == many:
                    hit, bounds = seen[2], seen[3]
                else:
                    key = ("shuffle-of", sid, run.layout, many, tuple(items))
                    hit = run.shared.plans.get(key)  # the same piles of the same layout: checked once
                    if hit is None:
                        hit = run.shared.plans[key] = _shuffle_of(step, many, items, run.layout)
                    bounds = rows.column_rows(run.layout, hit[1])
                    if len(last) >= KEPT_PLANS:
                        last.clear()
                    last[run.layout] = (items, many, hit, bounds)
                shuffle, piles, how = hit
            else:  # the interpreter's own reading of the piles, and its messages
                shuffle, piles, how = _piles(runner, run.frame, step, run.state(), run.ev)
        except EvalError as exc:
            raise fail(run, step, exc) from None
        perm = (
            rows.scramble(runner.rng, shuffle.k) if shuffle.kind == "scramble" else shuffle.sample(runner.rng)
        )
        cells = run.cells
        if bounds is not None:  # the columns of a region: one gather per row
            seg = cells[bounds[0][0] : bounds[-1][1]]
            # A card face up (odd, not empty): no odd code at all, the common case, ends it.
            face_up = 1 in [v & 1 for v in seg] and (min(seg) >= 0 or any(v >= 0 and v & 1 for v in seg))
            rows.permute_rows(cells, bounds, perm)
        else:
            contents = [[cells[f] for f in p] for p in piles]
            face_up = any(v >= 0 and v & 1 for vs in contents for v in vs)
            for p, i in zip(piles, perm):
                for f, v in zip(p, contents[i]):
                    cells[f] = v
        if face_up:
            run.view = run.views.extend(
                run.view, ("shuffle", tuple(visible(cells[f]) for p in piles for f in p))
            )
        run.meters = run.meters.add_shuffle(how)

    return op


def _at_once(c: Compiler, step: st.Shuffle, number: str | None) -> Op:
    """Several shuffles at once (``spin``, ``each``): the interpreter's sample run of
    :func:`~reference_engine.machine.actions.shuffling._at_once` on the run's one table, its
    groups read through the compiled expression (the same checks, the same random numbers)."""
    piles_expr = c.e(step.piles)
    how = step.how
    spin = how == "spin"
    assert step.piles is not None
    worked = ByNames([step.piles])  # the groups, kept by what they depend on where they can be

    def op(run: Run) -> None:
        key = worked.key(run)
        hit = worked.get(run, key)
        if hit is not None:
            groups, piles, layout2 = hit
        else:
            try:
                groups = groups_of(step, piles_expr.public(run), run.layout)
            except EvalError as exc:
                raise fail(run, step, exc) from None
            piles = tuple(p for g in groups for p in g)
            layout2 = _unlabel(run.shared.plans, run.layout, piles)
            worked.put(run, key, (groups, piles, layout2))
        rng = run.runner.rng
        if spin:
            before = run.cells
            observe = any(is_up(before[f]) for p in piles for f in p)
            run.cells = cells_ = _spun(before, groups, rng.random)
            run.layout = layout2
            run.meters = run.meters.add_shuffle(how)
            if observe:
                seen = tuple(visible(cells_[f]) for p in piles for f in p)
                run.view = run.views.extend(run.view, ("shuffle", seen))
            return
        cells = tuple(run.cells)
        observe = any(is_up(cells[f]) for p in piles for f in p)
        for g in groups:
            options = _group_outcomes(how, g, cells)
            pick = rng.random()
            acc = Fraction(0)
            chosen = options[-1][0]
            for new, prob in options:
                acc += prob
                if pick < acc:
                    chosen = new
                    break
            cells = chosen
        run.cells = list(cells)
        run.layout = layout2
        run.meters = run.meters.add_shuffle(how)
        if observe:
            seen = tuple(visible(cells[f]) for p in piles for f in p)
            run.view = run.views.extend(run.view, ("shuffle", seen))

    return op


def _spun(cells: list[int], groups: Any, random: Callable[[], float]) -> list[int]:
    """The interpreter's sample run of a ``spin`` (:func:`_group_outcomes`, one ``random()``
    a group), without its fractions: a group's two outcomes (as it lies; turned round: its piles
    in the reverse order, every card with a half turn) are 1/2 each, in that order, so the draw
    ``pick < 1/2`` keeps it as it lies; where the two are alike (merged, probability 1) either
    gives the same cards. Paired piles have the same sizes (:func:`groups_of` checks it), so the
    piles' slots and those of the reversed piles line up one for one."""
    new = list(cells)
    rotate = ROTATIONS.rotate
    for g in groups:
        if random() < 0.5:  # exactly Fraction(1, 2): the comparison the interpreter makes
            continue
        dst = [f for p in g for f in p]
        codes = [rotate(new[f]) for p in reversed(g) for f in p]
        for d, code in zip(dst, codes):
            new[d] = code
    return new


def _shift(c: Compiler, step: st.Shift, number: str | None) -> Op:
    piles_expr, until = step.piles, step.until
    assert piles_expr is not None and until is not None

    def op(run: Run) -> None:
        ev = run.ev
        state = run.state()
        try:
            value = ev.public(piles_expr, state)
            items = value if isinstance(value, list) else [value]
            piles = tuple(_flats(_res(v, "shift"), "shift") for v in items)
            if len({len(p) for p in piles}) != 1:
                raise EvalError("piles must have the same number of cards")
            k = len(piles)
            chosen = None
            for s, getter in enumerate(_shifts(run.shared.plans, len(run.cells), piles)):
                trial = state.replace(cells=getter(tuple(run.cells)))
                if truthy(ev.value(until, trial)):
                    chosen = (s, trial)
                    break
        except EvalError as exc:
            raise fail(run, step, exc) from None
        if chosen is None:
            raise run.runner.fail(run.frame, step, f"no shift of the {k} piles makes {until.text!r} true")
        s, trial = chosen
        run.cells = list(trial.cells)
        run.view = run.views.extend(run.view, ("shift", s))

    return op


# --------------------------------------------------------------------------- control


def _if(c: Compiler, step: st.If, number: str | None) -> Op:
    cond = step.cond
    assert cond is not None
    then = c.block(step.then, number)
    other = c.block(step.other, number)
    test = steady(c, cond, truthy)  # kept by the variables where it reads no card
    rnd = knockout_round(step, then, lambda run, block: run_block(run, block), make_plan)  # knockround.py

    def op(run: Run) -> None:
        try:
            result = test.value(run)
        except EvalError as exc:
            raise fail(run, step, exc) from None
        run.view = run.views.extend(run.view, ("if", result))
        run_block(run, then if result else other) if rnd is None or not result else rnd.run(run)

    return op


def _for(c: Compiler, step: st.For, number: str | None) -> Op:
    values_expr = step.values
    assert values_expr is not None
    var = step.var
    body = c.block(step.body, number)

    def listed(values: Any) -> tuple[Any, ...]:
        if not isinstance(values, list):
            raise EvalError(f"'for' needs a list of values, got {values!r}")
        return tuple(_freeze(v) for v in values)

    each = steady(c, values_expr, listed)
    skip = loops.settled(c, step, body)  # one if that, once false, stays false (loops.py)

    def op(run: Run) -> None:
        try:
            frozen = each.value(run)
        except EvalError as exc:
            raise fail(run, step, exc) from None
        run.view = run.views.extend(run.view, ("for", frozen))
        block = body
        for v in frozen:  # frozen: env_set's kept table looked up directly
            run.env = env_kept(run.env, var, v) or env_set(run.env, var, v)
            view = run.view
            run_block(run, block)
            if skip is not None and block is body and skip.done(run, view):
                block = skip.block
        run.env = env_drop(run.env, var)

    return op


def _let(c: Compiler, step: st.Let, number: str | None) -> Op:
    exprs = [(name, steady(c, expr, _freeze)) for name, expr in step.values.items()]
    if len(exprs) == 1:
        ((name, one),) = exprs

        def single(run: Run) -> None:
            try:
                v = one.value(run)  # frozen: env_set's kept table looked up directly
            except EvalError as exc:
                raise fail(run, step, exc) from None
            run.env = env_kept(run.env, name, v) or env_set(run.env, name, v)
            run.view = run.views.extend(run.view, ("let", ((name, v),)))

        return single

    def op(run: Run) -> None:
        env = run.env
        values = {}
        try:
            for name, expr in exprs:
                v = expr.value(run)
                values[name] = v
                env = env_set(env, name, v)
        except EvalError as exc:
            raise fail(run, step, exc) from None
        run.env = env
        run.view = run.views.extend(run.view, ("let", tuple(values.items())))

    return op


def _do(c: Compiler, step: st.Do, number: str | None) -> Op:
    read = chained.entry_names(step.body)
    with chained.collecting() as made:
        body = c.block(step.body, number)
    if (names := pure.pure_names(step.body)) is not None:  # it reads no card: replayed (pure.py)
        return pure.Pure(body, names, lambda run, block: run_block(run, block)).run
    if read is not None and made:  # turns, rotations, lets, discards: one key at its start
        return chained.Chained(body, read, made, lambda run, block: run_block(run, block)).run
    return do_op(step, body, lambda run, block: run_block(run, block), make_plan)  # knockfinal.py


_COMPILERS: dict[type[st.Step], Callable[[Compiler, Any, str | None], Op]] = {
    st.Note: _note,
    st.Place: _place,
    st.Rearrange: _rearrange,
    st.Swap: _swap,
    st.Move: _move,
    st.Take: _take,
    st.Shuffle: _shuffle,
    st.Turn: _turn,
    st.Discard: _discard,
    st.Return: _return,
    st.Shift: _shift,
    st.If: _if,
    st.For: _for,
    st.Call: calls.compile_call,
    st.Let: _let,
    st.Do: _do,
    st.Sleeve: _sleeve,
    st.Rotate: _rotate,
}

_TOOLS = segments.Tools(make_plan, _shuffle_of, run_block)

__all__ = ["NOT_YET_COMPILED", "Block", "Compiler", "Draft", "Op", "Unsupported", "run_block"]
