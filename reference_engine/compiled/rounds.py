"""A loop's round, looked up instead of carried out step by step (the knockout lottery's rounds).

A round of the knockout lottery (``for r``: slide arrows out, place fresh ones, spin the mats,
turn, rotate, let, discard) runs some thirty steps of tens of microseconds each, on a small
table that repeats: the same layout, the same variables (``alive``, ``h``), the same arrows;
only the candidate cards differ, and the round never looks at them, it carries them. So one
iteration of such a loop's body is kept, per everything it depends on, as what it does to the
run, and replayed:

- the key: the layout, the variables, the counters (:class:`~reference_engine.meters.Meters`),
  the helper usage (``out``), the seats, and the cells with every face-down card that is not an
  up-down card replaced by the order in which its face first lies (equal faces alike): a
  renaming of those faces is the same key;
- the random numbers the round draws (a ``spin`` draws one ``random()`` per mat, compared with
  1/2): drawn as the round would, the same calls in the same order, and the outcome looked up
  by which of them are below 1/2;
- the effect: the cells after it (those faces by their order, mapped back to the run's faces),
  the layout, the variables, the counters, the helper usage, the observations added to the
  view (each extended in order, so the view is the same), the layouts met and the count of
  steps carried out (the table space and the steps' count, :func:`~.run.after_step`), the step
  named last.

Why a renaming of those faces changes nothing but the faces: the steps a kept body may hold
(:data:`KINDS`) read a face-down card only to carry it (a plan's gather, a ``spin``'s turn, a
rotation, which leaves a card that is not an up-down card as it is), or read what the key
keeps (empty or not, face up or down, an up-down card or not); expressions read only face-up
cards (a face-down one is a :class:`~reference_engine.table.LeakError`). What could still show
such a face is checked after each round kept, which is refused (and carried out step by step
every time after) if one happened: a face turned up or put with the spares (it would be in the
helper usage, in the view or in the cells as another code), one of those faces in the
variables or in an observation, a comparison of card codes (:data:`~reference_engine.cards.CODE_ORDER`),
a card with one of those faces made during the round, a random number drawn other than by one
step's ``random()``, a table that shows a sleeve's card. A round that raises is not kept; a run
with limits, game functions, a budget or near the limit of steps carries every round out.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .. import steps as st
from ..cards import CODE_ORDER, ROTATIONS, Symbol
from ..machine.frontier import _BUDGET
from ..machine.runner import MAX_RUN_STEPS
from ..machine.views import ViewTable
from .run import Run

KINDS: tuple[type[st.Step], ...] = (
    st.If,
    st.Let,
    st.Do,
    st.For,
    st.Note,
    st.Move,
    st.Place,
    st.Turn,
    st.Rotate,
    st.Discard,
)
"""The step kinds a kept round may hold (and ``spin`` shuffles): see the module docs."""

ENABLED = False
"""Off: measured on whole card-level games (the knockout lottery called with 5+ candidates), a
round's key meets its outcome again too rarely (the arrows of the sleeves in the running and
the draws: 2^(sleeves + matches) outcomes a round) for the noting of new rounds to pay: 15-20 %
slower over 12 games, even over 60. Read when a loop is compiled (the tests switch it on)."""

KEPT_ROUNDS = 4096
"""Rounds a loop keeps (by key; each with its outcomes by random draws); it starts afresh beyond."""

_REFUSED: Any = "refused"


def fits(body: list[st.Step]) -> bool:
    """Whether a loop's body may be kept round by round: only :data:`KINDS` and ``spin``
    shuffles, and enough of them to be worth it (a one-step body is carried out)."""
    count = 0
    for step in st.walk(body):
        count += 1
        if isinstance(step, st.Shuffle):
            if step.how != "spin":
                return False
        elif not isinstance(step, KINDS):
            return False
    return count >= 4


class _Effect:
    """What one round did (see the module docs)."""

    __slots__ = ("cells", "current", "env", "layout", "layouts", "meters", "obs", "out", "steps")

    def __init__(
        self,
        cells: tuple[int, ...],
        current: str | None,
        env: Any,
        layout: Any,
        layouts: tuple[Any, ...],
        meters: Any,
        obs: tuple[Any, ...],
        out: Any,
        steps: int,
    ):
        self.cells = cells
        self.current = current
        self.env = env
        self.layout = layout
        self.layouts = layouts
        self.meters = meters
        self.obs = obs
        self.out = out
        self.steps = steps


class _Round:
    """A key's rounds: how many numbers they draw, and the effect by the draws' outcomes."""

    __slots__ = ("draws", "frame", "outcomes")

    def __init__(self, frame: Any, draws: int):
        self.frame = frame
        self.draws = draws
        self.outcomes: dict[tuple[bool, ...], _Effect] = {}


class _Views:
    """The run's view table, noting the observations a round adds."""

    __slots__ = ("notes", "table", "tainted")

    def __init__(self, table: ViewTable):
        self.table = table
        self.notes: list[Any] = []
        self.tainted = False

    def extend(self, view: int, obs: Any) -> int:
        self.notes.append(obs)
        return self.table.extend(view, obs)

    def __getattr__(self, name: str) -> Any:
        self.tainted = True
        return getattr(self.table, name)


class _Tape:
    """The run's random generator, noting the ``random()`` numbers a round draws (after
    ``given``, drawn already, in order) and the steps that drew them."""

    __slots__ = ("given", "numbers", "rng", "steps", "tainted", "where")

    def __init__(self, rng: Any, given: list[float], where: list[int]):
        self.rng = rng
        self.given = given
        self.numbers: list[float] = []
        self.steps: set[int] = set()
        self.where = where
        self.tainted = False

    def random(self) -> float:
        self.steps.add(self.where[0])
        x = self.given.pop(0) if self.given else self.rng.random()
        self.numbers.append(x)
        return x

    def __getattr__(self, name: str) -> Any:
        self.tainted = True
        return getattr(self.rng, name)


class Rounds:
    """One loop's kept rounds (see the module docs). ``blocks`` is the module whose
    ``run_block`` carries a block out (:mod:`.ops`: the name its steps call, replaced while a
    round is noted, so that every step, nested or not, is seen)."""

    def __init__(self, blocks: Any):
        self.blocks = blocks
        self.kept: dict[tuple[Any, ...], Any] = {}

    def run(self, run: Run, body: Any) -> None:
        """One iteration of the loop's body (its variable set already)."""
        runner = run.runner
        shared = run.shared
        if (
            runner.limits is not None
            or run.frame.proto.context
            or _BUDGET.get() is not None
            or type(run.views) is not ViewTable
            or shared.states_processed - shared.run_start + 1_000 > MAX_RUN_STEPS
        ):
            self.blocks.run_block(run, body)
            return
        to = ROTATIONS.to
        faces: dict[int, int] = {}
        cells = []
        for c in run.cells:
            if c >= 0 and not c & 1 and (c >> 1) not in to:
                k = faces.get(c)
                if k is None:
                    k = faces[c] = len(faces)
                cells.append(-2 - k)
            else:
                cells.append(c)
        key = (run.layout, run.env, run.meters, run.out, runner.seats, tuple(cells))
        kept = self.kept.get(key)
        if kept is _REFUSED or (kept is not None and kept.frame is not run.frame):
            self.blocks.run_block(run, body)
            return
        given: list[float] = []
        if kept is not None:
            rng = runner.rng
            given = [rng.random() for _ in range(kept.draws)]
            effect = kept.outcomes.get(tuple([x < 0.5 for x in given]))
            if effect is not None:
                _replay(run, effect, list(faces))
                return
        self._record(run, body, key, kept, given, faces)

    def _record(
        self, run: Run, body: Any, key: Any, kept: Any, given: list[float], faces: dict[int, int]
    ) -> None:
        """Carries the round out, noting what it does, and keeps it where it may be kept."""
        runner = run.runner
        shared = run.shared
        where = [0]
        layouts: list[Any] = []
        before = shared.states_processed
        start_cells = Counter(c for c in run.cells if c in faces)
        views = _Views(run.views)
        tape = _Tape(runner.rng, given, where)
        orders = CODE_ORDER.reads
        start_out = run.out
        start_env = run.env
        blocks = self.blocks
        block = blocks.run_block

        def noting(r: Run, blk: Any) -> None:
            for item in blk:
                where[0] += 1
                block(r, (item,))
                layouts.append(r.layout)

        rng = runner.rng
        run.views = views  # type: ignore[assignment]  # noted, then handed back
        runner.rng = tape  # type: ignore[assignment]
        blocks.run_block = noting
        try:
            noting(run, body)
        finally:
            blocks.run_block = block
            run.views = views.table
            runner.rng = rng
        if len(self.kept) >= KEPT_ROUNDS:
            self.kept.clear()
        if (
            views.tainted
            or tape.tainted
            or tape.given
            or len(tape.steps) > 1
            or CODE_ORDER.reads != orders
            or shared.states_processed - before != len(layouts)
            or any(layout.shown for layout in layouts)
            or not _clean(run, faces, start_cells, start_out, start_env, views.notes)
        ):
            self.kept[key] = _REFUSED
            return
        if kept is None:
            kept = self.kept[key] = _Round(run.frame, len(tape.numbers))
        elif kept.draws != len(tape.numbers):
            self.kept[key] = _REFUSED
            return
        mine = {c: -2 - k for c, k in faces.items()}
        kept.outcomes[tuple([x < 0.5 for x in tape.numbers])] = _Effect(
            cells=tuple([mine.get(c, c) for c in run.cells]),
            current=runner.current,
            env=run.env,
            layout=run.layout,
            layouts=tuple(dict.fromkeys(layouts)),
            meters=run.meters,
            obs=tuple(views.notes),
            out=run.out,
            steps=len(layouts),
        )


def _clean(
    run: Run, faces: dict[int, int], start: Counter[int], start_out: Any, start_env: Any, notes: list[Any]
) -> bool:
    """Whether the round left the renamed faces unseen: carried (each as often as before, face
    down), not in the helper usage, the variables or an observation."""
    if not faces:
        return True
    sids = {c >> 1 for c in faces}
    if Counter(c for c in run.cells if c >= 0 and (c >> 1) in sids) != start:
        return False
    changed = set(start_out) ^ set(run.out)
    if any(sid in sids for sid, _ in changed):
        return False
    codes = set(faces) | {c ^ 1 for c in faces}
    if _shows(tuple(set(run.env).difference(start_env)), None, sids):  # the variables set
        return False
    for obs in notes:
        kind = obs[0] if type(obs) is tuple and obs else None
        if kind in _VALUES:
            if _shows(obs[1:], None, sids):
                return False
        elif _shows(obs, sids if kind == "discard" else codes, sids):
            return False
    return True


_VALUES = frozenset({"if", "let", "for"})
"""Observations of expressions' values: a whole number in them is a number, not a card's code
(an expression sees a card as its face, a :class:`~reference_engine.cards.Symbol`)."""


def _shows(value: Any, codes: set[int] | None, sids: set[int]) -> bool:
    """Whether ``value`` holds one of those faces, or of those ``codes`` (None: its whole
    numbers are numbers); anything it cannot tell: yes."""
    stack = [value]
    while stack:
        v = stack.pop()
        t = type(v)
        if t is int:
            if codes is not None and v in codes:
                return True
        elif t is tuple or t is list or t is frozenset:
            stack.extend(v)
        elif t is bool or t is str or v is None or t is float:
            continue
        elif isinstance(v, Symbol):
            if v.id in sids:
                return True
        else:
            return True
    return False


def _replay(run: Run, effect: _Effect, faces: list[int]) -> None:
    """The kept round's effect on this run (``faces``: this run's renamed faces, in order)."""
    run.cells = [faces[-2 - v] if v < -1 else v for v in effect.cells]
    run.layout = effect.layout
    run.env = effect.env
    run.meters = effect.meters
    run.out = effect.out
    views = run.views
    view = run.view
    for obs in effect.obs:
        view = views.extend(view, obs)
    run.view = view
    shared = run.shared
    seen = shared.layouts_seen
    for layout in effect.layouts:
        if id(layout) not in seen:
            seen[id(layout)] = layout
            for reg in layout.regions:
                if reg.hand is not None:
                    shared.hands = True
                e = (reg.rows, reg.cols)
                if (e[0] * e[1], e[1]) > (shared.extent[0] * shared.extent[1], shared.extent[1]):
                    shared.extent = e
    shared.states_processed += effect.steps
    if not shared.peak_frontier:
        shared.peak_frontier = 1
    run.runner.current = effect.current
