"""Playing Daifugō (President): tricks of plays of one to four cards of a rank, climbing.

Human seats follow a fixed policy (they stand in for the people): lead the lowest rank with
all its cards; follow with the lowest rank that beats the last play, or pass. A virtual player
picks uniformly among its distinct valid plays (a size and a rank; suits never matter), its
cards uniformly among its cards of that rank, and passes only when it has no play:

* at ``rule`` level the engine draws that choice directly;
* at ``card`` level every virtual turn runs the play selection protocol spec on the simulated
  table (every hand, P_1 first) and checks the result (:mod:`.selection`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...cards import Symbol
from ...errors import CheckFailure
from ...selection import CallCache
from ..game import TableGame
from ..result import RankedResult
from ..virtual import VirtualStats
from .record import ClimbingRecord
from .rules import ClimbingRules, Play
from .selection import QUICK, check_play_selection, expected_shuffles, run_play_selection

MAX_TURNS = 3000


@dataclass(slots=True)
class Turn:
    index: int
    seat: int
    action: str  # play | pass | out | trick
    cards: str | None = None
    play: str | None = None
    runs: int = 0
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"index": self.index, "seat": self.seat, "action": self.action}
        for key in ("cards", "play", "runs", "note"):
            value = getattr(self, key)
            if value:
                out[key] = value
        return out


@dataclass
class Largest:
    """The largest play selection table a virtual decision saw (for a kit's materials)."""

    hands: dict[int, int] = field(default_factory=dict)
    table: int = 0
    tickets: int = 0  # the most tickets (λ labels) a following virtual turn lays out
    rank: int = 0  # the most cards of one rank on the table
    helpers: dict[str, int] = field(default_factory=dict)  # card level: the most of each helper card out


class DaifugoGame(TableGame[ClimbingRules]):
    """One game of a climbing rule set (its virtual players run the play selection protocol)."""

    def setup(self) -> None:
        virtual = any(s.virtual for s in self.seats)
        self.protocol = (
            self.library.protocol(self.protocol_name) if virtual and self.level == "card" else None
        )
        if self.protocol is not None:
            check_play_selection(self.protocol)
        self.stats = VirtualStats()
        self.cache = CallCache()
        self.largest = Largest()
        # Every virtual choice: the distinct plays it chose from and the play chosen ("2x5": two 5s).
        self.choices: list[tuple[tuple[str, ...], str]] = []
        self.log: list[Turn] = []
        self.hands: list[list[Symbol]] = []
        self.last: Play | None = None
        # Called at every virtual decision before the choice: observer(game, seat); True stops
        # the game there (``stopped`` holds the seat), for a booklet's worked example.
        self.observer: Any = None
        self.stopped: int | None = None
        self.rec = ClimbingRecord(self.recorder, self) if self.recorder is not None else None

    # -- the game -------------------------------------------------------------------------
    def deal(self) -> int:
        """The whole deck, one card at a time from the dealer's left; returns the first leader."""
        dealer, self.hands = self.deal_round(self.rules.deck())
        if self.rec:
            self.rec.deal(dealer)
        return (dealer + 1) % len(self.seats)

    def play(self) -> RankedResult | None:
        n = len(self.seats)
        current = self.deal()
        ranking: list[int] = []
        passed: set[int] = set()
        last_seat: int | None = None
        turn = 0
        while sum(1 for h in self.hands if h) > 1 and turn < MAX_TURNS:
            if not self.hands[current]:
                current = (current + 1) % n
                continue
            turn += 1
            cards = self.take_turn(turn, current)
            if self.stopped is not None:
                return None
            if cards is None:
                passed.add(current)
            else:
                self.last, last_seat, passed = self.rules.play_of(cards), current, set()
                if not self.hands[current]:
                    ranking.append(current)
                    self.log.append(Turn(turn, current + 1, "out", note=f"place {len(ranking)}"))
                    if self.rec:
                        self.rec.out(turn, current, len(ranking))
            active = [s for s in range(n) if self.hands[s]]
            if len(active) <= 1:
                break
            assert last_seat is not None
            if all(s in passed for s in active if s != last_seat):
                leader = last_seat
                while not self.hands[leader]:
                    leader = (leader + 1) % n
                self.log.append(Turn(turn, leader + 1, "trick", note="everyone else passed: a new trick"))
                if self.rec:
                    self.rec.trick(turn, leader)
                self.last, passed, current = None, set(), leader
                continue
            current = (current + 1) % n
        if turn >= MAX_TURNS:
            raise CheckFailure(f"the game did not end in {MAX_TURNS} turns")
        ranking += [s for s in range(n) if s not in ranking]
        if self.rec:
            self.rec.game_end(ranking)
        return self.summary(ranking, turn)

    def take_turn(self, index: int, seat: int) -> list[Symbol] | None:
        """One turn of ``seat``: the cards it plays (removed from its hand), or None (a pass)."""
        hand = self.hands[seat]
        runs = 0
        if self.seats[seat].virtual:
            if self.observer is not None and self.observer(self, seat):
                self.stopped = seat
                return None
            self.stats.virtual_turns += 1
            cards, runs = self.virtual(index, seat)
        else:
            cards = self.human(hand)
        if cards is None:
            self.log.append(Turn(index, seat + 1, "pass", runs=runs))
            if self.rec:
                self.rec.turn(index, seat, None)
            return None
        play = self.rules.play_of(cards)
        if not play.beats(self.last):
            raise CheckFailure(f"turn {index}: {self.rules.describe(play)} does not beat the last play")
        for c in cards:
            self.hands[seat].remove(c)
        glyphs = " ".join(c.glyph for c in cards)
        self.log.append(Turn(index, seat + 1, "play", glyphs, self.rules.describe(play), runs))
        if self.rec:
            self.rec.turn(index, seat, cards)
        return cards

    def human(self, hand: list[Symbol]) -> list[Symbol] | None:
        """A person's simple policy: lead the lowest rank with all its cards (at most four);
        follow with the lowest rank that beats the last play; else pass."""
        plays = self.rules.plays(hand, self.last)
        if not plays:
            return None
        if self.last is None:
            low = min(p.strength for p in plays)
            play = max((p for p in plays if p.strength == low), key=lambda p: p.size)
        else:
            play = min(plays, key=lambda p: p.strength)
        return [c for c in hand if self.rules.strength(c) == play.strength][: play.size]

    def virtual(self, index: int, seat: int) -> tuple[list[Symbol] | None, int]:
        """A virtual player's play: uniform among its distinct plays (see the module docs)."""
        hand = self.hands[seat]
        plays = self.rules.plays(hand, self.last)
        self.note_table()
        if self.level == "rule":
            if not plays:
                return None, 0
            play = plays[self.rng.randrange(len(plays))]
            same = [c for c in hand if self.rules.strength(c) == play.strength]
            cards = self.rng.sample(same, play.size)
            self.choices.append((tuple(_code(p) for p in plays), _code(play)))
            return cards, 0
        assert self.protocol is not None
        n = len(self.seats)
        order = [(seat + k) % n for k in range(n)]
        owners = [list(self.hands[s]) for s in order]
        where = f"turn {index} ({self.seats[seat].name}, {self.protocol_name})"
        run = run_play_selection(
            self.library, self.rules, self.protocol, owners, self.last, self.rng, self.cache, where
        )
        st = self.stats
        st.note_engine(run.engine, run.fallback_reason)
        st.protocol_runs += 1
        st.checks += run.checks
        st.shuffles += run.shuffles
        st.max_helper_cards = max(st.max_helper_cards, run.helper_cards)
        for name, n in run.peak.items():
            self.largest.helpers[name] = max(self.largest.helpers.get(name, 0), n)
        if self.rec:
            quick = self.protocol.name in QUICK
            want = expected_shuffles(self.rules, owners, self.last, run.played, quick)
            counts = {"shuffles": run.shuffles, "helper_cards": run.helper_cards, "checks": run.checks}
            sizes = [len(o) for o in owners]
            self.rec.run("interpreter", sizes, counts, {"shuffles": want}, run.observations, run.played)
        for s, cards in zip(order, run.returned):
            self.hands[s] = cards
        if run.played is None:
            return None, 1
        self.choices.append((tuple(_code(p) for p in plays), _code(self.rules.play_of(run.played))))
        self.hands[seat].extend(run.played)  # removed again by take_turn, as a person's play
        return run.played, 1

    def note_table(self) -> None:
        """Remember how large the play selection table is now (for the bill of materials)."""
        from collections import Counter
        from math import comb

        for s, hand in enumerate(self.hands):
            self.largest.hands[s + 1] = max(self.largest.hands.get(s + 1, 0), len(hand))
        table = [c for h in self.hands for c in h]
        self.largest.table = max(self.largest.table, len(table))
        count = Counter(self.rules.strength(c) for c in table)
        self.largest.rank = max([self.largest.rank, *count.values()])
        if self.last is not None:
            tickets = sum(comb(m, self.last.size) for r, m in count.items() if r > self.last.strength)
            self.largest.tickets = max(self.largest.tickets, tickets)

    def summary(self, ranking: list[int], turns: int) -> RankedResult:
        played = sum(len(t.cards.split()) for t in self.log if t.cards)
        if played + sum(len(h) for h in self.hands) != len(self.rules.deck()):
            raise CheckFailure("cards were created or lost")
        return self.ranked_result(ranking, turns, self.stats, self.log)


def _code(play: Play) -> str:
    """A play as ``2x5``: its size and its strength (0 for the lowest rank)."""
    return f"{play.size}x{play.strength}"
