"""Enumerating the admissible inputs: by parts, in the same order, and cached safely."""

from __future__ import annotations

import itertools
from pathlib import Path

from reference_engine.machine import Frame, Runner
from reference_engine.registry import Library
from reference_engine.verify import inputs
from reference_engine.verify.inputs import input_assignments

SPEC = """\
protocol: hands
title: hands
params:
  n: {default: 4, min: 2}
symbols:
  he: {}
  cl: {}
encodings:
  num:
    onehot: {length: n, hot: he, cold: cl}
inputs:
  a1: {encoding: num}
  b1: {encoding: num}
  a2: {encoding: num}
  b2: {encoding: num}
admissible: "a1 != a2 and b1 + b2 >= n - 1 and n > 1 {extra}"
steps: []
outputs:
  a: {{cards: a1, encoding: num, equals: a1}}
""".replace("{{", "{").replace("}}", "}")


def frame_of(tmp_path: Path, extra: str = "") -> Frame:
    (tmp_path / "hands.yaml").write_text(SPEC.replace("{extra}", extra), encoding="utf-8")
    lib = Library([tmp_path])
    proto = lib.protocol("hands")
    return Runner(lib, "exact").frame(proto, proto.resolve_params({}))


def brute_force(frame: Frame) -> list[dict[str, int]]:
    names = list(frame.proto.inputs)
    out = []
    admissible = frame.proto.admissible
    assert admissible is not None
    for combo in itertools.product(range(4), repeat=len(names)):
        values = dict(zip(names, combo))
        if admissible(inputs.value_scope(frame, values)):
            out.append(values)
    return out


def test_conditions_on_separate_inputs_are_tried_by_parts_in_the_same_order(tmp_path: Path) -> None:
    """a1/a2 and b1/b2 are separate groups interleaved in the input order; a condition on
    parameters only is tried once. The list is the full product's, in its order."""
    frame = frame_of(tmp_path)
    inputs._CACHE.clear()
    got = input_assignments(frame)
    assert got == brute_force(frame)
    assert len(got) == 12 * 10  # a1 != a2: 12 pairs; b1 + b2 >= 3: 10 pairs
    assert list(got[0]) == ["a1", "b1", "a2", "b2"]


def test_a_condition_joining_the_groups_is_still_honoured(tmp_path: Path) -> None:
    frame = frame_of(tmp_path, "and a1 + b2 == 3")
    inputs._CACHE.clear()
    assert input_assignments(frame) == brute_force(frame)


def test_the_cache_answers_only_for_the_same_spec(tmp_path: Path) -> None:
    """The cache is keyed by the spec's id; a different spec object that got the same id
    (after the first was freed) must not get the first one's inputs."""
    frame = frame_of(tmp_path)
    inputs._CACHE.clear()
    first = input_assignments(frame)
    key = next(iter(inputs._CACHE))
    inputs._CACHE[key] = (object(), [{"a1": 9}])  # as if another spec had held this id
    assert input_assignments(frame) == first
