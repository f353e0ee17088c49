"""The cyclic collector's pause (reference_engine/collector.py): nested pauses keep it paused
until the outermost ends, an error ends a pause, and a pause never switches on a collector
that was off before it (a game inside a verification that pauses too)."""

from __future__ import annotations

import gc
from collections.abc import Generator

import pytest

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
