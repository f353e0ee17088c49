"""Whole-row steps of a compiled run made cheap: a place of new cards laid out from a plan kept
per layout and shape (the faces filled in at each run), a place target read without the
interpreter's evaluator where its indices are constants, and a shuffle's permutation applied
with one gather per row where its piles are the columns of a region.

Each does exactly what the general compiled step does (and so the interpreter's single run):
the same plan, the same cells, the same observations, the same random numbers. The tests
compare each with the general path (``evaluate.CHECKED``) on full tables and hostile layouts.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import chain
from operator import itemgetter
from typing import Any

from .. import steps as st
from ..cards import ROTATIONS
from ..expressions import Call, Const, EvalError, Index, Name, Star
from ..kept import exact as _exact
from ..machine import Plan
from ..machine.plans import Resolved
from ..table import Layout, NewCards
from . import evaluate as ev
from .arrows import ArrowRow
from .base import gather, landed, same_plan
from .codegen import function_kind, variables_only
from .codes import face_down, turned
from .helpers import not_hand_runs
from .holes import Sized
from .owners import OwnerRow
from .plans import Defer, build_place_new, place_sized
from .run import Run
from .steady import kept_target

KEPT = 1024
"""Plans a place step keeps (by layout and shape: see :class:`NewPlace`); it starts afresh beyond."""

_DEFER: Any = object()
_NEW = {NewCards}  # a shape the fast builder leaves to the general path (kept as such)


# --------------------------------------------------------------------------- targets


def target_reader(target: st.Target) -> Callable[[Run], Resolved] | None:
    """What :meth:`~reference_engine.machine.Runner.resolve_target` gives for a target
    ``R[a, b]`` whose indices are whole numbers or ``*`` (``M[2, *]``), read from the layout
    alone; None for any other target (the runner's own resolution then)."""
    if target.name is not None or target.expr is None:
        return None
    node = target.expr.node
    if not (isinstance(node, Index) and isinstance(node.obj, Name) and len(node.args) == 2):
        return None
    fixed: list[tuple[int, ...] | None] = []
    for a in node.args:
        if isinstance(a, Star):
            fixed.append(None)
        elif isinstance(a, Const) and type(a.value) is int:
            fixed.append((a.value,))
        else:
            return None
    name = node.obj.name
    rows, cols = fixed

    def read(run: Run) -> Resolved:
        reg = run.layout.by_name.get(name)
        if reg is None:
            raise Defer()  # not a region here: the runner says what it is
        return (
            "grid",
            reg.name,
            rows if rows is not None else tuple(range(1, reg.rows + 1)),
            cols if cols is not None else tuple(range(1, reg.cols + 1)),
        )

    return read


# --------------------------------------------------------------------------- new cards


def _codes(nc: NewCards, up: bool) -> tuple[int, ...]:
    face = int(up or nc.up)
    return tuple([s.id << 1 | face for s in nc.symbols])


def _leaves(value: Any, out: list[NewCards]) -> bool:
    """The new cards of ``value`` (any nesting of lists) in order; False if it holds another value."""
    if type(value) is list and all(type(v) is NewCards for v in value):
        out.extend(value)  # the common case: a flat list of new cards
        return True
    if isinstance(value, NewCards):
        out.append(value)
        return True
    if isinstance(value, list):
        return all(_leaves(v, out) for v in value)
    return False


class Lines:
    """The new cards of one place step's values, as :func:`~.plans.place_sized` lays them
    out: per target, each group's codes (a line), and every card counted by its object."""

    __slots__ = ("codes", "counts", "lines", "objects", "shapes", "up")

    def __init__(self, up: bool):
        self.up = up
        self.codes: dict[int, tuple[int, ...]] = {}  # id of a NewCards -> its codes
        self.objects: dict[int, NewCards] = {}
        self.counts: dict[int, int] = {}  # id of a NewCards -> how often it is laid out
        self.lines: list[tuple[int, ...]] = []
        # Per target: the number of codes of each group, or ("each", groups, codes of each).
        self.shapes: list[tuple[Any, ...]] = []

    def add(self, value: Any, form: str) -> bool:
        """The groups of one target's value (a row: one group); False when it holds anything
        but new cards."""
        if type(value) is list and set(map(type, value)) == _NEW:
            codes, ids, tally = self._count(value)
            if form == "row":  # a row of new cards (one owner card per column): one group
                line = tuple(chain.from_iterable(map(codes.__getitem__, ids)))
                self.lines.append(line)
                self.shapes.append((len(line),))
                return True
            # The common case: one new card (or pair) per column or row.
            lines = list(map(codes.__getitem__, ids))
            self.lines.extend(lines)
            sizes = {len(codes[key]) for key in tally}
            if len(sizes) == 1:  # every group of the same size (an arrow per column): said so
                self.shapes.append(("each", len(ids), sizes.pop()))
            else:
                self.shapes.append(tuple(map(len, lines)))
            return True
        items = [value] if form == "row" else (value if isinstance(value, list) else [value])
        groups = []
        for g in items:
            leaves: list[NewCards] = []
            if not _leaves(g, leaves):
                return False
            groups.append(leaves)
        for g in groups:
            codes, ids, _ = self._count(g)
            self.lines.append(tuple(chain.from_iterable(map(codes.__getitem__, ids))))
        self.shapes.append(tuple(map(len, self.lines[len(self.lines) - len(groups) :])))
        return True

    def _count(self, cards: list[NewCards]) -> tuple[dict[int, tuple[int, ...]], list[int], dict[int, int]]:
        """Count ``cards`` by object and know the codes of each: the codes by object, the
        objects of ``cards`` in order, and how often each of them is among ``cards``."""
        codes, objects, counts, up = self.codes, self.objects, self.counts, self.up
        ids = list(map(id, cards))
        distinct = set(ids)
        if len(distinct) > 16:
            tally: dict[int, int] = Counter(ids)
        else:  # a few objects laid out many times (a row of owner cards, of arrows)
            tally = {key: ids.count(key) for key in distinct}
        for key, n in tally.items():
            if key not in codes:
                nc = cards[ids.index(key)]
                codes[key] = _codes(nc, up)
                objects[key] = nc
            counts[key] = counts.get(key, 0) + n
        return codes, ids, tally

    def sized(self, resolved: list[tuple[Resolved, str]]) -> list[Sized]:
        """What :func:`~.plans.place_sized` lays out: each target, its form and the number of
        codes of each of its groups (read from :attr:`shapes`)."""
        out: list[Sized] = []
        for (tres, form), shape in zip(resolved, self.shapes):
            sizes = [shape[2]] * shape[1] if shape and shape[0] == "each" else list(shape)
            out.append((tres, form, sizes))
        return out

    def delta(self) -> dict[int, int]:
        """Cards taken from the supply, by symbol (an up-down card is one physical card)."""
        delta: dict[int, int] = {}
        turned = ROTATIONS.to
        physical = ROTATIONS.physical
        for key, n in self.counts.items():
            for s in self.objects[key].symbols:
                card = physical(s.id) if s.id in turned else s.id
                delta[card] = delta.get(card, 0) + n
        return delta


class NewPlace:
    """A place step whose values are new cards only (owner cards, arrows, a lottery's bits).

    Where the new cards go depends on the layout, each target, its form and the number of
    codes in each group, never on the faces: that plan is built once per such shape, from
    those numbers alone (:func:`~.plans.place_sized`), and kept; at each run the faces are
    filled in (the plan's new cards, in order, are the groups' codes in order) and the supply
    counted. ``__call__`` returns False where the general path must run the step (a value that
    is not only new cards, a layout the fast builder leaves to the interpreter's)."""

    def __init__(self, step: st.Place, targets: Sequence[tuple[st.Target, str, ev.Expr]]):
        self.step = step
        self.up = step.up
        self.targets = [(t, target_reader(t), form, items) for t, form, items in targets]
        self.resolvers = [kept_target(t) for t, _, _ in targets]  # the others' (steady.py)
        self.kept: dict[Any, Any] = {}
        # Where every target is read from the layout alone and every value is a function of
        # some names alone, variables or parameters (``[new(theta(i)) for i in 1..len(sizes)
        # for c in 1..sizes[i]]``): those names; what the step lays out is then kept per layout,
        # parameters and variables' values (:attr:`same`), without evaluating the values again.
        names: set[str] = set()
        for _, read, _, items in self.targets:
            free = variables_only(items.expr.node, items.proto)
            if read is None or free is None:
                names = set()
                self.pure: tuple[str, ...] | None = None
                break
            names.update(free)
        else:
            self.pure = tuple(sorted(names))
        # A row of answers (``[arrow(1) if valid(M[1, j]) else arrow(0) for j in 1..ncols(M)]``),
        # its target read from the layout: the game's function asked once a code (arrows.py).
        self.arrows: ArrowRow | None = None
        if len(self.targets) == 1 and self.targets[0][1] is not None and self.targets[0][2] == "columns":
            self.arrows = ArrowRow.match(self.targets[0][3])
        self.same: dict[Any, tuple[Plan, tuple[int, ...], dict[int, int]]] = {}
        # A row of a family's cards by owner sizes (``[new(theta(i)) for i in 1..len(sizes)
        # for c in 1..sizes[i]]``), its target read from the layout: the codes made per owner,
        # the plan kept per layout and shape (owners.py).
        self.owners: OwnerRow | None = None
        if self.pure is not None and len(self.targets) == 1 and self.targets[0][1] is not None:
            self.owners = OwnerRow.match(self.targets[0][3], self.targets[0][2])
        self.few: dict[Any, tuple[Plan, tuple[int, ...], dict[int, int]]] = {}  # see __call__
        self.laid = 0  # runs this step laid out new cards only
        self.other = 0  # runs whose values held something else (cards of the table, names)

    GIVE_UP = 4
    """Runs whose values hold something else than new cards, with none that held new cards
    only, after which the step is left to the general path (its values are evaluated once)."""

    def __call__(self, run: Run) -> bool:
        if self.other >= self.GIVE_UP and not self.laid:
            return False
        arrows = self.arrows
        if arrows is not None:
            target, read, _, items = self.targets[0]
            if arrows(run, self, items, self._read_checked if ev.CHECKED else read, self.up):
                return True
        same = None
        if self.pure is not None:
            known = run.vars()
            layout = run.layout
            try:
                if any(name not in known and name in layout.by_name for name in self.pure):
                    raise KeyError("a region")  # its cards are read: not kept
                # A name that is not a variable is a parameter or a spec's name: the frame's key
                # holds the parameters, and the spec's names are the program's.
                # Each value by its types too: 1 and true are equal keys, not the same value
                # (``str(k)`` tells them apart).
                values = tuple([_exact(known[name]) if name in known else _DEFER for name in self.pure])
                same = (layout, run.frame.key, values)
                hit = self.same.get(same)
            except (KeyError, TypeError):  # a region, or a value that is not kept by its value
                same = hit = None
            if hit is not None:
                self.laid += 1
                self._apply(run, *hit)
                return True
            if same is not None and self.owners is not None:
                kept = self.kept

                def plan(shape: tuple[Any, ...]) -> Plan | None:
                    # The target is read from the layout alone: a plan kept for this layout
                    # and shape was built from the very target read now.
                    skeleton: Plan | None = kept.get((layout, None, (shape,)))
                    return None if skeleton is _DEFER else skeleton

                laid = self.owners(run, self.targets[0][3], self.up, plan)
                if laid is not None:
                    self.laid += 1
                    self._apply(run, *laid)
                    return True
        runner = run.runner
        got = []
        static = True  # every target read from the layout alone: the key need not hold them
        try:
            state = run.state()
            for (target, read, form, items), resolve in zip(self.targets, self.resolvers):
                tres = None
                if read is not None:
                    try:
                        tres = read(run)
                    except Defer:
                        tres = None
                        same = None  # the runner resolves it: its reading is not kept
                    if ev.CHECKED and tres is not None:
                        ev._same(target.expr, tres, runner.resolve_target(run.frame, target, state, run.fev))  # type: ignore[arg-type]
                if tres is None:
                    static = False
                    tres = resolve(run, state)
                got.append((tres, form, items.public(run)))
        except EvalError:
            return False
        few = None
        if all(type(value) is NewCards for _, _, value in got):
            # A new card or two per target (a lottery's fresh arrow): kept with its faces.
            few = (run.layout, tuple([(tres, form, _codes(value, self.up)) for tres, form, value in got]))
            hit = self.few.get(few)
            if hit is not None:
                self.laid += 1
                self._apply(run, *hit)
                return True
        lines = Lines(self.up)
        for _, form, value in got:
            if not lines.add(value, form):
                self.other += 1
                return False
        resolved = [(tres, form) for tres, form, _ in got]
        # The targets read from the layout alone follow from it (and the step): not hashed again.
        key = (run.layout, None if static else tuple(resolved), tuple(lines.shapes))
        consts = tuple(chain.from_iterable(lines.lines))
        delta = lines.delta()
        skeleton = self._skeleton(key, lambda: place_sized(run.layout, lines.sized(resolved), consts, delta))
        if skeleton is _DEFER:
            return False
        self.laid += 1
        if few is not None:
            if len(self.few) >= KEPT:
                self.few.clear()
            self.few[few] = (skeleton, consts, delta)
        if same is not None:
            if len(self.same) >= KEPT:
                self.same.clear()
            self.same[same] = (skeleton, consts, delta)
        self._apply(run, skeleton, consts, delta)
        return True

    def owner_link(self, run: Run) -> Callable[[Run], bool] | None:
        """For a segment (:mod:`.segments`), on ``run``'s layout: the owner row laid out
        without the look-up of what is kept by layout, parameters and variables (the same
        plan, codes and count as that look-up keeps); it says False (nothing done) where the
        step must run as a whole. None where the step is not such a row here (a name it reads
        is a region)."""
        if self.owners is None or self.arrows is not None or self.pure is None:
            return None
        layout = run.layout
        known = run.vars()
        if any(name not in known and name in layout.by_name for name in self.pure):
            return None
        kept, owners, items, up = self.kept, self.owners, self.targets[0][3], self.up

        def plan(shape: tuple[Any, ...]) -> Plan | None:
            skeleton: Plan | None = kept.get((layout, None, (shape,)))
            return None if skeleton is _DEFER else skeleton

        def go(run: Run) -> bool:
            if self.other >= self.GIVE_UP and not self.laid:
                return False
            laid = owners(run, items, up, plan)
            if laid is None:
                return False
            self.laid += 1
            self._apply(run, *laid)
            return True

        return go

    def _read_checked(self, run: Run) -> Resolved:
        """The one target read from the layout, compared with the runner's resolution."""
        target, read, _, _ = self.targets[0]
        assert read is not None
        tres = read(run)
        ev._same(target.expr, tres, run.runner.resolve_target(run.frame, target, run.state(), run.fev))  # type: ignore[arg-type]
        return tres

    def lay_each(
        self,
        run: Run,
        tres: Resolved,
        n: int,
        groups: Callable[[], list[NewCards]],
        consts: tuple[int, ...],
        delta: dict[int, int],
    ) -> bool:
        """Lay out ``n`` new cards, one a group (one code each: ``consts``), into the one target
        ``tres`` (read from the layout): the plan the general path keeps for that shape (built
        from their number when not kept yet; under ``ev.CHECKED`` also from the cards,
        ``groups()``, and compared), these codes and this supply count; False where it leaves
        the step to the interpreter."""
        key = (run.layout, None, (("each", n, 1),))
        form = self.targets[0][2]
        skeleton = self._skeleton(
            key, lambda: place_sized(run.layout, [(tres, form, [1] * n)], consts, delta)
        )
        if skeleton is _DEFER:
            return False
        if ev.CHECKED:  # from the cards themselves, the general way: the same plan
            want = build_place_new(run.layout, [(tres, form, [[nc] for nc in groups()])], self.up)
            same_plan(
                self.step, place_sized(run.layout, [(tres, form, [1] * n)], consts, delta), want, run.layout
            )
        self.laid += 1
        self._apply(run, skeleton, consts, delta)
        return True

    def _skeleton(self, key: Any, build: Callable[[], Plan]) -> Any:
        """The plan kept for ``key``, built (and kept) when not yet; ``_DEFER`` where building
        it fails (rows its sleeves do not hold: the step says so, as the interpreter does)."""
        skeleton = self.kept.get(key)
        if skeleton is None:
            try:
                skeleton = build()
            except (Defer, EvalError):
                skeleton = _DEFER
            if len(self.kept) >= KEPT:
                self.kept.clear()
            self.kept[key] = skeleton
        return skeleton

    def _apply(self, run: Run, skeleton: Plan, consts: tuple[int, ...], delta: dict[int, int]) -> None:
        if ev.CHECKED:
            from ..machine.actions import layout as lay
            from .base import strip

            step, runner = self.step, run.runner
            res = lay._place_resolve(runner, run.frame, step, run.state(), run.fev)
            reference = strip(lay._place_build(runner, run.frame, step, run.layout, res))
            same_plan(step, Plan(skeleton.layout, skeleton.src, consts, delta), reference)
        apply_new(run, self.step, skeleton, consts, delta)


def apply_new(run: Run, step: st.Step, plan: Plan, consts: tuple[int, ...], delta: dict[int, int]) -> None:
    """:func:`~.base.apply_plan` of ``plan`` with these new cards and this supply count instead
    of its own (a place of new cards returns none to the supply)."""
    run.cells = gather(run.cells, plan, consts)
    landed(run, step, plan, run.layout, delta)


# --------------------------------------------------------------------------- turns


def every_face_up(what: ev.Expr) -> bool:
    """Whether ``what`` is ``up()``, the built-in: every face-up card of the table outside the
    hands (:func:`~.helpers.h_orient`)."""
    node = what.expr.node
    return (
        isinstance(node, Call)
        and node.func == "up"
        and not node.args
        and function_kind(what.proto, "up") == "builtin"
    )


def turn_face_up(what: ev.Expr) -> Callable[[Run], None]:
    """``turn: up()``: every face-up card outside the hands turned face down, a stretch of slots
    at a time. What the general turn does with the slots ``up()`` selects (in order, none twice,
    none empty): no card comes face up, so nothing is observed; the turn is counted."""

    def op(run: Run) -> None:
        cells = run.cells
        want = what.sel(run, "turn") if ev.CHECKED else None
        before = list(cells) if ev.CHECKED else None
        for a, b in not_hand_runs(run.layout):
            # Put back whole (equal values where none was face up): cheaper than comparing first.
            cells[a:b] = face_down(cells[a:b])
        if before is not None:
            turned = tuple(f for f, (x, y) in enumerate(zip(before, cells)) if x != y)
            if turned != want or any(before[f] ^ 1 != cells[f] for f in turned):
                raise ev.Mismatch(f"turn {what.text!r}: turned {turned}, the interpreter {want}")
        run.meters = run.meters.add_turn()

    return op


def whole_row(what: ev.Expr) -> tuple[str, int] | None:
    """``(name, r)`` when ``what`` is ``name[r, *]`` (``r`` a whole number), else None."""
    node = what.expr.node
    if not (isinstance(node, Index) and isinstance(node.obj, Name) and len(node.args) == 2):
        return None
    r, c = node.args
    if not (isinstance(r, Const) and type(r.value) is int and isinstance(c, Star)):
        return None
    return node.obj.name, r.value


def row_slots(run: Run, name: str, r: int) -> tuple[int, int] | None:
    """The slots ``[a, b)`` of row ``r`` of region ``name`` (what ``name[r, *]`` selects, in
    order), where ``name`` is a region of single cards outside the hands and not a variable;
    else None."""
    if name in run.vars():
        return None
    reg = run.layout.by_name.get(name)
    if reg is None or reg.hand is not None or reg.unit != 1 or not 0 < r <= reg.rows or not reg.cols:
        return None
    a = reg.offset + (r - 1) * reg.cols
    return a, a + reg.cols


def turn_row(run: Run, what: ev.Expr, a: int, b: int, down: bool = False) -> bool:
    """``turn: name[r, *]`` on the slots ``[a, b)`` of that row (:func:`row_slots`), every card
    turned, those that come face up observed in order, as the general turn does; False (nothing
    done) where a place of the row is empty (the general turn says which). ``down``: the caller
    knows every card of the row is face down (then each comes face up)."""
    cells = run.cells
    new = turned(cells[a:b])
    if new is None:
        return False
    if ev.CHECKED and (want := what.sel(run, "turn")) != tuple(range(a, b)):
        raise ev.Mismatch(f"turn {what.text!r}: the slots {a}..{b - 1}, the interpreter {want}")
    cells[a:b] = new
    revealed = new if down else [v for v in new if v & 1]
    if revealed:
        run.view = run.views.extend(run.view, ("turn", tuple(revealed)))
    run.meters = run.meters.add_turn()
    return True


# --------------------------------------------------------------------------- shuffles


def column_rows(layout: Layout, piles: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, int], ...] | None:
    """(start, end) of each row of a region when ``piles`` are exactly its columns, in order
    (the piles of ``columns(M)``): a permutation of the piles is then one gather per row."""
    if not piles or not piles[0]:
        return None
    reg = layout.owner(piles[0][0])
    cols, rows, off = reg.cols, reg.rows, reg.offset
    if len(piles) != cols or len(piles[0]) != rows:
        return None
    # Pile c is column c when, piles of one length, their slots read across (row by row) are
    # the region's in order: checked in C (~100 piles of a table's new size, early in a game).
    if set(map(len, piles)) != {rows} or set(map(type, piles)) != {tuple}:
        return None
    if list(chain.from_iterable(zip(*piles))) != list(range(off, off + rows * cols)):
        return None
    return tuple((off + r * cols, off + (r + 1) * cols) for r in range(rows))


def permute_rows(cells: list[int], bounds: tuple[tuple[int, int], ...], perm: Sequence[int]) -> None:
    """Pile ``c`` (column ``c``) receives the cards of column ``perm[c]``, row by row."""
    get = itemgetter(*perm) if len(perm) > 1 else (lambda xs: (xs[perm[0]],))
    for a, b in bounds:
        cells[a:b] = get(cells[a:b])


def scramble(rng: random.Random, k: int) -> tuple[int, ...]:
    """``Shuffle("scramble", k).sample(rng)``: ``rng.shuffle`` of ``[0, ..., k - 1]`` with the
    same calls of ``getrandbits`` in the same order (the same permutation, the generator left in
    the same state), without a method call per card. Where the generator is not a plain
    ``random.Random`` (or this Python shuffles another way) it is ``rng.shuffle`` itself."""
    p = list(range(k))
    if type(rng) is not random.Random or not _SAME_SHUFFLE:
        rng.shuffle(p)
        return tuple(p)
    draws = _DRAWS.get(k)
    if draws is None:
        draws = _draws(k)
    getrandbits = rng.getrandbits
    for i, bits in draws:
        j = getrandbits(bits)
        while j > i:  # ``_randbelow(i + 1)``: drawn again until below i + 1
            j = getrandbits(bits)
        p[i], p[j] = p[j], p[i]
    return tuple(p)


_DRAWS: dict[int, tuple[tuple[int, int], ...]] = {}
"""Per number of piles, :func:`scramble`'s draws in order: (the place swapped, the bits drawn
for its partner, below that place plus one), as ``random.Random.shuffle`` works them out at each
swap."""


def _draws(k: int) -> tuple[tuple[int, int], ...]:
    """The draws of a scramble of ``k`` piles, kept (at most :data:`KEPT` sizes)."""
    if len(_DRAWS) >= KEPT:
        _DRAWS.clear()
    # In C (zip, map): a table's new size in the game's first turns is a new k each time.
    draws = _DRAWS[k] = tuple(zip(range(k - 1, 0, -1), map(int.bit_length, range(k, 1, -1))))
    return draws


def _same_shuffle() -> bool:
    """Whether :func:`scramble` draws as this Python's ``random.Random.shuffle`` does."""
    global _SAME_SHUFFLE
    _SAME_SHUFFLE = True
    for seed in range(4):
        for k in (0, 1, 2, 3, 5, 17, 108, 300):
            a, b = random.Random(seed), random.Random(seed)
            p = list(range(k))
            a.shuffle(p)
            if scramble(b, k) != tuple(p) or a.getstate() != b.getstate():
                _SAME_SHUFFLE = False
                return False
    return True


_SAME_SHUFFLE = True
_SAME_SHUFFLE = _same_shuffle()


def scramble_is_exact() -> bool:
    """Whether :func:`scramble` draws its own way here (else it calls ``rng.shuffle``)."""
    return _SAME_SHUFFLE
