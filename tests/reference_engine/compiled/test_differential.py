"""The compiled path against the interpreter, single run for single run: every shipped protocol
on its scenarios' deals, and the fuzz generator's specs (every step kind, every kind of
shuffle, calls, hands, broken specs whose runs cannot be carried out). With the fast values
and plans checked against the interpreter's at every step (``runs.py``)."""

from __future__ import annotations

import os
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, given, settings

HERE = Path(__file__).resolve().parent
for folder in (HERE, HERE.parent):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import runs  # noqa: E402
import sleeved  # noqa: E402
import specgen  # noqa: E402

from reference_engine.compiled import Program, program_for  # noqa: E402
from reference_engine.errors import KitgenError, UsageError  # noqa: E402
from reference_engine.expressions import plain  # noqa: E402
from reference_engine.machine import Frame, Runner  # noqa: E402
from reference_engine.registry import Library  # noqa: E402
from reference_engine.verify import input_assignments, setting, value_scope  # noqa: E402
from reference_engine.verify.setting import Setting  # noqa: E402

EXAMPLES = int(os.environ.get("KITGEN_FUZZ_EXAMPLES", "120"))
SHIPPED = Library().names()


def _assignments(library: Library, name: str, most: int) -> tuple[Setting, list[dict[str, Any]]]:
    """Up to ``most`` admissible inputs, spread over all of them (drawn at random when there are
    too many to list)."""
    proto = library.protocol(name)
    st = setting(proto)
    frame = Runner(library, "sample").frame(proto, st.params)
    try:
        every = input_assignments(frame, st.deal)
    except UsageError:  # too many to list: some at random
        return st, _drawn(frame, most)
    step = max(1, len(every) // most)
    return st, every[::step][:most]


def _drawn(frame: Frame, most: int) -> list[dict[str, Any]]:
    rng = random.Random(0)
    out: list[dict[str, Any]] = []
    for _ in range(50 * most):
        values: dict[str, Any] = {}
        for name, decl in frame.proto.inputs.items():
            b = frame.bound(decl.encoding)
            count = frame.input_count(name)
            values[name] = (
                rng.choice(b.domain())
                if count is None
                else [rng.choice(b.domain(i)) for i in range(1, count + 1)]
            )
        admissible = frame.proto.admissible
        if admissible is None or plain(admissible(value_scope(frame, values))):
            out.append(values)
        if len(out) == most:
            break
    return out


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_protocol_compiles_and_runs_alike(name: str) -> None:
    library = Library()
    proto = library.protocol(name)
    program = program_for(library, proto)
    if runs.not_yet_compiled(program if isinstance(program, str) else None):
        return  # sleeves or up-down cards: the interpreter runs it (test_selection checks the report)
    assert isinstance(program, Program), program
    st, assignments = _assignments(library, name, 6)
    found = runs.differences(library, proto, st.params, assignments, range(3), st.context or None)
    assert not found, "\n".join(found)


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
@given(specgen.libraries())
def test_fuzz_specs_run_alike(generated: specgen.GeneratedLibrary) -> None:
    with tempfile.TemporaryDirectory(prefix="kitgen-compiled-") as tmp:
        generated.write(Path(tmp))
        try:
            library = Library([Path(tmp)])
            proto = library.protocol(generated.main)
            st, assignments = _assignments(library, generated.main, 4)
        except KitgenError:
            assume(False)  # a spec the loader refuses, or no admissible input: no run to compare
            return
        program = program_for(library, proto)
        if isinstance(program, str) and runs.not_yet_compiled(program):
            event("a call with a hands: or players: mapping: the interpreter runs it")
            return
        assert isinstance(program, Program), f"{program}\n\n{generated.text()}"
        kinds: set[str] = set()
        found = runs.differences(library, proto, st.params, assignments, range(3), kinds=kinds)
        assert not found, "\n".join(found) + "\n\n" + generated.text()
        for kind in sorted(kinds):
            event(f"runs: {kind}")


@settings(
    max_examples=max(EXAMPLES // 2, 10),
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
@given(sleeved.sleeved_libraries())
def test_fuzz_sleeved_specs_run_alike(generated: specgen.GeneratedLibrary) -> None:
    """The generator's specs with sleeves and up-down cards (see ``sleeved.py``): refused alike or
    run alike."""
    with tempfile.TemporaryDirectory(prefix="kitgen-compiled-") as tmp:
        generated.write(Path(tmp))
        try:
            library = Library([Path(tmp)])
            proto = library.protocol(generated.main)
            st, assignments = _assignments(library, generated.main, 3)
        except KitgenError:
            assume(False)
            return
        program = program_for(library, proto)
        assert isinstance(program, Program), f"{program}\n\n{generated.text()}"
        kinds: set[str] = set()
        found = runs.differences(library, proto, st.params, assignments, range(3), kinds=kinds)
        assert not found, "\n".join(found) + "\n\n" + generated.text()
        for kind in sorted(kinds):
            event(f"runs: {kind}")
        for feature in sorted(f for f in generated.features if f.startswith(("sleeve", "rotate"))):
            event(f"has: {feature}")
