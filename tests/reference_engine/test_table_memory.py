"""A long card-level simulation must not grow without bound: layouts are interned weakly (the
intern table keeps a layout only while a state, plan or frame holds it), and every cache that
holds layouts is bounded. Checked on a small table, over many runs whose hand sizes differ
(each run meets layouts no earlier run met), with the caches' bounds made small."""

from __future__ import annotations

import gc
import random

import pytest

from reference_engine import selection
from reference_engine.cards import Symbol
from reference_engine.compiled import ops, rows
from reference_engine.kinds.shedding import load_rules
from reference_engine.machine import frame, frontier
from reference_engine.registry import Library
from reference_engine.selection import CallCache, run_selection
from reference_engine.table import Layout

RULES = load_rules("uno")
valid = RULES.validity(RULES.symbol("red5"), "red")


def test_equal_layouts_are_one_object_while_alive_and_forgotten_after() -> None:
    shapes = [("w37mem", 1, 3, 1, None), ("w37mem_pile", 1, 2, 1, None)]
    a = Layout.make(shapes)
    assert Layout.make(list(shapes)) is a
    key = a._key
    assert Layout._interned[key]() is a
    del a
    gc.collect()
    assert key not in Layout._interned  # nothing held it: its entry went with it
    b = Layout.make(shapes)
    assert Layout.make(shapes) is b and Layout._interned[key]() is b


def test_a_dead_layouts_callback_leaves_a_newer_equal_layout_interned() -> None:
    shapes = [("w37mem_again", 1, 4, 1, None)]
    a = Layout.make(shapes)
    key = a._key
    old = Layout._interned[key]
    del Layout._interned[key]  # as if a newer layout had taken the key while ``a`` lived
    b = Layout.make(shapes)
    assert b is not a and Layout._interned[key] is not old
    del a
    gc.collect()
    assert Layout._interned[key]() is b


def tables(count: int) -> list[list[list[Symbol]]]:
    """Small tables, each with hand sizes no other has: P_1, P_2 and the draw pile."""
    deck = RULES.deck()
    out = []
    for n in range(count):
        rng = random.Random(n)
        cards = rng.sample(deck, 12)
        a, b = 1 + n % 4, 1 + (n // 4) % 3
        c = 2 + (n // 12) % 5
        out.append([cards[:a], cards[a : a + b], cards[a + b : a + b + c]])
    return out


@pytest.mark.parametrize("engine", ["compiled", "interpreter"])
def test_many_runs_keep_a_bounded_number_of_layouts(engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    bounds = (
        (ops, "KEPT_PLANS"),
        (rows, "KEPT"),
        (frontier, "HANDS_KEPT"),
        (selection, "_PLANS_KEPT"),  # these two last a game (its CallCache)
        (frame, "_CONSTANTS_LIMIT"),
    )
    for module, name in bounds:
        monkeypatch.setattr(module, name, 2)
    library = Library()
    proto = library.protocol("card-selection-arrow")
    cache = CallCache(engine=engine)
    gc.collect()
    before = len(Layout._interned)
    alive = []
    for n, table in enumerate(tables(60)):
        run_selection(library, proto, table, valid, random.Random(n), cache, f"turn {n}")
        if n % 20 == 19:
            gc.collect()
            alive.append(len(Layout._interned) - before)
    # Sixty tables of distinct shapes, each run laying out a dozen or more tables of its own:
    # strongly interned, they would all be kept (hundreds, growing with every run).
    assert max(alive) <= 150, alive
    assert alive[-1] <= alive[0] + 40, alive  # it does not grow with the runs
