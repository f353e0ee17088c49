"""Hostile reviews of the discard and the ``if exists('X')`` return after it carried out as one
plan (reference_engine/compiled/deferred.py): attacks that held, kept. Owners that read the
table by a name's string or name a region as a hand, returns that fail after the discard is
counted, the limit of steps falling between the two steps, two compiled programs of the same
protocol's steps run in turns; and the landings a sleeve step's plan keeps (plans.build_sleeve).
Each run is compared with the interpreter's, run for run, with ``evaluate.CHECKED``."""

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
from siblings import sibling  # noqa: E402
from test_differential import _assignments  # noqa: E402
from test_fused import _compare, _library  # noqa: E402
from test_fused_tail import ARROW  # noqa: E402

from reference_engine.compiled import compile_protocol, ops, pure  # noqa: E402
from reference_engine.compiled import evaluate as ev  # noqa: E402
from reference_engine.compiled import run as compiled_run  # noqa: E402
from reference_engine.compiled.plans import Defer, build_sleeve  # noqa: E402
from reference_engine.machine import ONE, Plan, Runner  # noqa: E402
from reference_engine.machine import runner as machine_runner  # noqa: E402
from reference_engine.machine.plans import landings  # noqa: E402
from reference_engine.registry import Library  # noqa: E402
from reference_engine.sleeves import SleeveFrame, SleeveOp  # noqa: E402
from reference_engine.table import Layout  # noqa: E402

_deferred = sibling("test_deferred")  # this folder's, never machine's (siblings)
TAIL: str = _deferred.TAIL
_count = _deferred._count


def _to(text: str) -> str:
    return TAIL.replace("to: 1", f"to: {text}")


# name -> (TAIL replaced by, whether the two are one plan, what the run is refused for)
ATTACKS: dict[str, tuple[str, bool, str | None]] = {
    # exists() reads the table by a string: not a function of variables alone, never one plan
    "owners-test-it-by-its-name": (_to("\"1 if exists('L') else 2\""), False, None),
    # a hand named as the region going: on the table before the discard it is not a hand
    "owners-a-hand-named-as-it": (_to("\"'L'\""), False, None),
    "owners-the-region-returned": (
        _to("\"'unselected'\""),
        False,
        "'unselected' is on the table but is not a hand",
    ),
    "owners-another-region": (_to("\"'M'\""), False, "'M' is on the table but is not a hand"),
    "owners-a-hand-by-name": (_to("\"'hand1'\""), True, None),
    "owners-a-hand-by-a-string": (_to("\"'a'\""), True, None),
    "owners-hand-zero": (_to("0"), True, None),
    "owners-a-constant-list": (_to('"len([1])"'), True, None),
    # errors of the return after the discard is counted: each step's own message
    "owners-true": (_to("true"), False, "a hand is an owner number or a name, not True"),
    "owners-too-few": (_to('"[1]"'), True, "return: 2 cards but 1 owners"),
    "owners-bind-the-region-gone": (
        _to('"[1 for L in unselected[1, *]]"'),
        False,
        "is face down: a decision may only use face-up cards",
    ),
    "cards-of-the-region-gone": (
        TAIL.replace('cards: "unselected[1, *]"', 'cards: "L[2, *]"'),
        False,
        "unknown name 'L'",
    ),
    "cards-a-row-past-the-region": (
        TAIL.replace("unselected[1, *]", "unselected[2, *]"),
        False,
        "is out of range",
    ),
    "a-hand-tested": (TAIL.replace("exists('unselected')", "exists('hand1')"), False, None),
    "a-range-discarded": (TAIL.replace("L[2, *]", "L[2..2, *]"), False, None),
    # what the view records: a sleeve showing a card (refused), cards face up going and returned
    "a-sleeve-shows-a-card": ("      - sleeve: {unselected: front}\n" + TAIL, False, "lies front up"),
    "a-card-of-the-row-gone-face-up": ('      - turn: "L[2, 1]"\n' + TAIL, True, None),
    "the-row-gone-face-up": ('      - turn: "L[2, *]"\n' + TAIL, True, None),
    "the-cards-returned-face-up": ('      - turn: "unselected[1, *]"\n' + TAIL, True, None),
    "a-step-between": (
        TAIL.replace("      - if:", "      - let:\n          gone: \"exists('L')\"\n      - if:", 1),
        False,
        None,
    ),
}


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_hostile_tails_run_as_the_interpreter(
    tmp_path: Path, attack: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    new, fused, refused = ATTACKS[attack]
    assert TAIL in ARROW, "the default protocol changed; update the attacks"
    name = f"arrow-defer-{attack}"
    text = ARROW.replace(TAIL, new, 1).replace("protocol: card-selection-arrow", f"protocol: {name}")
    made = _count(monkeypatch)
    result = _compare(_library(tmp_path, name, text), name, seeds=3)
    if refused is None:
        assert result[0] == "ran", result[:3]
    else:
        assert result[0] == "error" and refused in result[2], result[:3]
    assert bool(made["return"]) == fused, (attack, made)


def test_the_limit_of_steps_between_the_discard_and_the_return(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every limit of steps up to the run's length, one of them falling just after the discard
    (counted, its table change left to the return): the same error, then the next run with the
    same program as the interpreter's."""
    library = Library()
    proto = library.protocol("card-selection-arrow")
    st, assignments = _assignments(library, "card-selection-arrow", 1)
    made = _count(monkeypatch)
    ended = []
    for limit in range(200):
        for module in (machine_runner, ops, pure, compiled_run):
            monkeypatch.setattr(module, "MAX_RUN_STEPS", limit)
        a = runs.single(library, proto, st.params, assignments[0], 0, "interpreter", st.context or None)
        b = runs.single(library, proto, st.params, assignments[0], 0, "compiled", st.context or None)
        assert a == b, (limit, a[:3], b[:3])
        ended.append(a[0])
        if a[0] == "ran":
            break
    assert ended[-1] == "ran" and ended.count("error") > 10, ended
    assert made["return"] > 1, made  # taken in runs that ended past it, and in the one that ran


def test_two_programs_of_the_same_steps_run_in_turns() -> None:
    """The return's waiting op is found by its step: two programs compiled from the same steps
    each keep their own, and runs of the two in turns are the interpreter's."""
    library = Library()
    proto = library.protocol("card-selection-arrow")
    st, assignments = _assignments(library, "card-selection-arrow", 2)
    one, two = compile_protocol(library, proto), compile_protocol(library, proto)
    checked = ev.CHECKED
    ev.CHECKED = True
    try:
        for seed in range(3):
            for values in assignments:
                outcomes: list[Any] = []
                for engine in (None, one, two, one):
                    runner = Runner(library, "sample", rng=random.Random(seed), context=st.context or None)
                    frame = runner.frame(proto, st.params)
                    runner.limits = frame.helpers
                    state = frame.initial_state(values)
                    if engine is None:
                        (final,) = runner.run(frame, {state: ONE})
                    else:
                        final = engine.run(runner, frame, state)
                    outcomes.append((final, runner.rng.getstate()))
                assert outcomes[1:] == [outcomes[0]] * 3, (seed, values)
    finally:
        ev.CHECKED = checked


def test_a_sleeve_steps_landings_kept_on_its_plan_are_the_general_ones() -> None:
    """plans.build_sleeve keeps on its plan the cards its rows slide out (the landings): random
    walks of sleeve steps (sides, rows out and in, several regions, a hand) give the answer
    that the general way (machine.plans.landings on a plan without it) finds."""
    frame = SleeveFrame(declared=(2, 1, 3), rows=(2, 1, 3), front=frozenset({1, 3}), keeps=frozenset({2}))
    rng = random.Random(37)
    built = slid = 0
    for _ in range(500):
        regions: list[tuple[str, int, int, int, str | None, SleeveFrame | None]] = [
            (name, 3, rng.randint(1, 3), 1, None, frame) for name in ("A", "B", "C")[: rng.randint(1, 3)]
        ]
        layout = Layout.make([*regions, ("H", 1, 2, 1, "H", None)], [])
        for _ in range(6):
            ops = []
            for reg in layout.regions:
                if reg.sleeve is None or rng.random() < 0.4:
                    continue
                rows = tuple(sorted(rng.sample([1, 2, 3], rng.randint(1, 2))))
                kind = rng.random()
                if kind < 0.3:
                    ops.append(SleeveOp(reg.name, side=rng.choice(["front", "back"])))
                elif kind < 0.65:
                    ops.append(SleeveOp(reg.name, out=rows))
                else:
                    ops.append(SleeveOp(reg.name, into=rows))
            try:
                plan = build_sleeve(layout, tuple(ops))
            except Defer:
                continue  # the interpreter's builder, for its message
            kept = landings(plan, layout)
            assert kept == landings(Plan(plan.layout, plan.src, plan.returned, plan.delta), layout), ops
            built += 1
            slid += bool(kept)
            layout = plan.layout
    assert built > 1000 and slid > 300, (built, slid)
