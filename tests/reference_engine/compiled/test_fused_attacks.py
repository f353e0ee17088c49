"""Hostile mutants of the default protocol's Step 12 against compiled/fused.py's two fusions
(a discard and a return as one plan; the whole of Step 12 with 12(a)'s pair as one plan): an
error in the middle step, owners of every kind, 12(a) discarding a row the plan already took,
and the registry of nested pairs taken by identity only. Every run is compared with the
interpreter (and with ``evaluate.CHECKED`` one step at a time): the same values, errors and
step numbers on both engines."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, cast

import pytest

HERE = Path(__file__).resolve().parent
for folder in (HERE, HERE.parent):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import test_fused as tf  # noqa: E402

from reference_engine import steps as st  # noqa: E402
from reference_engine.compiled import fused  # noqa: E402

OWNERS = '"[family_index(t) for t in M[2, *]]"'
STEP_12 = f'      - return: {{cards: "M[1, *]", to: {OWNERS}}}\n'

# name -> (Step 12's return replaced by, fused, what the run is refused for (None: it runs))
RETURNS: dict[str, tuple[str, bool, str | None]] = {
    "to-no-such-owner": (STEP_12.replace(OWNERS, "9"), True, None),
    "to-a-list-of-no-such-owner": (STEP_12.replace(OWNERS, '"[9 for t in M[2, *]]"'), True, None),
    "to-owner-zero": (STEP_12.replace(OWNERS, "0"), True, None),
    "to-a-name-of-the-spec": (STEP_12.replace(OWNERS, "pile"), True, None),
    "to-text": (STEP_12.replace(OWNERS, "\"['x' for t in M[2, *]]\""), True, None),
    "to-too-few-owners": (
        STEP_12.replace(OWNERS, '"[1]"'),
        False,
        "step 12: return: 2 cards but 1 owners",
    ),
    "owners-read-face-down": (
        STEP_12.replace("M[2, *]]", "M[1, *]]"),
        False,
        "step 12: M[1, 1] is face down",
    ),
    "owners-call-len": (STEP_12.replace(OWNERS, '"[len(sizes) for t in M[2, *]]"'), False, None),
}

# name -> (Step 12(a) replaced by, what the run is refused for)
PAIRS_A: dict[str, tuple[str, str]] = {
    "discards-the-row-step-12-took": (
        '          - sleeve: {M: {in: [2]}}\n          - discard: "M[3, *]"\n',
        "step 12(a): index 3 is out of range: M has 2 rows",
    ),
    "discards-the-row-returned": (
        '          - sleeve: {M: {in: [2]}}\n          - discard: "M[1, *]"\n',
        "step 12(a): M[1, 1] is empty",
    ),
}


def _run(tmp: Path, name: str, text: str) -> tuple[object, ...]:
    return tf._compare(tf._library(tmp, name, text), name)


@pytest.mark.parametrize("mutant", sorted(RETURNS))
def test_step_12s_return_of_every_kind_runs_as_its_steps(
    tmp_path: Path, mutant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    new, fuses, refused = RETURNS[mutant]
    assert STEP_12 in tf.ARROW, "the default protocol changed; update the mutants"
    name = f"arrow-attack-{mutant}"
    text = tf.ARROW.replace(STEP_12, new, 1).replace("protocol: card-selection-arrow", f"protocol: {name}")
    made = tf._count_returns(monkeypatch)
    result = _run(tmp_path, name, text)
    if refused is None:
        assert result[0] == "ran", result[:3]
    else:
        assert result[0] == "error" and refused in str(result[2]), result[:3]
    assert bool(made["with 12(a)"]) == fuses, (mutant, made)  # Step 11 fuses a pair too


@pytest.mark.parametrize("mutant", sorted(PAIRS_A))
def test_step_12a_failing_after_the_plan_fails_as_its_steps(
    tmp_path: Path, mutant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """12(a)'s discard fails on the table step 12 leaves: the whole-step plan is not taken (the
    plan would have gone through on the table before), the message and step are the discard's."""
    new, refused = PAIRS_A[mutant]
    name = f"arrow-attack-{mutant}"
    text = tf.ARROW.replace(tf.PAIR_A, new, 1).replace("protocol: card-selection-arrow", f"protocol: {name}")
    made = tf._count_returns(monkeypatch)
    result = _run(tmp_path, name, text)
    assert result[0] == "error" and refused in str(result[2]), result[:3]
    assert not made["with 12(a)"], made


def _nothing(run: Any) -> None:
    pass


def _step(kind: type[st.Step]) -> st.Step:
    return kind(path=("steps", 0), line=1, number=None, say=None)


def test_a_nested_pair_is_taken_only_by_its_own_step() -> None:
    """The registry of nested pairs: an equal step that is not the one registered takes nothing
    (a pair left by a compile that failed is never carried out by another program's Step 12),
    and the entry is gone once taken."""
    sleeve, discard, twin = (_step(st.Sleeve), _step(st.Discard), _step(st.Sleeve))
    assert twin == sleeve and twin is not sleeve
    nested = fused.Nested([None], _nothing, _nothing, (), cast(Any, None), "M", None, None)
    fused._NESTED.clear()
    try:
        fused._remember(sleeve, nested)
        do = _step(st.Do)
        assert isinstance(do, st.Do)
        do.body = [twin, discard]
        assert fused._nested(do) is None
        do.body = [sleeve, discard]
        assert fused._nested(do) is nested
        assert fused._nested(do) is None  # taken once
        for _ in range(fused.NESTED_KEPT + 5):
            fused._remember(_step(st.Sleeve), nested)
        assert len(fused._NESTED) <= fused.NESTED_KEPT
    finally:
        fused._NESTED.clear()
