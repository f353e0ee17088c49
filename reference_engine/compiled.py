"""A compiled card-level path for the card selection protocol (UNO paper, Section 4, final version).

The interpreter (:mod:`reference_engine.machine`) stays the reference: it reads the spec step
by step, resolves every selector, builds a gather plan per layout and interns every view. For
a game that runs the same protocol thousands of times, this module holds a runner written for
one spec, ``card-selection`` with its callee ``covert-lottery-modified``, which does what those
steps do on plain lists, with the same random draws in the same order, so that a run gives the
same played card, the same hands back (in the same order), the same view and the same counts
as the interpreter on the same seed (``tests/reference_engine/test_compiled.py`` compares them
run for run).

What is precomputed: the symbol codes of the helper cards, the paper's counts per table size,
and the six-card AND's outcome table per pair of input bits, taken from the interpreter's own
exact enumeration (the same list the interpreter draws from, so a draw picks the same outcome).

A spec is compiled only when it is the spec this runner was written for: the fingerprint of
the loaded, typed protocol (:mod:`reference_engine.canonical`: everything that decides a run,
typed, so an encoding keyed ``"0"`` is not one keyed ``0``; not the words a booklet prints, so a
changed ``say:`` keeps the compiled path) of the protocol and of both callees must match the
one recorded here. Otherwise
:func:`compile_selection` gives the reason and the caller runs the interpreter (and so for a
table where P_1 holds no card, or every card, see :func:`table_reason`). When the lottery is
small (at most :data:`~reference_engine.machine.SMALL_CALL` cards, P_1 holding 1 or 2), the
interpreter enumerates it exactly once per argument and draws one outcome; the compiled runner
draws from that same cached list.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .canonical import fingerprint
from .cards import SYMBOLS, Symbol
from .encodings import family_symbol
from .machine import SMALL_CALL, Ctx, Runner, Shared, ViewTable
from .machine.calls import _sub_outcomes
from .registry import Library
from .spec import Protocol

# The fingerprint (reference_engine/canonical.py: the loaded, typed protocol without its words)
# of each spec the runner is written for. The lottery's changed when its candidate cards' glyph
# became "#{}" (printed #1..#m on the cards and in the trace; was "c{}"); its steps' new
# player's words (say, paper) and the shuffles' holder (uses) are not in the form.
FINGERPRINTS = {
    "card-selection": "880f70c586aceb18",
    "covert-lottery-modified": "13c13170551ead50",
    "six-card-and": "b7471ba401a5d42e",
}

LOTTERY = "covert-lottery-modified"
AND = "six-card-and"


class NotCompiled(Exception):
    """This protocol or this table cannot take the compiled path (the message says why)."""


Draw = tuple[int, list[tuple[int, tuple[int, int], tuple[int, int], Any]]]
"""A six-card AND outcome table: lcm, then (cumulative threshold, and-pair, nand-pair, obs)."""


@dataclass
class CompiledSelection:
    """The card selection protocol compiled for one library (see the module docs)."""

    library: Library
    protocol: Protocol
    alpha: int = 0  # face-down codes
    beta: int = 0
    theta: dict[int, int] = field(default_factory=dict)  # owner number -> face-down θ code
    draws: dict[tuple[Any, ...], Draw] = field(default_factory=dict)
    counts: dict[tuple[int, ...], dict[str, Any]] = field(default_factory=dict)
    and_shuffles: int = 1  # shuffles of one six-card AND (read from its outcomes)
    callees: dict[str, Protocol] = field(default_factory=dict)
    # The interpreter's exact sub-runs behind the AND tables (copied into each game's cache,
    # where the interpreter would have kept them).
    subruns: dict[tuple[Any, ...], Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        alpha, beta = SYMBOLS.get("alpha"), SYMBOLS.get("beta")
        assert alpha is not None and beta is not None  # the spec declares them
        self.alpha, self.beta = alpha.id << 1, beta.id << 1
        self.callees = {name: self.library.protocol(name) for name in (LOTTERY, AND)}

    def theta_code(self, i: int) -> int:
        code = self.theta.get(i)
        if code is None:
            code = family_symbol("theta", i).id << 1
            self.theta[i] = code
        return code

    # -- precomputed tables -------------------------------------------------------------
    def and_draw(self, shared: Shared, views: ViewTable, x: tuple[int, int], t: tuple[int, int]) -> Draw:
        """The six-card AND's outcomes on inputs ``x`` and ``t``, in the interpreter's order."""
        key = (x, t)
        hit = self.draws.get(key)
        if hit is not None:
            return hit
        runner = Runner(self.library, "sample", shared=shared, views=views)
        callee = self.callees[AND]
        sub = runner.frame_for(callee, {}, Ctx(None, None, None))
        outcomes = _sub_outcomes(runner, sub, (x, t))
        names = [o.name for o in callee.outputs.values() if o.cards is not None]
        i_and, i_nand = names.index("and"), names.index("nand")
        lcm = math.lcm(*(p.denominator for p, _, _ in outcomes))
        table = []
        cum = 0
        for p, obs, res in outcomes:
            if obs is not None and isinstance(obs[2], int):
                raise NotCompiled(f"{AND}: its view does not factor out")
            cum += int(p * lcm)
            a, n = res.cards[i_and][1], res.cards[i_nand][1]
            table.append((cum, (a[0], a[1]), (n[0], n[1]), obs))
        hit = (lcm, table)
        self.draws[key] = hit
        self.and_shuffles = outcomes[0][2].meters.shuffles
        return hit

    def paper_counts(self, sizes: tuple[int, ...]) -> dict[str, Any]:
        hit = self.counts.get(sizes)
        if hit is None:
            from .machine import Frame

            frame = Frame(self.protocol, self.protocol.resolve_params({"sizes": sizes}), {})
            hit = {}
            for name in ("shuffles", "helper_cards"):
                exp = self.protocol.expect.get(name)
                if exp is not None and exp.value is not None:
                    hit[name] = exp.value(frame.globals)
            self.counts[sizes] = hit
        return hit

    # -- one run --------------------------------------------------------------------------
    def run(
        self,
        owners: list[list[Symbol]],
        valid: Callable[[Any], Any],
        rng: random.Random,
        shared: Shared,
        views: ViewTable,
    ) -> tuple[Symbol | None, list[list[Symbol]], int, int, list[Any]]:
        """One run: (played, every owner's cards back, shuffles, helper cards, observations)."""
        sizes = [len(o) for o in owners]
        k = sum(sizes)
        m = sizes[0]
        alpha, beta = self.alpha, self.beta
        # Steps 1-3: the cards in row 1, θ_i below each of P_i's cards, all face down.
        cards = [c for o in owners for c in o]
        row1 = [c.id << 1 for c in cards]
        thetas = [self.theta_code(i + 1) for i in range(len(sizes))]
        row2 = [thetas[i] for i, n in enumerate(sizes) for _ in range(n)]
        # Step 4: pile-scramble the columns.
        perm = list(range(k))
        rng.shuffle(perm)
        row1 = [row1[p] for p in perm]
        row2 = [row2[p] for p in perm]
        # Step 5: row 1 face up; Step 6: a bit below each column; Step 7: all face down.
        obs: list[Any] = [("turn", tuple([c | 1 for c in row1]))]
        by_code = {c.id << 1: c for c in cards}
        ok = {code: bool(valid(sym)) for code, sym in by_code.items()}
        row3 = [beta if ok[c] else alpha for c in row1]
        row4 = [alpha if ok[c] else beta for c in row1]
        # Step 8: pile-scramble the columns of four.
        perm = list(range(k))
        rng.shuffle(perm)
        row1 = [row1[p] for p in perm]
        row2 = [row2[p] for p in perm]
        row3 = [row3[p] for p in perm]
        row4 = [row4[p] for p in perm]
        # Step 9: row 2 (the θ cards) face up.
        obs.append(("turn", tuple([c | 1 for c in row2])))
        # Step 10: the θ_1 columns go to the lottery.
        t1 = thetas[0]
        mine = [j for j in range(k) if row2[j] == t1]
        rest = [j for j in range(k) if row2[j] != t1]
        c, x = [row1[j] for j in mine], [(row3[j], row4[j]) for j in mine]
        if m * 3 > SMALL_CALL:
            selected, unselected, lottery_obs, lottery_shuffles = self._lottery(shared, views, c, x, rng)
            obs.append(("call", LOTTERY, lottery_obs))
        else:
            selected, unselected, small_obs, lottery_shuffles = self._small_lottery(shared, views, c, x, rng)
            if small_obs is not None:
                obs.append(small_obs)
        # Step 11: the unselected cards back to P_1.
        obs.append(("if", bool(unselected)))
        hands: list[list[int]] = [[] for _ in sizes]
        hands[0].extend(unselected)
        # Step 12: every other card back to the owner its θ names; helpers to the supply.
        theta_owner = {t: i for i, t in enumerate(thetas)}
        for j in rest:
            hands[theta_owner[row2[j]]].append(row1[j])
        gone = sorted(
            [row2[j] >> 1 for j in rest] + [row3[j] >> 1 for j in rest] + [row4[j] >> 1 for j in rest]
        )
        obs.append(("discard", tuple(gone)))
        shuffles = 2 + lottery_shuffles
        helpers = k + 2 * (k + 2)  # θ cards, then α and β: a bit per column, the token, the AND's pair
        played = by_code[selected] if selected is not None else None
        returned = [[by_code[c] for c in h] for h in hands]
        return played, returned, shuffles, helpers, obs

    def _lottery(
        self, shared: Shared, views: ViewTable, c: list[int], x: list[tuple[int, int]], rng: random.Random
    ) -> tuple[int | None, list[int], list[Any], int]:
        """The modified covert lottery, as the interpreter runs it inline (m >= 3)."""
        m = len(c)
        alpha, beta = self.alpha, self.beta
        # Step 2: pile-scramble the m piles.
        perm = list(range(m))
        rng.shuffle(perm)
        c = [c[p] for p in perm]
        x = [x[p] for p in perm]
        # Step 3: the token t = 1; Step 4: the six-card AND pile by pile.
        t = (beta, alpha)
        ones = tuple(range(1, m + 1))
        obs: list[Any] = [("for", ones)]
        shuffles = 0
        for i in range(m):
            lcm, table = self.and_draw(shared, views, x[i], t)
            pick = rng.randrange(lcm)
            for cum, y, u, o in table:
                if pick < cum:
                    x[i], t = y, u
                    if o is not None:
                        obs.append(o)
                    break
            shuffles += self.and_shuffles
        # Step 5: the token back to the supply.
        obs.append(("discard", tuple(sorted([t[0] >> 1, t[1] >> 1]))))
        # Step 6: pile-scramble again; Step 7: turn every pair, select the card above β α.
        perm = list(range(m))
        rng.shuffle(perm)
        c = [c[p] for p in perm]
        x = [x[p] for p in perm]
        obs.append(("turn", tuple([a | 1 for a, _ in x] + [b | 1 for _, b in x])))
        obs.append(("for", ones))
        selected = None
        rest = []
        for j in range(m):
            hit = x[j] == (beta, alpha)
            obs.append(("if", hit))
            if hit:
                selected = c[j]
            else:
                rest.append(c[j])
        return selected, rest, obs, shuffles + 2

    def _small_lottery(
        self, shared: Shared, views: ViewTable, c: list[int], x: list[tuple[int, int]], rng: random.Random
    ) -> tuple[int | None, list[int], Any, int]:
        """The lottery on at most :data:`SMALL_CALL` cards: one outcome drawn from its exact
        distribution (the interpreter's :func:`~.machine.calls._draw`, same list, same draw)."""
        key = (tuple(c), tuple(b for pair in x for b in pair))
        runner = Runner(self.library, "sample", shared=shared, views=views)
        callee = self.callees[LOTTERY]
        sub = runner.frame_for(callee, {"m": len(c)}, Ctx(None, None, None))
        outcomes = _sub_outcomes(runner, sub, key)
        lcm = math.lcm(*(p.denominator for p, _, _ in outcomes))
        pick = rng.randrange(lcm)
        chosen = outcomes[-1]
        for outcome in outcomes:
            pick -= int(outcome[0] * lcm)
            if pick < 0:
                chosen = outcome
                break
        _, o, res = chosen
        names = [out.name for out in callee.outputs.values() if out.cards is not None]
        selected = res.cards[names.index("selected")][1]
        rest = list(res.cards[names.index("rest")][1])
        if o is not None and isinstance(o[2], int):
            o = ("call", o[1], runner.views.expanded(o[2]))
        return (selected[0] if selected else None), rest, o, res.meters.shuffles


def compile_selection(library: Library, protocol: Protocol) -> CompiledSelection:
    """The compiled runner of ``protocol``, or :class:`NotCompiled` saying why there is none."""
    if protocol.name not in FINGERPRINTS or protocol.name in (LOTTERY, AND):
        raise NotCompiled(f"no compiled runner for {protocol.name} (only card-selection)")
    for name in ("card-selection", LOTTERY, AND):
        proto = protocol if name == protocol.name else library.protocol(name)
        if fingerprint(proto) != FINGERPRINTS[name]:
            raise NotCompiled(f"{proto.file} is not the {name} spec the compiled runner was written for")
    compiled = CompiledSelection(library, protocol)
    # The AND's outcome tables for every pair of bits, now: a view that does not factor is
    # found here, before any run has drawn a random number.
    bits = [(compiled.alpha, compiled.beta), (compiled.beta, compiled.alpha)]
    shared, views = Shared(), ViewTable()
    for x in bits:
        for t in bits:
            compiled.and_draw(shared, views, x, t)
    compiled.subruns = dict(shared.subruns)
    return compiled


def table_reason(sizes: list[int]) -> str | None:
    """Why a table cannot take the compiled path (None when it can)."""
    if not sizes[0]:
        return "P_1 holds no card"
    if sum(sizes) == sizes[0]:
        return "every card is P_1's"
    return None
