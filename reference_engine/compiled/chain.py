"""A block whose decisions read only a few regions' cards, its decisions kept (:class:`Chain`).

A knockout lottery's round ends with ``4(c)``: ``turn: U``, ``rotate: [P[2, alive[2 * i - 1]]
for i in 1..h if U[i] == up]``, ``let out``, ``let alive`` (both reading ``U[i] == up``),
``discard: [P[2, j] for j in out]``, ``discard: U``. Every decision in it (the places turned,
rotated and discarded, the variables' values, the plans of the discards) follows from the layout,
the variables it reads, the frame, which places are empty or face up, and the cards of ``U``
alone: the cards of ``P`` are only selected. Those cards still go where they go, turned or
rotated, and what the discards return is counted and seen as it is; only the decisions are
kept. :class:`Chain` keeps them per such key (``U``'s cards among it) and then carries out the
block in one go: each step's work done with its decision ready (the turn's revealed cards, the
rotations, the discards' plans applied as every planned step applies one), its observations and
counters as the step makes them, the steps counted and their layouts noted as ``run_block``
would.

Which blocks (:func:`chain_names`): only ``turn``, ``rotate``, ``let``, ``discard`` and ``note``
steps, their expressions calling only ``len``, ``exists``, ``nrows`` and ``ncols`` (the built-in
ones, checked in the frame); the names they read by value (not only to select places: see
:func:`~.steady.selected_only`) are keyed by their values, or, where they are regions, by their
cards. Turns and rotations change cards where they lie and discards only take cards away, so the
cards of those regions at every step follow from what they were at the start. A replay is taken
where no sleeve shows a card (no shown check), no helper limits are in force, the steps could not
reach the budget or the limit of steps, and the key was met before; with ``ev.CHECKED`` the block
also runs step by step and the two must agree exactly.
"""

from __future__ import annotations

from typing import Any

from .. import steps as st
from ..cards import EMPTY, ROTATIONS
from ..expressions import EvalError
from ..functions import BUILTINS
from ..kept import exact
from ..machine import Plan
from ..machine.actions import layout as lay
from ..machine.frontier import _BUDGET, env_set
from ..machine.runner import MAX_RUN_STEPS
from ..table import Layout
from . import evaluate as ev
from . import plans as fp
from .base import apply_plan
from .pure import _observations
from .run import Run, note_shape
from .steady import PURE_CALLS, TRIAL, Steady, same, selected_only, steady

KEPT = 1024
"""Decisions one block keeps (by its key, see the module docs); it starts afresh beyond."""

_NO: Any = object()


def chain_names(steps: list[st.Step]) -> tuple[set[str], set[str]] | None:
    """The names a block reads by value before it sets them, and those it only selects places
    by; None where a step is not one :class:`Chain` carries out (see the module docs)."""
    read: set[str] = set()
    sel: set[str] = set()
    bound: set[str] = set()
    for step in steps:
        if step.labels:
            return None
        if isinstance(step, st.Note):
            continue
        if isinstance(step, st.Let):
            for e in step.values.values():
                if e.calls() - PURE_CALLS:
                    return None
                read |= e.names() - bound
            bound |= set(step.values)
        elif isinstance(step, (st.Turn, st.Rotate, st.Discard)):
            what = step.what
            if what is None or what.calls() - PURE_CALLS:
                return None
            only = selected_only(what.node)
            read |= what.names() - only - bound
            sel |= only - bound
        else:
            return None
    return read, sel - read


class _Decided:
    """One run's decisions (see :meth:`Chain.run`)."""

    count: int
    current: str | None
    frame: Any
    layouts: tuple[Layout, ...]
    steps: tuple[tuple[Any, ...], ...]

    __slots__ = ("count", "current", "frame", "layouts", "steps")


class Chain:
    """A block of turns, rotations, lets and discards (see the module docs): ``run(run)`` does
    what ``run_block(run, block)`` does."""

    __slots__ = ("block", "calls", "deciders", "hits", "kept", "read", "run_block", "sel", "tries")

    def __init__(self, c: Any, block: Any, names: tuple[set[str], set[str]], run_block: Any):
        self.block = block
        self.run_block = run_block
        read, sel = names
        self.read = tuple(sorted(read))
        self.sel = tuple(sorted(sel))
        deciders: list[Steady | None] = []
        calls: set[str] = set()
        for _, _, step in block:
            if isinstance(step, (st.Turn, st.Rotate, st.Discard)):
                assert step.what is not None
                deciders.append(steady(c, step.what, same, step.kind))
                calls |= step.what.calls()
            else:
                deciders.append(None)
                if isinstance(step, st.Let):
                    for e in step.values.values():
                        calls |= e.calls()
        self.deciders = tuple(deciders)
        self.calls = tuple(sorted(calls))
        self.kept: dict[tuple[Any, ...], _Decided] = {}
        self.tries = 0
        self.hits = 0

    def key(self, run: Run) -> tuple[Any, ...] | None:
        layout = run.layout
        if layout.shown or run.runner.limits is not None:
            return None
        env = run.vars()
        regions = layout.by_name
        cells = run.cells
        values: list[Any] = []
        for n in self.read:
            v = env.get(n, _NO)
            if v is _NO:
                reg = regions.get(n)
                if reg is not None:  # a region read by value: its cards as they lie
                    v = (_NO, *cells[reg.offset : reg.offset + reg.rows * reg.cols])
            elif type(v) is not int:
                v = exact(v)
            values.append(v)
        for n in self.sel:
            v = env.get(n, _NO)
            if v is not _NO and type(v) is not int:
                v = exact(v)
            values.append(v)
        faces = bytes([(c & 1) | 2 if c < 0 else c & 1 for c in cells])
        return (layout, id(run.frame), run.runner.seats, faces, *values)

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

    def _replay(self, run: Run, hit: _Decided, left: Any) -> None:
        runner = run.runner
        views = run.views
        rotate = ROTATIONS.rotate
        for kind, number, step, data in hit.steps:
            runner.current = number
            if kind == 0:  # turn
                cells = run.cells
                new = [cells[f] ^ 1 for f in data]
                for f, v in zip(data, new):
                    cells[f] = v
                revealed = [v for v in new if v & 1]
                if revealed:
                    run.view = views.extend(run.view, ("turn", tuple(revealed)))
                run.meters = run.meters.add_turn()
            elif kind == 1:  # rotate
                cells = run.cells
                for f in data:
                    cells[f] = rotate(cells[f])
            elif kind == 2:  # let
                env = run.env
                for name, v in data[0]:
                    env = env_set(env, name, v)
                run.env = env
                run.view = views.extend(run.view, data[1])
            elif kind == 3:  # discard
                apply_plan(run, step, data)
        shared = run.shared
        seen = shared.layouts_seen
        for layout in hit.layouts:
            if id(layout) not in seen:
                seen[id(layout)] = layout
                note_shape(shared, layout)
        shared.states_processed += hit.count
        if left is not None:
            left[0] -= hit.count
        runner.current = hit.current

    def _checked(self, run: Run, hit: _Decided, left: Any) -> None:
        """The replay and the steps, which must agree (``ev.CHECKED``)."""
        shared = run.shared
        cells = list(run.cells)
        before = (run.layout, run.env, run.out, run.meters, run.view, run.runner.current)
        count = shared.states_processed
        budget = None if left is None else left[0]
        seen = dict(shared.layouts_seen)
        try:
            self._replay(run, hit, left)
        except Exception as exc:  # a kept effect that cannot even be carried out
            raise ev.Mismatch(f"a replayed block of steps failed: {exc!r}") from exc
        mine = (run.cells, run.layout, run.env, run.out, run.meters, run.view, run.runner.current)
        mine_count = shared.states_processed - count
        mine_seen = set(shared.layouts_seen)
        run.cells = cells
        run.layout, run.env, run.out, run.meters, run.view, run.runner.current = before
        shared.states_processed = count
        if left is not None:
            left[0] = budget
        shared.layouts_seen.clear()
        shared.layouts_seen.update(seen)
        self.run_block(run, self.block)
        theirs = (run.cells, run.layout, run.env, run.out, run.meters, run.view, run.runner.current)
        if mine != theirs or mine_count != shared.states_processed - count:
            raise ev.Mismatch(f"a block with its kept decisions is not its steps: {mine} is not {theirs}")
        if mine_seen != set(shared.layouts_seen):
            raise ev.Mismatch("a block with its kept decisions noted other layouts than its steps")

    def _record(self, run: Run, key: tuple[Any, ...]) -> None:
        """The block's steps carried out one by one as they are, each one's decision worked out
        just before it, and kept by ``key`` where every step went through."""
        shared = run.shared
        functions = run.frame.globals.functions
        keep = all(functions.get(n) is BUILTINS.get(n) for n in self.calls)
        frame = run.frame
        count = shared.states_processed
        seen = shared.layouts_seen
        fresh: dict[int, Any] = {}
        steps: list[tuple[Any, ...]] = []
        shared.layouts_seen = fresh  # every layout a step leaves is noted as new: all are listed
        try:
            for entry, decider in zip(self.block, self.deciders):
                _, number, step = entry
                data: Any = None
                if keep and decider is not None:
                    try:
                        data = decider.value(run)
                        if isinstance(step, st.Discard):
                            data = self._plan(run, step, data)
                        elif any(run.cells[f] == EMPTY for f in data) or len(set(data)) != len(data):
                            keep = False  # the steps' own messages
                    except EvalError:
                        keep = False
                view = run.view
                self.run_block(run, (entry,))
                if run.layout.shown:
                    keep = False
                if isinstance(step, st.Turn):
                    steps.append((0, number, step, data))
                elif isinstance(step, st.Rotate):
                    steps.append((1, number, step, data))
                elif isinstance(step, st.Let):
                    env = dict(run.env)
                    obs = _observations(run.views, view, run.view)
                    if obs is None or len(obs) != 1:
                        keep = False
                        continue
                    steps.append((2, number, step, (tuple((n, env[n]) for n in step.values), obs[0])))
                elif isinstance(step, st.Discard):
                    steps.append((3, number, step, data))
                else:
                    steps.append((4, number, step, None))
        finally:
            for k, v in fresh.items():
                if k not in seen:
                    seen[k] = v
            shared.layouts_seen = seen
        if not keep:
            return
        decided = _Decided()
        decided.count = shared.states_processed - count
        decided.current = run.runner.current
        decided.frame = frame
        decided.layouts = tuple(fresh.values())
        decided.steps = tuple(steps)
        kept = self.kept
        if len(kept) >= KEPT:
            kept.clear()
        kept[key] = decided

    @staticmethod
    def _plan(run: Run, step: st.Discard, res: Any) -> Plan:
        """The plan the discard applies (its builder's, as the step's own)."""
        from .ops import make_plan  # the step compilers' (ops imports this module)

        return make_plan(run, step, res, lay._discard_build, fp.build_discard)
