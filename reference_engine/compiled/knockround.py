"""A knockout round (slide, spin and decision: ``4(a)``, ``4(b)``, ``4(c)``) as one operation.

A knockout lottery's round (``knockout-lottery``, Step 4: ``if len(alive) > 1``) is three steps:
``4(a)`` sets ``h``, slides the left arrows out into ``U`` and a fresh "no" arrow into each left
sleeve, ``4(b)`` spins every match (``[P[*, alive[2 * i - 1]], U[i], P[*, alive[2 * i]]]``: one
random half turn each), ``4(c)`` turns ``U``, rotates the winners' arrows, sets ``out`` and
``alive`` and discards the losers' arrows and ``U``. As steps they cost a block run, a key made
and looked up or an expression evaluated per step, ``h + 12`` steps in all. Here
(:class:`Round`) they are one function of ``alive``, the regions ``P`` and ``U`` and the cards
of the matches: the same random numbers drawn in the same order (one ``random()`` a match,
``< 1/2`` keeping the match as it lies, as :func:`~.ops._spun`), the same views (``h``, the loop,
the turned arrows, the two lets, a discard of face-down cards), the same counters (the spin, the
turn, the supply through the steps' own plans, applied by :func:`~.base.apply_plan`), the same
variables, the same steps counted and layouts noted as ``run_block`` counts and notes them, and
the step number a message would name left as it would be.

When it applies. Statically (:func:`branch`): the ``if``'s branch ends with the spin and the
decision exactly as the lottery has them, node for node (the prose aside); the slide is direct
only where it is the lottery's too (else it runs as compiled, :meth:`Round._slide`). At each run,
before anything of a part is done (:meth:`Round._slide`, :meth:`Round._direct`): the budget and
the limit of steps cannot be reached within its steps; no limit on the supply is in force (the
slide); the layout has no labels and shows no card; ``P``, ``U``, ``up`` and ``down`` are what
the evaluator finds first (``P`` a region and ``U`` one only after the slide, no variable of
those names, ``up`` and ``down`` symbols of the frame naming no region, ``len`` and ``new`` the
built-ins); ``U`` the last region, one row of ``h`` single cards in no sleeve; ``P`` two rows of
single cards, no hand; ``alive`` a tuple of distinct columns of ``P``, ``h`` a whole number with
``1 <= h`` and ``2 * h <= len(alive)``; no place of a match empty and no card of one face up
(nothing of the spin is seen; every arrow turned comes face up and reads as the evaluator reads
it). Anything else: the steps as compiled, every error and observation theirs. The plans of the
move, the places and the discards are :func:`~.ops.make_plan`'s (the steps' own resolvers and
builders, kept here by layout and places), their errors raised as the steps raise them. With
``ev.CHECKED`` every round is carried out both ways from the same table and generator and must
end the same (:func:`~.segments._snapshot`). Where a part is not direct, its steps run as
compiled (:mod:`.pure` replays the slide, :mod:`.chained` and :mod:`.knockout` the decision).

The slide at once (:meth:`Round._at_once`). Where the move's plan is
:func:`~.holes.move_out`'s and each place's :func:`~.holes.place_holes`' (statically on the
layout: ``P``'s sleeves keep both its rows, show nothing whatever is empty (not lying front up)
and land its arrows face down; at each run: the place is face down, the move leaves a card in
the arrow row), the move and the loop of places are carried out at once: the left arrows
appended as ``U``, a fresh face-down ``down`` in each of their places, the supply as after the
last place (``h`` cards of one symbol taken: the peaks the last place notes are the highest),
the layout the last place leaves (kept by layout and ``h``), the ``h + 3`` steps counted. The
tables between the steps are not made: they differ from the last only in empty places of
``P``, so the table space noted for them is the last one's; under ``ev.CHECKED`` the layouts
the round notes must be among those the steps note, the rest compared as before.

A whole round at once (:meth:`Round._whole`). Where the slide would be carried out at once and
the spin and decision directly, the three are one function: what depends on the layout and
``alive`` alone (the conditions above on the layout, the layout the slide leaves, the places of
the matches) is worked out once per pair (:meth:`Round._round_plan`; a lottery's layout at a
round follows from ``alive``, so a game meets few pairs), and each run checks only the rest (the
budget and the limit of steps for the whole round, the names, the frame's symbols and
built-ins, the matches' cards face down before the slide: the slide leaves them so). The steps,
views, counters and draws are those of the three parts in order; anything else runs the parts
as before. What the decision does once the middle arrows are turned follows from ``alive`` and
which of them point up (:func:`~.knockout._outcome`: ``out``, ``alive``, the arrows rotated, how
both discards go from the layout the slide leaves), kept with the pair's plan. Measured
(valgrind, 1,007 steady card-level UNO turns of the bench): 4,280 M instructions before,
4,180 M with the whole round, 4,128 M with the decision's outcomes kept (-3.6 %); the first
1,017 turns 5,132 M before, 4,994 M after (-2.7 %). The tables after the slide and between
the two discards are never made: the round's plan notes the first's room
(:func:`_after_slide`) and :func:`~.knockout._outcome` works the table both discards leave out
from the one before the slide (valgrind, instructions a turn: the first 1,017 turns 4.886 M
before, 4.817 M after; the next 1,007 3.626 M, 3.606 M).

Measured (valgrind, 11 whole card-level UNO games less 1, hash seed 0): 6,991,829 instructions a
turn before, 6,679,419 after (-4.5 %): the spin and decision direct -3.5 %, the slide -0.2 %,
the discards without a plan (:mod:`.discards`) -0.8 %.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import steps as st
from ..cards import ROTATIONS, SYMBOLS, Symbol
from ..expressions import EvalError
from ..functions import BUILTINS
from ..machine.actions import layout as lay
from ..machine.frontier import _BUDGET, env_drop, env_kept, env_set
from ..machine.plans import check_shown
from ..machine.runner import MAX_RUN_STEPS
from ..meters import out_add
from ..table import SLEEVES, Layout
from . import discards
from . import evaluate as ev
from . import plans as fp
from .base import apply_plan, fail
from .knockout import _canonical, _outcome, _rows, _sig, _slide_sig
from .run import Run, Space, note_shape, note_space, space

STEPS = 8
"""Steps a round's spin and decision count: the spin, the decision's six and the decision itself."""

KEPT = 1024
"""Discard plans a round keeps (by layout and places); it starts afresh beyond."""

_LEN = BUILTINS.get("len")
_NEW = BUILTINS.get("new")


def branch(step: st.If, then: Any, run_block: Callable[..., None], make_plan: Callable[..., Any]) -> Any:
    """The ``if``'s branch ``then`` (compiled) as a :class:`Round` where it ends with the
    lottery's spin and decision, else None."""
    if len(step.then) < 2 or len(then) != len(step.then):
        return None
    spin, decide = step.then[-2], step.then[-1]
    if then[-2][2] is not spin or then[-1][2] is not decide:
        return None
    if (_sig(spin), _sig(decide)) != _canonical():
        return None
    assert isinstance(decide, st.Do)
    first = step.then[0]
    slide = first if isinstance(first, st.Do) and len(then) == 3 and then[0][2] is first else None
    if slide is not None and _sig(slide) != _slide_sig():
        slide = None
    return Round(then, slide, decide, run_block, make_plan)


class Round:
    """An ``if``'s branch ending with a round's spin and decision (see the module docs):
    ``run(run)`` does what ``run_block(run, then)`` does."""

    __slots__ = (
        "at_once",
        "decide",
        "discards",
        "ends",
        "head",
        "hits",
        "kept",
        "make_plan",
        "moves",
        "places",
        "rounds",
        "run_block",
        "slid",
        "slide",
        "spin_no",
        "tail",
        "then",
        "whole",
    )

    def __init__(
        self,
        then: Any,
        slide: st.Do | None,
        decide: st.Do,
        run_block: Callable[..., None],
        make_plan: Callable[..., Any],
    ) -> None:
        self.then = then
        self.head = then[:-2]
        self.tail = then[-2:]
        self.slide = None if slide is None else (then[0][1], slide.body[1], slide.body[2].body[0])  # type: ignore[attr-defined]
        self.spin_no = then[-2][1]
        self.decide = then[-1][1]
        self.discards = (decide.body[4], decide.body[5])
        self.run_block = run_block
        self.make_plan = make_plan
        self.kept: dict[Any, Any] = {}  # the discards' plans
        self.moves: dict[Any, Any] = {}  # the slide's move, by layout and left columns
        self.places: dict[Any, Any] = {}  # the slide's places, by layout, place and symbol
        self.hits = 0  # rounds whose spin and decision were direct (the tests count them)
        self.slid = 0  # rounds whose slide was direct
        self.ends: dict[Any, Any] = {}  # the table a slide at once leaves, by layout and matches
        self.at_once = 0  # slides whose move and places were carried out at once
        self.rounds: dict[Any, Any] = {}  # what a whole round at once needs, by layout and alive
        self.whole = 0  # rounds carried out whole at once (the tests count them)

    def run(self, run: Run) -> None:
        if ev.CHECKED:
            self._checked(run)
        else:
            self._go(run)

    def _go(self, run: Run) -> None:
        if self.slide is not None and self._whole(run):
            self.slid += 1
            self.at_once += 1
            self.hits += 1
            self.whole += 1
            return
        if self.slide is not None and self._slide(run):
            self.slid += 1
        elif self.head:
            self.run_block(run, self.head)
        if self._direct(run):
            self.hits += 1
        else:
            self.run_block(run, self.tail)

    def _checked(self, run: Run) -> None:
        """Both ways from the same table and generator, compared; the step-by-step one kept."""
        from .segments import both_ways

        both_ways(run, self._go, lambda r: self.run_block(r, self.then), "a direct knockout round", _same)

    def _slide(self, run: Run) -> bool:
        """4(a) carried out at once (``let h``, the move, the loop of places, each step counted
        and its plan the step's own), or False (nothing done) where the module docs' conditions
        do not hold."""
        assert self.slide is not None
        env = run.vars()
        alive = env.get("alive")
        if type(alive) is not tuple:
            return False
        n = len(alive)
        h = n // 2
        shared = run.shared
        left = _BUDGET.get()
        if (
            h < 1
            or not shared.peak_frontier
            or (left is not None and left[0] < h + 4)
            or shared.states_processed - shared.run_start + h + 4 >= MAX_RUN_STEPS
            or run.runner.limits is not None
        ):
            return False
        layout = run.layout
        by = layout.by_name
        if layout.labels or layout.shown or "U" in by or SLEEVES.get().get("U") is not None:
            return False
        if "P" in env or "U" in env or "down" in env or "down" in by:
            return False
        P = by.get("P")
        if P is None or P.rows != 2 or P.unit != 1 or P.hand is not None:
            return False
        g = run.frame.globals
        down = g.names.get("down")
        functions = g.functions
        if type(down) is not Symbol or functions.get("len") is not BUILTINS.get("len"):
            return False
        if functions.get("new") is not BUILTINS.get("new"):
            return False
        rows = _rows(P, alive, n)
        if rows is None:
            return False
        top, low = rows
        cells = run.cells
        for a in alive[: 2 * h]:
            for f in (top + a, low + a):
                c = cells[f]
                if c < 0 or c & 1:  # an empty place, or a card face up: the steps say
                    return False
        holes = layout.holes
        if holes and any(top + a in holes or low + a in holes for a in alive[: 2 * h]):
            return False
        number, move, place = self.slide
        run.runner.current = number
        views = run.views
        run.env = env_kept(run.env, "h", h) or env_set(run.env, "h", h)
        run.view = views.extend(run.view, ("let", (("h", h),)))
        _done(run)
        lefts = alive[0 : 2 * h : 2]
        if not place.up and self._at_once(run, layout, P, lefts, low, down):
            run.view = views.extend(run.view, ("for", tuple(range(1, h + 1))))
            run.env = env_drop(run.env, "i")
            _done(run, h + 3)  # the move, each place, the loop, the slide itself
            return True
        key: Any = (layout, lefts)
        plan = self.moves.get(key)
        if plan is None:
            plan = self._plan(run, move, lay._move_resolve, lay._move_build, fp.build_move, key, self.moves)
        _apply(run, move, plan)
        run.view = views.extend(run.view, ("for", tuple(range(1, h + 1))))
        up = place.up
        for i, a in enumerate(lefts, 1):
            key = (run.layout, low + a, down)
            plan = self.places.get(key)
            if plan is None:
                env0 = run.env
                run.env = env_kept(env0, "i", i) or env_set(env0, "i", i)
                try:
                    plan = self._plan(
                        run,
                        place,
                        lay._place_resolve,
                        lay._place_build,
                        lambda layout, res: fp.build_place(layout, res, up),
                        key,
                        self.places,
                    )
                finally:
                    run.env = env0
            _apply(run, place, plan)
        run.env = env_drop(run.env, "i")
        _done(run)  # the loop
        _done(run)  # the slide itself
        return True

    def _whole(self, run: Run) -> bool:
        """The slide at once, the spin and the decision as one (what :meth:`_slide` with
        :meth:`_at_once`, then :meth:`_direct`, would do), or False (nothing done) where any of
        their conditions does not hold: those of the layout and ``alive`` looked at once per
        pair (:meth:`_round_plan`), the rest (the budget, the names, the frame's symbols and
        built-ins, the cards of the matches) at each run."""
        env = run.vars()
        alive = env.get("alive")
        if type(alive) is not tuple:
            return False
        layout = run.layout
        key = (layout, alive)
        plan = self.rounds.get(key)
        if plan is None:
            plan = self._round_plan(layout, alive)
            if len(self.rounds) >= KEPT:
                self.rounds.clear()
            self.rounds[key] = plan
        if plan is False:
            return False
        h, room, low, u0, checks, matches, lows, loop, outcomes = plan
        shared = run.shared
        left = _BUDGET.get()
        steps = h + 4 + STEPS
        if (
            not shared.peak_frontier
            or (left is not None and left[0] < steps)
            or shared.states_processed - shared.run_start + steps >= MAX_RUN_STEPS
            or run.runner.limits is not None
        ):
            return False
        if "P" in env or "U" in env or "down" in env or "up" in env or SLEEVES.get().get("U") is not None:
            return False
        g = run.frame.globals
        names = g.names
        down, up = names.get("down"), names.get("up")
        functions = g.functions
        if type(down) is not Symbol or type(up) is not Symbol:
            return False
        if functions.get("len") is not _LEN or functions.get("new") is not _NEW:
            return False
        cells = run.cells
        for f in checks:
            c = cells[f]
            if c < 0 or c & 1:  # an empty place, or a card face up: the steps say
                return False
        # 4(a): let h, the move and the places at once (see _slide and _at_once).
        runner = run.runner
        runner.current = self.slide[0]  # type: ignore[index]
        views = run.views
        view = views.extend(run.view, ("let", (("h", h),)))
        _done(run)  # let h
        code = down.id << 1
        moved = [cells[f] for f in lows]
        for f in lows:
            cells[f] = code
        cells += moved
        run.out = out = out_add(run.out, {ROTATIONS.physical(down.id): h})
        run.meters = run.meters.note_out(out)
        note_space(run.shared, room)  # the table after the slide, never made (the layout stays)
        run.view = views.extend(view, ("for", loop))
        d = dict(env)  # the variables as the let of h and the loop leave them
        d["h"] = h
        d.pop("i", None)
        self._spin(run, matches)
        self._decide(run, alive, h, up, low, u0, outcomes, d, h + 3)
        return True

    def _round_plan(self, layout: Layout, alive: tuple[int, ...]) -> Any:
        """What :meth:`_whole` needs of a layout and ``alive`` (the number of matches, the room
        of the table after the slide, the arrow row's and ``U``'s flat places, the places whose
        cards must lie face down, the matches' places), or False where a condition of :meth:`_slide`,
        :meth:`_at_once` or :meth:`_direct` that depends on them alone does not hold."""
        assert self.slide is not None
        n = len(alive)
        h = n // 2
        by = layout.by_name
        if h < 1 or self.slide[2].up or layout.labels or layout.shown:
            return False
        if "U" in by or "down" in by or "up" in by:
            return False
        P = by.get("P")
        if P is None or P.rows != 2 or P.unit != 1 or P.hand is not None:
            return False
        rows = _rows(P, alive, n)
        if rows is None:
            return False
        top, low = rows
        checks = tuple(f for a in alive[: 2 * h] for f in (top + a, low + a))
        holes = layout.holes
        if holes and not holes.isdisjoint(checks):
            return False
        sleeve = P.sleeve
        if sleeve is not None and (
            (sleeve.kind == "sleeve" and sleeve.side == "front")
            or sleeve.lands_up(2)
            or any(r not in sleeve.rows for r in range(1, P.rows + 1))
        ):
            return False
        if (len(holes.intersection(range(low + 1, low + 1 + P.cols))) if holes else 0) + h >= P.cols:
            return False
        # The table after the slide (``U`` after the regions), never made: what was asked of it
        # is ``layout``'s (``U`` has no sleeve), save where ``U`` lies and its room.
        regions = layout.regions
        u0 = regions[-1].offset + regions[-1].size
        if u0 != layout.size or (holes and not holes.isdisjoint(range(u0, u0 + h))):
            return False
        room = _after_slide(layout, h)
        if ev.CHECKED:
            final = self._slid(layout, h)
            U = final.by_name["U"]
            if (U.offset, final.size, final.shown, space(final)) != (u0, u0 + h, layout.shown, room):
                raise ev.Mismatch(f"the table after the slide from {layout}: {final}, not at {u0}, {room}")
        matches = [
            (top + alive[2 * i], low + alive[2 * i], u0 + i, top + alive[2 * i + 1], low + alive[2 * i + 1])
            for i in range(h)
        ]
        lows = tuple(low + a for a in alive[0 : 2 * h : 2])
        return h, room, low, u0, checks, matches, lows, tuple(range(1, h + 1)), {}

    def _slid(self, layout: Layout, h: int) -> Layout:
        """The table after the slide from ``layout``: its regions, then ``U`` (one row of ``h``)."""
        final = self.ends.get((layout, h))
        if final is None:
            final = Layout.make([("U", 1, h, 1, None, None)], layout.holes, (), layout.regions)
            if len(self.ends) >= KEPT:
                self.ends.clear()
            self.ends[(layout, h)] = final
        return final

    def _at_once(self, run: Run, layout: Any, P: Any, lefts: tuple[int, ...], low: int, down: Symbol) -> bool:
        """The move and the loop of places at once, or False (nothing done) where the builders'
        plans could be other than :func:`~.holes.move_out`'s and :func:`~.holes.place_holes`'
        (see the module docs): the left arrows appended as ``U`` (no sleeve), a fresh face-down
        ``down`` in each of their places, the supply and the peaks as after the last place, the
        table the last place leaves, the steps counted."""
        h = len(lefts)
        final = self.ends.get((layout, h))
        if final is None:
            sleeve = P.sleeve
            if sleeve is not None and (
                (sleeve.kind == "sleeve" and sleeve.side == "front")  # a table between might show
                or sleeve.lands_up(2)  # the arrows, face down, land face up: the move's message
                or any(r not in sleeve.rows for r in range(1, P.rows + 1))
            ):
                return False
            final = self._slid(layout, h)
        holes = layout.holes
        if (len(holes.intersection(range(low + 1, low + 1 + P.cols))) if holes else 0) + h >= P.cols:
            return False  # the move empties the arrow row: the builder trims it
        cells = run.cells
        code = down.id << 1
        moved = []
        for a in lefts:
            moved.append(cells[low + a])
            cells[low + a] = code
        cells += moved
        sid = ROTATIONS.physical(down.id)
        run.out = out = out_add(run.out, {sid: h})
        run.meters = run.meters.note_out(out)
        run.layout = final
        self.at_once += 1
        return True

    def _plan(
        self,
        run: Run,
        step: st.Step,
        resolve: Callable[..., Any],
        build: Callable[..., Any],
        fast: Callable[..., Any],
        key: Any,
        kept: dict[Any, Any],
    ) -> Any:
        """The step's plan as its op makes it (its resolver, :func:`~.ops.make_plan`), kept."""
        try:
            res = resolve(run.runner, run.frame, step, run.state(), run.fev)
            plan = self.make_plan(run, step, res, build, fast)
        except EvalError as exc:
            raise fail(run, step, exc) from None
        if len(kept) >= KEPT:
            kept.clear()
        kept[key] = plan
        return plan

    def _direct(self, run: Run) -> bool:
        """The spin and the decision carried out at once, or False (nothing done) where the
        module docs' conditions do not hold."""
        shared = run.shared
        left = _BUDGET.get()
        if (
            not shared.peak_frontier
            or (left is not None and left[0] < STEPS)
            or shared.states_processed - shared.run_start + STEPS >= MAX_RUN_STEPS
        ):
            return False
        layout = run.layout
        if layout.labels or layout.shown:
            return False
        env = run.vars()
        by = layout.by_name
        if "P" in env or "U" in env or "up" in env or "up" in by:
            return False
        P, U = by.get("P"), by.get("U")
        alive, h = env.get("alive"), env.get("h")
        if P is None or U is None or type(alive) is not tuple or type(h) is not int:
            return False
        n = len(alive)
        if h < 1 or 2 * h > n or U.rows != 1 or U.unit != 1 or U.cols != h or U.hand is not None:
            return False
        if U.sleeve is not None or U.offset + h != layout.size:
            return False
        if P.rows != 2 or P.unit != 1 or P.hand is not None:
            return False
        g = run.frame.globals
        up = g.names.get("up")
        if type(up) is not Symbol or g.functions.get("len") is not BUILTINS.get("len"):
            return False
        rows = _rows(P, alive, n)
        if rows is None:
            return False
        top, low = rows
        cells = run.cells
        u0 = U.offset
        matches: list[tuple[int, ...]] = []
        for i in range(h):
            a, b = alive[2 * i], alive[2 * i + 1]
            flats = (top + a, low + a, u0 + i, top + b, low + b)
            for f in flats:
                c = cells[f]
                if c < 0 or c & 1:  # an empty place, or a card face up: the steps say
                    return False
            matches.append(flats)
        holes = layout.holes
        if holes and any(f in holes for m in matches for f in m):
            return False
        self._spin(run, matches)
        self._decide(run, alive, h, up, low, u0)
        return True

    def _spin(self, run: Run, matches: list[tuple[int, ...]]) -> None:
        """4(b): one ``random()`` a match; ``>= 1/2`` turns it round (the piles in the reverse
        order, every card with a half turn); no card face up, so nothing is seen."""
        run.runner.current = self.spin_no
        cells = run.cells
        rotate = ROTATIONS.rotate
        random = run.runner.rng.random
        for pa, qa, u, pb, qb in matches:
            if random() < 0.5:
                continue
            cells[pa], cells[qa], cells[u], cells[pb], cells[qb] = (
                rotate(cells[pb]),
                rotate(cells[qb]),
                rotate(cells[u]),
                rotate(cells[pa]),
                rotate(cells[qa]),
            )
        run.meters = run.meters.add_shuffle("spin")
        _done(run)

    def _decide(
        self,
        run: Run,
        alive: tuple[int, ...],
        h: int,
        up: Symbol,
        low: int,
        u0: int,
        outcomes: dict[Any, Any] | None = None,
        env: dict[str, Any] | None = None,
        pending: int = 0,
    ) -> None:
        """4(c): the turn, the rotation, the two lets, the two discards, and the block itself;
        what follows from the arrows that point up kept in ``outcomes`` (a round plan's: see
        :func:`_outcome`); ``env``, the variables before (a dict of them, changed here) where
        the run's are not yet set so; ``pending``, steps before not yet counted."""
        run.runner.current = self.decide
        cells = run.cells
        views = run.views
        turned = [c ^ 1 for c in cells[u0 : u0 + h]]  # every one face down before: all seen
        cells[u0 : u0 + h] = turned
        run.view = views.extend(run.view, ("turn", tuple(turned)))
        run.meters = run.meters.add_turn()
        sid = up.id
        if SYMBOLS.by_id(sid) is up:  # the table's own symbol: equal to a face by its id alone
            ups = tuple([c >> 1 == sid for c in turned])
        else:
            by_id = SYMBOLS.by_id
            ups = tuple([by_id(c >> 1) == up for c in turned])
        ends = None if outcomes is None else outcomes.get(ups)
        if ends is None:
            ends = _outcome(alive, ups, low, u0, run.layout if outcomes is not None else None)
            if outcomes is not None:
                outcomes[ups] = ends
        out, won, rotated, losers, hows = ends
        rotate = ROTATIONS.rotate
        for f in rotated:
            cells[f] = rotate(cells[f])
        if env is None:
            env = dict(run.env)
        env["out"] = out  # as the two lets leave it (whole numbers: frozen as they are)
        env["alive"] = won
        run.env = tuple(sorted(env.items()))
        view = views.extend(run.view, ("let", (("out", out),)))
        run.view = views.extend(view, ("let", (("alive", won),)))
        _done(run, pending + 4)  # the turn, the rotation and the two lets: the layout unchanged
        first, second = self.discards
        if hows is None:
            if outcomes is not None:  # a whole round: the table after the slide, for the plans
                run.layout = self._slid(run.layout, h)
            self._discard(run, first, losers)
            self._discard(run, second, tuple(range(u0, u0 + h)))
            _done(run)  # the decision's own step (the enclosing block's count)
        else:  # neither table after shows a card (_outcome): nothing for _checks to look at
            discards.apply(run, hows[0], losers)  # the layout kept: the table between never made
            discards.apply(run, hows[1], tuple(range(u0, u0 + h)))
            _done(run, 3)  # the two discards and the decision's own step

    def _discard(self, run: Run, step: st.Step, flats: tuple[int, ...]) -> None:
        """A discard step of ``flats``: worked out without a plan where :mod:`.discards` can,
        else by its plan (the step's own builders); kept by layout and places."""
        key = (run.layout, flats)
        hit = self.kept.get(key)
        if hit is None:
            how = discards.after(run.layout, flats)
            hit = (how, None if how is not None else self._discard_plan(run, step, flats))
            if len(self.kept) >= KEPT:
                self.kept.clear()
            self.kept[key] = hit
        how, plan = hit
        if how is not None and run.runner.limits is None:
            discards.apply(run, how, flats)
            _checks(run, step)
        else:
            _apply(run, step, plan if plan is not None else self._discard_plan(run, step, flats))

    def _discard_plan(self, run: Run, step: st.Step, flats: tuple[int, ...]) -> Any:
        try:
            return self.make_plan(run, step, flats, lay._discard_build, fp.build_discard)
        except EvalError as exc:
            raise fail(run, step, exc) from None


def _after_slide(layout: Layout, h: int) -> Space:
    """The table space of the table after the slide (:func:`~.run.space`'s answer for it), not
    made: ``layout``'s regions and ``U``, one row of ``h`` after them, which is the largest only
    where strictly larger (cells, then columns) than ``layout``'s first largest."""
    hands, e, order = space(layout)
    if e is None or (h, h) > order:
        e, order = (1, h), (h, h)
    return hands, e, order


def _same(mine: Any, theirs: Any) -> bool:
    """Whether a direct round ends as its steps (:func:`~.segments._snapshot`s, or an error's
    type and message), the layouts noted aside: a slide at once makes none of the tables
    between its steps, so it notes a part of the steps' layouts (the table space noted, which
    is what they are noted for, compared as the rest is)."""
    if len(mine) != len(theirs) or len(mine) <= SEEN:
        return bool(mine == theirs)
    apart = (*mine[:SEEN], *mine[SEEN + 1 :]) == (*theirs[:SEEN], *theirs[SEEN + 1 :])
    return apart and mine[SEEN].items() <= theirs[SEEN].items()


SEEN = 10
"""The place of the layouts noted in a :func:`~.segments._snapshot`."""


def _apply(run: Run, step: st.Step, plan: Any) -> None:
    """A plan applied as its step applies it, then ``run_block``'s checks and count."""
    apply_plan(run, step, plan)
    _checks(run, step)


def _checks(run: Run, step: st.Step) -> None:
    """``run_block``'s check of what sleeves show after a step, and its count."""
    after = run.layout
    if after.shown:
        cells = run.cells
        for f in after.shown:
            if not cells[f] & 1:  # a sleeve shows a card the protocol has face down
                try:
                    check_shown(run.state())
                except EvalError as exc:
                    raise fail(run, step, exc) from None
    _done(run)


def _done(run: Run, steps: int = 1) -> None:
    """``run_block``'s count after ``steps`` steps that raised nothing (the budget and the limit
    of steps checked beforehand not to be reached): the layout noted where new, the steps
    counted."""
    shared = run.shared
    layout = run.layout
    seen = shared.layouts_seen
    if id(layout) not in seen:
        seen[id(layout)] = layout
        note_shape(shared, layout)
    shared.states_processed += steps
    left = _BUDGET.get()
    if left is not None:
        left[0] -= steps


__all__ = ["Round", "branch"]
