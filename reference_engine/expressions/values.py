"""What expressions compute with: the hooks of table values, the wildcard ``*``, name scopes,
and the helpers giving plain Python values the language's semantics (truth, numbers,
equality, membership, 1-based indexing)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import EvalError


class Wildcard:
    """The ``*`` of ``M[2, *]``: every row or every column."""

    _instance: Wildcard | None = None

    def __new__(cls) -> Wildcard:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "*"


WILDCARD = Wildcard()


class Value:
    """Hooks for values with their own semantics (table slots, symbols, records)."""

    def kg_index(self, args: list[Any]) -> Any:
        raise EvalError(f"{self!r} cannot be indexed")

    def kg_attr(self, name: str) -> Any:
        raise EvalError(f"{self!r} has no attribute {name!r}")

    def kg_value(self) -> Any:
        """The plain value used by comparisons and arithmetic (e.g. the faces of cards)."""
        return self


def plain(value: Any) -> Any:
    """Reduce a :class:`Value` to what comparisons see."""
    while isinstance(value, Value):
        nxt = value.kg_value()
        if nxt is value:
            return value
        value = nxt
    return value


class Scope:
    """Name resolution: a dict of names with an optional parent scope."""

    __slots__ = ("functions", "names", "parent")

    def __init__(
        self,
        names: dict[str, Any] | None = None,
        parent: Scope | None = None,
        functions: dict[str, Callable[..., Any]] | None = None,
    ):
        self.names: dict[str, Any] = names if names is not None else {}
        self.parent: Scope | None = parent
        inherited: dict[str, Callable[..., Any]] = parent.functions if parent is not None else {}
        self.functions: dict[str, Callable[..., Any]] = functions if functions is not None else inherited

    def lookup(self, name: str) -> Any:
        if name in self.names:
            return self.names[name]
        if self.parent is not None:
            return self.parent.lookup(name)
        raise EvalError(f"unknown name {name!r}")

    def child(self, names: dict[str, Any]) -> Scope:
        return Scope(names, self, self.functions)


def _kind(v: Any) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true/false"
    if isinstance(v, int):
        return "number"
    if isinstance(v, list):
        return "list"
    return type(v).__name__


def truthy(v: Any) -> bool:
    if type(v) is bool:
        return v
    v = plain(v)
    if isinstance(v, (list, tuple, str)):
        return len(v) > 0
    return bool(v)


MAX_NUMBER = 10**15  # the largest whole number a spec, an option or a computation may hold


def too_large(n: int) -> str:
    """The message for a number past :data:`MAX_NUMBER` (short even for a number of 4,000 digits)."""
    digits = len(str(abs(n))) if abs(n) < 10**4000 else None
    shown = str(n) if digits is not None and digits <= 24 else f"a number of {digits or 'over 4,000'} digits"
    return f"{shown} is too large (numbers are at most 10^15 in size)"


def as_int(v: Any) -> int:
    v = plain(v)
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v
    raise EvalError(f"expected a number, got {_kind(v)} {v!r}")


def equal(a: Any, b: Any) -> bool:
    a, b = plain(a), plain(b)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(equal(x, y) for x, y in zip(a, b))
    if isinstance(a, (list, tuple)) and len(a) == 1:
        return equal(a[0], b)
    if isinstance(b, (list, tuple)) and len(b) == 1:
        return equal(a, b[0])
    if (isinstance(a, bool) or isinstance(b, bool)) and isinstance(a, int) and isinstance(b, int):
        return int(a) == int(b)
    return bool(a == b)


def contains(container: Any, item: Any) -> bool:
    container = plain(container)
    if isinstance(container, (list, tuple)):
        return any(equal(item, c) for c in container)
    if isinstance(container, str):
        return isinstance(plain(item), str) and plain(item) in container
    if isinstance(container, dict):
        return plain(item) in container
    raise EvalError(f"'in' needs a list, got {_kind(container)}")


def index_list(target: Any, args: list[Any]) -> Any:
    """1-based indexing of plain lists: ``xs[1]``, ``xs[2..3]`` (a list of positions)."""
    if len(args) == 1 and type(target) in (list, tuple):  # the common xs[i]: as below, at once
        i = args[0]
        if type(i) is int and 0 < i <= len(target):
            return target[i - 1]
    target = plain(target)
    if len(args) != 1:
        raise EvalError("a list takes one index")
    if not isinstance(target, (list, tuple, str)):
        raise EvalError(f"{_kind(target)} cannot be indexed")
    idx = plain(args[0])
    if isinstance(idx, list):
        return [index_list(target, [i]) for i in idx]
    i = as_int(idx)
    if not 1 <= i <= len(target):
        raise EvalError(f"index {i} is outside 1..{len(target)}")
    return target[i - 1]
