"""The cyclic collector's pause (reference_engine/collector.py): nested pauses keep it paused
until the outermost ends, an error ends a pause, and a pause never switches on a collector
that was off before it (a game inside a verification that pauses too). A promoting pause (a
card-level game's) moves what outlives it to the oldest generation unwalked, and garbage cycles
are still found, by a full collection at CPython's pace."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Generator

import pytest

from reference_engine import collector
from reference_engine.collector import paused


def test_nested_pauses_and_errors_leave_the_collector_as_they_found_it() -> None:
    assert gc.isenabled()
    with paused():
        with paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner pause does not switch it back on
        with pytest.raises(RuntimeError), paused():
            raise RuntimeError("a run fails mid-game")
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with paused():
            pass
        assert not gc.isenabled()  # off before: still off
    finally:
        gc.enable()


def test_a_paused_function_abandoned_through_a_generator_switches_it_back_on() -> None:
    @paused()
    def inner() -> int:
        return int(gc.isenabled())

    def turns() -> Generator[int, None, None]:
        with paused():
            yield inner()
            yield 2

    gen = turns()
    assert next(gen) == 0 and not gc.isenabled()
    gen.close()  # abandoned mid-game
    assert gc.isenabled()


class _Node:
    """A container the collector tracks (a cycle of two makes garbage only it finds)."""

    other: object = None


def _cycle() -> weakref.ref[_Node]:
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    return weakref.ref(a)


@pytest.fixture
def fresh_pace(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The promotions' count since the last full collection here, as a fresh process has it:
    card-level games earlier in the process (under xdist, whichever ran before) promote too,
    and the one that reaches CPython's pace runs a full collection."""
    since = [0, 0, 0]
    monkeypatch.setattr(collector, "_SINCE_FULL", since)
    return since


def test_a_promoting_pause_puts_what_outlives_it_in_the_oldest_generation_unwalked(
    fresh_pace: list[int],
) -> None:
    gc.collect()
    before = [gc.get_stats()[i]["collections"] for i in range(3)]
    with paused(promote=True):
        kept = [_Node() for _ in range(2000)]  # more than a young collection's threshold
        assert not gc.isenabled()
    assert gc.isenabled()
    assert gc.get_count()[0] < 50  # the young generation starts afresh
    oldest = {id(o) for o in gc.get_objects(2)}
    assert all(id(o) in oldest for o in kept)
    assert not any(id(o) in {id(x) for x in gc.get_objects(0)} for o in kept[:5])
    assert gc.get_freeze_count() == 0  # nothing is left frozen
    after = [gc.get_stats()[i]["collections"] for i in range(3)]
    assert after[1:] == before[1:]  # no middle or full collection walked them


def test_a_promotion_after_a_history_of_games_may_run_a_full_collection(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Why the tests above start from a fresh pace: after as many promotions as CPython's pace
    # allows (card-level games earlier in the process), the next one walks every object.
    gc.collect()
    _, threshold1, threshold2 = gc.get_threshold()
    since = [threshold1 * threshold2 - 1, 10**6, 0]
    monkeypatch.setattr(collector, "_SINCE_FULL", since)
    before = gc.get_stats()[2]["collections"]
    with paused(promote=True):
        pass
    assert gc.get_stats()[2]["collections"] == before + 1
    assert since[:2] == [0, 0] and since[2] > 0


def test_garbage_cycles_a_promotion_moved_are_found_by_a_full_collection_at_cpythons_pace(
    fresh_pace: list[int],
) -> None:
    gc.collect()
    old = gc.get_threshold()
    gc.set_threshold(old[0], 1, 2)  # a full collection every 1 * 2 promotions (CPython: 10 * 10)
    try:
        with paused(promote=True):
            first = _cycle()
        assert first() is not None  # promoted with the cycle, not collected yet
        with paused(promote=True):
            second = _cycle()
        assert first() is None and second() is None  # the second promotion ran a full collection
        assert fresh_pace[:2] == [0, 0] and fresh_pace[2] > 0
        with paused(promote=True):
            third = _cycle()
        assert third() is not None
        gc.collect()
        assert third() is None  # an explicit collection finds it as ever
    finally:
        gc.set_threshold(*old)


def test_a_promoting_pause_leaves_a_collector_that_was_off_and_frozen_objects_alone() -> None:
    gc.collect()
    gc.disable()
    try:
        with paused(promote=True):
            inner = _cycle()
        young = {id(o) for o in gc.get_objects(0)}
        assert id(inner()) in young  # off before: no promotion
    finally:
        gc.enable()
    gc.collect()
    frozen = _Node()
    gc.freeze()  # a process that keeps objects frozen (e.g. before forking)
    try:
        count = gc.get_freeze_count()
        with paused(promote=True):
            made = _Node()
        assert gc.get_freeze_count() == count  # its frozen objects stay frozen
        assert id(made) in {id(o) for o in gc.get_objects(0)}
        assert id(frozen) not in {id(o) for o in gc.get_objects()}
    finally:
        gc.unfreeze()


def test_a_promotion_that_fails_still_switches_the_collector_back_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """An interrupt or a MemoryError in the promotion's full collection (or an error raised by
    the block itself, then by the promotion) must not leave the collector off for the rest of
    the process."""

    def broken() -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(collector, "_promote", broken)
    assert gc.isenabled()
    with pytest.raises(KeyboardInterrupt), paused(promote=True):
        pass
    assert gc.isenabled()
    with pytest.raises(KeyboardInterrupt), paused(promote=True):
        raise RuntimeError("the game failed, then its promotion")
    assert gc.isenabled()


def test_a_promoting_pause_ended_by_an_error_or_nested_in_a_plain_one() -> None:
    """An error in a game still promotes and switches the collector back on, nothing frozen; a
    promoting pause inside a plain one (a game inside a verification's pause) leaves the
    collector off and promotes nothing; a plain pause inside a promoting one is the game's."""
    gc.collect()
    with pytest.raises(RuntimeError), paused(promote=True):
        kept = [_Node() for _ in range(50)]
        raise RuntimeError("a game fails mid-turn")
    assert gc.isenabled() and gc.get_freeze_count() == 0
    oldest = {id(o) for o in gc.get_objects(2)}
    assert all(id(o) in oldest for o in kept)
    with paused():
        with paused(promote=True):
            inner = _Node()
        assert not gc.isenabled()
        assert id(inner) in {id(o) for o in gc.get_objects(0)}  # not promoted
    assert gc.isenabled()
    with paused(promote=True):
        with paused():
            made = _Node()
        assert not gc.isenabled()
    assert gc.isenabled() and id(made) in {id(o) for o in gc.get_objects(2)}
