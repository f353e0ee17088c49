"""Climbing games (Daifugō / President): a turn plays one to four cards of a rank.

The UNO paper's Section 6 asks for "a simulation protocol for card games where a player can
simultaneously play multiple cards in each turn". A virtual player's turn here runs the play
selection protocol (``rulesets/protocols/play-selection.yaml``) on the whole table: it plays a
uniformly random one of its distinct valid plays, or passes when it has none, and nothing else
about its hand is revealed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...registry import Library
from ..deals import ProblemAt
from ..game import Bound, TableKind
from ..kind import GameRules, PlaySettings, TableCounts, register
from ..result import RankedResult
from ..virtual import Moment
from .play import DaifugoGame
from .rules import KIND, ClimbingRules, Play, load_climbing
from .selection import COPIES, expected_shuffles, run_play_selection


@register
class Climbing(TableKind[ClimbingRules, DaifugoGame]):
    summary = "every card is dealt; plays of one to four cards of a rank climb until all pass (Daifugō)"
    loader = load_climbing
    records = True

    def bind(self, cl: ClimbingRules, state: Mapping[str, Any], problem: ProblemAt) -> Bound:
        if state:
            raise problem(("state",), "the last play is given by the parameters s0 and r0; the state is {}")
        order = " < ".join(cl.rank_name(i) for i in range(len(cl.order)))
        return {"strength": cl.strength}, f"ranks {order}"

    def verify_runs(
        self, library: Library, proto: Any, rules: GameRules, runs: int, seed: int, players: int
    ) -> Any:
        from .statistical import verify_play_runs

        if "strength" not in proto.context:
            return None
        return verify_play_runs(library, proto, self.rules_of(rules), runs, seed, players)

    def measure_tables(self, rules: GameRules, library: Library, seating: PlaySettings) -> TableCounts:
        """The largest play selection table of virtual decisions in seeded rule-level games."""
        players, _ = self.seats(rules, seating)
        cl = self.rules_of(rules)
        hands: dict[int, int] = {}
        table = tickets = rank = 0
        for game in self.simulated(rules, library, seating):
            self.largest(hands, game.largest.hands)
            table = max(table, game.largest.table)
            tickets = max(tickets, game.largest.tickets)
            rank = max(rank, game.largest.rank)
        deck = len(cl.deck())
        return {
            "games": self.simulated_games,
            "hands": [hands.get(s + 1, deck // players + 1) for s in range(players)],
            "table_seen": table,
            "table": deck,
            "tickets": tickets,
            "copies": COPIES,
        }

    def example_moment(self, rules: GameRules, library: Library, seating: PlaySettings) -> Moment:
        """Virtual 1 following a single, with several ranks to choose from and 5 to 9 cards."""
        cl = self.rules_of(rules)

        def suitable(game: DaifugoGame, seat: int) -> bool:
            hand = game.hands[seat]
            plays = cl.plays(hand, game.last)
            return (
                seat == 0
                and game.last is not None
                and game.last.size == 1
                and 5 <= len(hand) <= 9
                and len(plays) >= 2
            )

        for seed, game in self.moments(rules, library, seating):
            game.observer = suitable
            game.play()
            if game.stopped is not None:
                return _moment(cl, game, game.stopped, seed)
        raise self.no_moment(cl)

    def decisions(
        self, rules: GameRules, library: Library, seating: PlaySettings, seed: int
    ) -> tuple[RankedResult, list[Moment]]:
        """A rule-level game and every virtual decision's moment: a play selection run costs
        what its whole table and the last play make it, so a kit traces each one."""
        cl = self.rules_of(rules)
        game = self.rule_game(rules, library, seating, seed)
        seen: list[Moment] = []

        def note(game: DaifugoGame, seat: int) -> bool:
            seen.append(_moment(cl, game, seat, seed))
            return False

        game.observer = note
        result = game.play()
        assert result is not None, "a game whose observer never stops it plays to its end"
        return result, seen


def _moment(cl: ClimbingRules, game: DaifugoGame, seat: int, seed: int) -> Moment:
    """The table at ``seat``'s virtual decision as the play selection sees it (``seat`` first)."""
    n = len(game.seats)
    owners = [list(game.hands[(seat + k) % n]) for k in range(n)]
    playable = {p.strength for p in cl.plays(owners[0], game.last)}

    def valid(card: Any) -> bool:
        return cl.strength(card) in playable

    return Moment(seed, owners, valid, {"last": game.last, "strength": cl.strength})


__all__ = [
    "COPIES",
    "KIND",
    "Climbing",
    "ClimbingRules",
    "DaifugoGame",
    "Play",
    "expected_shuffles",
    "load_climbing",
    "run_play_selection",
]
