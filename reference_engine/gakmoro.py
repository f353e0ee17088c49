"""Sealed-bid games (Gakmoro): the rule set, simple strategies, and whole games.

A sealed-bid rule set (``kind: sealed-bid`` in ``rulesets/games/``) describes Gakmoro:
two players, cards 1..7, one to three cards submitted per round, the higher total wins
the round and only the winner is announced, the first to two round wins takes the game.
Its ``dealerless`` variant gives each hand two 0-value dummies so that exactly three
bundles are submitted per round, and names the protocol spec that replaces the dealer.

:class:`SealedBidGame` plays a whole game. At ``level="card"`` every round runs that spec
on the simulated table (each bundle E_8(v) face down) and checks the result against the
plain rules: the announced winner, every card back in the supply, the paper's card counts
(28 and 38 per addition, 74 for the comparison, a 2 x 37 table) and that the loose cards
of the first round suffice, because opened cards are reused as spares in later rounds.
At ``level="rule"`` the winner is computed directly (what a human dealer does).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .cards import SYMBOLS
from .errors import SpecError, UsageError
from .expressions import as_int, plain
from .game import CheckFailure
from .machine import ONE, Runner, Shared, leftovers, read_outputs
from .registry import Library
from .schema import Checker
from .source import load_file

KIND = "sealed-bid"
DECIDE = ("more_wins_else_draw",)
STRATEGIES = ("balanced", "random", "greedy")


@dataclass
class SealedBidRules:
    name: str
    title: str
    summary: str
    source: dict[str, str]
    file: str
    players: tuple[int, int, int]
    names: list[str]
    values: list[int]
    submit: tuple[int, int]
    rounds: int
    to_win: int
    after_last_round: str
    dealer_doc: str
    dummies: int
    per_round: int
    protocol: str
    bundle: int
    dealerless_doc: str
    how_to_play: list[str] = field(default_factory=list)
    kit: dict[str, Any] = field(default_factory=dict)

    def hand(self, variant: str) -> list[int]:
        """The values a player holds at the start (with the dealerless variant's dummies)."""
        dummies = [0] * self.dummies if variant == "dealerless" else []
        return dummies + list(self.values)


def load_sealed_bid(path: Path, expected_name: str | None = None) -> SealedBidRules:
    src = load_file(path)
    ck = Checker(src)
    keys = (
        "game",
        "kind",
        "title",
        "summary",
        "source",
        "players",
        "names",
        "values",
        "submit",
        "rounds",
        "to_win",
        "after_last_round",
        "variants",
        "kit",
        "booklet",
    )
    doc = ck.mapping(src.data, (), required=("game", "kind", "title", "values", "variants"), optional=keys)
    if doc is None:
        raise SpecError(ck.problems)
    name = ck.string(doc.get("game"), ("game",), "a rule set name") or "?"
    values: list[int] = []
    raw = doc.get("values")
    if isinstance(raw, str) and ".." in raw:
        lo, _, hi = raw.partition("..")
        try:
            values = list(range(int(lo), int(hi) + 1))
        except ValueError:
            ck.error(("values",), f"{raw!r}: write a range like 1..7 or a list")
    else:
        values = [
            v for v in (ck.listing(raw, ("values",), "a list of card values") or []) if isinstance(v, int)
        ]
    if not values or min(values, default=1) < 1:
        ck.error(("values",), "card values must be whole numbers of at least 1")
    pl = ck.mapping(doc.get("players", {}), ("players",), optional=("min", "max", "default")) or {}
    if any(pl.get(k, 2) != 2 for k in ("min", "max", "default")):
        ck.error(("players",), "a sealed-bid game is played by exactly 2 players")
    names = [str(n) for n in (ck.listing(doc.get("names", ["Alice", "Bob"]), ("names",)) or [])]
    if len(names) != 2:
        ck.error(("names",), "two player names")
        names = ["Alice", "Bob"]
    sub = ck.mapping(doc.get("submit", {}), ("submit",), optional=("min", "max")) or {}
    smin = ck.integer(sub.get("min", 1), ("submit", "min"), 1) or 1
    smax = ck.integer(sub.get("max", 3), ("submit", "max"), 1) or 3
    rounds = ck.integer(doc.get("rounds", 3), ("rounds",), 1) or 3
    to_win = ck.integer(doc.get("to_win", 2), ("to_win",), 1) or 2
    decide = str(doc.get("after_last_round", DECIDE[0]))
    if decide not in DECIDE:
        ck.error(("after_last_round",), f"{decide!r}: one of {', '.join(DECIDE)}")
    variants = ck.mapping(doc["variants"], ("variants",), required=("dealer", "dealerless")) or {}
    dealer = ck.mapping(variants.get("dealer", {}), ("variants", "dealer"), optional=("doc",)) or {}
    p = ("variants", "dealerless")
    dl = (
        ck.mapping(
            variants.get("dealerless", {}),
            p,
            required=("dummies", "per_round", "protocol", "bundle"),
            optional=("doc",),
        )
        or {}
    )
    dummies = ck.integer(dl.get("dummies", 2), p + ("dummies",), 0) or 0
    per_round = ck.integer(dl.get("per_round", 3), p + ("per_round",), 1) or 3
    bundle = ck.integer(dl.get("bundle", 8), p + ("bundle",), 2) or 8
    if values and bundle <= max(values):
        ck.error(p + ("bundle",), f"a bundle of {bundle} cards cannot hold the value {max(values)}")
    if (dummies + len(values)) < per_round * rounds:
        ck.error(p + ("per_round",), "a hand runs out before the last round")
    bk = ck.mapping(doc.get("booklet", {}), ("booklet",), optional=("how_to_play",)) or {}
    how = [str(x) for x in ck.listing(bk.get("how_to_play", []), ("booklet", "how_to_play")) or []]
    source = {str(k): str(v) for k, v in ck.table(doc.get("source", {}), ("source",)).items()}
    kit = dict(ck.table(doc.get("kit", {}), ("kit",)))
    if expected_name is not None and name != expected_name:
        ck.error(("game",), f"the file declares game {name!r}; the name must match the file name")
    if ck.problems:
        raise SpecError(ck.problems)
    return SealedBidRules(
        name,
        str(doc["title"]),
        str(doc.get("summary", "")),
        source,
        src.file,
        (2, 2, 2),
        names,
        values,
        (smin, smax),
        rounds,
        to_win,
        decide,
        str(dealer.get("doc", "")),
        dummies,
        per_round,
        str(dl.get("protocol", "")),
        bundle,
        str(dl.get("doc", "")),
        how,
        kit,
    )


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


@dataclass
class RoundResult:
    number: int
    submitted: list[tuple[int, ...]]
    totals: list[int]
    announced: int  # 1: the first player wins, -1: the second, 0: a tie
    checks: int = 0
    shuffles: int = 0
    helper_cards: dict[str, int] = field(default_factory=dict)
    calls: dict[str, list[int]] = field(default_factory=dict)
    table: list[int] = field(default_factory=list)

    def to_json(self, names: list[str]) -> dict[str, Any]:
        return {
            "round": self.number,
            "submitted": {n: list(s) for n, s in zip(names, self.submitted)},
            "totals": {n: t for n, t in zip(names, self.totals)},
            "announced": _announce(self.announced, names),
            "checks": self.checks,
            "shuffles": self.shuffles,
            "helper_cards": self.helper_cards,
            "calls": self.calls,
            "table": self.table,
        }


def _announce(sign: int, names: list[str]) -> str:
    return f"{names[0]} wins" if sign > 0 else f"{names[1]} wins" if sign < 0 else "a tie"


def plain_winner(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    """What a dealer announces: 1 if the first total is higher, -1 if lower, 0 for a tie."""
    return (sum(a) > sum(b)) - (sum(a) < sum(b))


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
    ):
        if variant not in ("dealer", "dealerless"):
            raise UsageError(f"--variant is dealer or dealerless, not {variant!r}")
        if level not in ("card", "rule"):
            raise UsageError(f"--level is card or rule, not {level!r}")
        if level == "card" and variant == "dealer":
            raise UsageError(
                "with a dealer there is no protocol to run: use --level rule, or --variant dealerless"
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
        self.shared = Shared()  # sub-protocol caches, kept for the game
        self.pool: Counter[str] = Counter()  # loose cards on the side, by symbol

    def play(self) -> dict[str, Any]:
        hands = [self.rules.hand(self.variant) for _ in range(2)]
        wins = [0, 0]
        results: list[RoundResult] = []
        loose_needed: Counter[str] = Counter()
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
                result = self.card_round(number, picks, loose_needed)
            else:
                result = RoundResult(number, picks, [sum(p) for p in picks], plain_winner(*picks))
            results.append(result)
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
        return {
            "game": self.rules.name,
            "variant": self.variant,
            "level": self.level,
            "seed": self.seed,
            "players": names,
            "strategies": dict(zip(names, self.strategies)),
            "winner": winner,
            "round_wins": dict(zip(names, wins)),
            "rounds": [r.to_json(names) for r in results],
            "protocol": self.protocol_name if self.level == "card" else None,
            "protocol_runs": len(results) if self.level == "card" else 0,
            "checks_passed": sum(r.checks for r in results),
            "shuffles": sum(r.shuffles for r in results),
            "max_helper_cards": max((sum(r.helper_cards.values()) for r in results), default=0),
            "loose_cards_needed": dict(sorted(loose_needed.items())),
            "table": max(
                (r.table for r in results), default=[], key=lambda t: (t[0] * t[1], t[1]) if t else (0, 0)
            ),
        }

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
        final = runner.run(frame, {frame.initial_state(values): ONE})
        (state,) = final
        outs = read_outputs(runner, frame, state)
        where = f"round {number}"
        sign = as_int(plain(outs["winner"]))
        want = plain_winner(*picks)
        checks = 0
        if sign != want:
            raise CheckFailure(
                f"{where}: the protocol announced {_announce(sign, self.rules.names)}, the totals "
                f"{sum(picks[0])} and {sum(picks[1])} say {_announce(want, self.rules.names)}"
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
        for name, exp in proto.expect.items():
            if name == "calls":
                for callee, e in exp.by_symbol.items():
                    expected = [as_int(x) for x in plain(e(frame.globals))]
                    if calls.get(callee, []) != expected:
                        raise CheckFailure(
                            f"{where}: {callee} used {calls.get(callee)} cards, the paper says {expected}"
                        )
                checks += 1
            elif name == "table" and exp.value is not None:
                expected = [as_int(x) for x in plain(exp.value(frame.globals))]
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
