"""Bill of materials: how many of each card, sleeve, envelope, label and sheet a kit needs.

Counts come from the reference engine. For a game with virtual players, the engine plays
many seeded games with the kit's seating and records the largest table any virtual turn
sees (cards per seat, in the draw pile, under the top card); the card selection protocol
needs one theta card per card of its owner and one alpha-beta pair per card on the table
(3k + 4 helper cards in all, UNO paper Section 4). Spares are added on top.

Owner markers are printed per seat: theta_s marks seat s in every protocol run, whoever
is the virtual player that runs it (the booklet says so); the draw pile and the discard
pile get the next two numbers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from reference_engine.game import Game
from reference_engine.registry import Library
from reference_engine.rules import RuleSet

from .faces import Face

SIMULATED_GAMES = 1000
ENVELOPES = (("C7", 81, 114), ("C6", 114, 162), ("C5", 162, 229), ("C4", 229, 324))


@dataclass
class Item:
    key: str
    name: str
    kind: str  # card | sleeve | envelope | label | paper
    needed: int
    spares: int
    why: str
    faces: list[Face] = field(default_factory=list)
    short: str = ""  # what a storage label says

    @property
    def label(self) -> str:
        return self.short or self.name

    @property
    def count(self) -> int:
        return self.needed + self.spares

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "kind": self.kind,
            "count": self.count,
            "needed": self.needed,
            "spares": self.spares,
            "why": self.why,
        }


@dataclass
class Bom:
    items: list[Item]
    notes: list[str]
    seats: list[str]  # owner names: seat 1..n, then the draw pile (and the discard pile)
    worst_case: dict[str, Any]

    def item(self, key: str) -> Item:
        return next(i for i in self.items if i.key == key)

    def faces(self) -> list[Face]:
        """Every card face to print, in the order the sheets show them."""
        out: list[Face] = []
        for item in self.items:
            if item.kind == "card":
                out.extend(item.faces)
        return out

    def printed_cards(self) -> int:
        return sum(i.count for i in self.items if i.kind == "card")

    def to_json(self) -> dict[str, Any]:
        return {
            "items": [i.to_json() for i in self.items],
            "notes": self.notes,
            "owners": self.seats,
            "worst_case": self.worst_case,
            "printed_cards": self.printed_cards(),
        }


def spares(n: int) -> int:
    """10 % more, at least 2 (cards get lost, bent or marked)."""
    return 0 if n == 0 else max(2, math.ceil(n * 0.1))


def seat_names(players: int, virtual: int) -> list[str]:
    """Seat names in seat order, as :class:`reference_engine.game.Game` seats them (virtual first)."""
    return [f"Virtual {i + 1}" for i in range(virtual)] + [f"Human {i + 1}" for i in range(players - virtual)]


def worst_case(
    rules: RuleSet,
    library: Library,
    players: int,
    virtual: int,
    discard_owner: bool,
    games: int = SIMULATED_GAMES,
) -> dict[str, Any]:
    """The largest card selection table in ``games`` seeded rule-level games with this seating."""
    largest_hand: dict[int, int] = {}
    draw = discard = table = 0
    for seed in range(games):
        game = Game(
            rules,
            library,
            players=players,
            virtual=virtual,
            level="rule",
            seed=seed,
            discard_owner=discard_owner,
            wild4="bluff" if rules.hand_dependent else "strict",
            hands=1,
        )
        game.observer = lambda g, seat, valid: g.note_table()
        game.play()
        st = game.stats
        for s, n in st.largest_hand.items():
            largest_hand[s] = max(largest_hand.get(s, 0), n)
        draw, discard, table = (
            max(draw, st.largest_draw),
            max(discard, st.largest_discard),
            max(table, st.largest_table),
        )
    bound = len(rules.deck()) - 1  # every card but the top of the discard pile
    return {
        "games": games,
        "hands": [largest_hand.get(s + 1, rules.hand_size) for s in range(players)],
        "draw_pile": draw,
        "discard_pile": discard,
        "table_seen": table,
        "table": bound,
    }


def envelope_for(card_w_mm: float, card_h_mm: float) -> str:
    w, h = sorted((card_w_mm + 10, card_h_mm + 10))
    for name, ew, eh in ENVELOPES:
        if w <= ew and h <= eh:
            return f"{name} ({ew} x {eh} mm)"
    return f"at least {w:.0f} x {h:.0f} mm"


def game_bom(
    rules: RuleSet,
    library: Library,
    players: int,
    virtual: int,
    deck: str,
    discard_owner: bool,
    card_mm: tuple[float, float],
) -> Bom:
    """The bill of materials for playing ``rules`` with ``virtual`` virtual players."""
    seats = seat_names(players, virtual)
    owners = seats + ["Draw pile"] + (["Discard pile"] if discard_owner else [])
    items: list[Item] = []
    notes: list[str] = []
    deck_faces = [deck_face(rules, ct.name) for ct in rules.cards.values() for _ in range(ct.copies)]
    if deck == "print":
        items.append(
            Item(
                "deck",
                f"{rules.title}: our colour-number deck",
                "card",
                len(deck_faces),
                0,
                "the game's cards, printed with the kit's back so every card looks alike face down",
                deck_faces,
                "Game cards",
            )
        )
    wc: dict[str, Any] = {}
    helpers = 0
    if virtual:
        wc = worst_case(rules, library, players, virtual, discard_owner)
        k = wc["table"]
        counts = list(wc["hands"]) + [wc["draw_pile"]] + ([wc["discard_pile"]] if discard_owner else [])
        for i, (owner, n) in enumerate(zip(owners, counts), 1):
            extra = max(3, math.ceil(n * 0.25))  # a hand can grow beyond what the simulation saw
            face = Face("theta", f"theta{i}", f"θ{i} ({owner})", (owner,))
            items.append(
                Item(
                    f"theta{i}",
                    f"θ{i} owner marker: {owner}",
                    "card",
                    n,
                    extra,
                    f"one below each card of {owner} in a card selection run; {owner} held at most {n} "
                    f"cards at a virtual turn in {wc['games']} simulated games",
                    [face] * (n + extra),
                    f"θ{i} · {owner}",
                )
            )
            helpers += n
        for key, glyph in (("alpha", "α"), ("beta", "β")):
            n = k + 2
            items.append(
                Item(
                    key,
                    f"{glyph} bit marker",
                    "card",
                    n,
                    spares(n),
                    f"one per card on the table (k = {k} at most) to mark valid/not valid, and two for "
                    "the covert lottery's token and six-card AND",
                    [Face("marker", key, glyph)] * (n + spares(n)),
                    f"{glyph} markers",
                )
            )
            helpers += n
        choice = [Face("choice", c, f"colour choice: {c}") for c in rules.colors]
        items.append(
            Item(
                "choice",
                "colour choice cards",
                "card",
                len(choice),
                0,
                "shuffled face down to name a uniformly random colour when a virtual player plays a wild",
                choice,
                "Colour choice",
            )
        )
        seat_faces = [
            Face(
                "seat",
                f"seat{i}",
                f"owner card θ{i}: {o}",
                (
                    o,
                    "virtual player"
                    if o.startswith("Virtual")
                    else ("human player" if o.startswith("Human") else "not a player"),
                ),
            )
            for i, o in enumerate(owners, 1)
        ]
        items.append(
            Item(
                "seat",
                "owner cards (who is θ_i)",
                "card",
                len(seat_faces),
                0,
                "lie face up at each seat and by the piles, so everyone knows which θ belongs to whom",
                seat_faces,
                "Owner cards",
            )
        )
        items.append(
            Item(
                "envelope",
                f"identical opaque envelopes, {envelope_for(*card_mm)}",
                "envelope",
                k,
                spares(k),
                f"one per column of the card selection matrix (at most k = {k} columns) "
                "for the pile-scramble shuffles; the covert lottery reuses them",
            )
        )
        notes.append(
            f"The card selection protocol needs 3k + 4 = {3 * k + 4} helper cards for a table of "
            f"k = {k} cards (UNO paper, Section 4); the kit prints {helpers} owner and bit markers "
            "plus spares."
        )
    table_cards = sum(i.count for i in items if i.kind == "card" and i.key != "seat")
    if deck == "store":
        total = len(deck_faces) + table_cards
        items.append(
            Item(
                "sleeve",
                "opaque-backed card sleeves, all identical",
                "sleeve",
                total,
                spares(total),
                "store-bought cards and printed cards have different backs: face down, anyone could "
                "tell a marker from a game card, which gives the protocol away. Sleeve every card "
                "(the store deck too) in the same opaque-backed sleeve",
            )
        )
        notes.append(
            "You use a store-bought deck with printed cards: every card must go in an identical "
            "opaque-backed sleeve, or the different backs reveal which face-down card is which."
        )
    else:
        notes.append(
            "Every card is printed with the same back; sleeves are optional (if you use them, put "
            "every card in the same kind of sleeve)."
        )
    if virtual:
        notes.append(
            "A θ card belongs to a seat for the whole game, and virtual players sit first: at "
            "Virtual 1's turn the printed θ1, θ2, ... are exactly the protocol's θ_1, θ_2, ...; at "
            "another virtual player's turn, that player's θ plays the part of θ_1."
        )
    return Bom(items, notes, owners if virtual else seats, wc)


def deck_face(rules: RuleSet, name: str) -> Face:
    ct = rules.cards[name]
    value = str(ct.value) if ct.value is not None else ct.face
    return Face("deck", name, ct.glyph, (ct.color, ct.kind, value))


PLAYER_COLOURS = ("#0072B2", "#D55E00")


def sealed_bid_bom(rules: Any, helpers: dict[str, int], card_mm: tuple[float, float]) -> Bom:
    """The bill of materials of a dealerless sealed-bid game (Gakmoro).

    ``helpers`` is the most loose cards of each kind one round ever has out at once, as the
    exact verification of the round protocol measured it; later rounds reuse opened cards.
    """
    hand = rules.hand("dealerless")
    bundles = 2 * len(hand)
    size = rules.bundle
    clubs_in_bundles = bundles * (size - 1)
    hearts = bundles
    loose_clubs = helpers.get("club", 0)
    loose_hearts = helpers.get("heart", 0)
    club_face = Face("two_colour", "club", "♣")
    heart_face = Face("two_colour", "heart", "♥")
    clubs = clubs_in_bundles + loose_clubs
    n_hearts = hearts + loose_hearts
    items = [
        Item(
            "club",
            "♣ cards",
            "card",
            clubs,
            spares(clubs),
            f"{size - 1} in each of the {bundles} bundles ({clubs_in_bundles}), and {loose_clubs} loose ♣: "
            "the most one round has out at once (extensions and the subtraction), measured by the engine; "
            "later rounds reuse the cards the earlier rounds opened",
            [club_face] * (clubs + spares(clubs)),
            "♣ cards",
        ),
        Item(
            "heart",
            "♥ cards",
            "card",
            n_hearts,
            spares(n_hearts),
            f"one in each of the {bundles} bundles: its place in the bundle is the value",
            [heart_face] * (n_hearts + spares(n_hearts)),
            "♥ cards",
        ),
        Item(
            "sleeve",
            "card sleeves with a transparent front and an opaque back, "
            f"for {card_mm[0]:g} x {card_mm[1]:g} mm cards, each holding {size} cards",
            "sleeve",
            bundles,
            2,
            f"one per bundle ({len(hand)} per player: {', '.join(str(v) for v in hand)}); the owner "
            "reads the value label through the front, the other player sees only the opaque back",
        ),
        Item(
            "label",
            "value labels for the sleeves",
            "label",
            bundles,
            0,
            "one per sleeve, on its transparent front; peeled off unseen when the sleeve is submitted",
        ),
    ]
    table_mm = 37 * (card_mm[0] + 2)
    notes = [
        f"Make the {bundles} bundles together and in public with the preparation sheet (bundles.pdf), so "
        "nobody can slip in a forged bundle (Gakmoro, Section 5.1: a player could make nine E_8(7)).",
        f"Table space: the comparison lays out 74 cards in 2 rows of 37 (Section 5.2): about "
        f"{table_mm / 1000:.2f} m for these cards; the rows may overlap by half a card on a short table.",
        "Every card is printed with the same back. The sleeves' opaque backs must all be identical too.",
    ]
    return Bom(items, notes, list(rules.names), {"loose_cards_per_round": helpers})
