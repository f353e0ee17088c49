"""Tile games (Dominoes: Muggins / All Fives): tiles are cards with identical backs.

A virtual player's turn runs the card selection protocol on every hand and the boneyard (the
last owner, like UNO's draw pile) with "valid = matches an open end"; with none, it draws a
tile unseen and the protocol runs again (UNO paper, Section 5.3). The first player is found
with the protocol too, one doublet at a time.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ...errors import UsageError
from ...registry import Library
from ..deals import Deal, FullDeal, ProblemAt, Validity, owner_sizes
from ..game import Attempt, Bound, TableKind
from ..kind import GameRules, PlaySettings, TableCounts, register
from ..virtual import Moment
from .play import MugginsGame
from .rules import KIND, End, TileRules, load_tiles, tile_name


@register
class Tiles(TableKind[TileRules, MugginsGame]):
    summary = "tiles matched to the open ends of a line; multiples of five score (Dominoes, Muggins)"
    loader = load_tiles
    records = True
    deal_hint = " (tiles are named t05, t56, ...)"

    def bind(self, ti: TileRules, state: Mapping[str, Any], problem: ProblemAt) -> Bound:
        raw = state.get("ends")
        if not (isinstance(raw, list) and len(raw) == 2 and all(isinstance(v, int) for v in raw)):
            raise problem(("state", "ends"), "the open ends of the line, e.g. ends: [5, 3]")
        ends: tuple[End, End] = ((raw[0], False), (raw[1], False))
        return {"valid": ti.validity(ends)}, f"open ends {raw[0]} and {raw[1]}"

    def two_deals(self, rules: GameRules, players: int, rng: random.Random) -> tuple[Deal, Deal, Validity]:
        """A line with the same open ends and tiles in play, two different deals of the rest (the
        boneyard last); P_1 holds at least three valid tiles in deal A."""
        ti = self.rules_of(rules)

        def attempt() -> Attempt:
            tiles = ti.tiles()
            rng.shuffle(tiles)
            line = tiles[:4]
            ends: tuple[End, End] = ((int(line[0].attrs["low"]), False), (int(line[-1].attrs["high"]), False))
            rest = tiles[4:]
            sizes = [ti.hand_size + 2] + [ti.hand_size] * (players - 1)
            sizes.append(len(rest) - sum(sizes))
            return rest, sizes, ti.validity(ends), f"open ends {ends[0][0]} and {ends[1][0]}"

        return self.deal_twice(rng, attempt)

    def full_deal(self, rules: GameRules, players: int, hand: int, state: Mapping[str, Any]) -> FullDeal:
        """One tile on the table showing the open ends (``ends: [5, 3]`` is 3|5), the hands, and
        the boneyard last."""
        ti = self.rules_of(rules)
        raw = state.get("ends")
        if not (isinstance(raw, list) and len(raw) == 2 and all(isinstance(v, int) for v in raw)):
            raise UsageError(f"{ti.name}: the state needs the open ends of the line, e.g. ends: [5, 3]")
        line = tile_name(min(raw), max(raw))
        names = ti.cards_by_name()
        if line not in names:
            raise UsageError(f"{ti.name} has no tile {min(raw)}|{max(raw)}")
        deck = [t.name for t in ti.tiles() if t.name != line]
        sizes = owner_sizes(len(deck), players, hand, ti.hand_size)
        text = f"{ti.title}, {players} players, every tile but {names[line].glyph} on the table:"
        return FullDeal(deck, sizes, dict(state), text)

    def measure_tables(self, rules: GameRules, library: Library, seating: PlaySettings) -> TableCounts:
        players, _ = self.seats(rules, seating)
        ti = self.rules_of(rules)
        hands: dict[int, int] = {}
        boneyard = 0
        for game in self.simulated(rules, library, seating):
            self.largest(hands, game.largest_hand)
            boneyard = max(boneyard, game.largest_boneyard)
        total = len(ti.tiles())
        return {
            "games": self.simulated_games,
            "hands": [hands.get(s + 1, ti.hand_size) for s in range(players)],
            "draw_pile": boneyard,
            "table_seen": total,
            "table": total,
        }

    def example_moment(self, rules: GameRules, library: Library, seating: PlaySettings) -> Moment:
        """Virtual 1's turn with 4 to 6 tiles, some matching an open end and some not."""
        ti = self.rules_of(rules)
        for seed, game in self.moments(rules, library, seating):
            game.deal()
            current = game.open()
            if current is None:
                continue
            n = len(game.seats)
            for k in range(1, 3 * n):
                seat = (current + k) % n
                valid = ti.validity(game.ends)
                hand = game.hands[seat]
                ok = sum(1 for t in hand if valid(t))
                if seat == 0 and 4 <= len(hand) <= 6 and 2 <= ok < len(hand):
                    owners = [list(game.hands[(seat + j) % n]) for j in range(n)] + [list(game.boneyard)]
                    return Moment(seed, owners, valid, {"ends": game.ends, "line": list(game.line)})
                game.take_turn(k + 1, seat)
                if not game.hands[seat]:
                    break
        raise self.no_moment(ti)


__all__ = ["KIND", "MugginsGame", "TileRules", "Tiles", "load_tiles", "tile_name"]
