"""check_piles' arithmetic fast path (machine/actions/sleeving.py ``_whole_columns``): it says
yes only where the pile-by-pile check passes, and every pile shape it refuses keeps its error."""

from __future__ import annotations

import random
from typing import Any

import pytest

from reference_engine.expressions import EvalError
from reference_engine.machine.actions import sleeving
from reference_engine.sleeves import SleeveFrame
from reference_engine.table import Layout


def _outcome(layout: Layout, piles: list[tuple[int, ...]]) -> str:
    try:
        sleeving.check_piles(layout, piles)
    except EvalError as exc:
        return str(exc)
    return "ok"


def _slow(layout: Layout, piles: list[tuple[int, ...]], monkeypatch: pytest.MonkeyPatch) -> str:
    with monkeypatch.context() as m:
        m.setattr(sleeving, "_whole_columns", lambda layout, piles: False)
        return _outcome(layout, piles)


def _columns(layout: Layout, name: str) -> list[tuple[int, ...]]:
    reg = layout.region(name)
    return [tuple(reg.slot(r, c) for r in range(1, reg.rows + 1)) for c in range(1, reg.cols + 1)]


def test_the_fast_path_answers_as_the_pile_by_pile_check_on_hostile_tables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random(50)
    fast_yes = 0
    for _ in range(600):
        rows, cols = rng.randint(1, 3), rng.randint(1, 4)
        declared = tuple(range(1, rows + 1 + rng.randint(0, 1)))
        inside = tuple(r for r in declared if rng.random() < 0.8)
        frame = SleeveFrame(declared, inside, frozenset({declared[-1]}), side=rng.choice(["back", "front"]))
        shapes: list[tuple[Any, ...]] = [("s", 1, rng.randint(0, 3), 1, None)]
        shapes.append(("M", rows, cols, 1, None, frame if rng.random() < 0.9 else None))
        if rng.random() < 0.5:
            shapes.append(("N", rows, cols, 1, None, frame))
        size = sum(sh[1] * sh[2] for sh in shapes)
        holes = {rng.randrange(size)} if rng.random() < 0.15 else set()
        layout = Layout.make(shapes, holes)
        piles = _columns(layout, "M")
        pick = rng.random()
        if pick < 0.2 and piles:
            piles = [tuple(reversed(p)) for p in piles]  # bottom row first: the slow path decides
        elif pick < 0.3 and piles and len(piles[0]) > 1:
            piles[0] = piles[0][:-1]  # part of a sleeve
        elif pick < 0.4 and "N" in layout.by_name:
            piles = [*piles, *_columns(layout, "N")]  # two regions
        elif pick < 0.5 and len(piles) > 1:
            piles = [piles[0] + piles[1]]  # two sleeves in one pile
        elif pick < 0.55:
            piles = [(f,) for f in range(size)]
        elif pick < 0.6 and len(piles) > 1:
            rng.shuffle(piles)
        if sleeving._whole_columns(layout, piles):
            fast_yes += 1
            assert _slow(layout, piles, monkeypatch) == "ok"
        assert _outcome(layout, piles) == _slow(layout, piles, monkeypatch)
    assert fast_yes > 100  # the fast path is taken, and not only trivially


def test_the_fast_path_refuses_a_loose_row_a_hole_and_a_list(monkeypatch: pytest.MonkeyPatch) -> None:
    whole = SleeveFrame((1, 2), (1, 2), frozenset({2}))
    loose = SleeveFrame((1, 2), (1,), frozenset({2}))
    for frame, holes in ((whole, set()), (loose, set()), (whole, {3})):
        layout = Layout.make([("M", 2, 3, 1, None, frame)], holes)
        piles = _columns(layout, "M")
        expected = frame is whole and not holes
        assert sleeving._whole_columns(layout, piles) is expected
        assert _outcome(layout, piles) == _slow(layout, piles, monkeypatch)
    layout = Layout.make([("M", 2, 3, 1, None, whole)])
    assert not sleeving._whole_columns(layout, [list(p) for p in _columns(layout, "M")])  # type: ignore[misc]
    assert not sleeving._whole_columns(layout, [])
    loose_layout = Layout.make([("M", 2, 3, 1, None, loose)])
    assert "part of the sleeve" in _outcome(loose_layout, _columns(loose_layout, "M"))
