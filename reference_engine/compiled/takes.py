"""The ``take`` step compiled: the columns to take found by one scan of a row's codes.

A take's columns are most often "the columns whose card in row ``r`` is this face" (the card
selection's ``[j for j in 1..ncols(M) if M[2, j] == theta(1)]``), or the first of them under a
condition (``[j for j in 1..ncols(M) if draw == 1 and M[2, j] == theta(pile) and not any(M[2, i]
== theta(pile) for i in 1..j - 1)]``). Evaluated as written, that is a comparison of faces per
column (about a hundred on a full UNO table). Recognised here when the step is compiled, they are
one scan of the row's cells for the face's code, where the row can be read as faces the way the
generated code reads it (:func:`~.helpers.h_face_row`: every card face up, none hidden in a
sleeve, the region not shadowed by a variable), the face is a card registered as such (so equal
only to itself) and the range is the region's columns; anything else is the expression's own
evaluation, with its errors. The plan is then kept and built as for any other take
(:func:`~.ops.planned`).

What the scan reads besides the row is worked out once where it can be: the range's end
``ncols(R)`` is the region's width (R a region of the layout, ``ncols`` the built-in), and the
face and the condition (``theta(1)``, ``theta(pile)``, ``draw == 1``) are kept by the values of
the names they read (:class:`KeptPart`), when they call only the protocol's card families and
``len`` and read no region. The plan of a take from whole runs (:func:`~.runs.take_runs`) is
built with the layout it makes kept per layout and number of columns (:class:`TakePlans`): the
columns differ from turn to turn, the layout they make does not.
"""

from __future__ import annotations

from typing import Any

from .. import steps as st
from ..cards import SYMBOLS, Symbol
from ..expressions import Expression
from ..expressions.nodes import (
    Call,
    Chain,
    Compare,
    Comprehension,
    Const,
    Index,
    Name,
    Node,
    RangeNode,
)
from ..expressions.shapes import no_earlier, same
from ..functions import BUILTINS
from ..kept import KEPT_PLANS, Kept
from ..machine import Plan
from ..machine.actions import layout as lay
from ..spec import Protocol
from ..table import Layout
from . import evaluate as ev
from . import plans as fp
from .base import Op, RunResolve, same_plan
from .codes import all_face_up
from .run import Run
from .runs import take_runs

KEPT = 256
"""Values one part of a take's columns keeps (by the values of the names it reads)."""

_NO: Any = object()


class KeptPart:
    """A part of a take's columns (its face or its condition) whose value is kept by the values
    of the names it reads: where it calls only ``len`` (the built-in) and the protocol's card
    families (``theta(1)``: a family's card is the same for the same number), and each name it
    reads is a variable or a plain name of the frame (a parameter), of a plain type (a number,
    a text, a truth value: :func:`~reference_engine.kept.exact`'s types, keyed with their
    type). A name that is a region of the layout (it may read a card), a value of another type,
    or an error: evaluated as written. ``CHECKED`` evaluates it every time and compares."""

    __slots__ = ("builtins", "expr", "kept", "names")

    def __init__(self, expr: ev.Expr, proto: Protocol):
        self.expr = expr
        families = {name for name, decl in proto.symbols.items() if decl.family} - set(proto.encodings)
        builtins = expr.expr.calls() - families
        self.builtins = tuple(sorted(builtins))
        # None: evaluated as written every time.
        self.names = tuple(sorted(expr.expr.names())) if builtins <= {"len"} else None
        self.kept: dict[tuple[Any, ...], Any] = {}

    def key(self, run: Any) -> tuple[Any, ...] | None:
        """What the value depends on in this run (None: it may read more: evaluate it)."""
        names = self.names
        if names is None:
            return None
        frame = run.frame
        functions = frame.globals.functions
        for name in self.builtins:
            if functions.get(name) is not BUILTINS.get(name):
                return None
        env = run.vars()
        regions = run.layout.by_name
        plain = frame.globals.names
        key: list[Any] = []
        for n in names:
            v = env.get(n, _NO)
            tag = 0
            if v is _NO:
                if n in regions:
                    return None
                v = plain.get(n, _NO)
                tag = 1
            t = type(v)
            if t is not int and t is not str and t is not bool:
                return None
            key.append((tag, t, v))
        return tuple(key)

    def value(self, run: Any) -> Any:
        key = self.key(run)
        if key is None:
            return self.expr.value(run)
        hit = self.kept.get(key, _NO)
        if hit is not _NO:
            if ev.CHECKED:
                want = self.expr.value(run)
                if type(want) is not type(hit) or want != hit:
                    raise ev.Mismatch(f"{self.expr.text}: kept {hit!r}, evaluated {want!r}")
            return hit
        got = self.expr.value(run)
        if len(self.kept) >= KEPT:
            self.kept.clear()
        self.kept[key] = got
        return got


class ColumnScan:
    """A take's ``columns`` recognised as a scan of row ``row`` of region ``region`` for the
    face ``face``: every such column (``first`` False) or the first one, when ``guard`` holds."""

    __slots__ = ("face", "first", "guard", "hi", "region", "row")

    def __init__(
        self, region: str, row: int, hi: ev.Expr, face: KeptPart, guard: KeptPart | None, first: bool
    ):
        self.region = region
        self.row = row
        self.hi = hi  # ncols(region)
        self.face = face
        self.guard = guard
        self.first = first

    def columns(self, run: Any) -> tuple[int, ...] | None:
        """The columns (from 1), or None where the scan does not apply (the expression is then
        evaluated as written)."""
        vals = self.row_codes(run)
        return None if vals is None else self.pick(run, vals)

    def row_codes(self, run: Any) -> list[int] | None:
        """The codes of the row scanned, where the scan applies to the run's table (None: it
        does not)."""
        name = self.region
        layout = run.layout
        reg = layout.by_name.get(name)
        r = self.row
        if reg is None or reg.hand is not None or not 0 < r <= reg.rows or name in run.vars():
            return None
        cols = reg.cols
        a = reg.offset + (r - 1) * cols
        vals: list[int] = run.cells[a : a + cols]
        # h_face_row's conditions: every card of the row there and face up, none hidden in a sleeve.
        if not all_face_up(vals):
            return None
        # Inside a sleeve, each card seen (shown): a region's slots inside its sleeves are the
        # whole rows they hold (:func:`~reference_engine.sleeves.sleeve_slots`), so the row is
        # inside exactly when its sleeves hold it (the owner cards' row slid out: it is not).
        frame = reg.sleeve
        if frame is not None and r in frame.rows and not layout.shown.issuperset(range(a, a + cols)):
            return None
        return vals

    def pick(self, run: Any, vals: list[int]) -> tuple[int, ...] | None:
        """The columns (from 1) of the row ``vals`` (a row :meth:`row_codes` accepts, as wide
        as the region) the scan picks, or None where it does not apply."""
        try:
            # ncols(region), the built-in, of a region of the layout that no variable shadows:
            # its width (anything else: evaluated).
            if run.frame.globals.functions.get("ncols") is not _NCOLS:
                hi = self.hi.value(run)
                if type(hi) is not int or hi != len(vals):
                    return None
            if self.guard is not None:
                g = self.guard.value(run)
                if type(g) is not bool:
                    return None
                if not g:
                    return ()
            face = self.face.value(run)
        except Exception:
            return None
        if type(face) is not Symbol or not SYMBOLS.interned(face):
            return None
        # A face read from the cells is the registered one: equal to ``face`` exactly when it is
        # ``face``, that is when its code is ``face``'s, face up.
        code = face.id << 1 | 1
        if self.first:
            try:
                return (vals.index(code) + 1,)
            except ValueError:
                return ()
        # Each match found by ``list.index`` from the last one on: a C scan of the row and a
        # Python step a match (a hand's few columns of a hundred), not a comparison made and
        # tested a column (valgrind: 39 k instructions for 108 columns and 9 matches; 24 k).
        found: list[int] = []
        index = vals.index
        at = 0
        try:
            while True:
                at = index(code, at) + 1
                found.append(at)
        except ValueError:
            return tuple(found)


def _names(node: Node) -> set[str]:
    return set(node.names())


def _cell_eq(node: Node, var: str) -> tuple[str, int, Node] | None:
    """``R[r, var] == X`` (``r`` a whole number, ``X`` not using ``var``): (R, r, X)."""
    if not (isinstance(node, Compare) and len(node.rest) == 1 and node.rest[0][0] == "=="):
        return None
    cell, x = node.first, node.rest[0][1]
    if not (isinstance(cell, Index) and isinstance(cell.obj, Name) and len(cell.args) == 2):
        return None
    r, c = cell.args
    if not (isinstance(r, Const) and type(r.value) is int and isinstance(c, Name) and c.name == var):
        return None
    if var in _names(x):
        return None
    return cell.obj.name, r.value, x


def _one_to(node: Node) -> Node | None:
    """``1..hi``: hi."""
    if isinstance(node, RangeNode) and isinstance(node.lo, Const) and type(node.lo.value) is int:
        return node.hi if node.lo.value == 1 else None
    return None


def _first_only(node: Node, var: str, region: str, row: int, x: Node) -> bool:
    """``not any(R[r, i] == X for i in 1..var - 1)`` with the same R, r and X (the form
    :func:`~reference_engine.expressions.shapes.no_earlier` reads, as the verifier does)."""
    got = no_earlier(node, var)
    if got is None or got[0] in _names(x):
        return False
    cell = _cell_eq(got[1], got[0])
    return cell is not None and cell[0] == region and cell[1] == row and same(cell[2], x)


def column_scan(node: Node, proto: Protocol) -> ColumnScan | None:
    """The scan ``node`` (a take's ``columns``) is, or None."""
    if not (isinstance(node, Comprehension) and isinstance(node.element, Name) and len(node.variables) == 1):
        return None
    var = node.variables[0]
    if node.element.name != var or len(node.clauses) != 2 or [k for k, _ in node.clauses] != ["for", "if"]:
        return None
    hi = _one_to(node.clauses[0][1])
    if hi is None or var in _names(hi):
        return None
    cond = node.clauses[1][1]
    guard: Node | None = None
    first = False
    got = _cell_eq(cond, var)
    if got is None:
        if not (isinstance(cond, Chain) and len(cond.rest) == 2 and all(op == "and" for op, _ in cond.rest)):
            return None
        guard = cond.first
        got = _cell_eq(cond.rest[0][1], var)
        if (
            var in _names(guard)
            or got is None
            or not _first_only(cond.rest[1][1], var, got[0], got[1], got[2])
        ):
            return None
        first = True
    region, row, x = got
    if not (isinstance(hi, Call) and hi.func == "ncols" and len(hi.args) == 1):
        return None
    arg = hi.args[0]
    if not (isinstance(arg, Name) and arg.name == region):
        return None

    def part(n: Node) -> ev.Expr:
        return ev.Expr(Expression(f"(part of a take's columns) {region}", n, n.compile()), proto)

    return ColumnScan(
        region,
        row,
        part(hi),
        KeptPart(part(x), proto),
        KeptPart(part(guard), proto) if guard is not None else None,
        first,
    )


_NCOLS = BUILTINS["ncols"]


class TakePlans:
    """The plans of a take from whole runs (:func:`~.runs.take_runs`: a region in sleeves, on
    a table without empty places, into a new region), with the layout they make kept per
    layout, region, number of columns and new region's name (it depends on nothing else); the
    gather is worked out from the columns at each take. Any other take: :func:`~.plans.build_take`."""

    def __init__(self, step: st.Take) -> None:
        self.step = step
        self.after: Kept[Layout] = Kept(KEPT_PLANS)

    def __call__(self, layout: Layout, res: Any) -> Plan:
        source, cols, into = res
        reg = layout.by_name.get(source)
        if (
            reg is None
            or not cols
            or layout.holes
            or reg.sleeve is None
            or not reg.rows
            or into in layout.by_name
            or len(set(cols)) != len(cols)
            or not 0 < min(cols) <= max(cols) <= reg.cols
        ):
            return fp.build_take(layout, res)
        key = (layout, source, len(cols), into)
        after = self.after.get(key)
        plan = take_runs(layout, reg, cols, into, after)
        if after is None:
            self.after.put(key, plan.layout)
        elif ev.CHECKED:
            same_plan(self.step, plan, take_runs(layout, reg, cols, into), layout)
        return plan


def compile_take(proto: Protocol, step: st.Take) -> tuple[Any, Any, Any]:
    """The resolver, builder and fast builder of a take (for :func:`~.ops.planned`)."""
    assert step.columns is not None
    scan = column_scan(step.columns.node, proto)
    if scan is None:
        return lay._take_resolve, lay._take_build, TakePlans(step)

    def resolve(run: Run) -> Any:  # the run alone: a State made only where the scan cannot tell
        cols = scan.columns(run)
        if cols is None:
            return lay._take_resolve(run.runner, run.frame, step, run.state(), run.fev)
        res = (step.source, cols, step.into)
        if ev.CHECKED:
            want = lay._take_resolve(run.runner, run.frame, step, run.state(), run.fev)
            if want != res:
                raise ev.Mismatch(f"take {step.columns}: the scan gives {res}, the expression {want}")
        return res

    return RunResolve(resolve), lay._take_build, TakePlans(step)


__all__ = ["ColumnScan", "KeptPart", "Op", "TakePlans", "column_scan", "compile_take"]
