"""How much work a run will be, estimated before it starts, and the limits the CLI enforces.

A parameter without a ``max`` (``--param m=1000000``), or a spec whose own defaults are huge,
can ask the engine for a run that would take hours and all the memory of the machine.
:func:`estimate` reads the size of the job from the spec without running anything: the input
cards, the number of input combinations an exact verification enumerates, a rough lower bound
on the cards on the table (the input cards plus the spare cards the spec declares, plus the
spare cards of the protocols it calls with the parameters it gives them), and the steps one
run carries out (every pass of a loop whose range the parameters fix, every step of a called
protocol; a loop over the table counts as many passes as there are cards). :func:`check`
refuses a job past the limits below (exit code 2); ``--force`` lifts the card and work limits
up to a ceiling it cannot lift. The input combination limit of an exact verification is the
verifier's own (:data:`reference_engine.verify.MAX_INPUTS`) and cannot be lifted.

Whatever the estimate cannot see is bounded while it runs: one run of a protocol carries out
at most ``MAX_RUN_STEPS`` steps (:mod:`reference_engine.machine.runner`), and the
expression language bounds every range, comprehension and number
(:mod:`reference_engine.expressions`).

The limits are documented in the README ("Using the command line", "Limits") and in
``--force``'s help.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .encodings import BoundEncoding
from .errors import KitgenError, SimulationError, UsageError
from .expressions import EvalError, plain
from .spec import Params, ParamValue, Protocol
from .steps import Call, Do, For, If, Step
from .verify.inputs import MAX_INPUTS
from .verify.setting import setting

if TYPE_CHECKING:
    from .machine import Frame
    from .registry import Library

# Cards on the table (inputs plus declared spare cards) each command accepts without --force.
# A single run (simulate) records the whole table after every step: 900 cards take about 8 s
# and 0.5 GB, 3,000 cards 90 s and 5 GB. An exact verification follows every input through
# every shuffle outcome, so it stays far below that.
MAX_CARDS = {"simulate": 1_000, "verify": 200}
# Steps of one run times the cards on the table: what a recorded run (simulate, view, a booklet's
# worked example) costs. covert-lottery-modified with m = 300 (604 cards, 3,772 steps, 2.3
# million) takes 14 s; the built-in specs' worked examples stay below 10,000.
MAX_WORK = {"simulate": 2_000_000, "verify": 2_000_000}
# What --force cannot lift: past these a run takes hours and tens of gigabytes.
CEILING_CARDS = 10_000
CEILING_WORK = 200_000_000
# Steps one run may carry out while it runs (loops whose range the estimate could not read):
# MAX_RUN_STEPS, kept with the interpreter (reference_engine/machine/runner.py).
# Runs of a statistical verification (verify --runs, the validation pages of build and booklet):
# each takes 2 to 50 ms, so the limit is about 20 s to 15 minutes.
MAX_RUNS = 10_000
# Input combinations of an exact verification (the verifier refuses past it, --force or not).
MAX_COMBINATIONS = MAX_INPUTS
# Combination counts beyond 2**EXACT_BITS are kept as a logarithm only (never built as ints).
EXACT_BITS = 256


@dataclass(frozen=True)
class Estimate:
    """The size of a run of ``protocol`` with ``params``, read from the spec alone."""

    protocol: str
    params: dict[str, ParamValue]
    input_cards: int
    helper_cards: int | None  # the spares the spec declares; None: unlimited (not declared)
    combinations_log2: float  # log2 of the input combinations an exact verification enumerates
    combinations: int | None  # the same exactly, or None when beyond 2**EXACT_BITS
    callee_cards: int = 0  # the most spare cards a called protocol declares (with its parameters)
    steps: int = 0  # the steps one run carries out (loops over the table: one pass per card)

    @property
    def table_cards(self) -> int:
        """A rough bound on the cards on the table: inputs plus declared spare cards (the
        protocol's own and those of the protocols it calls)."""
        return self.input_cards + (self.helper_cards or 0) + self.callee_cards

    @property
    def work(self) -> int:
        """What a recorded run costs: its steps times the cards on the table."""
        return self.steps * max(1, self.table_cards)

    def describe(self) -> str:
        """``covert-lottery-modified with m=1000000``."""
        if not self.params:
            return self.protocol
        shown = ", ".join(f"{k}={_param_text(v)}" for k, v in self.params.items())
        return f"{self.protocol} with {shown}"


def estimate(
    proto: Protocol, params: Params | None = None, scenario: str | None = None, library: Library | None = None
) -> Estimate:
    """Estimate a run of ``proto`` (defaults where ``params`` does not say; a game protocol in
    ``scenario``, by default its first) without running it. Cheap for any parameter value. With
    the ``library`` the protocols it calls are counted too."""
    from .machine import Frame

    st_ = setting(proto, params, scenario)
    frame = Frame(proto, st_.params, st_.context)
    cards = 0
    log2 = 0.0
    exact: int | None = 1
    for name, decl in proto.inputs.items():
        b = frame.bound(decl.encoding)
        count = frame.input_count(name)
        items = 1 if count is None else count
        cards += b.width * items
        sizes = frame.groups(name) if st_.deal is not None else None
        if sizes is not None and st_.deal is not None:
            per_item, items = _deals(len(st_.deal), sizes), 1
        else:
            per_item = _choices(b)
        if per_item is None or per_item <= 1 or items == 0:
            continue  # no choice (or values that come from a scenario), as the verifier counts
        log2 += items * math.log2(per_item)
        exact = per_item**items * exact if exact is not None and log2 <= EXACT_BITS else None
    helpers = None
    if frame.helpers is not None:
        helpers = sum(frame.helpers.values())
    size = cards + (helpers or 0)
    steps, callee_cards = _Steps(library, frame, st_.context, size).count(proto.steps)
    return Estimate(proto.name, dict(st_.params), cards, helpers, log2, exact, callee_cards, steps)


class _Steps:
    """Counts the steps one run carries out and the spare cards of the protocols it calls,
    reading loop ranges and call parameters from the parameters alone (nothing runs)."""

    def __init__(
        self, library: Library | None, frame: Frame, context: dict[str, Any], table: int, depth: int = 0
    ):
        self.library = library
        self.frame = frame
        self.context = context
        self.table = max(1, table)
        self.depth = depth
        self.callee_cards = 0

    def count(self, steps: list[Step]) -> tuple[int, int]:
        return min(self._block(steps), CEILING_WORK), self.callee_cards

    def _block(self, steps: list[Step]) -> int:
        total = 0
        for step in steps:
            total += self._step(step)
            if total > CEILING_WORK:
                break
        return total

    def _static(self, expr: Any) -> Any:
        """The value of ``expr`` from the parameters alone, or None when it needs the table."""
        try:
            return plain(expr(self.frame.globals))
        except (EvalError, KitgenError, LookupError, TypeError, ValueError):
            return None

    def _step(self, step: Step) -> int:
        if isinstance(step, For):
            values = self._static(step.values) if step.values is not None else None
            passes = len(values) if isinstance(values, (list, tuple, range)) else self.table
            return 1 + passes * self._block(step.body)
        if isinstance(step, If):
            return 1 + max(self._block(step.then), self._block(step.other))
        if isinstance(step, Do):
            return 1 + self._block(step.body)
        if isinstance(step, Call):
            return 1 + self._call(step)
        return 1

    def _call(self, step: Call) -> int:
        """The callee's steps, with the parameters the call gives it where they are fixed (its
        defaults where they depend on the table); parameters out of the callee's range are the
        caller's error, at its call step."""
        from .machine import Frame

        if self.library is None or self.depth > 20:
            return 1
        try:
            callee = self.library.protocol(step.protocol)
        except KitgenError:
            return 1  # the loader reports it
        given: dict[str, ParamValue] = {}
        for name, expr in step.params.items():
            value = self._static(expr)
            if isinstance(value, int) and not isinstance(value, bool):
                given[name] = value
        try:
            params = callee.resolve_params({k: v for k, v in given.items() if k in callee.params})
        except UsageError as exc:
            src = self.frame.proto.src
            where = f"step {step.number}: " if step.number else ""
            message = (
                f"{where}the call to {callee.name}: {exc.format_message().removeprefix(callee.name + ': ')}"
            )
            raise SimulationError("", src.problem(step.path, message)) from None
        try:
            sub = Frame(callee, params, self.context)
            own = sum(sub.helpers.values()) if sub.helpers is not None else 0
        except (KitgenError, EvalError):
            return 1
        inner = _Steps(self.library, sub, self.context, self.table + own, self.depth + 1)
        steps = inner._block(callee.steps)
        self.callee_cards = max(self.callee_cards, own + inner.callee_cards)
        return steps


def check(est: Estimate, force: bool, command: str = "simulate") -> None:
    """Refuse a run past the limits of ``command`` (``simulate`` or ``verify``) with a
    :class:`UsageError` (exit code 2); ``force`` lifts the card and work limits up to their
    ceilings."""
    limit = CEILING_CARDS if force else MAX_CARDS[command]
    lift = "even with «force»" if force else "«force» lifts it"
    if est.table_cards > limit:
        raise UsageError(
            f"{est.describe()} puts {est.table_cards:,} cards on the table "
            f"(limit {limit:,} for {command}; {lift}{'' if force else f' up to {CEILING_CARDS:,}'})"
        )
    if command == "verify" and (est.combinations is None or est.combinations > MAX_COMBINATIONS):
        raise UsageError(
            f"{est.describe()} has {format_count(est.combinations, est.combinations_log2)} combinations "
            f"of inputs, too many to verify exactly (limit {MAX_COMBINATIONS:,}, even with «force»). "
            "Verify the protocols it is built from, or give smaller «param» values; "
            "simulate it with kitgen simulate"
        )
    work = CEILING_WORK if force else MAX_WORK[command]
    if est.work > work:
        raise UsageError(
            f"{est.describe()} carries out about {format_count(est.steps)} steps with "
            f"{est.table_cards:,} cards on the table ({format_count(est.work)} card-steps; limit "
            f"{work:,} for {command}; {lift}{'' if force else f' up to {CEILING_WORK:,}'})"
        )


def check_protocol(
    proto: Protocol,
    params: Params | None,
    force: bool,
    command: str,
    scenario: str | None = None,
    library: Library | None = None,
) -> Estimate | None:
    """:func:`estimate` then :func:`check`. A spec the estimate cannot read (an input count that
    does not evaluate, say) is left to the command itself, which reports it with its key path;
    a call that gives a protocol parameters out of its range is refused here, at the call."""
    try:
        est = estimate(proto, params, scenario, library)
    except (UsageError, SimulationError):
        raise
    except (KitgenError, EvalError):
        return None
    check(est, force, command)
    return est


def check_runs(runs: int | None, option: str = "«runs»") -> None:
    """Refuse more statistical runs than :data:`MAX_RUNS`."""
    if runs is not None and runs > MAX_RUNS:
        raise UsageError(f"{option} {runs:,} is more than the {MAX_RUNS:,} runs a statistical check may take")


def format_count(n: int | None, log2: float | None = None) -> str:
    """``2,000,000``, or ``about 10^301030`` for numbers too large to print in full."""
    if n is not None and n < 10**15:
        return f"{n:,}"
    exponent = math.log10(n) if n is not None else (log2 or 0.0) * math.log10(2)  # log10 takes any int
    return f"about 10^{math.floor(exponent + 1e-9):,}"


def _choices(b: BoundEncoding) -> int | None:
    """How many values one item of an input can take (the same for every item)."""
    enc = b.encoding
    if enc.kind == "values":
        return len(enc.table)
    if enc.kind == "onehot":
        return b.width
    if enc.kind == "label":
        return 1
    return len(enc.choices) or None


def _deals(cards: int, sizes: list[int]) -> int | None:
    """An upper bound on the ways to deal ``cards`` cards into hands of ``sizes`` (multinomial)."""
    if sum(sizes) != cards or any(s < 0 for s in sizes):
        return None
    out, left = 1, cards
    for s in sizes:
        out *= math.comb(left, s)
        left -= s
    return out


def _param_text(v: Any) -> str:
    v = plain(v)
    if isinstance(v, (tuple, list)):
        return ",".join(str(x) for x in v)
    return str(v)
