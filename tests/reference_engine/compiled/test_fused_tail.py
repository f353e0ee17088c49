"""Step 11's found case carried out as one plan (reference_engine/compiled/fused.py's
``_after_if``): the discard of D[3, *] and the return of D[1, *] (the last two steps of the
``if found`` branch, already fused) and the discard of D[2, *] just after that ``if``. Every run
here is compared with the interpreter's, run for run, and with ``evaluate.CHECKED`` (the
differential tests' setting) against the three steps carried out one by one; each mutant that
lets a check between the steps tell, or breaks a condition, must be refused (each step as
compiled, with its own message)."""

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

from reference_engine.compiled import fused, tails  # noqa: E402
from reference_engine.compiled.runs import region_at  # noqa: E402
from reference_engine.registry import Library, rulesets_dir  # noqa: E402

ARROW = (rulesets_dir() / "protocols" / "card-selection-arrow.yaml").read_text(encoding="utf-8")
FOUND = """          - if: "found"
            then:
              - discard: "D[3, *]"
              - return: {cards: "D[1, *]", to: "pile"}
            else:"""
AFTER = """          - discard: "D[2, *]"
      - discard: "L[2, *]\""""


def _count_tails(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Counts the plans of a discard and return that carry out a region's last row after them,
    by region."""
    made: Counter[str] = Counter()
    build = fused.return_row

    def counted(*args: Any) -> Any:
        plan = build(*args)
        if plan is not None and len(args) > 4 and args[4]:
            made[region_at(args[0], args[1][0]).name] += 1
        return plan

    monkeypatch.setattr(fused, "return_row", counted)
    monkeypatch.setattr(tails, "ENABLED", False)  # the pairs alone, not Steps 11-12 at once
    return made


def test_the_default_protocols_step_11_found_case_is_one_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    made = _count_tails(monkeypatch)
    result = _compare(Library(), "card-selection-arrow", seeds=6)
    assert result[0] == "ran", result[:3]
    assert made["D"] > 0 and made["M"] > 0, made  # Step 11's three steps, and Step 12's four


# name -> (FOUND, AFTER replaced by, whether Step 11's found case is one plan)
MUTANTS: dict[str, tuple[str, str, bool]] = {
    "as-written": (FOUND, AFTER, True),
    # a step between the ``if`` and the discard: the table between them is seen
    "a-step-between": (
        FOUND,
        AFTER.replace(
            '          - discard: "D[2', '          - let:\n              z: 1\n          - discard: "D[2', 1
        ),
        False,
    ),
    # the discard after the ``if`` takes another row (the region is not emptied by it)
    "another-row": (FOUND, AFTER.replace("D[2, *]", "D[1, *]", 1), False),
    # the discard after the ``if`` takes another region's row
    "another-region": (
        FOUND,
        AFTER.replace('"D[2, *]"\n      - discard: "L[2, *]"', '"L[2, *]"\n      - discard: "D[2, *]"', 1),
        False,
    ),
    # the branch ends with a step after the pair
    "a-step-after-the-pair": (
        FOUND.replace('to: "pile"}', 'to: "pile"}\n              - let:\n                  z: 1', 1),
        AFTER,
        False,
    ),
    # the branch taken in the other case (the draw-pile sleeve back unseen when nothing was
    # found): the pair is still the ``then`` branch's last steps, and joins
    "the-other-case": (FOUND.replace('if: "found"', 'if: "not found"', 1), AFTER, True),
}


@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_the_found_case_at_once_is_its_steps(
    tmp_path: Path, mutant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    found, after, whole = MUTANTS[mutant]
    assert FOUND in ARROW and AFTER in ARROW, "the default protocol changed; update the mutants"
    name = f"arrow-tail-{mutant}"
    text = (
        ARROW.replace(FOUND, found, 1)
        .replace(AFTER, after, 1)
        .replace("protocol: card-selection-arrow", f"protocol: {name}")
    )
    made = _count_tails(monkeypatch)
    _compare(_library(tmp_path, name, text), name, seeds=6)
    assert bool(made["D"]) == whole, (mutant, made)
