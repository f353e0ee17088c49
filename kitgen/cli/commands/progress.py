"""Long work speaks: one progress line on stderr, for every command that may take a while.

The engine reports how far its work is as data (:mod:`reference_engine.progress`); a build
reports its phases and the sheets it draws. :class:`ProgressLine` shows the latest report on
one line of stderr, rewritten in place: what is being done, done/total, the time so far and,
when the total is known, about how long is left. It stays silent for the first
:data:`QUIET_SECONDS` (quick commands print nothing), with ``--json``, and when stderr is not
a terminal (a pipe, a log file, the tests); it redraws at most every :data:`REDRAW_SECONDS` and
wipes the line when the work ends, so the command's own output follows on a clean line.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO, TypeVar

import click

from reference_engine.api import RenderError, reporting

from ...core.cache import warnings_to
from ...core.manifest import Manifest
from ...core.output import terminate_as_interrupt

M = TypeVar("M", bound=Manifest)
QUIET_SECONDS = 2.0
REDRAW_SECONDS = 0.25


class ProgressLine:
    """The one progress line (see the module docs). Call it as the engine's progress function
    (``line(what, done, total, detail)``) or as a build's step (``line(phase, n)``: ``n`` more of
    the phase done; ``line.total(phase, total)`` says how many there will be)."""

    def __init__(self, stream: IO[str] | None = None, enabled: bool | None = None):
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = _is_terminal(self.stream) if enabled is None else enabled
        self.started = time.monotonic()
        self.first: dict[str, float] = {}  # when each kind of work was first reported
        self.counts: dict[str, int] = {}  # a build phase's units done so far
        self.totals: dict[str, int] = {}
        self.drawn = 0  # length of the line on the screen
        self.last = 0.0
        self.pending = ""

    def __call__(self, what: str, done: int, total: int | None = None, detail: str | None = None) -> None:
        if detail is None:  # a build's step: ``done`` more units of the phase ``what``
            done = self.counts[what] = self.counts.get(what, 0) + done
            total = self.totals.get(what)
            detail = ""
        self.update(what, done, total, detail)

    def total(self, what: str, total: int) -> None:
        self.totals[what] = total

    def update(self, what: str, done: int, total: int | None, detail: str) -> None:
        now = time.monotonic()
        first = self.first.setdefault(what, now)
        self.pending = self.text(what, done, total, detail, now - self.started, now - first)
        if not self.enabled or now - self.started < QUIET_SECONDS or now - self.last < REDRAW_SECONDS:
            return
        self.draw(self.pending)
        self.last = now

    @staticmethod
    def text(what: str, done: int, total: int | None, detail: str, elapsed: float, spent: float) -> str:
        """``verifying card-selection: 6/12 (step 6, 5,632 table states), 0:42, about 0:35 left``."""
        count = f"{done:,}/{total:,}" if total else (f"{done:,}" if done else "")
        parts = [p for p in (count, f"({detail})" if detail else "") if p]
        out = f"{what}: {' '.join(parts)}" if parts else what
        out += f", {_clock(elapsed)}"
        if total and 0 < done < total and spent > 0.5:
            out += f", about {_clock(spent / done * (total - done))} left"
        return out

    def draw(self, text: str) -> None:
        width = 120
        text = text if len(text) <= width else text[: width - 1] + "…"
        pad = max(0, self.drawn - len(text))
        self.stream.write("\r" + text + " " * pad)
        self.stream.flush()
        self.drawn = len(text)

    def note(self, message: str) -> None:
        """A line of its own (a warning) in the middle of the progress line."""
        self.close()
        click.echo(f"kitgen: {message}", err=True)

    def close(self) -> None:
        """Wipe the line (before the command's output or an error message)."""
        if self.drawn:
            self.stream.write("\r" + " " * self.drawn + "\r")
            self.stream.flush()
            self.drawn = 0


def _is_terminal(stream: IO[str]) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _clock(seconds: float) -> str:
    s = int(seconds + 0.5)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


@contextmanager
def progress_line(as_json: bool) -> Iterator[ProgressLine | None]:
    """A progress line for the enclosed work (None with --json), which also receives the
    engine's reports; wiped at the end."""
    line = None if as_json else ProgressLine()
    try:
        with reporting(line.update if line is not None else None):
            yield line
    finally:
        if line is not None:
            line.close()


def _stderr_line(message: str) -> None:
    click.echo(f"kitgen: {message}", err=True)


@contextmanager
def write_errors() -> Iterator[None]:
    """A file that cannot be written (a full disk, a read-only file system) ends the command
    with one line naming it, not a traceback."""
    try:
        yield
    except OSError as exc:
        where = f" {exc.filename}" if exc.filename else ""
        raise RenderError(f"cannot write{where}: {exc.strerror or exc}") from None


def write_with_progress(
    make: Callable[[ProgressLine | None], M],
    lines: Callable[[M], list[str]],
    as_json: bool,
) -> None:
    """Run a build with a progress line on stderr (see the module docs), then print its manifest.

    SIGTERM ends it like Ctrl-C (temporary folders are removed); a file that cannot be written
    is reported in one line."""
    with (
        terminate_as_interrupt(),
        write_errors(),
        progress_line(as_json) as bar,
        warnings_to(bar.note if bar else _stderr_line),
    ):
        manifest = make(bar)
    if as_json:
        click.echo(json.dumps(manifest.to_json(), indent=2, ensure_ascii=False))
        return
    for line in lines(manifest):
        click.echo(line)
