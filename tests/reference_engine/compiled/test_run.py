"""What every compiled step pays (ops.run_block, run.after_step): the step counted, the
exploration budget spent, the sleeves' shown cards checked, exactly where the interpreter does,
including when a budget or a check stops a run in the middle of a block of steps."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import runs
from test_differential import _assignments

from reference_engine.compiled import Program, program_for
from reference_engine.compiled import run as compiled_run
from reference_engine.machine import Shared, frontier
from reference_engine.registry import Library, rulesets_dir
from reference_engine.table import Layout


def _budgeted(library: Library, name: str, units: int, engine: str) -> tuple[Any, ...]:
    proto = library.protocol(name)
    st, assignments = _assignments(library, name, 1)
    with frontier.budget(units):
        got = runs.single(library, proto, st.params, assignments[0], 3, engine)
        left = frontier._BUDGET.get()
    assert left is not None
    return (*got, left[0])


@pytest.mark.parametrize("name", ["card-selection-arrow", "knockout-lottery"])
def test_a_budget_stops_both_engines_at_the_same_step(name: str) -> None:
    """Attack: an exploration budget of every size from none to more than the run needs runs
    out in the middle of a block (a ``do`` of two steps, a lottery's rounds) at the same step
    on both engines, the generator left in the same state, the same units left over."""
    library = Library()
    assert isinstance(program_for(library, library.protocol(name)), Program)
    stopped = ran = 0
    for units in range(0, 90, 3):
        a = _budgeted(library, name, units, "interpreter")
        b = _budgeted(library, name, units, "compiled")
        assert a == b, (units, a[:3], b[:3])
        if a[0] == "crash":
            assert a[1] == "OverBudget"
            stopped += 1
        else:
            ran += 1
    assert stopped and ran  # the budget ran out at many steps, and sufficed at the end


SHOWN = """\
protocol: shown-mid
title: A sleeve that shows a face-down card in the middle of a block
summary: a test of the compiled path's check of the cards the sleeves show
source:
  cite: "kitgen tests"
symbols:
  a: {}
  b: {}
encodings:
  bit:
    values: {0: [a, b], 1: [b, a]}
inputs:
  x: {encoding: bit}
sleeves:
  M: {rows: [1, 2], front: [1]}
steps:
  - step: 1
    say: "Into sleeves."
    place:
      M: [x]
  - step: 2
    say: "Turn the front cards up, the sleeves front up, then the front cards down again."
    do:
      - turn: "M[1, *]"
      - sleeve: {M: front}
      - turn: "M[1, 1]"
      - turn: "M[1, 2]"
  - step: 3
    say: "Back."
    do:
      - sleeve: {M: back}
      - turn: "up()"
outputs:
  y: {cards: "M[1, *]", encoding: bit, equals: x}
"""


def test_a_sleeve_that_shows_a_face_down_card_stops_both_engines_alike(tmp_path: Path) -> None:
    """Attack: the shown-card check fails at the third step of a block (its first card turned
    face down while its sleeve lies front up): both engines stop there with the same message."""
    (tmp_path / "shown-mid.yaml").write_text(SHOWN, encoding="utf-8")
    library = Library([tmp_path, rulesets_dir() / "protocols"])
    proto = library.protocol("shown-mid")
    assert isinstance(program_for(library, proto), Program)
    st, assignments = _assignments(library, "shown-mid", 2)
    found = runs.differences(library, proto, st.params, assignments, range(2))
    assert not found, "\n".join(found)
    result = runs.single(library, proto, st.params, assignments[0], 0, "compiled")
    assert result[0] == "error" and "lies front up" in result[2] and "step 2" in result[2], result[:3]
    # Without the turn that shows the face-down card, the same spec runs (the check is not
    # what stops it otherwise).
    (tmp_path / "shown-mid.yaml").write_text(SHOWN.replace('      - turn: "M[1, 1]"\n', ""), encoding="utf-8")
    library = Library([tmp_path, rulesets_dir() / "protocols"])
    proto = library.protocol("shown-mid")
    found = runs.differences(library, proto, st.params, assignments, range(2))
    assert not found, "\n".join(found)


def test_the_shape_a_step_notes_is_the_interpreters_region_by_region() -> None:
    """after_step's kept shape of a layout: a hand anywhere; the first region of the most
    cells (then columns), ties to the earlier region, a region of no columns."""
    cases = [
        ([("A", 2, 3, None, None, None), ("B", 3, 2, None, None, None)], False, (2, 3)),
        ([("A", 3, 2, None, None, None), ("B", 2, 3, None, None, None)], False, (2, 3)),
        ([("A", 1, 6, None, None, None), ("B", 6, 1, None, "B", None)], True, (1, 6)),
        ([("A", 0, 0, None, None, None)], False, (0, 0)),
        ([("A", 2, 2, None, None, None), ("B", 2, 2, None, None, None)], False, (2, 2)),
    ]
    for shapes, hands, best in cases:
        layout = Layout.make(shapes, (), ())
        assert compiled_run._shape(layout) == (hands, best), shapes
        # The interpreter's way, region by region, from a smaller extent already noted.
        extent = (0, 0)
        for reg in layout.regions:
            e = (reg.rows, reg.cols)
            if (e[0] * e[1], e[1]) > (extent[0] * extent[1], extent[1]):
                extent = e
        assert extent == best or best == (0, 0)


def test_a_shape_noted_by_layout_is_never_another_layouts() -> None:
    """The note of a layout's table space is kept on the layout itself (``Layout._space``):
    a layout made after another died under the same id starts with no note and gets its own
    (ids are reused once a layout dies, and layouts die every turn as the hands change)."""
    layout = Layout.make([("w37note_a", 2, 3, None, None), ("w37note_b", 1, 1, None, "w37note_b")], (), ())
    other = Layout.make([("w37note_c", 9, 9, None, None)], (), ())
    shared = Shared()
    compiled_run.note_shape(shared, layout)
    assert (shared.hands, shared.extent) == (True, (2, 3))
    assert layout._space == (True, (2, 3), (6, 3))
    came_back = 0
    for n in range(1, 60):
        dead = Layout.make([("w37note_dead", 5, n, None, None)], (), ())
        compiled_run.note_shape(Shared(), dead)
        dead_id = id(dead)
        del dead
        made = Layout.make([("w37note_new", 1, n, None, None)], (), ())
        came_back += id(made) == dead_id
        shared = Shared()
        compiled_run.note_shape(shared, made)
        assert (shared.hands, shared.extent) == (False, (1, n))
    assert came_back, "no id came back: the attack did not happen"
    # A smaller table noted after a larger one leaves the larger extent (the interpreter's order).
    shared = Shared()
    compiled_run.note_shape(shared, other)
    compiled_run.note_shape(shared, layout)
    assert (shared.hands, shared.extent) == (True, (9, 9))


def test_the_shape_is_the_interpreters_on_random_tables() -> None:
    """Worked out at each new layout (nothing kept by the regions): the interpreter's region by
    region answer on random tables, ties of cells and of columns among them."""
    rng = random.Random(37)
    for _ in range(300):
        shapes = [
            (f"w54shape{i}", rng.randint(0, 3), rng.randint(0, 4), None, rng.choice([None, f"w54shape{i}"]))
            for i in range(rng.randint(1, 6))
        ]
        layout = Layout.make(shapes, (), ())
        extent: tuple[int, int] | None = None
        for reg in layout.regions:
            e = (reg.rows, reg.cols)
            if extent is None or (e[0] * e[1], e[1]) > (extent[0] * extent[1], extent[1]):
                extent = e
        hands = any(reg.hand is not None for reg in layout.regions)
        assert compiled_run._shape(layout) == (hands, extent), shapes
