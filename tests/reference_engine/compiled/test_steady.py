"""Values of steps kept by what they read (:mod:`reference_engine.compiled.steady`): which
expressions are structural, and runs alike on both engines where a kept value would be wrong if
the key left out the cards it reads."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from reference_engine.compiled.steady import TRIAL, Steady, selected_only, structural
from reference_engine.expressions import parse
from reference_engine.functions import BUILTINS
from reference_engine.registry import Library, rulesets_dir

sys.path.insert(0, str(Path(__file__).parent))
import runs
from test_differential import _assignments
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


LET_BOOL = """\
protocol: steady-bool
title: Values kept by their variables that tell 1 from true
summary: a let, an if and a move's groups on 1, true, 1, true
params:
  sizes: {default: [1], min: 0, doc: sizes}
symbols:
  alpha: {glyph: "α"}
  beta: {glyph: "β"}
encodings:
  card: {values: {0: [alpha], 1: [beta]}, doc: a card}
inputs:
  cards: {encoding: card, count: "sum(sizes)", groups: sizes, doc: cards}
steps:
  - step: 1
    say: none yet
    let: {seen: "[]"}
  - step: 2
    say: four rounds
    for: {k: "[1, 1 == 1, 1, 1 == 1]"}
    do:
      - let:
          y: "k"
          z: "[k]"
      - if: "k"
        then:
          - let: {w: "z"}
      - let:
          seen: "seen + [str(y), str(w)]"
outputs:
  seen: {public: true, value: "seen"}
"""


def _exactly(text: str, name: str, tmp_path: Path) -> list[str]:
    """Where the engines' runs differ as text (``==`` would call 1 and true the same)."""
    (tmp_path / f"{name}.yaml").write_text(text, encoding="utf-8")
    library = Library([tmp_path, rulesets_dir() / "protocols"])
    proto = library.protocol(name)
    st, assignments = _assignments(library, name, 2)
    out = []
    for values in assignments:
        a = runs.single(library, proto, st.params, values, 0, "interpreter")
        b = runs.single(library, proto, st.params, values, 0, "compiled")
        assert a[0] == "ran", a
        if repr(a) != repr(b):
            out.append(f"{values}: interpreter {a} | compiled {b}")
    return out


def test_a_value_kept_by_its_variables_tells_1_from_true(tmp_path: Path) -> None:
    """Attack (w37-attack4): Steady kept a let's value by its variables' values, and 1 == true
    in Python: the second round's ``let y: k`` gave the first round's 1 where the interpreter
    gives true (the view and ``str(y)`` differ)."""
    found = _exactly(LET_BOOL, "steady-bool", tmp_path)
    assert not found, "\n".join(found)


LET_CARD = """\
protocol: steady-card
title: A let of a region's card, the same layout each round
summary: a new card laid out, named by a let, discarded, twice
params:
  sizes: {default: [1], min: 0, doc: sizes}
symbols:
  alpha: {glyph: "α"}
  beta: {glyph: "β"}
  theta: {family: true, glyph: "θ{}", doc: owner}
encodings:
  card: {values: {0: [alpha], 1: [beta]}, doc: a card}
inputs:
  cards: {encoding: card, count: "sum(sizes)", groups: sizes, doc: cards}
steps:
  - step: 1
    say: first
    place:
      K: "[new(theta(3))]"
    face: up
  - step: 2
    say: twice
    for: {i: "[1, 2]"}
    do:
      - place:
          "K[2, *]": "[new(theta(i))]"
        face: up
      - let:
          last: "K[2, 1]"
      - discard: "K[2, *]"
outputs:
  found: {public: true, value: "last"}
"""


def test_a_let_of_a_card_is_kept_by_its_cards(tmp_path: Path) -> None:
    """Attack (w37-attack4): ``let last: K[2, 1]`` is structural (it names and indexes), and
    Steady left a structural expression's cards out of its key; but a let's value is the
    places' faces: the second round gave θ1 where the interpreter gives θ2."""
    found = _exactly(LET_CARD, "steady-card", tmp_path)
    assert not found, "\n".join(found)
