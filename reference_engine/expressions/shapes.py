"""Forms of syntax trees that more than one reader of a spec recognises: two trees alike but for
where they were written, and the condition "no earlier column has it". The compiled runner's
takes (``reference_engine/compiled/takes.py``) and the verifier's column forms
(``reference_engine/verify/columns.py``) read the same forms, so they share this one reading:
what the runner takes as the first such column is what the verifier checks is a uniformly random
one of them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .nodes import Call, Chain, Comprehension, Const, Name, Node, RangeNode, Unary


def same(a: Any, b: Any, renamed: Mapping[str, str] | None = None) -> bool:
    """Two syntax trees alike but for where they were written (each node's ``col``): the same node
    types, and leaves of the same type and value (``1`` is not ``true``); with ``renamed``, a
    name of ``a`` stands for another in ``b``."""
    if renamed and isinstance(a, Name) and isinstance(b, Name):
        return renamed.get(a.name, a.name) == b.name
    if type(a) is not type(b):
        return False
    if isinstance(a, Node):
        fa = {k: v for k, v in vars(a).items() if k != "col"}
        fb = {k: v for k, v in vars(b).items() if k != "col"}
        return fa.keys() == fb.keys() and all(same(fa[k], fb[k], renamed) for k in fa)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y, renamed) for x, y in zip(a, b))
    return bool(a == b)


def _is_int(node: Node, value: int) -> bool:
    return isinstance(node, Const) and type(node.value) is int and node.value == value


def no_earlier(node: Node, j: str) -> tuple[str, Node] | None:
    """``not any(e for i in 1..j - 1)``, one loop variable ``i`` other than ``j`` over exactly
    that range: ``i`` and ``e``; None for any other form."""
    if not (isinstance(node, Unary) and node.op == "not" and isinstance(node.operand, Call)):
        return None
    call = node.operand
    if call.func != "any" or len(call.args) != 1 or not isinstance(call.args[0], Comprehension):
        return None
    comp = call.args[0]
    if len(comp.variables) != 1 or len(comp.clauses) != 1 or comp.clauses[0][0] != "for":
        return None
    i, rng = comp.variables[0], comp.clauses[0][1]
    if i == j or not (isinstance(rng, RangeNode) and _is_int(rng.lo, 1)):
        return None
    hi = rng.hi
    if not (
        isinstance(hi, Chain)
        and isinstance(hi.first, Name)
        and hi.first.name == j
        and len(hi.rest) == 1
        and hi.rest[0][0] == "-"
        and _is_int(hi.rest[0][1], 1)
    ):
        return None
    return i, comp.element


__all__ = ["no_earlier", "same"]
