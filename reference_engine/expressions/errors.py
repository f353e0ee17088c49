"""The two errors of the expression language: bad text, and a failed evaluation.

Both belong to the project's one error tree (:mod:`reference_engine.errors`): a syntax error
is a load error, an evaluation error a run error.
"""

from __future__ import annotations

from ..errors import EvalError, ExprSyntaxError

__all__ = ["EvalError", "ExprSyntaxError"]
