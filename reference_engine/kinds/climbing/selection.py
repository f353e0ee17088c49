"""One checked card-level run of the play selection protocol (a virtual player's Daifugō turn).

Like :func:`reference_engine.selection.run_selection` for one card, but the virtual player
P_1 plays a *set* of cards: after the run the engine checks that the play is a valid play of
P_1's hand on the last play (one to four cards of one rank, higher than the last play and of
its size), that P_1 passes exactly when it has no valid play, that every other card went back
to its owner, that no card was created or lost, that every helper card went back to the
supply, and that the run took the shuffles the protocol's steps call for (counted from the
public table: see :func:`expected_shuffles`).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ...cards import EMPTY, SYMBOLS, Symbol, symbol_of
from ...compiled import run_single
from ...errors import CheckFailure
from ...machine import Runner, Shared, read_outputs
from ...registry import Library
from ...selection import ENGINE, CallCache
from ...spec import Protocol, require
from .rules import ClimbingRules, Play

COPIES = 3  # ownership pairs under every card: enough for four cards of a rank
# The specs whose following tickets meet in knockout matches (their shuffles: _knockout_shuffles).
QUICK = frozenset({"play-selection-fast"})
CHECKS = 6


@dataclass
class PlayRun:
    """One checked run: the cards played (None: a pass) and every owner's cards after it."""

    played: list[Symbol] | None
    returned: list[list[Symbol]]
    shuffles: int
    helper_cards: int
    checks: int
    observations: list[Any]
    peak: dict[str, int] = field(default_factory=dict)  # the most helper cards of each face out at once
    engine: str = "interpreter"  # which engine ran it, and why not the compiled one if it was asked
    fallback_reason: str | None = None


def expected_shuffles(
    rules: ClimbingRules,
    owners: list[list[Symbol]],
    last: Play | None,
    played: list[Symbol] | None,
    quick: bool = False,
) -> int:
    """The shuffles the protocol's steps call for, from what everyone sees: the ranks on the
    table, the last play, and the play.

    Leading: P_1's row (1), the columns (1), then one modified covert lottery (m + 2 shuffles on
    m tickets: the rank's columns left and the stop card) per card after the first, and one more
    that draws the stop card unless the rank ran out; the final shuffle of the columns (when any
    column is left). Following s0 cards of strength r0: the columns (1), s0 - 1 six-card ANDs
    per ticket, one shuffle of each rank's tickets when it has two or more, one chain AND per
    ticket, the lottery (N + 2 on N tickets), the final shuffle of the columns. ``quick``: the
    quick version (``play-selection-fast``), whose following tickets meet in knockout matches
    (:func:`_knockout_shuffles`); it leads as the play selection does.
    """
    table = [c for o in owners for c in o]
    count = Counter(rules.strength(c) for c in table)
    final = 1 if len(table) > len(played or []) else 0
    if last is None:
        assert played, "a leading player always plays"
        remaining = count[rules.strength(played[0])] - 1
        n = 2
        for _ in range(len(played)):
            if remaining == 0:
                break
            n += (remaining + 1) + 2
            remaining -= 1
        return n + final
    tickets = {r: math.comb(m, last.size) for r, m in count.items() if r > last.strength}
    total = sum(tickets.values())
    if quick:
        return 1 + _knockout_shuffles(last.size, [t for t in tickets.values() if t]) + final
    n = 1 + (last.size - 1) * total + sum(1 for t in tickets.values() if t > 1) + total
    if total:
        n += total + 2
    return n + final


def _knockout_shuffles(size: int, tickets: list[int]) -> int:
    """The quick version's shuffles after the grid's, following a play of ``size`` cards with
    ``tickets`` tickets in each rank that has some: one round of six-card ANDs (all tickets at
    once) per card of the set after the first, the half turns that make every pair an arrow, the
    mixing of each rank's tickets (all ranks at once), the knockout rounds inside the ranks (every
    rank's matches of a round at once), then the knockout lottery on the ranks' tickets (its
    shuffle, unless only one rank is left, and its rounds)."""
    if not tickets:
        return 0
    ranks = len(tickets)
    mixed = 1 if max(tickets) > 1 else 0
    rounds = max((t - 1).bit_length() for t in tickets)
    return (size - 1) + 1 + mixed + rounds + (1 if ranks > 1 else 0) + (ranks - 1).bit_length()


def check_play_selection(proto: Protocol) -> None:
    """What a climbing game gives a play selection spec and reads from it (refused, exit 2, at
    the spec's ``protocol`` line if absent; a spec without them was a KeyError traceback)."""
    sizes = proto.params.get("sizes")
    cards = proto.inputs.get("cards")
    played = proto.outputs.get("played")
    require(
        proto,
        "a virtual player's turn in a climbing game",
        [
            ("strength" in proto.context, "the game's order of ranks (context: {strength: ...})"),
            (sizes is not None and sizes.is_list, "a list parameter 'sizes' (the hand sizes)"),
            *[
                (name in proto.params and not proto.params[name].is_list, f"a parameter {name!r} ({what})")
                for name, what in PLAY_PARAMS.items()
            ],
            (
                cards is not None and cards.groups is not None,
                "an input 'cards' split into hands ('groups: sizes')",
            ),
            (
                played is not None and played.cards is not None,
                "an output 'played' (the cards played, or none)",
            ),
        ],
    )


PLAY_PARAMS = {
    "s0": "the number of cards of the last play, 0 to lead",
    "r0": "the strength of the last play",
    "copies": "ownership bits per card",
}


def run_play_selection(
    library: Library,
    rules: ClimbingRules,
    protocol: Protocol,
    owners: list[list[Symbol]],
    last: Play | None,
    rng: random.Random,
    cache: CallCache,
    where: str,
    copies: int = COPIES,
) -> PlayRun:
    """Run the play selection spec once on ``owners`` (P_1 first) and check the result."""
    sizes = tuple(len(o) for o in owners)
    shared = Shared(
        subruns=cache.subruns, factor_refs=cache.factor_refs, plans=cache.plans, constants=cache.constants
    )
    runner = Runner(
        library, "sample", rng=rng, context={"strength": rules.strength}, shared=shared, views=cache.views
    )
    params: dict[str, int | tuple[int, ...]] = {
        "sizes": sizes,
        "s0": last.size if last else 0,
        "r0": last.strength if last else -1,
        "copies": copies,
    }
    frame = runner.frame(protocol, protocol.resolve_params(params))
    row = [c for o in owners for c in o]
    state, engine, reason = run_single(
        runner,
        frame,
        frame.initial_state({"cards": row}),
        cache.engine or ENGINE.get(),
        cache.fallback_reasons,
    )
    outs = read_outputs(runner, frame, state)
    value = outs.get("played")
    played = [symbol_of(c) if not isinstance(c, Symbol) else c for c in value] if value else None
    returned = []
    for i in range(len(owners)):
        reg = state.layout.by_name.get(f"hand{i + 1}")
        returned.append(
            [symbol_of(state.cells[f]) for f in reg.slots if state.cells[f] != EMPTY] if reg else []
        )
    helpers = sum(n for _, n in state.meters.peak)
    peak = {SYMBOLS.by_id(sid).name: n for sid, n in state.meters.peak if n}
    run = PlayRun(
        played,
        returned,
        state.meters.shuffles,
        helpers,
        CHECKS,
        runner.views.expanded(state.view),
        peak,
        engine,
        reason,
    )
    check_play(rules, owners, last, run, where, helpers_back=not state.out, quick=protocol.name in QUICK)
    return run


def check_play(
    rules: ClimbingRules,
    owners: list[list[Symbol]],
    last: Play | None,
    run: PlayRun,
    where: str,
    helpers_back: bool,
    quick: bool = False,
) -> None:
    """The checks after a run (see the module docs); a CheckFailure names the first that fails."""
    hand = owners[0]
    plays = rules.plays(hand, last)
    played = run.played
    if played is None:
        if plays:
            options = ", ".join(rules.describe(p) for p in plays)
            raise CheckFailure(f"{where}: passed, but could play {options}")
    else:
        try:
            play = rules.play_of(played)
        except ValueError as exc:
            raise CheckFailure(f"{where}: {exc}") from None
        if play not in plays:
            raise CheckFailure(f"{where}: played {rules.describe(play)}, which does not beat the last play")
        if Counter(c.name for c in played) - Counter(c.name for c in hand):
            raise CheckFailure(f"{where}: played {' '.join(c.glyph for c in played)}, not all from its hand")
    for i, (owner, cards) in enumerate(zip(owners, run.returned)):
        expected = Counter(c.name for c in owner)
        if i == 0 and played:
            expected -= Counter(c.name for c in played)
        if Counter(c.name for c in cards) != expected:
            raise CheckFailure(
                f"{where}: owner {i + 1} got back {sorted(c.glyph for c in cards)} instead of "
                f"{sorted(expected.elements())}"
            )
    total = Counter(c.name for r in run.returned for c in r) + Counter(c.name for c in played or [])
    if total != Counter(c.name for o in owners for c in o):
        raise CheckFailure(f"{where}: cards were created or lost")
    if not helpers_back:
        raise CheckFailure(f"{where}: helper cards were not all returned to the supply")
    want = expected_shuffles(rules, owners, last, played, quick)
    if run.shuffles != want:
        raise CheckFailure(f"{where}: used {run.shuffles} shuffles, the protocol's steps call for {want}")
