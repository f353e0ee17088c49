"""A return's owners ``[family_index(t) for t in NAME[k, *]]`` read in C (reference_engine/
compiled/families.py): the expression recognised only in that form, its value read only where
the fast function reads the row at once (every card face up and seen), None (the expression as
compiled, with its message) for anything else; and whole runs of hostile mutants of the quick
protocol's Step 12, run for run against the interpreter with ``evaluate.CHECKED`` (which also
compares every value read here with the expression's)."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
for folder in (HERE, HERE.parent):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from test_fused import QUICK, _compare, _library  # noqa: E402

from reference_engine.cards import SYMBOLS  # noqa: E402
from reference_engine.compiled import families  # noqa: E402
from reference_engine.expressions import parse  # noqa: E402
from reference_engine.registry import Library  # noqa: E402
from reference_engine.sleeves import SleeveFrame  # noqa: E402
from reference_engine.table import Layout  # noqa: E402

OUT = SleeveFrame(declared=(2, 1, 3), rows=(1, 3), front=frozenset({1, 3}), keeps=frozenset({2}))
IN = SleeveFrame(declared=(2, 1, 3), rows=(2, 1, 3), front=frozenset({1, 3}), keeps=frozenset({2}))


def _proto() -> Any:
    return Library().protocol("card-selection-fast")


@pytest.mark.parametrize(
    "text, want",
    [
        ("[family_index(t) for t in M[2, *]]", ("M", 2)),
        ("[family_index(c) for c in D[1, *]]", ("D", 1)),
        ("[family_index(t) for t in M[2, 1]]", None),  # one card, not a row
        ("[family_index(t) for t in M[k, *]]", None),  # a row by a variable
        ("[family_index(u) for t in M[2, *]]", None),  # another name than the loop's
        ("[family_index(t) + 1 for t in M[2, *]]", None),
        ("[family_index(t) for t in M[2, *] if t != none]", None),
        ("[family_index(t) for t in M]", None),
        ("[family_index(t) for t in t[2, *]]", None),  # the row's name is the loop's variable
        ("[len(t) for t in M[2, *]]", None),
        ("family_index(M[2, 1])", None),
    ],
)
def test_only_that_form_is_recognised(text: str, want: tuple[str, int] | None) -> None:
    assert families.family_row(parse(text).node, _proto()) == want


class _Run:
    """What :func:`families.read` reads of a run: its layout, cells and variables."""

    def __init__(self, layout: Layout, cells: list[int], env: dict[str, Any] | None = None):
        self.layout = layout
        self.cells = cells
        self.env = env or {}

    def vars(self) -> dict[str, Any]:
        return self.env


def _code(name: str, up: bool = True) -> int:
    return SYMBOLS.intern(name).id << 1 | int(up)


def _table(owners: list[int], sleeve: SleeveFrame | None = OUT, hand: str | None = None) -> _Run:
    cols = len(owners)
    layout = Layout.make([("X", 1, 2, 1, "hand9", None), ("M", 3, cols, 1, hand, sleeve)])
    cards = [_code("families_test_card", up=False)] * cols
    arrows = [_code("families_test_arrow", up=False)] * cols
    return _Run(layout, [_code("theta1"), _code("theta2"), *cards, *owners, *arrows])


def test_a_row_of_owner_cards_reads_as_their_numbers() -> None:
    owners = [_code(f"theta{i}") for i in (3, 1, 12, 3, 2)]
    assert families.read(_table(owners), "M", 2) == [3, 1, 12, 3, 2]  # type: ignore[arg-type]


def test_a_row_out_of_the_sleeves_is_read_without_the_slots_inside_them() -> None:
    """Owner cards slid out of their sleeves, or a region without sleeves: read as numbers (no
    slot of the row is inside a sleeve: the check of the slots inside is left out, CHECKED
    asserts it)."""
    owners = [_code(f"theta{i}") for i in (2, 7, 1)]
    for sleeve in (OUT, None):
        run = _table(owners, sleeve)
        assert not run.layout.inside.isdisjoint(range(run.layout.size)) or sleeve is None
        assert families.read(run, "M", 2) == [2, 7, 1]  # type: ignore[arg-type]
    assert families.read(_table(owners, IN), "M", 2) is None  # type: ignore[arg-type]  # hidden


@pytest.mark.parametrize(
    "case",
    [
        "face-down",
        "empty",
        "no-number",
        "hidden-in-its-sleeve",
        "a-variable",
        "a-hand",
        "no-row",
        "no-region",
    ],
)
def test_anything_else_is_left_to_the_expression(case: str) -> None:
    owners = [_code("theta2"), _code("theta1"), _code("theta3")]
    name, k = "M", 2
    sleeve: SleeveFrame | None = OUT
    hand = None
    if case == "face-down":
        owners[1] = _code("theta1", up=False)
    elif case == "empty":
        owners[2] = -1
    elif case == "no-number":
        owners[0] = _code("families_test_arrow")
    elif case == "hidden-in-its-sleeve":
        sleeve = IN
    elif case == "a-hand":
        hand = "hand1"
    elif case == "no-row":
        k = 4
    elif case == "no-region":
        name = "N"
    run = _table(owners, sleeve, hand) if case != "a-hand" else None
    if case == "a-hand":
        layout = Layout.make([("M", 1, 3, 1, "hand1", None)])
        run = _Run(layout, owners)
        k = 1
    assert run is not None
    if case == "a-variable":
        run.env = {"M": [1, 2, 3]}
    assert families.read(run, name, k) is None  # type: ignore[arg-type]


def test_the_numbers_are_read_right_for_many_families() -> None:
    """One table of family numbers by face id serves every family (and the compiled
    comprehension): faces met in any order read their own number."""
    for n in (8, 1, 5, 2):
        owners = [_code(f"theta{i}") for i in (n, n + 1, n + 2, 1)]
        assert families.read(_table(owners), "M", 2) == [n, n + 1, n + 2, 1]  # type: ignore[arg-type]


def test_a_face_down_card_of_a_face_not_met_yet_is_left_to_the_expression() -> None:
    """The table of numbers is by code: a face met first face down (the table grown through
    it) reads None, so the row goes to the expression; the same face up reads its number."""
    fresh = [_code("theta2"), _code("families_test_theta77", up=False)]
    assert families.read(_table(fresh), "M", 2) is None  # type: ignore[arg-type]
    fresh[1] = _code("families_test_theta77")
    assert families.read(_table(fresh), "M", 2) == [2, 77]  # type: ignore[arg-type]


OWNERS = '"[family_index(t) for t in M[2, *]]"'
RETURN = '      - return: {cards: "M[1, *]", to: ' + OWNERS + "}\n"

# name -> (text put before Step 12's return, its ``to:``, whether the row is read here, what the run
# is refused for)
MUTANTS: dict[str, tuple[str, str, bool, str | None]] = {
    "as-written": ("", OWNERS, True, None),
    "turned-face-down-again": ('      - turn: "M[2, *]"\n', OWNERS, False, "is face down"),
    "pushed-back-into-the-sleeves": (
        "      - sleeve: {M: {in: [2]}}\n",
        OWNERS,
        False,
        "a decision may only use cards it sees",
    ),
    "a-variable-named-as-the-loop": ("      - let:\n          t: 1\n", OWNERS, True, None),
    "the-cards-row": ("", OWNERS.replace("M[2, *]", "M[1, *]"), False, "is face down"),
}


def _count_reads(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    made: Counter[str] = Counter()
    read = families.read

    def counted(*args: Any) -> Any:
        got = read(*args)
        made["read" if got is not None else "left"] += 1
        return got

    monkeypatch.setattr(families, "read", counted)
    return made


@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_hostile_owner_rows_run_as_the_interpreter(
    tmp_path: Path, mutant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before, to, read, refused = MUTANTS[mutant]
    assert RETURN in QUICK, "the quick protocol changed; update the mutants"
    name = f"quick-families-{mutant}"
    text = QUICK.replace(RETURN, before + RETURN.replace(OWNERS, to), 1).replace(
        "protocol: card-selection-fast", f"protocol: {name}"
    )
    made = _count_reads(monkeypatch)
    result = _compare(_library(tmp_path, name, text), name)
    if refused is None:
        assert result[0] == "ran", result[:3]
    else:
        assert result[0] == "error" and refused in result[2], result[:3]
    assert bool(made["read"]) == read, (mutant, made)
