"""One compiled run's table and counters (:class:`Run`), and the interpreter's objects made from it.

A run of the interpreter carries immutable :class:`~reference_engine.table.State` objects
through a frontier; a compiled run has exactly one table, so it keeps it in one mutable
:class:`Run`: the layout (an interned :class:`~reference_engine.table.Layout`, without the
display labels an interpreter's trace draws), the cards as a list that actions replace or edit,
and the same helper usage, variables, counters and view the interpreter keeps, in the same
types (``out`` and ``env`` as sorted tuples, :class:`~reference_engine.table.Meters`, a view id
of the game's :class:`~reference_engine.machine.ViewTable`). :meth:`Run.state` shows it as a
``State`` to whatever reads one (the interpreter's expression evaluator, its resolvers, the
reading of outputs); :meth:`Run.final` is the ``State`` the interpreter would have ended with.
"""

from __future__ import annotations

from typing import Any

from ..cards import DEALT
from ..errors import RunError
from ..machine import Runner, Shared
from ..machine.frontier import spend
from ..machine.runner import MAX_RUN_STEPS
from ..meters import Meters
from ..table import Layout, State

NO_METERS = Meters()
"""The counters of a run that has done nothing yet (one instance: its steps are memoized)."""


class Run:
    """The single table of a compiled run (see the module docs) and what its steps need."""

    __slots__ = (
        "E",
        "__weakref__",
        "_vars",
        "_vars_of",
        "cells",
        "env",
        "ev",
        "fev",
        "frame",
        "layout",
        "meters",
        "out",
        "runner",
        "shared",
        "view",
        "views",
    )

    def __init__(self, runner: Runner, frame: Any, state: State):
        self.runner = runner
        self.shared: Shared = runner.shared
        self.views = runner.views
        self.frame = frame
        self.ev = runner.evaluator(frame)
        self.layout: Layout = state.layout
        self.cells: list[int] = list(state.cells)
        self.out = state.out
        self.env = state.env
        m = state.meters
        self.meters = m if m is NO_METERS or m != NO_METERS else NO_METERS
        self.view = state.view
        self.fev: Any = None  # the evaluator the steps use (set by the program: fast where it can)
        self._vars: dict[str, Any] = {}
        self._vars_of: Any = None
        self.E: Any = None  # what fast functions read (evaluate.env_of: one per run, kept up to date)

    def vars(self) -> dict[str, Any]:
        """The variables as a dict (made again only when they change)."""
        if self._vars_of is not self.env:
            self._vars = dict(self.env)
            self._vars_of = self.env
        return self._vars

    def state(self) -> State:
        """The table as a ``State`` (its cells are this run's list: read it before the next step)."""
        s: State = object.__new__(State)
        s.layout = self.layout
        s.cells = self.cells  # type: ignore[assignment]  # a list reads as the tuple does
        s.out = self.out
        s.env = self.env
        s.meters = self.meters
        s.view = self.view
        s.lazy = ()
        s._hash = 0
        return s

    def final(self) -> State:
        return State(self.layout, tuple(self.cells), self.out, self.env, self.meters, self.view)


Space = tuple[bool, tuple[int, int] | None, tuple[int, int]]
"""What :func:`space` says of a layout: whether it has a hand, its first region of the largest
extent, and that extent's order (cells, columns)."""


def _shape(layout: Layout) -> tuple[bool, tuple[int, int] | None]:
    """Whether ``layout`` has a hand, and its first region of the largest extent (by cells, then
    columns): what the interpreter's note of the table space takes from it, region by region
    (``max`` gives the first of the largest, as the interpreter's strict comparison keeps it).
    Worked out, not kept by the regions: asked once per layout (:func:`space` keeps it on the
    layout), by a layout whose regions were met before only about one time in four (10 whole
    card-level UNO games: 930 of 3,255), and the kept answers (with the regions they held) were
    walked by the collector for nothing."""
    regions = layout.regions
    if not regions:
        return False, None
    # max(regions, key=attrgetter("size", "cols")) and whether any region is a hand, in one
    # plain loop (most layouts have one to three regions: max's keyword parsing and a key tuple
    # per region cost more): a region replaces the best only with a strictly larger (cells,
    # columns), as max keeps the first of the largest.
    reg = regions[0]
    size, cols = reg.size, reg.cols
    hands = False
    for r in regions:
        if r.hand is not None:
            hands = True
        s = r.size
        if s > size or (s == size and r.cols > cols):
            reg, size, cols = r, s, r.cols
    return hands, (reg.rows, reg.cols)


def space(layout: Layout) -> tuple[bool, tuple[int, int] | None, tuple[int, int]]:
    """:func:`_shape`'s answer for ``layout`` and the extent's order (cells, columns), kept on
    the layout itself (``Layout._space``) on the first look: a game meets the same few dozen
    interned layouts every turn, each first seen by a new run, and reads it with one attribute
    (no look-up by id, no weak reference to check; it lives and dies with its layout)."""
    hit = layout._space
    if hit is None:
        hands, e = _shape(layout)
        hit = layout._space = (hands, e, (0, 0) if e is None else (e[0] * e[1], e[1]))
    return hit


def note_shape(shared: Shared, layout: Layout) -> None:
    """The interpreter's note of the table space for one table of ``layout``'s shape."""
    hit = layout._space
    if hit is None:
        hit = space(layout)
    if hit[0]:
        shared.hands = True
    e = hit[1]
    if e is not None:
        x = shared.extent  # read once (a dozen new layouts a run)
        if hit[2] > (x[0] * x[1], x[1]):
            shared.extent = e


def note_space(shared: Shared, hit: Space) -> None:
    """:func:`note_shape` of a layout whose :func:`space` is ``hit``, without the layout (the
    table between two takes carried out at once, never made: :mod:`.twotakes`)."""
    hands, e, order = hit
    if hands:
        shared.hands = True
    if e is not None and order > (shared.extent[0] * shared.extent[1], shared.extent[1]):
        shared.extent = e


def after_step(run: Run, number: str | None) -> None:
    """What the interpreter's block does after every step of a single run: the table space (see
    :func:`~reference_engine.machine.runner._note_extent`) and the count of steps carried out."""
    shared = run.shared
    layout = run.layout
    seen = shared.layouts_seen
    if id(layout) not in seen:
        seen[id(layout)] = layout
        note_shape(shared, layout)
    shared.states_processed += 1
    if not shared.peak_frontier:
        shared.peak_frontier = 1
    spend()  # an exploration's budget, if one is in force
    if shared.states_processed - shared.run_start > MAX_RUN_STEPS:
        raise RunError(
            f"{run.frame.proto.name} carried out more than {MAX_RUN_STEPS:,} steps in one run "
            f"(at step {number or '?'}); a loop's range is probably far too large"
        )


def unsupported(runner: Runner) -> str | None:
    """Why a run with this runner cannot be compiled (None when it can): the compiled path is a
    single run's (sample mode) without a trace, and without what only a verification asks."""
    shared = runner.shared
    if runner.mode != "sample":
        return "an exact run"
    if runner.events is not None:
        return "a run that records a trace"
    if runner.watched:
        return "a run that follows what each person sees come into their hand"
    if shared.reveals is not None or shared.symmetry is not None or shared.deferred is not None:
        return "a run of a verification"
    if shared.restartable or shared.merge_views is not None or DEALT.ids:
        return "a run of a verification"
    return None
