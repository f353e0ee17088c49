"""A card-level run's starting table (``selection._start``): the frame's own
``initial_state({"cards": row})``, with the layout kept per protocol and number of cards and the
shared starting counters; anything else (another input, a value that is no card, a count that
does not match) the frame's way, its errors included; a wrong kept layout is caught under
compiled.evaluate.CHECKED. Every cache shares the process's table (``selection.STARTS``) unless
given its own, as the tests here are (a mutant planted in it is seen by no other test)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from reference_engine import selection
from reference_engine.compiled import evaluate
from reference_engine.compiled.run import NO_METERS
from reference_engine.expressions import EvalError
from reference_engine.kinds.shedding import load_rules
from reference_engine.machine import Shared
from reference_engine.registry import Library
from reference_engine.table import Layout

RULES = load_rules("uno")


def _table(seed: int, sizes: tuple[int, ...]) -> list[list[Any]]:
    deck = RULES.deck()
    random.Random(seed).shuffle(deck)
    out = []
    for n in sizes:
        out.append(deck[:n])
        del deck[:n]
    return out


def _frame(cache: selection.CallCache, proto: Any, sizes: tuple[int, ...]) -> Any:
    return selection._frame(cache, Shared(), proto, sizes, None, {"valid": lambda c: True})


def test_the_start_is_the_frames_initial_state_with_its_layout_kept() -> None:
    library = Library()
    proto = library.protocol("card-selection-arrow")
    cache = selection.CallCache(starts={})  # its own table: the shared one is left alone
    for seed, sizes in enumerate([(3, 2, 40), (1, 1, 1), (7, 7, 7, 7, 60), (0, 2, 5), (3, 2, 40)]):
        frame = _frame(cache, proto, sizes)
        row = [c for hand in _table(seed, sizes) for c in hand]
        got = selection._start(cache, frame, row)
        ref = frame.initial_state({"cards": row})
        assert got == ref and got.layout is ref.layout and got.cells == ref.cells
        assert got.meters is NO_METERS and got.meters == ref.meters
        assert cache.starts[(id(proto), len(row))][1] is got.layout
    assert len(cache.starts) == 4  # (3, 2, 40) twice: one layout


def test_a_value_that_is_no_card_or_a_wrong_count_takes_the_frames_way() -> None:
    library = Library()
    proto = library.protocol("card-selection-arrow")
    cache = selection.CallCache(starts={})  # its own table: the shared one is left alone
    frame = _frame(cache, proto, (2, 1))
    row = [c for hand in _table(1, (2, 1)) for c in hand]
    with pytest.raises(EvalError) as ours:
        selection._start(cache, frame, row + row[:1])  # 4 cards for sizes summing to 3
    with pytest.raises(EvalError) as theirs:
        frame.initial_state({"cards": row + row[:1]})
    assert str(ours.value) == str(theirs.value) and "needs 3 values, got 4" in str(ours.value)
    assert not cache.starts  # nothing kept of a start that failed
    # A value that is not a card: encoded by the frame (here it fails as the frame's does).
    odd: list[Any] = [row[0], 5, row[2]]
    with pytest.raises(Exception) as ours2:
        selection._start(cache, frame, odd)
    with pytest.raises(Exception) as theirs2:
        frame.initial_state({"cards": odd})
    assert type(ours2.value) is type(theirs2.value) and str(ours2.value) == str(theirs2.value)
    assert not cache.starts


def test_a_wrong_kept_layout_is_caught_when_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    library = Library()
    proto = library.protocol("card-selection-arrow")
    cache = selection.CallCache(starts={})  # its own table: the shared one is left alone
    frame = _frame(cache, proto, (2, 1, 3))
    row = [c for hand in _table(2, (2, 1, 3)) for c in hand]
    # A mutant: the layout kept for six cards is one without the sleeves the spec declares.
    cache.starts[(id(proto), 6)] = (proto, Layout.make([("cards", 1, 6, 1, None)]))
    monkeypatch.setattr(evaluate, "CHECKED", True)
    with pytest.raises(evaluate.Mismatch):
        selection._start(cache, frame, row)
    monkeypatch.setattr(evaluate, "CHECKED", False)
    assert selection._start(cache, frame, row).layout is not frame.initial_state({"cards": row}).layout
    # A layout kept for another protocol of the same id is not taken (the protocol is compared).
    other = library.protocol("card-selection")
    cache.starts[(id(proto), 6)] = (other, Layout.make([("cards", 1, 6, 1, None)]))
    assert selection._start(cache, frame, row).layout is frame.initial_state({"cards": row}).layout


def test_the_kept_starts_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(selection, "_STARTS_KEPT", 2)
    library = Library()
    proto = library.protocol("card-selection-arrow")
    cache = selection.CallCache(starts={})  # its own table: the shared one is left alone
    for n in range(1, 9):
        sizes = (n, 1, 2)
        frame = _frame(cache, proto, sizes)
        row = [c for hand in _table(n, sizes) for c in hand]
        assert selection._start(cache, frame, row) == frame.initial_state({"cards": row})
        assert len(cache.starts) <= 2


def test_a_card_of_another_type_than_symbol_takes_the_frames_way() -> None:
    """The codes are made directly only where every card is a :class:`Symbol` itself: a card of a
    subclass (equal fields, another type) anywhere in the row takes the frame's way, as a value
    that is no card does; the same state or the same error either way. No card at all: the
    empty table of a run with no cards."""
    from dataclasses import dataclass

    from reference_engine.cards import Symbol

    @dataclass(frozen=True)
    class Marked(Symbol):
        pass

    library = Library()
    proto = library.protocol("card-selection-arrow")
    cache = selection.CallCache(starts={})  # its own table: the shared one is left alone
    frame = _frame(cache, proto, (2, 1))
    row = [c for hand in _table(3, (2, 1)) for c in hand]
    for at in range(3):
        odd = list(row)
        c = odd[at]
        odd[at] = Marked(c.name, c.glyph, c.id, c.attrs)
        try:
            ref = frame.initial_state({"cards": odd})
        except Exception as exc:
            with pytest.raises(type(exc)) as ours:
                selection._start(cache, frame, odd)
            assert str(ours.value) == str(exc)
        else:
            got = selection._start(cache, frame, odd)
            assert got == ref and got.cells == ref.cells
    good = selection._start(cache, frame, row)
    assert good.cells == tuple(c.id << 1 for c in row)


def test_every_cache_shares_the_processs_starting_layouts() -> None:
    """A new game's cache (``CallCache()``) finds the starting layouts the games before it made
    (a turn's number of cards is mostly new to its game, not to the process): the layout kept by
    one cache is the very one the next cache's first run starts from, kept once."""
    library = Library()
    proto = library.protocol("card-selection-arrow")
    one, two = selection.CallCache(), selection.CallCache()
    assert one.starts is selection.STARTS and two.starts is selection.STARTS
    assert one.counts is selection.COUNTS and two.counts is selection.COUNTS
    sizes = (3, 2, 41)
    row = [c for hand in _table(5, sizes) for c in hand]
    first = selection._start(one, _frame(one, proto, sizes), row)
    assert selection.STARTS[(id(proto), 46)] == (proto, first.layout)
    second = selection._start(two, _frame(two, proto, sizes), row)
    assert second.layout is first.layout and second == frame_state(proto, sizes, row)


def frame_state(proto: Any, sizes: tuple[int, ...], row: list[Any]) -> Any:
    return _frame(selection.CallCache(starts={}), proto, sizes).initial_state({"cards": row})
