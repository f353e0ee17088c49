"""What the fused steps (:mod:`.fused`, :mod:`.deferred`) share: a whole row's selection, a
return's resolved arguments, the rows a discard and a return select on a layout (kept by
layout: :class:`LayoutRows`), and the check of two steps carried out one after the other
against the plan of both."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..expressions import EvalError
from ..expressions.nodes import Const, Index, Name, Node, Star
from ..kept import Kept
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

LAYOUTS_KEPT = 256
"""Layouts a :class:`LayoutRows` keeps the rows of (a game meets a few hundred at a step)."""

_UNFIT: tuple[Any, ...] = ()  # kept where the rows do not fit: the caller runs each step as compiled


class LayoutRows:
    """The rows a fused discard and return select on a layout, kept by layout: the discard's
    ``what`` and the return's ``cards`` are whole rows by number (``NAME[k, *]``), and so is
    the row ``then`` reads (the discard after them, where there is one), of regions of the
    layout that no variable names (the caller's test at each run): slots that the layout alone
    decides, as whether the discarded row goes whole with its sleeves (``kept_whole``). Worked
    out at each run they cost two selections, a test of the sleeves and ``then``'s own; kept,
    one look-up. Where the rows do not fit (a selection that fails, a row that cannot go whole)
    that is kept too: the caller then runs each step as compiled, with its messages. With
    :data:`~.evaluate.CHECKED` the rows kept are compared with the rows worked out afresh."""

    __slots__ = ("cards", "kept", "then", "what")

    def __init__(
        self, what: ev.Expr, cards: ev.Expr, then: Callable[[Run], tuple[int, ...]] | None = None
    ) -> None:
        self.what, self.cards, self.then = what, cards, then
        self.kept: Kept[tuple[Any, ...]] = Kept(LAYOUTS_KEPT)

    def rows(self, run: Run, joined: bool = False) -> Rows | None:
        """The rows on the run's layout (``joined``: ``then`` read too, else ()), or None."""
        layout = run.layout
        hit = self.kept.get((layout, joined))
        if hit is None:
            hit = self.kept.put((layout, joined), self._rows(run, joined))
        elif ev.CHECKED and (want := self._rows(run, joined)) != hit:
            raise ev.Mismatch(f"{self.what.text!r}, {self.cards.text!r}: kept as {hit!r}, not {want!r}")
        return hit or None

    def _rows(self, run: Run, joined: bool) -> tuple[Any, ...]:
        try:
            drop = self.what.sel(run, "discard")
            flats = self.cards.sel(run, "return")
        except EvalError:
            return _UNFIT  # each step's own message, at its step
        layout = run.layout
        if not drop or (layout.inside and not tails.kept_row(layout, drop) and not kept_whole(layout, drop)):
            return _UNFIT
        then = self.then
        return drop, flats, then(run) if joined and then is not None else ()


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
