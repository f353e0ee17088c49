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


@pytest.mark.parametrize("m", SOME)
def test_counters_made_directly_are_the_dataclass_s_own(m: Meters) -> None:
    """New counters are made without the frozen dataclass's ``__init__`` (meters._made): the same
    fields in the same order, equal, hashed and printed alike, frozen, copied and pickled alike,
    each with a memo of its own (none shared with the counters it came from)."""
    import copy
    import pickle

    from reference_engine.meters import _made

    for new in (
        m.add_turn(),
        m.add_shuffle("cut"),
        m.note_out(((9, 1),)),
        m.absorb(SOME[1], ((0, 1),), "x", 2),
    ):
        ref = Meters(new.shuffles, new.turns, new.kinds, new.peak, new.calls)
        assert type(new) is Meters and new == ref and hash(new) == hash(ref) and repr(new) == repr(ref)
        fields = {k: v for k, v in new.__dict__.items() if k != "_next"}
        assert list(fields) == ["shuffles", "turns", "kinds", "peak", "calls"] and fields == ref.__dict__
        assert pickle.loads(pickle.dumps(new)) == ref and copy.deepcopy(new) == ref
        with pytest.raises(AttributeError):
            new.turns = 5  # type: ignore[misc]
    a = _made(1, 2, (), (), ())
    b = _made(1, 2, (), (), ())
    assert a == b and a is not b
    assert a.add_turn() is a.add_turn() and a.add_turn() is not b.add_turn()  # each its own memo
    # A truth value is not a count: equal as Python compares, but kept as given (no interning).
    assert _made(True, 0, (), (), ()).shuffles is True
