"""Running a build with a progress line on stderr, then printing its summary or manifest."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click

from reference_engine.api import RenderError

from ..cache import warnings_to
from ..output import terminate_as_interrupt


class Progress:
    """A progress line for the slow part of a build (drawing the sheets), on stderr."""

    def __init__(self) -> None:
        self.phase = ""
        self.done = 0

    def __call__(self, phase: str, n: int) -> None:
        if phase != self.phase:
            if self.phase:
                click.echo("", err=True)
            self.phase, self.done = phase, 0
            click.echo(f"  {phase}", err=True, nl=False)
        self.done += n
        if n and self.done % 5 == 0:
            click.echo(".", err=True, nl=False)

    def note(self, message: str) -> None:
        """A line of its own (a warning) in the middle of the progress line."""
        self.close()
        click.echo(f"kitgen: {message}", err=True)

    def close(self) -> None:
        """End the line (after the last phase, or before an error message)."""
        if self.phase:
            click.echo("", err=True)
            self.phase = ""


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
    make: Callable[[Progress | None], dict[str, Any]],
    lines: Callable[[dict[str, Any]], list[str]],
    as_json: bool,
) -> None:
    """Run a build with a progress line on stderr (not with --json), then print its manifest.

    SIGTERM ends it like Ctrl-C (temporary folders are removed); a file that cannot be written
    is reported in one line."""
    bar = None if as_json else Progress()
    try:
        with terminate_as_interrupt(), write_errors(), warnings_to(bar.note if bar else _stderr_line):
            manifest = make(bar)
    finally:
        if bar is not None:
            bar.close()
    if as_json:
        click.echo(json.dumps(manifest, indent=2, ensure_ascii=False))
        return
    for line in lines(manifest):
        click.echo(line)
