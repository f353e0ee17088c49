"""The card machine: runs a protocol spec on a simulated table.

One interpreter, two modes:

* ``sample``: one run. Each shuffle draws its permutation from a seeded RNG and every
  action is recorded as a trace :class:`~reference_engine.trace.Event`.
* ``exact``: every run at once. The *frontier* maps each distinct machine state to its
  probability under each secret input (``{input index: Fraction}``); identical states
  are merged after every action, and before a shuffle whose permutations form a group
  each table is replaced by a fixed representative of its orbit (they give the same
  distribution afterwards). Sub-protocol calls are run once per distinct argument
  cards and cached; when a callee's view is provably independent of everything but
  its public outputs, that view is factored out of the caller's (see
  :func:`.subruns._factor`). When it is not, the run stops with ``Shared.restart`` naming
  the callee, and is run again with that callee inlined.

Layout-changing actions are compiled once per layout into gather plans
(:class:`~reference_engine.table.Draft`) and then applied to every state.

Modules, one per job:

* :mod:`.views`: :class:`ViewTable`, the interned views of the players.
* :mod:`.frame`: :class:`Frame` (a protocol bound to its parameters), :class:`StateScope`
  and :class:`Evaluator` (public expressions, evaluated once per distinct look of the table).
* :mod:`.frontier`: probability vectors, merging states, lazily scrambled piles
  (:func:`materialize`, :func:`settle`), merging views (:func:`forget`), public variables.
* :mod:`.plans`: :class:`Plan` (what an action does to a layout), resolved card selections
  and targets, :class:`SubResult`.
* :mod:`.runner`: :class:`Runner` (entry points, dispatch, errors, traces, plan-based
  actions, display labels), :class:`Shared`, :class:`Ctx`, and :func:`handles`, which
  registers the handler of a step kind.
* :mod:`.actions`: the handlers of the actions: :mod:`~.actions.layout` (place, rearrange,
  swap, move, take, discard, return, note), :mod:`~.actions.shuffling` (shuffle, shift),
  :mod:`~.actions.reveal` (turn), :mod:`~.actions.control` (if, for, let, do).
* :mod:`.calls`: sub-protocol calls; :mod:`.subruns`, their exact enumerations, cache and view
  factoring; :mod:`.relabel`, a small callee's enumeration kept up to the faces of the cards
  it only carries (single runs).
* :mod:`.outputs`: reading a finished run's outputs.

Importing this package registers every handler. Import from here: the names other modules
use are re-exported.
"""

from __future__ import annotations

from . import actions
from .calls import SMALL_CALL, h_call
from .forgetting import (
    LocalDecider,
    Merge,
    MergeDecider,
    Sizes,
    ViewInfo,
    decide_candidates,
    decide_merges,
    forget,
    view_info,
)
from .frame import Evaluator, Frame, GameFunction, StateScope, deep_plain, detach
from .frontier import (
    ONE,
    Frontier,
    Vec,
    _add,
    _freeze,
    _scale,
    add_vec,
    env_drop,
    env_set,
    vec_prob,
)
from .lazypiles import materialize, settle
from .outputs import (
    DecodeFailure,
    handling,
    leftovers,
    order_read,
    output_flats,
    output_selections,
    read_outputs,
    shown,
)
from .plans import Plan, SubResult
from .runner import HANDLERS, Ctx, Handler, Outcome, Runner, Shared, handles
from .subruns import collect
from .views import Observation, ViewTable

__all__ = [
    "HANDLERS",
    "ONE",
    "SMALL_CALL",
    "Ctx",
    "DecodeFailure",
    "Evaluator",
    "Frame",
    "Frontier",
    "GameFunction",
    "Handler",
    "LocalDecider",
    "Merge",
    "MergeDecider",
    "Observation",
    "Outcome",
    "Plan",
    "Runner",
    "Shared",
    "Sizes",
    "StateScope",
    "SubResult",
    "Vec",
    "ViewInfo",
    "ViewTable",
    "_add",
    "_freeze",
    "_scale",
    "actions",
    "add_vec",
    "collect",
    "decide_candidates",
    "decide_merges",
    "deep_plain",
    "detach",
    "env_drop",
    "env_set",
    "forget",
    "h_call",
    "handles",
    "handling",
    "leftovers",
    "materialize",
    "order_read",
    "output_flats",
    "output_selections",
    "read_outputs",
    "settle",
    "shown",
    "vec_prob",
    "view_info",
]
