"""What every compiled step shares: applying a plan to the run's table, reporting an error at a
step (the interpreter's way), and the plan without display labels."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

from .. import steps as st
from ..cards import EMPTY, ROTATIONS
from ..expressions import EvalError
from ..machine import Plan
from ..machine.plans import check_landed, landings
from ..meters import out_add, out_one
from ..table import NEW, Layout
from . import evaluate as ev
from .run import Run

Op = Callable[[Run], None]
"""One compiled step: carries the run's table through it."""


class Unsupported(Exception):
    """A step the compiler cannot compile (the message says which and why)."""


def fail(run: Run, step: st.Step, exc: Exception) -> Exception:
    return run.runner.fail(run.frame, step, str(exc))


class RunResolve:
    """A compiled step's resolver that reads the run alone (its compiled expressions), never the
    ``State`` the interpreter's resolvers take: :func:`~.ops.planned` calls ``of_run`` and makes
    no ``State`` for it. Called the interpreter's way, it is the same function. ``fixed``: the
    arguments are the same on every run (a ``sleeve:``'s operations), so a plan depends on the
    layout alone and is kept by it (no hash of the arguments a step)."""

    __slots__ = ("fixed", "of_run")

    def __init__(self, of_run: Callable[[Run], Any], fixed: bool = False) -> None:
        self.of_run = of_run
        self.fixed = fixed

    def __call__(self, runner: Any, frame: Any, step: Any, state: Any, fev: Any) -> Any:
        return self.of_run(fev.run)


# --------------------------------------------------------------------------- plans


def strip(plan: Plan) -> Plan:
    """The plan without display labels (a compiled run draws no trace)."""
    layout = plan.layout
    if layout.labels:
        shapes = [(r.name, r.rows, r.cols, r.unit, r.hand, r.sleeve) for r in layout.regions]
        layout = Layout.make(shapes, layout.holes, ())
    return Plan(layout, plan.src, plan.consts, plan.delta, plan.returned)


def gather(cells: list[int], plan: Plan, consts: tuple[int, ...]) -> list[int]:
    """The cells after ``plan`` (its new cards ``consts``): one C-level gather, its index kept
    on the plan."""
    cut = plan.__dict__.get("_cut")
    if cut is not None and not consts:  # a stretch of slots leaves, the rest keeps its order
        return cells[: cut[0]] + cells[cut[1] :]
    kept = plan.__dict__
    if not consts:
        slices = kept.get("_slices")  # a few stretches of slots, in order (runs.return_row)
        if slices is not None:
            out: list[int] = []
            for part in slices:
                out += cells[part]
            return out
    else:
        tail = kept.get("_tail")
        if tail is None:  # asked once per plan, whoever made its gather
            tail = kept["_tail"] = _tail(plan.src, len(cells))
        if tail == len(consts):
            return [*cells, *consts]  # the cards stay, the new ones after them (:func:`_tail`)
    getter = kept.get("_getter")
    if getter is None:
        if kept.get("_identity") and not consts:
            return list(cells)  # every card stays where it is (a sleeve turned, rows slid)
        src = plan.src
        n = len(cells)
        if not src or min(src) >= 0:
            idx = list(src)  # every slot keeps an old card: the plan's own index
            # Read from the cells as they are (no copy with the empty place after them): known
            # here for nothing; a builder's own gather (its index unread) is not asked.
            kept["_bare"] = bool(src)
        else:
            idx = [t if t >= 0 else (n if t == EMPTY else n + 1 + (NEW - t)) for t in src]
        getter = itemgetter(*idx) if len(idx) > 1 else _few(tuple(idx))
        kept["_getter"] = getter
    if not consts:
        if kept.get("_bare"):
            return list(getter(cells))
        return list(getter([*cells, EMPTY]))
    return list(getter([*cells, EMPTY, *consts]))


def _tail(src: tuple[int, ...], n: int) -> int:
    """How many new cards a plan's index puts after the ``n`` cards it keeps where they are, in
    order (a place of new cards at the end: a turn's arrows and owner cards laid out); 0 for any
    other index. Its gather is then the cells and the new cards, two C-level copies, not an
    ``itemgetter`` reading each slot (a few hundred). Worked out once per plan, in C (tuples
    compared)."""
    k = len(src) - n
    if k > 0 and src[:n] == tuple(range(n)) and src[n:] == tuple(range(NEW, NEW - k, -1)):
        return k
    return 0


def _few(idx: tuple[int, ...]) -> Callable[[list[int]], tuple[int, ...]]:
    """A gather of no or one slot (``itemgetter`` gives a bare item for one index)."""

    def get(xs: list[int]) -> tuple[int, ...]:
        return tuple(xs[j] for j in idx)

    return get


def apply_plan(run: Run, step: st.Step, plan: Plan) -> None:
    """What :meth:`Plan.apply` and :meth:`Runner._planned` do to the one state of a run."""
    cells = run.cells
    run.cells = gather(cells, plan, plan.consts)
    delta = plan.delta
    if plan.returned:
        delta = dict(delta)
        counts, hidden = discarded(_returned(plan)(cells))
        for sid, k in counts:
            delta[sid] = delta.get(sid, 0) - k
        if hidden:  # an empty place or a face-down card
            run.view = run.views.extend(run.view, ("discard", spelled(counts)))
    landed(run, step, plan, run.layout, delta)


_ONE = 1


def returned_symbols(codes: Sequence[int]) -> list[int]:
    """The supply's symbols of the cards ``codes`` going back to it, sorted (an up-down card is
    one piece of the supply: the lower of its two symbols). In C over the cards: a discard
    returns whole rows (a turn's arrows and owner cards), of a few symbols."""
    sids = [c >> 1 for c in codes]  # a comprehension: faster than a C map over a method-wrapper
    to = ROTATIONS.to
    if to:
        kinds = set(sids)
        if not to.keys().isdisjoint(kinds):
            one = {s: min(s, to[s]) if s in to else s for s in kinds}
            sids = list(map(one.__getitem__, sids))
    sids.sort()
    return sids


FEW_KINDS = 8
"""A discard of at most this many kinds of card (codes) is counted kind by kind."""

FEW_CARDS = 16
"""A discard of at most this many cards is first asked whether all are one kind (one count)."""

_BYTE = [bytes((i,)) for i in range(256)]  # each byte value, made once
_ODD = bytes(range(1, 256, 2))  # the codes of face-up cards (of a symbol below 128)
_TABLE: list[Any] = [None, b""]  # ROTATIONS.to as last seen, and its table (see _sids)


def _sids(to: dict[int, int]) -> bytes:
    """A translation table from a card's code (a byte) to its symbol in the supply (an up-down
    card: the lower of its two symbols), kept while the up-down pairs stay those it was made
    from (a copy of ``to`` compared, not its identity: the pairs are changed in place)."""
    if _TABLE[0] != to:
        made = bytearray(256)
        for code in range(256):
            sid = code >> 1
            other = to.get(sid)
            made[code] = sid if other is None or other > sid else other
        _TABLE[:] = [dict(to), bytes(made)]
    table: bytes = _TABLE[1]
    return table


def discarded(codes: Sequence[int]) -> tuple[list[tuple[int, int]], bool]:
    """The cards ``codes`` back to the supply: each symbol (:func:`returned_symbols`'s) with
    how many of it go back, in symbol order (what :func:`less` takes off, in its order), and
    whether one is an empty place or face down (the discard is then seen: its symbols in
    order, :func:`spelled`).

    Few cards all of one kind (most small discards: a player's arrows, a match's pair) are one
    C-level count. Otherwise, where every code is a byte (no empty place, a symbol below 128;
    an empty place makes ``bytes`` refuse), C-level byte operations count them: one
    translation to the symbols, then per symbol one count and one strip of those counted from
    the front to find the next (a turn's owner cards: a few symbols, nearly a hundred cards),
    never a Python step per card nor a builtin ``min`` (which parses its arguments: dearer
    than a comparison). Beyond ``FEW_KINDS`` symbols, or codes that are no bytes:
    :func:`_discarded` (a set of the codes, or :func:`returned_symbols` and :func:`less`)."""
    n = len(codes)
    if n <= FEW_CARDS and n:
        code = codes[0]
        if n == 1 or codes.count(code) == n:  # one card (half of a card-level game's discards) or one kind
            sid = code >> 1
            to = ROTATIONS.to
            if to:
                other = to.get(sid)
                if other is not None and other < sid:
                    sid = other  # an up-down card: one piece, the lower of its two symbols
            return [(sid, n)], code < 0 or not code & 1
    try:
        b = bytes(codes)
    except ValueError:  # an empty place, or a code past a byte
        return _discarded(codes)
    if not n:
        return _discarded(codes)  # nothing: its error, as before
    sids = b.translate(_sids(ROTATIONS.to))
    count = sids.count
    counts: list[tuple[int, int]] = []
    seen = b""
    rest = sids
    left = n
    while True:
        sid = rest[0]
        one = _BYTE[sid]
        k = count(one)
        counts.append((sid, k))
        left -= k
        if not left:
            break
        if len(counts) >= FEW_KINDS:
            return _discarded(codes)
        seen += one
        rest = rest.lstrip(seen)
    if len(counts) > 1:
        counts.sort()
    return counts, bool(b.translate(None, _ODD))  # a face-down card left: seen


def _discarded(codes: Sequence[int]) -> tuple[list[tuple[int, int]], bool]:
    """:func:`discarded` of any codes: a row of few kinds of card counted kind by kind in C, no
    symbol worked out per card nor sorted; many kinds: :func:`returned_symbols` and
    :func:`less`."""
    to = ROTATIONS.to
    kinds = set(codes)
    if len(kinds) > FEW_KINDS:
        returned = returned_symbols(codes)
        delta: dict[int, int] = {}
        less(delta, returned)
        return [(sid, -k) for sid, k in delta.items()], min(codes) < 0 or not all(map(_ONE.__and__, codes))
    by: dict[int, int] = {}
    for code in kinds:
        sid = code >> 1
        if to and sid in to:
            sid = min(sid, to[sid])  # an up-down card: one piece, the lower of its two symbols
        by[sid] = by.get(sid, 0) + codes.count(code)
    return sorted(by.items()), min(kinds) < 0 or not all([code & 1 for code in kinds])


def spelled(counts: list[tuple[int, int]]) -> tuple[int, ...]:
    """The symbols of :func:`discarded`'s counts, one per card, in order (a discard's view)."""
    out: list[int] = []
    for sid, k in counts:
        out += [sid] * k
    return tuple(out)


def less(delta: dict[int, int], returned: list[int]) -> None:
    """Take the cards ``returned`` (their symbols, sorted) off ``delta``, symbol by symbol in
    order. A few symbols (a row of arrows or owner cards): one C-level count each."""
    kinds = set(returned)
    if len(kinds) > 8:
        for sid, k in Counter(returned).items():
            delta[sid] = delta.get(sid, 0) - k
        return
    for sid in sorted(kinds):
        delta[sid] = delta.get(sid, 0) - returned.count(sid)


def landed(run: Run, step: st.Step, plan: Plan, before: Layout, delta: dict[int, int]) -> None:
    """The end of a plan's application, whatever gathered the cells: the plan's layout, the
    landings of cards slid out of a sleeve (``before``: the layout they left), and the supply's
    count (``delta``) with its meters and limits."""
    run.layout = plan.layout
    if before.sleeved:
        last = plan.__dict__.get("_land")  # landings' kept answer (machine/plans.py)
        if last is None or last[0] is not before or last[1]:  # not known to slide nothing out
            check_landings(run, step, plan, before)
    if delta:
        run.out = _out_added(run.out, delta)
        run.meters = run.meters.note_out(run.out)
        if run.runner.limits is not None:
            run.runner.check_limits(run.frame, step, run.state())


_ADDED: dict[tuple[Any, ...], tuple[tuple[int, int], ...]] = {}
ADDED_KEPT = 4096
"""Results of :func:`~reference_engine.meters.out_add` kept by the helpers out and the change
(a game meets the same few again and again: a turn's arrows out, then back). Bounded: it starts
afresh beyond this."""


def _out_added(out: tuple[tuple[int, int], ...], delta: dict[int, int]) -> tuple[tuple[int, int], ...]:
    """``out_add(out, delta)``, kept (a pure function of small tuples) where it is met again: a
    change of one symbol to at most one symbol out (a knockout round's arrows). With more out
    (a turn's owner cards, their counts those of the hands) or more symbols changed, nearly
    every one is new (10 whole card-level UNO games: 1,416 of 1,521 never met before): worked
    out, not kept, no key made and no entry left for the collector to walk."""
    if len(out) > 1:
        if len(delta) == 1:
            for sid, n in delta.items():
                return out_one(out, sid, n)  # out_add's own first step, without its call
        return out_add(out, delta)
    if len(delta) > 1:
        return out_add(out, delta)
    key = (out, *delta.items())
    hit = _ADDED.get(key)
    if hit is None:
        if len(_ADDED) >= ADDED_KEPT:
            _ADDED.clear()
        hit = _ADDED[key] = out_add(out, delta)
    return hit


def _returned(plan: Plan) -> Callable[[list[int]], Sequence[int]]:
    """The gather of the cards a plan returns to the supply (kept on the plan)."""
    getter: Callable[[list[int]], Sequence[int]] | None = plan.__dict__.get("_returned")
    if getter is None:
        idx = plan.returned
        first, n = idx[0], len(idx)
        if n > 1 and idx[-1] == first + n - 1 and list(idx) == list(range(first, first + n)):
            getter = itemgetter(slice(first, first + n))  # a whole row: one slice
        else:
            getter = itemgetter(*idx) if n > 1 else _few(tuple(idx))
        plan.__dict__["_returned"] = getter
    return getter


def check_landings(run: Run, step: st.Step, plan: Plan, before: Layout) -> None:
    """A card slid out of a sleeve lands as it faced (the interpreter's check, its message)."""
    try:
        check_landed(plan, before, run.cells)
    except EvalError as exc:
        raise fail(run, step, exc) from None


def same_plan(step: st.Step, fast: Plan, reference: Plan, before: Layout | None = None) -> None:
    """The fast plan is the reference's; with ``before`` (the layout it applies to), also what
    the fast builder worked out ahead: its gather and the cards it slides out of a sleeve."""
    mine = (fast.layout, fast.src, fast.consts, fast.delta, fast.returned)
    theirs = (reference.layout, reference.src, reference.consts, reference.delta, reference.returned)
    if mine != theirs:
        raise ev.Mismatch(f"step {step.number or step.kind}: the compiled plan {mine} is not {theirs}")
    if before is None:
        return
    cells = list(range(0, 2 * before.size, 2))
    consts = tuple(range(1, 2 * len(fast.consts) + 1, 2))
    if gather(cells, fast, consts) != gather(cells, reference, consts):
        raise ev.Mismatch(f"step {step.number or step.kind}: the compiled plan's gather is not the reference")
    if before.inside and landings(fast, before) != landings(reference, before):
        raise ev.Mismatch(
            f"step {step.number or step.kind}: the compiled plan slides out {landings(fast, before)}, "
            f"not {landings(reference, before)}"
        )
