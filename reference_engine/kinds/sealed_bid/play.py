"""Sealed-bid games (Gakmoro): simple strategies, and whole games.

:class:`SealedBidGame` plays a whole game. At ``level="card"`` every round runs the rule
set's protocol spec on the simulated table (each bundle E_8(v) face down) and checks the
result against the plain rules: the announced winner, every card back in the supply, the
paper's card counts (28 and 38 per addition, 74 for the comparison, a 2 x 37 table) and that
the loose cards of the first round suffice, because opened cards are reused as spares in
later rounds. At ``level="rule"`` the winner is computed directly (what a human dealer does).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import dataclass

from ... import progress
from ...cards import SYMBOLS
from ...compiled import run_single
from ...errors import CheckFailure, UsageError
from ...expressions import as_int, plain
from ...machine import Runner, Shared, leftovers, read_outputs
from ...records.recorder import Recorder
from ...registry import Library
from ...selection import ENGINE
from ...spec import require
from ..result import Json, PlayResult, pick
from .record import RoundResult, SealedBidRecord, announce
from .rules import SealedBidRules

STRATEGIES = ("balanced", "random", "greedy")


# --------------------------------------------------------------------------- strategies


def submissions(
    rules: SealedBidRules, hand: list[int], variant: str, rounds_left: int
) -> list[tuple[int, ...]]:
    """Every legal submission (a sorted multiset of values) from ``hand``."""
    if variant == "dealerless":
        sizes = [rules.per_round]
    else:
        keep = (rounds_left - 1) * rules.submit[0]  # enough cards for the rounds after this one
        sizes = [k for k in range(rules.submit[0], rules.submit[1] + 1) if len(hand) - k >= keep]
    out = set()
    for k in sizes:
        for combo in itertools.combinations(sorted(hand), k):
            out.add(combo)
    return sorted(out)


def choose(
    strategy: str,
    rules: SealedBidRules,
    hand: list[int],
    variant: str,
    rounds_left: int,
    rng: random.Random,
) -> tuple[int, ...]:
    """A submission by a simple strategy.

    ``random``: any legal submission, uniformly. ``balanced``: the total closest to an even
    share of what is left. ``greedy``: the highest total while keeping a card per round left.
    """
    options = submissions(rules, hand, variant, rounds_left)
    if not options:
        raise UsageError("no legal submission is left")
    if strategy == "random":
        return options[rng.randrange(len(options))]
    if strategy == "balanced":
        target = sum(hand) / rounds_left
        best = min(abs(sum(o) - target) for o in options)
        near = [o for o in options if abs(sum(o) - target) == best]
        return near[rng.randrange(len(near))]
    if strategy == "greedy":
        top = max(sum(o) for o in options)
        return next(o for o in options if sum(o) == top)
    raise UsageError(f"unknown strategy {strategy!r} (one of {', '.join(STRATEGIES)})")


# --------------------------------------------------------------------------- games


def plain_winner(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    """What a dealer announces: 1 if the first total is higher, -1 if lower, 0 for a tie."""
    return (sum(a) > sum(b)) - (sum(a) < sum(b))


@dataclass
class SealedBidResult(PlayResult):
    """A sealed-bid game between two named players: each one's strategy, the rounds, who won them,
    and at card level the protocol's work and the loose cards it needed."""

    variant: str
    players: list[str]
    strategies: dict[str, str]
    winner: str  # a player's name, or "draw"
    round_wins: dict[str, int]
    rounds: list[Json]
    protocol_runs: int
    checks_passed: int
    shuffles: int
    max_helper_cards: int
    loose_cards_needed: dict[str, int]
    table: list[int]
    # Which engine ran the rounds' protocol (None at rule level) and why the interpreter did
    # though the compiled path was asked (see reference_engine/compiled/).
    engine_used: str | None = None
    fallback_reason: str | None = None

    def to_json(self) -> Json:
        return pick(
            self,
            "game variant level seed players strategies winner round_wins rounds protocol protocol_runs "
            "engine_used fallback_reason checks_passed shuffles max_helper_cards loose_cards_needed table",
        )


class SealedBidGame:
    def __init__(
        self,
        rules: SealedBidRules,
        library: Library | None = None,
        *,
        level: str = "card",
        variant: str = "dealerless",
        seed: int = 0,
        strategies: tuple[str, str] = ("balanced", "random"),
        protocol: str | None = None,
        recorder: Recorder | None = None,
    ):
        if variant not in ("dealer", "dealerless"):
            raise UsageError(f"«variant» is dealer or dealerless, not {variant!r}")
        if level not in ("card", "rule"):
            raise UsageError(f"«level» is card or rule, not {level!r}")
        if level == "card" and variant == "dealer":
            raise UsageError(
                "with a dealer there is no protocol to run: use «level» rule, or «variant» dealerless"
            )
        for s in strategies:
            if s not in STRATEGIES:
                raise UsageError(f"unknown strategy {s!r} (one of {', '.join(STRATEGIES)})")
        self.rules = rules
        self.library = library or Library()
        self.level = level
        self.variant = variant
        self.seed = seed
        self.rng = random.Random(seed)
        self.strategies = strategies
        self.protocol_name = protocol or rules.protocol
        if level == "card":
            proto = self.library.protocol(self.protocol_name)
            winner = proto.outputs.get("winner")
            require(
                proto,
                "a round of Gakmoro",
                [
                    (len(proto.inputs) == 2 * rules.per_round, f"{2 * rules.per_round} bundles as inputs"),
                    (
                        winner is not None and winner.value is not None,
                        "a public output 'winner' (-1, 0 or 1)",
                    ),
                ],
            )
        self.shared = Shared()  # sub-protocol caches, kept for the game
        self.engine_used: str | None = None  # which engine ran the rounds (see SealedBidResult)
        self.fallback_reason: str | None = None
        self.pool: Counter[str] = Counter()  # loose cards on the side, by symbol
        self.rec = SealedBidRecord(recorder, self) if recorder is not None else None

    def play(self) -> SealedBidResult:
        hands = [self.rules.hand(self.variant) for _ in range(2)]
        wins = [0, 0]
        results: list[RoundResult] = []
        loose_needed: Counter[str] = Counter()
        if self.rec:
            self.rec.deal(hands)
        for number in range(1, self.rules.rounds + 1):
            if max(wins) >= self.rules.to_win:
                break
            left = self.rules.rounds - number + 1
            picks = [
                choose(self.strategies[i], self.rules, hands[i], self.variant, left, self.rng)
                for i in range(2)
            ]
            for i in range(2):
                for v in picks[i]:
                    hands[i].remove(v)
            if self.level == "card":
                progress.report("playing", number - 1, self.rules.rounds, f"round {number} at card level")
                result = self.card_round(number, picks, loose_needed)
            else:
                result = RoundResult(number, picks, [sum(p) for p in picks], plain_winner(*picks))
            results.append(result)
            if self.rec:
                self.rec.round(result)
            if result.announced > 0:
                wins[0] += 1
            elif result.announced < 0:
                wins[1] += 1
        names = self.rules.names
        if wins[0] >= self.rules.to_win or wins[0] > wins[1]:
            winner = names[0]
        elif wins[1] >= self.rules.to_win or wins[1] > wins[0]:
            winner = names[1]
        else:
            winner = "draw"
        if self.rec:
            self.rec.game_end(winner, wins)
        return SealedBidResult(
            game=self.rules.name,
            seed=self.seed,
            level=self.level,
            protocol=self.protocol_name if self.level == "card" else None,
            variant=self.variant,
            players=list(names),
            strategies=dict(zip(names, self.strategies)),
            winner=winner,
            round_wins=dict(zip(names, wins)),
            rounds=[r.to_json(names) for r in results],
            protocol_runs=len(results) if self.level == "card" else 0,
            checks_passed=sum(r.checks for r in results),
            shuffles=sum(r.shuffles for r in results),
            max_helper_cards=max((sum(r.helper_cards.values()) for r in results), default=0),
            loose_cards_needed=dict(sorted(loose_needed.items())),
            table=max(
                (r.table for r in results), default=[], key=lambda t: (t[0] * t[1], t[1]) if t else (0, 0)
            ),
            engine_used=self.engine_used,
            fallback_reason=self.fallback_reason,
        )

    def card_round(
        self, number: int, picks: list[tuple[int, ...]], loose_needed: Counter[str]
    ) -> RoundResult:
        """Run the round's protocol on the simulated table and check it (see module docs)."""
        proto = self.library.protocol(self.protocol_name)
        # A fresh record of the table space for this round; sub-protocol caches carry over.
        self.shared = Shared(subruns=self.shared.subruns, factor_refs=self.shared.factor_refs)
        runner = Runner(self.library, "sample", rng=self.rng, shared=self.shared)
        frame = runner.frame(proto, proto.resolve_params({}))
        inputs = list(proto.inputs)
        if len(inputs) != 2 * self.rules.per_round:
            raise UsageError(
                f"{proto.name} takes {len(inputs)} bundles, the rules submit {2 * self.rules.per_round}"
            )
        # Bundles in the order each player submits them, shuffled as a player would.
        order = [list(p) for p in picks]
        for o in order:
            self.rng.shuffle(o)
        values = dict(zip(inputs, order[0] + order[1]))
        if self.rec:
            self.rec.sleeves(order)
        state, engine, reason = run_single(runner, frame, frame.initial_state(values), ENGINE.get())
        self.engine_used = engine if self.engine_used in (None, engine) else "mixed"
        self.fallback_reason = self.fallback_reason or reason
        outs = read_outputs(runner, frame, state)
        where = f"round {number}"
        sign = as_int(plain(outs["winner"]))
        want = plain_winner(*picks)
        checks = 0
        if sign != want:
            raise CheckFailure(
                f"{where}: the protocol announced {announce(sign, self.rules.names)}, the totals "
                f"{sum(picks[0])} and {sum(picks[1])} say {announce(want, self.rules.names)}"
            )
        checks += 1
        stray = leftovers(runner, frame, state)
        missing = [SYMBOLS.by_id(sid).glyph for sid, n in state.out if n > 0]
        if stray or missing:
            raise CheckFailure(
                f"{where}: cards left on the table ({', '.join(stray) or 'none'}) or helper cards not "
                f"returned ({', '.join(missing) or 'none'})"
            )
        checks += 1
        calls: dict[str, list[int]] = {}
        for callee, n in state.meters.calls:
            calls.setdefault(callee, []).append(n)
        expected_calls: dict[str, list[int]] | None = None
        expected_table: list[int] | None = None
        for name, exp in proto.expect.items():
            if name == "calls":
                expected_calls = {}
                for callee, e in exp.by_symbol.items():
                    expected = expected_calls[callee] = [as_int(x) for x in plain(e(frame.globals))]
                    if calls.get(callee, []) != expected:
                        raise CheckFailure(
                            f"{where}: {callee} used {calls.get(callee)} cards, the paper says {expected}"
                        )
                checks += 1
            elif name == "table" and exp.value is not None:
                expected = expected_table = [as_int(x) for x in plain(exp.value(frame.globals))]
                if list(self.shared.extent) != expected:
                    raise CheckFailure(
                        f"{where}: the table held {list(self.shared.extent)}, the paper says {expected}"
                    )
                checks += 1
        helpers = {SYMBOLS.by_id(sid).name: n for sid, n in state.meters.peak}
        # Loose cards: the first round takes them from the kit's spares; afterwards the opened
        # cards of earlier rounds are spares too (Section 4, Step 4).
        for sym, n in helpers.items():
            short = n - self.pool[sym]
            if short > 0:
                loose_needed[sym] += short
                self.pool[sym] += short
        bundle = self.rules.bundle
        self.pool["club"] += sum(bundle - 1 for p in picks for _ in p)
        self.pool["heart"] += sum(1 for p in picks for _ in p)
        checks += 1
        if self.rec:
            counts = {"shuffles": state.meters.shuffles, "helper_cards": helpers, "calls": calls}
            paper = {"calls": expected_calls, "table": expected_table}
            self.rec.run(list(self.shared.extent), counts, paper, runner.views.expanded(state.view), sign)
        return RoundResult(
            number,
            picks,
            [sum(p) for p in picks],
            sign,
            checks,
            state.meters.shuffles,
            helpers,
            calls,
            list(self.shared.extent),
        )
