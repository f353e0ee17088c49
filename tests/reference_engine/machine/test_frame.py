"""The interpreter's evaluator (reference_engine/machine/frame.py): in sample mode, results kept
from run to run by a game (``constants``) are keyed by exactly what they depend on."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from reference_engine.machine import ONE, Runner
from reference_engine.registry import Library, rulesets_dir
from reference_engine.verify import setting

BOOL = """\
protocol: frame-bool
title: A value kept by the variables that tells 1 from true
summary: str(k) with k 1, then true, the other variables alike
params:
  sizes: {default: [1], min: 0, doc: sizes}
symbols:
  alpha: {glyph: "α"}
  beta: {glyph: "β"}
encodings:
  card: {values: {0: [alpha], 1: [beta]}, doc: a card}
inputs:
  cards: {encoding: card, count: "sum(sizes)", groups: sizes, doc: cards}
steps:
  - step: 1
    say: none yet
    let: {s: "''", out: "['1']"}
  - step: 2
    say: twice
    for: {k: "[1, 1 == 1]"}
    do:
      - let: {s: "str(k)"}
      - let: {out: "[s]"}
      - let: {s: "''"}
outputs:
  out: {public: true, value: "out"}
"""


def test_kept_constants_tell_1_from_true(tmp_path: Path) -> None:
    """Attack (w37-attack4): a game's constants were keyed by the state's variables, and
    ((k, 1),) == ((k, True),) in Python: with them, ``str(k)`` in the second round gave "1"
    where a run without them gives "True"."""
    (tmp_path / "frame-bool.yaml").write_text(BOOL, encoding="utf-8")
    library = Library([tmp_path, rulesets_dir() / "protocols"])
    proto = library.protocol("frame-bool")
    st = setting(proto)
    got = []
    for constants in (None, {}):
        runner = Runner(library, "sample", rng=random.Random(0))
        runner.shared.constants = constants
        frame = runner.frame(proto, st.params)
        (final,) = runner.run(frame, {frame.initial_state({"cards": [0]}): ONE})
        got.append(repr(runner.views.expanded(final.view)))
    assert "('s', 'True')" in got[0]
    assert got[1] == got[0]


def test_a_game_argument_reads_faces_through_the_game_and_restores_the_depth() -> None:
    """game_argument enters DEALT's through-the-game depth inline: one deeper while a value is
    read (in a list, each item one deeper again), back where it was after, an error too."""
    from reference_engine.cards import DEALT
    from reference_engine.expressions import Value
    from reference_engine.machine.frame import game_argument

    seen: list[int] = []

    class Probe(Value):
        def kg_value(self) -> object:
            seen.append(DEALT.depth)
            return 7

    class Broken(Value):
        def kg_value(self) -> object:
            raise RuntimeError("a face that cannot be read")

    before = DEALT.depth
    assert game_argument(Probe()) == 7 and seen == [before + 1]
    assert game_argument([Probe(), [Probe()], 3]) == [7, [7], 3] and seen[1:] == [before + 2, before + 3]
    assert DEALT.depth == before
    with pytest.raises(RuntimeError):
        game_argument([1, Broken()])
    assert DEALT.depth == before
