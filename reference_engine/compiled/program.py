"""A protocol compiled for single runs (:class:`Program`), and the choice of engine for a run."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, cast

from .. import steps as st
from ..errors import UsageError
from ..expressions import Expression, Index, Name
from ..machine import ONE, Frame, Runner
from ..machine.plans import _target_args
from ..registry import Library
from ..spec import Protocol
from ..table import SLEEVES, Layout, State
from . import evaluate as _evaluate
from .base import Unsupported
from .evaluate import Expr, FastEvaluator
from .helpers import Env
from .ops import Block, Compiler, run_block
from .run import Run, unsupported

# What the machine does in a single run that the compiled program leaves to the interpreter's
# functions it calls (sub-protocols enumerated exactly, outputs read, plans built) is shared:
# a change of semantics there reaches both engines alike.


class NotCompiled(Exception):
    """This protocol cannot take the compiled path (the message says why)."""


@dataclass
class Program:
    """A protocol's steps compiled into operations on one table (see :mod:`.ops`), with its
    callees' programs."""

    protocol: Protocol
    block: Block = ()
    callees: dict[str, Program] = field(default_factory=dict)
    exprs: dict[int, Expr] = field(default_factory=dict)  # the steps' expressions by id
    # The expressions read after a run (the outputs' values and cards, the ``expect`` values) by
    # id: a game reads every output of every run (see :func:`outputs_evaluator`).
    reads: dict[int, Expr] = field(default_factory=dict)

    def run(self, runner: Runner, frame: Frame, state: State) -> State:
        """The state the interpreter's ``runner.run(frame, {state: ONE})`` ends with (the same
        random numbers drawn, the same view), but for display labels, which it leaves out."""
        shared = runner.shared
        if not runner.call_path:
            shared.run_start = shared.states_processed
        run = Run(runner, frame, state)
        run.fev = FastEvaluator(run, self.exprs)
        token = SLEEVES.set(frame.proto.sleeves)  # a region made with a declared name lies in sleeves
        try:
            run_block(run, self.block)
        finally:
            SLEEVES.reset(token)
            # The run and its evaluator refer to each other: without this, every run would be
            # a cycle left for the cyclic garbage collector, whose full collections then cost
            # more than a card-level game's set-up (issue 37).
            run.fev = None
        return run.final()


def compile_protocol(library: Library, protocol: Protocol) -> Program:
    """The compiled program of ``protocol`` and its callees, or :class:`NotCompiled` saying why."""
    made: dict[str, Program] = {}
    return _compile(library, protocol, made, [])


def _compile(library: Library, protocol: Protocol, made: dict[str, Program], path: list[str]) -> Program:
    name = protocol.name
    if name in path:
        raise NotCompiled(f"{' -> '.join(path + [name])}: a protocol that calls itself")
    hit = made.get(name)
    if hit is not None:
        return hit
    program = Program(protocol)

    def callee(called: str) -> Program:
        sub = _compile(library, library.protocol(called), made, path + [name])
        program.callees[called] = sub
        return sub

    program.exprs = {id(e): Expr(e, protocol) for e in expressions(protocol.steps)}
    program.reads = {id(e): Expr(e, protocol) for e in read_expressions(protocol)}
    compiler = Compiler(callee, program.exprs)
    try:
        program.block = compiler.block(protocol.steps, None)
    except Unsupported as exc:
        raise NotCompiled(f"{protocol.file}: {exc}") from None
    made[name] = program
    return program


def expressions(steps: list[st.Step]) -> list[Expression]:
    """Every expression the steps evaluate (a target's index arguments included)."""
    out: list[Expression] = []

    def target(t: st.Target) -> None:
        if t.expr is not None:
            out.append(t.expr)
            node = t.expr.node
            if isinstance(node, Index) and isinstance(node.obj, Name) and len(node.args) == 2:
                out.extend(_target_args(t))

    for step in st.walk(steps):
        if isinstance(step, st.Place):
            for t, _, items in step.targets:
                target(t)
                out.append(items)
        elif isinstance(step, st.Move):
            for t, src in step.pairs:
                target(t)
                out.append(src)
        elif isinstance(step, st.Call):
            out.extend(step.params.values())
            out.extend(step.args.values())
            for t in step.results.values():
                target(t)
        elif isinstance(step, st.Let):
            out.extend(step.values.values())
        else:
            for name in ("order", "a", "b", "columns", "piles", "what", "cards", "to", "cond", "values"):
                e = getattr(step, name, None)
                if isinstance(e, Expression):
                    out.append(e)
    return out


def read_expressions(protocol: Protocol) -> list[Expression]:
    """The expressions read of a finished run: the outputs' values and their cards' targets,
    and the ``expect`` values."""
    out: list[Expression] = []
    for decl in protocol.outputs.values():
        if decl.value is not None:
            out.append(decl.value)
        if decl.cards is not None and decl.cards.expr is not None:
            out.append(decl.cards.expr)
    out.extend(e.value for e in protocol.expect.values() if e.value is not None)
    return out


class Finished:
    """A finished compiled run's table as the :class:`Expr` of its outputs read it (the
    attributes of a :class:`Run` they read): its layout, cells and variables, the frame, and the
    interpreter's evaluator for what a fast function leaves to it (made when first asked)."""

    __slots__ = ("_ev", "_state", "_vars", "cells", "frame", "layout", "runner")

    def __init__(self, runner: Runner, frame: Frame, state: State):
        self.runner = runner
        self.frame = frame
        self.layout = state.layout
        self.cells = state.cells
        self._state = state
        self._vars: dict[str, Any] | None = None
        self._ev: Any = None

    def state(self) -> State:
        return self._state

    def vars(self) -> dict[str, Any]:
        if self._vars is None:
            self._vars = dict(self._state.env)
        return self._vars

    @property
    def ev(self) -> Any:
        if self._ev is None:
            self._ev = self.runner.evaluator(self.frame)
        return self._ev


def outputs_evaluator(runner: Runner, frame: Frame, state: State) -> FastEvaluator | None:
    """The evaluator that reads a finished compiled run's outputs (``read_outputs``' ``ev``):
    each expression through its fast function where it has one, else the interpreter's
    evaluator, with the same values (the tests compare them, see evaluate.CHECKED). None when
    ``frame``'s protocol is not compiled."""
    program = program_for(runner.library, frame.proto)
    if not isinstance(program, Program):
        return None
    # A Finished reads as the Run an Expr reads (layout, cells, vars, state, frame, ev).
    return FastEvaluator(cast(Run, Finished(runner, frame, state)), program.reads)


_PLAIN = frozenset({int, bool, str, type(None)})

_NO_TABLE = Layout.make(())
"""An empty table: what a parameter's expression sees (the frame's names alone)."""


def expect_value(library: Library, frame: Frame, expr: Expression) -> Any:
    """``expr(frame.globals)`` (an ``expect`` value: it reads the parameters and game functions
    alone) through its fast function where the protocol is compiled and it has one."""
    program = program_for(library, frame.proto)
    e = program.reads.get(id(expr)) if isinstance(program, Program) else None
    fast = e.fast if e is not None and e.expr is expr else None
    if fast is not None:
        g = frame.globals
        try:
            value = fast(Env(_no_state, _NO_TABLE, [], {}, g.names, g.functions))
        except Exception:
            pass
        else:
            if type(value) not in _PLAIN:  # a count is a number: anything else the interpreter's way
                return expr(g)
            if _evaluate.CHECKED:
                _evaluate._same(expr, value, expr(g))
            return value
    return expr(frame.globals)


def _no_state() -> State:
    raise Unsupported("an expect value reads no card")


_PROGRAMS: dict[tuple[Any, ...], tuple[Any, ...]] = {}
"""The compiled programs: ``(id(library), id(protocol))`` -> (library, protocol, program or why
not), what each library asked for (one look-up a run); and ``("shared", id(protocol), checked)``
-> (protocol, program), the latest program compiled for that protocol object, which another
library takes where it :func:`shares` it. At most :data:`KEPT_PROGRAMS` entries in all."""

KEPT_PROGRAMS = 64


def program_for(library: Library, protocol: Protocol) -> Program | str:
    """The compiled program of ``protocol`` (kept from run to run), or why there is none.

    A fresh :class:`Library` (every game, build and test makes its own) takes the program another
    library compiled for the same protocol where it may (:func:`shares`): its steps' plans, kept
    by layout, are then made once per process rather than once per library, and a plan depends
    on nothing but the steps and the layout (see ``ops.KEPT_PLANS``). Only libraries of one thread
    share a program: a program keeps the run it is carrying out between fused steps, so two
    threads must never run one program at once (nor one library: give each thread its own)."""
    key = (id(library), id(protocol))
    kept = _PROGRAMS.get(key)
    if kept is None or kept[0] is not library or kept[1] is not protocol:
        shared_key = ("shared", id(protocol), _evaluate.CHECKED, threading.get_ident())
        pool = _PROGRAMS.get(shared_key)
        made: Program | str
        if pool is not None and pool[0] is protocol and shares(library, pool[1]):
            made = pool[1]
        else:
            try:
                made = compile_protocol(library, protocol)
            except NotCompiled as exc:
                made = str(exc)
        if len(_PROGRAMS) > KEPT_PROGRAMS:
            # The older half goes (the table keeps the order entries came in): a library's
            # program made just before stays its own, whatever came before (a clear made the
            # next call of a library compile again, test-order dependent: stop 52).
            for old in list(_PROGRAMS)[: len(_PROGRAMS) // 2]:
                del _PROGRAMS[old]
        if isinstance(made, Program):  # the latest program compiled for this protocol is shared
            _PROGRAMS[shared_key] = (protocol, made)
        kept = _PROGRAMS[key] = (library, protocol, made)
    return cast("Program | str", kept[2])


def unshare() -> None:
    """No program compiled so far is taken by a library that did not compile it (each library
    keeps its own): the test suite starts every test so (tests/conftest.py), as a test that
    changes a compiler or a bound (``ops.KEPT_PLANS``) expects its fresh library to compile."""
    for key in [k for k in _PROGRAMS if k[0] == "shared"]:
        del _PROGRAMS[key]


def shares(library: Library, program: Program) -> bool:
    """Whether ``program``, compiled by another library, is the one ``library`` would compile for
    its protocol: every protocol it calls, at every depth, is the very protocol ``library`` has
    loaded and linked under that name. A protocol is a function of its file's name and text (the
    same object in every library while neither changes: ``spec._CHECKED``), the compiler reads
    nothing else of a library, and the program's kept plans and frames depend on the steps, the
    layouts and the parameters alone. A program compiled while ``evaluate.CHECKED`` differed is
    not shared (its plans were not compared with the interpreter's)."""
    todo, seen = [program], {id(program)}
    while todo:
        for name, sub in todo.pop().callees.items():
            if library.linked_protocol(name) is not sub.protocol:
                return False
            if id(sub) not in seen:
                seen.add(id(sub))
                todo.append(sub)
    return True


def run_single(
    runner: Runner, frame: Frame, state: State, engine: str, reasons: dict[str, int] | None = None
) -> tuple[State, str, str | None]:
    """One single run of ``frame`` from ``state`` with the engine asked for: "auto" (compiled where
    the protocol compiles, else the interpreter), "compiled" (a :class:`UsageError` saying why
    the protocol does not compile, rather than a run on the interpreter), "interpreter". The
    final state, the engine that ran it, and why it is not the compiled path that was asked
    (None: it is, or it was not asked); the reasons are also counted in ``reasons``."""
    if engine in ("auto", "compiled"):
        why = unsupported(runner)
        program = program_for(runner.library, frame.proto) if why is None else why
        if isinstance(program, Program):
            return program.run(runner, frame, state), "compiled", None
        if engine == "compiled":
            raise UsageError(f"«engine» compiled: {frame.proto.name} is not compiled: {program}")
        if reasons is not None:
            reasons[program] = reasons.get(program, 0) + 1
        (final,) = runner.run(frame, {state: ONE})
        return final, "interpreter", program
    (final,) = runner.run(frame, {state: ONE})
    return final, "interpreter", None


__all__ = [
    "Any",
    "Finished",
    "NotCompiled",
    "Program",
    "compile_protocol",
    "expect_value",
    "outputs_evaluator",
    "program_for",
    "run_single",
    "shares",
    "unshare",
]
