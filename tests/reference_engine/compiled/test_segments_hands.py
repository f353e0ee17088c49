"""w48-attack3: what a segment takes as known down after ``turn: up()``
(:mod:`reference_engine.compiled.segments`), attacked with hands: ``up()`` leaves the hands
out, so a hand may hold a face-up card through the turn, the wash and the row turn that follow
it. Each mutant of card-selection-arrow runs on both engines, run for run (every segment run
both ways and compared, ``runs.py``)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
for folder in (HERE, HERE.parent):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from test_segments import ARROW, _differences, _down_leaves, _library  # noqa: E402

from reference_engine.compiled import Program, program_for, segments  # noqa: E402
from reference_engine.errors import SpecError  # noqa: E402
from reference_engine.registry import Library  # noqa: E402

# A face-up owner card laid out, then put into P_1's hand (it stays face up: up() leaves hands out).
_INTO_HAND = (
    '  - step: 2a\n    say: "Lay an owner card face up."\n'
    '    place:\n      X: "[new(theta(1))]"\n    face: up\n\n'
    '  - step: 2b\n    say: "Give it to P_1."\n'
    "    {how}\n\n  - step: 3\n"
)
_RETURN = 'return: {cards: "X[1, *]", to: 1}'
_MOVE = 'move: {hand1: "X[1, 1]"}'

_WASH_M = '      scramble: "columns(M)"\n      uses: sleeve\n      how: >-\n        A table wash:'
_WASH_H = '      scramble: "columns(hand1)"\n      uses: sleeve\n      how: >-\n        A table wash:'
_TURN5 = '      - turn: "M[1, *]"\n      - sleeve: {M: front}'


def _down_of(library: Library) -> list[str]:
    """The steps known down, over every segment of the protocol's top-level block."""
    program = program_for(library, library.protocol("card-selection-arrow"))
    assert isinstance(program, Program)
    return [d for e in program.block if isinstance(e[0], segments.Segment) for d in _down_leaves(e[0])]


def _text(how: str, *edits: tuple[str, str]) -> str:
    text = ARROW.read_text(encoding="utf-8")
    assert text.count("  - step: 3\n") == 1
    text = text.replace("  - step: 3\n", _INTO_HAND.replace("{how}", how), 1)
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


@pytest.mark.parametrize("how", [_RETURN, _MOVE], ids=["return", "move"])
def test_a_face_up_card_in_a_hand_through_turn_up_runs_alike(tmp_path: Path, how: str) -> None:
    """The hand's face-up card sits through steps 3-9 (steps 4, 5, 8 and 9 still known down:
    none of them reads a hand), and both engines run alike."""
    library = _library(tmp_path, _text(how))
    assert _down_of(library) == ["4 shuffle", "5 turn", "8 shuffle", "9 turn"]
    found, kinds = _differences(library, seeds=2, most=3)
    assert not found, "\n".join(found)
    # The return runs to its end (the hand keeps the owner card); a face-up card moved onto a
    # hand stops both engines alike after the segment.
    assert kinds == ({"ran"} if how == _RETURN else {"error SimulationError"}), kinds


_TURN_H = '      - turn: "hand1[1, *]"\n      - sleeve: {M: front}'


@pytest.mark.parametrize(
    "edit, where",
    [((_WASH_M, _WASH_H), "shuffle: 'columns(hand1)'"), ((_TURN5, _TURN_H), "turn: 'hand1[1, *]'")],
    ids=["wash-hand", "turn-hand"],
)
def test_a_wash_or_row_turn_of_a_hand_is_refused_before_any_run(
    tmp_path: Path, edit: tuple[str, str], where: str
) -> None:
    """The only way a wash or a row turn known down could meet the hand's face-up card is to
    name the hand: the spec check refuses that (a hand's order is its owner's), so no segment
    is ever made of it."""
    library = _library(tmp_path, _text(_RETURN, edit))
    with pytest.raises(SpecError, match=f"{re.escape(where)}: hand1 is a player's hand"):
        library.protocol("card-selection-arrow")
