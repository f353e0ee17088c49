"""Hostile review of compiled/placeargs.py (a place's resolved arguments kept across runs by
the layout, ``frame.key`` and the variables its expressions name), attacks that held, kept:
mutants of the knockout lottery's step 1 run on both engines, run for run under
``evaluate.CHECKED`` (every kept answer worked out again and compared), with the parameters
changed between runs in one process so that kept answers meet runs they were not made in: a
variable hiding the region ``c``, a variable read only
through a comprehension's range, a place inside a loop reading the loop's variable, a
target read from a variable, ``1`` against ``true`` in a variable, ``len``/``ncols`` of the
regions. (A variable hiding the parameter ``m`` is refused by the loader.)"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
for folder in (HERE, HERE.parent):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import runs  # noqa: E402
from test_differential import _drawn  # noqa: E402
from test_fused import _library  # noqa: E402

from reference_engine.compiled import Program, placeargs, program_for  # noqa: E402
from reference_engine.machine import Runner  # noqa: E402
from reference_engine.registry import rulesets_dir  # noqa: E402

LOTTERY = (rulesets_dir() / "protocols" / "knockout-lottery.yaml").read_text(encoding="utf-8")
STEP1 = '      P: {columns: "[[c[i], x[i]] for i in 1..m]"}\n'
PLACE = "    place:\n" + STEP1


def _let(name: str, value: str, indent: str = "      ") -> str:
    return f'{indent}- let:\n{indent}    {name}: "{value}"\n'


def _before(steps: str, columns: str) -> str:
    """Step 1 as a do block: ``steps`` and then the place with ``columns`` as its items."""
    return "    do:\n" + steps + '      - place:\n          P: {columns: "' + columns + '"}\n'


# name -> step 1 replaced by (the runs compared; what every run is refused for, or None)
ATTACKS: dict[str, tuple[str, str | None]] = {
    "a-variable-hides-the-region-c-in-some-runs": (
        _before(
            '      - if: "shuffled == 1"\n        then:\n' + _let("c", "[j for j in 1..m]", "          "),
            "[[c[i], x[i]] for i in 1..m]",
        ),
        "expected cards",
    ),
    "a-variable-only-in-a-range": (
        _before(_let("k", "m - shuffled"), "[[c[i], x[i]] for i in 1..k] + [[c[i], x[i]] for i in k+1..m]"),
        None,
    ),
    "a-variable-from-a-card-shown": (
        _before(
            '      - move: {V: "x[1]"}\n      - turn: V\n' + _let("k", "1 if V[1] == up else 2"),
            "[[c[i], x[i]] for i in 2..m] + [[c[1], V[1]] for j in k..1]",
        ),
        "any",
    ),
    "a-parameter-the-layout-does-not-show": (
        _before("", "[[c[(i + shuffled - 1) % m + 1], x[(i + shuffled - 1) % m + 1]] for i in 1..m]"),
        None,
    ),
    "one-against-true": (
        _before(_let("k", "shuffled == shuffled"), "[[c[i], x[i]] for i in k..m]"),
        None,
    ),
    "lens-of-the-regions": (
        _before("", "[[c[i], x[i]] for i in 1..len(c) - ncols(x) + nrows(x) + m - 1]"),
        None,
    ),
    "a-loop-variable": (
        '    for: {k: "1..1"}\n    do:\n      - place:\n'
        '          P: {columns: "[[c[i], x[i]] for i in k..m]"}\n',
        None,
    ),
}


def _runs(name: str, text: str, tmp: Path) -> tuple[set[str], int]:
    library = _library(tmp, name, text)
    proto = library.protocol(name)
    program = program_for(library, proto)
    assert isinstance(program, Program), program
    kinds: set[str] = set()
    found: list[str] = []
    compared = 0
    for m, shuffled in ((3, 0), (4, 1), (3, 1), (5, 0), (3, 0), (4, 1)):
        params: dict[str, Any] = {"m": m, "shuffled": shuffled}
        frame = Runner(library, "sample").frame(proto, params)
        assignments = _drawn(frame, 2)
        found += runs.differences(library, proto, params, assignments, range(2), None, kinds)
        compared += len(assignments) * 2
    assert not found, "\n".join(found)
    return kinds, compared


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_the_lotterys_place_kept_across_runs_of_other_parameters(
    tmp_path: Path, attack: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    steps, refused = ATTACKS[attack]
    assert PLACE in LOTTERY, "the knockout lottery's step 1 changed; update the attacks"
    text = LOTTERY.replace(PLACE, steps, 1)
    name = f"lottery-placeargs-{attack}"
    text = text.replace("protocol: knockout-lottery", f"protocol: {name}")
    made = placeargs.kept_place
    kept: list[int] = []

    def counted(step: Any, resolve: Any) -> Any:
        kept.append(1)
        return made(step, resolve)

    monkeypatch.setattr(placeargs, "kept_place", counted)
    kinds, compared = _runs(name, text, tmp_path)
    assert compared >= 12
    if refused is None:
        assert kinds == {"ran"}, kinds
    elif refused == "any":  # the engines agree, run for run, however the runs end
        assert kinds, kinds
    else:  # the runs with the variable are refused, the others (the region's place kept) run
        assert kinds == {"ran", "error EvalError"} or kinds == {"ran", "error SimulationError"}, kinds
    assert kept, "no place went through placeargs: the attack did not happen"
