"""What :func:`~reference_engine.compiled.ops.run_block` does after every step, on a wide
sleeved row: the cards the sleeves show checked, and the table space noted once per layout (a
step that keeps the layout is not looked up again), exactly as the interpreter does, including
when the check stops a run at the last shown card or the first."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from siblings import sibling  # noqa: E402

from reference_engine.compiled import Program, program_for  # noqa: E402
from reference_engine.registry import Library, rulesets_dir  # noqa: E402

runs = sibling("runs")
differential = sibling("test_differential")

WIDE = """\
protocol: wide-shown
title: A wide sleeved row that shows many cards for several steps
summary: a test of the compiled path's shown-card check and its notes of the table space
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
  y: {encoding: bit}
  z: {encoding: bit}
sleeves:
  M: {rows: [1, 2], front: [1]}
steps:
  - step: 1
    say: "Into sleeves."
    place:
      M: [x, y, z]
  - step: 2
    say: "Turn the front cards up, the sleeves front up, a few steps that keep the table."
    do:
      - turn: "M[1, *]"
      - sleeve: {M: front}
      - let: {k: 1}
      - let: {k: 2}
      - LAST
  - step: 3
    say: "Back."
    do:
      - sleeve: {M: back}
      - turn: "up()"
outputs:
  o: {cards: "M[1, 1..2]", encoding: bit, equals: x}
"""

CASES = [
    ("let: {k: 3}", None),  # every shown card face up: the run goes through
    ('turn: "M[1, 6]"', "M[6]"),  # the last shown card face down
    ('turn: "M[1, 1]"', "M[1]"),  # the first
]


@pytest.mark.parametrize(("last", "where"), CASES)
def test_a_wide_sleeved_row_is_checked_and_noted_as_the_interpreter_does(
    tmp_path: Path, last: str, where: str | None
) -> None:
    """Attack: six shown cards, one of them turned face down (or none) after steps that keep the
    layout: both engines stop at the same step with the same message (naming that card), or run
    to the same end with the same table space noted."""
    (tmp_path / "wide-shown.yaml").write_text(WIDE.replace("LAST", last), encoding="utf-8")
    library = Library([tmp_path, rulesets_dir() / "protocols"])
    proto = library.protocol("wide-shown")
    assert isinstance(program_for(library, proto), Program)
    st, assignments = differential._assignments(library, "wide-shown", 2)
    found = runs.differences(library, proto, st.params, assignments, range(3))
    assert not found, "\n".join(found)
    result = runs.single(library, proto, st.params, assignments[0], 0, "compiled")
    if where is None:
        assert result[0] == "ran" and result[-1] != (0, 0), result[:3]
    else:
        assert result[0] == "error" and f"the sleeve of {where} lies front up" in result[2], result[:3]
        assert "step 2" in result[2]
