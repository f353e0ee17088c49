"""Values of steps kept by what they read (:mod:`reference_engine.compiled.steady`): which
expressions are structural, and runs alike on both engines where a kept value would be wrong if
the key left out the cards it reads."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from reference_engine.compiled.steady import TRIAL, Steady, counted_only, selected_only, structural
from reference_engine.expressions import parse
from reference_engine.functions import BUILTINS

sys.path.insert(0, str(Path(__file__).parent))
from test_loops import LOTTERY, _compare


@pytest.mark.parametrize(
    "text",
    [
        "[P[2, alive[2 * i - 1]] for i in 1..h]",
        "[[P[*, alive[2 * i - 1]], U[i], P[*, alive[2 * i]]] for i in 1..h]",
        "len(alive) // 2",
        "1..m",
        "-h + 1",
        "U",
    ],
)
def test_structural_expressions(text: str) -> None:
    assert structural(parse(text).node)


@pytest.mark.parametrize(
    "text",
    [
        "[P[2, alive[2 * i - 1]] for i in 1..h if U[i] == up]",  # reads a card
        "len(alive) > 1",  # a comparison (of numbers here; kept by its variables, not structural)
        "alive[1] if h > 1 else alive[2]",
        "h > 1 and U",
        "up(U)",  # reads which way the cards face
        "sorted(alive)",
        "not h",
    ],
)
def test_expressions_that_are_not_structural(text: str) -> None:
    assert not structural(parse(text).node)


def test_a_decision_on_a_card_that_changes_each_round_runs_alike() -> None:
    """Hostile: an ``if`` and a ``let`` read the turned arrow of the first match, which differs
    round by round and run by run: kept by that card, they must give the interpreter's values."""
    text = LOTTERY.read_text().replace(
        "              - turn: U\n",
        "              - turn: U\n"
        '              - if: "U[1] == up"\n'
        "                then:\n"
        "                  - let:\n"
        '                      seen: "len(alive) + 1"\n'
        "              - let:\n"
        '                  firsts: "[i for i in 1..h if U[i] == down]"\n',
    )
    assert _compare(text, 120, 5, 8) == {"ran"}


@pytest.mark.parametrize(
    ("text", "selected"),
    [
        ("[P[2, alive[2 * i - 1]] for i in 1..h if U[i] == up]", ["P"]),  # U is read
        ("U", ["U"]),
        ("[P[1, 1], U]", ["P", "U"]),
        ("P[U[1], 2]", ["P"]),  # U's card is an index: read
        ("[P[2, j] for j in P if j == up]", []),  # P iterated over: read
        ("[P[2, j] for j in 1..2 if P[1, j] == up]", []),  # P compared too
    ],
)
def test_names_only_selected(text: str, selected: list[str]) -> None:
    assert sorted(selected_only(parse(text).node)) == selected


_FRAME = SimpleNamespace(globals=SimpleNamespace(names={}, functions=dict(BUILTINS)))


class _Layout:
    """A layout without regions (hashable, as a layout is)."""

    def __init__(self) -> None:
        self.by_name: dict[str, object] = {}


_LAYOUT = _Layout()


class _Run:
    """What :meth:`Steady.value` reads of a run: its variables, layout, cells and frame."""

    def __init__(self, env: dict[str, object]):
        self.env = env
        self.layout = _LAYOUT
        self.cells: list[int] = []
        self.frame = _FRAME

    def vars(self) -> dict[str, object]:
        return self.env


class _Counted:
    """An expression whose evaluations are counted."""

    def __init__(self, text: str):
        self.expr = parse(text)
        self.evaluated = 0

    def value(self, run: _Run) -> object:
        self.evaluated += 1
        return len(run.env["alive"])  # type: ignore[arg-type]


def test_a_value_met_again_is_not_evaluated_again() -> None:
    e = _Counted("len(alive)")
    kept = Steady(e, lambda v: v)  # type: ignore[arg-type]
    for _ in range(50):
        for alive in [(1, 2), (1, 2, 3)]:
            assert kept.value(_Run({"alive": alive})) == len(alive)  # type: ignore[arg-type]
    assert e.evaluated == 2


def test_a_value_never_met_again_stops_being_kept() -> None:
    """A key that never repeats (a caller's table, new every turn): after TRIAL look-ups the
    expression is evaluated each time and keeps nothing."""
    e = _Counted("len(alive)")
    kept = Steady(e, lambda v: v)  # type: ignore[arg-type]
    for n in range(TRIAL + 50):
        assert kept.value(_Run({"alive": tuple(range(n))})) == n  # type: ignore[arg-type]
    assert e.evaluated == TRIAL + 50
    assert not kept.kept


@pytest.mark.parametrize(
    ("text", "counted"),
    [
        ("len(alive) // 2", ["alive"]),
        ("ncols(L) + len(P)", ["L", "P"]),
        ("K[2, 1]", []),  # a card: read
        ("[len(P), P[1, 1]]", []),  # counted once, read once: read
        ("len(P[1, *])", []),  # a count of a selection: P indexed, read
    ],
)
def test_names_only_counted(text: str, counted: list[str]) -> None:
    assert sorted(counted_only(parse(text).node)) == counted


def test_a_kept_value_that_is_a_card_is_kept_by_that_card() -> None:
    """Hostile (found on the merged tree): ``let: {last: "K[2, 1]"}`` is structural (it only
    indexes) but its value is the card there, not its place: kept by the layout alone it gave
    the first round's card in every round. The lottery's ``let`` of a card, changed each round,
    runs alike on both engines."""
    text = LOTTERY.read_text().replace(
        "              - turn: U\n",
        '              - turn: U\n              - let:\n                  first: "U[1]"\n',
    )
    assert _compare(text, 120, 5, 8) == {"ran"}


def test_a_kept_value_tells_one_from_true() -> None:
    """Python's ``1 == True`` merges two keys the spec's ``str`` tells apart: a value kept by a
    variable is keyed by its type too."""
    e = _Counted("[k]")
    e.value = lambda run: (run.env["k"],)  # type: ignore[method-assign]
    kept = Steady(e, lambda v: v)  # type: ignore[arg-type]
    assert kept.value(_Run({"k": 1, "alive": ()})) == (1,)
    got = kept.value(_Run({"k": True, "alive": ()}))
    assert got == (True,) and type(got[0]) is bool
