"""Small validators that collect every problem in a file instead of stopping at the first.

Each ``check_*`` function takes a :class:`Checker` (the source and the problem list), a
value and its key path; it returns the converted value, or None after recording a
problem that names the file, line and key path.
"""

from __future__ import annotations

import difflib
import textwrap
from collections.abc import Iterable
from typing import Any

from .errors import Problem, SpecError
from .expressions import MAX_NUMBER, Expression, ExprSyntaxError, parse, too_large
from .source import KeyPath, Source


class Checker:
    """Collects problems for one source file."""

    def __init__(self, source: Source):
        self.source = source
        self.problems: list[Problem] = []

    def error(self, path: KeyPath, message: str) -> None:
        problem = self.source.problem(path, message)
        if problem not in self.problems:
            self.problems.append(problem)

    def raise_if_any(self) -> None:
        if self.problems:
            raise SpecError(self.problems)

    # -- shapes -----------------------------------------------------------------
    def mapping(
        self,
        value: Any,
        path: KeyPath,
        required: Iterable[str] = (),
        optional: Iterable[str] = (),
        what: str = "",
    ) -> dict[str, Any] | None:
        """A mapping with known keys; unknown keys are reported with a suggestion. A whole file
        (``path`` empty) that is not a mapping is that one problem, raised at once: nothing else
        in it can be checked (a YAML list would otherwise add a problem per missing key)."""
        if not isinstance(value, dict):
            self.error(path, f"expected a mapping{' (' + what + ')' if what else ''}, got {_kind(value)}")
            if not path:
                self.raise_if_any()
            return None
        req, opt = list(required), list(optional)
        allowed = req + opt
        for key in value:
            if key not in allowed:
                self.error(path + (key,), unknown_key_message(str(key), allowed))
        for key in req:
            if key not in value:
                self.error(path, f"missing required key {key!r}")
        return value

    def table(self, value: Any, path: KeyPath, what: str = "a mapping") -> dict[Any, Any]:
        """A mapping whose keys are names chosen by the author (regions, variables...)."""
        if isinstance(value, dict):
            return value
        self.error(path, f"expected {what}, got {_kind(value)}")
        return {}

    def string(self, value: Any, path: KeyPath, what: str = "text") -> str | None:
        if isinstance(value, str) and value.strip():
            return value
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(value)
        self.error(path, f"expected {what}, got {_kind(value)}")
        return None

    def integer(self, value: Any, path: KeyPath, minimum: int | None = None) -> int | None:
        if isinstance(value, bool) or not isinstance(value, int):
            self.error(path, f"expected a whole number, got {_kind(value)}")
            return None
        if abs(value) > MAX_NUMBER:
            self.error(path, too_large(value))
            return None
        if minimum is not None and value < minimum:
            self.error(path, f"must be at least {minimum}, got {value}")
            return None
        return value

    def listing(self, value: Any, path: KeyPath, what: str = "a list") -> list[Any] | None:
        if isinstance(value, list):
            return value
        self.error(path, f"expected {what}, got {_kind(value)}")
        return None

    def expr(self, value: Any, path: KeyPath) -> Expression | None:
        """Parse an expression; syntax errors are reported with a caret."""
        if value is None:
            self.error(path, "expected an expression, got nothing")
            return None
        if isinstance(value, list):
            # A YAML list of expressions is a list literal.
            parts = []
            for i, v in enumerate(value):
                e = self.expr(v, path + (i,))
                if e is None:
                    return None
                parts.append(e.text if isinstance(v, str) else str(e.text))
            return self.expr("[" + ", ".join(parts) + "]", path)
        try:
            return parse(value)
        except ExprSyntaxError as exc:
            self.error(
                path,
                f"{exc.message} at column {exc.col + 1}:\n" + textwrap.indent(exc.pointer(), "      "),
            )
            return None


def check_lengths(ck: Checker, data: Any, limits: dict[str, int], default: int, key_limit: int) -> bool:
    """Refuse every text longer than its limit, before anything reads it: a title or a sentence
    of a million characters would take the booklet's typesetting minutes, an expression of one
    the parser. A text's limit is that of the nearest key of its path found in ``limits``
    (``steps[4].say``: ``say``; ``steps[4].labels."s[3..4]"``: ``labels``), else ``default``;
    every mapping key is at most ``key_limit`` characters. True when everything is within."""
    ok = True
    # Each value with its path and the nearest key of its path found in ``limits`` (None: none),
    # carried down rather than looked for again at every text.
    stack: list[tuple[KeyPath, Any, str | None]] = [((), data, None)]
    while stack:
        path, value, key = stack.pop()
        if isinstance(value, dict):
            for k, v in value.items():
                name = str(k)
                if len(name) > key_limit:
                    ck.error(path, f"a key of {len(name):,} characters (at most {key_limit:,})")
                    ok = False
                    continue
                stack.append((path + (name,), v, name if name in limits else key))
        elif isinstance(value, list):
            stack.extend((path + (i,), v, key) for i, v in enumerate(value))
        elif isinstance(value, str):
            limit = limits[key] if key is not None else default
            if len(value) > limit:
                ck.error(
                    path,
                    f"the text has {len(value):,} characters; at most {limit:,} here"
                    + (f" ({key})" if key is not None else ""),
                )
                ok = False
    return ok


def unknown_key_message(key: str, allowed: list[str]) -> str:
    close = difflib.get_close_matches(key, allowed, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return f"unknown key {key!r}{hint}; allowed here: {', '.join(allowed)}"


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"true/false ({str(value).lower()})"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return f"text {value!r}"
    return f"{type(value).__name__} {value!r}"
