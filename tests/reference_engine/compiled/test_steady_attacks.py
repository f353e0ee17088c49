"""Hostile callee steps against compiled/steady.py's kept values: a structural expression used
as a value (``let seen: V[1]``: the card there, not a place) must be kept by the cards of the
regions it indexes. Before the fix it was kept by the layout alone, so in the knockout lottery
(whose frame is kept across calls) the last arrow read was the first call's: the wrong card
played, other hands (both engines compared run for run, the lottery run inline: six candidates
and more)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for folder in (HERE, HERE.parent):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import runs  # noqa: E402

from reference_engine.registry import Library, rulesets_dir  # noqa: E402
from reference_engine.verify import setting  # noqa: E402

PROTOCOLS = rulesets_dir() / "protocols"
LOTTERY = (PROTOCOLS / "knockout-lottery.yaml").read_text(encoding="utf-8")
STEP_5 = '      - turn: V\n      - if: "V[1] == up"\n'

# name -> Step 5's turn and test replaced by
MUTANTS = {
    "let-a-card": '      - turn: V\n      - let:\n          seen: "V[1]"\n      - if: "seen == up"\n',
    "let-a-list-of-cards": (
        '      - turn: V\n      - let:\n          seen: "[V[1]]"\n      - if: "seen[1] == up"\n'
    ),
    "for-over-cards": (
        "      - turn: V\n      - let:\n          seen: 0\n"
        '      - for: {c: "V[1, *]"}\n        do:\n          - let:\n              seen: c\n'
        '      - if: "seen == up"\n'
    ),
}


def test_a_card_read_as_a_value_is_kept_by_its_cards(tmp_path: Path) -> None:
    assert STEP_5 in LOTTERY, "the knockout lottery changed; update the mutants"
    for name, new in MUTANTS.items():
        folder = tmp_path / name
        folder.mkdir()
        (folder / "knockout-lottery.yaml").write_text(LOTTERY.replace(STEP_5, new, 1), encoding="utf-8")
        library = Library([folder, PROTOCOLS])
        proto = library.protocol("card-selection-arrow")
        st = setting(proto)
        params = dict(st.params, sizes=(6, 2, 3))
        valid = st.context["valid"]
        invalid = [c for c in st.deal if not valid(c)]
        assert invalid and len(invalid) < len(st.deal)
        rng = random.Random(1)
        # Hands with no valid card (the last arrow down) and with some (up), in turn.
        assignments = [
            {"cards": [rng.choice(st.deal if k % 2 else invalid) for _ in range(11)]} for k in range(4)
        ]
        found = runs.differences(library, proto, params, assignments, range(2), st.context or None)
        assert not found, (name, "\n".join(found)[:2000])
