"""The quick play selection (rulesets/protocols/play-selection-fast.yaml, issue 36): a
following virtual player's tickets settled by knockout matches on up-down cards. Exact
verification on the reduced deck's scenarios, broken versions rejected, and the shuffles the
climbing kind expects of it."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import pytest

from reference_engine.api import load_game
from reference_engine.cards import Symbol
from reference_engine.kinds.climbing import expected_shuffles
from reference_engine.kinds.climbing.rules import ClimbingRules, Play
from reference_engine.registry import Library
from reference_engine.verify import Report, verify, verify_runs

NAME = "play-selection-fast"


@cache
def _verified(name: str, scenario: str) -> Report:
    """The exact report of a shipped protocol in one scenario, verified once for this file (each
    pair scenario serves two tests)."""
    library = Library()
    return verify(library, library.protocol(name), scenario=scenario)


@pytest.mark.parametrize(
    "scenario",
    [
        # The single 3 is the costliest scenario (about 25 s of CPU); the other three run the
        # same steps (the tickets, the knockout, the lottery) on one, two and no ranks.
        pytest.param("single", marks=pytest.mark.slow),
        "pair",
        "triple",
        "lead",
    ],
)
def test_every_scenario_verifies_exactly(scenario: str) -> None:
    report = _verified(NAME, scenario)
    data = report.to_json()
    assert report.ok, data["checks"]
    assert data["method"] == "exact" and data["inputs"] == 60  # 6! / (3! 2! 1!)


def test_the_chain_follows_a_pair_exactly() -> None:
    """The chain version (play-selection.yaml) in the pair scenario; its report is the one the
    quick version is compared with below (verified once for both)."""
    report = _verified("play-selection", "pair")
    data = report.to_json()
    assert report.ok, data["checks"]
    assert "label3" in data["resources"]["helpers_by_symbol"]  # three tickets for the pairs of three 4s
    assert "stop" not in data["resources"]["helpers_by_symbol"]


def test_following_a_pair_uses_arrows_and_fewer_shuffles_than_the_chain() -> None:
    quick = _verified(NAME, "pair").to_json()
    chain = _verified("play-selection", "pair").to_json()
    assert "up" in quick["resources"]["helpers_by_symbol"]
    assert quick["resources"]["shuffles"] < chain["resources"]["shuffles"]


# Each rank's tickets not mixed before the knockout: the first live ticket in column order wins,
# so the label turned over tells which sets of the rank P_1 does NOT hold.
NO_RANK_MIX = (
    '''      - if: "any(count(rank_of, r) > 1 for r in ranks)"''',
    '''      - if: "any(count(rank_of, r) > 100 for r in ranks)"''',
)
# The arrow not turned round where the pair shows α β: the arrow no longer says the ticket's bit.
NO_ARROW_FIX = (
    '''      - rotate: "[A[t] for t in 1..len(tickets) if L[2..3, t] == [alpha, beta]]"''',
    '''      - rotate: "[A[t] for t in 1..len(tickets) if L[2..3, t] == [alpha, beta] and t < 0]"''',
)
# The other ranks' winning labels put away apart from the losers': the pile shows which ticket won
# each rank the lottery did not pick, so which cards of that rank P_1 holds.
WINNERS_SHOWN = (
    "          - discard: "
    '''"[R[i] for i in 1..len(R)] + [KT[1, j] for j in minus(1..len(tickets), alive)]"''',
    '''          - discard: R
          - discard: "[KT[1, j] for j in minus(1..len(tickets), alive)]"''',
)
# The half turns of the conversion left out: the turned pair shows the ticket's bit itself.
NO_CONVERSION_SPIN = (
    '''          spin: "[[L[2, t], A[t], L[3, t]] for t in 1..len(tickets)]"''',
    '''          set: [[1]]
          piles: "[[L[2, 1], A[1], L[3, 1]]]"''',
)
# Step 13 without its shuffle: the owner row of the columns left shows whose card each one was.
NO_FINAL_SHUFFLE = (
    """      - shuffle:
          scramble: "columns(M)"
          how: Put each column of two cards""",
    """      - shuffle:
          set: [[1]]
          piles: "[M[*, 1]]"
          how: Put each column of two cards""",
)
# The broken versions caught only in the single-3 scenario (each a whole exact run of it, 15-31 s
# of CPU) are the slow tier's; the fast tier keeps one caught as incorrect and one as insecure.
SINGLE = pytest.mark.slow


@pytest.mark.parametrize(
    ("change", "scenario", "failed"),
    [
        pytest.param(NO_RANK_MIX, "single", "secure", marks=SINGLE),
        (NO_ARROW_FIX, "triple", "correct"),
        pytest.param(WINNERS_SHOWN, "single", "secure", marks=SINGLE),
        pytest.param(NO_CONVERSION_SPIN, "single", "secure", marks=SINGLE),
        (NO_FINAL_SHUFFLE, "lead", "secure"),
    ],
)
def test_broken_versions_are_rejected(
    variant: Callable[..., Library], change: tuple[str, str], scenario: str, failed: str
) -> None:
    lib = variant(NAME, change)
    report = verify(lib, lib.protocol(NAME), scenario=scenario)
    assert failed in report.failed(), report.to_json()["checks"]


def test_expected_shuffles_of_the_quick_version() -> None:

    rules = load_game("daifugo")
    assert isinstance(rules, ClimbingRules)

    cards = rules.cards_by_name()

    def hand(*names: str) -> list[Symbol]:
        return [cards[n] for n in names]

    # One 4, two 5s, three 6s on the table (P_1 holds the 4 and a 5), after a single 3: tickets
    # 1, 2, 3 in three ranks: grid, arrows, rank mix, 2 rounds in the ranks, the lottery's
    # shuffle and 2 rounds, the final shuffle.
    owners = [hand("clubs4", "clubs5"), hand("diamonds5", "clubs6"), hand("diamonds6", "hearts6")]
    single = expected_shuffles(rules, owners, Play(1, 0), hand("clubs5"), quick=True)
    assert single == 1 + 1 + 1 + 2 + 1 + 2 + 1
    # After a pair of 3s: tickets 1 (the 5s) and 3 (the 6s): one round of ANDs more.
    pair = expected_shuffles(rules, owners, Play(2, 0), None, quick=True)
    assert pair == 1 + 1 + 1 + 1 + 2 + 1 + 1 + 1
    # No ticket at all (nothing beats a pair of 2s): the grid and the final shuffle only.
    assert expected_shuffles(rules, owners, Play(2, 12), None, quick=True) == 2


@pytest.mark.slow
def test_statistical_verification_on_the_full_deck(library: Library) -> None:
    report = verify_runs(library, library.protocol(NAME), runs=60, seed=3)
    data = report.to_json()
    assert data["method"] == "statistical" and data["correct"] and data["secure"], data["checks"]
    assert data["params"]["sizes"] == (13, 13, 13, 13)
