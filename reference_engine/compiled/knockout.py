"""A knockout lottery's decision of a round (``4(c)``) worked out from ``alive``, not evaluated.

Step 4(c) of ``knockout-lottery`` asks four values of every round: the arrows it rotates
(``[P[2, alive[2 * i - 1]] for i in 1..h if U[i] == up]``), the losers (``let out``), the
sleeves still in the running (``let alive``) and the losers' arrows it discards (``[P[2, j] for
j in out]``). :mod:`.chained` keeps them by the layout, ``alive``, ``h`` and the middle arrows'
cards; a round that starts from a layout not met before (a loser's empty place is part of the
layout) evaluates all four through the general evaluator, about half of what such a round costs.
They are plain functions of ``alive``, ``h``, the region ``P``'s offset and width and which
middle arrows point up, relative to ``alive`` (a match's winner is a position in ``alive``
whatever the sleeves' columns): here each is worked out directly (:func:`special`).

When it applies (a static check, then one per run): the expression is one of the four, node for
node (:func:`_shape`, the columns left out); and at the run, every name means what the
interpreter's lookup would find first (``P`` and ``U`` regions of the layout, neither a
variable nor a hand; ``alive``, ``out`` and ``h`` variables of whole numbers, type ``int``
exactly; ``up`` none of those but one of the frame's symbols; ``len`` the built-in function),
``U`` one row of one-card items, every index in range, and every ``U[i]`` read a face-up card
on the open table (not inside a sleeve, not a dealt face a reduction hides). Anything else gives
:data:`NO` and the expression is evaluated as before, so every error and every unusual value is
the evaluator's own. With ``ev.CHECKED`` each value worked out here is compared with the
evaluator's (exact, types included).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from ..cards import DEALT, EMPTY, Symbol, is_up, symbol_of
from ..expressions import Chain, Comprehension, Node
from ..expressions.expression import parse
from ..functions import BUILTINS
from .run import Run

NO: Any = object()
"""What a worked-out value gives where it does not apply: the evaluator's turn."""

Special = Callable[[Run], Any]

ROTATE = "[P[2, alive[2 * i - 1]] for i in 1..h if U[i] == up]"
OUT = "[alive[2 * i] if U[i] == up else alive[2 * i - 1] for i in 1..h]"
ALIVE = (
    "[alive[2 * i - 1] if U[i] == up else alive[2 * i] for i in 1..h]"
    " + ([alive[len(alive)]] if len(alive) % 2 == 1 else [])"
)
DISCARD = "[P[2, j] for j in out]"


def _shape(node: Any) -> Any:
    """A node as nested tuples, its fields but the column (where it stood in the text); each
    constant with its type (``1`` and ``true`` differ)."""
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return (
            type(node).__name__,
            *(_shape(getattr(node, f.name)) for f in dataclasses.fields(node) if f.name != "col"),
        )
    if isinstance(node, (list, tuple)):
        return tuple(_shape(x) for x in node)
    return (type(node).__name__, node)


_SHAPES: dict[Any, tuple[str, str | None]] = {}


def _known() -> dict[Any, tuple[str, str | None]]:
    if not _SHAPES:
        for name, text, sel in (
            ("rotate", ROTATE, "rotate"),
            ("out", OUT, None),
            ("alive", ALIVE, None),
            ("discard", DISCARD, "discard"),
        ):
            _SHAPES[_shape(parse(text).node)] = (name, sel)
    return _SHAPES


def special(node: Node, sel: str | None) -> Special | None:
    """The direct form of one of the four expressions (asked as its Steady asks it: its places
    with ``sel``, its plain value without), or None for any other expression."""
    if not isinstance(node, (Comprehension, Chain)):  # each of the four is one or the other
        return None
    found = _known().get(_shape(node))
    if found is None or found[1] != sel:
        return None
    return _FORMS[found[0]]


def _region(run: Run, env: dict[str, Any], name: str) -> Any:
    """The region a name means (a variable shadows it), or None where it is not a plain one."""
    if name in env:
        return None
    reg = run.layout.by_name.get(name)
    if reg is None or reg.hand is not None:
        return None
    return reg


def _ints(env: dict[str, Any], name: str) -> tuple[int, ...] | None:
    v = env.get(name)
    if type(v) is not tuple or any(type(x) is not int for x in v):
        return None
    return v


def _ups(run: Run, env: dict[str, Any], h: int) -> list[bool] | None:
    """``U[i] == up`` for i in 1..h, as the evaluator reads them (None where it would not read
    them this simple way: see the module docs)."""
    reg = _region(run, env, "U")
    if reg is None or reg.rows != 1 or reg.unit != 1 or h > reg.cols:
        return None
    if "up" in env or "up" in run.layout.by_name:
        return None
    up = run.frame.globals.names.get("up")
    if type(up) is not Symbol:
        return None
    cells = run.cells
    inside = run.layout.inside
    dealt = DEALT.ids
    out = []
    for flat in range(reg.offset, reg.offset + h):
        c = cells[flat]
        if c == EMPTY or not is_up(c) or flat in inside or (dealt and DEALT.hidden(c >> 1)):
            return None
        out.append(symbol_of(c) == up)
    return out


def _round(run: Run) -> tuple[dict[str, Any], tuple[int, ...], int] | None:
    env = run.vars()
    alive = _ints(env, "alive")
    h = env.get("h")
    if alive is None or type(h) is not int or h < 1 or 2 * h > len(alive):
        return None
    return env, alive, h


def _column_flats(run: Run, env: dict[str, Any], columns: Any) -> tuple[int, ...] | None:
    """The places ``P[2, j]`` for the columns ``j``."""
    reg = _region(run, env, "P")
    if reg is None or reg.rows < 2:
        return None
    cols = reg.cols
    base = reg.offset + cols - 1
    out = []
    for j in columns:
        if not 1 <= j <= cols:
            return None
        out.append(base + j)
    return tuple(out)


def _rotate(run: Run) -> Any:
    got = _round(run)
    if got is None:
        return NO
    env, alive, h = got
    ups = _ups(run, env, h)
    if ups is None:
        return NO
    flats = _column_flats(run, env, [alive[2 * i] for i in range(h) if ups[i]])
    return NO if flats is None else flats


def _out(run: Run) -> Any:
    got = _round(run)
    if got is None:
        return NO
    env, alive, h = got
    ups = _ups(run, env, h)
    if ups is None:
        return NO
    return [alive[2 * i + 1] if ups[i] else alive[2 * i] for i in range(h)]


def _alive(run: Run) -> Any:
    got = _round(run)
    if got is None or run.frame.globals.functions.get("len") is not BUILTINS.get("len"):
        return NO
    env, alive, h = got
    ups = _ups(run, env, h)
    if ups is None:
        return NO
    left = [alive[2 * i] if ups[i] else alive[2 * i + 1] for i in range(h)]
    return left + ([alive[-1]] if len(alive) % 2 == 1 else [])


def _discard(run: Run) -> Any:
    env = run.vars()
    out = _ints(env, "out")
    if out is None:
        return NO
    flats = _column_flats(run, env, out)
    return NO if flats is None else flats


_FORMS: dict[str, Special] = {"rotate": _rotate, "out": _out, "alive": _alive, "discard": _discard}
