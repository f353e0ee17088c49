"""A block that reads no card, carried out once per shape and then replayed (:class:`Pure`).

A knockout lottery's round starts with ``4(a)``: ``let h: len(alive) // 2``, ``move U: [P[2,
alive[2 * i - 1]] for i in 1..h]``, ``for i in 1..h: place P[2, alive[2 * i - 1]]: new(down)``.
None of its steps reads a card: what it does to the table (where every card goes, the new cards,
the layouts it passes through), to the variables, the supply, the counters and the view follows
from the layout, the values of the variables it reads, the frame, the supply and counters as they
were, and, for its checks alone (a card slid out of a sleeve lands as it faced, a sleeve shows a
face-up card, a place is empty), which places are empty and which cards face up. :class:`Pure`
keeps that effect per such key: the first time it runs the block's steps as they are (with each
card tagged by the place it started in, to learn where it went), then it replays the effect at
once: one gather, the observations in order, the variables set or dropped, the steps counted and
the layouts noted as each step would have (``run_block``).

Which blocks (:func:`pure_names`): only ``let``, ``for``, ``if`` (their expressions structural,
:func:`~.steady.structural`, reading variables and the frame's names only, never a region, checked
per run), ``move`` to plain names from structural sources, ``place`` of ``new(...)`` cards of
constant names at structural targets, ``do`` and ``note``; functions the built-in ones (checked
in the frame). A name whose value is read must not name a region when the key is made (a
variable of that name may be dropped inside the block, a ``for``'s) nor be a target of the
block's ``move`` or ``place`` (a region it may make): either would read a card the key never
sees. A block recorded inside another's recording (a ``do`` in a ``do``) hands the cards back
with the outer tags. An effect is kept only where the cards that end untagged are exactly the
cards its steps took from the supply (:func:`_from_supply`): a step that makes a card's code
afresh instead of moving it would have it laid at every replay. Anything else (a shuffle, a
turn, a call) is run step by step. A replay is taken only where the steps could not reach the
exploration's budget or the limit of steps (those are counted step by step), where the run has a
frontier noted, and where the key was met before; with ``ev.CHECKED`` the block also runs step
by step and the two must agree exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from typing import Any

from .. import steps as st
from ..cards import ROTATIONS
from ..expressions import Call, Const, Expression, ListLit, Name
from ..functions import BUILTINS
from ..kept import exact
from ..machine.frontier import _BUDGET
from ..machine.runner import MAX_RUN_STEPS
from ..meters import Meters
from ..table import Layout
from . import evaluate as ev
from .run import Run, note_shape
from .steady import PURE_CALLS, TRIAL, structural

KEPT = 1024
"""Effects one block keeps (by its key, see the module docs); it starts afresh beyond."""

_NO: Any = object()


class _At(int):
    """A card's code tagged with the place it started in (recording only)."""

    at: int


class Names:
    """What a block reads: ``read``, names whose values it uses (variables or the frame's, never a
    region); ``sel``, names that only select places (regions allowed); ``written``, the variables
    it sets (``let``) or drops (a ``for``'s variable), in no order."""

    __slots__ = ("calls", "read", "sel", "written")

    def __init__(self) -> None:
        self.read: set[str] = set()
        self.sel: set[str] = set()
        self.written: set[str] = set()
        self.calls: set[str] = set()


def _new_cards(node: Any) -> bool:
    """``new(a, b)`` of names or constants, or a list of such."""
    if isinstance(node, ListLit):
        return bool(node.items) and all(_new_cards(n) for n in node.items)
    return (
        isinstance(node, Call) and node.func == "new" and all(isinstance(a, (Name, Const)) for a in node.args)
    )


def _expr_ok(e: Expression | None) -> bool:
    return e is not None and structural(e.node) and e.calls() <= PURE_CALLS


def pure_names(steps: list[st.Step]) -> Names | None:
    """The names a block reads before it sets them (see :class:`Names`), or None where a step of
    it may read a card or draw (see the module docs). A name read that a ``move`` or ``place`` of
    the block names as its target may be a region the block makes (``move U: ...`` then ``let x:
    U[1]`` reads a card the key never sees): refused."""
    names = Names()
    made: set[str] = set()
    if _walk(steps, set(), names, made) is None or names.read & made:
        return None
    return names


def _walk(steps: list[st.Step], bound: set[str], names: Names, made: set[str]) -> set[str] | None:
    bound = set(bound)
    for step in steps:
        if step.labels:
            return None
        if isinstance(step, st.Note):
            continue
        if isinstance(step, st.Let):
            for e in step.values.values():
                if not _expr_ok(e):
                    return None
                names.read |= e.names() - bound
                names.calls |= e.calls()
            for name in step.values:
                bound.add(name)
                names.written.add(name)
        elif isinstance(step, st.For):
            if not _expr_ok(step.values):
                return None
            assert step.values is not None
            names.read |= step.values.names() - bound
            names.calls |= step.values.calls()
            if _walk(step.body, bound | {step.var}, names, made) is None:
                return None
            names.written.add(step.var)
            bound.discard(step.var)  # dropped: a name read later is a region's or the frame's
        elif isinstance(step, st.If):
            if not _expr_ok(step.cond):
                return None
            assert step.cond is not None
            names.read |= step.cond.names() - bound
            names.calls |= step.cond.calls()
            a = _walk(step.then, bound, names, made)
            b = _walk(step.other, bound, names, made)
            if a is None or b is None:
                return None
            bound = a & b
        elif isinstance(step, st.Do):
            got = _walk(step.body, bound, names, made)
            if got is None:
                return None
            bound = got
        elif isinstance(step, st.Move):
            for target, src in step.pairs:
                if target.name is None or not _expr_ok(src):
                    return None
                made.add(target.name)
                names.sel |= src.names() - bound
                names.calls |= src.calls()
        elif isinstance(step, st.Place):
            for target, _form, items in step.targets:
                if target.expr is not None:
                    if not _expr_ok(target.expr):
                        return None
                    names.sel |= target.expr.names() - bound
                    names.calls |= target.expr.calls()
                elif target.name is not None:
                    names.sel.add(target.name)
                    made.add(target.name)
                else:
                    return None
                if not _new_cards(items.node):
                    return None
                names.read |= items.names() - bound
                names.calls |= items.calls() | {"new"}
        else:
            return None
    return bound


class _Effect:
    """What one run of the block did, from its key (see :meth:`Pure.run`)."""

    consts: tuple[int, ...]
    count: int
    current: str | None
    env: tuple[tuple[str, Any], ...]
    frame: Any
    gather: Callable[[list[int]], Any]
    layout: Layout
    layouts: tuple[Layout, ...]
    limits: Any
    meters: Meters
    meters_after: Meters
    observations: tuple[Any, ...]
    out: Any

    __slots__ = (
        "consts",
        "count",
        "current",
        "env",
        "frame",
        "gather",
        "layout",
        "layouts",
        "limits",
        "meters",
        "meters_after",
        "observations",
        "out",
    )


class Pure:
    """A block of steps that read no card (see the module docs): ``run(run)`` does what
    ``run_block(run, block)`` does."""

    __slots__ = ("_calls", "block", "hits", "kept", "names", "read", "run_block", "sel", "tries", "written")

    def __init__(self, block: Any, names: Names, run_block: Any):
        self.block = block
        self.run_block = run_block
        self.read = tuple(sorted(names.read))
        self.sel = tuple(sorted(names.sel - names.read))
        self.names = tuple(sorted(names.read | names.sel))
        self.written = tuple(sorted(names.written))
        self.kept: dict[tuple[Any, ...], _Effect] = {}
        self.tries = 0
        self.hits = 0
        self._calls = tuple(sorted(names.calls))

    def key(self, run: Run) -> tuple[Any, ...] | None:
        env = run.vars()
        layout = run.layout
        regions = layout.by_name
        values: list[Any] = []
        for n in self.read:
            if n in regions:  # a region's cards would be read (a variable of its name may be dropped)
                return None
            v = env.get(n, _NO)
            if v is not _NO and type(v) is not int:
                v = exact(v)
            values.append(v)
        for n in self.sel:
            v = env.get(n, _NO)
            if v is not _NO and type(v) is not int:
                v = exact(v)
            values.append(v)
        faces = bytes([(c & 1) | 2 if c < 0 else c & 1 for c in run.cells])
        return (layout, id(run.frame), run.runner.seats, run.out, id(run.meters), faces, *values)

    def run(self, run: Run) -> None:
        if self.tries >= TRIAL and self.hits * 8 < self.tries:  # it does not pay: left off
            if self.kept:
                self.kept.clear()
            self.run_block(run, self.block)
            return
        key = self.key(run)
        if key is None:
            self.run_block(run, self.block)
            return
        self.tries += 1
        hit = self.kept.get(key)
        shared = run.shared
        if (
            hit is not None
            and hit.frame is run.frame
            and hit.meters is run.meters
            and hit.limits is run.runner.limits
            and shared.peak_frontier
            and shared.states_processed - shared.run_start + hit.count < MAX_RUN_STEPS
        ):
            left = _BUDGET.get()
            if left is None or left[0] >= hit.count:
                self.hits += 1
                if ev.CHECKED:
                    self._checked(run, hit, left)
                else:
                    self._replay(run, hit, left)
                return
        self._record(run, key)

    def _replay(self, run: Run, hit: _Effect, left: Any) -> None:
        shared = run.shared
        run.cells = list(hit.gather([*run.cells, *hit.consts]))
        seen = shared.layouts_seen
        for layout in hit.layouts:
            if id(layout) not in seen:
                seen[id(layout)] = layout
                note_shape(shared, layout)
        shared.states_processed += hit.count
        if left is not None:
            left[0] -= hit.count
        view = run.view
        extend = run.views.extend
        for obs in hit.observations:
            view = extend(view, obs)
        run.view = view
        run.env = _env(run.env, hit.env)
        run.layout = hit.layout
        run.out = hit.out
        run.meters = hit.meters_after
        run.runner.current = hit.current

    def _checked(self, run: Run, hit: _Effect, left: Any) -> None:
        """The replay and the steps, which must agree (``ev.CHECKED``)."""
        shared = run.shared
        before = (run.cells, run.layout, run.env, run.out, run.meters, run.view, run.runner.current)
        count = shared.states_processed
        budget = None if left is None else left[0]
        seen = dict(shared.layouts_seen)
        try:
            self._replay(run, hit, left)
        except Exception as exc:  # a kept effect that cannot even be carried out
            raise ev.Mismatch(f"a replayed block of steps failed: {exc!r}") from exc
        mine = (run.cells, run.layout, run.env, run.out, run.meters, run.view, run.runner.current)
        mine_count = shared.states_processed - count
        mine_seen = list(shared.layouts_seen)
        run.cells, run.layout, run.env, run.out, run.meters, run.view, run.runner.current = before
        shared.states_processed = count
        if left is not None:
            left[0] = budget
        shared.layouts_seen.clear()
        shared.layouts_seen.update(seen)
        self.run_block(run, self.block)
        theirs = (run.cells, run.layout, run.env, run.out, run.meters, run.view, run.runner.current)
        if mine != theirs or mine_count != shared.states_processed - count:
            raise ev.Mismatch(f"a replayed block of steps is not its steps: {mine} is not {theirs}")
        if set(mine_seen) != set(shared.layouts_seen):
            raise ev.Mismatch("a replayed block of steps noted other layouts than its steps")

    def _record(self, run: Run, key: tuple[Any, ...]) -> None:
        """The block's steps, carried out as they are, and what they did kept by ``key``."""
        shared = run.shared
        functions = run.frame.globals.functions
        if any(functions.get(n) is not BUILTINS.get(n) for n in self._calls):
            self.run_block(run, self.block)
            return
        meters, view, frame, out = run.meters, run.view, run.frame, run.out
        limits = run.runner.limits
        count = shared.states_processed
        start = run.cells  # a block recorded inside another's recording: the outer tags, kept
        n = len(start)
        tagged: list[int] = []
        for j, c in enumerate(start):
            t = _At(c)
            t.at = j
            tagged.append(t)
        run.cells = tagged
        seen = shared.layouts_seen
        fresh: dict[int, Any] = {}
        shared.layouts_seen = fresh  # every layout a step leaves is noted as new: all are listed
        try:
            self.run_block(run, self.block)
        except BaseException:
            run.cells = _untag(run.cells, start)
            raise
        finally:
            for k, v in fresh.items():
                if k not in seen:
                    seen[k] = v
            shared.layouts_seen = seen
        cells = run.cells
        src = []
        consts: list[int] = []
        for c in cells:
            if type(c) is _At:
                src.append(c.at)
            else:  # a new card or an empty place: after the cards, in the order met
                src.append(n + len(consts))
                consts.append(int(c))
        run.cells = _untag(cells, start)
        observations = _observations(run.views, view, run.view)
        if observations is None or not src or not _from_supply(consts, out, run.out):
            return
        effect = _Effect()
        effect.gather = itemgetter(*src) if len(src) > 1 else lambda xs: (xs[src[0]],)
        effect.consts = tuple(consts)
        effect.count = shared.states_processed - count
        effect.current = run.runner.current
        effect.env = tuple((name, dict(run.env).get(name, _NO)) for name in self.written)
        effect.frame = frame
        effect.layout = run.layout
        effect.layouts = tuple(fresh.values())
        effect.limits = limits
        effect.meters = meters
        effect.meters_after = run.meters
        effect.observations = observations
        effect.out = run.out
        kept = self.kept
        if len(kept) >= KEPT:
            kept.clear()
        kept[key] = effect


def _from_supply(consts: list[int], before: Any, after: Any) -> bool:
    """Whether the cards ``consts`` that carry no tag (empty places aside) are exactly the cards
    the block took from the supply (``out`` from ``before`` to ``after``), symbol by symbol, an
    up-down card's two faces one card: the new cards of its ``place new(...)`` steps. A step that
    makes a card's code afresh instead of moving it (a turn, a rotation) leaves an untagged card
    no new card accounts for: kept, its code would be laid at every replay (refused)."""
    took = dict(after)
    for sid, n in before:
        took[sid] = took.get(sid, 0) - n
    physical = ROTATIONS.physical
    for c in consts:
        if c >= 0:
            sid = physical(c >> 1)
            took[sid] = took.get(sid, 0) - 1
    return not any(took.values())


def _untag(cells: list[int], start: list[int]) -> list[int]:
    """The cells with each card tagged by this recording back as it was at its start (an outer
    recording's tag, where a block is recorded inside another's: a plain ``int`` would lose it)."""
    return [start[c.at] if type(c) is _At else c for c in cells]


def _env(env: Any, changes: tuple[tuple[str, Any], ...]) -> Any:
    d = dict(env)
    for name, v in changes:
        if v is _NO:
            d.pop(name, None)
        else:
            d[name] = v
    return tuple(sorted(d.items()))


def _observations(views: Any, start: int, end: int) -> tuple[Any, ...] | None:
    """The observations that led from view ``start`` to ``end`` (None if it is not one of its)."""
    out = []
    view = end
    while view != start:
        if view <= 0:
            return None
        parent, obs = views.entries[view]
        out.append(obs)
        view = parent
    return tuple(out[::-1])
