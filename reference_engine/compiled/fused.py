"""Two consecutive steps of one block carried out at once where nothing between them can tell:
a ``sleeve:`` step that only slides rows in or turns sleeves over, then the discard of a whole
row (``R[k, *]``) of the same region that takes what is left of it off the table (Step 12(a):
the owner cards pushed back into their sleeves, then the sleeves handed over, owner cards and
all). The layout between the two, made only to be dropped, is never made.

The pair keeps its two places in the block, so the run counts and checks each step as before
(the first carries out both, the second then does nothing). It is the two steps' outcome
exactly, under these conditions, checked at each run (anything else runs each step as compiled):

- the sleeve step slides nothing out (no card lands) and leaves no sleeve of the region lying
  front up (nothing shows), on a table where nothing shows (so no check after either step can
  see a card), with no display labels;
- the discard's cards are ``NAME[k, *]`` for a whole number ``k``: a selection of the layout's
  shape alone, which the sleeve step does not change (the same slots before it as after it);
- the discard is a whole bottom row whose region has no other card (its other rows are empty
  places: :func:`~.runs.bottom_row`): the region goes, so its sleeves after the first step
  play no part in the layout left, and every sleeve the discard touches goes whole (the
  sleeves' keep rule holds);
- the sleeve step touches that region alone.

The table space the run needs (``shared.extent``, ``shared.hands``) counts the table between
the two steps, as if it had been made: it has the shape of the table before them.

With ``evaluate.CHECKED`` (the differential tests) the two steps are also carried out one
after the other, as compiled, and the outcomes compared.

Likewise a discard of a region's bottom row ``R[k, *]`` and the return of one of its rows above
it ``R[j, *]`` (Step 12's arrows out, then its cards back to their owners; Step 11's draw-pile
sleeve): :func:`discard_return`, the return's arguments evaluated on the table before the
discard where :func:`reads_rows_above` shows they cannot tell it from the one after. Where
that pair ends an ``if``'s ``then`` branch and the discard of the region's last row follows the
``if`` (Step 11's found case: D[3, *] out, D[1, *] back to the pile, then D[2, *] out), the
pair's plan carries that discard out too (:func:`_after_if`), as it does Step 12(a)'s pair.

A fused op remembers, between its two steps, the run it carried out both for (by identity: a
run of another table never takes it). So one compiled program runs one run at a time per
thread of control, as every caller does (runs are never carried out concurrently in threads;
a callee of another protocol has its own program and ops).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from .. import steps as st
from ..expressions import EvalError, Expression
from ..expressions.nodes import Call, Comprehension, Const, Index, ListLit, Name, Node
from ..kept import Kept
from ..machine import Plan
from ..sleeves import SleeveFrame, SleeveOp
from ..table import Layout
from . import deferred, families, tails, twotakes
from . import evaluate as ev
from .base import Op, _out_added, apply_plan, discarded, spelled
from .codegen import function_kind
from .pairing import RowArgs, return_args, row_of, row_slots, snapshot
from .pairing import check as check_steps
from .plans import Defer, _sleeved
from .run import Run, note_shape
from .runs import bottom_row, return_row

Entry = tuple[Op, str | None, st.Step]


def whole_row(what: Expression | None) -> str | None:
    """The region of a selection ``NAME[k, *]`` (``k`` a whole number); None for any other."""
    got = row_of(None if what is None else what.node)
    return None if got is None else got[0]


def pairs(entries: Sequence[Entry], compiled: Callable[[Expression | None], ev.Expr]) -> list[Entry]:
    """``entries`` (a block's compiled steps) with each sleeve-then-discard pair of the kind
    above carried out at once (``compiled``: the compiled form of an expression)."""
    out = list(entries)
    if len(out) == 1 and isinstance(out[0][2], st.Return):
        return [deferred.waiting(out[0])]  # for a discard before its ``if`` (deferred.py)
    taken = -1  # the second of two takes carried out at once (twotakes.py): no pair's first
    for i in range(len(out) - 1):
        branch = out[i][2]
        if isinstance(branch, st.Take) and isinstance(out[i + 1][2], st.Take):
            takes_ = twotakes.pair(out[i], out[i + 1], compiled) if i != taken else None
            if takes_ is not None:
                out[i] = (takes_[0], out[i][1], out[i][2])
                out[i + 1] = (takes_[1], out[i + 1][1], out[i + 1][2])
                taken = i + 1
            continue
        if isinstance(branch, st.Discard) and isinstance(out[i + 1][2], st.If):
            ops_ = deferred.discard_if(out[i], out[i + 1], compiled)
            if ops_ is not None:
                out[i] = (ops_[0], out[i][1], out[i][2])
                out[i + 1] = (ops_[1], out[i + 1][1], out[i + 1][2])
            continue
        if isinstance(branch, st.If) and isinstance(out[i + 1][2], st.Discard):
            op_ = _after_if(branch, out[i + 1], compiled)
            if op_ is not None:
                out[i + 1] = (op_, out[i + 1][1], out[i + 1][2])
            continue
        if isinstance(out[i][2], st.Discard) and isinstance(out[i + 1][2], st.Return):
            after = out[i + 2][2] if i + 2 < len(out) else None
            ops_ = discard_return(out[i], out[i + 1], compiled, _nested(after))
            if ops_ is not None:
                out[i] = (ops_[0], out[i][1], out[i][2])
                out[i + 1] = (ops_[1], out[i + 1][1], out[i + 1][2])
            continue
        sleeve, discard = out[i][2], out[i + 1][2]
        if not isinstance(sleeve, st.Sleeve) or not isinstance(discard, st.Discard):
            continue
        name = whole_row(discard.what)
        if name is None or not sleeve.ops or any(o.region != name or o.out for o in sleeve.ops):
            continue
        first, second = pair(out[i], out[i + 1], compiled(discard.what), name)
        out[i] = (first, out[i][1], sleeve)
        out[i + 1] = (second, out[i + 1][1], discard)
    tails.link(out)  # Steps 11 and 12 at once, where this block holds them (tails.py)
    return out


def pair(sleeve: Entry, discard: Entry, what: ev.Expr, name: str) -> tuple[Op, Op]:
    """The two ops of a fused pair: the first carries out both steps (or, where a condition
    fails, its own step as compiled), the second nothing after it (else its own step)."""
    sleeve_op, sleeve_number, sleeve_step = sleeve
    discard_op, discard_number, discard_step = discard
    assert isinstance(sleeve_step, st.Sleeve)
    ops = tuple(sleeve_step.ops)
    done: list[Run | None] = [None]  # the run whose second step is already carried out
    skip: list[Run | None] = [None]  # the run whose two steps a discard and return before did
    _remember(
        sleeve_step, Nested(skip, sleeve_op, discard_op, ops, what, name, sleeve_number, discard_number)
    )

    def plan_for(run: Run) -> Plan | None:
        layout = run.layout
        if layout.labels or layout.shown:
            return None
        reg = layout.by_name.get(name)
        if reg is None or reg.sleeve is None:
            return None  # the sleeve step's own message
        frame: SleeveFrame = reg.sleeve
        try:
            for o in ops:
                frame = _sleeved(frame, o)
        except Defer:
            return None  # a row not declared or already in: its message
        if frame.kind == "sleeve" and frame.side == "front":
            return None  # a sleeve lying front up may show a card
        try:
            flats = what.sel(run, "discard")
        except EvalError:
            return None  # the discard's own message, at its step
        if not flats:
            return None
        plan = bottom_row(layout, flats)
        if plan is None or name in plan.layout.by_name or plan.layout.shown:
            return None  # not the region's last cards, or a case of the general builder
        return plan

    def carry_out(run: Run, plan: Plan) -> None:
        runner = run.runner
        runner.current = discard_number  # as the discard's own step would report a problem
        try:
            apply_plan(run, discard_step, plan)
        finally:
            runner.current = sleeve_number

    def first(run: Run) -> None:
        if skip[0] is run:  # carried out with the discard and return before them
            skip[0] = None
            done[0] = run
            return
        done[0] = None
        plan = plan_for(run)
        if plan is None:
            sleeve_op(run)
            return
        if ev.CHECKED:
            check(run, plan)
        # The table between the two steps, never made, has this one's shape (the sleeve step
        # changes no region's rows or columns): the table space the run needs counts it, as
        # after_step would have after the sleeve step (this table may never have been noted:
        # the run's first table, never noted by a step).
        note_shape(run.shared, run.layout)
        carry_out(run, plan)
        done[0] = run

    def second(run: Run) -> None:
        if done[0] is run:
            done[0] = None
            return
        discard_op(run)

    def check(run: Run, plan: Plan) -> None:
        """Both steps one after the other, as compiled, then the table put back."""
        saved = (run.layout, list(run.cells), run.out, run.env, run.meters, run.view)
        runner = run.runner
        try:
            sleeve_op(run)
            runner.current = discard_number
            discard_op(run)
        except Exception as exc:  # at once they would have gone through
            raise ev.Mismatch(
                f"steps {sleeve_number} and {discard_number} go through at once, not one by one: {exc}"
            ) from exc
        runner.current = sleeve_number
        want = snapshot(run)
        run.layout, run.cells, run.out, run.env, run.meters, run.view = saved
        carry_out(run, plan)
        got = snapshot(run)
        run.layout, run.cells, run.out, run.env, run.meters, run.view = saved
        run.cells = list(saved[1])
        if got != want:
            raise ev.Mismatch(f"steps {sleeve_number} and {discard_number} at once: {got} is not {want}")

    return first, second


# --------------------------------------------------------------------------- discard, then return

KEPT_PAIRS = 1024
"""Plans a fused discard and return keeps, by the table before both and their resolved
arguments (bounded as :data:`~.ops.KEPT_PLANS`)."""


def reads_rows_above(node: Node, name: str, k: int, proto: Any) -> tuple[str, ...] | None:
    """Whether ``node``'s value reads the table only through rows ``name[j, *]`` with
    ``1 <= j < k`` (and calls only ``family_index``, the built-in: a function of the card
    alone), so that a discard of the region's bottom row ``k`` just before cannot change it:
    those rows keep their slots and cards, the supply's counts are not read. Constants, lists,
    comprehensions over such rows, and names: the free names are returned (None: it may read
    anything else), for the caller to check at each evaluation that each is a variable or
    names no region (a parameter, a name of the spec): the discard changes neither."""
    free: set[str] = set()
    if not _reads(node, name, k, proto, frozenset(), free):
        return None
    return tuple(sorted(free))


def _reads(node: Node, name: str, k: int, proto: Any, bound: frozenset[str], free: set[str]) -> bool:
    if isinstance(node, Const):
        return True
    if isinstance(node, Name):
        if node.name not in bound:
            if node.name.startswith("__"):
                return False  # the evaluator's own names (the state, its reader)
            free.add(node.name)
        return True
    if isinstance(node, ListLit):
        return all(_reads(i, name, k, proto, bound, free) for i in node.items)
    if isinstance(node, Call):
        return (
            node.func == "family_index"
            and function_kind(proto, "family_index") == "builtin"
            and all(_reads(a, name, k, proto, bound, free) for a in node.args)
        )
    if isinstance(node, Index):
        got = row_of(node)
        return got is not None and got[0] == name and name not in bound and 1 <= got[1] < k
    if isinstance(node, Comprehension):
        inner = set(bound)
        variables = iter(node.variables)
        for kind, clause in node.clauses:
            if not _reads(clause, name, k, proto, frozenset(inner), free):
                return False
            if kind == "for":
                inner.add(next(variables))
        return _reads(node.element, name, k, proto, frozenset(inner), free)
    return False


class Nested(NamedTuple):
    """A fused sleeve-and-discard pair as a discard and return before it may carry it out."""

    skip: list[Run | None]
    sleeve_op: Op
    discard_op: Op
    ops: tuple[SleeveOp, ...]
    what: ev.Expr
    name: str
    sleeve_number: str | None
    discard_number: str | None


_NESTED: dict[int, tuple[st.Step, Nested]] = {}
NESTED_KEPT = 64
"""Fused pairs remembered by their sleeve step until the block around theirs, compiled just
after it, takes them (or never: a pair in no ``do`` after a discard and a return); bounded: it
starts afresh beyond this (a pair then forgotten is not carried out with the steps before it,
nothing else)."""


def _remember(step: st.Step, nested: Nested) -> None:
    if len(_NESTED) >= NESTED_KEPT:
        _NESTED.clear()
    _NESTED[id(step)] = (step, nested)


def _nested(step: st.Step | None) -> Nested | None:
    """The fused pair that is the whole body of ``step``, a ``do`` (Step 12(a)), if any."""
    if not isinstance(step, st.Do) or len(step.body) != 2 or step.body[0].number or step.body[1].number:
        return None
    hit = _NESTED.pop(id(step.body[0]), None)  # taken: its ops live as long as the program
    return hit[1] if hit is not None and hit[0] is step.body[0] else None


class _Tail(NamedTuple):
    """A fused discard and return, the last steps of a block, as the discard of the region's
    last row just after the ``if`` whose branch that block is may join them (Step 11's found
    case: the arrows out, the draw-pile card back, then the owner card's sleeve out): the
    region's name, where to put that discard once the block around the ``if`` is compiled, and
    the pair's :class:`~.tails.Role` once made (where the other branch ran, Step 11's drawn
    case, a tail linked to the pair may start at that discard: :meth:`~.tails.Tail.drawn`)."""

    name: str
    slot: list[Nested | None]
    role: list[tails.Role | None]


_TAILS: dict[int, tuple[st.Step, _Tail]] = {}


def _remember_tail(step: st.Step, tail: _Tail) -> None:
    """Bounded as :data:`NESTED_KEPT` (a pair forgotten is not joined by the discard after it)."""
    if len(_TAILS) >= NESTED_KEPT:
        _TAILS.clear()
    _TAILS[id(step)] = (step, tail)


def _after_if(branch: st.If, discard: Entry, compiled: Callable[[Expression | None], ev.Expr]) -> Op | None:
    """The op of a discard ``NAME[k, *]`` just after an ``if`` whose ``then`` branch ends in a
    fused discard and return of that region (:func:`discard_return`), which then carries it out
    too where the region's last row is that one (the three steps one plan, as Step 12 with
    12(a)'s pair without its sleeve step): nothing where it did, else its own step as compiled.
    None where the steps are not of that kind."""
    if not branch.then:
        return None
    last = branch.then[-1]
    hit = _TAILS.pop(id(last), None)
    if hit is None or hit[0] is not last:
        return None
    tail = hit[1]
    discard_op, discard_number, discard_step = discard
    assert isinstance(discard_step, st.Discard)
    if whole_row(discard_step.what) != tail.name or tail.slot[0] is not None:
        return None
    skip: list[Run | None] = [None]  # the run whose discard the steps before carried out
    what = compiled(discard_step.what)
    tail.slot[0] = Nested(skip, _nothing, discard_op, (), what, tail.name, discard_number, discard_number)

    def op(run: Run) -> None:
        if skip[0] is run:
            skip[0] = None
            return
        role = tail.role[0]
        chain = None if role is None else role.tail
        if chain is not None and role is chain.d and chain.drawn(run, what):
            return  # the branch drew the region's card: from here on, one plan (tails.py)
        discard_op(run)

    return op


def discard_return(
    discard: Entry,
    back: Entry,
    compiled: Callable[[Expression | None], ev.Expr],
    nested: Nested | None = None,
) -> tuple[Op, Op] | None:
    """The ops of a discard of a region's bottom row ``NAME[k, *]`` then the return of one of
    its rows above ``NAME[j, *]`` to hands whose owners read only its rows above ``k``
    (:func:`reads_rows_above`: Step 12's arrows, then its cards back to the owners its owner
    cards name) carried out at once: one plan (:func:`~.runs.return_row` with the row dropped),
    the return's arguments evaluated on the table before the discard, which they cannot tell
    from the one after it. None where the steps are not of that kind. At each run, anything
    else (a discard that is no bottom row, empty places, a limit of the supply's counters, an
    argument that raises) runs each step as compiled, with its messages."""
    discard_op, discard_number, discard_step = discard
    back_op, back_number, back_step = back
    assert isinstance(discard_step, st.Discard) and isinstance(back_step, st.Return)
    got = None if discard_step.what is None else row_of(discard_step.what.node)
    if got is None or back_step.cards is None or back_step.to is None:
        return None
    name, k = got
    row = row_of(back_step.cards.node)
    if row is None or row[0] != name or not 1 <= row[1] < k:
        return None
    what, cards, to = compiled(discard_step.what), compiled(back_step.cards), compiled(back_step.to)
    free = reads_rows_above(back_step.to.node, name, k, to.proto)
    if free is None:
        return None
    row_ = families.family_row(back_step.to.node, to.proto)
    kept: Kept[tuple[Plan, tuple[int, ...]]] = Kept(KEPT_PAIRS)
    # The row after the pair (Step 12(a)'s) per layout, where it is read from its region (a
    # whole row by number of a region no variable names, none a hand): the layout's alone.
    # (A plain bounded dict, as :data:`~.pairing.ROWS_KEPT`'s.)
    thens: dict[Layout, tuple[int, ...]] = {}
    done: list[Run | None] = [None]  # the run whose second step is already carried out
    triple = nested is not None and nested.name == name and all(o.region == name for o in nested.ops)
    tail: list[Nested | None] = [None]  # the discard just after an ``if`` ending in these two
    mine: list[tails.Role | None] = [None]
    if nested is None:
        _remember_tail(back_step, _Tail(name, tail, mine))

    def joined() -> bool:
        """Whether the discard after the pair (Step 12(a)'s, or the one after the ``if``) is
        carried out with it."""
        nonlocal nested, triple
        if not triple and nested is None and tail[0] is not None:
            nested, triple = tail[0], True  # set once, when the block around the ``if`` is compiled
        return triple

    def args_for(run: Run) -> tails.Args | None:
        """The slots discarded, the slots returned and their hands, and the row discarded
        after (else ()), on the run's table, where every condition on it but its table space
        holds (:mod:`.tails` reads them on a table before the pair's)."""
        layout = run.layout
        if layout.labels or layout.shown or run.runner.limits is not None:
            return None
        env = run.vars()
        if name in env:
            return None  # the rows read are a variable's, not the region's
        if free:
            by_name = layout.by_name
            if any(n in by_name and n not in env for n in free):
                return None  # a region read whole (a variable comes first, as it is looked up)
        got = rows.rows(run, joined())
        if got is None:
            return None
        drop, flats, then = got
        try:
            flats, names = return_args(run, cards, to, row_, flats)
        except EvalError:
            return None  # the return's own message, at its step
        return drop, flats, names, then

    def plan_for(run: Run) -> tuple[Plan, tuple[int, ...]] | None:
        """The plan, and the slots of the row Step 12(a) discards after it where it carries
        that pair out too (else ())."""
        layout = run.layout
        if id(layout) not in run.shared.layouts_seen:
            return None  # the table space of the layout between the two: at most this one's
        got_args = args_for(run)
        if got_args is None:
            return None
        drop, flats, names, then = got_args
        # The rows discarded and returned (``NAME[k, *]`` by number, NAME no variable: checked
        # above) are the layout's; so is the row after (``then``): the layout and the owners
        # decide the plan (a key of every slot of three rows would be hashed twice a turn).
        key = (layout, names)
        got = kept.get(key)
        if got is None:
            plan = return_row(layout, flats, names, drop, then)  # None unless ``drop`` is the bottom row
            if plan is None and then:
                then = ()
                plan = return_row(layout, flats, names, drop)
            if plan is None or plan.layout.shown:
                return None
            got = kept.put(key, (plan, then))
        return got

    def _then(run: Run) -> tuple[int, ...]:
        """The row the pair after (Step 12(a)) discards, where the sleeve step before it
        leaves the region's sleeves as the pair needs them (what its own test asks of the
        table between, whose region's sleeves are these); () where it does not."""
        assert nested is not None
        layout = run.layout
        row = row_of(nested.what.expr.node)
        fixed = row is not None and row[0] not in run.vars()
        if fixed:
            hit = thens.get(layout)
            if hit is not None:
                if ev.CHECKED and (want := _then_read(run, row)) != hit:
                    raise ev.Mismatch(f"the row after kept for the layout {hit}, read {want}")
                return hit
        flats = _then_read(run, row)
        if fixed and flats:
            assert row is not None
            there = layout.by_name.get(row[0])
            if there is not None and there.hand is None and 0 < row[1] <= there.rows:
                if len(thens) >= KEPT_PAIRS:
                    thens.clear()
                thens[layout] = flats  # read from the region (row_slots): the layout's alone
        return flats

    def _then_read(run: Run, row: tuple[str, int] | None) -> tuple[int, ...]:
        """:func:`_then`'s row read on the run's table (``row``: the discard's, by number)."""
        assert nested is not None
        reg = run.layout.by_name.get(name)
        if reg is None or reg.sleeve is None:
            return ()
        frame: SleeveFrame = reg.sleeve
        try:
            for o in nested.ops:
                frame = _sleeved(frame, o)
            what_ = nested.what  # ``row``: a whole row by number, the same slots
            flats = what_.sel(run, "discard") if row is None else row_slots(run, what_, row, "discard")
        except (Defer, EvalError):
            return ()
        if frame.kind == "sleeve" and frame.side == "front":
            return ()
        return flats

    def carry_out(run: Run, plan: Plan, then: tuple[int, ...]) -> None:
        if not then:
            apply_plan(run, discard_step, plan)  # at the discard: the supply's counts are its
            return
        assert nested is not None
        cells = run.cells
        a = then[0]  # the owner cards Step 12(a) discards: a whole row (return_row's test)
        codes = cells[a : a + len(then)] if then[-1] == a + len(then) - 1 else [cells[f] for f in then]
        apply_plan(run, discard_step, plan)
        runner = run.runner
        runner.current = nested.discard_number  # as that discard would report a problem
        try:
            counts, hidden = discarded(codes)
            delta = {sid: -k for sid, k in counts}
            if hidden:
                run.view = run.views.extend(run.view, ("discard", spelled(counts)))
            run.out = _out_added(run.out, delta)
            run.meters = run.meters.note_out(run.out)
        finally:
            runner.current = discard_number

    rows = RowArgs(what, cards, _then)
    role = tails.Role(discard_step, args_for, free)
    tails.offer(discard_step, role)
    mine[0] = role

    def first(run: Run) -> None:
        done[0] = None
        chain = role.tail
        if chain is not None and (
            chain.start(run) if role is chain.d else role is chain.m and chain.finish(run, discard_step)
        ):
            done[0] = run  # the return after it, and the pair or discard after that: done
            assert nested is not None
            nested.skip[0] = run
            return
        got = plan_for(run)
        if got is None:
            discard_op(run)
            return
        plan, then = got
        if ev.CHECKED:
            if then:
                _check_all(run, plan, then)
            else:
                check_steps(
                    run, discard_op, back_op, discard_number, back_number, lambda: carry_out(run, plan, ())
                )
        carry_out(run, plan, then)
        done[0] = run
        if then:
            assert nested is not None
            nested.skip[0] = run

    def second(run: Run) -> None:
        if done[0] is run:
            done[0] = None
            return
        back_op(run)

    def _check_all(run: Run, plan: Plan, then: tuple[int, ...]) -> None:
        """The four steps one after the other, as compiled, against the four at once."""
        assert nested is not None
        runner = run.runner

        def one_by_one(r: Run) -> None:
            discard_op(r)
            runner.current = back_number
            back_op(r)
            runner.current = nested.sleeve_number
            nested.sleeve_op(r)
            runner.current = nested.discard_number
            nested.discard_op(r)

        check_steps(
            run,
            one_by_one,
            _nothing,
            discard_number,
            nested.discard_number,
            lambda: carry_out(run, plan, then),
        )

    return first, second


def _nothing(run: Run) -> None:
    pass
