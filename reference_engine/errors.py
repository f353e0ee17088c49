"""One exception hierarchy for the whole project.

Every error a user can cause with their own input (a spec, a rule set, an option) derives
from :class:`KitgenError`, which is a :class:`click.ClickException`: the command line
prints the message and exits with the error's ``exit_code``, never a traceback. One
subclass per stage of the data flow::

    KitgenError
    ├── UsageError            an impossible option or argument                      (exit 2)
    ├── LoadError             a spec, rule set or template cannot be loaded         (exit 2)
    │   ├── SpecError         ... or is invalid: every problem with file:line:key
    │   ├── ExprSyntaxError   an expression that does not parse (with its column)
    │   └── RecordError       a game record that is not JSON or not of the record format
    ├── RunError              a protocol or game cannot be carried out              (exit 2)
    │   ├── SimulationError   ... at a step of a spec (file:line:key)
    │   ├── EvalError         an expression that cannot be evaluated
    │   └── CheckFailure      a protocol run broke a rule of the game            (exit 1)
    ├── VerificationError     a verification cannot be carried out                  (exit 2)
    │   ├── ReductionRefused  a shortcut's precondition fails: nothing is verified
    │   ├── MemoryRefused     it would not fit, or did not fit, in «max_memory»
    │   └── VerificationFailed  a protocol fails its checks: nothing is printed  (exit 1)
    ├── RenderError           a kit or booklet cannot be written                    (exit 2)
    └── Interrupted           Ctrl-C (exit 130) or SIGTERM (exit 143)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

import click

_SETTING = re.compile(r"«(\w+)»")


def name_settings(text: str, name_of: Callable[[str], str] = str) -> str:
    """``text`` with every marked setting named by ``name_of`` (by default: its bare name).

    An engine message names a setting its caller gives in guillemets (``«virtual» must be between
    0 and 4``), the setting's field name: the engine knows nothing of flags, and each front end
    names a setting its own way when it reports the error (kitgen's command line: ``--virtual``,
    see ``kitgen/cli.py``). Read bare (``str(error)``), the marks are left out."""
    return _SETTING.sub(lambda m: name_of(m.group(1)), text)


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

    name_of: Callable[[str], str] = str  # how :meth:`format_message` names a marked setting

    def format_message(self) -> str:
        return name_settings(self.message, self.name_of)

    def __str__(self) -> str:
        return name_settings(self.message)

    def name_settings(self, name_of: Callable[[str], str]) -> None:
        """Name the settings the message marks (:func:`name_settings`) the front end's way."""
        self.name_of = name_of

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(f"Error ({self.stage}): {self.format_message()}", err=True)


class UsageError(KitgenError):
    """An impossible option or argument on the command line."""

    exit_code = 2
    stage = "usage"


# --------------------------------------------------------------------------- load


class LoadError(KitgenError):
    """A spec, rule set or template could not be loaded."""

    exit_code = 2
    stage = "load"


class SpecError(LoadError):
    """A spec or rule set could not be loaded or is invalid. Holds every problem found."""

    stage = "spec"

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(problems, key=lambda p: (p.file, p.line or 0))
        super().__init__(self._render())

    def _render(self) -> str:
        count = len(self.problems)
        if count == 1:  # one line: file:line: key: message
            return str(self.problems[0])
        return f"{count} problems found:\n" + "\n".join(f"  {p}" for p in self.problems)


class ExprSyntaxError(LoadError):
    """The text is not a valid expression. ``col`` is the 0-based column of the problem;
    ``message`` is the bare message (the loader adds file, line and key)."""

    stage = "spec"

    def __init__(self, message: str, text: str, col: int):
        self.text = text
        self.col = col
        super().__init__(message)  # ``message`` stays the bare message; str() says where

    def __str__(self) -> str:
        shown, _ = _window(self.text, self.col)
        return f"{self.message} in {shown!r} at column {self.col + 1}"

    def format_message(self) -> str:
        return str(self)

    def pointer(self) -> str:
        """The expression with a caret under the problem (lark-style); a long one is cut
        to the part around the problem."""
        shown, at = _window(self.text, self.col)
        return f"{shown}\n{' ' * at}^"


def _window(text: str, col: int, width: int = 72) -> tuple[str, int]:
    """``text`` cut to about ``width`` characters around ``col``, and ``col`` within the cut."""
    if len(text) <= width:
        return text, col
    start = max(0, min(col - width // 2, len(text) - width))
    end = start + width
    head = "..." if start > 0 else ""
    tail = "..." if end < len(text) else ""
    return head + text[start:end] + tail, col - start + len(head)


class RecordError(LoadError):
    """A game record cannot be read: not JSON, or not a record of the format (``file:line:
    key path: message``)."""

    stage = "record"


# --------------------------------------------------------------------------- run


class RunError(KitgenError):
    """A protocol or a game could not be carried out."""

    exit_code = 2
    stage = "run"


class SimulationError(RunError):
    """A spec failed while running (an impossible move, a face-down card read in a decision...)."""

    stage = "simulate"

    def __init__(self, message: str, problem: Problem | None = None):
        self.problem = problem
        super().__init__(str(problem) if problem is not None else message)


class EvalError(RunError):
    """An expression could not be evaluated (unknown name, wrong type, ...). The interpreter
    turns it into a :class:`SimulationError` naming the step."""

    stage = "evaluate"


class CheckFailure(RunError):
    """A virtual player's protocol run broke a rule: the game cannot go on."""

    exit_code = 1
    stage = "play"


# --------------------------------------------------------------------------- verification


class VerificationError(KitgenError):
    """Verification could not be carried out (not: a protocol that fails its checks)."""

    exit_code = 2
    stage = "verify"


class ReductionRefused(VerificationError):
    """A reduction of the exact verifier does not apply to this spec: its precondition fails.

    The verifier never takes a shortcut whose precondition it cannot check; it says which
    precondition failed, and where, and verifies nothing (exit code 2)."""

    stage = "verify"

    def __init__(self, message: str, problem: Problem | None = None):
        super().__init__(str(problem) if problem is not None else message)
        self.reason = message
        self.problem = problem

    def located(self, problem: Problem) -> ReductionRefused:
        """The same refusal at the step where it happened (when it names no place yet)."""
        return self if self.problem is not None else ReductionRefused(self.reason, problem)


class MemoryRefused(VerificationError):
    """An exact verification that would not fit in the memory it may use («max_memory»): refused
    before it starts when its forecast is over the limit, or stopped when it passes it (exit 2),
    never a ``MemoryError`` (see :mod:`reference_engine.verify.memory`)."""

    stage = "verify"


class VerificationFailed(VerificationError):
    """A protocol the kit or booklet teaches fails verification: nothing is written."""

    exit_code = 1
    stage = "build"


# --------------------------------------------------------------------------- render


class RenderError(KitgenError):
    """A kit or booklet could not be written (a file system error, an unprintable layout)."""

    exit_code = 2
    stage = "render"


class Interrupted(KitgenError):
    """Ctrl-C: one line, no traceback, exit code 130 (128 + SIGINT)."""

    exit_code = 130
    stage = "interrupted"

    def __init__(self, message: str = "interrupted"):
        super().__init__(message)

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(f"kitgen: {self.format_message()}", err=True)


class Terminated(Interrupted):
    """SIGTERM during a build: exit code 143 (128 + SIGTERM)."""

    exit_code = 143

    def __init__(self) -> None:
        super().__init__("terminated")
