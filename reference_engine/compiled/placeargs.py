"""A place's resolved arguments kept across runs where every expression of it is structural
(:func:`~.steady.structural`: names, indexes, ranges, lists and counts, never a card read): the
knockout lottery's step 1, ``P: {columns: "[[c[i], x[i]] for i in 1..m]"}``, worked out once
per layout, frame key (the protocol and its parameters) and variables it names, instead of a
list of ``Slots`` made and described (:func:`~reference_engine.machine.plans._res`) every call.

The interpreter keeps such a value by the same things (``Evaluator._single``: the layout, the
frame's key and the variables); a place's target names a region, or is structural too. Under
:data:`~.evaluate.CHECKED` every kept answer is worked out again and compared."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import steps as st
from ..functions import BUILTINS
from ..kept import exact
from . import evaluate as ev
from .base import RunResolve
from .run import Run
from .steady import structural

KEPT = 1024
"""Resolved arguments a place step keeps (by layout, frame key and variables: a game meets the
same few layouts again and again); it starts afresh beyond this many."""

_NO = object()  # a name that is no variable: a region of the layout, or one of the frame's names


def kept_place(step: st.Place, resolve: Callable[..., Any]) -> RunResolve:
    """The place's resolver (the interpreter's ``resolve``, called with the run's table), its
    answer kept where every target and item expression is structural."""
    exprs = [items for _, _, items in step.targets]
    exprs += [t.expr for t, _, _ in step.targets if t.expr is not None]
    if not all(structural(e.node) for e in exprs):
        return RunResolve(lambda run: resolve(run.runner, run.frame, step, run.state(), run.fev))
    names = tuple(sorted(set().union(*(e.names() for e in exprs))))
    calls = tuple(sorted(set().union(*(e.calls() for e in exprs))))
    kept: dict[tuple[Any, ...], Any] = {}

    def fresh(run: Run) -> Any:
        return resolve(run.runner, run.frame, step, run.state(), run.fev)

    def placed(run: Run) -> Any:
        frame = run.frame
        if calls:
            functions = frame.globals.functions
            if any(functions.get(name) is not BUILTINS.get(name) for name in calls):
                return fresh(run)  # a function of the game's own: not the built-in one
        env = run.vars()
        key = (run.layout, frame.key, *[exact(env.get(n, _NO)) for n in names])
        hit = kept.get(key)
        if hit is None:
            hit = fresh(run)
            if len(kept) >= KEPT:
                kept.clear()
            kept[key] = hit
        elif ev.CHECKED:
            want = fresh(run)
            if exact(want) != exact(hit):
                raise ev.Mismatch(f"place at step {step.number}: kept {hit}, worked out {want}")
        return hit

    return RunResolve(placed)


__all__ = ["KEPT", "kept_place"]
