"""What the fused steps (:mod:`.fused`, :mod:`.deferred`) share: a whole row's selection, a
return's resolved arguments, and the check of two steps carried out one after the other
against the plan of both."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..expressions import EvalError
from ..expressions.nodes import Const, Index, Name, Node, Star
from . import evaluate as ev
from . import families
from .base import Op
from .plans import hand_names
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
    run: Run, cards: ev.Expr, to: ev.Expr, row: tuple[str, int] | None = None
) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """A ``return:`` step's resolved arguments: the slots of its cards and each card's hand
    (``row``: where ``to`` is ``[family_index(t) for t in NAME[k, *]]``, ``(NAME, k)``, its
    value read in C where it can be: :func:`~.families.read`)."""
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
