"""How much work a run will be, estimated before it starts, and the limits the CLI enforces.

A parameter without a ``max`` (``--param m=1000000``) can ask the engine for a run that
would take hours and all the memory of the machine. :func:`estimate` reads the size of the
job from the spec without running anything: the input cards, the number of input
combinations an exact verification enumerates, and a rough lower bound on the cards on
the table (the input cards plus the spare cards the spec declares). :func:`check` refuses
a job past the limits below (exit code 2); ``--force`` lifts the card limits. The input
combination limit of an exact verification is the verifier's own
(:data:`reference_engine.verify.MAX_INPUTS`) and cannot be lifted.

The limits are documented in the README ("Using the command line") and in ``--force``'s help.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .encodings import BoundEncoding
from .errors import KitgenError, UsageError
from .expressions import EvalError, plain
from .spec import Params, ParamValue, Protocol
from .verify import MAX_INPUTS, setting

# Cards on the table (inputs plus declared spare cards) each command accepts without --force.
# A single run (simulate) records the whole table after every step: 900 cards take about 8 s
# and 0.5 GB, 3,000 cards 90 s and 5 GB. An exact verification follows every input through
# every shuffle outcome, so it stays far below that.
MAX_CARDS = {"simulate": 1_000, "verify": 200}
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

    @property
    def table_cards(self) -> int:
        """A rough bound on the cards on the table: inputs plus declared spare cards."""
        return self.input_cards + (self.helper_cards or 0)

    def describe(self) -> str:
        """``covert-lottery-modified with m=1000000``."""
        if not self.params:
            return self.protocol
        shown = ", ".join(f"{k}={_param_text(v)}" for k, v in self.params.items())
        return f"{self.protocol} with {shown}"


def estimate(proto: Protocol, params: Params | None = None, scenario: str | None = None) -> Estimate:
    """Estimate a run of ``proto`` (defaults where ``params`` does not say; a game protocol in
    ``scenario``, by default its first) without running it. Cheap for any parameter value."""
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
    return Estimate(proto.name, dict(st_.params), cards, helpers, log2, exact)


def check(est: Estimate, force: bool, command: str = "simulate") -> None:
    """Refuse a run past the limits of ``command`` (``simulate`` or ``verify``) with a
    :class:`UsageError` (exit code 2); ``force`` lifts the card limit."""
    limit = MAX_CARDS[command]
    if not force and est.table_cards > limit:
        raise UsageError(
            f"{est.describe()} puts {est.table_cards:,} cards on the table "
            f"(limit {limit:,} for {command}; --force lifts it)"
        )
    if command == "verify" and (est.combinations is None or est.combinations > MAX_COMBINATIONS):
        raise UsageError(
            f"{est.describe()} has {format_count(est.combinations, est.combinations_log2)} combinations "
            f"of inputs, too many to verify exactly (limit {MAX_COMBINATIONS:,}, even with --force). "
            "Verify the protocols it is built from, or give smaller --param values; "
            "simulate it with kitgen simulate"
        )


def check_protocol(
    proto: Protocol,
    params: Params | None,
    force: bool,
    command: str,
    scenario: str | None = None,
) -> Estimate | None:
    """:func:`estimate` then :func:`check`. A spec the estimate cannot read (an input count that
    does not evaluate, say) is left to the command itself, which reports it with its key path."""
    try:
        est = estimate(proto, params, scenario)
    except UsageError:
        raise
    except (KitgenError, EvalError):
        return None
    check(est, force, command)
    return est


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
