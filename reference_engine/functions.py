"""Built-in functions of the expression language.

Each takes the evaluation scope first, then its arguments. Table functions work on
selections of slots (:class:`~reference_engine.table.Slots`); reading a face goes through
the selection's reader, so a public decision can never look at a face-down card.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from .cards import SYMBOLS, Symbol, is_up
from .expressions import EvalError, Scope, as_int, equal, plain, truthy
from .table import NewCards, Reader, RegionRef, Slots, State

Builtin = Callable[..., Any]

OUTPUT_DECODERS = {
    "card": "the face of a single card (none if there is no card)",
    "cards": "the faces of the cards as an unordered collection",
    "faces": "the faces of the cards in order",
}


def _slots(v: Any, fn: str) -> Slots:
    if isinstance(v, Slots):
        return v
    raise EvalError(f"{fn}() needs cards on the table, got {type(plain(v)).__name__}")


def _list(v: Any, fn: str) -> list[Any]:
    v = plain(v) if not isinstance(v, list) else v
    if isinstance(v, (list, tuple)):
        return list(v)
    raise EvalError(f"{fn}() needs a list")


def _state(scope: Scope) -> State:
    state = scope.lookup("__state__")
    if not isinstance(state, State):
        raise EvalError("this function needs the table")
    return state


def f_len(scope: Scope, x: Any) -> int:
    if isinstance(x, Slots):
        return sum(1 for f in x.flat if f not in x.layout.holes)
    if isinstance(x, NewCards):
        return len(x.symbols)
    return len(_list(x, "len"))


def _shape(x: Any, fn: str) -> tuple[int, int]:
    s = _slots(x, fn)
    if s.shape is None:
        raise EvalError(f"{fn}(): {s.label} is not a rectangle of cards")
    return s.shape


def f_ncols(scope: Scope, x: Any) -> int:
    return _shape(x, "ncols")[1]


def f_nrows(scope: Scope, x: Any) -> int:
    return _shape(x, "nrows")[0]


def f_columns(scope: Scope, x: Any) -> list[Slots]:
    s = _slots(x, "columns")
    rows, cols = _shape(x, "columns")
    return [
        Slots(
            s.layout,
            [s.flat[r * cols + c] for r in range(rows)],
            s.reader,
            f"{s.label} column {c + 1}",
            (rows, 1),
        )
        for c in range(cols)
    ]


def f_rows(scope: Scope, x: Any) -> list[Slots]:
    s = _slots(x, "rows")
    rows, cols = _shape(x, "rows")
    return [
        Slots(s.layout, s.flat[r * cols : (r + 1) * cols], s.reader, f"{s.label} row {r + 1}", (1, cols))
        for r in range(rows)
    ]


def f_cards(scope: Scope, x: Any) -> list[Slots]:
    s = _slots(x, "cards")
    return [Slots(s.layout, [f], s.reader, s.layout.describe(f), (1, 1)) for f in s.flat]


def f_items(scope: Scope, x: Any) -> list[Slots]:
    s = _slots(x, "items")
    if not isinstance(s, RegionRef):
        raise EvalError("items() needs a whole region")
    return [s.kg_index([i]) for i in range(1, s.region.items() + 1)]


def f_piles(scope: Scope, x: Any, size: Any) -> list[Slots]:
    s = _slots(x, "piles")
    n = as_int(size)
    if n < 1 or len(s.flat) % n:
        raise EvalError(f"piles(): {len(s.flat)} cards do not split into piles of {n}")
    return [
        Slots(s.layout, s.flat[i : i + n], s.reader, f"{s.label} pile {i // n + 1}", (1, n))
        for i in range(0, len(s.flat), n)
    ]


def f_faces(scope: Scope, x: Any) -> list[Symbol | None]:
    return _slots(x, "faces").faces()


def f_decode(scope: Scope, enc: Any, x: Any) -> Any:
    from .encodings import Encoding

    if not isinstance(enc, Encoding):
        raise EvalError("decode() needs an encoding name first, e.g. decode(bit, s[1..2])")
    return enc.bind(scope).decode(_slots(x, "decode").faces())


def f_new(scope: Scope, *symbols: Any) -> NewCards:
    syms: list[Any] = []
    for s in symbols:
        s = plain(s)
        if isinstance(s, list):
            syms.extend(plain(x) for x in s)
        else:
            syms.append(s)
    for s in syms:
        if not isinstance(s, Symbol):
            raise EvalError(f"new() takes card names, got {s!r}")
    return NewCards(syms, label="")


def _orientation(scope: Scope, args: tuple[Any, ...], want_up: bool, fn: str) -> Slots:
    state = _state(scope)
    reader = scope.lookup("__reader__")
    if args:
        base = _slots(args[0], fn)
        flats = base.flat
        layout, label = base.layout, base.label
    else:
        # The cards on the table: not those in players' hands (a hand is its owner's, unordered).
        layout, label = state.layout, "the table"
        flats = tuple(f for f in range(len(state.cells)) if layout.owner(f).hand is None)
    picked = []
    for f in flats:
        c = reader.look(f) if isinstance(reader, Reader) else state.cells[f]
        if c >= 0 and is_up(c) == want_up:
            picked.append(f)
    return Slots(layout, picked, None, f"{fn}({label if args else ''})")


def f_up(scope: Scope, *args: Any) -> Slots:
    return _orientation(scope, args, True, "up")


def f_down(scope: Scope, *args: Any) -> Slots:
    return _orientation(scope, args, False, "down")


def f_exists(scope: Scope, name: Any) -> bool:
    n = plain(name)
    if not isinstance(n, str):
        raise EvalError("exists() takes a region name in quotes, e.g. exists('sel')")
    return n in _state(scope).layout.by_name


def f_reversed(scope: Scope, x: Any) -> list[Any]:
    return list(reversed(_list(x, "reversed")))


def f_sorted(scope: Scope, x: Any) -> list[Any]:
    items = _list(x, "sorted")
    try:
        return sorted(items, key=lambda v: (str(type(v)), v.name if isinstance(v, Symbol) else v))
    except TypeError:
        raise EvalError("sorted(): cannot order these values") from None


def f_sum(scope: Scope, x: Any) -> int:
    return sum(as_int(v) for v in _list(x, "sum"))


def f_min(scope: Scope, *xs: Any) -> Any:
    items = _list(xs[0], "min") if len(xs) == 1 else list(xs)
    if not items:
        raise EvalError("min() of an empty list")
    return min(as_int(v) for v in items)


def f_max(scope: Scope, *xs: Any) -> Any:
    items = _list(xs[0], "max") if len(xs) == 1 else list(xs)
    if not items:
        raise EvalError("max() of an empty list")
    return max(as_int(v) for v in items)


def f_any(scope: Scope, x: Any) -> bool:
    return any(truthy(v) for v in _list(x, "any"))


def f_all(scope: Scope, x: Any) -> bool:
    return all(truthy(v) for v in _list(x, "all"))


def f_abs(scope: Scope, x: Any) -> int:
    return abs(as_int(x))


def f_count(scope: Scope, xs: Any, value: Any) -> int:
    return sum(1 for v in _list(xs, "count") if equal(v, value))


def f_index(scope: Scope, xs: Any, value: Any) -> int:
    for i, v in enumerate(_list(xs, "index"), 1):
        if equal(v, value):
            return i
    raise EvalError(f"index(): {value!r} is not in the list")


def f_str(scope: Scope, x: Any) -> str:
    v = plain(x)
    return v.glyph if isinstance(v, Symbol) else str(v)


def f_family_index(scope: Scope, card: Any) -> int:
    """The number of a family card: family_index(theta(3)) is 3."""
    faces = card.faces() if isinstance(card, Slots) else [plain(card)]
    if len(faces) != 1 or not isinstance(faces[0], Symbol):
        raise EvalError("family_index() takes one card")
    name = faces[0].name
    digits = len(name) - len(name.rstrip("0123456789"))
    if not digits:
        raise EvalError(f"{faces[0].glyph} is not a numbered card of a family")
    return int(name[-digits:])


def f_part(scope: Scope, xs: Any, sizes: Any, i: Any) -> list[Any]:
    """part(xs, sizes, i): the i-th of the consecutive parts of xs with the given sizes."""
    items = _list(xs, "part")
    lengths = [as_int(n) for n in _list(sizes, "part")]
    k = as_int(i)
    if not 1 <= k <= len(lengths):
        raise EvalError(f"part(): there are {len(lengths)} parts, not {k}")
    if sum(lengths) != len(items):
        raise EvalError(f"part(): the sizes add up to {sum(lengths)}, the list has {len(items)} items")
    start = sum(lengths[: k - 1])
    return items[start : start + lengths[k - 1]]


def f_without(scope: Scope, xs: Any, value: Any) -> list[Any]:
    """without(xs, v): xs with one occurrence of v removed (unchanged if v is none or absent)."""
    items = _list(xs, "without")
    v = plain(value)
    for i, x in enumerate(items):
        if v is not None and equal(x, v):
            return items[:i] + items[i + 1 :]
    return items


def f_minus(scope: Scope, xs: Any, ys: Any) -> list[Any]:
    """minus(xs, ys): xs without the items of ys, each removed once (ys may be none)."""
    items = _list(xs, "minus")
    gone = [] if plain(ys) is None else _list(ys, "minus")
    for v in gone:
        items = f_without(scope, items, v)
    return items


MAX_COMBINATIONS = 100_000  # combinations() refuses to make more lists than this


def f_combinations(scope: Scope, xs: Any, k: Any) -> list[list[Any]]:
    """combinations(xs, k): every choice of k items of xs, in order (``itertools.combinations``)."""
    import itertools

    items = _list(xs, "combinations")
    n = as_int(k)
    if n < 0:
        raise EvalError(f"combinations(): k is {n}, below 0")
    if math.comb(len(items), n) > MAX_COMBINATIONS:
        raise EvalError(
            f"combinations(): more than {MAX_COMBINATIONS:,} choices of {n} of {len(items)} items"
        )
    return [list(c) for c in itertools.combinations(items, n)]


def f_comb(scope: Scope, n: Any, k: Any) -> int:
    """comb(n, k): the number of choices of k of n things (0 when k > n)."""
    a, b = as_int(n), as_int(k)
    if a < 0 or b < 0:
        raise EvalError(f"comb({a}, {b}): negative numbers")
    return math.comb(a, b)


def hand_name(owner: Any) -> str:
    """The region holding P_i's hand (``hand3``), or a hand given by name."""
    v = plain(owner)
    if isinstance(v, bool) or not isinstance(v, (int, str)):
        raise EvalError(f"a hand is an owner number or a name, not {v!r}")
    return f"hand{v}" if isinstance(v, int) else v


def f_hand(scope: Scope, owner: Any) -> str:
    return hand_name(owner)


def f_symbol(scope: Scope, name: Any) -> Symbol:
    n = plain(name)
    sym = SYMBOLS.get(n) if isinstance(n, str) else None
    if sym is None:
        raise EvalError(f"no card named {n!r}")
    return sym


BUILTINS: dict[str, Builtin] = {
    "len": f_len,
    "ncols": f_ncols,
    "nrows": f_nrows,
    "columns": f_columns,
    "rows": f_rows,
    "cards": f_cards,
    "items": f_items,
    "piles": f_piles,
    "faces": f_faces,
    "decode": f_decode,
    "new": f_new,
    "up": f_up,
    "down": f_down,
    "exists": f_exists,
    "reversed": f_reversed,
    "sorted": f_sorted,
    "sum": f_sum,
    "min": f_min,
    "max": f_max,
    "any": f_any,
    "all": f_all,
    "abs": f_abs,
    "count": f_count,
    "index": f_index,
    "str": f_str,
    "symbol": f_symbol,
    "family_index": f_family_index,
    "hand": f_hand,
    "part": f_part,
    "without": f_without,
    "combinations": f_combinations,
    "minus": f_minus,
    "comb": f_comb,
}

BUILTIN_DOCS: dict[str, str] = {
    "len": "number of cards in a selection (or items in a list)",
    "ncols": "number of columns of a region",
    "nrows": "number of rows of a region",
    "columns": "the columns of a rectangle of cards, as piles",
    "rows": "the rows of a rectangle of cards, as piles",
    "cards": "each card of a selection as its own pile",
    "items": "the items of a row region (e.g. each pair of an input array)",
    "piles": "piles(S, n): consecutive piles of n cards",
    "faces": "the faces of face-up cards",
    "decode": "decode(enc, S): the value that face-up cards encode",
    "new": "new(card, ...): cards taken face down from the supply",
    "up": "the face-up cards (of a selection, or of the whole table)",
    "down": "the face-down cards (of a selection, or of the whole table)",
    "exists": "exists('name'): whether a region is on the table",
    "reversed": "a list in reverse order",
    "sorted": "a list in increasing order",
    "sum": "sum of a list",
    "min": "smallest value",
    "max": "largest value",
    "any": "whether any item is true",
    "all": "whether every item is true",
    "abs": "absolute value",
    "count": "count(list, v)",
    "index": "index(list, v), 1-based",
    "str": "text of a value",
    "symbol": "symbol('name'): the card with that name",
    "family_index": "family_index(card): the number of a family card, e.g. 3 for θ3",
    "hand": "hand(i): the name of P_i's hand on the table",
    "part": "part(xs, sizes, i): the i-th of the consecutive parts of xs with these sizes",
    "without": "without(xs, v): xs with one v removed",
    "combinations": "combinations(xs, k): every choice of k items of xs, as lists, in order",
    "minus": "minus(xs, ys): xs without the items of ys, each removed once",
    "comb": "comb(n, k): how many choices of k of n things there are",
}
