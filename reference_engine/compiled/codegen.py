"""Expressions compiled to Python functions of one run's table (the fast path of expressions).

The interpreter evaluates an expression through its tree of closures and a scope per state
(:class:`~reference_engine.machine.StateScope`: the variables, the regions on the table, the
spec's names). Here the same tree becomes the source of one Python function of an :class:`Env`
(the run's table, its variables, the frame's names and functions): names are looked up
directly, in the scope's order; a comprehension becomes a Python comprehension whose variables
are locals, and what does not depend on them is computed once before it; a card in a region
read as a face (``valid(M[1, j])``, ``M[2, j] == theta(1)``) is read from the cells without
making a selection. Everything else calls the very helpers the closures call (``equal``,
``truthy``, the arithmetic with its bounds, the built-in functions, ``kg_index``), so the value
is the interpreter's.

Safety: the source is generated from the checked syntax tree only. Names are identifiers the
parser accepted, prefixed (``v_j``); every literal travels in a tuple of constants, never as
text; no text of a spec is ever executed.

What the fast function cannot tell exactly it does not guess: it raises :class:`Slow` (a card
it would read is face down or the slot empty, a name is not where it expects it, a limit is
near), and the caller evaluates the expression the interpreter's way, which gives the value or
the interpreter's own error. Any other error of the fast function is handled the same way:
evaluating twice is harmless, as expressions have no effects.
"""

from __future__ import annotations

import re
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
    Star,
    Unary,
)
from ..functions import BUILTINS
from ..spec import Protocol
from .helpers import _ARITH, _CMP, HELPERS, Env, Fast, Slow, family_source

IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


# Built-in functions whose value is a number or a truth value: computed once before a
# comprehension when their arguments do not depend on its variables (a list would be shared).
_SCALAR = {
    "len",
    "ncols",
    "nrows",
    "exists",
    "family_index",
    "comb",
    "abs",
    "sum",
    "min",
    "max",
    "count",
    "index",
    "str",
    "symbol",
    "hand",
    "any",
    "all",
}


class Unfit(Exception):
    """An expression the generator leaves to the closures (it says why, for the tests)."""


class _Gen:
    """Generates the source of one expression's fast function (see the module docs)."""

    def __init__(self, proto: Protocol, walrus: bool = True):
        self.walrus = walrus  # a game's answer tested through a name (not in a comprehension's iterable)
        self.consts: list[Any] = []
        self.context = set(proto.context)
        self.families = {s.name for s in proto.symbols.values() if s.family}
        self.encoders = set(proto.encodings)
        self.bound: list[set[str]] = []
        self.hoisted: dict[int, str] = {}  # id of a node computed before its comprehension -> name
        self.counter = 0
        self.memos = 0  # memo tables of any()/all() over a range (see _memo_any)
        self.rows: dict[tuple[str, int], str] = {}  # (region, row) -> its faces read first
        self.direct: dict[str, tuple[str, str]] = {}  # context function -> (its local, its name)

    # -- helpers ---------------------------------------------------------------------
    def const(self, value: Any) -> str:
        self.consts.append(value)
        return f"K[{len(self.consts) - 1}]"

    def is_bound(self, name: str) -> bool:
        return any(name in b for b in self.bound)

    def function_kind(self, name: str) -> str:
        """How the frame resolves a function name (its functions: builtins, then the game's,
        the families', the encodings', each overriding the one before)."""
        if name in self.encoders:
            return "encoder"
        if name in self.families:
            return "family"
        if name in self.context:
            return "context"
        if name in BUILTINS:
            return "builtin"
        return "unknown"

    def free(self, node: Node) -> set[str]:
        return node.names()

    # -- nodes -------------------------------------------------------------------------
    def emit(self, node: Node) -> str:
        name = self.hoisted.get(id(node))
        if name is not None:
            return name
        method = getattr(self, f"_{type(node).__name__}", None)
        if method is None:
            raise Unfit(f"node {type(node).__name__}")
        code: str = method(node)
        return code

    def _Const(self, node: Const) -> str:
        return self.const(node.value)

    def _Star(self, node: Star) -> str:
        return "WILDCARD"

    def _Name(self, node: Name) -> str:
        if not IDENT.match(node.name):
            raise Unfit("a name that is not an identifier")
        if self.is_bound(node.name):
            return f"v_{node.name}"
        return f"_lk(E, {self.const(node.name)})"

    def _ListLit(self, node: ListLit) -> str:
        return "[" + "".join(self.emit(i) + ", " for i in node.items) + "]"

    def _RangeNode(self, node: RangeNode) -> str:
        return f"_range({self.emit(node.lo)}, {self.emit(node.hi)})"

    def _cell(self, node: Node) -> tuple[str, str, str] | None:
        """``name[r, c]`` of a name that is not a comprehension variable: (name, r, c) code."""
        if (
            isinstance(node, Index)
            and isinstance(node.obj, Name)
            and len(node.args) == 2
            and IDENT.match(node.obj.name)
            and not self.is_bound(node.obj.name)
        ):
            return self.const(node.obj.name), self.emit(node.args[0]), self.emit(node.args[1])
        return None

    def _row_of(self, node: Node) -> str | None:
        """The name of the faces of ``name[r, ...]``'s row read before an enclosing comprehension
        (``r`` a whole number, the column a variable), or None."""
        if not (isinstance(node, Index) and isinstance(node.obj, Name) and len(node.args) == 2):
            return None
        r, c = node.args
        if not (isinstance(r, Const) and type(r.value) is int):
            return None
        if not (isinstance(c, Name) and self.is_bound(c.name)):
            return None
        return self.rows.get((node.obj.name, r.value))

    def _face_code(self, node: Node, cell: tuple[str, str, str]) -> str:
        """The face at ``name[r, c]``: from its row read at once where there is one (an empty row
        when any card of it could not be read: then the cell's own reading, and its checks)."""
        row = self._row_of(node)
        if row is None:
            return f"_face(E, {', '.join(cell)})"
        c = cell[2]
        return f"({row}[{c}] if type({c}) is int and 0 < {c} < len({row}) else _face(E, {', '.join(cell)}))"

    def _face_rows(self, node: Comprehension) -> list[tuple[str, int]]:
        """The rows ``name[r, *]`` (``r`` a whole number, ``name`` a region) whose cards the
        comprehension reads as faces at a column given by a variable: read once before it."""
        found: list[tuple[str, int]] = []
        for n in _walk(node):
            keys = []
            if isinstance(n, Call) and self.function_kind(n.func) == "context":
                keys = list(n.args)
            elif isinstance(n, Compare) and len(n.rest) == 1 and n.rest[0][0] in ("==", "!="):
                keys = [n.first]
            for a in keys:
                if not (isinstance(a, Index) and isinstance(a.obj, Name) and len(a.args) == 2):
                    continue
                r, c = a.args
                name = a.obj.name
                if (
                    isinstance(r, Const)
                    and type(r.value) is int
                    and isinstance(c, Name)
                    and IDENT.match(name)
                    and not self.is_bound(name)
                    and name not in _bound_in(node)
                    and (name, r.value) not in self.rows
                    and (name, r.value) not in found
                ):
                    found.append((name, r.value))
        return found

    def _Call(self, node: Call) -> str:
        name = node.func
        kind = self.function_kind(name)
        if kind == "unknown":
            raise Unfit(f"unknown function {name}")
        fn = f"F[{self.const(name)}]"
        if kind == "context" or (kind == "builtin" and name == "family_index"):
            args = []
            for a in node.args:
                cell = self._cell(a)
                code = self._face_code(a, cell) if cell else self.emit(a)
                if not cell and kind == "context":  # as the interpreter gives it (game_argument)
                    g = f"_garg({code})"
                    code = f"({code} if type({code}) is _Sym else {g})" if IDENT.match(code) else g
                args.append(code)
            if kind == "builtin":
                if len(args) != 1:
                    raise Unfit("family_index with other than one argument")
                return f"_famidx(E, {args[0]})"
            if name not in self.direct:
                self.direct[name] = (f"D{len(self.direct)}", self.const(name))
            return f"{self.direct[name][0]}({''.join(a + ', ' for a in args)})"
        if kind == "builtin" and name in ("ncols", "nrows") and len(node.args) == 1:
            arg = node.args[0]
            if isinstance(arg, Name) and IDENT.match(arg.name) and not self.is_bound(arg.name):
                # A region's size read from the layout (no selection made); anything else as
                # the call goes.
                return f"_rshape(E, {self.const(arg.name)}, {int(name == 'ncols')}, {fn})"
        args = [self.emit(a) for a in node.args]
        joined = "".join(a + ", " for a in args)
        if kind == "builtin" and name in ("up", "down"):
            return f"_orient(E, {name == 'up'}, {self.const(name)}, {joined})"
        if kind == "builtin" and name == "exists":
            if len(args) != 1:
                raise Unfit("exists with other than one argument")
            return f"_exists(E, {args[0]})"
        if kind == "builtin" and name in ("any", "all") and len(node.args) == 1:
            memo = self._memo_any(node.args[0], name == "any")
            if memo is not None:
                return memo
        if kind == "builtin" and name == "decode":
            if len(args) != 2:
                raise Unfit("decode with other than two arguments")
            return f"_decode(E, {args[0]}, {args[1]})"
        return f"{fn}(None, {joined})"

    def _memo_any(self, arg: Node, want_any: bool) -> str | None:
        """``any(e(i) for i in lo..hi)`` (or ``all``) inside another comprehension, where ``e``
        uses no comprehension variable but ``i``: each ``e(i)`` is the same wherever the outer
        one stands, so it is computed once per evaluation of the whole expression (a memo of
        the truth values from ``lo`` on) and the answer read from where the first true (false)
        one lies. Every item of the range is still computed (once), as the interpreter computes
        the whole list, so an item it could not compute is not skipped. This makes
        ``[j for j in 1..n if ... and not any(M[2, i] == x for i in 1..j - 1)]`` linear."""
        if not self.bound or not isinstance(arg, Comprehension) or len(arg.clauses) != 1:
            return None
        (kind, rng) = arg.clauses[0]
        if kind != "for" or not isinstance(rng, RangeNode) or len(arg.variables) != 1:
            return None
        (var,) = arg.variables
        if not IDENT.match(var) or any(isinstance(n, Comprehension) for n in _walk(arg.element)):
            return None
        if arg.element.names() & {v for b in self.bound for v in b} - {var}:
            return None  # the items change with an outer variable: no memo
        lo, hi = self.emit(rng.lo), self.emit(rng.hi)
        self.bound.append({var})
        try:
            element = self.emit(arg.element)
        finally:
            self.bound.pop()
        self.memos += 1
        return f"_anyr(M{self.memos}, {lo}, {hi}, lambda v_{var}: {element}, {want_any})"

    def _Index(self, node: Index) -> str:
        return f"_ix({self.emit(node.obj)}, [{''.join(self.emit(a) + ', ' for a in node.args)}])"

    def _Attr(self, node: Attr) -> str:
        return f"_attr({self.emit(node.obj)}, {self.const(node.attr)})"

    def _Unary(self, node: Unary) -> str:
        if node.op == "not":
            return f"(not {self.test(node.operand)})"
        return f"_neg({self.emit(node.operand)})"

    def _Chain(self, node: Chain) -> str:
        ops = {op for op, _ in node.rest}
        first = self.emit(node.first)
        if ops <= {"and"} or ops <= {"or"}:
            rest = "".join(f"lambda: {self.emit(n)}, " for _, n in node.rest)
            helper = "_and" if ops == {"and"} else "_or"
            return f"{helper}({first}, {rest})"
        acc = first
        for op, n in node.rest:
            if op not in _ARITH:
                raise Unfit(f"operator {op}")
            acc = f"_ar[{self.const(op)}]({acc}, {self.emit(n)})"
        return acc

    def _operand(self, node: Node) -> str:
        cell = self._cell(node)
        return f"_faces(E, {', '.join(cell)})" if cell else self.emit(node)

    def _Compare(self, node: Compare) -> str:
        for op, _ in node.rest:
            if op not in _CMP:
                raise Unfit(f"comparison {op}")
        if len(node.rest) == 1 and node.rest[0][0] in ("==", "!="):
            cell = self._cell(node.first)
            if cell is not None and self._cell(node.rest[0][1]) is None:
                row = self._row_of(node.first)
                if row is not None:
                    test = f"_eq_face({self._face_code(node.first, cell)}, {self.emit(node.rest[0][1])})"
                else:
                    test = f"_face_eq(E, {', '.join(cell)}, {self.emit(node.rest[0][1])})"
                return test if node.rest[0][0] == "==" else f"(not {test})"
        first = self._operand(node.first)
        if len(node.rest) == 1:
            ((op, n),) = node.rest
            return f"_cmp[{self.const(op)}]({first}, {self._operand(n)})"
        rest = "".join(f"(_cmp[{self.const(op)}], lambda: {self._operand(n)}), " for op, n in node.rest)
        return f"_cmpc({first}, ({rest}))"

    def _Conditional(self, node: Conditional) -> str:
        return f"({self.emit(node.then)} if {self.test(node.cond)} else {self.emit(node.other)})"

    def test(self, node: Node) -> str:
        """Code whose Python truth is ``truthy`` of ``node``'s value, computing the same parts in
        the same order: an ``and``/``or`` chain as Python's (``truthy(_and(a, b))`` is
        ``truthy(a) and truthy(b)``: the helper stops at the first part that is not true, and
        the last part's value is tested as it is), a comparison or ``not`` as the bool it is,
        anything else through ``_truthy``."""
        if id(node) not in self.hoisted:
            if isinstance(node, Chain) and node.rest:
                ops = {op for op, _ in node.rest}
                if ops == {"and"} or ops == {"or"}:
                    joiner = " and " if ops == {"and"} else " or "
                    return f"({joiner.join(self.test(n) for n in [node.first, *(n for _, n in node.rest)])})"
            if isinstance(node, Unary) and node.op == "not":
                return self._Unary(node)
            if isinstance(node, Compare) and len(node.rest) == 1 and node.rest[0][0] in _BOOL_CMP:
                return self.emit(node)  # _eq_face, _face_eq, _cmp[...] give a bool
        code = self.emit(node)
        if code.startswith("_anyr("):  # a bool
            return code
        if self.walrus and isinstance(node, Call) and self.function_kind(node.func) == "context":
            # A game's answer (``valid(M[1, j])``) is nearly always a bool: tested as it is, the
            # rest through ``_truthy`` (named once: a walrus, where Python allows one).
            self.counter += 1
            t = f"t{self.counter}"
            return f"(({t} := {code}) is True or ({t} is not False and _truthy({t})))"
        return f"_truthy({code})"

    def _Comprehension(self, node: Comprehension) -> str:
        if not node.clauses or node.clauses[0][0] != "for":
            raise Unfit("a comprehension that does not start with 'for'")
        mine = set(node.variables)
        for v in mine:
            if not IDENT.match(v):
                raise Unfit("a variable that is not an identifier")
        family_row = self._family_row(node)
        if family_row is not None:
            return family_row
        # What does not depend on this comprehension's variables is computed once before it, in
        # the enclosing scope, as is its first iterable.
        targets = self._hoist_targets(node, mine)
        hoisted = [self.emit(sub) for sub in targets]
        rows = self._face_rows(node)
        row_params = []
        for name, r in rows:
            self.counter += 1
            row_params.append(f"h{self.counter}")
            hoisted.append(f"_face_row(E, {self.const(name)}, {r})")
        first = node.clauses[0][1]
        if isinstance(first, RangeNode):
            first_seq = f"_seqr({self.emit(first.lo)}, {self.emit(first.hi)}, ct)"
        else:
            first_seq = f"_seq({self._iterable(first)}, ct)"
        params = {}
        for sub in targets:
            self.counter += 1
            params[id(sub)] = f"h{self.counter}"
        self.hoisted.update(params)
        self.rows.update(zip(rows, row_params))
        self.bound.append(mine)
        # Parts of the element that depend only on the variables of the first clauses are
        # computed once per item of the last of those (a one-item ``for`` after that clause).
        clause_of = {}
        vi = 0
        for i, (kind, _) in enumerate(node.clauses):
            if kind == "for":
                clause_of[node.variables[vi]] = i
                vi += 1
        inner: dict[int, list[tuple[int, Node]]] = {}
        last_for = max(clause_of.values())
        for sub in self._inner_targets(node.element, mine):
            q = max(clause_of[v] for v in sub.names() & mine)
            if q < last_for:
                inner.setdefault(q, []).append((id(sub), sub))
        made: list[int] = []
        try:
            parts = []
            vi = 0
            for i, (kind, sub) in enumerate(node.clauses):
                if kind == "for":
                    var = node.variables[vi]
                    vi += 1
                    if i == 0:
                        seq = first_seq
                    elif isinstance(sub, RangeNode):
                        seq = f"_seqr({self.emit(sub.lo)}, {self.emit(sub.hi)}, ct)"
                    else:
                        seq = f"_seq({self._iterable(sub)}, ct)"
                    parts.append(f"for v_{var} in {seq}")
                    for key, part in inner.get(i, []):
                        code = self.emit(part)
                        self.counter += 1
                        self.hoisted[key] = f"h{self.counter}"
                        made.append(key)
                        parts.append(f"for h{self.counter} in ({code},)")
                else:
                    parts.append(f"if {self.test(sub)}")
            element = self.emit(node.element)
        finally:
            self.bound.pop()
            for k in list(params) + made:
                self.hoisted.pop(k, None)
            for row in rows:
                self.rows.pop(row, None)
        names = "".join(f", {p}" for p in [*params.values(), *row_params])
        args = "".join(f", {h}" for h in hoisted)
        return f"(lambda ct{names}: [{element} {' '.join(parts)}])([0]{args})"

    def _family_row(self, node: Comprehension) -> str | None:
        """``[family_index(t) for t in name[r, c]]``: one helper over the row's codes
        (:func:`h_family_row`)."""
        source = family_source(node, self.function_kind)
        cell = None if source is None else self._cell(source)  # in the enclosing scope
        return None if cell is None else f"_famrow(E, {', '.join(cell)})"

    def _inner_targets(self, node: Node, mine: set[str]) -> list[Node]:
        """The largest parts of an element worth computing once per item of an outer clause:
        calls of functions whose value is a number, a card or new cards, that use some of the
        comprehension's variables but not all of the element's."""
        out: list[Node] = []

        def visit(n: Node) -> None:
            if isinstance(n, Comprehension):
                return
            if (
                isinstance(n, Call)
                and n.names() & mine
                and not any(isinstance(x, Comprehension) for x in _walk(n))
                and (self._worth(n) or (n.func == "new" and self.function_kind("new") == "builtin"))
            ):
                out.append(n)
                return
            for child in _children(n):
                visit(child)

        visit(node)
        return out

    def _iterable(self, node: Node) -> str:
        """A comprehension's iterable; a region's cards are gone through as their faces."""
        cell = self._cell(node)
        if cell is not None:
            return f"_row_faces(E, {', '.join(cell)})"
        return self.emit(node)

    # -- selections --------------------------------------------------------------------
    def sel(self, node: Node) -> str:
        """Code for the slots ``node`` selects, as ``_flats(_res(value))`` lists them."""
        name = self.hoisted.get(id(node))
        if name is None:
            if isinstance(node, Name) and IDENT.match(node.name) and not self.is_bound(node.name):
                return f"_s_region(E, {self.const(node.name)})"
            if isinstance(node, Index) and isinstance(node.obj, Name) and self._region_index(node):
                n = self.const(node.obj.name)
                args = [self.emit(a) for a in node.args]
                if len(args) == 2:
                    return f"_s_cells(E, {n}, {args[0]}, {args[1]})"
                if len(args) == 1:
                    return f"_s_items(E, {n}, {args[0]})"
            if isinstance(node, ListLit):
                return "[" + "".join(f"*{self.sel(i)}, " for i in node.items) + "]"
            if isinstance(node, Call) and self.function_kind(node.func) == "builtin":
                # up(X) of one selection (a region, or cells of one): not of a list of them,
                # which the built-in refuses.
                one = not node.args or isinstance(node.args[0], (Name, Index))
                if node.func in ("up", "down") and len(node.args) <= 1 and one:
                    arg = f", {self.sel(node.args[0])}" if node.args else ""
                    return f"_s_up(E, {node.func == 'up'}{arg})"
        return f"_s_value({self.emit(node)})"

    def _region_index(self, node: Node) -> bool:
        """``name[...]`` of a name that is not a comprehension variable."""
        return (
            isinstance(node, Index)
            and isinstance(node.obj, Name)
            and bool(IDENT.match(node.obj.name))
            and not self.is_bound(node.obj.name)
        )

    def piles(self, node: Node) -> str:
        """Code for (whether the value is a list, its items' slots): a shuffle's piles."""
        if (
            isinstance(node, Call)
            and node.func == "columns"
            and self.function_kind("columns") == "builtin"
            and len(node.args) == 1
            and isinstance(node.args[0], Name)
            and IDENT.match(node.args[0].name)
            and not self.is_bound(node.args[0].name)
        ):
            n = self.const(node.args[0].name)
            return f"(True, _s_columns(_s_region(E, {n}), *_s_shape(E, {n})))"
        if isinstance(node, ListLit):
            return "(True, [" + "".join(f"tuple({self.sel(i)}), " for i in node.items) + "])"
        return f"_piles_of({self.emit(node)})"

    def _hoist_targets(self, node: Comprehension, mine: set[str]) -> list[Node]:
        """The largest parts of the comprehension (but its first iterable, computed once anyway)
        that do not use its variables, and are worth computing once: names, scalar functions,
        indexing."""
        out: list[Node] = []
        roots = [node.element] + [sub for _, sub in node.clauses[1:]]
        for root in roots:
            self._collect(root, mine, out)
        return out

    def _collect(self, node: Node, mine: set[str], out: list[Node]) -> None:
        if id(node) in self.hoisted:
            return  # computed before an enclosing comprehension already
        if self._static(node, mine) and self._worth(node):
            out.append(node)
            return
        if isinstance(node, Comprehension):
            inner = mine | set(node.variables)
            for _, sub in node.clauses:
                self._collect(sub, inner, out)
            self._collect(node.element, inner, out)
            return
        for child in _children(node):
            self._collect(child, mine, out)

    def _static(self, node: Node, mine: set[str]) -> bool:
        return not (node.names() & mine) and not any(isinstance(n, Comprehension) for n in _walk(node))

    def _worth(self, node: Node) -> bool:
        if isinstance(node, Name):
            return not self.is_bound(node.name)
        if isinstance(node, Call):
            kind = self.function_kind(node.func)
            return kind in ("encoder", "family", "context") or (kind == "builtin" and node.func in _SCALAR)
        if isinstance(node, Compare):
            # A comparison that uses no variable of the comprehension (``draw == 1`` in a
            # take's columns): once, not per item.
            return True
        return isinstance(node, Index)


_BOOL_CMP = ("==", "!=", "in", "not in")
"""Comparisons whose generated code gives a bool (``_eq_face``, ``_face_eq``, ``_compare``'s)."""


def _children(node: Node) -> list[Node]:
    if isinstance(node, ListLit):
        return list(node.items)
    if isinstance(node, RangeNode):
        return [node.lo, node.hi]
    if isinstance(node, Call):
        return list(node.args)
    if isinstance(node, Index):
        return [node.obj, *node.args]
    if isinstance(node, Attr):
        return [node.obj]
    if isinstance(node, Unary):
        return [node.operand]
    if isinstance(node, (Chain, Compare)):
        return [node.first, *(n for _, n in node.rest)]
    if isinstance(node, Conditional):
        return [node.then, node.cond, node.other]
    if isinstance(node, Comprehension):
        return [node.element, *(n for _, n in node.clauses)]
    return []


def _bound_in(node: Node) -> set[str]:
    """Every variable a comprehension within ``node`` binds (a region's name shadowed there is
    not the region)."""
    return {v for n in _walk(node) if isinstance(n, Comprehension) for v in n.variables}


def _walk(node: Node) -> list[Node]:
    out = [node]
    for c in _children(node):
        out.extend(_walk(c))
    return out


KINDS = ("value", "sel", "piles")
"""What a fast function computes: the expression's value, the slots it selects, or a shuffle's
piles (whether the value is a list, and each item's slots)."""


def generate(
    node: Node, proto: Protocol, kind: str = "value", walrus: bool = True
) -> tuple[str, tuple[Any, ...]]:
    """The source of ``node``'s fast function and its constants (:class:`Unfit` if none)."""
    gen = _Gen(proto, walrus)
    body = gen.emit(node) if kind == "value" else gen.sel(node) if kind == "sel" else gen.piles(node)
    memos = "".join(f"    M{i} = {{}}\n" for i in range(1, gen.memos + 1))
    # The game's functions called directly (not through the frame's wrapper, which calls them).
    direct = "".join(f"    {local} = _direct(F[{k}])\n" for local, k in gen.direct.values())
    return f"def fast(E):\n    F = E.functions\n{direct}{memos}    return {body}\n", tuple(gen.consts)


def fast_function(node: Node, proto: Protocol, kind: str = "value") -> Fast | None:
    """``node`` compiled to a fast function, or None where the closures are left to evaluate it."""
    try:
        try:
            source, consts = generate(node, proto, kind)
            code = compile(source, f"<compiled expression of {proto.name}>", "exec")
        except SyntaxError:  # a walrus in a comprehension's iterable: Python refuses it there
            source, consts = generate(node, proto, kind, walrus=False)
            code = compile(source, f"<compiled expression of {proto.name}>", "exec")
    except Exception:
        return None
    namespace: dict[str, Any] = dict(HELPERS)
    namespace["K"] = consts
    exec(code, namespace)  # the source is generated from the syntax tree (see the module docs)
    fn: Fast = namespace["fast"]
    return fn


# Built-in functions whose value depends on their arguments alone (not on the table: a
# selection reaches one only through a region's name, which :func:`variables_only` refuses).
_PURE = frozenset(
    {
        "len",
        "new",
        "reversed",
        "sorted",
        "sum",
        "min",
        "max",
        "any",
        "all",
        "abs",
        "count",
        "index",
        "str",
        "symbol",
        "family_index",
        "part",
        "without",
        "combinations",
        "minus",
        "comb",
    }
)


def function_kind(proto: Protocol, name: str) -> str:
    """How a call of ``name`` resolves in ``proto`` (see :meth:`_Gen.function_kind`)."""
    return _Gen(proto).function_kind(name)


def variables_only(node: Node, proto: Protocol) -> tuple[str, ...] | None:
    """The free names of ``node`` when its value is a function of their values alone, provided
    none is a region (the caller checks that at each evaluation: a name that is neither a
    variable nor a region is a parameter or one of the spec's names): it calls only families
    and the built-ins of :data:`_PURE` (never a game's function, whose answer follows the game,
    nor an encoding's). None when it may read anything else."""
    for name in node.calls():
        kind = function_kind(proto, name)
        if not (kind == "family" or (kind == "builtin" and name in _PURE)):
            return None
    return tuple(sorted(node.names()))


__all__ = [
    "Env",
    "Fast",
    "Slow",
    "fast_function",
    "function_kind",
    "generate",
    "variables_only",
]
