"""The compiled path's fast plan builders (reference_engine/compiled/plans.py) give exactly the
interpreter's plan (its display details left out) on whole-table layouts and on hostile ones;
where the interpreter reports a problem, the fast builder defers to it (for its message)."""

from __future__ import annotations

from typing import Any

import pytest

from reference_engine.compiled import plans as fp
from reference_engine.compiled.base import gather, same_plan, strip
from reference_engine.expressions import EvalError
from reference_engine.machine.actions.sleeving import _sleeve_build
from reference_engine.sleeves import SleeveFrame, SleeveOp
from reference_engine.table import EMPTY, Layout

ARROW = SleeveFrame(declared=(2, 1, 3), rows=(2, 1, 3), front=frozenset({1, 3}), keeps=frozenset({2}))
CARD = SleeveFrame(declared=(1,), rows=(1,), front=frozenset({1}))


def table(cols: int = 6, holes: tuple[int, ...] = (), sleeve: SleeveFrame = ARROW) -> Layout:
    """A grid of sleeves (3 rows), a set-aside region in sleeves, a hand and a loose row."""
    return Layout.make(
        [
            ("M", 3, cols, 1, None, sleeve),
            ("L", 3, 2, 1, None, sleeve),
            ("h1", 1, 3, 1, "h1", None),
            ("spare", 1, 2, 1, None, None),
        ],
        holes,
    )


def agree(fast: Any, reference: Any, layout: Layout, res: Any) -> None:
    """The fast builder's plan is the interpreter's, or both refuse (the fast one by deferring)."""
    try:
        want = strip(reference(None, None, None, layout, res))
    except EvalError:
        with pytest.raises(fp.Defer):
            fast(layout, res)
        return
    try:
        got = fast(layout, res)
    except fp.Defer:
        return  # the interpreter's builder is used: the same plan by construction
    same_plan(None, got, want)  # type: ignore[arg-type]  # the step only names a mismatch
    cells = list(range(0, 2 * layout.size, 2))
    assert gather(cells, got, got.consts) == gather(cells, want, want.consts)


SLEEVE_OPS = [
    (SleeveOp("M", side="front"),),
    (SleeveOp("M", side="back"),),
    (SleeveOp("M", out=(2,)),),
    (SleeveOp("M", out=(1, 3)),),
    (SleeveOp("M", into=(2,)),),  # already inside: refused
    (SleeveOp("M", out=(4,)),),  # not a declared row: refused
    (SleeveOp("L", out=(2,)), SleeveOp("M", side="front")),
    (SleeveOp("M", out=(2,)), SleeveOp("M", into=(2,))),  # out, then back in, in one step
    (SleeveOp("h1", side="front"),),  # a hand, not in sleeves: refused
    (SleeveOp("spare", out=(1,)),),  # not in sleeves: refused
    (SleeveOp("nowhere", side="front"),),  # no such region: refused
    (),
]


@pytest.mark.parametrize("ops", SLEEVE_OPS, ids=[str(i) for i in range(len(SLEEVE_OPS))])
@pytest.mark.parametrize("holes", [(), (0, 1, 2, 3, 4, 5), (7, 13)])
def test_a_sleeve_plan_is_the_interpreters(ops: tuple[SleeveOp, ...], holes: tuple[int, ...]) -> None:
    agree(fp.build_sleeve, _sleeve_build, table(holes=holes), ops)


def test_a_sleeve_slid_back_in_follows_a_slide_out() -> None:
    layout = table()
    out = fp.build_sleeve(layout, (SleeveOp("M", out=(2,)),))
    agree(fp.build_sleeve, _sleeve_build, out.layout, (SleeveOp("M", into=(2,)),))
    back = fp.build_sleeve(out.layout, (SleeveOp("M", into=(2,)),))
    assert back.layout is layout  # interned: the same sleeves, the same layout
    with pytest.raises(fp.Defer):
        fp.build_sleeve(out.layout, (SleeveOp("M", out=(2,)),))  # already out


def test_a_sleeve_plan_moves_no_card() -> None:
    plan = fp.build_sleeve(table(), (SleeveOp("M", side="front"),))
    cells = [5, 7, EMPTY, 9] + [11] * (plan.layout.size - 4)
    moved = gather(cells, plan, ())
    assert moved == cells and moved is not cells
