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

import random
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

from reference_engine.compiled import Program, knockround, placeargs, program_for, pure  # noqa: E402
from reference_engine.compiled import evaluate as ev  # noqa: E402
from reference_engine.errors import KitgenError  # noqa: E402
from reference_engine.machine import ONE, Runner  # noqa: E402
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
    "new-arrows-by-name-from-the-supply": (_before("", "[[c[i], down] for i in 1..m]"), "any"),
    "new-arrows-by-name-in-a-list": (_before("", "[[c[i], [up, down][1 + i % 2]] for i in 1..m]"), "any"),
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


MOVE = '                  U: "[P[2, alive[2 * i - 1]] for i in 1..h]"\n'
FRESH = '                      "P[2, alive[2 * i - 1]]": "new(down)"\n'
HALF = '                  h: "len(alive) // 2"\n'

# The lottery's slide of arrows (4(a), replayed by compiled/pure.py) changed: name -> (old, new).
SLIDES: dict[str, tuple[str, str]] = {
    "a-fresh-arrow-by-the-round": (FRESH, FRESH.replace('"new(down)"', '"new(down) if r == 1 else new(up)"')),
    "a-fresh-arrow-by-a-parameter": (
        FRESH,
        FRESH.replace('"new(down)"', '"new(up) if shuffled == 1 else new(down)"'),
    ),
    "the-right-sleeves-arrow": (MOVE, MOVE.replace("2 * i - 1", "2 * i")),
    "a-match-left-out-by-the-round": (
        HALF,
        HALF.replace("len(alive) // 2", "len(alive) // 2 - (1 if r == 2 else 0)"),
    ),
    "the-arrows-out-in-another-order": (MOVE, MOVE.replace("for i in 1..h]", "for i in 1..h][h - 0..1]")),
    "a-fresh-arrow-up": (FRESH, FRESH.replace('"new(down)"', '"new(up)"')),
    "a-fresh-arrow-indexed-by-the-round": (
        FRESH,
        FRESH.replace('"new(down)"', '"[new(down), new(up)][1 + r % 2]"'),
    ),
    "a-fresh-arrow-indexed-by-a-parameter": (
        FRESH,
        FRESH.replace('"new(down)"', '"[new(down), new(up)][1 + shuffled]"'),
    ),
    "the-round-read-by-the-matches": (HALF, HALF.replace("len(alive) // 2", "(len(alive) + r - r) // 2")),
    "the-right-arrow-in-rounds-2-and-3": (
        MOVE + '              - for: {i: "1..h"}\n                do:\n                  - place:\n' + FRESH,
        (
            MOVE
            + '              - for: {i: "1..h"}\n                do:\n                  - place:\n'
            + FRESH
        ).replace("alive[2 * i - 1]", "alive[2 * i - 1 + (r // 2) % 2]"),
    ),
}


def _ended(runner: Any, program: Any, frame: Any, state: Any) -> tuple[Any, ...]:
    try:
        if program is not None:
            final = program.run(runner, frame, state)
        else:
            (final,) = runner.run(frame, {state: ONE})
    except KitgenError as exc:
        return ("error", type(exc).__name__, str(exc), runner.rng.getstate())
    layout = final.layout
    return (
        "ran",
        [(r.name, r.rows, r.cols, r.sleeve) for r in layout.regions],
        list(final.cells),
        final.out,
        final.env,
        runner.views.expanded(final.view),
        runner.rng.getstate(),
    )


def _game_runs(proto: Any, name: str, tmp: Path, text: str) -> set[str]:
    """Runs one after another on one runner per engine, as a game's turns are (its frames,
    and so the kept effects of pure.py, live on): run for run alike, under CHECKED."""
    library = _library(tmp, name, text)
    proto = library.protocol(name)
    program = program_for(library, proto)
    assert isinstance(program, Program)
    turns = [0]
    context = {"flip": lambda _v: turns[0] % 3 != 1}  # the game's answer, by the turn
    runners = {
        e: Runner(library, "sample", rng=random.Random(7), context=context)
        for e in ("interpreter", "compiled")
    }
    kinds: set[str] = set()
    checked = ev.CHECKED
    ev.CHECKED = True
    try:
        for turn, (m, shuffled) in enumerate(((5, 0), (6, 1), (5, 0), (7, 0), (5, 1), (6, 1), (5, 0)) * 2):
            params: dict[str, Any] = {"m": m, "shuffled": shuffled}
            turns[0] = turn
            got = []
            for engine, runner in runners.items():
                frame = runner.frame(proto, params)
                runner.limits = frame.helpers
                values = _drawn(Runner(library, "sample").frame(proto, params), 3)[turn % 3]
                state = frame.initial_state(values)
                got.append(_ended(runner, program if engine == "compiled" else None, frame, state))
            assert got[0] == got[1], (turn, got[0][:3], got[1][:3])
            kinds.add(str(got[0][0]))
    finally:
        ev.CHECKED = checked
    return kinds


# The order of the sleeves in the running decided by the game (a function of its own, answering
# differently from run to run): ``alive`` differs between runs on the same layout, faces and
# meters, which is what pure.py's key holds besides the variables it reads.
ORDER = (
    '      alive: "[j for j in 1..m]"\n',
    '      alive: "[j for j in 1..m] if flip(1) else [m + 1 - j for j in 1..m]"\n',
)
GAME = ("table: >-\n", "context:\n  flip: {doc: a game's answer}\n\ntable: >-\n")
SLIDES["the-order-by-the-game"] = ORDER
REPLAYED = {
    "the-order-by-the-game",
    "a-fresh-arrow-up",
    "the-round-read-by-the-matches",
    "the-right-arrow-in-rounds-2-and-3",
}


@pytest.mark.parametrize("slide", sorted(SLIDES))
def test_the_lotterys_slide_changed_runs_alike_across_parameters(
    tmp_path: Path, slide: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """compiled/pure.py's replays (and the rest of the fast paths) on a lottery whose 4(a) reads
    the round, a parameter, another sleeve, or slides in another order: both engines alike, run
    for run, with the parameters changed between runs in one process, and in runs one after
    another on one runner (as a game's turns: pure.py's effects kept across them)."""
    old, new = SLIDES[slide]
    assert LOTTERY.count(old) == 1, f"{slide}: the knockout lottery changed; update the mutant"
    name = f"lottery-slide-{slide}"
    text = LOTTERY.replace(old, new, 1).replace("protocol: knockout-lottery", f"protocol: {name}")
    if slide == "the-order-by-the-game":
        text = text.replace(*GAME, 1)
    replayed: list[int] = []
    run = pure.Pure.run
    # pure.py alone is under test: a knockout round runs as its steps (a direct round,
    # knockround.py, would carry the lottery's own slide out itself, and under CHECKED run the
    # round twice from one table, its second slide meeting the key the first just kept).
    monkeypatch.setattr(knockround.Round, "run", lambda self, r: self.run_block(r, self.then))

    def counted(self: pure.Pure, r: Any) -> None:
        hits = self.hits
        run(self, r)
        replayed.append(self.hits - hits)

    monkeypatch.setattr(pure.Pure, "run", counted)
    kinds, compared = _runs(name, text, tmp_path)
    assert compared >= 12 and kinds, kinds
    kinds = _game_runs(_library(tmp_path, name, text).protocol(name), name, tmp_path, text)
    assert kinds, kinds
    # pure.py replays the slides it takes (in the game-like runs: one runner, frames kept) and
    # refuses the others (a conditional, a list of new cards indexed): either way run alike.
    # In this lottery ``alive`` follows from the layout's holes and ``r`` from the meters; the
    # game's order (the-order-by-the-game) is what puts the key's variables to the test: a key
    # without them replays another run's order (Mismatch).
    assert bool(sum(replayed)) == (slide in REPLAYED), (slide, sum(replayed))
