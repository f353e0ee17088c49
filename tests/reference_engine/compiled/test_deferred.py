"""A discard that takes a region off the table and the ``if exists('X')`` return after it,
carried out as one plan (reference_engine/compiled/deferred.py: Step 11's ``L[2, *]`` and the
unselected sleeves back to the virtual player): exactly the two steps' outcome where it is
taken, and each step as compiled, with its own message, wherever a condition fails. Every run
here is compared with the interpreter's, run for run, with ``evaluate.CHECKED`` (which also
compares the two steps carried out one after the other with the plan of both)."""

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

from test_fused import _compare, _library  # noqa: E402
from test_fused_tail import ARROW  # noqa: E402

from reference_engine.compiled import Program, deferred, program_for, tails  # noqa: E402
from reference_engine.compiled.runs import return_row  # noqa: E402
from reference_engine.registry import Library  # noqa: E402
from reference_engine.sleeves import SleeveFrame  # noqa: E402
from reference_engine.table import Layout  # noqa: E402

TAIL = """      - discard: "L[2, *]"
      - if: "exists('unselected')"
        then:
          - return: {cards: "unselected[1, *]", to: 1}
"""
RETURN = '          - return: {cards: "unselected[1, *]", to: 1}\n'

# name -> (TAIL replaced by, whether the two are one plan, what the run is refused for)
MUTANTS: dict[str, tuple[str, bool, str | None]] = {
    "as-written": (TAIL, True, None),
    "another-region-tested": (TAIL.replace("exists('unselected')", "exists('played')"), False, None),
    "the-discarded-region-tested": (TAIL.replace("exists('unselected')", "exists('L')"), False, None),
    "not-exists": (TAIL.replace("exists('unselected')", "not exists('played')"), False, None),
    "two-steps-in-the-branch": (TAIL + "          - let:\n              x: 1\n", False, None),
    "an-else-branch": (TAIL + "        else:\n          - let:\n              x: 1\n", False, None),
    # read on the table before the discard, L would give a number: it must be the step's error
    "owners-read-the-region-gone": (TAIL.replace("to: 1", 'to: "len(L)"'), False, "unknown name 'L'"),
    "owners-read-another-region": (TAIL.replace("to: 1", 'to: "len(played)"'), False, None),
    "owners-a-variable": (
        TAIL.replace('      - discard: "L', '      - let:\n          k: 1\n      - discard: "L', 1).replace(
            "to: 1", "to: k"
        ),
        True,
        None,
    ),
    "a-row-with-cards-above": (TAIL.replace("L[2, *]", "L[1, *]"), False, "is empty"),
    "a-variable-named-as-the-region": (
        TAIL.replace('      - discard: "L', '      - let:\n          unselected: 1\n      - discard: "L', 1),
        False,
        "a list takes one index",
    ),
    "discarded-twice": (
        TAIL.replace(RETURN, RETURN + '          - discard: "L[2, *]"\n'),
        False,
        "unknown name 'L'",
    ),
}


def _count(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Counts the plans of the two steps carried out (by the return's op)."""
    made: Counter[str] = Counter()
    table = deferred._table

    def counted(run: Any, step: Any, plan: Any) -> None:
        made[step.kind] += 1
        table(run, step, plan)

    monkeypatch.setattr(deferred, "_table", counted)
    monkeypatch.setattr(tails, "ENABLED", False)  # the pair alone, not Steps 11-12 at once
    return made


@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_a_discard_and_the_return_after_it_are_the_two_steps(
    tmp_path: Path, mutant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    new, fused, refused = MUTANTS[mutant]
    assert TAIL in ARROW, "the default protocol changed; update the mutants"
    name = f"arrow-deferred-{mutant}"
    text = ARROW.replace(TAIL, new, 1).replace("protocol: card-selection-arrow", f"protocol: {name}")
    made = _count(monkeypatch)
    result = _compare(_library(tmp_path, name, text), name, seeds=4)
    if refused is None:
        assert result[0] == "ran", result[:3]
    else:
        assert result[0] == "error" and refused in result[2], result[:3]
    assert bool(made["return"]) == fused, (mutant, made)


def test_the_default_protocol_carries_them_out_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    library = Library()
    proto = library.protocol("card-selection-arrow")
    program = program_for(library, proto)
    assert isinstance(program, Program), program
    made = _count(monkeypatch)
    result = _compare(library, "card-selection-arrow", seeds=4)
    assert result[0] == "ran", result[:3]
    assert made["return"] > 0, made


SLEEVE = SleeveFrame(declared=(2, 1, 3), rows=(2, 1, 3), front=frozenset({1, 3}), keeps=frozenset({2}))
ONE = SleeveFrame(declared=(1,), rows=(1,), front=frozenset({1}))


def _layout(holes: list[int], l_rows: int = 2) -> Layout:
    # M 3x2 (slots 0-5), L l_rows x 3 (6-...), unselected 1x2, hand1 1x1
    return Layout.make(
        [
            ("M", 3, 2, 1, None, SLEEVE),
            ("L", l_rows, 3, 1, None, SLEEVE),
            ("unselected", 1, 2, 1, None, ONE),
            ("hand1", 1, 1, 1, "hand1", None),
        ],
        holes,
    )


def test_the_region_gone_is_its_bottom_row_with_empty_places_above() -> None:
    layout = _layout([6, 7, 8])
    plan = return_row(layout, (12, 13), ("hand1", "hand1"), gone=(9, 10, 11))
    assert plan is not None
    assert [(r.name, r.rows, r.cols) for r in plan.layout.regions] == [("M", 3, 2), ("hand1", 1, 3)]
    assert plan.src == (0, 1, 2, 3, 4, 5, 14, 12, 13) and not plan.returned and not plan.layout.holes


@pytest.mark.parametrize(
    "holes, gone",
    [
        ([6, 7], (9, 10, 11)),  # a card left in the row above: the region stays
        ([6, 7, 8], (6, 7, 8)),  # not the bottom row (and empty places)
        ([6, 7, 8, 9], (9, 10, 11)),  # an empty place discarded
        ([6, 7, 8], (9, 10)),  # not the whole row
        ([6, 7, 8], (0, 1)),  # another region's row (M keeps its other rows)
        ([6, 7, 8], (12, 13)),  # the region returned
        ([6, 7, 8], (14,)),  # a hand
    ],
)
def test_anything_else_is_left_to_the_steps(holes: list[int], gone: tuple[int, ...]) -> None:
    assert return_row(_layout(holes), (12, 13), ("hand1", "hand1"), gone=gone) is None


def test_the_plan_of_both_is_kept_by_the_table_before_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs on tables of the same shape build the plan of the two steps once (it depends on the
    table before both and the resolved arguments alone), and carry it out every time."""
    built: list[Any] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        plan = return_row(*args, **kwargs)
        built.append(plan)
        return plan

    monkeypatch.setattr(deferred, "return_row", counted)
    made = _count(monkeypatch)
    result = _compare(Library(), "card-selection-arrow", seeds=6)
    assert result[0] == "ran", result[:3]
    # Built afresh at every run, half as many plans as returns counted here (19 of 38); kept, 2.
    assert made["return"] >= 6 and 0 < len(built) < made["return"] // 4, (len(built), made)
