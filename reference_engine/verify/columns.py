"""The forms of expression that choose or fill scrambled columns one column at a time, read
on the syntax tree (the static half of :mod:`.symmetry`'s precondition, used by
:mod:`.segments`): a comprehension over every column reading each at its own column only, and
the first column with a property, which after a scramble is a uniformly random one of those
that have it."""

from __future__ import annotations

from typing import Any

from ..expressions import (
    Attr,
    Call,
    Chain,
    Compare,
    Comprehension,
    Conditional,
    Const,
    Index,
    ListLit,
    Name,
    Node,
    RangeNode,
    Unary,
    shapes,
)


def children(n: Node) -> list[Node]:
    if isinstance(n, ListLit):
        return list(n.items)
    if isinstance(n, Comprehension):
        return [n.element] + [c for _, c in n.clauses]
    if isinstance(n, RangeNode):
        return [n.lo, n.hi]
    if isinstance(n, Call):
        return list(n.args)
    if isinstance(n, Index):
        return [n.obj, *n.args]
    if isinstance(n, Attr):
        return [n.obj]
    if isinstance(n, Unary):
        return [n.operand]
    if isinstance(n, (Chain, Compare)):
        return [n.first] + [c for _, c in n.rest]
    if isinstance(n, Conditional):
        return [n.then, n.cond, n.other]
    return []


def is_const(n: Node, value: Any) -> bool:
    return isinstance(n, Const) and type(n.value) is type(value) and n.value == value


def is_name(n: Node, name: str) -> bool:
    return isinstance(n, Name) and n.name == name


def column_comprehension(node: Node | None, region: str, segs: set[str], filt: bool) -> bool:
    """``[e for j in 1..ncols(R) if c]`` where ``e`` and ``c`` read ``R`` only at column ``j``
    (``R[rows, j]``), mention no other scrambled region and use ``j`` for nothing else; with
    ``filt`` the element must be ``j`` itself (a choice of columns), else it must not be."""
    if not isinstance(node, Comprehension) or not node.clauses or node.clauses[0][0] != "for":
        return False
    if sum(1 for kind, _ in node.clauses if kind == "for") != 1:
        return False
    j = node.variables[0]
    rng = node.clauses[0][1]
    if not (
        isinstance(rng, RangeNode)
        and is_const(rng.lo, 1)
        and isinstance(rng.hi, Call)
        and rng.hi.func == "ncols"
        and len(rng.hi.args) == 1
        and is_name(rng.hi.args[0], region)
    ):
        return False
    if filt != is_name(node.element, j):
        return False
    parts = [c for kind, c in node.clauses[1:]] + ([] if filt else [node.element])
    return all(column_local(p, region, j, segs) for p in parts)


def first_column(node: Node | None, region: str, segs: set[str]) -> bool:
    """``[j for j in 1..ncols(R) if a and b and not any(b' for i in 1..j - 1)]``: the first
    column of ``R`` (in the table's order) that satisfies ``b`` (conditions reading ``R`` at
    column ``j`` only), when ``a`` (conditions not mentioning ``j``) holds; ``b'`` is ``b`` at
    column ``i`` (the same conditions, in any order). At most one column, and which one
    depends on the order of the columns: after a scramble, a uniformly random one of those
    that satisfy ``b`` (Symmetry.take_first draws it so)."""
    if not isinstance(node, Comprehension) or len(node.clauses) < 2 or node.clauses[0][0] != "for":
        return False
    if any(kind != "if" for kind, _ in node.clauses[1:]):
        return False
    j = node.variables[0]
    if not is_name(node.element, j) or not column_comprehension(
        Comprehension(node.col, node.element, node.clauses[:1], node.variables), region, segs, filt=True
    ):
        return False
    terms = [t for _, c in node.clauses[1:] for t in conjuncts(c)]
    earlier = [t for t in terms if no_earlier(t, j) is not None]
    if len(earlier) != 1:
        return False
    i, wanted = no_earlier(earlier[0], j) or ("", [])
    rest = [t for t in terms if t is not earlier[0]]
    if not all(column_local(t, region, j, segs) for t in rest):
        return False
    if not all(column_local(t, region, i, segs) and j not in t.names() for t in wanted):
        return False
    local = [t for t in rest if j in t.names()]
    return bool(local) and alike(local, wanted, {j: i})


same = shapes.same  # two trees alike (segments.py reads it from here)


def conjuncts(node: Node) -> list[Node]:
    if isinstance(node, Chain) and node.rest and all(op == "and" for op, _ in node.rest):
        return [node.first] + [n for _, n in node.rest]
    return [node]


def no_earlier(node: Node, j: str) -> tuple[str, list[Node]] | None:
    """``not any(b for i in 1..j - 1)``: ``i`` and the conjuncts of ``b``; None otherwise
    (:func:`~reference_engine.expressions.shapes.no_earlier`, the compiled takes' reading)."""
    got = shapes.no_earlier(node, j)
    return None if got is None else (got[0], conjuncts(got[1]))


def alike(a: list[Node], b: list[Node], renamed: dict[str, str]) -> bool:
    """The same conditions (each of ``a`` matched by one of ``b``), ``a``'s names renamed."""
    left = list(b)
    for x in a:
        hit = next((k for k, y in enumerate(left) if same(x, y, renamed)), None)
        if hit is None:
            return False
        left.pop(hit)
    return not left


def column_local(node: Node, region: str, j: str, segs: set[str]) -> bool:
    if isinstance(node, Index) and isinstance(node.obj, Name) and node.obj.name == region:
        return len(node.args) == 2 and is_name(node.args[1], j) and not (node.args[0].names() & (segs | {j}))
    if isinstance(node, Name):
        return node.name != j and node.name not in segs
    if isinstance(node, Comprehension) and j in node.variables:
        return False
    return all(column_local(c, region, j, segs) for c in children(node))
