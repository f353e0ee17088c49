"""The runner's dispatch: every step kind has its handler, registered when the package is
imported, and a step kind without one is refused with an error located in the spec."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from reference_engine import steps as st
from reference_engine.errors import SimulationError
from reference_engine.machine import HANDLERS, ONE, Runner
from reference_engine.registry import Library

SPEC = """\
protocol: dance
title: dance
symbols:
  alpha: {glyph: "α"}
  beta: {glyph: "β"}
encodings:
  bit:
    values: {0: [alpha, beta], 1: [beta, alpha]}
inputs: {x: {encoding: bit}}
steps:
  - step: 1
    say: Swap the two cards.
    rearrange: {x: [2, 1]}
  - step: 2
    say: Swap them back.
    do:
      - rearrange: {x: [2, 1]}
outputs:
  out: {cards: x, encoding: bit, equals: x}
"""


@dataclasses.dataclass
class Dance(st.Step):
    """A step kind the machine has no handler for."""


def test_every_step_kind_of_the_spec_language_has_a_handler() -> None:
    kinds = {cls for cls in vars(st).values() if isinstance(cls, type) and issubclass(cls, st.Step)}
    kinds.discard(st.Step)
    assert kinds == set(HANDLERS)
    assert {k.__name__.lower() for k in kinds} == set(st.ACTIONS) | {"note"}


def test_a_handler_is_registered_once() -> None:
    from reference_engine.machine.runner import handles

    with pytest.raises(TypeError, match="two handlers for the step kind Place"):
        handles(st.Place)(lambda run, frame, step, frontier, ctx: frontier)


def _dance(tmp_path: Path, nested: bool) -> tuple[Library, int]:
    """A library whose 'dance' protocol has a Dance step (at the top, or inside a 'do');
    returns the line of the step the error must point at."""
    (tmp_path / "dance.yaml").write_text(SPEC, encoding="utf-8")
    lib = Library([tmp_path])
    proto = lib.protocol("dance")
    if nested:
        body = proto.steps[1].children()[0]
        old = body[0]
        line = SPEC.splitlines().index("      - rearrange: {x: [2, 1]}") + 1
    else:
        body = proto.steps
        old = body[0]
        line = SPEC.splitlines().index("  - step: 1") + 1
    body[0] = Dance(path=old.path, line=old.line, number=old.number, say=old.say)
    return lib, line


@pytest.mark.parametrize("mode", ["sample", "exact"])
@pytest.mark.parametrize("nested", [False, True])
def test_a_step_kind_without_a_handler_is_a_located_error(tmp_path: Path, mode: str, nested: bool) -> None:
    lib, line = _dance(tmp_path, nested)
    proto = lib.protocol("dance")
    runner = Runner(lib, mode)
    frame = runner.frame(proto, proto.resolve_params({}))
    with pytest.raises(SimulationError) as info:
        runner.run(frame, {frame.initial_state({"x": 0}): ONE})
    problem = info.value.problem
    assert problem is not None
    # Like every runtime error, it names the numbered step being carried out (for an unnumbered
    # sub-step, the numbered step it belongs to).
    where = "step 2: " if nested else "step 1: "
    assert problem.message == f"{where}no handler for the step kind 'dance'"
    assert Path(problem.file).name == "dance.yaml"
    assert problem.line == line
    assert f"dance.yaml:{line}:" in str(info.value)


def test_the_verifier_refuses_with_the_located_error(tmp_path: Path) -> None:
    from reference_engine.verify import verify

    lib, line = _dance(tmp_path, nested=False)
    with pytest.raises(SimulationError) as info:
        verify(lib, lib.protocol("dance"))
    assert info.value.exit_code == 2
    assert f"dance.yaml:{line}: steps[0]: step 1: no handler for the step kind 'dance'" in str(info.value)
