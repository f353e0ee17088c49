"""A compiled program shared between libraries (compiled/program.py: program_for, shares): a fresh
library takes the program another library compiled for the same protocol only where it would
compile the very same program, and games play alike either way."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest

from reference_engine.compiled import Program, program_for
from reference_engine.compiled import evaluate as ev
from reference_engine.compiled import program as program_module
from reference_engine.registry import Library, rulesets_dir

MACHINE_TESTS = Path(__file__).resolve().parent.parent / "machine"
if str(MACHINE_TESTS) not in sys.path:
    sys.path.insert(0, str(MACHINE_TESTS))

from test_relabel_games import uno_card_games  # noqa: E402

ARROW = "card-selection-arrow"
CALLEE = "knockout-lottery"


def _program(library: Library, name: str = ARROW) -> Program:
    made = program_for(library, library.protocol(name))
    assert isinstance(made, Program), made
    return made


def test_a_fresh_library_takes_the_program_another_compiled() -> None:
    first = Library()
    second = Library()
    assert first.protocol(ARROW) is second.protocol(ARROW)  # one object per file and text
    program = _program(first)
    assert _program(second) is program
    assert program_module.shares(second, program)


def test_games_on_a_shared_program_play_as_on_a_program_of_their_own() -> None:
    """The second library's games run on the plans the first library's games kept (the same
    program), and play exactly as on a program compiled afresh for them."""
    warm = Library()
    uno_card_games(range(2), warm)
    shared = Library()
    on_shared = uno_card_games(range(2, 4), shared)
    assert program_for(shared, shared.protocol(ARROW)) is program_for(warm, warm.protocol(ARROW))
    program_module.unshare()
    alone = Library()
    assert uno_card_games(range(2, 4), alone) == on_shared
    assert program_for(alone, alone.protocol(ARROW)) is not program_for(warm, warm.protocol(ARROW))


def _variant_callee(tmp_path: Path) -> Library:
    """A library that finds its own knockout lottery (the same steps, another text) before the
    built-in one, and the built-in card-selection-arrow (the very protocol object of every other
    library: same file, same text)."""
    text = (rulesets_dir() / "protocols" / f"{CALLEE}.yaml").read_text(encoding="utf-8")
    (tmp_path / f"{CALLEE}.yaml").write_text(text + "\n# another text\n", encoding="utf-8")
    return Library([tmp_path, rulesets_dir() / "protocols"])


BOUND = program_module.KEPT_PROGRAMS


@pytest.mark.parametrize("before", [0, *range(BOUND - 3, BOUND + 1)])
def test_a_library_that_calls_another_callee_compiles_its_own(
    tmp_path: Path, before: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever the process kept before (``before`` other entries: the table reaches its bound
    between these libraries' calls; stop 52 saw a clear there make ``plain`` compile again)."""
    monkeypatch.setattr(program_module, "_PROGRAMS", {})
    junk = [object() for _ in range(before)]
    for i, thing in enumerate(junk):
        program_module._PROGRAMS[("junk", id(thing), i)] = (thing, thing, "junk")
    plain = Library()
    program = _program(plain)
    other = _variant_callee(tmp_path)
    assert other.protocol(ARROW) is plain.protocol(ARROW)
    assert other.protocol(CALLEE) is not plain.protocol(CALLEE)
    assert not program_module.shares(other, program)
    mine = _program(other)
    assert mine is not program
    assert mine.callees[CALLEE].protocol is other.protocol(CALLEE)
    # and each library keeps its own
    assert _program(plain) is program and _program(other) is mine


def test_a_library_that_has_not_linked_the_callees_does_not_share() -> None:
    plain = Library()
    program = _program(plain)
    bare = Library()
    assert bare.linked_protocol(CALLEE) is None
    assert not program_module.shares(bare, program)
    bare.protocol(CALLEE)
    assert program_module.shares(bare, program)


def test_a_program_compiled_unchecked_is_not_taken_by_a_checked_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its plans were kept without being compared with the interpreter's: a library that runs
    checked (the tests' ``evaluate.CHECKED``) compiles its own."""
    monkeypatch.setattr(ev, "CHECKED", False)
    unchecked = _program(Library())
    monkeypatch.setattr(ev, "CHECKED", True)
    checked = _program(Library())
    assert checked is not unchecked
    assert _program(Library()) is checked


def test_unshare_leaves_each_library_its_own_program() -> None:
    first = Library()
    program = _program(first)
    program_module.unshare()
    assert _program(first) is program  # the library's own is kept
    assert _program(Library()) is not program


def test_programs_kept_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(program_module, "KEPT_PROGRAMS", 4)
    monkeypatch.setattr(program_module, "_PROGRAMS", {})
    libraries = [Library() for _ in range(12)]
    for library in libraries:
        _program(library)
        assert len(program_module._PROGRAMS) <= 5


def test_a_callee_edited_on_disk_between_two_libraries_is_compiled_anew(tmp_path: Path) -> None:
    """The same folder, the caller's file untouched, the callee's text changed in between: the
    second library's callee is another protocol, so it does not take the first one's program."""
    builtin = rulesets_dir() / "protocols"
    for name in (ARROW, CALLEE):
        (tmp_path / f"{name}.yaml").write_text((builtin / f"{name}.yaml").read_text(encoding="utf-8"))
    before = Library([tmp_path])
    program = _program(before)
    callee = tmp_path / f"{CALLEE}.yaml"
    callee.write_text(callee.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    after = Library([tmp_path])
    assert after.protocol(ARROW) is before.protocol(ARROW)
    mine = _program(after)
    assert mine is not program
    assert mine.callees[CALLEE].protocol is after.protocol(CALLEE) is not before.protocol(CALLEE)


def test_libraries_of_two_threads_never_share_a_program() -> None:
    """A program keeps the run it is carrying out between fused steps: a library in another
    thread compiles its own, while a second library of the same thread shares the first's."""
    first = Library()
    mine = _program(first)
    assert _program(Library()) is mine
    theirs: list[Program] = []
    worker = threading.Thread(target=lambda: theirs.append(_program(Library())))
    worker.start()
    worker.join()
    assert len(theirs) == 1 and theirs[0] is not mine
