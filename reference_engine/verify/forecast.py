"""How much an exact verification will take, before it runs: states, memory and time.

The number of table states an exact verification goes through cannot be read off a spec: it
depends on what the shuffles and merges do. So the forecast *measures* the same protocol at
smaller sizes of one whole-number parameter (``m = 4 ... 7`` for ``m = 8``) and extrapolates:

* the states processed and the largest frontier grow by a ratio per step of the parameter;
  the *low* figure keeps the last measured ratio, the *high* one lets the ratio keep growing
  as it grew between the last two measurements (checked on the lottery: from m = 4, 5, 6 it
  gives 0.89-1.04 million states for m = 7, which processes 1.01 million);
* memory (Python's own allocations at their peak, traced in a second run of each size) and
  time (processor seconds of one process on this machine: the wall time on a free core, and
  not thrown off by other work sharing the machine) are extrapolated the same way (the
  lottery's figures are in docs/verification.md).

A protocol without a whole-number parameter to vary (a Gakmoro round) is measured on the
first 1/32, 1/16, 1/8 and 1/4 of its inputs instead, and extrapolated to all of them
(:func:`_by_inputs`).

The smaller sizes are measured from the smallest up, and stop before one that would take
more than ``budget_seconds``; a size is traced for memory when that would take at most
``trace_seconds`` (tracing slows a run down about 3.5 times). Splitting over ``--workers N``
divides time by at most N; memory per process falls by less (each partition holds its share
of the inputs but most of the table states).
"""

from __future__ import annotations

import math
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import UsageError
from ..registry import Library
from ..spec import Params, Protocol
from .exact import verify
from .setting import setting


@dataclass
class Measured:
    value: int  # the parameter's value, or the inputs measured (a forecast by inputs)
    states: int
    frontier: int
    peak_bytes: int
    seconds: float

    def share_of(self) -> int:
        return self.value


@dataclass
class Forecast:
    """Measured runs at smaller sizes, and the extrapolation to the asked size."""

    protocol: str
    param: str
    target: int
    params: dict[str, Any]
    measured: list[Measured] = field(default_factory=list)
    states: tuple[int, int] = (0, 0)  # low, high
    frontier: tuple[int, int] = (0, 0)
    memory_bytes: tuple[int, int] = (0, 0)  # Python's allocations at their peak

    @property
    def resident_bytes(self) -> tuple[int, int]:
        """The process's resident memory: the allocations times :data:`RESIDENT`, plus the
        interpreter and the library (:data:`BASE_BYTES`)."""
        lo, hi = self.memory_bytes
        return int(lo * RESIDENT) + BASE_BYTES, int(hi * RESIDENT) + BASE_BYTES

    seconds: tuple[float, float] = (0.0, 0.0)

    def to_json(self) -> dict[str, Any]:
        return {
            "protocol": self.protocol,
            "param": self.param,
            "target": self.target,
            "params": self.params,
            "measured": [m.__dict__ for m in self.measured],
            "states_processed": list(self.states),
            "largest_frontier": list(self.frontier),
            "memory_mb": [round(b / 2**20) for b in self.memory_bytes],
            "resident_mb": [round(b / 2**20) for b in self.resident_bytes],
            "seconds": [round(s, 1) for s in self.seconds],
        }


def forecast(
    library: Library,
    proto: Protocol,
    params: Params | None = None,
    scenario: str | None = None,
    by: str | None = None,
    budget_seconds: float = 60.0,
    trace_seconds: float = 30.0,
    allowed: Callable[[dict[str, Any]], object] | None = None,
) -> Forecast:
    """Measure ``proto`` at up to four smaller values of the parameter ``by`` (by default the
    first whole-number parameter above its minimum) and extrapolate to the asked value.
    ``allowed(params)`` is called before each measured run and may refuse it by raising
    (the CLI's size limits)."""
    st_ = setting(proto, params, scenario)
    if by is None and not _has_size(proto, st_.params):
        return _by_inputs(library, proto, st_.params, scenario, budget_seconds, trace_seconds)
    name = by or _size_param(proto, st_.params)
    decl = proto.params.get(name)
    if decl is None or decl.is_list:
        raise UsageError(f"{proto.name} has no whole-number parameter {name!r} to measure smaller sizes of")
    target = _whole(st_.params[name])
    low = max(decl.minimum if decl.minimum is not None else 1, target - 4)
    if target - low < 2:
        raise UsageError(
            f"{proto.name}: {name}={target} leaves fewer than two smaller sizes to measure "
            f"({name} is at least {low}); verify it directly"
        )
    out = Forecast(proto.name, name, target, dict(st_.params))
    for value in range(low, target):
        if out.measured and _next_seconds(out.measured) > budget_seconds:
            break  # the next size would take longer than the forecast may
        if allowed is not None:
            allowed({**st_.params, name: value})
        trace = not out.measured or _next_seconds(out.measured) * TRACE_COST <= trace_seconds
        out.measured.append(_measure(library, proto, {**st_.params, name: value}, scenario, name, trace))
    last = out.measured[-1]
    steps = target - last.value
    out.states = _extrapolate([m.states for m in out.measured], steps)
    out.frontier = _extrapolate([m.frontier for m in out.measured], steps)
    traced = [m for m in out.measured if m.peak_bytes]
    lo, hi = _extrapolate([m.peak_bytes for m in traced], target - traced[-1].value)
    out.memory_bytes = (int(lo), int(hi))
    out.seconds = _extrapolate([m.seconds for m in out.measured], steps)
    return out


# Resident memory over traced allocations, measured on the lottery: 381 MB / 325 MB at m = 7,
# 6.2 GB at m = 8 (forecast 2.4-5.4 GB of allocations); the interpreter and library: ~30 MB.
RESIDENT = 1.2
BASE_BYTES = 30 * 2**20
TRACE_COST = 3.5  # a run with its allocations traced takes about this many times as long


def _next_seconds(measured: list[Measured]) -> float:
    """How long the next size will take: the last time times the last growth (x10 at first)."""
    last = measured[-1].seconds
    ratio = last / measured[-2].seconds if len(measured) > 1 and measured[-2].seconds > 0 else 10.0
    return last * max(ratio, 1.0)


def _has_size(proto: Protocol, params: Params) -> bool:
    """Whether the protocol has a whole-number parameter at all (else: a forecast by inputs)."""
    return any(not p.is_list for p in proto.params.values())


def _by_inputs(
    library: Library,
    proto: Protocol,
    params: Params,
    scenario: str | None,
    budget_seconds: float,
    trace_seconds: float,
) -> Forecast:
    """A protocol without a size to vary (a Gakmoro round): measure the first 1/32, 1/16, 1/8
    and 1/4 of its inputs (one partition's work, the sub-protocol runs included) and extrapolate
    to all of them (:func:`_linear`)."""
    from ..machine import LocalDecider, Runner
    from .inputs import input_assignments
    from .partition import run_part

    st_ = setting(proto, params, scenario)
    frame = Runner(library, "exact", context=st_.context).frame(proto, st_.params)
    total = len(input_assignments(frame, st_.deal))
    out = Forecast(proto.name, "inputs", total, dict(st_.params))
    for parts in (32, 16, 8, 4):
        if parts > total:
            continue
        if out.measured and _next_seconds(out.measured) > budget_seconds:
            break
        trace = not out.measured or _next_seconds(out.measured) * TRACE_COST <= trace_seconds

        def one(parts: int = parts) -> Any:
            return run_part(library, proto, st_.params, scenario, 0, parts, set(), False, LocalDecider([]))

        started = time.process_time()
        part = one()
        seconds = time.process_time() - started
        peak = 0
        if trace:
            tracemalloc.start()
            try:
                one()
                _, peak = tracemalloc.get_traced_memory()
            finally:
                tracemalloc.stop()
        out.measured.append(
            Measured(part.share, part.states_processed, part.peak_frontier, peak, round(seconds, 3))
        )
    if len(out.measured) < 2:
        raise UsageError(f"{proto.name} has too few inputs ({total}) to forecast: verify it directly")
    out.states = _linear([(m.share_of(), m.states) for m in out.measured], total)
    out.frontier = _linear([(m.share_of(), m.frontier) for m in out.measured], total)
    traced = [m for m in out.measured if m.peak_bytes]
    if len(traced) > 1:
        lo, hi = _linear([(m.share_of(), m.peak_bytes) for m in traced], total)
    else:
        lo = hi = traced[-1].peak_bytes * total // traced[-1].value
    out.memory_bytes = (int(lo), int(hi))
    out.seconds = _linear([(m.share_of(), m.seconds) for m in out.measured], total)
    return out


def _linear(points: list[tuple[int, Any]], at: int) -> tuple[Any, Any]:
    """(low, high) at ``at`` inputs from the last two measured points: low keeps their growth
    (a power of the inputs: states merge between inputs, so the work grows slower than they
    do), high grows in proportion to the inputs (at most what separate runs would take)."""
    (x1, y1), (x2, y2) = points[-2], points[-1]
    scaled = y2 * at / x2
    low = scaled
    if y1 > 0 and y2 > 0 and x2 > x1:
        power = math.log(y2 / y1) / math.log(x2 / x1)
        low = y2 * (at / x2) ** min(power, 1.0)
    lo, hi = sorted((low, scaled))
    kind = type(y2)
    return kind(lo), kind(hi)


def _size_param(proto: Protocol, params: Params) -> str:
    for p in proto.params.values():
        if not p.is_list and _whole(params[p.name]) > (p.minimum if p.minimum is not None else 1):
            return p.name
    raise UsageError(f"{proto.name} has no whole-number parameter to measure smaller sizes of")


def _measure(
    library: Library, proto: Protocol, params: dict[str, Any], scenario: str | None, name: str, trace: bool
) -> Measured:
    """One verification timed, then (when ``trace``) once more with its allocations traced
    (tracing slows Python down several times, so the time comes from the first run)."""
    started = time.process_time()
    report = verify(library, proto, params, scenario)
    seconds = time.process_time() - started
    peak = 0
    if trace:
        tracemalloc.start()
        try:
            verify(library, proto, params, scenario)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    return Measured(
        value=_whole(params[name]),
        states=int(report.stats["states_processed"]),
        frontier=int(report.stats["peak_frontier"]),
        peak_bytes=peak,
        seconds=round(seconds, 3),
    )


def _whole(v: Any) -> int:
    if isinstance(v, tuple):
        raise UsageError("a list parameter has no smaller sizes to measure")
    return int(v)


def _extrapolate(series: list[Any], steps: int) -> tuple[Any, Any]:
    """(low, high) after ``steps`` more steps: the last ratio kept, or growing as it grew."""
    if len(series) < 2 or series[-2] == 0:
        return series[-1], series[-1]
    ratio = series[-1] / series[-2]
    growth = 1.0
    if len(series) >= 3 and series[-3] > 0:
        growth = max(1.0, ratio / (series[-2] / series[-3]))
    low = high = float(series[-1])
    r = ratio
    for _ in range(steps):
        low *= ratio
        r *= growth
        high *= r
    kind = type(series[-1])
    return kind(low), kind(max(low, high))
