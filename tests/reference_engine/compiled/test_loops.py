"""The knockout lottery's loop of rounds, compiled (its control steps' values and places kept by
what they read, :mod:`reference_engine.compiled.steady`): the same runs as the interpreter's,
step for step, on random candidates and arrows, and on hostile rounds (a face shown, a face
read, an error mid-round, a condition that changes inside the loop)."""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

import pytest

from reference_engine.cards import SYMBOLS
from reference_engine.registry import Library

HERE = Path(__file__).parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from runs import lottery_run  # noqa: E402

LOTTERY = Path(__file__).resolve().parents[3] / "rulesets" / "protocols" / "knockout-lottery.yaml"


def _codes(gen: random.Random, m: int, faces: list[int], up: int, down: int) -> tuple[tuple[int, ...], ...]:
    cards = tuple(gen.choice(faces) << 1 for _ in range(m))  # face down, repeats allowed
    arrows = tuple(gen.choice([up, down]) << 1 for _ in range(m))
    return (cards, arrows)


def _compare(text: str, runs: int, lo: int = 5, hi: int = 9) -> set[str]:
    """Runs ``text`` (a knockout lottery, maybe altered) on both engines, on random candidates and
    arrows, each run's outcome compared; returns how the runs ended."""
    with tempfile.TemporaryDirectory(prefix="kitgen-rounds-") as tmp:
        Path(tmp, "ko-test.yaml").write_text(text.replace("protocol: knockout-lottery", "protocol: ko-test"))
        library = Library([Path(tmp)])
        proto = library.protocol("ko-test")
        up, down = SYMBOLS.intern("up").id, SYMBOLS.intern("down").id
        faces = [SYMBOLS.intern(f"rounds-face-{i}").id for i in range(12)]
        gen = random.Random(5)
        ended: set[str] = set()
        for i in range(runs):
            m = gen.randrange(lo, hi + 1)
            codes = _codes(gen, m, faces, up, down)
            want = lottery_run(library, proto, m, codes, i, "interpreter")
            got = lottery_run(library, proto, m, codes, i, "compiled")
            assert got == want, f"run {i}, m={m}, {codes}"
            ended.add(str(want[0]) if want[0] == "ran" else f"{want[1]}: {want[2]}")
        return ended


def test_lottery_rounds_run_as_the_interpreter() -> None:
    assert _compare(LOTTERY.read_text(), 160, 5, 6) == {"ran"}


def test_a_round_that_turns_a_candidate_up_runs_alike() -> None:
    """Hostile: the round turns a candidate face up and back (it shows it)."""
    text = LOTTERY.read_text().replace(
        "              - turn: U\n",
        "              - turn: U\n"
        '              - turn: "P[1, alive[1]]"\n'
        '              - turn: "P[1, alive[1]]"\n',
    )
    assert _compare(text, 60) == {"ran"}


def test_a_round_that_discards_a_candidate_runs_alike() -> None:
    """Hostile: the loser's card goes to the spares too (its face in the helper usage)."""
    text = LOTTERY.read_text().replace(
        '              - discard: "[P[2, j] for j in out]"\n',
        '              - discard: "[P[2, j] for j in out]"\n'
        '              - discard: "[P[1, j] for j in out]"\n',
    )
    ended = _compare(text, 60)
    assert ended  # whatever the runs did, both engines did it alike


def test_a_round_that_reads_a_face_down_card_fails_alike() -> None:
    """Hostile: a decision reads a candidate's face (face down): the same error, the same
    random numbers drawn, on both engines."""
    text = LOTTERY.read_text().replace(
        "              - let:\n                  out:",
        '              - let:\n                  peek: "1 if P[1, alive[1]] == up else 0"\n'
        "              - let:\n                  out:",
    )
    ended = _compare(text, 20)
    assert len(ended) == 1 and "face down" in next(iter(ended)), ended


def test_a_round_that_raises_mid_round_fails_alike() -> None:
    """Hostile: a round that, after the mats were spun, rotates the empty place a loser's arrow
    left when the first match's arrow points up (so, on the draws): the error at the same step,
    after the same random numbers."""
    text = LOTTERY.read_text().replace(
        '              - discard: "[P[2, j] for j in out]"\n',
        '              - discard: "[P[2, j] for j in out]"\n'
        '              - if: "U[1] == up and r == 2"\n                then:\n'
        '                  - rotate: "P[2, out[1]]"\n',
    )
    ended = _compare(text, 120, 5, 6)
    assert "ran" in ended and len(ended) > 1, ended  # some runs raise, some do not


def test_a_condition_that_changes_inside_the_loop_runs_alike() -> None:
    """A round whose ``if`` reads a variable set by the previous round (kept by it)."""
    text = LOTTERY.read_text().replace(
        '    for: {r: "1..m"}\n    do:\n      - if: "len(alive) > 1"',
        '    for: {r: "1..m"}\n    do:\n      - if: "len(alive) > 1 and r % 2 == 1 or len(alive) > 2"',
    )
    assert _compare(text, 120, 5, 6) == {"ran"}


@pytest.mark.parametrize("seed", range(3))
def test_checked_runs_match(seed: int) -> None:
    """With every fast value and plan checked against the interpreter's (CHECKED), on the
    shipped lottery."""
    library = Library()
    proto = library.protocol("knockout-lottery")
    up, down = SYMBOLS.intern("up").id, SYMBOLS.intern("down").id
    faces = [SYMBOLS.intern(f"rounds-face-{i}").id for i in range(12)]
    gen = random.Random(seed)
    for i in range(20):
        m = gen.randrange(5, 8)
        codes = _codes(gen, m, faces, up, down)
        want = lottery_run(library, proto, m, codes, i, "interpreter")
        assert lottery_run(library, proto, m, codes, i, "compiled-checked") == want


def _new_arrow_into(target: str) -> str:
    old = '                      "P[2, alive[2 * i - 1]]": "new(down)"\n'
    text = LOTTERY.read_text()
    assert old in text
    return text.replace(old, f'                      "{target}": "new(down)"\n')


def test_a_new_arrows_target_kept_by_the_round_variable_runs_alike() -> None:
    """The fresh arrow's place kept by the layout and the variables it names (steady.kept_target):
    a target that also names the round's variable (the same places, keyed apart)."""
    assert _compare(_new_arrow_into("P[2, alive[2 * i - 1] + r - r]"), 80, 5, 8) == {"ran"}


def test_a_new_arrow_into_a_full_place_fails_alike() -> None:
    """Hostile: the fresh arrow goes into the right sleeve (its arrow still in): the same error,
    at the same step, every time its kept place is met again."""
    ended = _compare(_new_arrow_into("P[2, alive[2 * i]]"), 40, 5, 8)
    assert len(ended) == 1 and "ran" not in ended, ended


def test_a_new_arrows_target_that_reads_a_card_runs_alike() -> None:
    """Hostile: a target whose column depends on a card (not structural: resolved each time)."""
    text = _new_arrow_into("P[2, alive[2 * i - 1] if len(U) > 0 and U[1] == U[1] else alive[1]]")
    ended = _compare(text, 20, 5, 6)
    assert len(ended) == 1, ended
