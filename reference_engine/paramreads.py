"""The parameters a spec's ``expect`` value reads (:func:`param_reads`), and their values as a
key (:func:`read_values`): :mod:`.selection` keeps a paper count by them alone (``sizes[1]``
where it reads no other item of ``sizes``, so that a game's turns, whose sizes all differ,
share it)."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from .expressions import Comprehension, Const, Index, Name, Node
from .kept import exact


def param_reads(node: Node, params: frozenset[str]) -> tuple[tuple[str, int | None], ...] | None:
    """The parameters an expression's value depends on, sorted: ``(name, k)`` where it reads only
    items ``name[k]`` (a whole number written in the expression), ``(name, None)`` where it reads
    the whole value. None where a comprehension's variable has a parameter's name (then the
    caller keys by every parameter)."""
    found: set[tuple[str, int | None]] = set()
    if not _walk(node, params, found):
        return None
    whole = {p for p, k in found if k is None}
    return tuple(sorted((r for r in found if r[1] is None or r[0] not in whole), key=repr))


def _walk(n: Any, params: frozenset[str], found: set[tuple[str, int | None]]) -> bool:
    """:func:`param_reads`' walk of ``n`` (a node, or a list or tuple of them and of plain
    values), adding what it reads to ``found``; False where a comprehension's variable has a
    parameter's name. A module function, not a closure calling itself: that would be a
    reference cycle a card-level game leaves to the cyclic collector at every game."""
    if isinstance(n, (list, tuple)):
        return all(_walk(x, params, found) for x in n)
    if not isinstance(n, Node):
        return True
    if isinstance(n, Name):
        if n.name in params:
            found.add((n.name, None))
        return True
    if (
        isinstance(n, Index)
        and isinstance(n.obj, Name)
        and n.obj.name in params
        and len(n.args) == 1
        and isinstance(n.args[0], Const)
        and type(n.args[0].value) is int
    ):
        found.add((n.obj.name, n.args[0].value))
        return True
    if isinstance(n, Comprehension) and params.intersection(n.variables):
        return False
    return all(_walk(getattr(n, f.name), params, found) for f in fields(n))


def read_values(params: dict[str, Any], reads: tuple[tuple[str, int | None], ...]) -> tuple[Any, ...]:
    """The values of ``reads`` (:func:`param_reads`) in ``params``, each exact (1 is not True): an
    item its index does not reach is keyed by the whole value (its evaluation fails or reads
    what the interpreter's indexing reads)."""
    out: list[Any] = []
    for p, k in reads:
        value = params.get(p)
        if k is not None and type(value) is tuple and 0 < k <= len(value):
            out.append(("item", k, exact(value[k - 1])))
        else:
            out.append(("whole", k, exact(value)))
    return tuple(out)
