"""A return's owners read as the family numbers of a row of owner cards, in C: the value of
``[family_index(t) for t in NAME[k, *]]`` (Step 12's ``to:``, each sleeve back to the owner its
owner card names), as the expression's fast function gives it where it reads the row at once.

The fast function reads the row's faces at once where every card of it is face up and seen
(none empty, face down, or hidden in a sleeve), then calls ``family_index`` per face: ~100
calls a turn. Here the row's codes go through one kept map, code -> family number (a symbol's
family number is the trailing number of its name, fixed for the life of the process: the
symbol table only grows). Anything else (the name a variable's, no such region or row, a card
the fast function would not read at once, a face without a family number, a row longer than a
comprehension may go through) gives None: the caller evaluates the expression as compiled.
"""

from __future__ import annotations

from typing import Any

from ..cards import SYMBOLS
from ..expressions import MAX_ITERATIONS
from ..expressions.nodes import Call, Comprehension, Const, Index, Name, Node, Star
from .codegen import function_kind
from .helpers import h_family_index
from .run import Run

_NUMBERS: dict[int, int] = {}
NUMBERS_KEPT = 4096
"""Family numbers kept by card code (a game has a few owner cards, two codes each); bounded:
it starts afresh beyond this."""


def family_row(node: Node, proto: Any) -> tuple[str, int] | None:
    """``(NAME, k)`` where ``node`` is ``[family_index(t) for t in NAME[k, *]]`` (``k`` a
    whole number, ``family_index`` the built-in); None for any other expression."""
    if not isinstance(node, Comprehension) or len(node.clauses) != 1 or len(node.variables) != 1:
        return None
    kind, source = node.clauses[0]
    element = node.element
    if kind != "for" or not isinstance(element, Call) or element.func != "family_index":
        return None
    if len(element.args) != 1 or not isinstance(element.args[0], Name):
        return None
    if element.args[0].name != node.variables[0] or function_kind(proto, "family_index") != "builtin":
        return None
    if not isinstance(source, Index) or not isinstance(source.obj, Name) or len(source.args) != 2:
        return None
    row, rest = source.args
    if not isinstance(row, Const) or type(row.value) is not int or not isinstance(rest, Star):
        return None
    if source.obj.name == node.variables[0]:
        return None  # the row's name is the loop's own variable (not the region)
    return source.obj.name, row.value


def read(run: Run, name: str, k: int) -> list[int] | None:
    """The expression's value on the run's table (see the module docs), or None."""
    if name in run.vars():
        return None  # a variable's value, not the region
    layout = run.layout
    reg = layout.by_name.get(name)
    if reg is None or reg.hand is not None or not 0 < k <= reg.rows:
        return None
    cols = reg.cols
    if not cols or cols > MAX_ITERATIONS:
        return None
    start = reg.offset + (k - 1) * cols
    vals = run.cells[start : start + cols]
    if min(vals) < 0 or not all([v & 1 for v in vals]):
        return None  # an empty place or a face-down card: read one by one, with its message
    inside = layout.inside
    if inside:
        slots = range(start, start + cols)
        if not inside.isdisjoint(slots) and not layout.shown.issuperset(inside.intersection(slots)):
            return None  # a card hidden in a sleeve
    kept = _NUMBERS
    try:
        return list(map(kept.__getitem__, vals))
    except KeyError:
        pass
    local: dict[int, int] = {}
    for v in set(vals):
        n = kept.get(v)
        if n is None:
            sym = SYMBOLS.by_id(v >> 1)
            if sym.name == sym.name.rstrip("0123456789"):
                return None  # no family number: family_index's own message
            n = h_family_index(None, sym)  # type: ignore[arg-type]  # a face: no table read
        local[v] = n
    if len(kept) + len(local) > NUMBERS_KEPT:
        kept.clear()
    kept.update(local)
    return list(map(local.__getitem__, vals))
