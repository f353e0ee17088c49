"""Hostile mutants of Step 11's found case carried out as one plan (compiled/fused.py's
``_after_if``), beyond test_fused_tail.py's: the discard after the ``if`` failing (a row not
there, taken twice), the row it takes turned face up or out of its sleeve in the branch, the
``if`` run in a loop. Every run is compared with the interpreter's, run for run, with
``evaluate.CHECKED`` against the steps one by one."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
for folder in (HERE, HERE.parent):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from test_fused import _compare, _library  # noqa: E402
from test_fused_tail import AFTER, ARROW, FOUND, _count_tails  # noqa: E402

from reference_engine.compiled import Program  # noqa: E402
from reference_engine.registry import Library  # noqa: E402
from reference_engine.spec import Protocol  # noqa: E402

PAIR = '              - discard: "D[3, *]"\n'

# name -> (FOUND, AFTER replaced by, whether the found case is one plan)
MUTANTS: dict[str, tuple[str, str, bool]] = {
    # the discard after the ``if`` names a row that is not there: its own message
    "a-row-not-there": (FOUND, AFTER.replace("D[2, *]", "D[4, *]", 1), False),
    # the row discarded twice: the second finds no region
    "taken-twice": (
        FOUND,
        AFTER.replace('          - discard: "D[2, *]"', '          - discard: "D[2, *]"\n' * 2 + "#", 1),
        True,
    ),
    # the row the discard after the ``if`` takes turned face up in the branch (seen discarded)
    "face-up": (FOUND.replace(PAIR, '              - turn: "D[2, *]"\n' + PAIR, 1), AFTER, True),
    # its owner cards slid out of their sleeves in the branch
    "sleeve-out": (FOUND.replace(PAIR, "              - sleeve: {D: {out: [2]}}\n" + PAIR, 1), AFTER, True),
}


@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_hostile_found_cases_run_as_their_steps(
    tmp_path: Path, mutant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    found, after, whole = MUTANTS[mutant]
    assert FOUND in ARROW and AFTER in ARROW, "the default protocol changed; update the mutants"
    name = f"arrow-tail-attack-{mutant}"
    text = (
        ARROW.replace(FOUND, found, 1)
        .replace(AFTER, after, 1)
        .replace("protocol: card-selection-arrow", f"protocol: {name}")
    )
    made = _count_tails(monkeypatch)
    _compare(_library(tmp_path, name, text), name, seeds=6)
    assert bool(made["D"]) == whole, (mutant, made)


def test_one_protocol_compiled_twice_runs_each_program_as_its_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same ``if`` and discard objects compiled into two programs (a program cache cleared
    while the old program lives on), run in turn: each program's found case is its own (the
    second compile's discard never skipped on the first's plan, nor the other way round)."""
    from reference_engine.compiled import program as program_module

    library = Library()
    proto = library.protocol("card-selection-arrow")
    made = _count_tails(monkeypatch)
    both = [program_module.compile_protocol(library, proto) for _ in range(2)]
    calls = [0]

    def alternate(lib: Library, protocol: Protocol) -> Program | str:
        if protocol is not proto:
            return real(lib, protocol)
        calls[0] += 1
        return both[calls[0] % 2]

    real = program_module.program_for
    monkeypatch.setattr(program_module, "program_for", alternate)
    result = _compare(library, "card-selection-arrow", seeds=6)
    assert result[0] == "ran", result[:3]
    assert calls[0] > 2 and made["D"] > 0, (calls, made)
