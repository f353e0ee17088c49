"""How much memory an exact verification may use, what it will use, and the guard that stops it.

An exact verification keeps every distinct table state in memory, and a spec can ask for far
more than a machine has (the weighted selection on a whole UNO deck deals its cards into some
10^8 classes). Three things keep it from dying of ``MemoryError`` or swapping a machine to a
halt:

* **the limit** (:func:`machine_limit`): ``--max-memory``, or by default what this machine can
  give the process: the memory the system has available (``psutil``) plus what the process
  already holds, never more than its address-space or data limit (``ulimit -v``, ``-d``) or its
  control group's (a container's) limit, less a margin (a tenth, at least :data:`MARGIN_MIN`);
* **the forecast** (:func:`class_forecast`): a verification on a whole deck (``--hand N``) is
  forecast before anything is listed or run, from the number of class deals and the cards
  dealt (:data:`BASE_BYTES` plus :data:`PER_DEAL_CARD` bytes per card of each class deal,
  measured on the shipped tables, or a protocol's own measured figure by P_1's hand where it is
  more, :func:`per_deal_card`; docs/verification.md), and refused when it exceeds the limit,
  with the forecast and the options that would fit;
* **the guard** (:class:`Guard`): while a verification runs, a thread reads the process's
  resident size every :data:`POLL_SECONDS`; past the limit it stops the verifying thread
  (an exception raised in it), and the verification is refused with what it measured and what
  to try instead. A ``MemoryError`` (an allocation refused under a ``ulimit``) is refused the
  same way. Each process of a split verification guards its own share of the limit.
"""

from __future__ import annotations

import ctypes
import math
import os
import resource
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import ClassVar

import psutil

from ..errors import MemoryRefused, UsageError

MIB = 1 << 20
GIB = 1 << 30
MARGIN_FRACTION = 0.10  # of the memory a process may use, kept free for the system
MARGIN_MIN = 64 * MIB
POLL_SECONDS = 0.05
REPEAT_SECONDS = 1.0  # a stop that some code swallowed is raised again after this long
# The forecast of a verification by classes, fitted to the peaks bench/full_deck.py measures
# (docs/verification.md): the interpreter, library and table (about 34 MB) and the states of
# each class deal, per card dealt (UNO 1.9 to 2.0 KB whatever the hand, Dominoes 2.0, Hearts
# 2.4, the 52-card shedding game 1.3; rounded up). It forecasts UNO 14-15 % above the measured peak
# (hand 1: 270 MB against 235; hand 10: 1.30 GB against 1.14), the small tables within 10 MB.
BASE_BYTES = 40 * MIB
PER_DEAL_CARD = 2_200
# Protocols whose class deals hold more than that, by P_1's hand: bench/full_deck.py's peaks
# (one worker, stop 58), as bytes per card of each class deal above BASE_BYTES, plus 15 % as
# PER_DEAL_CARD has. card-selection-arrow's knockout lottery keeps more states the more
# candidates it has: 1.5 KB per card at hands 1-2, 1.9 at 3, 2.3 at 4, 5.4 at 5, 8.6 at 6, 24.9
# at 7 (peaks 196 MB to 10.5 GB); by the paper's protocols' figure, hand 7 was forecast at 1 GB.
MEASURED_PER_DEAL_CARD: dict[str, dict[int, int]] = {
    "card-selection-arrow": {4: 2_700, 5: 6_200, 6: 9_900, 7: 28_600},
}

_UNITS = {
    **{"": 1, "B": 1, "K": 1 << 10, "KB": 1 << 10, "M": MIB, "MB": MIB},
    **{"G": GIB, "GB": GIB, "T": 1 << 40, "TB": 1 << 40},
}


def parse_size(text: str) -> int:
    """``--max-memory``: a number of bytes, or with a unit: ``512M``, ``4G``, ``2.5GB`` (powers
    of 1024). Anything else is a usage error (exit 2)."""
    raw = text.strip().upper().replace("IB", "B")
    number = raw.rstrip("KMGTB")
    unit = raw[len(number) :]
    try:
        value = float(number)
    except ValueError:
        value = -1.0
    if unit not in _UNITS or not math.isfinite(value) or value <= 0 or len(text) > 32:
        raise UsageError(f"«max_memory» is a size such as 512M, 4G or 2.5GB, not {text!r}")
    return int(value * _UNITS[unit])


def size_text(n: float) -> str:
    """``1.2 GB``, ``350 MB``: a size as people read it (powers of 1024)."""
    if n >= GIB:
        return f"{n / GIB:.1f} GB"
    return f"{max(1, round(n / MIB))} MB"


def resident() -> int:
    """This process's resident memory in bytes."""
    return int(psutil.Process().memory_info().rss)


def machine_limit() -> int:
    """The memory this process may use by default: what the system has available plus what the
    process already holds, within its address-space, data and control-group limits, less a
    margin (so that the verification stops before the machine swaps)."""
    proc = psutil.Process().memory_info()
    room = int(psutil.virtual_memory().available) + int(proc.rss)
    for which in (resource.RLIMIT_AS, resource.RLIMIT_DATA):
        soft, _ = resource.getrlimit(which)
        if soft != resource.RLIM_INFINITY:  # the process's own mappings count against it
            room = min(room, soft - max(0, int(proc.vms) - int(proc.rss)))
    group = _cgroup_room()
    if group is not None:
        room = min(room, group + int(proc.rss))
    return max(MIB, room - max(MARGIN_MIN, int(room * MARGIN_FRACTION)))


def _cgroup_room() -> int | None:
    """What this process's control group (a container) may still allocate, if it is limited."""
    for limit_file, usage_file in (
        ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
        ("/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes"),
    ):
        try:
            limit = Path(limit_file).read_text(encoding="ascii").strip()
            usage = int(Path(usage_file).read_text(encoding="ascii").strip())
        except (OSError, ValueError):
            continue
        if limit.isdigit() and int(limit) < 1 << 60:
            return max(0, int(limit) - usage)
    return None


def per_deal_card(protocol: str | None = None, hand: int | None = None) -> int:
    """The bytes per card of each class deal a forecast counts for ``protocol`` with P_1 holding
    ``hand`` cards: :data:`PER_DEAL_CARD`, or more where the protocol was measured above it
    (:data:`MEASURED_PER_DEAL_CARD`): at a measured hand its figure; between two, the larger
    hand's; past the largest, its figure grown by the ratio of the last two for each card more."""
    measured = MEASURED_PER_DEAL_CARD.get(protocol or "", {})
    if not measured or hand is None or hand < min(measured):
        return PER_DEAL_CARD
    above = [h for h in sorted(measured) if h >= hand]
    if above:
        return max(PER_DEAL_CARD, measured[above[0]])
    figures = [0] + [measured[h] for h in sorted(measured)]  # 0: one figure, no growth known
    before, last = figures[-2], figures[-1]
    growth = max(1.0, last / before) if before else 1.0
    return max(PER_DEAL_CARD, math.ceil(last * growth ** (hand - max(measured))))


def class_forecast(deals: int, cards: int, base: int = BASE_BYTES, per_card: int = PER_DEAL_CARD) -> int:
    """The resident memory a verification by classes will reach: ``deals`` class deals of
    ``cards`` cards each (see the module docs), in a process that holds ``base`` bytes before
    (at least :data:`BASE_BYTES`: a fresh one), at ``per_card`` bytes per card of each class
    deal (:func:`per_deal_card`)."""
    return max(base, BASE_BYTES) + deals * cards * per_card


def deals_within(limit: int, cards: int, base: int = BASE_BYTES, per_card: int = PER_DEAL_CARD) -> int:
    """The most class deals of ``cards`` cards whose forecast fits ``limit``."""
    return max(0, (limit - max(base, BASE_BYTES)) // max(1, cards * per_card))


# --------------------------------------------------------------------------- the guard


class OverLimit(Exception):
    """Raised in the verifying thread by :class:`Guard` when the process passed its limit."""


_set_async_exc = ctypes.pythonapi.PyThreadState_SetAsyncExc
_set_async_exc.argtypes = [ctypes.c_ulong, ctypes.py_object]


def _raise_in(thread_id: int, exc: type[BaseException] | None) -> None:
    _set_async_exc(
        ctypes.c_ulong(thread_id), ctypes.py_object(exc) if exc is not None else ctypes.py_object()
    )


class Guard:
    """Stops the verification running in this thread when the process's resident memory passes
    ``limit`` bytes, or when an allocation fails: the ``with`` block ends with
    :class:`~reference_engine.errors.MemoryRefused` (exit code 2), whose message says what was
    measured and ``advice()`` what to try instead. With ``grown``, only what the process grew by
    after the guard started counts (a partition's own share: a forked worker's resident size
    includes the pages it shares with the process it was forked from). Guards nest: an inner
    one (in the same process and thread) only watches."""

    _active: ClassVar[dict[tuple[int, int], Guard]] = {}

    def __init__(self, limit: int | None, what: str, advice: Callable[[], str], grown: bool = False):
        self.base = resident() if grown else 0
        self.limit = limit if limit is not None else machine_limit() - self.base
        self.what = what
        self.advice = advice
        self.peak = 0
        self.fired = 0  # the memory the guard stopped the run at (0: it did not)
        self._thread = threading.get_ident()
        self._key = (os.getpid(), self._thread)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._armed = False
        self._outer = False

    def __enter__(self) -> Guard:
        self._outer = self._key not in Guard._active
        if self._outer:
            Guard._active[self._key] = self
            self._armed = True
            threading.Thread(target=self._watch, daemon=True, name="kitgen-memory-guard").start()
        return self

    def _watch(self) -> None:
        proc = psutil.Process()
        again = 0.0  # when to raise again: code that swallows every exception may have caught it
        while not self._stop.wait(POLL_SECONDS):
            rss = int(proc.memory_info().rss) - self.base
            self.peak = max(self.peak, rss)
            if rss > self.limit and time.monotonic() >= again:
                with self._lock:
                    if not self._armed:
                        return
                    self.fired = self.fired or rss
                    _raise_in(self._thread, OverLimit)
                again = time.monotonic() + REPEAT_SECONDS

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if not self._outer:
            return
        with self._lock:
            self._armed = False
            fired = self.fired
        self._stop.set()
        Guard._active.pop(self._key, None)
        if fired:  # one may still be pending (fired as the block ended): it must not fly later
            _raise_in(self._thread, None)
        if kind is OverLimit or (kind is not None and issubclass(kind, OverLimit)):
            grew = "grew by" if self.base else "passed"
            raise self.refusal(
                f"it {grew} {size_text(fired)} of resident memory, over its limit of "
                f"{size_text(self.limit)} («max_memory»)"
            ) from None
        if kind is MemoryError:
            raise self.refusal(
                "the system refused it more memory (a MemoryError: a process limit such as ulimit -v, "
                f"or the machine's memory), below its limit of {size_text(self.limit)} («max_memory»)"
            ) from None

    def refusal(self, what_happened: str) -> MemoryRefused:
        return MemoryRefused(f"{self.what} was stopped: {what_happened}. {self.advice()}")


def general_advice() -> str:
    """What to try when an exact verification does not fit (no whole-deck forecast to go by)."""
    return (
        "Forecast it first («estimate»); verify it at smaller «params», or on a machine with more "
        "memory («max_memory» raises the limit up to what the machine has); «workers» splits "
        "the inputs over processes (each holds part of the states), «scheduler» over a Dask cluster."
    )


def limit_share(limit: int | None, parts: int) -> int | None:
    """Each of ``parts`` local processes' share of ``limit`` (None: each its machine's, shared)."""
    total = limit if limit is not None else machine_limit()
    return max(MIB, (total - resident()) // max(1, parts))


__all__ = [
    "BASE_BYTES",
    "MEASURED_PER_DEAL_CARD",
    "PER_DEAL_CARD",
    "Guard",
    "MemoryRefused",
    "OverLimit",
    "class_forecast",
    "deals_within",
    "general_advice",
    "limit_share",
    "machine_limit",
    "parse_size",
    "per_deal_card",
    "resident",
    "size_text",
]
