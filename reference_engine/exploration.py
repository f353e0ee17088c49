"""Can every run of a protocol be carried out? Asked by every command before it runs one.

A spec can be well formed and still describe something a table cannot do in some run: an
index past the end of a row in a branch that only some shuffle outcomes take, more spare
cards than it declares, a decision on a face-down card. The exact verifier meets every such
run and refuses the spec (exit code 2, with the file, line and step). A single seeded run
(``kitgen simulate``, ``view``'s worked example, a game's first virtual turn) may not meet it,
and would print a run that looks fine.

:func:`explore` runs the protocol the way the verifier does (every shuffle outcome, with the
same interpreter) but checks nothing else, on a bounded number of inputs (the asked ones, then
up to :data:`EXPLORE_INPUTS` in all, spread evenly over every input where there are at most
:data:`SPREAD_LIMIT`) and states made (:data:`EXPLORE_STATES`, counted where states are made:
every step, shuffle outcome and draw); past them it stops without a verdict, so it costs a
fraction of a second on the built-in specs. A protocol past the card limit of an exact
verification is not explored (its single run is all that can be shown).

The budget is spent alike whatever the process kept before (tests/reference_engine/
test_exploration.py): the draws of a lazily scrambled block cost one state each, listed or
kept (:func:`.machine.lazypiles._draws`), and the calls' kept laws (:mod:`.machine.relabel`)
serve only sampled runs, never an exploration (an exact, restartable run). So an exploration
stops at the same point, with the same verdict, cold or after other runs in the same process
(``kitgen simulate`` explores after its own seeded run). Only an exploration sets a budget: an
exact verification (``kitgen verify``, a kit's verification page) has none, and its report is
the same cold and warm.
"""

from __future__ import annotations

import math
from typing import Any

from .budget import MAX_CARDS, estimate
from .cards import Symbol
from .errors import EvalError, SimulationError
from .machine import Frame, Runner, Shared, read_outputs
from .machine.frontier import OverBudget, budget
from .registry import Library
from .spec import Params, Protocol
from .verify.inputs import input_assignments
from .verify.setting import setting

EXPLORE_INPUTS = 8
EXPLORE_STATES = 100_000  # states made (see machine.frontier.budget); about 100 MB at most
# Inputs are spread over all of them only where listing them is cheap; past this many
# combinations only the asked ones are explored (gakmoro-round's 127,449 take seconds to list).
SPREAD_LIMIT = 10_000


def _combinations(frame: Frame, deal: list[Symbol] | None) -> int:
    """The input combinations before ``admissible`` filters them (as the verifier counts them)."""
    total = 1
    for name in frame.proto.inputs:
        sizes = frame.groups(name) if deal is not None else None
        if sizes is not None and deal is not None:
            total *= math.factorial(len(deal)) if len(deal) <= 20 else SPREAD_LIMIT + 1
        else:
            try:
                total *= frame.domain_size(name)
            except EvalError:
                continue
        if total > SPREAD_LIMIT:
            break
    return total


def explore(
    library: Library,
    proto: Protocol,
    params: Params | None = None,
    scenario: str | None = None,
    first: list[dict[str, Any]] | None = None,
) -> bool:
    """Run inputs of ``proto`` through every shuffle outcome and read its outputs: the inputs in
    ``first``, then a spread of the others. A run that cannot be carried out raises its located
    :class:`SimulationError`; True when every explored run was carried out, False without a
    verdict: the budget ran out first, or the protocol is past the card limit of an exact run."""
    if estimate(proto, params, scenario, library).table_cards > MAX_CARDS["verify"]:
        return False  # past what an exact run is for (and a lazy block of that many piles recurses deep)
    st_ = setting(proto, params, scenario)
    no_factor: set[str] = set()
    while True:  # as run_exact: a callee whose view does not factor is run again inlined
        shared = Shared(no_factor=set(no_factor), restartable=True)
        runner = Runner(library, "exact", shared=shared, context=st_.context)
        runner.forget_views = True
        frame = runner.frame(proto, st_.params)
        runner.limits = frame.helpers
        every: list[dict[str, Any]] = []
        if _combinations(frame, st_.deal) <= SPREAD_LIMIT:
            every = input_assignments(frame, st_.deal)
        chosen = list(first or [])
        step = max(1, len(every) // EXPLORE_INPUTS)
        chosen += [every[i] for i in range(0, len(every), step)][: max(0, EXPLORE_INPUTS - len(chosen))]
        if not chosen:
            return False
        frontier: dict[Any, Any] = {}
        for i, values in enumerate(chosen):
            try:
                state = frame.initial_state(values)
            except EvalError as exc:
                raise SimulationError("", proto.src.problem(("inputs",), str(exc))) from None
            frontier.setdefault(state, (1, {}))[1][i] = 1
        try:
            with budget(EXPLORE_STATES):
                final = runner.run(frame, frontier)
            if shared.restart is not None:
                no_factor.add(shared.restart)
                continue
            for state in final:
                read_outputs(runner, frame, state)
        except OverBudget:
            return False
        return True
