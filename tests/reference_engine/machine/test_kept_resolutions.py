"""What an exact run keeps per value object (machine/actions/shuffling.py ``_piles``,
machine/actions/layout.py ``_res_kept``): a shuffle's checked piles and a place's cards, worked
out once for every table whose public value is the same object. Hostile specs: the piles and
the cards placed change with a card turned up (two values on one layout), and the piles overlap
on some tables only (a refusal, never kept). Each gives the report, or the error, of the run
that keeps nothing, with every kept answer computed again and compared (compiled path checks on).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from reference_engine.api import Library, SimulationError, verify
from reference_engine.compiled import evaluate
from reference_engine.machine.actions import layout, shuffling
from reference_engine.machine.plans import _res

HEAD = """
protocol: kp
title: test
symbols:
  alpha: {glyph: "α"}
  beta: {glyph: "β"}
encodings:
  bit: {values: {0: [alpha, beta], 1: [beta, alpha]}}
"""

# The first card of x shown, then a shuffle and a place that depend on it: on one layout, two
# piles values and two placed values (one per face seen), each met on two tables (v's two orders).
BODY = """
inputs:
  x: {encoding: bit}
steps:
  - step: 1
    say: lay out, and mix two cards apart
    place:
      s: "[x, new(alpha), new(beta), new(alpha), new(beta)]"
      v: "[new(alpha), new(beta)]"
  - step: 2
    say: mix
    shuffle:
      scramble: "[v[1], v[2]]"
  - step: 3
    say: look, then mix and lay out by what was seen
    do:
      - turn: "v[1]"
      - turn: "s[1]"
      - let:
          k: "1 if s[1] == alpha else 2"
      - shuffle:
          scramble: "[s[1 + k], s[5]]"
      - place:
          t: "[new(alpha), new(beta)] if k == 1 else [new(beta), new(alpha)]"
      - turn: t
      - discard: t
      - turn: "s[3..5]"
      - discard: s
      - turn: "v[2]"
      - discard: v
outputs: {}
"""

# The piles overlap (s[4] twice) only where the first card shows β.
OVERLAP = BODY.replace('scramble: "[s[1 + k], s[5]]"', 'scramble: "[s[2 + k], s[4]]"')


def _nothing_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every table's piles and placed cards worked out afresh (the general path)."""

    def piles(run: Any, frame: Any, step: Any, state: Any, ev: Any) -> Any:
        return shuffling._piles_of(step, state, ev.public(step.piles, state))

    monkeypatch.setattr(shuffling, "_piles", piles)
    monkeypatch.setattr(layout, "_res_kept", lambda run, value, what: _res(value, what))


def _report(tmp_path: Path, body: str) -> dict[str, Any]:
    (tmp_path / "kp.yaml").write_text(HEAD + body, encoding="utf-8")
    lib = Library([tmp_path])
    data: dict[str, Any] = verify(lib, lib.protocol("kp")).to_json()
    data["stats"] = {k: v for k, v in data["stats"].items() if k != "seconds"}
    return data


def test_piles_and_cards_that_change_with_a_card_seen_give_the_general_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(evaluate, "CHECKED", True)
    kept = _report(tmp_path, BODY)
    assert kept["checks"][1]["name"] == "secure" and not kept["checks"][1]["ok"]  # x's first card shown
    _nothing_kept(monkeypatch)
    assert _report(tmp_path, BODY) == kept


def test_piles_that_overlap_on_some_tables_are_refused_as_without_keeping(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(evaluate, "CHECKED", True)
    with pytest.raises(SimulationError, match="the piles overlap") as kept:
        _report(tmp_path, OVERLAP)
    _nothing_kept(monkeypatch)
    with pytest.raises(SimulationError) as general:
        _report(tmp_path, OVERLAP)
    assert str(kept.value) == str(general.value)
