"""Hostile reviews of the per-step savings of the compiled path, attacks that held, kept: the
one Env a run keeps up to date (evaluate.env_of) read before and after the table changes in a
block and around a call; ``ncols``/``nrows`` read from the layout (helpers.h_region_shape) of
a region, a variable of its name, a comprehension's variable, a parameter, a region gone; and
the notes of a layout's shape (run.space, kept on the layout) after the layout dies and its id
comes back with another shape. Runs are compared with the interpreter's, run for run, with
``evaluate.CHECKED`` (every fast value checked against the interpreter's)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
for folder in (HERE, HERE.parent):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from siblings import sibling  # noqa: E402
from test_fused import _compare, _library  # noqa: E402
from test_fused_tail import ARROW  # noqa: E402

from reference_engine.compiled import run as compiled_run  # noqa: E402
from reference_engine.table import Layout  # noqa: E402

TAIL: str = sibling("test_deferred").TAIL  # this folder's, never machine's (siblings)

CALL = "      - call: knockout-lottery\n"


def _let(text: str) -> str:
    return f"      - let:\n          {text}\n"


# name -> (where: before the call / the tail / after the tail, steps, what the run is refused for)
ATTACKS: dict[str, tuple[str, str, str | None]] = {
    "regions-read-before-a-call": ("call", _let('a: "ncols(L) * 10 + nrows(L) + ncols(M)"'), None),
    "regions-read-before-the-tail": ("tail", _let('a: "ncols(L) + nrows(L) + ncols(M) + nrows(M)"'), None),
    "a-variable-named-as-the-region": ("tail", _let('L: "[1, 2]"') + _let('a: "nrows(L)"'), "got list"),
    "a-comprehension-variable": ("tail", _let('a: "[ncols(L) for L in [1]]"'), "got int"),
    "a-parameter": ("tail", _let('a: "ncols(sizes)"'), "got tuple"),
    "the-region-gone": ("after", _let('a: "nrows(L)"'), "unknown name 'L'"),
    "exists-before-and-after": (
        "around",
        _let("a: \"exists('L') and ncols(L) > 0\"") + "{TAIL}" + _let("b: \"exists('L')\""),
        None,
    ),
    "a-region-in-a-variable-of-another-name": ("call", _let('M: "L"') + _let('a: "ncols(M)"'), "face down"),
}


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_hostile_reads_of_the_table_run_as_the_interpreter(tmp_path: Path, attack: str) -> None:
    where, steps, refused = ATTACKS[attack]
    assert TAIL in ARROW and CALL in ARROW, "the default protocol changed; update the attacks"
    if where == "call":
        text = ARROW.replace(CALL, steps + CALL, 1)
    elif where == "tail":
        text = ARROW.replace(TAIL, steps + TAIL, 1)
    elif where == "after":
        text = ARROW.replace(TAIL, TAIL + steps, 1)
    else:
        text = ARROW.replace(TAIL, steps.replace("{TAIL}", TAIL), 1)
    name = f"arrow-stepcost-{attack}"
    text = text.replace("protocol: card-selection-arrow", f"protocol: {name}")
    result = _compare(_library(tmp_path, name, text), name, seeds=3)
    if refused is None:
        assert result[0] == "ran", result[:3]
        assert "a" in dict(result[5]), result[5]  # the step ran and its value is the interpreter's
    else:
        assert result[0] == "error" and refused in result[2], result[:3]


def test_a_layouts_note_is_its_own_when_a_dead_layouts_id_comes_back() -> None:
    """Layouts of many shapes, each dropped before the next is made (CPython gives the next
    the same id): every note is of the layout it is asked for, and ids did come back."""
    shapes: dict[int, tuple[bool, tuple[int, int] | None]] = {}
    came_back = 0
    for i in range(120):
        hand = i % 2 == 1
        regions: list[tuple[str, int, int, None, str | None]] = [
            ("A", 1 + i % 7, 1 + (i // 7) % 5, None, None)
        ]
        if hand:
            regions.append(("H", 1, 1 + i % 3, None, "H"))
        layout = Layout.make(regions, (), ())
        hands, extent, _order = compiled_run.space(layout)
        best = max(((r.rows, r.cols) for r in layout.regions), key=lambda e: (e[0] * e[1], e[1]))
        assert (hands, extent) == (hand, best), (i, hands, extent)
        if shapes.get(id(layout), (hand, best)) != (hand, best):
            came_back += 1
        shapes[id(layout)] = (hand, best)
        del layout
    assert came_back, "no id came back: the attack did not happen"


def test_a_plan_known_to_slide_nothing_out_still_checks_a_layout_it_slides_out_of() -> None:
    """base.landed skips the landing check where the plan's one kept slot says it slides
    nothing out of *that* layout: the same plan applied to another layout (a sleeve whose row is
    still in) checks its landings, and refuses a card landing the wrong way, every time, in
    turn with the layout it slides nothing out of; and the slot is never the other layout's."""
    from types import SimpleNamespace

    from reference_engine.compiled import base
    from reference_engine.machine.actions.sleeving import _sleeve_build
    from reference_engine.machine.plans import landings
    from reference_engine.sleeves import SleeveOp

    wide = sibling("test_plans").table(cols=4)  # not machine's test_plans (siblings)
    plan = _sleeve_build(None, None, None, wide, (SleeveOp("M", out=(2,)),))  # type: ignore[arg-type]
    slid = plan.layout  # row 2 already out: applied to it, the plan slides nothing out
    assert not landings(plan, slid) and landings(plan, wide)
    (new, up, _old), *_ = landings(plan, wide)

    class Refused(Exception):
        pass

    def run_on(before: Any, cells: list[int]) -> Any:
        runner = SimpleNamespace(fail=lambda frame, step, message: Refused(message), limits=None)
        return SimpleNamespace(layout=before, cells=cells, runner=runner, frame=None, out=(), meters=None)

    right = [1 if up else 0] * max(plan.layout.size, wide.size)
    wrong = list(right)
    wrong[new] ^= 1
    step = SimpleNamespace(number="1", kind="sleeve")
    for _ in range(3):
        landings(plan, slid)  # the slot now holds (slid, nothing out)
        base.landed(run_on(slid, wrong), step, plan, slid, {})  # type: ignore[arg-type]  # nothing to check
        assert plan.__dict__["_land"][0] is slid and not plan.__dict__["_land"][1]
        with pytest.raises(Refused, match="slides out of a sleeve"):
            base.landed(run_on(wide, wrong), step, plan, wide, {})  # type: ignore[arg-type]
        base.landed(run_on(wide, right), step, plan, wide, {})  # type: ignore[arg-type]
        assert plan.__dict__["_land"][0] is wide


MACHINE_TESTS = HERE.parent / "machine"
"""Another folder of tests with a test_plans.py and a test_deferred.py of its own."""


@pytest.mark.parametrize("module", ["test_stepcost_attacks", "test_deferred_attacks"])
def test_the_tests_of_this_folder_are_found_whatever_sys_path_holds_first(
    module: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Attack (a fault of the test order): machine's folder of tests first on sys.path, as
    test_program_sharing.py puts it when collected after a file of this folder, and no
    test_plans or test_deferred imported by name yet. ``pytest test_stepcost_attacks.py
    test_program_sharing.py`` (and this folder in reverse file order) failed with "cannot
    import name 'table' from 'test_plans' (.../machine/test_plans.py)"; ``pytest test_arrows.py
    test_program_sharing.py test_deferred_attacks.py`` could not collect test_deferred_attacks
    (machine's test_deferred imported instead). Each file of this folder loads, and the test
    that reads test_plans' table runs, with the modules of this folder."""
    import importlib.util

    monkeypatch.syspath_prepend(str(MACHINE_TESTS))
    for name in ("test_plans", "test_deferred"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    spec = importlib.util.spec_from_file_location(f"w54_{module}", HERE / f"{module}.py")
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    assert "TAIL" in vars(loaded)
    if module == "test_stepcost_attacks":
        loaded.test_a_plan_known_to_slide_nothing_out_still_checks_a_layout_it_slides_out_of()
