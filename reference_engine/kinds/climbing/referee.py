"""The referee of climbing games (Daifugō): a record checked against the rules as written.

It shares no code with how the engine plays (``play.py``, ``rules.py``, ``selection.py``, the
deck loader): the rule book ``rulesets/referee/<rule set>.yaml`` is written from the common rules
of Daifugō / President (Parlett), and the referee keeps its own account of every hand. It checks
the deal (the whole deck, one card at a time from the dealer's left), who plays when (the player
left of the dealer leads; players out are skipped), every play (one to four cards of one rank,
from the hand; leading, any play; following, as many cards of a higher rank than the last play),
every pass (never by the leader; a virtual player only without a play), the end of every trick
(when everyone else still holding cards has passed) and who leads the next, the places, the
ranking, and every run of the play selection protocol: its table, the cards it played, its
shuffles (counted from what the table sees, as docs/daifugo.md states them) and its view (the
first card of a lead, every card of the table turned up, and one θ_i per card owner i keeps).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from math import ceil, comb, log2
from typing import Any

from ...records.referee import (
    Book,
    Cards,
    TableReferee,
    Verdict,
    Walk,
    book_check,
    show,
)

KIND = "climbing"
KEYS = ("players", "deck", "order", "max_play")
MAX_TURNS = 3000


def check(record: Mapping[str, Any]) -> Verdict:
    # Without a book the referee knows neither the deck nor the order of the ranks.
    return book_check(record, KIND, KEYS, Referee)


def shuffles(
    ranks: Counter[int],
    last: tuple[int, int] | None,
    size: int,
    rank: int | None,
    left: int,
    quick: bool = False,
) -> int:
    """The shuffles one run of the play selection protocol takes, from what the table sees: the
    cards of each rank on the table (``ranks``), the last play (size, rank; None: leading), the
    play made (``size`` cards of ``rank``; 0 and None: a pass) and the cards ``left`` on the table
    after it (docs/daifugo.md, "Counts").

    Leading: the virtual player's row and the columns (2); then, after the first card, a modified
    covert lottery among the rank's columns left and the stop card (t tickets: t + 2 shuffles) for
    every further card and for the stop card, while any column of the rank is left. Following s0
    cards of rank r0: the columns (1); s0 - 1 six-card ANDs per ticket (a ticket: s0 cards of one
    higher rank); a shuffle of each rank's tickets when it has two or more; one chained AND per
    ticket; the lottery on all N tickets (N + 2, none without a ticket). Last, the columns (1)
    when any card is left on the table. ``quick`` (play-selection-fast) follows with knockout
    rounds instead: s0 - 1 rounds of ANDs (all tickets at once), the half turns that make the
    pairs arrows, the mixing of each rank's tickets (all ranks at once, when one has two or more),
    the rounds inside the ranks, then the knockout lottery on one ticket per rank."""
    final = 1 if left else 0
    if last is None:
        assert rank is not None
        n, m = 2, ranks[rank]
        for chosen in range(1, size + 1):
            if m - chosen == 0:
                break
            n += (m - chosen + 1) + 2
        return n + final
    s0, r0 = last
    tickets = [comb(m, s0) for r, m in ranks.items() if r > r0]
    total = sum(tickets)
    if quick:  # the knockout rounds (docs/daifugo.md, "Counts"): each round of matches is one shuffle
        live = [t for t in tickets if t > 0]
        if not live:
            return 1 + final
        inside = max(ceil(log2(t)) for t in live)  # the rounds that leave one ticket per rank
        lottery = (1 if len(live) > 1 else 0) + ceil(log2(len(live)))
        return 1 + (s0 - 1) + 1 + (1 if max(live) > 1 else 0) + inside + lottery + final
    n = 1 + (s0 - 1) * total + sum(1 for t in tickets if t > 1) + total
    return n + (total + 2 if total else 0) + final


class Referee(TableReferee):
    def __init__(self, walk: Walk, found: Book):
        super().__init__(walk)
        data = self.ranked_book(found)
        self.max_play = int(data["max_play"])
        self.last: tuple[int, int] | None = None  # the last play of the trick: (size, rank)
        self.turns = 0

    def rank(self, name: str) -> int:
        """The card's place in the order of ranks: 0 for a 3, 12 for a 2."""
        card = self.cards.get(name)
        self.walk.expect(card is not None, f"{name} is not a card of the game")
        assert card is not None
        return self.order.index(card.face)

    def said(self, size: int, rank: int) -> str:
        """A play in words: ``a single jack``, ``a pair of 5s``, ``three eights``."""
        words = {1: "a single", 2: "a pair of", 3: "three", 4: "four"}.get(size, str(size))
        return f"{words} {self.order[rank]}{'s' if size > 1 else ''}"

    def can_play(self, seat: int) -> list[str]:
        """The plays ``seat`` could make on the last play, in words, lowest first."""
        held = Counter(self.rank(c) for c in self.hands[seat].elements())
        out = []
        for r in sorted(held):
            for size in range(1, min(held[r], self.max_play) + 1):
                if self.last is None or (size == self.last[0] and r > self.last[1]):
                    out.append(self.said(size, r))
        return out

    def holding(self) -> set[int]:
        """The seats that still hold cards."""
        return {s for s in range(self.n) if self.hands[s]}

    def holder_from(self, seat: int) -> int:
        """``seat`` if it still holds cards, else the first seat to its left that does: players out
        are skipped."""
        while not self.hands[seat]:
            seat = (seat + 1) % self.n
        return seat

    # -- the game --------------------------------------------------------------------------
    def run(self) -> int:
        w = self.walk
        current = self.deal()
        ranking: list[int] = []
        passed: set[int] = set()
        last_seat: int | None = None
        index = 0
        while len(self.holding()) > 1 and index < MAX_TURNS:
            current = self.holder_from(current)
            index += 1
            ev = w.expect_next("turn", f"it is {w.name(current + 1)}'s turn")
            w.expect(ev["turn"] == index, f"turn {ev['turn']} where turn {index} comes")
            w.expect(
                ev["seat"] == current + 1,
                f"{w.name(ev['seat'])} plays, but it is {w.name(current + 1)}'s turn",
            )
            if self.turn(ev, current):
                last_seat, passed = current, set()
                if not self.hands[current]:
                    ranking.append(current)
                    out = w.expect_next("out", f"{w.name(current + 1)} has no cards left")
                    w.expect(
                        out["seat"] == current + 1
                        and out["turn"] == index
                        and out["public"]["place"] == len(ranking),
                        f"{w.name(current + 1)} goes out in place {len(ranking)}",
                    )
            else:
                passed.add(current)
            active = self.holding()
            if len(active) <= 1:
                break
            assert last_seat is not None  # the first turn is a lead, and a lead is a play
            if active - {last_seat} <= passed:  # everyone else still holding cards has passed
                leader = self.holder_from(last_seat)
                ev = w.expect_next("trick", "everyone else has passed: the trick is over")
                w.expect(
                    ev["seat"] == leader + 1 and ev["turn"] == index,
                    f"{w.name(leader + 1)} leads the next trick, not {w.name(ev['seat'])}",
                )
                self.last, passed, current = None, set(), leader
                continue
            current = (current + 1) % self.n
        ranking += [s for s in range(self.n) if s not in ranking]
        self.end(ranking, index)
        return self.turns

    def deal(self) -> int:
        """The deal; returns the seat that leads the first trick (the dealer's left)."""
        w = self.walk
        ev = w.expect_next("deal", "the cards must be dealt first")
        dealer = self.dealt_around(ev, self.deck)
        return (dealer + 1) % self.n

    def turn(self, ev: Mapping[str, Any], seat: int) -> bool:
        """One turn: True for a play (checked and taken from the hand), False for a pass."""
        w = self.walk
        pub = ev["public"]
        who = w.name(seat + 1)
        table = [Counter(self.hands[(seat + k) % self.n]) for k in range(self.n)]
        if pub["action"] == "pass":
            w.expect(pub["cards"] is None, "a pass with cards")
            w.expect(self.last is not None, f"{who} leads the trick and must play: the leader may not pass")
            plays = self.can_play(seat)
            w.expect(
                not (w.virtual(seat + 1) and plays),
                f"{who} is virtual and passes holding a play ({', '.join(plays)}): its protocol plays one",
            )
            self.check_runs(ev, seat, table, None)
            self.turns += 1
            return False
        w.expect(pub["action"] == "play", f"unknown action {pub['action']!r}")
        cards = list(pub["cards"] or [])
        shown = " ".join(cards) or "no cards"
        w.expect(
            1 <= len(cards) <= self.max_play, f"{who} plays {shown}: a play is 1 to {self.max_play} cards"
        )
        ranks = {self.rank(c) for c in cards}
        w.expect(len(ranks) == 1, f"{who} plays {shown}: the cards of a play are of one rank")
        rank = ranks.pop()
        size = len(cards)
        if self.last is not None:
            s0, r0 = self.last
            w.expect(
                size == s0 and rank > r0,
                f"{who} plays {shown}, which does not beat the last play ({self.said(s0, r0)}): "
                f"a play follows with {s0} card{'s' if s0 > 1 else ''} of a higher rank",
            )
        for c in cards:
            w.expect(self.hands[seat][c] > 0, f"{who} plays {shown}, but {c} is not in {who}'s hand")
        self.check_runs(ev, seat, table, cards)
        w.take(self.hands[seat], cards, f"{who}'s hand")
        self.last = (size, rank)
        self.turns += 1
        return True

    def end(self, ranking: list[int], index: int) -> None:
        w = self.walk
        order = [s + 1 for s in ranking]
        end = w.expect_next("game-end", "one player holds cards: the game must end here")
        w.expect(end["public"]["ranking"] == order, f"the ranking is {order}")
        w.expect(
            [Counter(h) for h in end["hidden"]["hands"]] == self.hands, "the cards left are not the hands"
        )
        w.expect(w.next() is None, "events after the game ended")
        res = w.record["result"]
        w.expect(res["ranking"] == order and res["winner"] == order[0], "the result's ranking")
        w.expect(res["turns"] == index, f"{index} turns, not {res['turns']}")

    # -- protocol runs ----------------------------------------------------------------------
    def check_runs(
        self, ev: Mapping[str, Any], seat: int, table: Sequence[Cards], played: list[str] | None
    ) -> None:
        """A virtual turn at card level is one run of the play selection protocol on every hand
        (``seat``'s first); anyone else's turn has none."""
        w = self.walk
        runs = ev["runs"]
        if not self.card_level or not w.virtual(seat + 1):
            w.expect(not runs, "a protocol run where nobody runs the protocol")
            return
        w.expect(len(runs) == 1, f"{len(runs)} protocol runs for one turn")
        run = runs[0]
        w.expect(
            run["protocol"] == self.protocol,
            f"a run of {run['protocol']!r}, but the game runs {self.protocol!r}",
        )
        sizes = [sum(t.values()) for t in table]
        w.expect(
            list(run["table"]) == sizes,
            f"the protocol laid out {run['table']} cards per owner, but the hands hold {sizes}",
        )
        got = run.get("played")
        w.expect(
            (got is None) == (played is None) and Counter(got or []) == Counter(played or []),
            f"the protocol played {show(got) if got else 'nothing'}, but the turn says "
            f"{show(played) if played else 'a pass'}",
        )
        everything = sum(table, Counter())
        ranks = Counter(self.rank(c) for c in everything.elements())
        size, rank = (len(played), self.rank(played[0])) if played else (0, None)
        quick = self.protocol == "play-selection-fast"
        want = shuffles(ranks, self.last, size, rank, sum(sizes) - size, quick)
        for key, value in (
            ("counts", run["counts"].get("shuffles")),
            ("paper", run["paper"].get("shuffles")),
        ):
            w.expect(value == want, f"the run's {key} say {value} shuffles; its steps call for {want}")
        self.check_view(run["view"], table, played)

    def check_view(self, view: Sequence[Any], table: Sequence[Cards], played: list[str] | None) -> None:
        """What the table saw: leading, one card of the virtual player's, which is played; then
        every card of the table face up; last, the θ row, one θ_i per card owner i keeps."""
        w = self.walk
        turns = [Counter(o[1]) for o in view if o[0] == "turn"]
        everything = sum(table, Counter())
        if self.last is None:  # the first card stays face up while the rest are turned
            w.expect(
                bool(turns)
                and sum(turns[0].values()) == 1
                and played is not None
                and set(turns[0]) <= set(played),
                "the run's view does not turn up one of the cards played first (leading)",
            )
            everything -= turns[0]
            turns = turns[1:]
        seen = turns[0] if turns else Counter()
        w.expect(
            seen == everything,
            "the run's view does not turn up exactly the table's cards (not seen: "
            f"{show((everything - seen).elements())}; "
            f"not on the table: {show((seen - everything).elements())})",
        )
        keeps = [sum(t.values()) for t in table]
        keeps[0] -= len(played or [])
        if sum(keeps):
            thetas = turns[-1]
            owners = [thetas.get(f"theta{i + 1}", 0) for i in range(len(keeps))]
            w.expect(
                owners == keeps, f"the run's θ cards give the owners {owners} cards back, the table {keeps}"
            )
