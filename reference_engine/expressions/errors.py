"""The two errors of the expression language: bad text, and a failed evaluation.

Both are defined here and nowhere else, so that re-parenting them in the project's error
tree (:mod:`reference_engine.errors`) is a change to this module only.
"""

from __future__ import annotations


class ExprSyntaxError(Exception):
    """The text is not a valid expression. ``col`` is the 0-based column of the problem."""

    def __init__(self, message: str, text: str, col: int):
        self.message = message
        self.text = text
        self.col = col
        shown, _ = _window(text, col)
        super().__init__(f"{message} in {shown!r} at column {col + 1}")

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


class EvalError(Exception):
    """An expression could not be evaluated (unknown name, wrong type, ...)."""
