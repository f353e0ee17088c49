"""The hands a return names, kept by their owners (reference_engine/machine/actions/layout.py's
``_hand_names``): the same names as hand_name gives owner by owner, the same refusals, and
owners of other types (truths above all, equal to 1 in Python) never served a kept entry."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from reference_engine.compiled import evaluate
from reference_engine.expressions import EvalError, Value, as_int
from reference_engine.functions import hand_name
from reference_engine.machine.actions import layout
from reference_engine.machine.actions.layout import _hand_names


def _general(owners: list[Any]) -> object:
    try:
        names = tuple(hand_name(o) for o in owners)
    except EvalError as exc:
        return ("refused", str(exc))
    return names, tuple(sorted(set(names)))


def _kept(owners: list[Any]) -> object:
    try:
        return _hand_names(owners)
    except EvalError as exc:
        return ("refused", str(exc))


OWNERS: list[list[Any]] = [
    [],
    [1],
    [True],
    [1, True],
    [False, 0],
    [3, 1, 3, 2],
    ["hand2", 2, "pile"],
    [1.0],
    [None, 1],
    [(1,), 2],
    ["1", 1],
]


@pytest.mark.parametrize("owners", OWNERS, ids=repr)
def test_kept_hands_are_the_general_ones(owners: list[Any]) -> None:
    for _ in range(2):  # made, then kept (where its owners are kept)
        assert _kept(owners) == _general(owners)


def test_a_number_kept_never_serves_a_truth(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(layout, "_HANDS", {})
    assert _hand_names([1, 2]) == (("hand1", "hand2"), ("hand1", "hand2"))
    with pytest.raises(EvalError, match="not True"):
        _hand_names([True, 2])
    assert list(layout._HANDS) == [(1, 2)]


def test_the_kept_hands_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(layout, "_HANDS", {})
    monkeypatch.setattr(layout, "HANDS_KEPT", 3)
    for i in range(10):
        assert _hand_names([i]) == ((f"hand{i}",), (f"hand{i}",))
        assert len(layout._HANDS) <= 3


def test_a_checked_run_compares_a_kept_entry_with_the_names(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under compiled.evaluate.CHECKED a kept entry is compared with hand_name's names: a wrong
    one (here planted) is caught."""
    monkeypatch.setattr(layout, "_HANDS", {(4,): (("hand5",), ("hand5",))})
    assert _hand_names([4]) == (("hand5",), ("hand5",))  # unchecked: trusted
    monkeypatch.setattr(evaluate, "CHECKED", True)
    with pytest.raises(AssertionError):
        _hand_names([4])


class _Two(Value):
    """A wrapped value whose plain value is 2 (as_int unwraps it; its type is not int)."""

    def kg_value(self) -> Any:
        return 2

    def __repr__(self) -> str:  # the test's id: the same in every xdist worker (no address)
        return "_Two()"


def _resolved(order: list[Any], by_as_int: bool) -> tuple[str, Any]:
    """("ok", the resolution) or ("refused", the message): _rearrange_resolve's, or each position
    through as_int as before whole numbers were kept as they are."""
    from reference_engine import steps as st

    try:
        if by_as_int:
            return ("ok", ("R", "columns", tuple(as_int(v) for v in order)))
        step = st.Rearrange((), None, None, None, region="R", axis="columns")
        step.order = object()  # type: ignore[assignment]  # read only by the stub evaluator below
        ev = SimpleNamespace(value=lambda expr, state: list(order))
        return ("ok", layout._rearrange_resolve(None, None, step, None, ev))  # type: ignore[arg-type]
    except EvalError as exc:
        return ("refused", str(exc))


@pytest.mark.parametrize(
    "order",
    [[], [2, 1, 3], [True, 2], [False], [1, 2.0], ["1", 2], [None], [_Two(), 1], [10**20, 1]],
    ids=repr,
)
def test_a_rearrangement_s_order_is_as_int_s(order: list[Any]) -> None:
    """Whole numbers are kept as they are; truths, wrapped values and anything else go through
    as_int (truths as numbers, the rest refused with its message)."""
    got, want = _resolved(order, False), _resolved(order, True)
    assert got == want
    if got[0] == "ok":
        assert [type(v) for v in got[1][2]] == [type(v) for v in want[1][2]]
