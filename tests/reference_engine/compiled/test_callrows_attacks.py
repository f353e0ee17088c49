"""Hostile reviews of a call's plan kept by its form (reference_engine/compiled/callrows.py) and
of the argument checks the compiled call now skips (a row whose sleeves let its cards out face
down): mutants of the default protocol's Step 10 (the knockout lottery on ``L``'s rows) whose
arguments are other rows, rows of another region at another offset, a row taken twice, the
bottom row first, rows of sleeves lying front up or slid out, results into a region already on
the table or one name twice. Each run is compared with the interpreter's, run for run, with
``evaluate.CHECKED`` (every placed plan against the reference plan); whether the plan by form
was used is asserted where the form admits it."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
for folder in (HERE, HERE.parent):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from test_fused import _compare, _library  # noqa: E402
from test_fused_tail import ARROW  # noqa: E402

from reference_engine.compiled import callrows  # noqa: E402

ARGS = 'c: "L[1, *]", x: "L[3, *]"'
CALL = """      - call: knockout-lottery
        params: {m: "ncols(L)", shuffled: 1}
        with: {c: "L[1, *]", x: "L[3, *]"}
        results: {selected: played, rest: unselected, found: found}
"""

# name -> (CALL replaced by, whether the plan by form is used, what the run is refused for)
MUTANTS: dict[str, tuple[str, bool | None, str | None]] = {
    "as-written": (CALL, True, None),
    # the bottom row first: it goes, row 1 stays as empty places
    "bottom-row-first": (CALL.replace(ARGS, 'c: "L[3, *]", x: "L[1, *]"'), True, None),
    # one row taken twice: no form (call_rows refuses it); the general plan
    "a-row-twice": (CALL.replace('x: "L[3, *]"', 'x: "L[1, *]"'), False, None),
    # the owner cards' row taken with the candidates: its cards would come out of their sleeves
    # face up (the row's sleeves face it to the back): the checker's message, not skipped
    "the-owner-row": (
        CALL.replace('x: "L[3, *]"', 'x: "L[2, *]"'),
        False,
        "would come out of its sleeve face up",
    ),
    # the sleeves laid front up (their frontmost row, the arrows, turned up first): the
    # candidates, facing the front, would come out face up
    "sleeves-front-up": (
        '      - turn: "L[3, *]"\n      - sleeve: {L: front}\n' + CALL,
        False,
        "would come out of its sleeve face up",
    ),
    # the candidates' row slid out of the sleeves first: no sleeve check for it
    "row-slid-out": ("      - sleeve: {L: {out: [1]}}\n" + CALL, None, None),
    # another region's rows, at another offset (M: the grid before L)
    "rows-of-M": (
        CALL.replace('m: "ncols(L)"', 'm: "ncols(M)"').replace(ARGS, 'c: "M[1, *]", x: "M[3, *]"'),
        None,
        None,
    ),
    # a result into a region already on the table: no form
    "result-into-M": (CALL.replace("selected: played", "selected: M"), False, None),
    # two results into one name: no form
    "one-name-twice": (CALL.replace("selected: played", "selected: unselected"), False, None),
    # a result named by an expression (a string): resolved as its name
    "result-by-a-string": (CALL.replace("selected: played", "selected: \"'played'\""), None, None),
}


def _count_forms(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    made: Counter[str] = Counter()
    apply = callrows.Rows.apply

    def counted(self: callrows.Rows, *args: Any) -> Any:
        made["rows"] += 1
        return apply(self, *args)

    monkeypatch.setattr(callrows.Rows, "apply", counted)
    return made


@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_a_call_by_form_is_the_interpreters_call(
    tmp_path: Path, mutant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    new, by_form, refused = MUTANTS[mutant]
    assert CALL in ARROW, "the default protocol changed; update the mutants"
    name = f"arrow-call-{mutant}"
    text = ARROW.replace(CALL, new, 1).replace("protocol: card-selection-arrow", f"protocol: {name}")
    made = _count_forms(monkeypatch)
    result = _compare(_library(tmp_path, name, text), name, seeds=4)
    if refused is None:
        assert result[0] in ("ran", "error"), result[:3]
    else:
        assert result[0] == "error" and refused in result[2], result[:3]
    if by_form is not None:
        assert bool(made["rows"]) == by_form, (mutant, made)


UNSELECTED = "  unselected: {rows: [1], front: [1]}\n"
REVERSED = 'x: "[L[3, ncols(L) + 1 - j] for j in 1..ncols(L)]"'


@pytest.mark.parametrize("by_rows", [True, False])
def test_a_results_sleeves_refused_at_the_call_name_the_step(
    tmp_path: Path, by_rows: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Attack (w49-attack): the result's region in sleeves that do not declare its row. The
    interpreter refuses the call with the step named (a SimulationError at Step 10); the
    compiled call raised the table's bare EvalError from its plan (by form, or the general one
    where an argument is no whole row in order), on main too."""
    assert UNSELECTED in ARROW and CALL in ARROW
    name = f"arrow-call-sleeve-{by_rows}"
    call = CALL if by_rows else CALL.replace('x: "L[3, *]"', REVERSED)
    text = (
        ARROW.replace(UNSELECTED, "  unselected: {rows: [2], front: [2]}\n", 1)
        .replace(CALL, call, 1)
        .replace("protocol: card-selection-arrow", f"protocol: {name}")
    )
    made = _count_forms(monkeypatch)
    result = _compare(_library(tmp_path, name, text), name, seeds=3)
    assert result[:2] == ("error", "SimulationError"), result[:3]
    assert "step 10: unselected has 1 rows, but its sleeves" in result[2], result[2]
    assert not made["rows"]  # refused before any plan by form is placed


MIDDLE = """protocol: w49-mid
title: a call of the knockout lottery from inside a called protocol
summary: passes its candidates on, whole rows of its own input regions, and hands the results back
params:
  m: {default: 3, min: 1, doc: number of candidate cards}
  shuffled: {default: 0, min: 0, max: 1, doc: passed on}
symbols:
  up: {glyph: "▲", rotated: down, doc: "yes"}
  down: {glyph: "▼", rotated: up, doc: "no"}
  c: {family: true, glyph: "#{}", doc: "the candidate cards"}
encodings:
  arrow:
    values: {0: [down], 1: [up]}
    doc: "one up-down card"
  card:
    label: c
    doc: an arbitrary face-down card
inputs:
  c: {encoding: card, count: m, doc: "the candidates"}
  x: {encoding: arrow, count: m, doc: "their arrows"}
steps:
  - step: 1
    say: the lottery
    call: knockout-lottery
    params: {m: "m", shuffled: "shuffled"}
    with: {c: "c[1, *]", x: "x[1, *]"}
    results: {selected: s, rest: r, found: f}
outputs:
  selected:
    cards: s
    encoding: card
    doc: the selected card
  found:
    public: true
    value: "f"
    doc: whether a card was selected
  rest:
    cards: "r[1, *]"
    encoding: cards
    doc: the others
"""


def test_a_call_by_form_inside_a_called_protocol(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nested calls: Step 10 calls a protocol that calls the knockout lottery on whole rows of
    its own input regions (at offsets 0 and m of its table) and hands the results back; run for
    run the interpreter's, with the plans by form checked at every call."""
    (tmp_path / "w49-mid.yaml").write_text(MIDDLE, encoding="utf-8")
    name = "arrow-call-nested"
    text = ARROW.replace("      - call: knockout-lottery\n", "      - call: w49-mid\n", 1).replace(
        "protocol: card-selection-arrow", f"protocol: {name}"
    )
    made = _count_forms(monkeypatch)
    result = _compare(_library(tmp_path, name, text), name, seeds=4)
    assert result[0] == "ran", result[:3]
    assert made["rows"], made
