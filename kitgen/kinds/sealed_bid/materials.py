"""The bill of materials of a dealerless sealed-bid game (Gakmoro)."""

from __future__ import annotations

from reference_engine.api import SealedBidRules

from ...cost.bom import Bom, Item, spares
from ...paper.faces import Face


def sealed_bid_bom(
    rules: SealedBidRules, helpers: dict[str, int], card_mm: tuple[float, float], cutout: bool = True
) -> Bom:
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
            f"for {card_mm[0]:g} × {card_mm[1]:g} mm cards, each holding {size} cards",
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
            "one per sleeve, behind its transparent front, so only the owner sees it; taken out unseen "
            "when the sleeve is submitted"
            if cutout
            else "one per sleeve, on its transparent front, so only the owner sees it; peeled off unseen "
            "when the sleeve is submitted",
        ),
    ]
    table_mm = 37 * (card_mm[0] + 2)
    notes = [
        f"Make the {bundles} bundles together and in public with the preparation sheet (bundles.pdf), so "
        "nobody can slip in a forged bundle (a player making bundles alone could make nine bundles of 7).",
        f"Table space: the comparison lays out 74 cards in 2 rows of 37: about "
        f"{table_mm / 1000:.2f} metres for these cards; the rows may overlap by half a card on a short "
        "table.",
        "Every card is printed with the same back. The sleeves' opaque backs must all be identical too.",
    ]
    return Bom(items, notes, list(rules.names), {"loose_cards_per_round": helpers}, labels_cutout=cutout)
