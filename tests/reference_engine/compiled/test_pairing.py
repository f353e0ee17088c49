"""The rows a fused discard and return select (reference_engine/compiled/pairing.py): a whole
row by number read from its region (row_slots), as the selection gives it; anything else (a
hand, a row the region lacks, a name a variable holds, no such region) selected as written;
a reading that differs from the selection caught under CHECKED. The games compared with the
interpreter's run for run, with CHECKED."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from siblings import sibling  # noqa: E402

from reference_engine.compiled import evaluate as ev  # noqa: E402
from reference_engine.compiled import pairing  # noqa: E402
from reference_engine.registry import Library  # noqa: E402
from reference_engine.table import Layout  # noqa: E402

_compare = sibling("test_fused")._compare


class _Selection:
    """An expression whose selection is ``slots`` (counted)."""

    def __init__(self, slots: Any) -> None:
        self.slots = slots
        self.asked = 0
        self.text = "X[k, *]"

    def sel(self, run: Any, verb: str) -> Any:
        self.asked += 1
        return self.slots


def _run(variables: dict[str, Any] | None = None) -> Any:
    layout = Layout.make([("h", 1, 5, 1, "p1", None), ("M", 3, 4, 1, None, None)], (), ())
    return SimpleNamespace(layout=layout, vars=lambda: variables or {})


@pytest.fixture
def unchecked() -> Any:
    checked = ev.CHECKED
    ev.CHECKED = False
    yield
    ev.CHECKED = checked


@pytest.mark.usefixtures("unchecked")
def test_a_whole_row_is_read_from_its_region() -> None:
    what = _Selection("selected")
    assert pairing.row_slots(_run(), what, ("M", 2), "discard") == (9, 10, 11, 12)  # after h's 5
    assert pairing.row_slots(_run(), what, ("M", 3), "discard") == (13, 14, 15, 16)
    assert what.asked == 0


@pytest.mark.usefixtures("unchecked")
@pytest.mark.parametrize(
    ("row", "variables"),
    [(("h", 1), None), (("M", 4), None), (("M", 0), None), (("N", 1), None), (("M", 1), {"M": [1, 2]})],
    ids=["a hand", "below the last row", "row 0", "no such region", "a variable"],
)
def test_anything_else_is_selected_as_written(row: tuple[str, int], variables: Any) -> None:
    what = _Selection("selected")
    assert pairing.row_slots(_run(variables), what, row, "discard") == "selected"
    assert what.asked == 1


def test_checked_catches_a_reading_that_is_not_the_selection() -> None:
    checked = ev.CHECKED
    ev.CHECKED = True
    try:
        assert pairing.row_slots(_run(), _Selection((5, 6, 7, 8)), ("M", 1), "discard") == (5, 6, 7, 8)
        with pytest.raises(ev.Mismatch, match="read as the slots"):
            pairing.row_slots(_run(), _Selection((5, 6, 7)), ("M", 1), "discard")
    finally:
        ev.CHECKED = checked


def _count_row_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A one-item list counting the rows read from their regions (``pairing.row_slots``)."""
    read = [0]
    row_slots = pairing.row_slots

    def counted(run: Any, what: Any, row: tuple[str, int], verb: str) -> Any:
        read[0] += 1
        return row_slots(run, what, row, verb)

    monkeypatch.setattr(pairing, "row_slots", counted)
    return read


def test_the_games_rows_are_read_from_the_regions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs compared with the interpreter's, with CHECKED (each row read compared with its
    selection): the fused pairs' rows are read from their regions."""
    read = _count_row_reads(monkeypatch)
    result = _compare(Library(), "card-selection-arrow", seeds=4)
    assert result[0] == "ran", result[:3]
    assert read[0] > 0


class _Row(_Selection):
    """A whole row by number (``text``) as the compiled expression a fused pair holds."""

    def __init__(self, text: str, slots: Any) -> None:
        super().__init__(slots)
        from reference_engine.expressions import parse

        self.expr = parse(text)
        self.text = text


@pytest.mark.usefixtures("unchecked")
def test_the_rows_of_a_layout_are_kept_for_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows read from their regions are read once per layout; met again, they are the kept
    tuples (the very objects: a tail compares them by identity)."""
    read = _count_row_reads(monkeypatch)
    rows = pairing.RowArgs(_Row("M[3, *]", "no"), _Row("M[1, *]", "no"))  # type: ignore[arg-type]
    run = _run()
    first = rows.rows(run)
    assert first == ((13, 14, 15, 16), (5, 6, 7, 8), ()) and read[0] == 2
    again = rows.rows(_run())
    assert again == first and again[0] is first[0] and again[1] is first[1] and read[0] == 2


@pytest.mark.usefixtures("unchecked")
@pytest.mark.parametrize(
    ("what", "variables"),
    [("h[1, *]", None), ("M[4, *]", None), ("N[1, *]", None), ("M[3, *]", {"M": [1, 2]})],
    ids=["a hand", "a row the region lacks", "no such region", "a variable"],
)
def test_rows_not_read_from_their_regions_are_read_at_every_run(what: str, variables: Any) -> None:
    """Attack: a row selected as written (a hand, a missing row or region, a name a variable
    holds) is never kept: each run selects it again."""
    sel = _Row(what, (1, 2))
    rows = pairing.RowArgs(sel, _Row("M[1, *]", (5, 6, 7, 8)))  # type: ignore[arg-type]
    for n in (1, 2, 3):
        assert rows.rows(_run(variables)) is not None
        assert sel.asked == n


def test_checked_compares_kept_rows_with_the_rows_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """Attack: a kept reading that is not the layout's (planted) is caught under CHECKED."""
    monkeypatch.setattr(ev, "CHECKED", True)
    rows = pairing.RowArgs(_Row("M[3, *]", (13, 14, 15, 16)), _Row("M[1, *]", (5, 6, 7, 8)))  # type: ignore[arg-type]
    run = _run()
    assert rows.rows(run) == ((13, 14, 15, 16), (5, 6, 7, 8), ())
    rows.kept[run.layout] = ((13, 14, 15), (5, 6, 7, 8))
    with pytest.raises(ev.Mismatch, match="rows kept for the layout"):
        rows.rows(run)
