"""The weighted selection protocol (issue 28) and the ``weighted:`` output it is checked by."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from reference_engine.errors import SimulationError, SpecError
from reference_engine.registry import Library, rulesets_dir
from reference_engine.verify import verify, verify_runs

# A lottery that is weighted on purpose: a set shuffle lists "keep" twice and "swap" once. Its
# cards are its own family (symbols are interned by name for the whole run, and the lottery's
# family c prints as #1, #2, ...).
BIASED = """\
protocol: biased-pick
title: Biased pick
symbols:
  pick: {family: true, glyph: "p{}"}
encodings:
  card: {label: pick}
inputs:
  c: {encoding: card, count: 2}
steps:
  - step: 1
    say: Lay both cards in a row and shuffle them, keeping their order twice as often as swapping.
    do:
      - place: {s: [c]}
      - shuffle:
          set: [[1, 2], [1, 2], [2, 1]]
          piles: "cards(s)"
          how: Roll a die; on 1-4 keep the order, on 5-6 swap the two cards.
  - step: 2
    say: The left card is selected.
    move: {sel: "s[1]"}
outputs:
  selected: {cards: sel, encoding: card, WEIGHTED}
  rest: {cards: "s[2]", encoding: card}
"""


def biased(tmp_path: Path, weighted: str) -> Library:
    (tmp_path / "biased-pick.yaml").write_text(BIASED.replace("WEIGHTED", weighted), encoding="utf-8")
    return Library([tmp_path, rulesets_dir() / "protocols"])


def test_the_brute_force_referee_agrees(tmp_path: Path) -> None:
    import sys

    here = str(Path(__file__).resolve().parent)
    if here not in sys.path:
        sys.path.insert(0, here)
    import enumerator as en

    for weighted, correct in (
        ('weighted: "[[c[1], 2], [c[2], 1]]"', True),
        ('weighted: "[[c[1], 1], [c[2], 1]]"', False),
    ):
        lib = biased(tmp_path, weighted)
        proto = lib.protocol("biased-pick")
        assert en.enumerate_protocol(lib, proto).correct is correct
        assert verify(lib, proto).correct is correct


def test_weighted_output_checks_the_exact_distribution(tmp_path: Path) -> None:
    lib = biased(tmp_path, 'weighted: "[[c[1], 2], [c[2], 1]]"')
    assert verify(lib, lib.protocol("biased-pick")).ok
    wrong = biased(tmp_path, 'weighted: "[[c[1], 1], [c[2], 1]]"')
    report = verify(wrong, wrong.protocol("biased-pick"))
    assert "correct" in report.failed()
    assert "{p1: 2/3, p2: 1/3} instead of {p1: 1/2, p2: 1/2}" in report.to_json()["checks"][0]["figure"]
    uniform = biased(tmp_path, 'uniform: "[c[1], c[2]]"')
    assert "correct" in verify(uniform, uniform.protocol("biased-pick")).failed()


@pytest.mark.parametrize(
    ("weighted", "says"),
    [
        ('weighted: "[c[1], c[2]]"', "list of [value, weight] pairs"),
        ('weighted: "[[c[1], 2, 1]]"', "list of [value, weight] pairs"),
        ('weighted: "[[c[1], -1], [c[2], 2]]"', "below 0"),
    ],
)
def test_a_bad_weighted_list_is_an_error_naming_the_output(tmp_path: Path, weighted: str, says: str) -> None:
    lib = biased(tmp_path, weighted)
    with pytest.raises(Exception) as info:
        verify(lib, lib.protocol("biased-pick"))
    message = str(getattr(info.value, "format_message", lambda: info.value)())
    assert says in message and "outputs.selected" in message


def test_weighted_is_one_specification_of_an_output(tmp_path: Path) -> None:
    lib = biased(tmp_path, 'weighted: "[[c[1], 2], [c[2], 1]]", uniform: "[c[1]]"')
    with pytest.raises(SpecError) as info:
        lib.protocol("biased-pick")
    assert any("not 'uniform' and 'weighted'" in p.message for p in info.value.problems)


def test_verifies_exactly_with_three_distinct_weights(library: Library) -> None:
    report = verify(library, library.protocol("weighted-selection"), scenario="mini")
    data = report.to_json()
    assert report.ok, data["checks"]
    assert data["method"] == "exact" and data["inputs"] == 30
    assert "weights action=3,number=1,wild=2" in data["scenario"]["state"]
    k, k1, w = 5, 2, 3
    assert data["resources"]["helper_cards"] == (2 * w + 1) * k + w * k1 + 4
    assert data["resources"]["shuffles"] == w * k1 + 4
    assert data["resources"]["helpers_by_symbol"]["ticket1"] == w  # λ_1 on each of column 1's tickets


def test_verifies_on_crazy_eights(library: Library) -> None:
    assert verify(library, library.protocol("weighted-selection"), scenario="crazy-eights-mini").ok


STEP8 = (
    '    shuffle:\n      scramble: "columns(M)"\n      how: Put each column (the card, its owner card and '
    "all its tickets) in an envelope, mix all envelopes thoroughly, and lay them out in a row again.\n"
)
NO_STEP8 = (STEP8, "    note: the shuffle is left out\n")  # Step 8 keeps its sentence but shuffles nothing
DEAD_FIRST = ("t <= weight(M[1, j])", "t > w - weight(M[1, j])")  # the same tickets, other rows: fine
ALL_LIVE = ("valid(M[1, j]) and t <= weight(M[1, j])", "valid(M[1, j])")  # every valid card w tickets
TURN_TICKETS = (
    '      - move: {T: "L[2, *]"}\n',
    '      - move: {T: "L[2, *]"}\n      - turn: "L[3..4, *]"\n',
)


@pytest.mark.parametrize(
    ("change", "failed"),
    [(NO_STEP8, "secure"), (ALL_LIVE, "correct"), (TURN_TICKETS, "refused"), (DEAD_FIRST, None)],
)
def test_broken_versions_are_rejected(
    variant: Callable[..., Library], change: tuple[str, str], failed: str | None
) -> None:
    lib = variant("weighted-selection", change)
    if failed == "refused":  # some run cannot be carried out: refused with the step (exit 2)
        with pytest.raises(SimulationError, match="a decision may only use face-up cards"):
            verify(lib, lib.protocol("weighted-selection"), scenario="mini")
        return
    report = verify(lib, lib.protocol("weighted-selection"), scenario="mini")
    if failed is None:
        assert report.ok
    else:
        assert failed in report.failed(), report.to_json()["checks"]


def test_too_few_tickets_for_the_largest_weight_is_wrong(library: Library) -> None:
    report = verify(library, library.protocol("weighted-selection"), {"w": 2}, scenario="mini")
    assert report.failed() == ["correct"]


def test_statistical_verification_on_the_full_table(library: Library) -> None:
    report = verify_runs(library, library.protocol("weighted-selection"), runs=100, seed=1)
    data = report.to_json()
    assert data["correct"] and data["secure"], data["checks"]
    assert "weighted (" in data["checks"][0]["figure"]
    assert all(e["match"] for e in data["expect"])
