"""The referee of tile games (Muggins): a record checked against the rules as written.

It shares no code with how the engine plays (``play.py``, ``rules.py``): the rule book
``rulesets/referee/<rule set>.yaml`` is written from the UNO paper's Section 5.3, and the
referee keeps its own account of every hand, the boneyard and the line's open ends. It checks
every deal (the whole set, five tiles each, the rest the boneyard), what the people announce,
the search for the first player (from the highest doublet down to the best one announced, every
virtual player asked in seat order, each run telling only whether that one holds it), the
opener's doublet, every play (from the hand, matching an open end, on the end that scores when
only one does), every draw (only without a matching tile, from the boneyard, until a tile fits),
every pass, the points, the end and the winner, and every protocol run's table, selection,
counts and view.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from ...records.referee import (
    Cards,
    TableReferee,
    Verdict,
    Walk,
    book_check,
    check_selection_run,
    show,
)

KIND = "tiles"
MAX_TURNS = 1000
End = tuple[int, bool]  # an open end's number, and whether a doublet lies there (it counts twice)


def check(record: Mapping[str, Any]) -> Verdict:
    return book_check(
        record, KIND, ("players", "hand_size", "top", "multiple"), lambda walk, book: Referee(walk, book[1])
    )


class Referee(TableReferee):
    def __init__(self, walk: Walk, book: dict[str, Any]):
        super().__init__(walk)
        self.seats_within(book["players"])
        self.hand_size = int(book["hand_size"])
        top = int(book["top"])
        self.multiple = int(book["multiple"])
        self.tiles = {f"t{a}{b}": (a, b) for a in range(top + 1) for b in range(a, top + 1)}
        self.doublets = [f"t{v}{v}" for v in range(top, -1, -1)]
        self.boneyard: Cards = Counter()
        self.ends: tuple[End, End] | None = None
        self.scores = [0] * self.n
        self.actions = 0

    def halves(self, name: str) -> tuple[int, int]:
        halves = self.tiles.get(name)
        self.walk.expect(halves is not None, f"{name} is not a tile of the set")
        assert halves is not None
        return halves

    def sides(self, name: str) -> list[int]:
        """The open ends (0: left, 1: right) the tile matches."""
        if self.ends is None:
            return [0]
        a, b = self.halves(name)
        return [i for i in (0, 1) if self.ends[i][0] in (a, b)]

    def after(self, name: str, side: int) -> tuple[End, End]:
        a, b = self.halves(name)
        double = a == b
        if self.ends is None:
            return (a, double), (b, double)
        value = self.ends[side][0]
        ends = list(self.ends)
        ends[side] = (b if a == value else a, double)
        return ends[0], ends[1]

    def score(self, ends: tuple[End, End]) -> int:
        total = sum(v * 2 if d else v for v, d in ends)
        return total if total and total % self.multiple == 0 else 0

    def valid(self, seat: int) -> list[str]:
        return sorted(t for t in self.hands[seat] if self.sides(t))

    # -- the game --------------------------------------------------------------------------
    def run(self) -> int:
        w = self.walk
        deals = 0
        while True:
            deals += 1
            current = self.deal(deals)
            if current is not None:
                break
        index, passes, ended = 1, 0, "nobody could move"
        while index < MAX_TURNS:
            index += 1
            current = (current + 1) % self.n
            ev = w.expect_next("turn", f"it is {w.name(current + 1)}'s turn")
            w.expect(ev["turn"] == index, f"turn {ev['turn']} where turn {index} comes")
            w.expect(
                ev["seat"] == current + 1,
                f"{w.name(ev['seat'])} plays, but it is {w.name(current + 1)}'s turn",
            )
            moved = self.turn(ev, current)
            self.actions += 1
            if not self.hands[current]:
                ended = f"{w.name(current + 1)} played the last tile"
                break
            passes = 0 if moved else passes + 1
            if passes >= self.n:
                break
        end = w.expect_next("game-end", "the game must end here")
        w.expect(end["public"]["ended"] == ended, f"the game ends because {ended!r}")
        w.expect(end["public"]["scores"] == self.scores, f"the scores are {self.scores}")
        w.expect(
            [Counter(h) for h in end["hidden"]["hands"]] == self.hands, "the tiles left are not the hands"
        )
        w.expect(Counter(end["hidden"]["boneyard"]) == self.boneyard, "the boneyard left is not the boneyard")
        w.expect(w.next() is None, "events after the game ended")
        res = w.record["result"]
        winner = max(range(self.n), key=lambda s: (self.scores[s], -s))
        w.expect(
            res["winner"] == winner + 1 and res["scores"] == self.scores, "the result's winner or scores"
        )
        w.expect(res["turns"] == index and res["deals"] == deals, "the result counts other turns or deals")
        return self.actions

    def deal(self, number: int) -> int | None:
        """A deal and the search for the first player: the opener, or None (deal again)."""
        w = self.walk
        ev = w.expect_next("deal", "the tiles must be dealt")
        w.expect(ev["public"]["deal"] == number, f"deal {ev['public']['deal']} where deal {number} comes")
        self.hands = [Counter(h) for h in ev["hidden"]["hands"]]
        self.boneyard = Counter(ev["hidden"]["boneyard"])
        total = sum(self.hands, Counter()) + self.boneyard
        w.expect(
            total == Counter(list(self.tiles)),
            f"the deal is not the set: {show((Counter(list(self.tiles)) - total).elements())} missing",
        )
        sizes = [sum(h.values()) for h in self.hands]
        w.expect(
            sizes == [self.hand_size] * self.n, f"hands of {sizes} tiles, the rules deal {self.hand_size}"
        )
        w.expect(
            ev["public"]["sizes"] == sizes and ev["public"]["boneyard"] == sum(self.boneyard.values()),
            "the public counts",
        )
        w.check_seen(ev, {s + 1: {"hand": list(h.elements())} for s, h in enumerate(self.hands)})
        w.expect(not ev["runs"], "a protocol run at the deal")
        self.ends = None
        people = [s for s in range(self.n) if not w.virtual(s + 1)]
        floor, best = -1, None
        if people:
            ev = w.expect_next("announce", "the people announce their highest doublet")
            said = {}
            for s in people:
                held = [d for d in self.doublets if self.hands[s][d]]
                said[str(s + 1)] = held[0] if held else None
                if held and self.halves(held[0])[0] > floor:
                    floor, best = self.halves(held[0])[0], s
            w.expect(ev["public"]["doublets"] == said, f"the people's highest doublets are {said}")
        for doublet in self.doublets:
            if self.halves(doublet)[0] <= floor:
                break
            for seat in range(self.n):
                if not w.virtual(seat + 1):
                    continue
                holds = self.hands[seat][doublet] > 0
                ev = w.expect_next("turn", f"{w.name(seat + 1)} is asked for {doublet}", seat + 1)
                pub = ev["public"]
                w.expect(
                    pub.get("asked") == doublet and ev["turn"] == 1, f"the table asks for {doublet} at turn 1"
                )
                w.expect(
                    pub["action"] == ("open" if holds else "pass"),
                    f"{w.name(seat + 1)} {'holds' if holds else 'does not hold'} {doublet}",
                )
                self.check_runs(ev, seat, [doublet if holds else None])
                if holds:
                    self.place(ev, seat, doublet)
                    return seat
        if best is None:
            w.expect_next("redeal", "nobody holds a doublet: the tiles are dealt again")
            return None
        ev = w.expect_next("turn", f"{w.name(best + 1)} opens", best + 1)
        w.expect(
            ev["public"]["action"] == "open" and "asked" not in ev["public"], f"{w.name(best + 1)} opens"
        )
        self.check_runs(ev, best, [])
        self.place(ev, best, self.doublets[len(self.doublets) - 1 - floor])
        return best

    def turn(self, ev: Mapping[str, Any], seat: int) -> bool:
        """A turn: play a matching tile; without one, draw until one matches or the boneyard is
        empty. Returns whether a tile was played."""
        w = self.walk
        pub = ev["public"]
        w.expect("asked" not in pub, "a doublet asked for after the opening")
        drawn = list(ev["hidden"]["drawn"])
        w.expect(
            pub["drew"] == len(drawn), f"drew {pub['drew']} tiles, the hidden section holds {len(drawn)}"
        )
        selected: list[str | None] = []
        tables = [self.table(seat)]
        for tile in drawn:
            valid = self.valid(seat)
            w.expect(not valid, f"{w.name(seat + 1)} draws holding a matching tile ({show(valid)})")
            w.take(self.boneyard, [tile], "the boneyard")
            self.hands[seat][tile] += 1
            selected.append(None)
            tables.append(self.table(seat))
        w.check_seen(ev, {seat + 1: {"drawn": drawn}} if drawn else {})
        valid = self.valid(seat)
        tile = pub["tile"]
        if tile is None:
            w.expect(not valid, f"{w.name(seat + 1)} stops holding a matching tile ({show(valid)})")
            w.expect(
                not self.boneyard,
                f"{w.name(seat + 1)} must draw: the boneyard holds {sum(self.boneyard.values())}",
            )
            w.expect(
                pub["action"] == ("draw" if drawn else "pass"), f"the turn is a {'draw' if drawn else 'pass'}"
            )
            selected.append(None)
            self.check_runs(ev, seat, selected, tables)
            return False
        w.expect(
            pub["action"] == ("draw-play" if drawn else "play"),
            f"the turn is a {'draw-play' if drawn else 'play'}",
        )
        w.expect(
            not drawn or tile == drawn[-1],
            f"after drawing, the tile played must be the one drawn ({drawn[-1] if drawn else ''})",
        )
        w.expect(tile in valid, f"{tile} matches no open end ({self.ends})")
        selected.append(tile)
        self.check_runs(ev, seat, selected, tables)
        self.place(ev, seat, tile)
        return True

    def table(self, seat: int) -> list[Cards]:
        return [Counter(self.hands[(seat + k) % self.n]) for k in range(self.n)] + [Counter(self.boneyard)]

    def place(self, ev: Mapping[str, Any], seat: int, tile: str) -> None:
        """The tile goes on an end it matches: the one that scores when only one does; its player
        scores the open ends when they add up to a multiple (the first tile: its pips)."""
        w = self.walk
        pub = ev["public"]
        w.expect(pub["tile"] == tile, f"the tile is {tile}, not {pub['tile']}")
        w.take(self.hands[seat], [tile], f"{w.name(seat + 1)}'s hand")
        sides = self.sides(tile)
        side = ("left", "right").index(pub["end"]) if pub["end"] in ("left", "right") else -1
        w.expect(side in sides, f"{tile} does not match the {pub['end']} end")
        if len(sides) == 2:
            scoring = [s for s in sides if self.score(self.after(tile, s))]
            if len(scoring) == 1:
                w.expect(side == scoring[0], f"{tile} must go on the end that scores")
        first = self.ends is None
        self.ends = self.after(tile, side)
        a, b = self.halves(tile)
        scored = (a + b if (a + b) % self.multiple == 0 else 0) if first else self.score(self.ends)
        w.expect(pub["scored"] == scored, f"{tile} scores {scored}, not {pub['scored']}")
        self.scores[seat] += scored

    def check_runs(
        self,
        ev: Mapping[str, Any],
        seat: int,
        selected: list[str | None],
        tables: list[list[Cards]] | None = None,
    ) -> None:
        """A virtual decision at card level is one run per attempt on every hand and the boneyard."""
        w = self.walk
        runs = ev["runs"]
        if not (self.card_level and w.virtual(seat + 1)) or not selected:
            w.expect(not runs, "a protocol run where nobody runs the protocol")
            return
        w.expect(len(runs) == len(selected), f"{len(runs)} protocol runs for {len(selected)} decisions")
        for run, pick, table in zip(runs, selected, tables or [self.table(seat)]):
            check_selection_run(w, run, self.protocol, table, pick)
