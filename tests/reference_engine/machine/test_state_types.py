"""A state's variables are told apart by their types (reference_engine/table.py ``State``, and
the interpreter's tables keyed by a state's variables: machine/frame.py's evaluator memo,
machine/frontier.py ``_groups``, the ``for`` step's groups in machine/actions/control.py and
machine/forgetting.py ``_table_key``).

Python's ``True == 1`` and ``hash(True) == hash(1)``, so ``(("x", True),) == (("x", 1),)``; the
spec's language tells them apart (``str(x)`` is "True" or "1"). In an exact run, a state where
``x`` is true and one where ``x`` is 1 shared one evaluation of ``str(x)`` (the evaluator's memo
and the groups of states whose public selectors resolve alike were keyed by the variables with
``==``): the second state's ``y`` was "True" where a run of that state alone gives "1". Stop 49
named it after fixing the same flaw in ``env_set``; these tests failed before (stop 50).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from reference_engine.machine import ONE, Runner
from reference_engine.machine.forgetting import _table_key
from reference_engine.machine.frontier import _groups, add_vec
from reference_engine.meters import Meters
from reference_engine.registry import Library, rulesets_dir
from reference_engine.table import Layout, State
from reference_engine.verify import setting

LAYOUT = Layout.make([])

# The cut decides which card is on the left; the left card shown decides whether x is true or 1;
# y and z are read from x by a let and by a for: both must follow x's type in every state.
SPEC = """\
protocol: state-types
title: Variables that are true in one state and 1 in another
summary: x is true after one cut, 1 after the other; y and z print it
symbols:  # names no other spec uses: a card's glyph is the process's, whatever spec named it
  kg_state_types_c: {glyph: "C"}
  kg_state_types_h: {glyph: "H"}
encodings:
  bit:
    values: {0: [kg_state_types_c, kg_state_types_h], 1: [kg_state_types_h, kg_state_types_c]}
    doc: a bit
inputs:
  a: {encoding: bit, doc: a bit}
steps:
  - step: 1
    say: lay the pair out
    place: {s: [a]}
  - step: 2
    say: cut it
    shuffle: {cut: s, how: cut}
  - step: 3
    say: show it
    do:
      - turn: s
      - let: {x: "(1 == 1) if s[1] == kg_state_types_c else 1"}
      - let: {y: "str(x)"}
      - for: {k: "[x]"}
        do:
          - let: {z: "str(k)"}
outputs:
  y: {public: true, value: y}
  z: {public: true, value: z}
"""


def _state(env: tuple[tuple[str, object], ...]) -> State:
    return State(LAYOUT, (), (), env, Meters(), 0)


@pytest.mark.parametrize(
    ("one", "other", "same"),
    [
        (True, 1, False),
        (False, 0, False),
        ((1, True), (1, 1), False),
        ((("a", (True,)),), (("a", (1,)),), False),
        (1, 1, True),
        ((1, "a"), (1, "a"), True),
        ((), (), True),
    ],
)
def test_states_are_equal_only_with_variables_of_the_same_types(
    one: object, other: object, same: bool
) -> None:
    a, b = _state((("x", one),)), _state((("x", other),))
    assert hash(a) == hash(b)  # Python's: equal hashes, so only equality can tell them apart
    assert (a == b) is same
    frontier: dict[State, tuple[int, dict[int, int]]] = {}
    add_vec(frontier, a, ONE)
    add_vec(frontier, b, ONE)
    assert len(frontier) == (1 if same else 2)  # never merged into one (with the first's x)
    assert len(_groups(frontier)) == len(frontier)
    assert (_table_key(a) == _table_key(b)) is same


def test_a_state_equals_itself_with_an_equal_env_of_another_object() -> None:
    env = (("x", True), ("y", "a"))
    assert _state(env) == _state(tuple(list(env)))
    assert hash(_state(env)) == hash(_state(tuple(list(env))))


def _finals(tmp_path: Path, mode: str, a: int, seed: int = 0) -> list[tuple[object, object, object]]:
    (tmp_path / "state-types.yaml").write_text(SPEC, encoding="utf-8")
    library = Library([tmp_path, rulesets_dir() / "protocols"])
    proto = library.protocol("state-types")
    runner = Runner(library, mode, rng=random.Random(seed))
    frame = runner.frame(proto, setting(proto).params)
    finals = runner.run(frame, {frame.initial_state({"a": a}): ONE})
    out = []
    for state in finals:
        env = dict(state.env)
        out.append((env["x"], env["y"], env["z"]))
    return out


@pytest.mark.parametrize("a", [0, 1])
def test_an_exact_run_reads_each_state_s_variables_with_their_own_types(tmp_path: Path, a: int) -> None:
    finals = _finals(tmp_path, "exact", a)
    assert len(finals) == 2
    for x, y, z in finals:
        assert y == str(x) and z == str(x), (x, y, z)  # "True" for true, "1" for 1
    assert sorted(type(x).__name__ for x, _, _ in finals) == ["bool", "int"]


def test_the_exact_run_s_states_are_those_sampled(tmp_path: Path) -> None:
    """Every state the exact run reaches is one a sampled run reaches, with the same variables
    (of the same types)."""
    exact = {(type(x), x, y, z) for a in (0, 1) for x, y, z in _finals(tmp_path, "exact", a)}
    sampled = set()
    for a in (0, 1):
        for seed in range(8):
            sampled |= {(type(x), x, y, z) for x, y, z in _finals(tmp_path, "sample", a, seed)}
    assert exact == sampled
