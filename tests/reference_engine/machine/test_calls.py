"""Sub-protocol calls: a callee whose view does not factor stops the run with
``Shared.restart`` (no exception for control flow), and the verifier runs it again with the
callee inlined, so the verdict is the one an honest enumeration gives."""

from __future__ import annotations

from pathlib import Path

from reference_engine.machine import Frontier, Runner, Shared
from reference_engine.registry import Library
from reference_engine.verify import verify

BITS = """\
symbols:
  alpha: {glyph: "α"}
  beta: {glyph: "β"}
encodings:
  bit:
    values: {0: [alpha, beta], 1: [beta, alpha]}
inputs: {x: {encoding: bit}}
"""

PEEK = """\
steps:
  - step: 1
    say: Turn the first card of x and back.
    do:
      - turn: "x[1]"
      - turn: "x[1]"
outputs:
  out: {cards: x, encoding: bit, equals: x}
"""

FLIP = """\
steps:
  - step: 1
    say: Swap the two cards of x.
    rearrange: {x: [2, 1]}
outputs:
  out: {cards: x, encoding: bit, equals: "1 - x"}
"""


def calls(callee: str, equals: str = "x") -> str:
    return f"""\
steps:
  - step: 1
    say: Run {callee}.
    call: {callee}
    with: {{x: x}}
    results: {{out: r}}
outputs:
  out: {{cards: r, encoding: bit, equals: "{equals}"}}
"""


def library(tmp_path: Path, **specs: str) -> Library:
    for name, body in specs.items():
        name = name.replace("_", "-")
        text = f"protocol: {name}\ntitle: {name}\n{BITS}{body}"
        (tmp_path / f"{name}.yaml").write_text(text, encoding="utf-8")
    return Library([tmp_path])


def run_both_inputs(lib: Library, name: str, shared: Shared) -> Frontier:
    """Run ``name`` on x = 0 and x = 1 at once, as the verifier does."""
    proto = lib.protocol(name)
    runner = Runner(lib, "exact", shared=shared)
    frame = runner.frame(proto, proto.resolve_params({}))
    frontier: Frontier = {}
    for i in (0, 1):
        frontier.setdefault(frame.initial_state({"x": i}), (1, {}))[1][i] = 1
    return runner.run(frame, frontier)


def test_a_callee_whose_view_does_not_factor_sets_the_restart_flag(tmp_path: Path) -> None:
    """peek shows the first card of its argument: its view depends on the argument, so it
    cannot be factored out. Its view on x = 0 alone factors; on x = 1 it does not match the
    one seen for x = 0, and the run stops there, naming it."""
    lib = library(tmp_path, peek=PEEK, calls_peek=calls("peek"))
    shared = Shared(restartable=True)
    assert run_both_inputs(lib, "calls-peek", shared) == {}
    assert shared.restart == "peek"
    assert len(shared.subruns) == 1  # the outcomes of the run that stopped are not kept
    # Run again with the callee inlined: the run finishes, and the two inputs look different.
    again = Shared(no_factor={"peek"})
    final = run_both_inputs(lib, "calls-peek", again)
    assert again.restart is None
    assert len(final) == 2
    assert len({state.view for state in final}) == 2


def test_a_callee_whose_view_factors_sets_no_flag(tmp_path: Path) -> None:
    lib = library(tmp_path, flip=FLIP, calls_flip=calls("flip", "1 - x"))
    shared = Shared(restartable=True)
    final = run_both_inputs(lib, "calls-flip", shared)
    assert shared.restart is None
    assert "flip" in shared.factored
    assert len(final) == 2 and len({state.view for state in final}) == 1


def test_the_verdict_on_a_callee_that_does_not_factor_is_the_inlined_one(tmp_path: Path) -> None:
    lib = library(tmp_path, peek=PEEK, calls_peek=calls("peek"))
    report = verify(lib, lib.protocol("calls-peek"))
    assert report.correct and not report.secure
    assert any("peek is inlined" in n for n in report.notes)


def test_a_restart_deep_in_nested_calls_unwinds_every_level(tmp_path: Path) -> None:
    """outer calls peek: peek does not factor, and then neither does outer (peek's whole view
    is part of outer's). The verifier restarts once for each and still finds the leak."""
    lib = library(tmp_path, peek=PEEK, outer=calls("peek"), calls_outer=calls("outer"))
    shared = Shared(restartable=True)
    assert run_both_inputs(lib, "calls-outer", shared) == {}
    assert shared.restart == "peek"
    # Kept: peek and outer on x = 0; outer on x = 1 stopped inside peek, and neither is kept.
    assert sorted(key[0][0] for key in shared.subruns) == ["outer", "peek"]
    report = verify(lib, lib.protocol("calls-outer"))
    assert report.correct and not report.secure
    notes = " ".join(report.notes)
    assert "peek is inlined" in notes and "outer is inlined" in notes


def test_a_callee_that_factors_keeps_the_caller_secure(tmp_path: Path) -> None:
    lib = library(tmp_path, flip=FLIP, calls_flip=calls("flip", "1 - x"))
    report = verify(lib, lib.protocol("calls-flip"))
    assert report.correct and report.secure
    assert any("flip: its view depends only on its public outputs" in n for n in report.notes)


def test_a_single_run_keeps_a_callee_view_whole_instead_of_stopping(tmp_path: Path) -> None:
    """Outside an exact verification (a game's runs) nothing starts again: a callee that does
    not factor is inlined from then on and the run finishes."""
    lib = library(tmp_path, peek=PEEK, calls_peek=calls("peek"))
    shared = Shared()
    final = run_both_inputs(lib, "calls-peek", shared)
    assert shared.restart is None and "peek" in shared.no_factor
    assert len(final) == 2
