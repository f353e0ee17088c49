"""The referee of sealed-bid games (Gakmoro): a record checked against the rules as written.

It shares no code with how the engine plays (``play.py``, ``rules.py``, the strategies): the rule
book ``rulesets/referee/<rule set>.yaml`` is written from the Gakmoro paper, and the referee
keeps each player's hand itself. It checks the hands dealt, every submission (from the hand;
one to three cards with a dealer, keeping one card for each round to come; exactly three
sleeves without one; each player saw their own), the announcement against the totals, the
round wins, when the game ends and who wins, and, without a dealer at card level, every round
protocol's run: one per round, the paper's card counts and table, and a view that ends with
the announced result.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from ...records.referee import TableReferee, Verdict, Walk, book_check, show

KIND = "sealed-bid"
KEYS = ("players", "values", "submit", "rounds", "to_win", "dealerless", "paper")


def check(record: Mapping[str, Any]) -> Verdict:
    return book_check(record, KIND, KEYS, lambda walk, book: Referee(walk, book[1]), unit="rounds")


def _results(view: Any) -> list[Any]:
    """Every ``result`` a view's ``let`` observations reveal, in order (calls included)."""
    out: list[Any] = []
    for obs in view:
        if obs[0] == "call":
            out += _results(obs[2])
        elif obs[0] == "let":
            out += [value for name, value in obs[1] if name == "result"]
    return out


class Referee(TableReferee):
    def __init__(self, walk: Walk, book: dict[str, Any]):
        super().__init__(walk)
        self.book = book
        walk.expect(len(walk.seats) == int(book["players"]), f"{len(walk.seats)} players; the game is for 2")
        self.names = [str(s["name"]) for s in walk.seats]
        params = walk.record["game"]["parameters"]
        self.dealerless = params["variant"] == "dealerless"

    def run(self) -> int:
        w, book = self.walk, self.book
        dummies = [0] * int(book["dealerless"]["dummies"]) if self.dealerless else []
        start = dummies + [int(v) for v in book["values"]]
        ev = w.expect_next("deal", "the hands must be dealt")
        w.expect(ev["public"]["hands"] == [start, start], f"each player holds {start}")
        hands = [Counter(start), Counter(start)]
        rounds, to_win = int(book["rounds"]), int(book["to_win"])
        wins = [0, 0]
        played = 0
        for number in range(1, rounds + 1):
            if max(wins) >= to_win:
                break
            ev = w.expect_next("round", f"round {number} must be played")
            w.expect(ev["public"]["round"] == number and ev["turn"] == number, f"round {number} comes")
            sub = [list(s) for s in ev["hidden"]["submitted"]]
            w.expect(len(sub) == 2, "two submissions")
            for i in range(2):
                self.submission(hands[i], sub[i], rounds - number + 1, self.names[i])
            w.check_seen(ev, {i + 1: {"submitted": sub[i]} for i in range(2)})
            sign = (sum(sub[0]) > sum(sub[1])) - (sum(sub[0]) < sum(sub[1]))
            said = self.names[0] if sign > 0 else self.names[1] if sign < 0 else "tie"
            w.expect(
                ev["public"]["announced"] == said,
                f"totals {sum(sub[0])} and {sum(sub[1])}: the announcement is {said!r}, not "
                f"{ev['public']['announced']!r}",
            )
            self.check_runs(ev, sub, sign)
            if sign:
                wins[0 if sign > 0 else 1] += 1
            played += 1
        if wins[0] >= to_win or wins[0] > wins[1]:
            winner = self.names[0]
        elif wins[1] >= to_win or wins[1] > wins[0]:
            winner = self.names[1]
        else:
            winner = "draw"
        ev = w.expect_next("game-end", "the game must end here")
        w.expect(ev["public"]["round_wins"] == wins, f"the round wins are {wins}")
        w.expect(
            ev["public"]["winner"] == winner, f"the game's winner is {winner}, not {ev['public']['winner']}"
        )
        w.expect(w.next() is None, "events after the game ended")
        res = w.record["result"]
        w.expect(res["winner"] == winner and list(res["round_wins"].values()) == wins, "the result's winner")
        return played

    def submission(self, hand: Counter[int], cards: list[int], rounds_left: int, name: str) -> None:
        w, book = self.walk, self.book
        if self.dealerless:
            per = int(book["dealerless"]["per_round"])
            w.expect(
                len(cards) == per, f"{name} submits {len(cards)} sleeves; without a dealer exactly {per}"
            )
        else:
            lo, hi = (int(x) for x in book["submit"])
            w.expect(lo <= len(cards) <= hi, f"{name} submits {len(cards)} cards; the rules say {lo} to {hi}")
            left = sum(hand.values()) - len(cards)
            w.expect(
                left >= (rounds_left - 1) * lo, f"{name} keeps {left} cards for {rounds_left - 1} rounds"
            )
        for v in cards:
            w.expect(
                hand[v] > 0,
                f"{name} submits {v}, which is not in the hand ({show(map(str, hand.elements()))})",
            )
            hand[v] -= 1

    def check_runs(self, ev: Mapping[str, Any], sub: list[list[int]], sign: int) -> None:
        w, paper = self.walk, self.book["paper"]
        runs = ev["runs"]
        if not (self.card_level and self.dealerless):
            w.expect(not runs and "order" not in ev["hidden"], "a protocol run where a dealer decides")
            return
        order = ev["hidden"]["order"]
        w.expect(
            [sorted(o) for o in order] == [sorted(s) for s in sub],
            "the sleeves put down are not the cards submitted",
        )
        w.expect(len(runs) == 1, f"{len(runs)} runs of the round protocol; one decides a round")
        run = runs[0]
        w.expect(
            run["protocol"] == self.protocol, f"a run of {run['protocol']!r}, the game runs {self.protocol!r}"
        )
        calls = run["counts"]["calls"]
        for callee, cards in paper["calls"].items():
            w.expect(
                calls.get(callee) == cards, f"{callee} used {calls.get(callee)} cards, the paper says {cards}"
            )
        w.expect(
            run["table"] == paper["table"], f"the table held {run['table']}, the paper says {paper['table']}"
        )
        w.expect(
            run["announced"] == sign, f"the protocol announced {run['announced']}, the totals say {sign}"
        )
        results = _results(run["view"])
        w.expect(
            bool(results) and results[-1] == sign, "the run's view does not end with the announced result"
        )
