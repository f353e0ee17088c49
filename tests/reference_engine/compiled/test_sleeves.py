"""The compiled path against the interpreter on sleeves (``sleeve:``), up-down cards
(``rotate:``) and shuffles done by several people at once (``spin``): the kits' sleeved quick
protocol and mutants of it that break a sleeve's rule (each must be refused, alike, at the same
step), and a small spec of up-down cards. Run for run, with every fast value and plan checked."""

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

from reference_engine.compiled import Program, program_for  # noqa: E402
from reference_engine.registry import Library, rulesets_dir  # noqa: E402

QUICK = (rulesets_dir() / "protocols" / "card-selection-fast.yaml").read_text(encoding="utf-8")

# name -> (text replaced, replacement, what the run must be refused for; None: it runs)
MUTANTS: dict[str, tuple[str, str, str | None]] = {
    "slides-out-before-turning": (
        '      - turn: "M[2, *]"\n      - sleeve: {M: {out: [2]}}\n',
        '      - sleeve: {M: {out: [2]}}\n      - turn: "M[2, *]"\n',
        "so it lands face up, but the protocol has it face down",
    ),
    "shows-before-turning": (
        '      - turn: "M[1, *]"\n      - sleeve: {M: front}\n',
        '      - sleeve: {M: front}\n      - turn: "M[1, *]"\n',
        "so the table sees it, but the protocol has it face down",
    ),
    "reads-through-the-back": (
        '      - turn: "M[1, *]"\n      - sleeve: {M: front}\n',
        '      - turn: "M[1, *]"\n',
        "is in a sleeve lying back up: a decision may only use cards it sees",
    ),
    "mixes-cards-not-sleeves": (
        '      scramble: "columns(M)"\n      uses: sleeve\n',
        '      scramble: "M[1, *]"\n      uses: sleeve\n',
        "a sleeve is mixed whole",
    ),
    "owner-card-never-out": (
        "      - sleeve: {M: {out: [2]}}\n",
        "",
        "is in a sleeve lying back up: a decision may only use cards it sees",
    ),
    "owner-card-leaves-alone": (
        '      - discard: "M[3..4, *]"\n',
        '      - sleeve: {M: {in: [2]}}\n      - discard: "M[2, *]"\n      - discard: "M[3..4, *]"\n',
        "lives in its sleeve (keeps), so it goes only with the sleeve",
    ),
    "slides-in-twice": (
        "      - sleeve: {M: {in: [2]}}\n",
        "      - sleeve: {M: {in: [2]}}\n      - sleeve: {M: {in: [2]}}\n",
        "is already inside its sleeves",
    ),
    "owner-cards-discarded-loose": ("      - sleeve: {M: {in: [2]}}\n", "", None),
}

ARROWS = """\
protocol: arrows-mini
title: Up-down cards turned round and spun
summary: Up-down cards given half turns, alone and by the row (a test of the compiled path).
source:
  cite: "kitgen tests"
symbols:
  up: {glyph: "▲", rotated: down, doc: "pointing up"}
  down: {glyph: "▼", rotated: up, doc: "pointing down"}
  c: {family: true, glyph: "#{}", doc: "candidates"}
encodings:
  arrow:
    values: {0: [down], 1: [up]}
    doc: "one up-down card"
  card:
    label: c
    doc: a card
inputs:
  c: {encoding: card, count: 4, doc: "cards"}
  x: {encoding: arrow, count: 4, doc: "arrows"}
steps:
  - step: 1
    say: "Spin each pair of arrows on its mat."
    shuffle:
      spin: "[[x[1, 1], x[1, 2]], [x[1, 3], x[1, 4]]]"
  - step: 2
    say: "Turn two round, look, turn those pointing up round."
    do:
      - rotate: "x[1, 1..2]"
      - turn: "x[1, *]"
      - rotate: "[x[1, j] for j in 1..4 if x[1, j] == up]"
      - let:
          n: "len([j for j in 1..4 if x[1, j] == up])"
      - turn: "x[1, *]"
      - rotate: "x[1, 3]"
      - discard: "x[1, *]"
      - discard: "c[1, *]"
outputs:
  ups:
    value: "n"
    public: true
    doc: how many arrows point up at the end
"""


def _library(tmp: Path, name: str, text: str) -> Library:
    (tmp / f"{name}.yaml").write_text(text, encoding="utf-8")
    return Library([tmp, rulesets_dir() / "protocols"])


def _compare(library: Library, name: str, seeds: int = 3) -> list[tuple[Any, ...]]:
    """Both engines run for run (their differences asserted away); the interpreter's runs."""
    proto = library.protocol(name)
    program = program_for(library, proto)
    assert isinstance(program, Program), program
    st, assignments = _assignments(library, name, 3)
    found = runs.differences(library, proto, st.params, assignments, range(seeds), st.context or None)
    assert not found, "\n".join(found)
    return [runs.single(library, proto, st.params, assignments[0], 0, "interpreter", st.context or None)]


@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_a_broken_sleeve_is_refused_alike(tmp_path: Path, mutant: str) -> None:
    old, new, refused = MUTANTS[mutant]
    assert old in QUICK, f"{mutant}: the quick protocol changed; update the mutant"
    name = f"quick-{mutant}"
    text = QUICK.replace(old, new, 1).replace("protocol: card-selection-fast", f"protocol: {name}")
    (result,) = _compare(_library(tmp_path, name, text), name)
    if refused is None:
        assert result[0] == "ran", result[:3]
    else:
        assert result[0] == "error" and refused in result[2], result[:3]


def test_the_quick_protocol_runs_alike_on_many_seeds(tmp_path: Path) -> None:
    library = Library()
    _compare(library, "card-selection-fast", seeds=8)
    _compare(library, "covert-lottery-fast", seeds=8)


def test_up_down_cards_and_spins_run_alike(tmp_path: Path) -> None:
    (result,) = _compare(_library(tmp_path, "arrows-mini", ARROWS), "arrows-mini", seeds=8)
    assert result[0] == "ran"


def test_a_half_turn_of_an_empty_place_is_refused_alike(tmp_path: Path) -> None:
    text = ARROWS.replace(
        '      - discard: "x[1, *]"\n', '      - move: {y: "x[1, 3]"}\n      - rotate: "x[1, 3]"\n'
    )
    text = text.replace('      - discard: "c[1, *]"\n', '      - discard: "c[1, *]"\n      - discard: y\n')
    (result,) = _compare(_library(tmp_path, "arrows-mini", text), "arrows-mini")
    assert result[0] == "error" and "rotate: x[3] is empty" in result[2], result[:3]
