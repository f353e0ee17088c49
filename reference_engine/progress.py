"""Progress of long work, as data: the engine reports, the caller (kitgen) decides what to show.

The engine never prints. Where work may take a while (the steps of an exact verification, the
hands of a whole-deck verification, the protocol runs of a game) it calls :func:`report` with
what it is doing, how far it is and how far it goes; a caller that wants to show it runs the
work inside :func:`reporting` with its own function. Outside that, :func:`report` does nothing.
Worker processes of a verification report nothing (the coordinator reports their rounds).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

Progress = Callable[[str, int, "int | None", str], None]
"""``progress(what, done, total, detail)``: ``what`` names the work ("verifying card-selection"),
``done`` of ``total`` (None when unknown) units are finished, ``detail`` says more ("step 6,
5,632 table states")."""

_CURRENT: ContextVar[Progress | None] = ContextVar("kitgen_progress", default=None)


def report(what: str, done: int, total: int | None = None, detail: str = "") -> None:
    """Tell the caller's progress function, if any, how far the work is."""
    fn = _CURRENT.get()
    if fn is not None:
        fn(what, done, total, detail)


def active() -> bool:
    """Whether anybody listens (to skip preparing a detail nobody reads)."""
    return _CURRENT.get() is not None


@contextmanager
def reporting(fn: Progress | None) -> Iterator[None]:
    """Run the enclosed work with ``fn`` receiving its reports (None: silence)."""
    token = _CURRENT.set(fn)
    try:
        yield
    finally:
        _CURRENT.reset(token)
