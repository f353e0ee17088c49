"""A long card-level simulation must not grow without bound: layouts are interned weakly (the
intern table keeps a layout only while a state, plan or frame holds it), and every cache that
holds layouts is bounded. Checked on a small table, over many runs whose hand sizes differ
(each run meets layouts no earlier run met), with the caches' bounds made small."""

from __future__ import annotations

import gc
import random

import pytest

from reference_engine import selection, table
from reference_engine.cards import Symbol
from reference_engine.compiled import (
    arrows,
    callrows,
    calls,
    chained,
    collect,
    deferred,
    fused,
    ops,
    pairing,
    placeargs,
    program,
    pure,
    rows,
    segments,
    steady,
    tails,
    takes,
    twotakes,
)
from reference_engine.compiled.run import NO_METERS
from reference_engine.kinds.shedding import load_rules
from reference_engine.machine import frame, frontier, outputs, relabel
from reference_engine.meters import MEMO_KEPT
from reference_engine.registry import Library
from reference_engine.selection import CallCache, run_selection
from reference_engine.table import Layout

RULES = load_rules("uno")
valid = RULES.validity(RULES.symbol("red5"), "red")


def alive(collect: bool = True) -> int:
    """Live layouts in the intern table; ``collect``: after a full collection (slow in a process
    whose heap other tests filled: call it once, not in a loop)."""
    if collect:
        gc.collect()
    return sum(ref() is not None for ref in Layout._interned.values())


def test_equal_layouts_are_one_object_while_alive_and_forgotten_after() -> None:
    shapes = [("w37mem", 1, 3, 1, None), ("w37mem_pile", 1, 2, 1, None)]
    a = Layout.make(shapes)
    assert Layout.make(list(shapes)) is a
    key = (tuple(hash(r) for r in a.regions), a.holes, a.labels)  # by the regions' hashes
    assert Layout._interned[key]() is a
    del a
    gc.collect()
    assert Layout._interned[key]() is None  # nothing held it: the table does not keep it
    Layout.sweep()
    assert key not in Layout._interned
    b = Layout.make(shapes)
    assert Layout.make(shapes) is b and Layout._interned[key]() is b


def test_the_intern_table_sweeps_dead_layouts_and_keeps_live_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table, "INTERN_SWEEP", 64)
    monkeypatch.setattr(Layout, "_sweep_at", 64)
    kept = [Layout.make([("w37mem_kept", 1, n, 1, None)]) for n in range(1, 11)]
    alive()  # one full collection first; the layouts made below die by reference count
    for n in range(1, 1000):
        Layout.make([("w37mem_dead", 1, n, 1, None)])  # dropped at once
        if n % 37 == 0:
            assert len(Layout._interned) <= max(64, 2 * alive(collect=False)) + 1
    assert [Layout.make([("w37mem_kept", 1, n, 1, None)]) for n in range(1, 11)] == kept  # the same objects
    assert all(Layout.make([("w37mem_kept", 1, n, 1, None)]) is k for n, k in enumerate(kept, 1))


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
        (fused, "KEPT_PAIRS"),
        (deferred, "KEPT"),  # Step 11's discard and return, kept per table before both
        (rows, "KEPT"),
        (calls, "DRAWS_KEPT"),
        (frontier, "HANDS_KEPT"),
        (selection, "_PLANS_KEPT"),  # these two last a game (its CallCache)
        (frame, "_CONSTANTS_LIMIT"),
        (relabel, "EVALUATORS_KEPT"),  # a first enumeration's kept evaluator: results by layout
        (relabel, "MEMO_KEPT"),
        (relabel, "PLANS_KEPT"),  # a first enumeration's kept plans: by step, layout and resolved
        (steady, "KEPT"),  # values kept by what they read: the layout among it
        (arrows, "ROWS_KEPT"),  # step 6's row, kept per layout
        (collect, "KEPT_PLANS"),  # an inline callee's readings, kept per final layout
        (segments, "KEPT"),  # steps 1-9's chains, kept per layout at their start
        (pure, "KEPT"),  # a block that reads no card: its effect per layout and variables
        (takes, "KEPT_PLANS"),  # the layout a take makes, kept per layout and number of columns
        (twotakes, "LAYOUTS_KEPT"),  # two takes at once: their layouts, per layout and numbers
        (pairing, "ROWS_KEPT"),  # a fused discard and return's rows, per layout
        (tails, "FRAMES_KEPT"),  # Steps 11 and 12 at once: the plan's frame, per layout and case
        (placeargs, "KEPT"),  # a structural place's arguments, kept per layout and variables
        (callrows, "FORMS_KEPT"),  # a call's plan by rows, kept per form (no layout in it)
        (calls, "STARTS_KEPT"),  # an inline callee's starting layout, per frame and input sizes
        (chained, "KEPT"),  # a straight block's values, kept per layout and variables at its start
        (selection, "_FRAMES_KEPT"),  # per protocol: its resolved parameters and bound encodings
        (selection, "_STARTS_KEPT"),  # per protocol and number of cards: a run's starting layout
        (outputs, "_SHAPES_KEPT"),  # per output: whether it is every owner's hand
        (program, "KEPT_PROGRAMS"),  # compiled programs: per library, and one shared per protocol
    )
    for module, name in bounds:
        monkeypatch.setattr(module, name, 2)
    library = Library()
    proto = library.protocol("card-selection-arrow")
    cache = CallCache(engine=engine)
    before = alive()
    counts = []
    for n, cards in enumerate(tables(60)):
        run_selection(library, proto, cards, valid, random.Random(n), cache, f"turn {n}")
        if n % 20 == 19:
            counts.append(alive() - before)
    # Sixty tables of distinct shapes, each run laying out a dozen or more tables of its own:
    # strongly interned, they would all be kept (hundreds, growing with every run).
    assert max(counts) <= 150, counts
    # It does not grow with the runs: the bounded caches (each made small here) start afresh and
    # go cold at their own pace, so the count wanders (up to +41 between the samples seen in a
    # full test run); strongly interned, it would grow by ~240 between them.
    assert counts[-1] <= counts[0] + 60, counts


def test_many_runs_keep_a_bounded_number_of_counters() -> None:
    """Every run starts from the same counters (``Meters()``), whose memo of next counters is
    keyed by the helper cards out: different on every table. Unbounded, it kept every run's
    chain of counters for the life of the process (about eight a turn of a UNO game)."""
    library = Library()
    proto = library.protocol("card-selection-arrow")
    cache = CallCache(engine="compiled")

    def live() -> int:
        """The counters the shared starting counters' memos keep alive (every other cache of
        counters, e.g. a step's kept plans, is bounded on its own and shared by other tests)."""
        seen: set[int] = set()
        todo = [NO_METERS]
        while todo:
            m = todo.pop()
            for nxt in (m.__dict__.get("_next") or {}).values():
                if nxt is not None and id(nxt) not in seen:
                    seen.add(id(nxt))
                    todo.append(nxt)
        return len(seen)

    counts = []
    for n in range(120):
        deck = RULES.deck()
        rng = random.Random(n)
        rng.shuffle(deck)
        cards = []
        for size in [rng.randint(1, 12) for _ in range(4)]:
            cards.append(deck[:size])
            del deck[:size]
        run_selection(library, proto, [*cards, deck], valid, rng, cache, f"turn {n}")
        if n % 40 == 39:
            counts.append(live())
    # The shared starting counters remember at most MEMO_KEPT next ones (unbounded: one per
    # table met, each with its run's chain of counters: ~8 more live counters a run).
    assert 0 < len(NO_METERS.__dict__["_next"]) <= MEMO_KEPT
    # Bounded: 184-504 counters at the three samples (each run's chain is ~8 long); unbounded:
    # 368, 688, 1000, growing by ~8 a run.
    assert max(counts) <= 640, counts
