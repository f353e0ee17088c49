"""The quick variants the game kits teach verify exactly; the shortcuts that do not hold are refused.

docs/table-time.md lists each refused variant and why; every one is a test here.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from reference_engine.api import Library, verify
from reference_engine.kinds.shedding import Game, load_rules


@pytest.mark.parametrize(
    ("protocol", "scenario"),
    [
        ("card-selection-fast", "mini"),
        ("card-selection-fast", "crazy-eights-mini"),
        ("card-selection-fast", "sevens-mini"),
        ("card-selection-fast", "dominoes-mini"),
        ("card-selection-original-fast", "hearts-mini"),
    ],
)
def test_the_quick_card_selection_verifies(library: Library, protocol: str, scenario: str) -> None:
    report = verify(library, library.protocol(protocol), scenario=scenario)
    assert report.ok, report.to_json()["checks"]
    data = report.to_json()
    # The same cards as the paper's version; one shuffle fewer (the lottery's first).
    paper = verify(
        library, library.protocol(library.protocol(protocol).source["variant_of"]), scenario=scenario
    )
    assert data["resources"]["helper_cards"] == paper.to_json()["resources"]["helper_cards"]
    assert data["resources"]["shuffles"] == paper.to_json()["resources"]["shuffles"] - 1


@pytest.mark.parametrize(
    "name", ["six-card-and-direct", "covert-lottery-fast", "covert-lottery-original-fast"]
)
def test_the_quick_parts_verify_alone(library: Library, name: str) -> None:
    report = verify(library, library.protocol(name))
    assert report.ok, report.to_json()["checks"]


def test_the_lottery_without_its_shuffle_is_not_a_lottery_alone(library: Library) -> None:
    # Without a shuffle before it, it picks the first valid card in the order given.
    report = verify(library, library.protocol("covert-lottery-fast"), {"m": 3, "shuffled": 1})
    assert "correct" in report.failed()


def test_a_random_cut_cannot_stand_in_for_the_second_scramble(
    variant: Callable[..., Library],
) -> None:
    # A random cut keeps every column's neighbours, so the owner cards shown at Step 9 line up
    # with the faces shown at Step 5. (The lottery would still pick uniformly: Step 4's scramble
    # already put the virtual player's cards in a random order; the leak is the owners.)
    lib = variant(
        "card-selection-fast",
        (
            """    shuffle:
      scramble: "columns(M)"
      uses: sleeve
      how: >-
        A table wash as in Step 4""",
            """    shuffle:
      shift: "columns(M)"
      uses: sleeve
      how: >-
        A table wash as in Step 4""",
        ),
    )
    report = verify(lib, lib.protocol("card-selection-fast"), scenario="mini")
    assert report.failed() == ["secure"], report.to_json()["checks"]


def test_the_direct_and_with_the_helper_pair_the_wrong_way_round_is_refused(
    variant: Callable[..., Library],
) -> None:
    lib = variant("six-card-and-direct", ("new(alpha), new(beta)", "new(beta), new(alpha)"))
    report = verify(lib, lib.protocol("six-card-and-direct"))
    assert "correct" in report.failed()


def test_card_level_play_runs_the_quick_protocol(library: Library) -> None:
    rules = load_rules("crazy-eights")
    assert rules.virtual_protocol == "card-selection-fast"
    result = Game(rules, library, players=4, virtual=2, level="card", seed=3).play().to_json()
    assert result["all_checks_passed"] and result["protocol_runs"] > 0
    assert result["protocol"] == "card-selection-fast"
