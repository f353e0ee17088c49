"""Hostile review of the note of a layout's table space kept on the layout (``Layout._space``,
compiled/run.py's ``space``): a layout copied, deep-copied or pickled (a worker's) carries its
note or none, and either way gives the note a fresh computation gives, the same as the interned
layout of its regions; a note never follows a layout into another of other regions."""

from __future__ import annotations

import copy
import pickle

import pytest

from reference_engine.compiled import run as compiled_run
from reference_engine.compiled.run import Shared, note_shape, space
from reference_engine.sleeves import SleeveFrame
from reference_engine.table import Layout

ARROW = SleeveFrame(declared=(2, 1, 3), rows=(2, 1, 3), front=frozenset({1, 3}), keeps=frozenset({2}))
SHAPES = [
    [("w49sp_M", 3, 4, 1, None, ARROW), ("w49sp_h", 1, 5, 1, "w49sp_h", None)],
    [("w49sp_L", 2, 7, 1, None, None)],
    [("w49sp_a", 1, 1, 1, None, None), ("w49sp_b", 3, 2, 1, None, ARROW)],
]


def _fresh(layout: Layout) -> tuple[object, ...]:
    hands, e = compiled_run._shape(layout)
    return (hands, e, (0, 0) if e is None else (e[0] * e[1], e[1]))


@pytest.mark.parametrize("noted", [False, True])
@pytest.mark.parametrize("index", range(len(SHAPES)))
def test_a_copied_or_pickled_layout_gives_the_same_note(index: int, noted: bool) -> None:
    layout = Layout.make(SHAPES[index], (1,))
    if noted:
        space(layout)
    want = _fresh(layout)
    for other in (
        copy.copy(layout),
        copy.deepcopy(layout),
        pickle.loads(pickle.dumps(layout)),
        pickle.loads(pickle.dumps(layout, protocol=2)),
    ):
        assert other is not layout and other._space in (None, want)
        assert space(other) == want
        a, b = Shared(), Shared()
        note_shape(a, other)
        note_shape(b, layout)
        assert (a.hands, a.extent) == (b.hands, b.extent)
    assert Layout.make(SHAPES[index], (1,)) is layout and space(layout) == want


def test_a_note_is_its_layouts_own() -> None:
    notes = [space(Layout.make(shapes)) for shapes in SHAPES]
    assert notes == [_fresh(Layout.make(shapes)) for shapes in SHAPES]
    assert len(set(notes)) == len(notes)


def _by_max(layout: Layout) -> tuple[bool, tuple[int, int] | None]:
    """The note as ``max`` with a key and a count of hands worked it out before (the reference)."""
    from operator import attrgetter

    regions = layout.regions
    if not regions:
        return False, None
    reg = max(regions, key=attrgetter("size", "cols"))
    return [r.hand for r in regions].count(None) != len(regions), (reg.rows, reg.cols)


TIES = [
    [],
    [("w58sp_a", 2, 3, 1, None, None), ("w58sp_b", 3, 2, 1, None, None)],  # 6 cells each: more columns
    [("w58sp_c", 3, 2, 1, None, None), ("w58sp_d", 2, 3, 1, None, None)],
    [
        ("w58sp_e", 1, 4, 1, None, None),
        ("w58sp_f", 1, 4, 1, "w58sp_f", None),
        ("w58sp_g", 2, 2, 1, None, None),
    ],
    [("w58sp_h", 0, 5, 1, None, None), ("w58sp_i", 1, 0, 1, "w58sp_i", None)],  # empty regions, a hand last
    [
        ("w58sp_j", 2, 2, 1, "w58sp_j", None),
        ("w58sp_k", 4, 1, 1, None, None),
        ("w58sp_l", 1, 4, 1, None, None),
    ],
]


@pytest.mark.parametrize("shape", TIES + SHAPES)
def test_the_note_is_maxs_first_largest_and_any_hand(shape: list[tuple[object, ...]]) -> None:
    """The plain loop gives what ``max`` gave: the first region of the largest (cells, columns),
    ties kept by the first, and whether any region is a hand, wherever it lies."""
    layout = Layout.make(shape)  # type: ignore[arg-type]
    assert compiled_run._shape(layout) == _by_max(layout)
    # The region itself, not only its extent: the first of the largest.
    if layout.regions:
        hands, e = compiled_run._shape(layout)
        assert e is not None and hands == any(r.hand is not None for r in layout.regions)
