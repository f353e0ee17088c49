"""One exception hierarchy for the whole project.

Every error a user can cause with their own input (a spec, a rule set, an option)
derives from :class:`KitgenError`, which is a :class:`click.ClickException`: the CLI
prints the message and exits with the error's ``exit_code``, never a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO, Any

import click


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input file: where it is and what is wrong."""

    file: str
    line: int | None
    path: str
    message: str

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        key = f" {self.path}:" if self.path else ""
        return f"{where}:{key} {self.message}"


class KitgenError(click.ClickException):
    """Base of every error caused by user input. Exit code 1 unless a stage says otherwise."""

    exit_code = 1
    stage = "kitgen"

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(f"Error ({self.stage}): {self.format_message()}", err=True)


class SpecError(KitgenError):
    """A spec or rule set could not be loaded or is invalid. Holds every problem found."""

    exit_code = 2
    stage = "spec"

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(problems, key=lambda p: (p.file, p.line or 0))
        super().__init__(self._render())

    def _render(self) -> str:
        count = len(self.problems)
        head = f"{count} problem{'s' if count != 1 else ''} found"
        return head + ":\n" + "\n".join(f"  {p}" for p in self.problems)


class SimulationError(KitgenError):
    """A spec failed while running (an impossible move, a face-down card read in a decision...)."""

    exit_code = 2
    stage = "simulate"

    def __init__(self, message: str, problem: Problem | None = None):
        self.problem = problem
        super().__init__(str(problem) if problem is not None else message)


class VerificationError(KitgenError):
    """Verification could not be carried out (not: a protocol that fails its checks)."""

    exit_code = 2
    stage = "verify"


class UsageError(KitgenError):
    """An impossible option or argument on the command line."""

    exit_code = 2
    stage = "usage"
