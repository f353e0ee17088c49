"""The compiled path: a protocol spec compiled for single runs (card-level play).

The interpreter (:mod:`reference_engine.machine`) stays the reference: it carries a frontier of
states through the steps, resolving every selector through a scope, building a gather plan per
layout and keeping immutable states. A game runs the same protocol thousands of times, one run
at a time; the compiled path runs any spec written in the step language there, after it is
loaded and type-checked:

* :mod:`.program` compiles a protocol and its callees into a :class:`Program` (:func:`program_for`),
  once per process while the specs are unchanged (a fresh library takes the program another
  compiled where every callee it resolves is the same protocol: :func:`.program.shares`), or says
  why it cannot (:class:`NotCompiled`: a step kind or a step field the compiler does not know, a
  protocol that calls itself);
* :mod:`.ops` compiles each step into a closure over its typed fields, acting on one mutable
  table (:mod:`.run`); the same expressions are evaluated, the same random numbers drawn in
  the same order, the same observations added to the view and the same errors raised as in the
  interpreter's single run, so both engines give identical runs for the same seed
  (``tests/reference_engine/compiled/`` compares them on the shipped protocols and on the fuzz
  generator's specs);
* the fast paths: expressions generated into Python functions (:mod:`.codegen`, calling
  :mod:`.helpers`; :mod:`.evaluate` falls back to the interpreter's evaluator where they cannot
  tell) and plans built from whole rows (:mod:`.plans`), each checked against the
  interpreter's own in the tests (``evaluate.CHECKED``).

:func:`run_single` runs one single run on the engine asked for, and reports why a run took the
interpreter though the compiled path was asked (a trace being recorded, a verification's run).
"""

from __future__ import annotations

from .program import NotCompiled, Program, compile_protocol, program_for, run_single

__all__ = ["NotCompiled", "Program", "compile_protocol", "program_for", "run_single"]
