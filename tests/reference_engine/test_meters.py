"""The counters carried along a run (:class:`~reference_engine.meters.Meters`): each step from one
set of counters to the next, made directly, is what ``dataclasses.replace`` makes."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

import pytest

from reference_engine.meters import Meters, out_add

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
        fields = {k: v for k, v in new.__dict__.items() if k not in ("_next", "_hash")}
        kept = {k: v for k, v in ref.__dict__.items() if k != "_hash"}  # the hash, kept once made
        assert list(fields) == ["shuffles", "turns", "kinds", "peak", "calls"] and fields == kept
        assert new.__dict__["_hash"] == hash((new.shuffles, new.turns, new.kinds, new.peak, new.calls))
        assert "_hash" not in pickle.loads(pickle.dumps(new)).__dict__  # another process's hash
        assert pickle.loads(pickle.dumps(new)) == ref and copy.deepcopy(new) == ref
        with pytest.raises(AttributeError):
            new.turns = 5  # type: ignore[misc]
    a = _made(1, 2, (), (), ())
    b = _made(1, 2, (), (), ())
    assert a == b and a is not b
    assert a.add_turn() is a.add_turn() and a.add_turn() is not b.add_turn()  # each its own memo
    # A truth value is not a count: equal as Python compares, but kept as given (no interning).
    assert _made(True, 0, (), (), ()).shuffles is True


@pytest.mark.parametrize("m", SOME)
def test_each_step_s_memo_is_read_inline_by_its_own_key(m: Meters) -> None:
    """The steps read the memo themselves (no call a step): a remembered step is the very
    counters, an unchanged one the counters themselves, and the three steps' keys never meet
    (a turn, a shuffle of a kind and a helper usage that could look alike stay apart)."""
    fresh = replace(m)  # no memo yet: every step computed
    turned = fresh.add_turn()
    shuffled = fresh.add_shuffle("turn")  # a kind named like the turn's key
    unchanged = fresh.note_out(())  # nothing raised: remembered as itself
    assert unchanged is fresh and fresh.note_out(()) is fresh
    assert fresh.add_turn() is turned and fresh.add_shuffle("turn") is shuffled
    assert turned.turns == m.turns + 1 and turned.shuffles == m.shuffles
    assert shuffled.shuffles == m.shuffles + 1 and shuffled.turns == m.turns
    assert dict(shuffled.kinds)["turn"] == dict(m.kinds).get("turn", 0) + 1
    # A memo holding an entry for the key "turn" under another step's (note_out's) key space:
    # note_out(out) and add_turn() look up different keys, never each other's answers.
    raised = fresh.note_out(((0, 99),))
    assert raised.peak != m.peak and fresh.note_out(((0, 99),)) is raised
    assert fresh.add_turn() is turned
    assert fresh not in fresh.__dict__["_next"].values()  # never itself: no reference cycle


@pytest.mark.parametrize("m", SOME)
def test_a_first_note_of_helper_usage_is_remembered_as_any_other(m: Meters) -> None:
    """note_out on counters with no memo yet (most of a card-level run's) starts their memo
    itself: the same counters as the general path, the very same on the next look, an unchanged
    usage remembered as None (never the counters themselves: no reference cycle); a subclass's
    first note goes the general way and keeps its class."""
    for out in (((0, 99),), ((0, 0),), m.peak[:1] or ((58, 2),), ((7, 1),)):
        fresh, general = replace(m), replace(m)
        general.__dict__["_next"] = {}  # a memo already: the general path (_remember)
        got = fresh.note_out(out)
        assert got == general.note_out(out) and type(got) is Meters
        assert fresh.note_out(out) is got and fresh.__dict__["_next"] == {out: None if got is fresh else got}
    # No usage, or a usage of several symbols: worked out each time, never remembered.
    for out in ((), m.peak, ((1, 1), (2, 3)), ((0, 99), (58, 1))):
        fresh = replace(m)
        got = fresh.note_out(out)
        assert got == _peaks_raised(m, out) and type(got) is Meters
        assert (got is fresh) == (got == fresh) and "_next" not in fresh.__dict__

    @dataclass(frozen=True)
    class Counted(Meters):
        pass

    sub = Counted(1, 1)
    raised = sub.note_out(((3, 1),))
    assert type(raised) is Counted and sub.note_out(((3, 1),)) is raised


def test_helper_usage_after_a_change_is_the_plain_sum_by_symbol() -> None:
    """out_add (filtered and sorted in C) on random usage and changes, counts going to zero,
    below zero and new symbols among them: each symbol's sum, the zeros left out, by symbol."""
    rng = random.Random(51)
    for _ in range(2000):
        out = tuple(
            sorted({rng.randrange(8): rng.choice([-2, -1, 1, 2, 3]) for _ in range(rng.randrange(5))}.items())
        )
        delta = {rng.randrange(10): rng.randrange(-3, 4) for _ in range(rng.randrange(4))}
        want: dict[int, int] = dict(out)
        for sid, n in delta.items():
            want[sid] = want.get(sid, 0) + n
        expected = tuple(sorted((k, v) for k, v in want.items() if v)) if delta else out
        got = out_add(out, delta)
        assert got == expected and type(got) is tuple
        assert all(type(item) is tuple for item in got)


def _peaks_raised(m: Meters, out: tuple[tuple[int, int], ...]) -> Meters:
    """note_out's answer as the fields say it: each peak the larger of the two."""
    peak = dict(m.peak)
    for sid, n in out:
        peak[sid] = max(peak.get(sid, 0), n)
    return replace(m, peak=tuple(sorted((k, v) for k, v in peak.items() if v or k in dict(m.peak))))


def test_a_usage_of_several_symbols_raises_each_peak_as_the_fields_say() -> None:
    """note_out on random counters and usages (counts at, above and below the peaks, zero and
    below zero, symbols new to the peaks): each peak the larger of the two, these very counters
    where none rises, nothing kept in a memo for a usage of more than one symbol."""
    rng = random.Random(59)
    for _ in range(3000):
        peak = tuple(sorted({rng.randrange(8): rng.randrange(1, 5) for _ in range(rng.randrange(5))}.items()))
        m = Meters(rng.randrange(3), rng.randrange(3), (), peak, ())
        usage = {rng.randrange(10): rng.randrange(-2, 6) for _ in range(rng.randrange(6))}
        out = tuple(sorted(usage.items()))
        got = m.note_out(out)
        want = _peaks_raised(m, out)
        assert got == want and type(got) is Meters and type(got.peak) is tuple
        assert (got is m) == (want == m)
        assert len(out) < 2 or "_next" not in m.__dict__
