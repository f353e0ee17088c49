"""The bill of materials of a shedding game with virtual players (UNO and its relatives).

The engine plays many seeded games with the kit's seating and records the largest table any
virtual turn sees (cards per seat, in the draw pile, under the top card); the card selection
protocol needs one theta card per card of its owner and one alpha-beta pair per card on the
table (3k + 4 helper cards in all, UNO paper Section 4). Spares are added on top.

Owner markers are printed per seat: theta_s marks seat s in every protocol run, whoever is
the virtual player that runs it (the booklet says so); the draw pile and the discard pile
get the next two numbers.
"""

from __future__ import annotations

import math
from typing import Any

from reference_engine.api import Library, RuleSet, Shedding, find_kind

from ...bom import Bom, Item, envelope_for, seat_names, spares
from ...faces import Face, known_colours


def worst_case(
    rules: RuleSet, library: Library, players: int, virtual: int, discard_owner: bool
) -> dict[str, Any]:
    """The largest card selection table in the simulated games with this seating."""
    kind = find_kind(rules.kind)
    assert isinstance(kind, Shedding)
    return kind.measure_tables(rules, library, players, virtual, discard_owner)


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
                f"{rules.title}: {rules.kit.get('deck_name', 'our colour-number deck')}",
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
        word = rules.word
        if any(e.kind == "choose_color" for effects in rules.effects.values() for e in effects):
            wild = rules.choosing.removesuffix(" card")  # "a wild card": "... plays a wild"
            known = known_colours()
            choice = [
                Face(
                    "choice",
                    c,
                    f"{word} choice: {c}",
                    (f"{word} for {wild}",)
                    if c in known
                    else (f"{word} for {wild}", spec["rgb"], spec["symbol"], spec["name"]),
                )
                for c, spec in rules.colors.items()
            ]
            items.append(
                Item(
                    "choice",
                    f"{word} choice cards",
                    "card",
                    len(choice),
                    0,
                    f"shuffled face down to name a uniformly random {word} when a virtual player "
                    f"plays {wild}",
                    choice,
                    f"{word.capitalize()} choice",
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
    if ct.color in known_colours() or ct.color == "black":
        return Face("deck", name, ct.glyph, (ct.color, ct.kind, value))
    # A colour the templates have no design for: the rule set's own colour and symbol.
    spec = rules.colors[ct.color]
    return Face("deck", name, ct.glyph, (ct.color, ct.kind, value, spec["rgb"], spec["symbol"], spec["name"]))
