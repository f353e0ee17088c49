"""The counters carried along a run (:class:`~reference_engine.meters.Meters`): each step from one
set of counters to the next, made directly, is what ``dataclasses.replace`` makes."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from reference_engine.meters import Meters

SOME = [
    Meters(),
    Meters(3, 2, (("scramble", 2), ("cut", 1)), ((0, 5), (58, 2)), (("lottery", 4),)),
    Meters(1, 0, (("cut", 1),), (), ()),
]


@pytest.mark.parametrize("m", SOME)
def test_each_step_is_the_counters_with_one_field_changed(m: Meters) -> None:
    kinds = dict(m.kinds)
    kinds["scramble"] = kinds.get("scramble", 0) + 1
    assert m.add_shuffle("scramble") == replace(
        m, shuffles=m.shuffles + 1, kinds=tuple(sorted(kinds.items()))
    )
    assert m.add_turn() == replace(m, turns=m.turns + 1)
    peak = dict(m.peak)
    peak[0] = max(peak.get(0, 0), 7)
    assert m.note_out(((0, 7),)) == replace(m, peak=tuple(sorted(peak.items())))
    assert m.note_out(()) is m  # nothing raised: the same counters
    # Remembered: the same step gives the very same counters again.
    assert m.add_turn() is m.add_turn() and m.add_shuffle("cut") is m.add_shuffle("cut")


def test_a_subclass_steps_to_its_own_class() -> None:
    @dataclass(frozen=True)
    class Counted(Meters):
        pass

    m = Counted(1, 1)
    for step in (m.add_turn(), m.add_shuffle("cut"), m.note_out(((3, 1),))):
        assert type(step) is Counted


def test_a_subclass_with_a_field_of_its_own_keeps_it() -> None:
    @dataclass(frozen=True)
    class Tagged(Meters):
        tag: str = "none"

    m = Tagged(1, 1, tag="kept")
    for step in (m.add_turn(), m.add_shuffle("cut"), m.note_out(((3, 1),))):
        assert step.tag == "kept"  # type: ignore[attr-defined]
