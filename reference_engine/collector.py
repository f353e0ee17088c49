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
game is never walked, and what outlives it is walked once when the game ends.

Promotion (``paused(promote=True)``, the card-level game's pause). What outlives a game is
almost all kept on purpose: the compiled steps' plans, layouts and answers, the small
lotteries' laws, ~300 tracked objects a turn (issue 37). Walked by the young collection that
follows the pause and by a middle one later, they cost ~0.1-0.15 ms of a ~2 ms turn, only to
be found alive. So when the outermost such pause ends, every object the collector tracks goes
straight to the oldest generation (``gc.freeze()`` then ``gc.unfreeze()``, which CPython
documents as moving the frozen objects into the oldest generation: two list splices, no walk).
A reference cycle that is garbage is then found by the next full collection instead of a young
one, and full collections keep CPython's own pace: a promotion counts as the young collection it
replaces, and one runs here after as many as CPython's thresholds allow between two full
collections (``threshold1 * threshold2``, 100 by default) once the objects promoted since the
last outnumber a quarter of the tracked objects it left (CPython's rule for the oldest
generation). A card-level game makes no cycle, so what waits is at most the caller's young
objects of each pause's start. Nothing a program computes changes: only when cycles are
searched for. Left alone: a collector that was off before the pause (a game inside a
verification, or a caller's own ``gc.disable()``), and a process that keeps objects frozen
(``gc.get_freeze_count()``: unfreezing them is not ours to do).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

# Since the last full collection run here: the promotions, the objects they promoted, and how
# many tracked objects that collection left.
_SINCE_FULL = [0, 0, 0]


@contextmanager
def paused(promote: bool = False) -> Iterator[None]:
    """Pause the cyclic collector for the ``with`` block or the decorated function (nested
    pauses keep it paused). ``promote``: when this pause switches it back on, the objects it
    tracks go to the oldest generation first (see the module docs)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            try:
                if promote:
                    _promote()
            finally:  # a promotion that fails (an interrupt in its full collection) ends the pause too
                gc.enable()


def _promote() -> None:
    """Move every tracked object to the oldest generation unwalked, and run a full collection
    at CPython's pace (see the module docs)."""
    if gc.get_freeze_count():
        return
    # Allocations less deallocations of tracked objects since the last young collection: with
    # the collector paused, the young objects still alive.
    young = gc.get_count()[0]
    gc.freeze()
    gc.unfreeze()
    since = _SINCE_FULL
    since[0] += 1
    since[1] += young
    threshold0, threshold1, threshold2 = gc.get_threshold()
    if threshold0 and since[0] >= threshold1 * threshold2 and since[1] > since[2] // 4:
        gc.collect()
        since[:] = [0, 0, len(gc.get_objects())]
