"""The play selection protocol (a virtual player's Daifugō turn, issue 28): exact verification
on the reduced deck's scenarios, and statistical verification on the full deck."""

from __future__ import annotations

from reference_engine.registry import Library
from reference_engine.verify import verify, verify_runs


def test_leading_verifies_exactly(library: Library) -> None:
    report = verify(library, library.protocol("play-selection"), scenario="lead")
    data = report.to_json()
    assert report.ok, data["checks"]
    assert data["method"] == "exact" and data["inputs"] == 60  # 6! / (3! 2! 1!)
    assert data["scenario"]["deal"] == ["3♣", "4♣", "4♦", "4♥", "5♣", "5♦"]
    # Two ownership pairs under each of the 5 cards left after the first (k = 6), a θ each, the stop
    # card, λ labels, the lottery's four α β: the most helper cards out at once.
    assert data["resources"]["helpers_by_symbol"]["stop"] == 1
    assert data["resources"]["helpers_by_symbol"]["theta1"] == 2


# Following a pair, verified exactly: test_play_selection_fast.py (the quick version is compared
# with the same report there, so the chain's pair scenario is verified once).


def test_statistical_verification_on_the_full_deck(library: Library) -> None:
    report = verify_runs(library, library.protocol("play-selection"), runs=60, seed=3)
    data = report.to_json()
    assert data["method"] == "statistical" and data["correct"] and data["secure"], data["checks"]
    assert data["params"]["sizes"] == (13, 13, 13, 13)
    tests = [t for c in data["checks"] for t in c.get("tests", [])]
    assert len(tests) >= 10 and all(0 <= t["p"] <= 1 for t in tests)
