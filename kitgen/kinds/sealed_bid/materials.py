"""The bill of materials of a dealerless sealed-bid game (Gakmoro)."""

from __future__ import annotations

from reference_engine.api import SealedBidRules

from ...cost.bom import Bom, Item, spares
from ...lang.catalogue import _, number
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
            _("♣ cards"),
            "card",
            clubs,
            spares(clubs),
            _(
                "{per} in each of the {bundles} bundles ({in_bundles}), and {loose} loose ♣: the most one "
                "round has out at once (extensions and the subtraction), measured by the engine; later "
                "rounds reuse the cards the earlier rounds opened"
            ).format(per=size - 1, bundles=bundles, in_bundles=number(clubs_in_bundles), loose=loose_clubs),
            [club_face] * (clubs + spares(clubs)),
            _("♣ cards"),
        ),
        Item(
            "heart",
            _("♥ cards"),
            "card",
            n_hearts,
            spares(n_hearts),
            _("one in each of the {bundles} bundles: its place in the bundle is the value").format(
                bundles=bundles
            ),
            [heart_face] * (n_hearts + spares(n_hearts)),
            _("♥ cards"),
        ),
        Item(
            "sleeve",
            _(
                "card sleeves with a transparent front and an opaque back, for {w} × {h} mm cards, each "
                "holding {n} cards"
            ).format(w=f"{card_mm[0]:g}", h=f"{card_mm[1]:g}", n=size),
            "sleeve",
            bundles,
            2,
            _(
                "one per bundle ({n} per player: {values}); the owner reads the value label through the "
                "front, the other player sees only the opaque back"
            ).format(n=len(hand), values=_(", ").join(str(v) for v in hand)),
        ),
        Item(
            "label",
            _("value labels for the sleeves"),
            "label",
            bundles,
            0,
            _(
                "one per sleeve, behind its transparent front, so only the owner sees it; taken out unseen "
                "when the sleeve is submitted"
            )
            if cutout
            else _(
                "one per sleeve, on its transparent front, so only the owner sees it; peeled off unseen "
                "when the sleeve is submitted"
            ),
        ),
    ]
    table_mm = 37 * (card_mm[0] + 2)
    notes = [
        _(
            "Make the {bundles} bundles together and in public with the preparation sheet (bundles.pdf), "
            "so nobody can slip in a forged bundle (a player making bundles alone could make nine bundles "
            "of 7)."
        ).format(bundles=bundles),
        _(
            "Table space: the comparison lays out 74 cards in 2 rows of 37: about {metres} metres for "
            "these cards; the rows may overlap by half a card on a short table."
        ).format(metres=f"{table_mm / 1000:.2f}"),
        _("Every card is printed with the same back. The sleeves' opaque backs must all be identical too."),
    ]
    return Bom(items, notes, list(rules.names), {"loose_cards_per_round": helpers}, labels_cutout=cutout)
