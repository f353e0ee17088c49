"""The rows a fused discard and return select, kept by layout (reference_engine/compiled/
pairing.py's LayoutRows): the same rows as worked out afresh, the kept ones used again on the
same layout, and a kept entry that differs from the rows afresh caught under CHECKED."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from siblings import sibling  # noqa: E402

from reference_engine.compiled import evaluate as ev  # noqa: E402
from reference_engine.compiled import pairing  # noqa: E402
from reference_engine.registry import Library  # noqa: E402

_compare = sibling("test_fused")._compare


def test_the_rows_are_kept_by_layout_and_runs_are_the_interpreters(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Runs compared with the interpreter's, with CHECKED (each kept entry compared with the rows
    worked out afresh): the rows asked for again on a layout are the kept ones."""
    counts = [0, 0]  # rows asked for, of a layout kept already
    ask = pairing.LayoutRows.rows

    def rows(self: Any, run: Any, joined: bool = False) -> Any:
        counts[0] += 1
        counts[1] += (run.layout, joined) in self.kept._kept
        return ask(self, run, joined)

    monkeypatch.setattr(pairing.LayoutRows, "rows", rows)
    result = _compare(Library(), "card-selection-arrow", seeds=6)
    assert result[0] == "ran", result[:3]
    assert 0 < counts[1] < counts[0], counts


def test_checked_catches_kept_rows_that_are_not_the_layouts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows worked out wrong after the first time (a kept entry then differs from them): the
    check against the rows afresh says so."""
    work = pairing.LayoutRows._rows
    seen: set[int] = set()

    def drifting(self: Any, run: Any, joined: bool) -> Any:
        got = work(self, run, joined)
        key = id(run.layout)
        if key in seen and got:
            return (got[0], got[1][::-1], got[2])  # the return's cards, in another order
        seen.add(key)
        return got

    monkeypatch.setattr(pairing.LayoutRows, "_rows", drifting)
    checked = ev.CHECKED
    ev.CHECKED = True
    try:
        with pytest.raises((ev.Mismatch, AssertionError), match="kept as"):
            _compare(Library(), "card-selection-arrow", seeds=6)
    finally:
        ev.CHECKED = checked
