"""A ``for`` whose body is one ``if`` without an ``else`` that, once false, stays false.

A knockout lottery plays its rounds as ``for r in 1..m: if len(alive) > 1: ...``: about log2(m)
rounds, then m - log2(m) tests that are false. Once the test is false, nothing it reads can
change before the loop ends: the branch taken is empty, so an iteration only sets the loop's
variable (which the test does not name), notes the test's answer and counts the step. A test
that calls no function but ``len``, ``exists``, ``nrows`` and ``ncols`` (each the built-in one in
the frame) reads only the variables it names, the layout and the cards (:mod:`.steady`), none of
which an empty branch changes, so it stays false: the remaining iterations note "false" without
testing again (:class:`Settled`), each still a step of ``run_block`` (counted, the budget spent,
the layout noted). With ``ev.CHECKED`` the test is worked out again and must be false.
"""

from __future__ import annotations

from typing import Any

from .. import steps as st
from ..expressions import truthy
from ..functions import BUILTINS
from . import evaluate as ev
from .run import Run
from .steady import PURE_CALLS

_FALSE = ("if", False)


class Settled:
    """The body a loop runs once its one ``if`` tested false (``block``), and the functions its
    test calls (checked to be the built-in ones in the run's frame)."""

    __slots__ = ("block", "calls")

    def __init__(self, block: Any, calls: tuple[str, ...]):
        self.block = block
        self.calls = calls

    def done(self, run: Run, view: int) -> bool:
        """Whether the loop's ``if`` has just tested false, its functions the built-in ones:
        the run's view is ``view`` (the iteration's first) and its answer, "false", alone. A
        last observation "false" is not enough: a branch taken may end with an ``if`` of its
        own that tested false."""
        if run.views.entries[run.view] != (view, _FALSE):
            return False
        functions = run.frame.globals.functions
        return all(functions.get(n) is BUILTINS.get(n) for n in self.calls)


def settled(c: Any, step: st.For, body: Any) -> Settled | None:
    """For a loop whose compiled ``body`` is one ``if`` with no ``else`` and a test that does
    not name the loop's variable and calls no function but :data:`~.steady.PURE_CALLS`."""
    if len(body) != 1:
        return None
    _, number, inner = body[0]
    if not isinstance(inner, st.If) or inner.other or inner.cond is None:
        return None
    calls = inner.cond.calls()
    if step.var in inner.cond.names() or not calls <= PURE_CALLS:
        return None
    cond = c.e(inner.cond)

    def still_false(run: Run) -> None:
        if ev.CHECKED and truthy(cond.value(run)):
            raise ev.Mismatch(f"a settled test {inner.cond} is true again")
        run.view = run.views.extend(run.view, _FALSE)

    return Settled(((still_false, number, inner),), tuple(sorted(calls)))
