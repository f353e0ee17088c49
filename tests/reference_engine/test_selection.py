"""The card selection protocol: both published versions, exact and statistical verification,
and the broken variants named in the issue rejected by verification and by card-level play."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from reference_engine.errors import CheckFailure
from reference_engine.kinds.shedding import Game, load_rules
from reference_engine.registry import Library
from reference_engine.verify import verify, verify_runs

STEP8 = """    shuffle:
      scramble: "columns(M)"
      how: Put each column of four cards in an envelope, mix all envelopes thoroughly, and lay them out \
in a row again.
"""
SWAP6 = (
    '"[bit(1) if valid(M[1, j]) else bit(0) for j in 1..ncols(M)]"',
    '"[bit(0) if valid(M[1, j]) else bit(1) for j in 1..ncols(M)]"',
)
NO_STEP8 = (STEP8, "    note: the shuffle is left out\n")  # Step 8 keeps its sentence but shuffles nothing


@pytest.mark.parametrize(("name", "main_shuffles"), [("card-selection", 2), ("card-selection-v2", 3)])
def test_both_versions_verify_exactly_on_the_mini_deck(
    library: Library, name: str, main_shuffles: int
) -> None:
    report = verify(library, library.protocol(name), scenario="mini")
    assert report.ok, report.to_json()["checks"]
    data = report.to_json()
    assert data["method"] == "exact" and data["inputs"] == 30  # 5!/(2! 1! 2!) deals
    k, k1 = 5, 2
    assert data["resources"]["helper_cards"] == 3 * k + 4
    assert data["resources"]["shuffles"] == k1 + 2 + main_shuffles
    assert data["scenario"]["deal"] == ["R1", "G2", "B7", "Y5", "W"]


@pytest.mark.slow  # an exact run over 180 deals; the fast tier verifies card-selection exactly on "mini"
def test_the_discard_pile_as_an_extra_owner(library: Library) -> None:
    # Slow-ish (about 30 s): the 180 deals of six cards with P_4 = the discard pile.
    report = verify(library, library.protocol("card-selection"), scenario="mini-discard")
    assert report.ok and report.to_json()["resources"]["helper_cards"] == 3 * 6 + 4


@pytest.mark.parametrize(("change", "check"), [(SWAP6, "correct"), (NO_STEP8, "secure")])
def test_broken_versions_are_rejected_by_verification(
    variant: Callable[..., Library], change: tuple[str, str], check: str
) -> None:
    lib = variant("card-selection", change)
    report = verify(lib, lib.protocol("card-selection"), scenario="mini")
    assert check in report.failed(), report.to_json()["checks"]


@pytest.mark.parametrize("change", [SWAP6, NO_STEP8])
def test_broken_versions_are_rejected_by_card_level_play(
    variant: Callable[..., Library], change: tuple[str, str]
) -> None:
    lib = variant("card-selection", change)
    game = Game(load_rules("uno"), lib, players=4, virtual=2, level="card", seed=1, protocol="card-selection")
    with pytest.raises(CheckFailure) as info:
        game.play()
    assert "turn" in str(info.value.format_message())


def test_statistical_verification_on_the_full_table(library: Library) -> None:
    report = verify_runs(library, library.protocol("card-selection"), runs=120, seed=2)
    data = report.to_json()
    assert data["method"] == "statistical"
    assert data["correct"] and data["secure"], report.to_json()["checks"]
    tests = [t for c in data["checks"] for t in c.get("tests", [])]
    assert len(tests) >= 5 and all(0 <= t["p"] <= 1 for t in tests)
    assert data["params"]["sizes"] == (7, 7, 7, 7, 79)
    assert all(e["match"] for e in data["expect"])


def test_statistical_verification_sees_the_missing_shuffle(variant: Callable[..., Library]) -> None:
    lib = variant("card-selection", NO_STEP8)
    report = verify_runs(lib, lib.protocol("card-selection"), runs=200, seed=0)
    assert "secure" in report.failed()
