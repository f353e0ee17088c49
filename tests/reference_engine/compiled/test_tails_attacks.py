"""Hostile mutants of Step 11's drawn case for the tail that starts at the drawn sleeve's owner
card (:meth:`reference_engine.compiled.tails.Tail.drawn`), with tails on (the found case's
attacks in test_fused_tail_attacks.py switch them off): the owner card turned face up, turned
round or slid out of its sleeve in the branch, a card put back in the sleeve's empty place, the
discard after the ``if`` naming a row that is not there or taken twice. Every run is the
interpreter's, run for run, unchecked and with ``evaluate.CHECKED`` (the plan against the
three built one after the other)."""

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
from test_fused_tail import AFTER, ARROW  # noqa: E402

from reference_engine.compiled import evaluate, tails  # noqa: E402

END = '              - discard: "D[3, *]"\n          - discard: "D[2, *]"'
"""The drawn case's last step (its arrow out) and the discard of the owner card after the ``if``."""


def _before_end(step: str) -> tuple[str, str]:
    return END, f"              - {step}\n" + END


# name -> (text replaced, its replacement, whether some tail starts at the owner card)
MUTANTS: dict[str, tuple[str, str, bool]] = {
    "as-written": (END, END, True),
    "owner-card-face-up": (*_before_end('turn: "D[2, *]"'), True),
    "owner-card-turned-round": (*_before_end('rotate: "D[2, *]"'), True),
    "owner-card-out-of-its-sleeve": (*_before_end("sleeve: {D: {out: [2]}}"), True),
    "a-card-back-in-the-empty-place": (*_before_end('place: {"D[1, 1]": "new(down)"}'), False),
    "a-row-not-there": (AFTER, AFTER.replace("D[2, *]", "D[4, *]", 1), False),
    # the owner card's discard twice (the second finds no region): no tail links
    "taken-twice": (
        AFTER,
        AFTER.replace('          - discard: "D[2, *]"\n', '          - discard: "D[2, *]"\n' * 2, 1),
        False,
    ),
    # a step between the ``if`` and the owner card's discard: its table is seen
    "a-step-before-the-owner-card": (AFTER, '          - let: {seen: "len(D)"}\n' + AFTER, False),
}


def _drawn_starts(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    made: Counter[str] = Counter()
    drawn = tails.Tail.drawn

    def counted(self: tails.Tail, run: Any, what: Any) -> bool:
        done = drawn(self, run, what)
        made[str(done)] += 1
        return done

    monkeypatch.setattr(tails.Tail, "drawn", counted)
    return made


@pytest.mark.parametrize("checked", [False, True])
@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_hostile_drawn_cases_run_as_their_steps(
    tmp_path: Path, mutant: str, checked: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    old, new, starts = MUTANTS[mutant]
    assert old in ARROW, "the default protocol changed; update the mutants"
    name = f"arrow-drawn-attack-{mutant}"
    text = ARROW.replace(old, new, 1).replace("protocol: card-selection-arrow", f"protocol: {name}")
    monkeypatch.setattr(evaluate, "CHECKED", checked)
    made = _drawn_starts(monkeypatch)
    _compare(_library(tmp_path, name, text), name, seeds=6)
    assert bool(made["True"]) == starts, (mutant, made)
