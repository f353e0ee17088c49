"""What the fused steps (:mod:`.fused`, :mod:`.deferred`) share: a whole row's selection, a
return's resolved arguments, the rows a discard and a return select (:class:`RowArgs`), and
the check of two steps carried out one after the other against the plan of both."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..expressions import EvalError
from ..expressions.nodes import Const, Index, Name, Node, Star
from ..table import Layout
from . import evaluate as ev
from . import families, tails
from .base import Op
from .plans import hand_names, kept_whole
from .run import Run


def row_of(node: Node | None) -> tuple[str, int] | None:
    """``(NAME, k)`` of a node ``NAME[k, *]`` (``k`` a whole number); None for any other."""
    if not isinstance(node, Index) or not isinstance(node.obj, Name) or len(node.args) != 2:
        return None
    row, rest = node.args
    if not isinstance(row, Const) or type(row.value) is not int or not isinstance(rest, Star):
        return None
    return node.obj.name, row.value


def return_args(
    run: Run,
    cards: ev.Expr,
    to: ev.Expr,
    row: tuple[str, int] | None = None,
    flats: tuple[int, ...] | None = None,
) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """A ``return:`` step's resolved arguments: the slots of its cards and each card's hand
    (``row``: where ``to`` is ``[family_index(t) for t in NAME[k, *]]``, ``(NAME, k)``, its
    value read in C where it can be: :func:`~.families.read`; ``flats``: the slots of its
    cards where the caller has them, :class:`LayoutRows`'s)."""
    if flats is None:
        flats = cards.sel(run, "return")
    owners_ = None if row is None else families.read(run, *row)
    numbers = owners_ is not None  # family numbers, ints all
    if owners_ is None:
        owners_ = to.value(run)
    elif ev.CHECKED and owners_ != to.value(run):
        raise ev.Mismatch(f"{to.text!r}: read as {owners_!r}, not {to.value(run)!r}")
    owners = list(owners_) if isinstance(owners_, (list, tuple)) else [owners_] * len(flats)
    if len(owners) != len(flats):
        raise EvalError(f"return: {len(flats)} cards but {len(owners)} owners")
    names = hand_names(owners, numbers)
    seats = run.runner.seats
    if seats.given is not None:
        for name in sorted(set(names)):
            unheld = seats.check(name)  # a called protocol's hand its call gave no holder
            if unheld is not None:
                raise EvalError(unheld)
    return (flats, names)


Rows = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
"""A discard's slots, its return's cards' slots and the row discarded after them (else ())."""


def row_slots(run: Run, what: ev.Expr, row: tuple[str, int], verb: str) -> tuple[int, ...]:
    """``what.sel(run, verb)`` where ``what`` is ``NAME[k, *]`` (``row``: :func:`row_of`'s):
    the slots of row ``k`` of the region ``NAME`` in order, read from the region where it is
    no hand, no variable names it and it has that row (what the selection's fast function
    gives then: the region's own fields decide them; one kept tuple per start and width), else
    the selection itself, with its message."""
    name, k = row
    reg = run.layout.by_name.get(name)
    if reg is None or reg.hand is not None or not 0 < k <= reg.rows or name in run.vars():
        return what.sel(run, verb)
    cols = reg.cols
    got = tails._slots(reg.offset + (k - 1) * cols, cols)
    if ev.CHECKED and (want := what.sel(run, verb)) != got:
        raise ev.Mismatch(f"{what.text!r}: read as the slots {got}, selected as {want}")
    return got


ROWS_KEPT = 1024
"""Layouts whose rows a :class:`RowArgs` keeps (it starts afresh beyond). A plain bounded dict,
not a :class:`~reference_engine.kept.Kept`: the tables of Steps 11 and 12 recur in about one
run of two over a game's first turns, which is too few for a Kept's first window (it would stop
keeping), and a layout kept here is one a later run meets again (interned: the same object)."""


class RowArgs:
    """The rows a fused discard and return select: the discard's ``what`` and the return's
    ``cards``, whole rows by number (``NAME[k, *]``, read by :func:`row_slots`), whether the
    discarded row goes whole with its sleeves (``kept_whole``), and the row ``then`` reads (the
    discard after them, where there is one).

    The two rows and whether the first goes whole follow from the layout alone where both names
    are regions of it that no variable names, neither a hand, each with its row (the case where
    :func:`row_slots` reads them from the regions): they are kept per layout (:attr:`kept`),
    and met again, not read again (``then`` is read at each run: its own caller's)."""

    __slots__ = ("cards", "cards_row", "kept", "then", "what", "what_row")

    def __init__(
        self, what: ev.Expr, cards: ev.Expr, then: Callable[[Run], tuple[int, ...]] | None = None
    ) -> None:
        self.what, self.cards, self.then = what, cards, then
        what_row, cards_row = row_of(what.expr.node), row_of(cards.expr.node)
        assert what_row is not None and cards_row is not None, "rows by number"
        self.what_row, self.cards_row = what_row, cards_row
        self.kept: dict[Layout, tuple[tuple[int, ...], tuple[int, ...]]] = {}

    def rows(self, run: Run, joined: bool = False) -> Rows | None:
        """The rows on the run's table (``joined``: ``then`` read too, else ()), or None where
        a selection fails or the row discarded cannot go whole (each step's own message, at
        its step)."""
        layout = run.layout
        env = run.vars()
        fixed = self.what_row[0] not in env and self.cards_row[0] not in env
        hit = self.kept.get(layout) if fixed else None
        if hit is not None and ev.CHECKED:
            want = self._read(run, layout)
            if want != hit:
                raise ev.Mismatch(f"rows kept for the layout {hit}, read {want}")
        if hit is None:
            hit = self._read(run, layout)
            if hit is None:
                return None
            if fixed and self._from_regions(layout):
                if len(self.kept) >= ROWS_KEPT:
                    self.kept.clear()
                self.kept[layout] = hit
        drop, flats = hit
        then = self.then
        return drop, flats, then(run) if joined and then is not None else ()

    def _read(self, run: Run, layout: Layout) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        """The two rows read (None: a selection fails, or the row discarded cannot go whole)."""
        try:
            drop = row_slots(run, self.what, self.what_row, "discard")
            flats = row_slots(run, self.cards, self.cards_row, "return")
        except EvalError:
            return None
        if not drop or (layout.sleeved and not tails.kept_row(layout, drop) and not kept_whole(layout, drop)):
            return None
        return drop, flats

    def _from_regions(self, layout: Layout) -> bool:
        """Whether both rows are read from their regions (names no variable holds: the
        caller's test), as :func:`row_slots` reads them: the layout's alone."""
        by_name = layout.by_name
        for name, k in (self.what_row, self.cards_row):
            reg = by_name.get(name)
            if reg is None or reg.hand is not None or not 0 < k <= reg.rows:
                return False
        return True


def snapshot(run: Run) -> tuple[Any, ...]:
    return (run.layout, list(run.cells), run.out, run.env, run.meters, run.view)


def check(
    run: Run, one: Op, two: Op, first: str | None, second: str | None, both: Callable[[], None]
) -> None:
    """Both steps one after the other, as compiled, against ``both`` (the two at once), then
    the table put back."""
    saved = snapshot(run)
    runner = run.runner
    try:
        one(run)
        runner.current = second
        two(run)
    except Exception as exc:  # at once they would have gone through
        raise ev.Mismatch(f"steps {first} and {second} go through at once, not one by one: {exc}") from exc
    finally:
        runner.current = first
    want = snapshot(run)
    run.layout, run.cells, run.out, run.env, run.meters, run.view = saved
    run.cells = list(saved[1])
    both()
    got = snapshot(run)
    run.layout, run.cells, run.out, run.env, run.meters, run.view = saved
    run.cells = list(saved[1])
    if got != want:
        raise ev.Mismatch(f"steps {first} and {second} at once: {got} is not {want}")
