"""Broken versions of the play selection protocol, each caught by the verifier."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from reference_engine.registry import Library
from reference_engine.verify import verify

# Step 9 without its shuffle: the token keeps the first live set in column order, so the label
# turned at Step 10 tells which cards of the rank P_1 does NOT hold.
NO_TICKET_SHUFFLE = (
    """          - if: "count(rank_of, r) > 1"
            then:
              - shuffle:""",
    """          - if: "count(rank_of, r) > 100"
            then:
              - shuffle:""",
)
# Step 12 without its shuffle: the θ row shows whose card each face-up column was.
NO_FINAL_SHUFFLE = (
    """      - shuffle:
          scramble: "columns(M)"
          how: Put each column of two cards""",
    """      - shuffle:
          set: [[1]]
          piles: "[M[*, 1]]"
          how: Put each column of two cards""",
)


@pytest.mark.parametrize(
    ("change", "scenario", "failed"),
    [(NO_TICKET_SHUFFLE, "pair", "secure"), (NO_FINAL_SHUFFLE, "lead", "secure")],
)
def test_broken_versions_are_rejected(
    variant: Callable[..., Library], change: tuple[str, str], scenario: str, failed: str
) -> None:
    lib = variant("play-selection", change)
    report = verify(lib, lib.protocol("play-selection"), scenario=scenario)
    assert failed in report.failed(), report.to_json()["checks"]
