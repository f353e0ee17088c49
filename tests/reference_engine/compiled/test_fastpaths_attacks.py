"""The fast paths together in one run (segments for steps 1-9, pure.py's replays, placeargs,
the takes' kept parts, deferred.py and fused.py for steps 11-12), attacks that held, kept:
card-selection-arrow stopped by the limit of steps at every step of its run, the kept tables
warm from earlier runs of other inputs and seeds, on both engines alike (the same error, at the
same step, the same random state).

An exploration budget (frontier.budget) in a *sampled* run, the kept tables warm: kept as
tests in tests/reference_engine/machine/test_relabel_budget.py. The first run of a small
lottery pattern spent its call's exact enumeration (relabel.py: 84 units, 42 once the law was
kept), so the same run stopped at different points after different histories; a kept law now
costs what its first enumeration spent (and a lazy block's kept draws what listing them does,
lazypiles.py), on both engines."""

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
from test_differential import _assignments  # noqa: E402

from reference_engine.compiled import ops  # noqa: E402
from reference_engine.compiled import run as compiled_run  # noqa: E402
from reference_engine.kinds.virtual import one_card  # noqa: E402
from reference_engine.machine import runner as machine_runner  # noqa: E402
from reference_engine.registry import Library  # noqa: E402

NAME = "card-selection-arrow"


def _setting() -> tuple[Library, Any, Any, list[dict[str, Any]]]:
    library = Library()
    proto = library.protocol(NAME)
    st, assignments = _assignments(library, NAME, 3)
    for values in assignments:  # warm: every kept table met once, on both engines
        for seed in range(3):
            for engine in ("interpreter", "compiled"):
                runs.single(library, proto, st.params, values, seed, engine, st.context or None)
    return library, proto, st, assignments


def _pair(library: Library, proto: Any, st: Any, values: dict[str, Any], seed: int) -> tuple[Any, Any]:
    a = runs.single(library, proto, st.params, values, seed, "interpreter", st.context or None)
    b = runs.single(library, proto, st.params, values, seed, "compiled", st.context or None)
    return a, b


@pytest.mark.parametrize("stride", [0, 1])
def test_the_limit_of_steps_at_every_step_stops_both_engines_alike(
    monkeypatch: pytest.MonkeyPatch, stride: int
) -> None:
    library, proto, st, assignments = _setting()
    stopped = ran = 0
    for most in range(1, 60):
        for module in (machine_runner, compiled_run, ops):
            monkeypatch.setattr(module, "MAX_RUN_STEPS", most)
        values, seed = assignments[(most + stride) % len(assignments)], (most + stride) % 3
        a, b = _pair(library, proto, st, values, seed)
        assert a == b, (most, a[:3], b[:3])
        if a[0] == "error":
            assert f"more than {most} steps in one run" in a[2], a[:3]
            stopped += 1
        ran += a[0] == "ran"
    assert stopped > 20 and ran > 5, (stopped, ran)


def _answering(salt: int, modulus: int) -> Any:
    """A game's ``valid`` of its own: by the card, but a different rule in every run (the
    card's name's letters, salted, modulo ``modulus``): a kept answer of another run is wrong.
    It takes the card as a game's function does (one_card: a face, or a face-up selection; the
    interpreter hands over the place, the compiled path the face)."""

    def valid(card: Any) -> bool:
        return (sum(map(ord, one_card(card).name)) + salt) % modulus == 0

    return valid


@pytest.mark.parametrize("modulus", [1, 2, 3, 7])
def test_a_game_answering_differently_in_each_run_runs_both_engines_alike(modulus: int) -> None:
    """The same cards, the same table and parameters run after run, but the game's answers
    differ from one run to the next (kept tables warm from the game's usual answers): nothing
    kept may stand for a game's answer; every run is the interpreter's, run for run (CHECKED)."""
    library, proto, st, assignments = _setting()
    ended: set[str] = set()
    for turn in range(8):
        values, seed = assignments[turn % len(assignments)], turn % 2
        got = [
            runs.single(library, proto, st.params, values, seed, engine, {"valid": _answering(turn, modulus)})
            for engine in ("interpreter", "compiled")
        ]
        assert got[0] == got[1], (turn, got[0][:3], got[1][:3])
        ended.add(str(got[0][0]))
    assert ended == {"ran"}, ended


# The parameters changed from run to run in one process, as a game's turns change them (hands
# grow and shrink, the draw rule on and off, the discard pile as an owner), back and forth.
PARAMS: list[dict[str, Any]] = [
    {"sizes": (2, 1, 2), "draw": 1, "discard": 0},
    {"sizes": (3, 2, 1, 4), "draw": 1, "discard": 1},
    {"sizes": (1, 1, 1), "draw": 0, "discard": 0},
    {"sizes": (2, 1, 2), "draw": 0, "discard": 0},
    {"sizes": (5, 1, 3), "draw": 1, "discard": 0},
    {"sizes": (2, 1, 2), "draw": 1, "discard": 1},
    {"sizes": (4, 3, 2, 6), "draw": 1, "discard": 1},
    {"sizes": (2, 1, 2), "draw": 1, "discard": 0},
]


def test_the_parameters_changed_from_run_to_run_run_both_engines_alike() -> None:
    library, proto, st, assignments = _setting()
    pool = sorted({c for values in assignments for c in values["cards"]}, key=str)
    ended: set[str] = set()
    for turn, params in enumerate(PARAMS * 2):
        n = sum(params["sizes"])
        for shift in (0, 1):
            values = {"cards": [pool[(turn + shift + i) % len(pool)] for i in range(n)]}
            seeds = range(turn % 2, turn % 2 + 2)
            found = runs.differences(library, proto, params, [values], seeds, st.context, ended)
            assert not found, "\n".join(found)
    assert ended == {"ran"}, ended


def _renamed(text: str, old: str, new: str) -> str:
    """Every whole-word ``old`` of the spec (its regions, steps, prose) written ``new``."""
    import re

    return re.sub(rf"\b{old}\b", new, text)


# The default protocol's regions renamed (the segment's, the lottery's call rows, Step 11's and
# 12's) after the original ran in the same process (its tables warm).
RENAMES = [("M", "Q"), ("L", "K2"), ("D", "Z"), ("M", "D2"), ("D", "M2")]


@pytest.mark.parametrize("rename", RENAMES, ids=[f"{a}-{b}" for a, b in RENAMES])
def test_a_region_renamed_runs_both_engines_alike(tmp_path: Path, rename: tuple[str, str]) -> None:
    from test_fused import _library as library_of

    from reference_engine.registry import rulesets_dir

    _setting()  # the original's tables warm
    text = (rulesets_dir() / "protocols" / f"{NAME}.yaml").read_text(encoding="utf-8")
    name = f"arrow-renamed-{rename[0]}-{rename[1]}".lower()
    text = _renamed(text, *rename).replace(f"protocol: {NAME}", f"protocol: {name}")
    library = library_of(tmp_path, name, text)
    proto = library.protocol(name)
    from reference_engine.compiled import Program, program_for, segments

    program = program_for(library, proto)
    assert isinstance(program, Program)
    assert any(isinstance(e[0], segments.Segment) for e in program.block)  # the fast path is taken
    st, assignments = _assignments(library, name, 3)
    ended: set[str] = set()
    found = runs.differences(library, proto, st.params, assignments, range(3), st.context or None, ended)
    assert not found, "\n".join(found)
    assert ended == {"ran"}, ended
