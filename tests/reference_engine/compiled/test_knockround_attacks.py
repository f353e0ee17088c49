"""Hostile lotteries for the direct knockout round (:mod:`reference_engine.compiled.knockround`)
that its own tests did not try: tables of one to four candidates (no round, one match, a
candidate waiting), candidates face up (the spin would show them), middle arrows of a face
with no half turn, ``alive`` set at Step 3 to repeated, zero, past-the-end, reversed, truth
or text columns, variables named ``h``, ``out``, ``i``, ``len`` or ``new``, and a step put
between the slide and the spin (``h`` changed, ``alive`` changed, a middle arrow turned or
turned round, a candidate discarded, a region made after ``U``, the sleeves turned over or
slid out) or just before the decision (so the branch no longer ends with the lottery's spin
and decision), a limit of steps reached inside the rounds, and sleeves the slide at once must
leave to the steps (arrows facing the solid back, arrows slid half out), and a symbol table
that gives copies of ``up`` (the arrows then read by equality). Every run is the
interpreter's, errors and messages included, both unchecked and with ``ev.CHECKED``."""

from __future__ import annotations

import dataclasses
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from reference_engine.cards import SYMBOLS
from reference_engine.compiled import knockround

HERE = Path(__file__).parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from runs import lottery_run  # noqa: E402
from test_knockout import _variant  # noqa: E402
from test_pure import _library, counted_since, counts  # noqa: E402

Codes = tuple[tuple[int, ...], tuple[int, ...]]


def _cards(face_up: float = 0.0, other_arrow: bool = False) -> Callable[[random.Random, int], Codes]:
    """Random candidates (face up with probability ``face_up``) and arrows (up or down, or a
    face with no half turn too)."""
    up, down = SYMBOLS.intern("up").id, SYMBOLS.intern("down").id
    faces = [SYMBOLS.intern(f"pure-face-{i}").id for i in range(12)]
    arrows = [up, down, faces[0]] if other_arrow else [up, down]

    def make(gen: random.Random, m: int) -> Codes:
        cards = tuple(gen.choice(faces) << 1 | (gen.random() < face_up) for _ in range(m))
        return cards, tuple(gen.choice(arrows) << 1 for _ in range(m))

    return make


def _compare(
    text: str, ms: list[int], runs: int, make: Callable[[random.Random, int], Codes]
) -> tuple[set[str], int]:
    """Each run on the interpreter, then compiled and compiled-checked: the same result (table,
    views, counters, generator, steps; or the same error and message). How the runs ended, and
    how many rounds were direct."""
    library, proto = _library(text)
    gen = random.Random(3)
    ended: set[str] = set()
    before = counts(knockround.Round)
    for i in range(runs):
        m = gen.choice(ms)
        codes = make(gen, m)
        want = lottery_run(library, proto, m, codes, i, "interpreter")
        for engine in ("compiled", "compiled-checked"):
            assert lottery_run(library, proto, m, codes, i, engine) == want, (engine, m, codes)
        ended.add("ran" if want[0] == "ran" else f"{want[1]}: {want[2]}")
    return ended, counted_since(before, knockround.Round)


def test_one_to_four_candidates_run_as_the_interpreter() -> None:
    ended, hits = _compare(_variant("few"), [1, 2, 3, 4], 30, _cards())
    assert ended == {"ran"} and hits > 0


def test_candidates_face_up_run_as_the_interpreter() -> None:
    ended, hits = _compare(_variant("candidates up"), [4, 5, 6], 30, _cards(face_up=0.2))
    assert ended and hits > 0


def test_arrows_of_a_face_without_a_half_turn_run_as_the_interpreter() -> None:
    ended, hits = _compare(_variant("plain arrows"), [4, 5, 6], 30, _cards(other_arrow=True))
    assert ended and hits > 0


STEP3 = '      alive: "[j for j in 1..m]"\n'


@pytest.mark.parametrize(
    "value,direct",
    [
        ("[1, 1, 2, 3]", False),  # a column twice: the spin's piles overlap
        ("[true, 2, 3]", True),  # a truth value: never direct while it is in ``alive``
        ("[0, 1, 2]", False),  # column 0
        ("[1, 2, 99]", False),  # past the sleeves
        ("[3, 2, 1]", True),  # reversed
        ('[\\"a\\", \\"b\\"]', False),  # texts
    ],
)
def test_unusual_columns_in_the_running_run_as_the_interpreter(value: str, direct: bool) -> None:
    text = _variant(f"alive {value}", STEP3, f'      alive: "{value}"\n')
    ended, hits = _compare(text, [3, 4, 5], 12, _cards())
    assert ended and (hits > 0) == direct, (ended, hits)


@pytest.mark.parametrize("name,value", [("h", "2"), ("out", "[1]"), ("i", "1"), ("len", "1"), ("new", "1")])
def test_variables_named_like_the_rounds_own_run_as_the_interpreter(name: str, value: str) -> None:
    """A variable set before the rounds with the name of one the round sets or a function it
    calls: the round's own lets and calls are what the steps read."""
    text = _variant(f"var {name}", STEP3, STEP3 + f'      {name}: "{value}"\n')
    ended, hits = _compare(text, [4, 5], 12, _cards())
    assert ended == {"ran"} and hits > 0


SPIN = "          - step: 4(b)\n"
DECIDE = "          - step: 4(c)\n"


def _let(name: str, value: str) -> str:
    return f'          - let:\n              {name}: "{value}"\n'


# name -> (the step it goes before, the step, whether some rounds are still direct)
BETWEEN: dict[str, tuple[str, str, bool]] = {
    "more matches than arrows": (SPIN, _let("h", "h + 1"), False),
    "fewer matches than arrows": (SPIN, _let("h", "h - 1"), False),
    "alive reversed": (SPIN, _let("alive", "[alive[len(alive) + 1 - j] for j in 1..len(alive)]"), True),
    "alive with a column twice": (SPIN, _let("alive", "alive + [alive[1]]"), False),
    "alive with a truth value": (SPIN, _let("alive", "[true] + alive"), False),
    "a middle arrow turned": (SPIN, '          - turn: "U[1]"\n', False),
    "the middle arrows turned round": (SPIN, "          - rotate: U\n", True),
    "a candidate discarded": (SPIN, '          - discard: "P[1, alive[1]]"\n', False),
    "a region after U": (SPIN, '          - move:\n              Z: "P[1, alive[1]]"\n', False),
    "the sleeves turned to their clear front": (SPIN, "          - sleeve: {P: {side: front}}\n", False),
    "the arrows slid out of their sleeves": (SPIN, "          - sleeve: {P: {out: [2]}}\n", True),
    "the candidates slid out of their sleeves": (SPIN, "          - sleeve: {P: {out: [1]}}\n", True),
    "a candidate turned before the decision": (DECIDE, '          - turn: "P[1, alive[1]]"\n', False),
    "a middle arrow discarded before the decision": (DECIDE, '          - discard: "U[1]"\n', False),
    "no match before the decision": (DECIDE, _let("h", "0"), False),
}


@pytest.mark.parametrize("name", list(BETWEEN))
def test_a_step_put_inside_a_round_runs_as_the_interpreter(name: str) -> None:
    where, step, direct = BETWEEN[name]
    ended, hits = _compare(_variant(name, where, step + where), [2, 3, 4, 5, 6], 16, _cards())
    assert ended and (hits > 0) == direct, (ended, hits)


@pytest.mark.parametrize("limit", [20, 35, 47, 60])
def test_a_step_limit_reached_inside_a_round_stops_alike(limit: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The limit of steps a run may carry out, made small enough to be reached inside the
    rounds (at 4(a), 4(c), Step 4's loop or Step 5): the same error at the same step, the
    rounds before it direct."""
    from reference_engine.compiled import ops, pure
    from reference_engine.compiled import run as compiled_run
    from reference_engine.machine import runner

    for module in (runner, compiled_run, pure, ops, knockround):
        monkeypatch.setattr(module, "MAX_RUN_STEPS", limit)
    ended, hits = _compare(_variant(f"limit {limit}"), [6, 8, 11], 10, _cards())
    assert any("steps in one run" in e for e in ended) and hits > 0, (ended, hits)


_ALIVE = '      alive: "[j for j in 1..m]"\n'
_HALF_OUT = "\n  - step: 3(b)\n    say: Slide the arrows half out.\n    sleeve: {P: {out: [2]}}\n"
_SLEEVES = "    front: [1, 2]        # both face the clear front (face down while the sleeve lies back up)\n"


def test_slides_carried_out_at_once_run_as_the_interpreter() -> None:
    """The move and the loop of places at once (:meth:`~knockround.Round._at_once`): the same
    table, supply, peaks, views and steps counted as the steps, on tables of two to eleven
    candidates, both unchecked and with ``ev.CHECKED`` (which compares each round with its steps,
    the layouts noted by the steps a superset of the slide's)."""
    before = counts(knockround.Round, "at_once")
    ended, hits = _compare(_variant("at once"), [2, 3, 5, 8, 11], 40, _cards())
    assert ended == {"ran"}
    assert hits > 40
    assert counted_since(before, knockround.Round, "at_once") > 40


@pytest.mark.parametrize(
    "title,new",
    [
        # The arrows face the solid back: slid out of a sleeve lying back up they land face up,
        # but the protocol has them face down (the move's message).
        ("arrows behind", "    front: [1]\n"),
        # The arrows slid half out of their sleeves before the rounds (a row the sleeves do not
        # keep): the builders' plans are the general ones.
        ("half out", _SLEEVES),
    ],
)
def test_a_slide_the_builders_would_refuse_is_not_carried_out_at_once(title: str, new: str) -> None:
    """Hostile sleeves for the slide at once: it steps aside (nothing done), and every run is the
    interpreter's, its error and message included."""
    text = _variant(title, _SLEEVES, new)
    if title == "half out":
        text = text.replace(_ALIVE, _ALIVE + _HALF_OUT)
    before = counts(knockround.Round, "at_once")
    ended, _ = _compare(text, [2, 3, 5, 8], 12, _cards())
    assert ended == {"ran"} if title == "half out" else "ran" not in ended, ended
    assert counted_since(before, knockround.Round, "at_once") == 0


class _Copies:
    """A symbol table whose ``by_id`` gives an equal copy of each symbol, never the table's own."""

    def by_id(self, sid: int) -> Any:
        return dataclasses.replace(SYMBOLS.by_id(sid))


def test_an_up_that_is_not_the_tables_own_symbol_reads_the_arrows_by_equality(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Hostile: the symbol table gives copies (equal, not the same object), so the decision may
    not read an arrow as ``up`` by its id alone: it compares the faces, and every run is the
    interpreter's."""
    monkeypatch.setattr(knockround, "SYMBOLS", _Copies())
    ended, hits = _compare(_variant("copies"), [2, 3, 5, 8], 16, _cards())
    assert ended == {"ran"}
    assert hits > 0


def test_a_whole_round_whose_discards_split_sleeves_fails_as_the_interpreter(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Hostile: ``P``'s sleeves keep the arrow row, so the losers' arrows cannot go alone (a
    sleeve split): a whole round (its plan made, the spin and turn done) works the discards out
    by the steps' plans on the table after the slide, made then (``Round._slid``), and fails
    with their message at the same step, both unchecked and checked."""
    made: list[int] = []
    slid = knockround.Round._slid

    def counted(self: knockround.Round, layout: Any, h: int) -> Any:
        made.append(h)
        return slid(self, layout, h)

    monkeypatch.setattr(knockround.Round, "_slid", counted)
    text = _variant("kept arrows", _SLEEVES, _SLEEVES + "    keeps: [2]\n")
    ended, _ = _compare(text, [4, 5, 8], 12, _cards())
    assert ended and "ran" not in ended and all("keeps" in e for e in ended), ended
    assert made
