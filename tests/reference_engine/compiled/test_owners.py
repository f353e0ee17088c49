"""A row of a family's cards by owner sizes laid out at once (compiled/owners.py): both engines
run for run on sizes with empty owners, the row laid out as one group or a card per column, the
sizes read through a variable, values the general path refuses, and near misses."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

folder = str(Path(__file__).parent)
if folder not in sys.path:
    sys.path.insert(0, folder)

import runs  # noqa: E402
from test_differential import _drawn  # noqa: E402

from reference_engine import steps as st_  # noqa: E402
from reference_engine.compiled import owners  # noqa: E402
from reference_engine.compiled.evaluate import Expr  # noqa: E402
from reference_engine.machine import Runner  # noqa: E402
from reference_engine.registry import Library, rulesets_dir  # noqa: E402

OWNERS = """\
protocol: owners-mini
title: An owner card under each card
summary: An owner card under each card, by its owner (a test of the compiled path).
source:
  cite: "kitgen tests"
params:
  sizes:
    default: [2, 1, 2]
    min: 0
    doc: the number of cards of each owner
symbols:
  theta: {family: true, glyph: "θ{}", doc: "owner cards"}
  k: {family: true, glyph: "#{}", doc: "candidates"}
encodings:
  card:
    label: k
    doc: a card
inputs:
  cards: {encoding: card, count: "sum(sizes)", groups: sizes, doc: "cards"}
steps:
  - step: 1
    say: "Lay the cards out, face down."
    place:
      M: [cards]
  - step: 2
    say: "Let the sizes be."
    let:
      s: "SIZES"
      t: "sizes[1] % 3"
  - step: 3
    say: "An owner card under each card."
    place:
      "M[2, *]": VALUE
    face: up
  - step: 4
    say: "Turn them down and mix the columns."
    do:
      - turn: "up()"
      - shuffle:
          scramble: "columns(M)"
  - step: 5
    say: "Turn the second row up."
    turn: "M[2, *]"
outputs:
  row:
    value: "[M[2, j] for j in 1..ncols(M)]"
    public: true
    doc: the owner cards, in the columns' order
"""

ROW = '"[new(theta(i)) for i in 1..len(S) for c in 1..S[i]]"'
COLUMNS = '{columns: "[new(theta(i)) for i in 1..len(S) for c in 1..S[i]]"}'


def _library(tmp: Path, value: str, sizes: str = "sizes") -> Library:
    text = OWNERS.replace("VALUE", value.replace("S", "s")).replace("SIZES", sizes)
    (tmp / "owners-mini.yaml").write_text(text, encoding="utf-8")
    return Library([tmp, rulesets_dir() / "protocols"])


@pytest.fixture
def taken(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each call of the fast path laid the row out (True) or left it (False)."""
    seen: list[bool] = []
    call = owners.OwnerRow.__call__

    def spy(self: Any, *args: Any) -> Any:
        got = call(self, *args)
        seen.append(got is not None)
        return got

    monkeypatch.setattr(owners.OwnerRow, "__call__", spy)
    return seen


def _compare(library: Library, sizes: list[int], seeds: int = 3) -> set[str]:
    proto = library.protocol("owners-mini")
    params = {"sizes": tuple(sizes)}
    values = _drawn(Runner(library, "sample").frame(proto, params), 2)
    kinds: set[str] = set()
    found = runs.differences(library, proto, params, values, range(seeds), kinds=kinds)
    assert not found, "\n".join(found)
    return kinds


SIZES = [[2, 1, 2], [0, 3, 1], [3, 0, 0, 2], [1], [4, 4, 0], [2, 1, 2]]


@pytest.mark.parametrize("value", [ROW, COLUMNS])
@pytest.mark.parametrize("sizes", ["sizes", "[x for x in sizes]"])
def test_owner_rows_run_alike(tmp_path: Path, taken: list[bool], value: str, sizes: str) -> None:
    """Sizes with empty owners, the row as one group or a card per column, the sizes as a
    parameter's tuple or a variable's list: the compiled run is the interpreter's, and the
    fast path lays the row out once a plan is kept for the layout."""
    library = _library(tmp_path, value, sizes)
    for s in SIZES:
        assert _compare(library, s) == {"ran"}
    assert taken.count(True) > len(taken) // 2, taken


@pytest.mark.parametrize(
    "sizes",
    [
        "[sizes[1], 'a']",  # not whole numbers: the general path's error
        "[true for x in sizes]",  # booleans
        "[0 for x in sizes]",  # no card at all (a place of nothing)
        "[-1] + [x for x in sizes]",  # a negative size
    ],
)
def test_values_it_refuses_are_left_to_the_general_path(
    tmp_path: Path, taken: list[bool], sizes: str
) -> None:
    """Attack: sizes the fast path must not lay out (the general path says what it does with
    them, on both engines alike)."""
    library = _library(tmp_path, ROW, sizes)
    for s in ([2, 1], [1, 3]):
        _compare(library, s, seeds=2)
    assert not any(taken), taken


@pytest.mark.parametrize(
    "value",
    [
        '"[new(theta(c)) for i in 1..len(S) for c in 1..S[i]]"',  # the element reads c
        '"[new(theta(i)) for i in 1..len(S) for c in 1..S[1]]"',  # not S[i]
        '"[new(theta(i)) for i in 0..len(S) for c in 1..S[i + 1]]"',  # not from 1
        '"[new(theta(i)) for i in 1..len(S) for c in 1..S[i] if c > 1]"',  # a condition
        '"[new(theta(i)) for i in 1..ncols(M) for c in 1..S[i]]"',  # not len(S)
    ],
)
def test_near_misses_are_not_matched(tmp_path: Path, value: str) -> None:
    library = _library(tmp_path, value)
    proto = library.protocol("owners-mini")
    place = next(s for s in proto.steps if s.number == "3")
    assert isinstance(place, st_.Place)
    _, form, items = place.targets[0]
    assert owners.OwnerRow.match(Expr(items, proto), form) is None
    for s in ([2, 1, 2], [1, 3]):
        _compare(library, s, seeds=2)


def test_two_cards_an_owner_and_the_default_protocol(tmp_path: Path, taken: list[bool]) -> None:
    """Attack: two new cards per owner make a row twice as long as the place (the general path
    refuses it, kept as such: the fast path finds no plan and leaves it), on both engines
    alike; card-selection-arrow's step 2 is of the shape."""
    library = _library(tmp_path, '"[new(theta(i), theta(i + 1)) for i in 1..len(S) for c in 1..S[i]]"')
    for s in SIZES:
        assert _compare(library, s, seeds=2) == {"error SimulationError"}
    assert taken and not any(taken)
    arrow = Library().protocol("card-selection-arrow")
    step2 = next(s for s in arrow.steps if s.number == "2")
    assert isinstance(step2, st_.Place)
    _, form, items = step2.targets[0]
    assert owners.OwnerRow.match(Expr(items, arrow), form) is not None


def test_owner_cards_kept_only_when_they_read_nothing_but_the_owner(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, taken: list[bool]
) -> None:
    """Attack: an element that reads a variable besides the owner (``new(theta(i + t))``, ``t``
    changing from run to run with the same number of owners) is made again at every run; the
    owner cards alone are kept per number of owners, within the bound."""
    monkeypatch.setattr(owners, "KEPT", 1)
    library = _library(tmp_path, '"[new(theta(i + t)) for i in 1..len(S) for c in 1..S[i]]"')
    proto = library.protocol("owners-mini")
    place = next(s for s in proto.steps if s.number == "3")
    assert isinstance(place, st_.Place)
    _, form, items = place.targets[0]
    row = owners.OwnerRow.match(Expr(items, proto), form)
    assert row is not None and row.made is None
    for s in ([1, 2, 2], [2, 2, 1], [3, 1, 1], [1, 1, 3], [2, 3]):
        assert _compare(library, s, seeds=2) == {"ran"}
    assert any(taken)
    other = tmp_path / "plain"
    other.mkdir()
    library = _library(other, ROW)
    proto = library.protocol("owners-mini")
    place = next(s for s in proto.steps if s.number == "3")
    assert isinstance(place, st_.Place)
    _, form, items = place.targets[0]
    row = owners.OwnerRow.match(Expr(items, proto), form)
    assert row is not None and row.made == {}
    kept: list[int] = []
    call = owners.OwnerRow.__call__

    def watch(self: Any, *args: Any) -> Any:
        got = call(self, *args)
        kept.append(len(self.made))
        return got

    monkeypatch.setattr(owners.OwnerRow, "__call__", watch)
    for s in ([1, 2, 2], [2, 3], [1, 1, 3], [5]):
        assert _compare(library, s, seeds=2) == {"ran"}
    assert kept and max(kept) <= 1  # the bound (KEPT, patched to 1)
