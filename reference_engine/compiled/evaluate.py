"""Evaluating a spec's expressions in a compiled run: the fast function where there is one, the
interpreter's evaluator where there is none or where the fast function cannot tell.

:class:`Expr` pairs an expression with its fast function (:mod:`.codegen`). With
:data:`CHECKED` set (the tests set it), every fast result is compared with the interpreter's,
so that a difference stops the run at the expression that differs.
"""

from __future__ import annotations

import functools
import weakref
from typing import Any

from ..expressions import Expression
from ..machine import deep_plain
from ..machine.plans import _flats, _res
from ..spec import Protocol
from ..table import NewCards, Slots, State
from .codegen import Env, Fast, fast_function
from .run import Run

CHECKED = False
"""Compare every fast result with the interpreter's (slow: for the tests)."""


class Mismatch(AssertionError):
    """A fast function gave another value than the interpreter (a bug of the compiled path)."""


_UNMADE: Any = object()


def env_of(run: Run) -> Env:
    """What a fast function reads of ``run`` now: one :class:`Env` per run, made on its first
    evaluation and brought up to date at each (the table, its cells and variables as they are
    now; the faces' reader made again when asked). Nothing keeps it past the evaluation: a
    value a fast function gives holds the layout and reader it read, never the Env."""
    try:
        env: Env | None = run.E
    except AttributeError:  # what reads as a Run without being one (program.Finished): its own
        g = run.frame.globals
        return Env(run.state, run.layout, run.cells, run.vars(), g.names, g.functions)
    if env is None:
        g = run.frame.globals
        # The run's State through a weak reference: the run holds its Env, and an Env holding
        # the run would make every run a cycle, left to the cyclic collector.
        state = functools.partial(_state_of, weakref.ref(run))
        env = run.E = Env(state, run.layout, run.cells, run.vars(), g.names, g.functions)
        return env
    env.layout = run.layout
    env.cells = run.cells
    if run._vars_of is not run.env:  # run.vars(), inline (a fast function's every evaluation)
        run._vars = dict(run.env)
        run._vars_of = run.env
    env.vars = run._vars
    env._reader = None
    return env


def _state_of(ref: weakref.ref[Run]) -> State:
    run = ref()
    assert run is not None  # an Env is read only while its run is being carried out
    return run.state()


class Expr:
    """An expression of a compiled protocol, with its fast functions (None: the interpreter's):
    for its value, for the slots it selects, for a shuffle's piles (made when first used)."""

    __slots__ = ("_fast", "_piles", "_sel", "expr", "proto")

    def __init__(self, expr: Expression, proto: Protocol):
        self.expr = expr
        self.proto = proto
        # Each fast function is generated when first used: a protocol has many expressions a
        # game never evaluates (another branch, another kind of call), and generating one costs
        # about a millisecond.
        self._fast: Fast | None = _UNMADE
        self._sel: Fast | None = _UNMADE
        self._piles: Fast | None = _UNMADE

    @property
    def fast(self) -> Fast | None:
        """The fast function of the value (None: the interpreter's evaluator)."""
        fast = self._fast
        if fast is _UNMADE:
            fast = self._fast = fast_function(self.expr.node, self.proto)
        return fast

    @property
    def text(self) -> str:
        return self.expr.text

    def env(self, run: Run) -> Env:
        return env_of(run)

    def value(self, run: Run) -> Any:
        """The plain value, as the interpreter's ``Evaluator.value`` gives it."""
        fast = self._fast
        if fast is _UNMADE:
            fast = self.fast
        if fast is not None:
            try:
                got = _deep_plain(fast(env_of(run)))
            except Exception:
                pass
            else:
                if CHECKED:
                    _same(self.expr, got, run.ev.value(self.expr, run.state()))
                return got
        return run.ev.value(self.expr, run.state())

    def public(self, run: Run) -> Any:
        """The value with selections of places kept, as ``Evaluator.public`` gives it."""
        fast = self._fast
        if fast is _UNMADE:
            fast = self.fast
        if fast is not None:
            try:
                got = fast(env_of(run))
            except Exception:
                pass
            else:
                if CHECKED:
                    _same(self.expr, got, run.ev.public(self.expr, run.state()))
                return got
        return run.ev.public(self.expr, run.state())

    def sel(self, run: Run, what: str) -> tuple[int, ...]:
        """The slots the expression selects (``_flats(_res(public value))``)."""
        fast = self._sel
        if fast is _UNMADE:
            fast = self._sel = fast_function(self.expr.node, self.proto, "sel")
        if fast is not None:
            try:
                got = tuple(fast(env_of(run)))
            except Exception:
                pass
            else:
                if CHECKED:
                    _same(self.expr, got, _flats(_res(run.ev.public(self.expr, run.state()), what), what))
                return got
        return _flats(_res(run.ev.public(self.expr, run.state()), what), what)

    def piles(self, run: Run) -> tuple[bool, list[tuple[int, ...]]] | Any:
        """A shuffle's piles: whether the value is a list, and the slots of each of its items
        (or the public value itself, where the fast function cannot tell)."""
        fast = self._piles
        if fast is _UNMADE:
            fast = self._piles = fast_function(self.expr.node, self.proto, "piles")
        if fast is not None:
            try:
                many, piles = fast(env_of(run))
            except Exception:
                pass
            else:
                if type(piles) is not tuple:  # a region's columns come as one kept tuple
                    piles = [tuple(p) for p in piles]
                if CHECKED:
                    value = run.ev.public(self.expr, run.state())
                    items = value if isinstance(value, list) else [value]
                    want = [_flats(_res(v, "shuffle"), "shuffle") for v in items]
                    _same(self.expr, (many, list(piles)), (isinstance(value, list), want))
                return many, piles
        return run.ev.public(self.expr, run.state())


def _norm(v: Any) -> Any:
    """A value for comparison: selections by their places and shape (their labels and readers
    are for messages), new cards by their faces."""
    if isinstance(v, Slots):
        return ("S", tuple(v.flat), v.shape)
    if isinstance(v, NewCards):
        return ("N", tuple(s.id for s in v.symbols), v.up)
    if isinstance(v, list):
        return [_norm(x) for x in v]
    if isinstance(v, tuple):
        return tuple(_norm(x) for x in v)
    return v


_INTS = frozenset({int})
_PLAIN = frozenset({int, bool, str, type(None)})
"""Types :func:`deep_plain` gives back as they are (no :class:`Value`, no list): a condition's
truth, a count, a name, returned without its two calls."""


def _deep_plain(value: Any) -> Any:
    """:func:`deep_plain`; a whole number, a truth, a text or None as it is, and a list of whole
    numbers alone (a take's columns, a return's owners) copied at once: ``plain`` gives a whole
    number back as it is (no call per item)."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is list and _INTS.issuperset(map(type, value)):
        return list(value)
    return deep_plain(value)


def _same(expr: Expression, fast: Any, reference: Any) -> None:
    if _norm(fast) != _norm(reference) or type(fast) is not type(reference):
        raise Mismatch(f"{expr.text!r}: the compiled path computed {fast!r}, the interpreter {reference!r}")


class FastEvaluator:
    """The evaluator a compiled run hands the interpreter's resolvers (they call ``value`` and
    ``public`` with the spec's expressions and the run's table): each expression of the protocol
    through its :class:`Expr`, any other the interpreter's way."""

    __slots__ = ("exprs", "run", "touched")

    def __init__(self, run: Run, exprs: dict[int, Expr]):
        self.run = run
        self.exprs = exprs
        self.touched = True

    def value(self, expr: Expression, state: Any) -> Any:
        e = self.exprs.get(id(expr))
        return e.value(self.run) if e is not None else self.run.ev.value(expr, self.run.state())

    def public(self, expr: Expression, state: Any, plain_value: bool = False) -> Any:
        if plain_value:
            return self.value(expr, state)
        e = self.exprs.get(id(expr))
        return e.public(self.run) if e is not None else self.run.ev.public(expr, self.run.state())
