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

from reference_engine.api import Library, PlaySettings, RuleSet, Shedding, Strategy, TableCounts, find_kind

from ...core.figurecache import measured_tables
from ...cost.bom import Bom, Item, seat_names
from ...lang.catalogue import N_, _
from ...lang.overlay import deck_name, spec_text
from ...paper.faces import Face
from ...paper.pen import known_colours
from ..virtual import Table, deck_face, virtual_bom
from .front import WILD_CARD, deck_word

A_WILD = N_("a wild")  # "a wild card" as "... when a virtual player plays a wild"


def worst_case(
    rules: RuleSet, library: Library, players: int, virtual: int, discard_owner: bool
) -> TableCounts:
    """The largest card selection table in the simulated games with this seating."""
    kind = find_kind(rules.kind)
    assert isinstance(kind, Shedding)
    return measured_tables(
        kind, rules, library, PlaySettings(players, virtual, options={"discard_owner": discard_owner})
    )


def game_bom(
    rules: RuleSet,
    library: Library,
    players: int,
    virtual: int,
    deck: str,
    discard_owner: bool,
    card_mm: tuple[float, float],
    sleeved: bool = False,
    strategy: Strategy | None = None,
    bits: str = "pair",
) -> Bom:
    """The bill of materials for playing ``rules`` with ``virtual`` virtual players (a weighted
    ``strategy``: w tickets per card, λ ticket cards; ``bits`` "arrow": one arrow card per card
    instead of an α/β pair)."""
    wc = worst_case(rules, library, players, virtual, discard_owner) if virtual else None
    piles = [wc.get("draw_pile", 0)] + ([wc.get("discard_pile", 0)] if discard_owner else []) if wc else []
    table = Table(
        title=rules.title,
        deck_name=deck_name(rules.kit, _("our colour-number deck")),
        deck_faces=[deck_face(rules, ct.name) for ct in rules.cards.values() for _copy in range(ct.copies)],
        deck=deck,
        seats=seat_names(players, virtual),
        piles=["Draw pile"] + (["Discard pile"] if discard_owner else []),
        virtual=virtual,
        card_mm=card_mm,
        worst_case=wc,
        pile_counts=piles,
        extra_items=choice_cards(rules),
        sleeved=sleeved,
        bits=bits,
        tickets=strategy.weights.largest if strategy is not None and strategy.weights is not None else 1,
    )
    return virtual_bom(table)


def choice_cards(rules: RuleSet) -> list[Item]:
    """The colour (or suit) choice cards, when a card names the colour in force."""
    if not any(e.kind == "choose_color" for effects in rules.effects.values() for e in effects):
        return []
    # "colour" and "a wild card" ("... plays a wild") in the active language (rule set's words: its overlay)
    word = deck_word(rules)
    wild = _(A_WILD) if rules.choosing == WILD_CARD else spec_text(rules.choosing).removesuffix(" card")
    on_card = _("{word} for {wild}").format(word=word, wild=wild)
    known = known_colours()
    choice = [
        Face(
            "choice",
            c,
            f"{word} choice: {c}",
            (on_card,) if c in known else (on_card, spec["rgb"], spec["symbol"], spec["name"]),
        )
        for c, spec in rules.colors.items()
    ]
    return [
        Item(
            "choice",
            _("{word} choice cards").format(word=word),
            "card",
            len(choice),
            0,
            _(
                "shuffled face down to name a uniformly random {word} when a virtual player plays {wild}"
            ).format(word=word, wild=wild),
            choice,
            _("{name} choice").format(name=word.capitalize()),
        )
    ]
