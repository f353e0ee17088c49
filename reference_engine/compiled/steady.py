"""Values of steps kept by exactly what they read: the variables named, the layout, the cards.

A loop's ``if len(alive) > 1``, ``let h: len(alive) // 2``, ``for i: 1..h`` read no card, and
``let alive: [... if U[i] == up ...]`` or a rotation's ``[P[2, alive[2 * i - 1]] for i in 1..h
if U[i] == up]`` read only the cards of the regions they name; the loops meet the same few
values again and again. :class:`Steady` keeps such a value by the layout, the values of the
variables it names and the cards of the regions it names (for the frame it was computed in:
a name that is neither is one of the frame's), instead of evaluating it each time.

Why that is all it reads: an expression reaches the table only through the names it uses (a
variable, then a region of the layout, then the frame's names: the order of
:meth:`~reference_engine.machine.StateScope.lookup`) and the functions it calls; so only
expressions that call no function but ``len``, ``exists``, ``nrows`` and ``ncols`` (the
layout's, each checked to be the built-in one in the frame) are kept. Whether a card may be
read (face up, seen in its sleeve) is the layout's and the card's. An expression that only
names, indexes, ranges, lists and counts (:func:`structural`) selects places and reads no card:
where the value kept is those places (a selection's), its regions' cards are left out of the key;
a let's or a for's value is the places' faces (``let last: K[2, 1]``), so there they count. Each
variable's value counts by its types too (:func:`exact`: ``1 == True`` in Python, not in a
spec). A value whose evaluation raises is not kept.

Kept per step, not per round: a whole round of the lottery looked up by everything it depends
on (the layout, the variables, the counters, the cells with the candidates' faces renamed, the
spin's draws) was measured and removed. A round has up to 2^(sleeves + matches) outcomes (the
arrows in the running, the draws), so over 12 to 60 games too few rounds are met again for the
noting of new ones to pay (15-20 % slower over 12 games). A match has 8 (its two sleeves'
arrows, U's, one spin); keying per match needs the round's matches recognised from its steps.
What a round does that reads no card (its slide of arrows, 4(a)) is kept per shape as one
effect (:mod:`.pure`, met again in nine runs of ten over 30 games). Its decision of the matches
(4(c)) was kept too, by the middle arrows' cards (its turned, rotated and discarded places, its
variables, its discards' plans; the cards carried as they are) and removed: met again in four
runs of five over 30 games, each replay 42 us against 106 step by step, but a run that notes a
new one cost ~390 us (CPU, loaded machine), so the block as a whole was slower (124 us a run).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..expressions import (
    Call,
    Chain,
    Comprehension,
    Const,
    EvalError,
    Expression,
    Index,
    ListLit,
    Name,
    Node,
    RangeNode,
    Star,
    Unary,
)
from ..functions import BUILTINS
from ..kept import exact
from . import chained, knockout
from . import evaluate as ev
from .base import RunResolve
from .run import Run

PURE_CALLS = frozenset({"len", "exists", "nrows", "ncols"})
"""Built-in functions whose value depends on their arguments and the layout alone."""

KEPT = 2048
"""Values one expression keeps (by its key); it starts afresh beyond."""

TRIAL = 128
"""Look-ups after which an expression that met its key again in fewer than one in eight stops
keeping values (a caller's step whose key holds its table's layout, new every turn: kept, it
would only hold layouts alive)."""

_NO: Any = object()


class Steady:
    """One expression's derived value (``make``: from the plain value, e.g. its truth; with
    ``sel``, from the places it selects), kept by what it reads (see the module docs)."""

    __slots__ = (
        "calls",
        "chain",
        "expr",
        "hits",
        "kept",
        "make",
        "names",
        "sel",
        "selected",
        "slot",
        "special",
        "structural",
        "tries",
    )

    def __init__(self, expr: ev.Expr, make: Callable[[Any], Any], sel: str | None = None):
        self.expr = expr
        self.make = make
        self.sel = sel
        self.names = tuple(sorted(expr.expr.names()))
        calls = expr.expr.calls()
        self.calls = calls if calls <= PURE_CALLS else None
        # Where the value is the places themselves (``sel``), a structural expression reads no
        # card; a let's or a for's value is their faces (``K[2, 1]`` frozen): its cards count.
        self.structural = sel is not None and structural(expr.expr.node)
        # Regions whose places the value selects but whose cards it never reads (with ``sel``).
        self.selected = selected_only(expr.expr.node) if sel is not None else frozenset()
        self.kept: dict[tuple[Any, ...], tuple[Any, Any]] = {}
        self.tries = 0
        self.hits = 0
        self.chain: Any = None  # the block whose start keys this value, if any (chained.py)
        self.slot = 0
        # One of a knockout round's decisions: worked out from ``alive`` (knockout.py).
        self.special = knockout.special(expr.expr.node, sel)
        chained.made(self)

    def _compute(self, run: Run) -> Any:
        if self.special is not None:
            got = self._worked_out(run)
            if got is not knockout.NO:
                return got
        return self._evaluate(run)

    def _worked_out(self, run: Run) -> Any:
        """The value worked out directly (knockout.py), or ``knockout.NO``."""
        assert self.special is not None
        got = self.special(run)
        if got is knockout.NO:
            return got
        if ev.CHECKED:
            self._check(run, got)
        return self.make(got)

    def _check(self, run: Run, got: Any) -> None:
        """``ev.CHECKED``: a value worked out directly is the evaluator's, types included."""
        try:
            want = self.expr.sel(run, self.sel) if self.sel is not None else self.expr.value(run)
        except EvalError as exc:
            text = self.expr.expr.text
            raise ev.Mismatch(f"{text!r}: worked out as {got!r}, the evaluator fails: {exc}") from exc
        if type(got) is not type(want) or exact(got) != exact(want):
            raise ev.Mismatch(f"{self.expr.expr.text!r}: worked out as {got!r}, evaluated as {want!r}")

    def _evaluate(self, run: Run) -> Any:
        if self.sel is not None:
            return self.make(self.expr.sel(run, self.sel))
        return self.make(self.expr.value(run))

    def value(self, run: Run) -> Any:
        if self.calls is None:
            if self.special is None:  # _compute's _evaluate, inline (a dozen values a turn)
                sel = self.sel
                return self.make(self.expr.value(run) if sel is None else self.expr.sel(run, sel))
            return self._compute(run)
        if self.tries >= TRIAL and self.hits * 8 < self.tries:  # it does not pay: left off
            self.calls = None
            self.kept.clear()
            return self._compute(run)
        chain = self.chain
        if chain is not None and chain.state is not None:  # given by the block's one key
            return chain.value(self, run)
        if self.special is not None:  # worked out at once: cheaper than its key
            got = self._worked_out(run)
            if got is not knockout.NO:
                return got
        env = run.vars()
        regions = run.layout.by_name
        cells = run.cells
        key: list[Any] = [run.layout]
        for n in self.names:
            v = env.get(n, _NO)
            if v is _NO:
                if not self.structural and n not in self.selected:
                    reg = regions.get(n)
                    if reg is not None:  # a region it may read a card of: its cards as they lie
                        v = (_NO, *cells[reg.offset : reg.offset + reg.rows * reg.cols])
            elif type(v) is not int:  # by its types too: 1 and true are equal keys (exact)
                v = exact(v)
            key.append(v)
        k = tuple(key)
        hit = self.kept.get(k)
        self.tries += 1
        if hit is not None and hit[0] is run.frame:
            self.hits += 1
            return hit[1]
        got = self._compute(run)
        functions = run.frame.globals.functions
        if all(functions.get(name) is BUILTINS.get(name) for name in self.calls):
            if len(self.kept) >= KEPT:
                self.kept.clear()
            self.kept[k] = (run.frame, got)
        return got


def steady(c: Any, expr: Expression | None, make: Callable[[Any], Any], sel: str | None = None) -> Steady:
    """The kept form of one of the spec's expressions (compiled by ``c``, an ops.Compiler)."""
    return Steady(c.e(expr), make, sel)


def selected_only(node: Node) -> frozenset[str]:
    """The names an expression uses only as what it selects (``P`` in ``[P[2, j] for j in out if
    U[j] == up]``: the value's places, not read; ``U`` is read): bare or indexed, at the top, in a
    list or as a comprehension's element. Everywhere else (an index, a condition, an operand, a
    comprehension's range, an argument) a name is read."""
    picked: set[str] = set()
    read: set[str] = set()
    _occurrences(node, True, picked, read)
    return frozenset(picked - read)


def _occurrences(node: Node, selecting: bool, picked: set[str], read: set[str]) -> None:
    if isinstance(node, Name):
        (picked if selecting else read).add(node.name)
        return
    if isinstance(node, Index):
        if isinstance(node.obj, Name):
            (picked if selecting else read).add(node.obj.name)
        else:
            _occurrences(node.obj, False, picked, read)
        for a in node.args:
            _occurrences(a, False, picked, read)
        return
    if isinstance(node, ListLit):
        for item in node.items:
            _occurrences(item, selecting, picked, read)
        return
    if isinstance(node, Comprehension):
        _occurrences(node.element, selecting, picked, read)
        for _, n in node.clauses:
            _occurrences(n, False, picked, read)
        return
    for child in _children(node):
        _occurrences(child, False, picked, read)


def _children(node: Node) -> list[Node]:
    out: list[Node] = []
    for name in getattr(node, "__dataclass_fields__", ()):
        v = getattr(node, name)
        if isinstance(v, Node):
            out.append(v)
        elif isinstance(v, (list, tuple)):
            for x in v:
                if isinstance(x, Node):
                    out.append(x)
                elif isinstance(x, tuple):
                    out.extend(y for y in x if isinstance(y, Node))
    return out


_ARITH_OPS = frozenset({"+", "-", "*", "//", "%"})


def structural(node: Node) -> bool:
    """Whether an expression only names, indexes, ranges, lists and counts: its value (places
    selected, numbers) depends on the variables it names, the layout and the frame's names,
    never on a card (no comparison, condition, truth test or function but ``len`` and the
    layout's)."""
    if isinstance(node, (Const, Name, Star)):
        return True
    if isinstance(node, ListLit):
        return all(structural(n) for n in node.items)
    if isinstance(node, RangeNode):
        return structural(node.lo) and structural(node.hi)
    if isinstance(node, Index):
        return structural(node.obj) and all(structural(n) for n in node.args)
    if isinstance(node, Comprehension):
        return all(kind == "for" and structural(n) for kind, n in node.clauses) and structural(node.element)
    if isinstance(node, Chain):
        return (
            all(op in _ARITH_OPS for op, _ in node.rest)
            and structural(node.first)
            and all(structural(n) for _, n in node.rest)
        )
    if isinstance(node, Unary):
        return node.op == "-" and structural(node.operand)
    if isinstance(node, Call):
        return node.func in PURE_CALLS and all(structural(n) for n in node.args)
    return False


class ByNames:
    """What a step works out from structural expressions (:func:`structural`), kept by the
    layout, the values of the variables they name and ``extra`` (for the frame it was worked
    out in); None as the key where an expression is not structural or a function called is not
    the built-in one."""

    __slots__ = ("calls", "hits", "kept", "names", "tries")

    def __init__(self, exprs: list[Expression]):
        ok = all(structural(e.node) for e in exprs)
        self.names = tuple(sorted(set().union(*(e.names() for e in exprs)))) if ok else None
        self.calls = tuple(sorted(set().union(*(e.calls() for e in exprs))))
        self.kept: dict[tuple[Any, ...], tuple[Any, Any]] = {}
        self.tries = 0
        self.hits = 0

    def key(self, run: Run, extra: Any = None) -> tuple[Any, ...] | None:
        names = self.names
        if names is None:
            return None
        if self.tries >= TRIAL and self.hits * 8 < self.tries:  # it does not pay: left off
            self.names = None
            self.kept.clear()
            return None
        env = run.vars()
        return (run.layout, extra, *[exact(env.get(n, _NO)) for n in names])

    def get(self, run: Run, key: tuple[Any, ...] | None) -> Any:
        if key is None:
            return None
        hit = self.kept.get(key)
        self.tries += 1
        if hit is not None and hit[0] is run.frame:
            self.hits += 1
            return hit[1]
        return None

    def put(self, run: Run, key: tuple[Any, ...] | None, value: Any) -> None:
        if key is None:
            return
        functions = run.frame.globals.functions
        if any(functions.get(name) is not BUILTINS.get(name) for name in self.calls):
            return
        if len(self.kept) >= KEPT:
            self.kept.clear()
        self.kept[key] = (run.frame, value)


def same(value: Any) -> Any:
    """A value as it is (a selection's places, kept as :meth:`~.evaluate.Expr.sel` gives them)."""
    return value


def kept_resolve(step: Any, resolve: Callable[..., Any]) -> Callable[..., Any]:
    """A move's resolver (the interpreter's, ``resolve``), what it works out kept by what it
    depends on where the sources are structural and the targets plain names."""
    plain_targets = all(t.name is not None for t, _ in step.pairs)
    worked = ByNames([src for _, src in step.pairs])

    def kept(run: Run) -> Any:  # the run alone: a State made only for the interpreter's resolver
        runner = run.runner
        key = worked.key(run, runner.seats) if plain_targets else None
        res = worked.get(run, key)
        if res is None:
            res = resolve(runner, run.frame, step, run.state(), run.fev)
            worked.put(run, key, res)
        return res

    return RunResolve(kept)


def kept_target(target: Any) -> Callable[[Run, Any], Any]:
    """A place's target resolved (:meth:`~reference_engine.machine.Runner.resolve_target`), kept
    by the layout and the values of the variables it names where its expression is structural
    (a lottery's ``P[2, alive[2 * i - 1]]``, once per match and round); ``(run, state)``."""
    worked = ByNames([target.expr]) if target.expr is not None else None

    def resolve(run: Run, state: Any) -> Any:
        if worked is None:
            return run.runner.resolve_target(run.frame, target, state, run.fev)
        key = worked.key(run)
        res = worked.get(run, key)
        if res is None:
            res = run.runner.resolve_target(run.frame, target, state, run.fev)
            worked.put(run, key, res)
        elif ev.CHECKED:
            ev._same(target.expr, res, run.runner.resolve_target(run.frame, target, state, run.fev))
        return res

    return resolve
