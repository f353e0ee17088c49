"""One card-level run of a card selection protocol for a virtual player, with its checks.

Every kind whose virtual players choose a card with the card selection protocol (UNO paper,
Section 4) runs it through :func:`run_selection`: the whole table (every hand, the piles)
face down, theta and alpha/beta cards from the supply, then checks after the run that the
played card was valid (or that none was), that every other card went back to its owner,
that no card was created or lost, that every helper card went back to the supply, and that
the run used the shuffles and helper cards the paper states.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .cards import EMPTY, Symbol, symbol_of
from .errors import CheckFailure
from .machine import ONE, Runner, Shared, read_outputs
from .registry import Library
from .spec import Protocol


@dataclass
class SelectionRun:
    """One checked run of a card selection protocol."""

    played: Symbol | None
    returned: list[list[Symbol]]
    shuffles: int
    helper_cards: int
    checks: int
    observations: list[Any]
    expected: dict[str, Any] = field(default_factory=dict)  # the paper's counts for this run


@dataclass
class CallCache:
    """Sub-protocol outcomes worth keeping from one protocol run to the next."""

    subruns: dict[Any, Any] = field(default_factory=dict)
    factor_refs: dict[Any, Any] = field(default_factory=dict)
    plans: dict[Any, Any] = field(default_factory=dict)  # table rearrangements by layout
    constants: dict[Any, Any] = field(default_factory=dict)  # expressions that read no card


_PLANS_KEPT = 20_000  # rearrangement plans kept between runs before the cache starts afresh


def run_selection(
    library: Library,
    protocol: Protocol,
    owners: list[list[Symbol]],
    valid: Any,
    rng: random.Random,
    cache: CallCache,
    where: str,
    check_counts: bool = True,
    fallback: bool = False,
) -> SelectionRun:
    """Run a card selection spec once on ``owners`` (P_1 first) and check the result.

    Checks: the played card is a valid card of P_1, or none is valid when nothing is
    played; every owner got exactly their cards back (P_1 without the played one); no
    card was created or lost; every helper card went back to the supply; the run used the
    shuffles and helper cards the spec's ``expect`` block quotes from the paper.
    """
    sizes = tuple(len(o) for o in owners)
    row = [c for o in owners for c in o]
    if len(cache.plans) > _PLANS_KEPT:
        cache.plans.clear()
    shared = Shared(
        subruns=cache.subruns, factor_refs=cache.factor_refs, plans=cache.plans, constants=cache.constants
    )
    runner = Runner(library, "sample", rng=rng, context={"valid": valid}, shared=shared)
    frame = runner.frame(protocol, protocol.resolve_params({"sizes": sizes}))
    final = runner.run(frame, {frame.initial_state({"cards": row}): ONE})
    (state,) = final
    outs = read_outputs(runner, frame, state)
    played = outs["played"]
    valid_cards = [c for c in owners[0] if valid(c)]
    if played is None and valid_cards:
        raise CheckFailure(
            f"{where}: reported no valid card, but {', '.join(c.glyph for c in valid_cards)} "
            f"{'is' if len(valid_cards) == 1 else 'are'} valid"
        )
    if played is None and fallback and owners[0]:
        raise CheckFailure(f"{where}: played no card, but with no valid card any card of the hand is played")
    # With ``fallback`` (the original covert lottery) a hand without a valid card plays any card.
    allowed = valid_cards if valid_cards or not fallback else list(owners[0])
    if played is not None and played not in allowed:
        raise CheckFailure(f"{where}: played {played.glyph}, which is not a valid card of the hand")
    returned = []
    for i, owner in enumerate(owners):
        reg = state.layout.by_name.get(f"hand{i + 1}")
        cards = [symbol_of(state.cells[f]) for f in reg.slots if state.cells[f] != EMPTY] if reg else []
        expected = list(owner)
        if i == 0 and played is not None:
            expected.remove(played)
        if Counter(c.name for c in cards) != Counter(c.name for c in expected):
            raise CheckFailure(
                f"{where}: owner {i + 1} got back {sorted(c.glyph for c in cards)} "
                f"instead of {sorted(c.glyph for c in expected)}"
            )
        returned.append(cards)
    total = Counter(c.name for r in returned for c in r) + Counter([played.name] if played else [])
    if total != Counter(c.name for c in row):
        raise CheckFailure(f"{where}: cards were created or lost")
    if state.out:
        raise CheckFailure(f"{where}: helper cards were not all returned to the supply")
    helpers = sum(n for _, n in state.meters.peak)
    paper_counts: dict[str, Any] = {}
    for name, measured in (("shuffles", state.meters.shuffles), ("helper_cards", helpers)):
        exp = protocol.expect.get(name)
        if exp is not None and exp.value is not None:
            want = exp.value(frame.globals)
            paper_counts[name] = want
            if check_counts and want != measured:
                raise CheckFailure(
                    f"{where}: used {measured} {name.replace('_', ' ')}, the paper says {want}"
                )
    return SelectionRun(
        played, returned, state.meters.shuffles, helpers, 6, runner.views.expanded(state.view), paper_counts
    )
