"""The referee of shedding games: a record checked against the rules as written.

It shares no code with how the engine plays (``play.py``, ``rules.py``, the deck loader, the
validity expressions of the rule set files): a rule set's rules come from its rule book
(``rulesets/referee/<rule set>.yaml``), written from the rule texts themselves (the UNO paper,
the official UNO rules, Parlett) with the readings this project documents where a text says
nothing. The referee keeps its own account of every hand, the draw pile and the discard pile
from the record's hidden section and checks every event: the deal is the whole deck; a card
played was in the hand and may be played; a player may draw (a virtual player only without a
valid card: the protocol plays one when there is one); a drawn card came from the draw pile;
effects, challenges, turn order, reshuffles, points and the winner; every protocol run's table,
selection, counts and view. A rule set without a book is checked for everything but which
cards may be played (and the points of the cards left).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...records.referee import (
    Card,
    Cards,
    TableReferee,
    Verdict,
    Walk,
    book_deck,
    cards_only,
    check_selection_run,
    checked,
    load_book,
    show,
)

KIND = "shedding"

# --------------------------------------------------------------------------- the rule books

Effect = tuple[str, int]  # (skip | reverse | draw | name | redraw, count for draw)
EFFECTS = ("skip", "reverse", "name", "redraw")
BOOK_KEYS = ("players", "hand_size", "deck", "points", "rules")
RULE_KEYS = (
    "wild",
    "effects",
    "first_card",
    "draw_until_playable",
    "must_play_drawn",
    "two_player_reverse",
    "wild4_needs_no_card_of_the_colour",
    "challenge",
    "target",
)


@dataclass(frozen=True)
class Book:
    """One rule set's rules as its rule book (``rulesets/referee/<name>.yaml``) states them."""

    colours: tuple[str, ...]
    cards: Mapping[str, Card]
    deck: Counter[str]  # card name -> copies
    players: tuple[int, int]
    hand_sizes: Mapping[Any, int]  # by number of players, "default" for the rest
    points: Mapping[str, Any]  # face -> points ("value" for numbers: under "numbers")
    wild: frozenset[str]  # faces that may always be played (their player names the colour)
    effects: Mapping[str, tuple[Effect, ...]]
    first: Mapping[str, tuple[Effect, ...]]  # what a first card turned up does
    draw_until: int
    must_play_drawn: bool  # a person who draws a card they may play must play it
    two_player_reverse_skips: bool
    official_wild4: bool  # wild draw four only without a card of the colour in force
    challenge: bool
    target: int | None
    source: str

    def hand_size(self, players: int) -> int:
        return int(self.hand_sizes.get(players, self.hand_sizes["default"]))

    def card_points(self, card: Card) -> int:
        if card.face in self.points:
            return int(self.points[card.face])
        return int(card.face) if self.points.get("numbers") == "value" else int(self.points["numbers"])


def from_parameters(params: Mapping[str, Any]) -> Book:
    """Without a rule book: the rule set's own deck and effects as the record names them (which
    card may be played is then not judged)."""
    deck = params["deck"]
    cards = {n: Card(c["colour"], str(c["face"])) for n, c in deck.items()}

    def effects(raw: Mapping[str, list[str]]) -> dict[str, tuple[Effect, ...]]:
        out = {}
        for face, words in raw.items():
            out[face] = tuple(("draw", int(w.split()[1])) if w.startswith("draw ") else (w, 0) for w in words)
        return out

    made = effects(params["effects"])
    return Book(
        tuple(params["colours"]),
        cards,
        Counter({n: int(c["copies"]) for n, c in deck.items()}),
        (int(params["players"][0]), int(params["players"][1])),
        {"default": int(params["hand_size"])},
        {str(c["face"]): int(c["points"]) for c in deck.values()},
        frozenset(f for f, e in made.items() if ("name", 0) in e),
        made,
        effects(params["first_card"]),
        int(params["draw_until"]),
        False,
        params["two_player_reverse"] == "skip",
        False,
        bool(params["challenge"]),
        params["target_score"],
        "the rule set's own deck and effects",
    )


def load(name: str) -> Book | None:
    """The rule book of ``name``, or None when the referee has none."""
    found = load_book(name, KIND, BOOK_KEYS)
    if found is None:
        return None
    ck, data = found
    colours, cards, deck = book_deck(ck, data.get("deck", {}))
    rules = ck.mapping(data.get("rules", {}), ("rules",), required=RULE_KEYS) or {}
    players = [int(x) for x in ck.listing(data.get("players", [2, 10]), ("players",)) or [2, 10]]
    raw = data.get("hand_size", 7)
    sizes = dict(raw) if isinstance(raw, dict) else {"default": raw}

    def effects(key: str) -> dict[str, tuple[Effect, ...]]:
        out: dict[str, tuple[Effect, ...]] = {}
        for face, items in ck.table(rules.get(key, {}), ("rules", key)).items():
            parsed: list[Effect] = []
            for i, item in enumerate(ck.listing(items, ("rules", key, face)) or []):
                word, _, count = str(item).partition(" ")
                if word == "draw" and count.isdigit():
                    parsed.append(("draw", int(count)))
                elif word in EFFECTS and not count:
                    parsed.append((word, 0))
                else:
                    ck.error(
                        ("rules", key, face, i), f"unknown effect {item!r} ({', '.join(EFFECTS)}, draw N)"
                    )
            out[str(face)] = tuple(parsed)
        return out

    book = Book(
        colours,
        cards,
        deck,
        (players[0], players[-1]),
        sizes,
        ck.table(data.get("points", {}), ("points",)),
        frozenset(str(f) for f in rules.get("wild", [])),
        effects("effects"),
        effects("first_card"),
        ck.integer(rules.get("draw_until_playable", 1), ("rules", "draw_until_playable"), minimum=1) or 1,
        rules.get("must_play_drawn") is True,
        rules.get("two_player_reverse") == "skip",
        rules.get("wild4_needs_no_card_of_the_colour") is True,
        rules.get("challenge") is True,
        rules.get("target"),
        str(data["source"]),
    )
    ck.raise_if_any()
    return book


MAX_TURNS = 5000  # a hand stopped after this many turns ends with no points


# --------------------------------------------------------------------------- the referee


@dataclass
class Table:
    """The referee's account: every hand, the draw pile, the discard pile (top last)."""

    hands: list[Cards]
    pile: Cards
    discard: list[str]
    colour: str = ""
    direction: int = 1
    scores: list[int] = field(default_factory=list)


def check(record: Mapping[str, Any]) -> Verdict:
    name = record["game"]["rule_set"]
    book = load(name)
    judge = book is not None
    if book is None:
        book = from_parameters(record["game"]["parameters"])
    verdict = checked(record, lambda walk: Referee(walk, book, judge).run())
    return verdict if judge else cards_only(verdict, name)


class Referee(TableReferee):
    def __init__(self, walk: Walk, book: Book, judge: bool):
        super().__init__(walk)
        self.book = book
        self.judge = judge  # whether the book is the referee's own: then it judges which card may be played
        rec = walk.record
        params = rec["game"]["parameters"]
        self.bluff = params["wild4"] == "bluff"
        self.discard_owner = bool(params["discard_owner"])
        # A virtual player's policy for a card it drew and may play (older records: play it).
        self.virtual_keeps = params.get("virtual_draw", "play") == "keep"
        # Whether one run is a virtual player's whole turn, the draw included (card-selection-draw):
        # then a drawn card is no decision of its own while the draw pile held a card.
        self.draw_in_run = bool(params.get("draw_in_run", False))
        self.max_hands = params["max_hands"]
        self.target = book.target
        self.hand_size = book.hand_size(self.n)
        self.turns = 0
        self.scores = [0] * self.n
        self.hand_winners: list[int] = []

    # -- helpers -----------------------------------------------------------------------
    def card(self, name: str) -> Card:
        card = self.book.cards.get(name)
        if card is None:
            self.walk.fail(f"{name} is not a card of the game ({self.book.source})")
        assert card is not None
        return card

    def valid(self, name: str, top: str, t: Table, hand: Cards, bluff: bool) -> bool:
        """Whether the card may be played on ``top`` with the colour in force (the rule texts)."""
        book = self.book
        if not self.judge:
            return True
        c, tc = self.card(name), self.card(top)
        if c.face in book.wild:
            if c.face == "wild4" and book.official_wild4 and not bluff:
                return not any(self.card(h).colour == t.colour for h in hand)
            return True
        return c.colour == t.colour or c.face == tc.face

    def valid_cards(self, t: Table, seat: int, among: Cards | None = None) -> list[str]:
        bluff = self.bluff and self.walk.virtual(seat + 1)
        hand = t.hands[seat]
        return sorted(c for c in (among or hand) if self.valid(c, t.discard[-1], t, hand, bluff))

    def draw(self, t: Table, item: Mapping[str, Any], drawn: list[str], seat: int, wanted: int) -> None:
        """One draw: the cards come off the draw pile; when it runs out, the discard pile but its
        top card becomes the draw pile; with both empty, fewer cards are drawn."""
        w = self.walk
        w.expect(item["seat"] == seat + 1, f"{w.name(item['seat'])} draws, but {w.name(seat + 1)} must")
        w.expect(
            item.get("wanted", item["count"]) == wanted,
            f"draws {item.get('wanted', item['count'])}, not {wanted}",
        )
        w.expect(
            len(drawn) == item["count"],
            f"the hidden section holds {len(drawn)} drawn cards, not {item['count']}",
        )
        at = item.get("reshuffle_at")
        for i, name in enumerate(drawn):
            if i == at:
                self.reshuffle(t, item)
            w.take(t.pile, [name], "the draw pile")
            t.hands[seat][name] += 1
        if at is not None and at >= len(drawn):
            w.fail("a reshuffle after the last card drawn")
        if len(drawn) < wanted:
            w.expect(
                not t.pile and len(t.discard) <= 1,
                f"drew {len(drawn)} of {wanted} cards, but cards were left to draw",
            )

    def reshuffle(self, t: Table, item: Mapping[str, Any]) -> None:
        w = self.walk
        w.expect(not t.pile, f"the discard pile was shuffled in while the draw pile held {show(t.pile)}")
        moved = t.discard[:-1]
        w.expect(
            item.get("reshuffled") == len(moved),
            f"{item.get('reshuffled')} cards reshuffled, not {len(moved)}",
        )
        t.pile = Counter(moved)
        t.discard = t.discard[-1:]

    def runs(
        self,
        ev: Mapping[str, Any],
        seat: int,
        t: Table,
        selected: list[str | None],
        tables: list[list[Cards]],
    ) -> None:
        """A virtual player's decisions at card level: one protocol run per decision, with the
        table the referee holds at that moment; none at rule level or for a person."""
        w = self.walk
        runs = ev["runs"]
        if not (self.card_level and w.virtual(seat + 1)):
            w.expect(not runs, f"{len(runs)} protocol runs, but nobody runs the protocol here")
            return
        w.expect(len(runs) == len(selected), f"{len(runs)} protocol runs for {len(selected)} decisions")
        for run, pick, table in zip(runs, selected, tables):
            check_selection_run(w, run, self.protocol, table, pick)

    def owners(self, t: Table, seat: int) -> list[Cards]:
        """The protocol's owners: the virtual player, the other seats in seat order, the draw
        pile (and the discard pile under its top card)."""
        owners = [Counter(t.hands[(seat + k) % self.n]) for k in range(self.n)] + [Counter(t.pile)]
        if self.discard_owner:
            owners.append(Counter(t.discard[:-1]))
        return owners

    def next_seat(self, t: Table, seat: int, steps: int = 1) -> int:
        return (seat + t.direction * steps) % self.n

    # -- the game ------------------------------------------------------------------------
    def run(self) -> int:
        w = self.walk
        while True:
            ev = w.expect_next("deal", "a hand must be dealt here")
            self.hand(ev)
            if not self.another_hand():
                break
        w.expect(w.next() is None, "events after the game ended")
        self.result()
        return self.turns

    def another_hand(self) -> bool:
        if self.target is None:
            return False
        if max(self.scores) >= self.target:
            return False
        return self.max_hands is None or len(self.hand_winners) < self.max_hands

    def hand(self, deal: Mapping[str, Any]) -> None:
        w, book = self.walk, self.book
        hidden = deal["hidden"]
        hands = [Counter(h) for h in hidden["hands"]]
        pile = Counter(hidden["draw_pile"])
        w.expect(len(hands) == self.n, f"{len(hands)} hands dealt to {self.n} players")
        everything = sum(hands, Counter()) + pile
        w.expect(
            everything == Counter(book.deck),
            f"the deal is not the deck of {w.record['game']['rule_set']} ({book.source}): "
            f"extra {show((everything - Counter(book.deck)).elements())}, "
            f"missing {show((Counter(book.deck) - everything).elements())}",
        )
        lo, hi = book.players
        w.expect(lo <= self.n <= hi, f"{self.n} players; the game is for {lo} to {hi}")
        sizes = [sum(h.values()) for h in hands]
        w.expect(
            sizes == [self.hand_size] * self.n, f"hands of {sizes} cards, the rules deal {self.hand_size}"
        )
        w.expect(
            deal["public"]["sizes"] == sizes and deal["public"]["draw_pile"] == sum(pile.values()),
            "the public counts of the deal differ from the cards dealt",
        )
        w.check_seen(deal, {s + 1: {"hand": list(h.elements())} for s, h in enumerate(hands)})
        w.expect(not deal["runs"], "a protocol run at the deal")
        t = Table(hands, pile, [])
        current = self.first_card(t)
        passes, index = 0, 0
        while True:
            ev = w.expect_next(("turn", "hand-end"), "the hand has no end")
            if ev["type"] == "hand-end":
                self.hand_end(ev, t, None if index < MAX_TURNS else index)
                return
            index += 1
            w.expect(ev["turn"] == index, f"turn {ev['turn']} where turn {index} comes")
            w.expect(
                ev["seat"] == current + 1,
                f"{w.name(ev['seat'])} plays, but it is {w.name(current + 1)}'s turn",
            )
            current, action = self.turn(ev, t, current)
            self.turns += 1
            mover = ev["seat"] - 1
            passes = passes + 1 if action == "pass" else 0
            if not t.hands[mover]:
                self.expect_end(t, "went out", mover, index)
                return
            if passes >= self.n:
                self.expect_end(t, "nobody could play or draw", None, index)
                return
            if index == MAX_TURNS:
                self.expect_end(t, f"stopped after {MAX_TURNS} turns", None, index)
                return

    def expect_end(self, t: Table, reason: str, winner: int | None, turns: int) -> None:
        w = self.walk
        ev = w.expect_next("hand-end", f"the hand must end here ({reason})")
        w.expect(
            ev["public"]["reason"] == reason,
            f"the hand ends because {reason!r}, not {ev['public']['reason']!r}",
        )
        self.hand_end(ev, t, turns)

    def hand_end(self, ev: Mapping[str, Any], t: Table, turns: int | None) -> None:
        w = self.walk
        pub = ev["public"]
        reason = pub["reason"]
        w.expect(turns is not None, "the hand ends although nobody went out and play could go on")
        points = [sum(self.points(c) * k for c, k in h.items()) for h in t.hands]
        if reason == "went out":
            winner = next(s for s in range(self.n) if not t.hands[s])
        else:
            winner = min(range(self.n), key=lambda s: (points[s], s))
        earned = 0 if reason.startswith("stopped") else sum(p for s, p in enumerate(points) if s != winner)
        w.expect(
            pub["winner"] == winner + 1,
            f"{w.name(pub['winner'])} wins the hand, but {w.name(winner + 1)} does",
        )
        w.expect(
            pub["points"] == earned, f"the hand scores {pub['points']} points, the cards left say {earned}"
        )
        w.expect(pub["turns"] == turns, f"the hand took {turns} turns, not {pub['turns']}")
        shown = [Counter(h) for h in pub["hands"]]
        w.expect(shown == t.hands, "the hands turned up at the end are not the cards the players held")
        self.scores[winner] += earned
        self.hand_winners.append(winner)
        w.expect(
            list(pub["scores"]) == self.scores, f"scores {pub['scores']}, the hands add up to {self.scores}"
        )
        w.expect(not ev["runs"], "a protocol run at the end of a hand")

    def points(self, name: str) -> int:
        return self.book.card_points(self.card(name))

    def first_card(self, t: Table) -> int:
        """The first card turned up and what it does; returns who plays first."""
        w, book = self.walk, self.book
        ev = w.expect_next("first-card", "the first card is not turned up")
        pub = ev["public"]
        turned = list(pub["turned"])
        w.expect(bool(turned), "no first card turned up")
        starts = pub["starts"] - 1
        w.expect(0 <= starts < self.n, f"seat {pub['starts']} starts, but there are {self.n} seats")
        first_rules = book.first
        for i, name in enumerate(turned):
            w.take(t.pile, [name], "the draw pile")
            effects = first_rules.get(self.card(name).face, ())
            if ("redraw", 0) in effects:
                w.expect(i < len(turned) - 1, f"the first card {name} must go back into the pile")
                t.pile[name] += 1
            else:
                w.expect(i == len(turned) - 1, f"the first card {name} stays: no card is turned up after it")
        top = turned[-1]
        t.discard = [top]
        effects = first_rules.get(self.card(top).face, ())
        current, draws, skipped = starts, [], None
        t.colour = str(self.card(top).colour)
        for kind, count in effects:
            if kind == "name":
                w.expect(pub["color"] in book.colours, f"the colour named is {pub['color']!r}")
                t.colour = pub["color"]
            elif kind == "reverse":
                # "the dealer goes first, then play moves to the right" (official rules)
                t.direction = -1
                current = (starts - 1) % self.n
            elif kind == "draw":
                draws.append((current, count))
            elif kind == "skip":
                skipped = current
        w.expect(pub["color"] == t.colour, f"the colour in force is {t.colour}, not {pub['color']}")
        w.expect(pub["direction"] == t.direction, "play goes the wrong way after the first card")
        self.apply_draws(ev, t, draws)
        w.expect(pub["skipped"] == (None if skipped is None else skipped + 1), "the wrong player is skipped")
        w.expect(not ev["runs"], "a protocol run at the first card")
        return self.next_seat(t, current) if skipped is not None else current

    def apply_draws(
        self, ev: Mapping[str, Any], t: Table, draws: list[tuple[int, int]], start: int = 0
    ) -> None:
        """The draws the rules call for, in order, against the event's draws from ``start`` on."""
        w = self.walk
        items, hidden = ev["public"]["draws"], ev["hidden"]["draws"]
        w.expect(len(items) == len(hidden), "the hidden section does not list every draw")
        w.expect(
            len(items) - start == len(draws), f"{len(items) - start} draws, the rules call for {len(draws)}"
        )
        for (seat, count), item, cards in zip(draws, items[start:], hidden[start:]):
            self.draw(t, item, list(cards), seat, count)
        self.check_draws_seen(ev)

    def check_draws_seen(self, ev: Mapping[str, Any]) -> None:
        seen: dict[int, dict[str, Any]] = {}
        for item, cards in zip(ev["public"]["draws"], ev["hidden"]["draws"]):
            seen.setdefault(item["seat"], {"drawn": []})["drawn"].extend(cards)
        self.walk.check_seen(ev, seen)

    def turn(self, ev: Mapping[str, Any], t: Table, seat: int) -> tuple[int, str]:
        """One turn; returns who plays next and the action."""
        w, book = self.walk, self.book
        pub = ev["public"]
        items, hidden = pub["draws"], ev["hidden"]["draws"]
        w.expect(len(items) == len(hidden), "the hidden section does not list every draw")
        virtual = w.virtual(seat + 1)
        valid = self.valid_cards(t, seat)
        selected: list[str | None] = []
        tables = [self.owners(t, seat)]
        in_run = virtual and self.draw_in_run and bool(+t.pile)
        card = pub["card"]
        action = pub["action"]
        used = 0  # draws of the turn itself (before a card is played)
        if action == "play":
            w.expect(card is not None, "a play without a card")
            selected.append(card)
        else:
            w.expect(action in ("draw", "draw-play", "pass"), f"unknown action {action!r}")
            if virtual and self.judge:
                w.expect(
                    not valid,
                    f"{w.name(seat + 1)} is virtual and held valid cards ({show(valid)}), "
                    "but did not play: the protocol plays one when there is one",
                )
            selected.append(None)
            played_drawn = None
            for _ in range(book.draw_until):
                if used >= len(items) or items[used]["seat"] != seat + 1:
                    break
                drawn = list(hidden[used])
                self.draw(t, items[used], drawn, seat, 1)
                used += 1
                if not drawn:
                    break
                if virtual and self.virtual_keeps:
                    break  # it keeps the drawn card: no second run, the turn ends
                if virtual and not in_run:
                    tables.append(self.owners(t, seat))
                if self.judge:
                    ok = self.valid_cards(t, seat, Counter(drawn))
                else:  # no rule book: the record says whether the drawn card was played
                    ok = [drawn[0]] if card == drawn[0] else []
                if in_run:  # the turn's one run drew the card and played it if it could
                    selected[-1] = drawn[0] if ok else None
                elif virtual:
                    selected.append(drawn[0] if ok else None)
                if ok and (virtual or card == drawn[0] or book.must_play_drawn):
                    played_drawn = drawn[0]
                    break
                if ok and not virtual:
                    break  # a person may keep a drawn card they could play
            drew = sum(len(hidden[i]) for i in range(used))
            want = "pass" if not drew else ("draw-play" if played_drawn else "draw")
            w.expect(action == want, f"the turn is a {want!r} by the rules, not {action!r}")
            w.expect(
                card == played_drawn,
                f"the card played after drawing is {card}, the drawn card was {played_drawn}",
            )
            if card is None:
                w.expect(pub["color"] is None, "a colour named without a card played")
                w.expect(used == len(items), "draws after the turn ended")
                self.check_draws_seen(ev)
                self.runs(ev, seat, t, selected, tables)
                return self.next_seat(t, seat), action
        # A card is played.
        assert card is not None
        hand = t.hands[seat]
        w.expect(hand[card] > 0, f"{card} is not in {w.name(seat + 1)}'s hand ({show(hand.elements())})")
        if action == "play":
            w.expect(
                card in valid,
                f"{card} may not be played on {t.discard[-1]} with {t.colour} in force"
                + (" (a card of that colour is held)" if self.card(card).face == "wild4" else ""),
            )
        previous = t.colour
        w.take(hand, [card], "the hand")
        t.discard.append(card)
        c = self.card(card)
        effects = book.effects.get(c.face, ())
        t.colour = str(c.colour)
        skip, draws = False, []
        nxt = self.next_seat(t, seat)
        guilty = None
        for kind, count in effects:
            if kind == "name":
                w.expect(pub["color"] in book.colours, f"the colour named is {pub['color']!r}")
                t.colour = pub["color"]
            elif kind == "reverse":
                if self.n == 2 and book.two_player_reverse_skips:
                    skip = True
                else:
                    t.direction = -t.direction
                    nxt = self.next_seat(t, seat)
            elif kind == "skip":
                skip = True
            elif kind == "draw":
                victim = self.next_seat(t, seat)
                challenge = pub.get("challenge")
                if challenge is not None:
                    w.expect(
                        book.challenge and c.face == "wild4",
                        "a challenge the rules do not have",
                    )
                    w.expect(
                        challenge["by"] == victim + 1,
                        f"{w.name(challenge['by'])} challenges, not the next player",
                    )
                    guilty = any(self.card(h).colour == previous for h in hand)
                    w.expect(
                        challenge["guilty"] == guilty,
                        f"the challenge {'succeeds' if guilty else 'fails'}: "
                        f"{w.name(seat + 1)} {'held' if guilty else 'held no'} card of {previous}",
                    )
                    if guilty:
                        draws.append((seat, count))
                        break
                    draws.append((victim, count + 2))
                    continue
                draws.append((victim, count))
        if guilty:
            skip = False
        if not any(k == "name" for k, _ in effects):
            w.expect(pub["color"] is None, f"{card} names no colour, but {pub['color']} was named")
        self.apply_draws(ev, t, draws, used)
        self.runs(ev, seat, t, selected, tables)
        return (self.next_seat(t, seat, 2) if skip else nxt), action

    def result(self) -> None:
        w = self.walk
        res = w.record["result"]
        if self.target is not None:
            best = max(range(self.n), key=lambda s: (self.scores[s], -s))
            w.expect(res["scores"] == self.scores, f"the final scores are {self.scores}, not {res['scores']}")
        else:
            best = self.hand_winners[-1]
        w.expect(
            res["winner"] == best + 1, f"the game's winner is {w.name(best + 1)}, not seat {res['winner']}"
        )
        w.expect(
            res["hands"] == len(self.hand_winners),
            f"{len(self.hand_winners)} hands played, not {res['hands']}",
        )
        w.expect(res["turns"] == self.turns, f"{self.turns} turns played, not {res['turns']}")
