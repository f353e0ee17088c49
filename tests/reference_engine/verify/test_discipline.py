"""The outputs a verification by classes stands for (reference_engine/verify/discipline.py),
checked on the spec alone: nothing is dealt or run. The refusals through a whole verification
are in test_classes_hostile.py and test_classes_weighted.py."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from reference_engine.errors import ReductionRefused
from reference_engine.registry import Library
from reference_engine.verify.discipline import check_outputs
from tests.conftest import spec_text

Variant = Callable[..., Library]
ARROW = "card-selection-arrow"
PLAYED = "      [[c, 1] for c in part(cards, sizes, 1) if valid(c)]\n      if any("


@pytest.mark.parametrize("name", ["card-selection", "card-selection-fast", ARROW, "card-selection-original"])
def test_the_kits_table_protocols_pass(library: Library, name: str) -> None:
    check_outputs(library.protocol(name))


@pytest.mark.parametrize(
    ("weights", "why"),
    [
        ("[[c, 2 if c == symbol('red1') else 1] for c in part(cards, sizes, 1) if valid(c)]", "comparison"),
        ("[[part(cards, sizes, 1), 1]]", "a choice of several dealt cards"),
    ],
    ids=["name", "several"],
)
def test_weights_that_read_more_than_classes_are_refused_at_their_line(
    variant: Variant, weights: str, why: str
) -> None:
    lib = variant(ARROW, (PLAYED, f"      {weights}\n      if any("))
    with pytest.raises(ReductionRefused) as info:
        check_outputs(lib.protocol(ARROW))
    text = str(info.value)
    # The line of the output's ``weighted:`` key, counted in the spec's own text.
    spec = spec_text(ARROW).splitlines()
    line = spec.index("    weighted: >-", spec.index("  played:")) + 1
    assert f"{ARROW}.yaml:{line}: outputs.played.weighted" in text, text
    assert why in text, text


def test_an_output_by_a_place_in_a_hand_is_refused(variant: Variant) -> None:
    """``equals`` that reads P_1's first card: its value on a class deal is no image of a deal's."""
    first = 'equals: "played != none or valid(part(cards, sizes, 1)[1])"'
    lib = variant(ARROW, ('equals: "played != none"', first))
    with pytest.raises(ReductionRefused) as info:
        check_outputs(lib.protocol(ARROW))
    assert "outputs.found" in str(info.value), str(info.value)
