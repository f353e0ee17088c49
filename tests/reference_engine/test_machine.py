"""The card machine in sample mode: runs, traces, runtime errors."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from reference_engine.errors import SimulationError
from reference_engine.registry import Library
from reference_engine.simulate import simulate
from reference_engine.steps import walk


@pytest.mark.parametrize(("x", "y"), list(itertools.product((0, 1), repeat=2)))
@pytest.mark.parametrize("seed", range(4))
def test_six_card_and_outputs(library: Library, x: int, y: int, seed: int) -> None:
    sim = simulate(library, library.protocol("six-card-and"), {}, {"x": x, "y": y}, seed)
    assert sim.outputs == {"and": x & y, "nand": (1 - x) & y}


def test_trace_carries_spec_steps_and_groupings(library: Library) -> None:
    proto = library.protocol("covert-lottery-modified")
    sim = simulate(library, proto, {"m": 3}, ["x=1,0,1"], seed=2)
    top = [e for e in sim.trace.events if not e.call_path]
    spec_steps = {s.number: s for s in walk(proto.steps) if s.number}
    assert {e.step for e in top} == set(spec_steps)
    for e in top:
        if e.step in ("1", "2", "3", "5", "6"):
            assert e.say == spec_steps[e.step].say.text  # type: ignore[union-attr]
    shuffles = [e for e in top if e.action == "shuffle"]
    assert len(shuffles) == 2
    assert all(len(e.detail["piles"]) == 3 and e.detail["size"] == 6 for e in shuffles)
    # the matrix is recorded as 3 rows x 3 columns with a face-down card in every slot after step 1
    after1 = next(e for e in top if e.step == "1").after
    (P,) = [r for r in after1.regions if r["name"] == "P"]
    assert (P["rows"], P["cols"]) == (3, 3)
    assert all(c is not None and not c["up"] for row in P["cells"] for c in row)
    # the AND calls are nested one level deeper and say so
    inner = [e for e in sim.trace.events if e.call_path == ["six-card-and"]]
    assert inner and {e.step for e in inner} == {"1", "2", "3", "4", "5"}
    # loop iterations are recorded
    assert {e.loop.get("i") for e in top if e.step == "4(a)"} == {1, 2, 3}


def test_same_seed_same_trace(library: Library) -> None:
    proto = library.protocol("covert-lottery-modified")
    a = simulate(library, proto, {"m": 4}, ["x=1,1,0,1"], seed=9).to_json()
    b = simulate(library, proto, {"m": 4}, ["x=1,1,0,1"], seed=9).to_json()
    c = simulate(library, proto, {"m": 4}, ["x=1,1,0,1"], seed=10).to_json()
    assert a == b
    assert a != c


def test_lottery_picks_a_valid_card(library: Library) -> None:
    proto = library.protocol("covert-lottery-modified")
    for seed in range(20):
        sim = simulate(library, proto, {"m": 4}, ["x=0,1,0,1"], seed)
        assert sim.outputs["selected"].name in ("c2", "c4")
        assert sim.outputs["found"] is True
    none = simulate(library, proto, {"m": 4}, ["x=0,0,0,0"], 1)
    assert none.outputs["selected"] is None and none.outputs["found"] is False


def test_runtime_errors_name_the_step(tmp_path: Path) -> None:
    text = """\
protocol: oops
title: t
symbols: {alpha: {}, beta: {}}
encodings: {bit: {values: {0: [alpha, beta], 1: [beta, alpha]}}}
inputs: {x: {encoding: bit}}
steps:
  - step: 1
    say: Put x down.
    place: {s: [x]}
  - step: 2
    say: Look at a face-down card to decide.
    if: "s[1] == alpha"
    then: []
"""
    path = tmp_path / "oops.yaml"
    path.write_text(text)
    lib = Library([tmp_path])
    with pytest.raises(SimulationError) as info:
        simulate(lib, lib.protocol(str(path)), {}, {"x": 0}, 0)
    assert info.value.problem is not None
    assert info.value.problem.line == 10
    assert "step 2" in info.value.problem.message and "face down" in info.value.problem.message


def test_helper_limits_are_enforced(variant) -> None:  # type: ignore[no-untyped-def]
    lib = variant("six-card-and", ("helpers: {alpha: 1, beta: 1}", "helpers: {alpha: 0, beta: 1}"))
    with pytest.raises(SimulationError, match="no more α"):
        simulate(lib, lib.protocol("six-card-and"), {}, {"x": 0, "y": 1}, 0)
