"""Deferred inputs (reference_engine/machine/deferred.py): one table for all inputs until a
step reads an input's cards; the same report as building every input's table at once."""

from __future__ import annotations

from typing import Any

import pytest

from reference_engine.machine import Runner
from reference_engine.machine.deferred import PLACEHOLDER, Deferred, has_placeholders
from reference_engine.registry import Library
from reference_engine.verify import verify
from reference_engine.verify.inputs import input_assignments

from ..verify.test_partition import same_report


@pytest.fixture(scope="module")
def library() -> Library:
    return Library()


def _deferred(library: Library, name: str, params: dict[str, int] | None = None) -> tuple[Any, Deferred]:
    proto = library.protocol(name)
    frame = Runner(library, "exact").frame(proto, proto.resolve_params(params or {}))
    return frame, Deferred(frame, input_assignments(frame, None))


def test_every_input_starts_in_one_table(library: Library) -> None:
    _, deferred = _deferred(library, "gakmoro-round")
    n = len(deferred.assignments)
    frontier = deferred.initial(range(n))
    assert len(frontier) == 1  # 127,449 inputs, all six bundles deferred
    (state, (den, nums)) = next(iter(frontier.items()))
    assert den == 1 and len(nums) == n == 127_449
    assert has_placeholders(state) and all(c >= PLACEHOLDER << 1 for c in state.cells)


def test_filling_in_gives_each_input_its_own_cards(library: Library) -> None:
    """Splitting on some cards fills in just the inputs there, and filling in everything gives
    every input exactly the table the eager run starts from."""
    frame, deferred = _deferred(library, "covert-lottery-modified", {"m": 3})
    ((state, vec),) = deferred.initial(range(len(deferred.assignments))).items()
    x1 = state.layout.by_name["x"].slots[:2]  # the two cards of x[1]
    parts = deferred.split(state, vec, x1)
    assert parts is not None and len(parts) == 2  # x[1] = 0 or 1
    assert sorted(len(v[1]) for _, v in parts) == [4, 4]
    for s, (_, nums) in parts:
        assert not any(s.cells[f] >= PLACEHOLDER << 1 for f in x1)
        assert has_placeholders(s)  # x[2], x[3] and the labels are still to come
        for u in nums:
            full = deferred.split(s, (1, {u: 1}), None)
            assert full is not None and len(full) == 1
            assert full[0][0].cells == frame.initial_state(deferred.assignments[u]).cells
    assert deferred.split(parts[0][0], parts[0][1], x1) is None  # nothing left to fill in there


def test_card_counts_match_the_eager_tables(library: Library) -> None:
    for name in ("gakmoro-subtraction", "covert-lottery-modified", "five-card-trick", "gakmoro-comparison"):
        frame, deferred = _deferred(library, name)
        n = len(deferred.assignments)
        eager: dict[int, int] = {}
        for values in deferred.assignments:
            counts: dict[int, int] = {}
            for c in frame.initial_state(values).cells:
                counts[c >> 1] = counts.get(c >> 1, 0) + 1
            for sid, k in counts.items():
                eager[sid] = max(eager.get(sid, 0), k)
        assert deferred.most_cards(range(n)) == eager, name


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("covert-lottery-modified", {"m": 4}),
        ("card-selection", None),
        ("card-selection-original", None),
        ("five-card-trick", None),
        ("gakmoro-subtraction", None),
        ("ruangwises-itoh-addition", None),
        ("six-card-and", None),
    ],
)
def test_deferring_inputs_gives_the_same_report(
    library: Library, name: str, params: dict[str, int] | None, monkeypatch: Any
) -> None:
    proto = library.protocol(name)
    fast = verify(library, proto, params, workers=1)
    original = Deferred.__init__

    def nothing_deferred(self: Deferred, *args: Any) -> None:
        original(self, *args)
        self.deferred = set()

    monkeypatch.setattr(Deferred, "__init__", nothing_deferred)
    eager = verify(library, proto, params, workers=1)
    assert same_report(fast) == same_report(eager)
    assert fast.stats["states_processed"] <= eager.stats["states_processed"]
