"""Python's cyclic garbage collector, paused while an exact run builds its frontiers.

An exact verification allocates millions of small tuples and dicts that live until the
step after, and never form reference cycles (states, probability vectors and views are
built of tuples, ints and dicts of ints). The cyclic collector still walks them every few
thousand allocations: on the covert lottery it took 38% of the time at m = 7 and half at
m = 8. Reference counting frees everything as before; only the search for cycles waits,
and runs once when the pause ends if any cycle was left.

A card-level game (``kinds/shedding/play.py``) pauses it for the whole game, not only for
each run: a run leaves no reference cycle (tests/reference_engine/test_selection_checks.py),
and every turn leaves objects that live a while (the game's views, plans and layouts kept
per step): with the collector running between runs, each turn's were walked by a young
collection after the run, again by a middle one, and most reached the oldest generation and
its full collections (0.4-0.5 ms of a ~3 ms turn, issue 37). Paused, what dies within the
game is never walked, and what outlives it is walked once when the game ends. The pause
changes no result: only when cycles are searched for, never what a run computes.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    """Pause the cyclic collector for the ``with`` block or the decorated function (nested
    pauses keep it paused)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
