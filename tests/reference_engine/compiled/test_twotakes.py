"""Step 10's two takes carried out at once (reference_engine/compiled/twotakes.py): the virtual
player's sleeves and the first of the draw pile's, in one gather, without the table between.
Every run here is compared with the interpreter's, run for run, with ``evaluate.CHECKED``
(which also compares the pair with the two takes carried out one after the other); each mutant
that breaks a static condition must be refused (each take as before), and the mutants that keep
the structure must be taken and still be the interpreter's runs."""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
for folder in (HERE, HERE.parent):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from test_fused import _compare, _library  # noqa: E402
from test_fused_tail import ARROW  # noqa: E402

from reference_engine.compiled import evaluate as ev  # noqa: E402
from reference_engine.compiled import twotakes  # noqa: E402
from reference_engine.registry import Library  # noqa: E402

TAKE_L = '      - take: {from: M, columns: "[j for j in 1..ncols(M) if M[2, j] == theta(1)]", into: L}\n'
GUARD = "[j for j in 1..ncols(M) if draw == 1 and M[2, j] == theta(pile)"
LET = "      - let:\n          z: 1\n"

# name -> (replacements, whether both takes are carried out at once)
MUTANTS: dict[str, tuple[list[tuple[str, str]], bool]] = {
    "as-written": ([], True),
    # a step between the two takes: the table between is seen
    "a-step-between": ([(TAKE_L, TAKE_L + LET)], False),
    # the second take's condition reads the table (is L there?): it could tell the tables apart
    "the-condition-reads-the-table": ([(GUARD, GUARD.replace("draw == 1", "exists('L')"))], False),
    # the second take's face reads a region the first take makes
    "the-face-reads-the-new-region": (
        [(GUARD, GUARD.replace("theta(pile)", "theta(ncols(L) * 0 + pile)"))],
        False,
    ),
    # the second take takes nothing: the first alone at once, the second as compiled after it
    "the-second-takes-nothing": ([(GUARD, GUARD.replace("draw == 1", "draw == 7"))], False),
    # the second take reads another row (the cards, in their sleeves) than its "first" clause:
    # no scan, refused when compiled (the take then fails, reading a card in a sleeve, with the
    # same error on both engines)
    "another-row": ([(GUARD, GUARD.replace("M[2, j] == theta(pile)", "M[1, j] == theta(pile)"))], False),
}


def _count(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Counts the pairs carried out at once (the table between noted, never made)."""
    made: Counter[str] = Counter()
    note = twotakes.note_space

    def noted(shared: Any, between: Any) -> None:
        made["both"] += 1
        note(shared, between)

    monkeypatch.setattr(twotakes, "note_space", noted)
    return made


def test_the_default_protocols_two_takes_are_one_gather(monkeypatch: pytest.MonkeyPatch) -> None:
    made = _count(monkeypatch)
    result = _compare(Library(), "card-selection-arrow", seeds=6)
    assert result[0] == "ran", result[:3]
    assert made["both"] > 0, made


@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_two_takes_at_once_are_the_two_takes(
    tmp_path: Path, mutant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    replacements, taken = MUTANTS[mutant]
    name = f"arrow-takes-{mutant}"
    text = ARROW.replace("protocol: card-selection-arrow", f"protocol: {name}")
    for old, new in replacements:
        assert old in text, f"{mutant}: the default protocol changed; update the mutant"
        text = text.replace(old, new, 1)
    made = _count(monkeypatch)
    result = _compare(_library(tmp_path, name, text), name, seeds=6)
    assert result[0] == ("error" if mutant == "another-row" else "ran"), result[:3]
    assert bool(made["both"]) == taken, (mutant, made)


def test_the_static_check_refuses_what_the_table_between_could_tell() -> None:
    """:func:`twotakes.scans` on the mutants' steps: None exactly where the second take reads
    the table (a region, ``exists``) or the takes are not of one region into two new ones."""
    library = Library()
    proto = library.protocol("card-selection-arrow")
    from reference_engine import steps as st

    def takes_of(block: list[st.Step]) -> list[st.Take]:
        out: list[st.Take] = []
        for s in block:
            if isinstance(s, st.Take):
                out.append(s)
            out.extend(takes_of(list(getattr(s, "body", None) or [])))
        return out

    one, two = takes_of(list(proto.steps))
    from reference_engine.compiled import evaluate

    def compiled(expr: Any) -> Any:
        return evaluate.Expr(expr, proto)

    assert twotakes.scans(one, two, compiled) is not None
    assert twotakes.scans(two, one, compiled) is not None  # the other order: still one region
    assert twotakes.scans(one, one, compiled) is None  # into the same region twice


def test_checked_compares_the_pair_with_the_takes_one_by_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pair whose gather is wrong (the two new regions' cards swapped) is caught by CHECKED."""
    rows = twotakes._rows
    calls = [0]

    def swapped(cells: list[int], off: int, nrows: int, width: int, idx: Any) -> list[int]:
        calls[0] += 1
        got = rows(cells, off, nrows, width, idx)
        return got[::-1] if calls[0] % 4 == 0 else got  # the second take's cards, reversed

    monkeypatch.setattr(twotakes, "_rows", swapped)
    checked = ev.CHECKED
    with pytest.raises(AssertionError, match="at once"):
        _compare(Library(), "card-selection-arrow", seeds=2)
    assert checked == ev.CHECKED


def test_the_columns_kept_by_slices_are_the_gather_of_the_columns_kept() -> None:
    """_kept_rows (each column taken deleted from every row at once) against _rows of the
    columns kept, for columns taken at either edge, side by side, none, all but one, all; one
    row and several."""
    cells = list(range(1000, 1000 + 7 * 11 + 5))
    width, rows, off = 11, 7, 3
    cases = [[], [0], [10], [0, 10], [3, 4, 5], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 3, 5, 7, 9]]
    rng = random.Random(5)
    cases += [sorted(rng.sample(range(width), rng.randint(1, width - 1))) for _ in range(50)]
    cases.append(list(range(width)))
    for gone in cases:
        kept = [c for c in range(width) if c not in gone]
        for n in (1, rows):
            before = list(cells)
            want = twotakes._rows(cells, off, n, width, kept)
            assert twotakes._kept_rows(cells, off, n, width, gone) == want
            assert cells == before  # the table's cells are read, never changed


def test_the_kept_column_is_the_one_the_columns_kept_list() -> None:
    rng = random.Random(7)
    for _ in range(200):
        width = rng.randint(1, 20)
        gone = sorted(rng.sample(range(width), rng.randint(0, width - 1)))
        kept = [c for c in range(width) if c not in gone]
        assert [twotakes._kept_column(gone, i) for i in range(len(kept))] == kept
