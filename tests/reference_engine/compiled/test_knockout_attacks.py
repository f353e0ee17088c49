"""Hostile variants of the knockout lottery's 4(c) for the direct forms of
:mod:`reference_engine.compiled.knockout` (stop 50's review): the four expressions kept as they
are, node for node, so the forms are asked, but what they read made unusual by a step put in
front of them: holes where the places are, out-of-range and negative columns, more matches than
arrows, a middle arrow turned back face down, or texts, lists and truth values where numbers
were. Every run is the interpreter's, errors and messages included, with ``ev.CHECKED`` and
without (the form steps aside, or its value is the evaluator's and the step's own check fails
alike)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from test_knockout import _counted, _variant  # noqa: E402
from test_pure import _compare  # noqa: E402

TURN = "              - turn: U\n"
ROTATE = '              - rotate: "[P[2, alive[2 * i - 1]] for i in 1..h if U[i] == up]"\n'
DISCARD = '              - discard: "[P[2, j] for j in out]"\n'


def _let(name: str, value: str) -> str:
    return f'              - let:\n                  {name}: "{value}"\n'


# name -> (text replaced, its replacement, what every run ends with: "ran" or part of the error)
ATTACKS: dict[str, tuple[str, str, str]] = {
    # the losers' arrows discarded twice: the second discard selects holes
    "discard-twice": (DISCARD, DISCARD + DISCARD, "is empty"),
    # the winners' arrows discarded before they are rotated: the rotation selects holes
    "rotate-holes": (
        ROTATE,
        '              - discard: "[P[2, alive[2 * i - 1]] for i in 1..h]"\n' + ROTATE,
        "is empty",
    ),
    # a column past the sleeves, zero, negative
    "out-past-the-sleeves": (DISCARD, _let("out", "[m + 1]") + DISCARD, "out of range"),
    "out-zero": (DISCARD, _let("out", "[0]") + DISCARD, "out of range"),
    "alive-negative": (TURN, TURN + _let("alive", "[-1] + alive"), "out of range"),
    # more matches than arrows between the sleeves
    "more-matches-than-arrows": (TURN, TURN + _let("h", "h + 1"), "out of range"),
    # no match, fewer than none
    "h-zero": (TURN, TURN + _let("h", "0"), "outside 1..0"),
    "h-negative": (TURN, TURN + _let("h", "-1"), "outside 1..0"),
    # a middle arrow turned back face down before it is read
    "an-arrow-face-down": (ROTATE, '              - turn: "U[1]"\n' + ROTATE, "face down"),
    # texts and lists where numbers were
    "alive-texts": (TURN, TURN + _let("alive", "[str(j) for j in alive]"), "expected a number"),
    "alive-lists": (TURN, TURN + _let("alive", "[[j] for j in alive]"), "expected a number"),
    "h-text": (TURN, TURN + _let("h", "str(h)"), "expected a number"),
}


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_hostile_decisions_run_as_the_interpreter(attack: str, monkeypatch: pytest.MonkeyPatch) -> None:
    old, new, ends = ATTACKS[attack]
    counts = _counted(monkeypatch)
    for checked in (True, False):
        ended, _ = _compare(_variant(f"{attack} {checked}", old, new), 12, 3, 7, checked=checked)
        assert ended and all(ends in e for e in ended if e != "ran"), ended
        assert any(ends in e for e in ended), ended
    assert sum(counts.values()) > 0, counts  # the forms were asked: the attack reached them


MIXED = (
    '              - let:\n                  z: "true if U[1] == up else 1"\n'
    '              - let:\n                  s: "str(z)"\n'
    '              - let:\n                  w: "[z, z == 1, str(z)]"\n'
    '              - let:\n                  y: "[z]"\n'
)


def test_truth_values_and_numbers_mixed_across_runs_run_as_the_interpreter() -> None:
    """Type-exact keys across the runs of one process: after each round a variable is ``true``
    in some runs and ``1`` in others (the same layouts), then read by ``str``, compared and
    kept in a list: every kept value (steady, chained, pure keys) must tell them apart, as the
    interpreter does."""
    for checked in (True, False):
        ended, _ = _compare(_variant(f"types {checked}", TURN, TURN + MIXED), 40, 3, 7, checked=checked)
        assert ended == {"ran"}, ended


def test_keys_blind_to_types_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mutant: the kept values' keys made by Python's equality (``exact`` the identity): a run
    with ``z = 1`` is given the ``[true]`` kept for ``z = true``. The differential runs compare
    the variables type-exactly (runs.decided; with ``==`` alone, True == 1 hid it)."""
    from reference_engine.compiled import chained, pure, steady

    for module in (steady, chained, pure):
        monkeypatch.setattr(module, "exact", lambda v: v)
    with pytest.raises(AssertionError):
        _compare(_variant("types blind", TURN, TURN + MIXED), 40, 3, 7, checked=False)
