"""Hostile review of a scanned take's sleeve test (reference_engine/compiled/takes.py's
``ColumnScan``: the row scanned is inside its region's sleeves exactly when the sleeves hold that
row, and then each of its cards must be shown): variants of the default protocol's Step 9 that
leave the owner cards' row in the sleeves, slide out another row instead, slide every row out,
or lay the sleeves front up. Each run is compared with the interpreter's, run for run (errors
included), with every scanned result checked against the expression's own value."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import runs  # noqa: E402

from reference_engine.compiled import takes  # noqa: E402
from reference_engine.machine import Runner  # noqa: E402
from reference_engine.registry import Library, rulesets_dir  # noqa: E402
from reference_engine.verify import input_assignments, setting  # noqa: E402

ARROW = rulesets_dir() / "protocols" / "card-selection-arrow.yaml"
OUT13 = "      - sleeve: {M: {out: [1, 3]}}\n      - sleeve: {M: front}\n"
UP = '      - turn: "M[1, *]"\n      - turn: "M[2, *]"\n      - turn: "M[3, *]"\n'
TURN2 = '      - turn: "M[2, *]"\n'
STEP9 = '      - turn: "M[2, *]"\n      - sleeve: {M: {out: [2]}}\n'

# name -> (Step 9 replaced by, whether some scan must apply, whether every scan must refuse)
VARIANTS: dict[str, tuple[str, bool, bool]] = {
    "as shipped": (STEP9, True, False),
    # the owner cards turned but left in their sleeves (back up: none shown): evaluated as written
    "left in the sleeves": ('      - turn: "M[2, *]"\n', False, True),
    # another row slid out: the owner cards' row is still inside
    "another row out": ('      - turn: "M[2, *]"\n      - sleeve: {M: {out: [3]}}\n', False, True),
    # every row out: nothing of M is inside a sleeve any more
    "every row out": ('      - turn: "M[2, *]"\n      - sleeve: {M: {out: [1, 2, 3]}}\n', False, False),
    # the sleeves laid front up (every card face up, or the owner cards): rows in and out
    "front up inside": (UP + "      - sleeve: {M: front}\n", False, False),
    "front up, row 2 out": (
        UP + "      - sleeve: {M: {out: [2]}}\n      - sleeve: {M: front}\n",
        False,
        False,
    ),
    "front up, rows 1 and 3 out": (TURN2 + OUT13, False, False),
    # the owner cards facing the front too: inside their sleeves but shown (frontmost, face up)
    "shown inside": (TURN2 + OUT13, True, False),
}
FRONT = "    front: [1, 3]        #"
EXTRA: dict[str, tuple[str, str]] = {
    "shown inside": (FRONT, "    front: [1, 2, 3]     #"),
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_scanned_take_in_sleeves_runs_as_the_interpreter(
    tmp_path: Path, variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    new, applies, refuses = VARIANTS[variant]
    text = ARROW.read_text(encoding="utf-8")
    assert STEP9 in text, "the default protocol changed; update the variants"
    text = text.replace(STEP9, new, 1)
    if variant in EXTRA:
        old, other = EXTRA[variant]
        assert old in text, "the default protocol changed; update the variants"
        text = text.replace(old, other, 1)
    (tmp_path / "card-selection-arrow.yaml").write_text(text, encoding="utf-8")
    lib = Library([tmp_path, rulesets_dir() / "protocols"])
    proto = lib.protocol("card-selection-arrow")
    scanned: list[Any] = []
    columns = takes.ColumnScan.columns

    def counted(self: takes.ColumnScan, run: Any) -> Any:
        got = columns(self, run)
        scanned.append(got)
        return got

    monkeypatch.setattr(takes.ColumnScan, "columns", counted)
    s = setting(proto)
    frame = Runner(lib, "sample").frame(proto, s.params)
    every = input_assignments(frame, s.deal)
    assignments = every[:: max(1, len(every) // 4)][:4]
    kinds: set[str] = set()
    for draw in (0, 1):
        params = {**s.params, "draw": draw}
        found = runs.differences(lib, proto, params, assignments, range(2), s.context or None, kinds)
        assert not found, "\n".join(found)
    if applies:
        assert any(cols is not None for cols in scanned), scanned
    if refuses:
        assert all(cols is None for cols in scanned), scanned
