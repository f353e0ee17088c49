"""check_rows (sleeves.py) reads a frame's span, worked out once: the same answers and message as
checking every row 1..rows against the declared rows, for every declaration of up to 4 rows."""

from __future__ import annotations

import itertools
import pickle
from dataclasses import replace

import pytest

from reference_engine.expressions import EvalError
from reference_engine.sleeves import SleeveFrame, check_rows


def _declared() -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []
    for n in range(1, 5):
        for subset in itertools.combinations(range(1, 6), n):
            out.extend(itertools.permutations(subset))
    return out


def test_check_rows_answers_as_the_row_by_row_check_for_every_declaration() -> None:
    refused = 0
    for declared in _declared():
        frame = SleeveFrame(declared, declared, frozenset())
        for rows in range(0, 7):
            expected = any(r not in declared for r in range(1, rows + 1))
            if expected:
                refused += 1
                listed = ", ".join(str(r) for r in declared)
                with pytest.raises(EvalError, match=f"declare only rows {listed}$"):
                    check_rows("M", rows, frame)
            else:
                check_rows("M", rows, frame)
    assert refused > 500


def test_a_frame_rebuilt_by_pickle_or_replace_keeps_its_span() -> None:
    frame = SleeveFrame((2, 1), (2, 1), frozenset({1}))
    check_rows("M", 2, pickle.loads(pickle.dumps(frame)))
    wider = replace(frame, declared=(2, 1, 3))
    check_rows("M", 3, wider)
    with pytest.raises(EvalError):
        check_rows("M", 3, replace(wider, declared=(2, 1)))
