"""A return's owners read as the family numbers of a row of owner cards, in C: the value of
``[family_index(t) for t in NAME[k, *]]`` (Step 12's ``to:``, each sleeve back to the owner its
owner card names), as the expression's fast function gives it where it reads the row at once.

The fast function reads the row's faces at once where every card of it is face up and seen
(none empty, face down, or hidden in a sleeve), then calls ``family_index`` per face: ~100
calls a turn. Here the row's codes go through one table, face id -> family number
(:func:`~.helpers.family_numbers`, which the compiled comprehension itself uses too); a row
its region's sleeves do not hold (the owner cards slid out) is known to have no card in a
sleeve without a look at the slots inside them. Anything
else (the name a variable's, no such region or row, a card the fast function would not read at
once, a face without a family number, a row longer than a comprehension may go through) gives
None: the caller evaluates the expression as compiled.
"""

from __future__ import annotations

from typing import Any

from ..expressions import MAX_ITERATIONS
from ..expressions.nodes import Comprehension, Const, Index, Name, Node, Star
from . import evaluate as ev
from .codegen import function_kind
from .helpers import family_codes, family_numbers, family_source
from .run import Run


def family_row(node: Node, proto: Any) -> tuple[str, int] | None:
    """``(NAME, k)`` where ``node`` is ``[family_index(t) for t in NAME[k, *]]`` (``k`` a
    whole number, ``family_index`` the built-in); None for any other expression."""
    source = family_source(node, lambda name: function_kind(proto, name))
    if not isinstance(source, Index) or not isinstance(source.obj, Name) or len(source.args) != 2:
        return None
    row, rest = source.args
    if not isinstance(row, Const) or type(row.value) is not int or not isinstance(rest, Star):
        return None
    if not isinstance(node, Comprehension) or source.obj.name == node.variables[0]:
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
    frame = reg.sleeve
    if frame is None or k not in frame.rows:
        # No card of the row in a sleeve: a region's places inside its sleeves are the whole
        # rows they hold (sleeves.sleeve_slots), so none of its slots is inside (no set read).
        if ev.CHECKED and not layout.inside.isdisjoint(range(start, start + cols)):
            raise ev.Mismatch(f"{name}[{k}, *]: a row out of the sleeves, with a slot inside one")
        vals = run.cells[start : start + cols]
        return None if min(vals) < 0 else family_codes(vals)
    return family_numbers(run.cells, layout, range(start, start + cols))
