"""What every kit with virtual players holds, whatever the game: the card selection table.

The card selection protocol needs, for the largest table a virtual decision sees (k cards), one
θ owner marker below each card of its owner (printed per owner: the seats, then the piles), one
α/β pair per card and two more pairs for the covert lottery's token and six-card AND (3k + 4
helper cards, UNO paper Section 4), owner cards for the table, and one envelope per column for
the pile-scramble shuffles. A game's kit kind adds its deck (printed, or a store deck in
identical sleeves) and its own cards (suit or colour choice cards, ...).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol, TypedDict, runtime_checkable

from reference_engine.api import CardType, TableCounts

from ..core.words import listing, plural
from ..cost.bom import Bom, Item, envelope_for, spares
from ..cost.sleevesize import SLEEVE_CARDS, SleeveSize
from ..lang.catalogue import _
from ..lang.seats import seat_name
from ..paper.facenames import symbol_face
from ..paper.faces import Face
from ..paper.labelfaces import label_face
from ..paper.labels import Label, theta_label
from ..paper.pen import known_colours, theta_colour


class TableParts(TypedDict, total=False):
    """What a kind says of its card selection table beyond its deck and seats (the fields of
    :class:`Table` after ``pile_counts``), for ``TableKit.table_bom``."""

    extra_items: list[Item]
    sleeved: bool
    bits: str
    tickets: int
    ticket_labels: bool
    extra_pairs: int
    helper_note: str
    pair_use: str
    run_name: str


@dataclass
class Table:
    """What a kit's materials are counted from."""

    title: str
    deck_name: str
    deck_faces: list[Face]
    deck: str  # print | store
    seats: list[str]  # seat names in seat order (virtual players first)
    piles: list[str]  # the other owners of the card selection table (the draw pile, ...)
    virtual: int
    card_mm: tuple[float, float]
    worst_case: TableCounts | None = None  # counts measured by the engine (None: no virtual player)
    pile_counts: list[int] = field(default_factory=list)  # the most cards in each of ``piles``
    extra_items: list[Item] = field(default_factory=list)  # the game's own cards, after α and β
    # The protocol keeps every card in a sleeve with its owner card (its shuffles mix sleeves):
    # every game card needs a sleeve, and only the six-card AND's two halves need envelopes.
    sleeved: bool = False
    # How a card's bit is held: "pair" (an α/β pair) or "arrow" (one up-down arrow card, its
    # direction the bit; the knockout lottery's matches on mats, no envelopes).
    bits: str = "pair"
    # A weighted virtual player (the weighted selection protocol): every card carries this many
    # α/β tickets instead of one pair, and each ticket of P_1's j-th card goes under a λ_j card.
    tickets: int = 1
    # Whether each ticket of the virtual player's j-th card has its own λ_j (the weighted
    # selection); a kind with other labels lists them in extra_items instead.
    ticket_labels: bool = True
    extra_pairs: int = 2  # α β pairs beyond those under the cards (the lottery's token and AND)
    helper_note: str = ""  # what the protocol needs, in a note (default: the card selection's)
    pair_use: str = ""  # why the α and β cards are needed (default: the card selection's words)
    run_name: str = "card selection"  # the protocol a virtual turn runs, in words

    @property
    def owners(self) -> list[str]:
        return self.seats + self.piles


def arrow_face() -> Face:
    """The printed up-down arrow card (kitgen/paper/arrowface.py): one card for both of its faces."""
    return symbol_face("up", "▲")


def arrow_count(k: int, hand: int) -> tuple[int, str]:
    """Arrow cards for a table of ``k`` cards, the virtual player holding at most ``hand``: one
    in each sleeve, and one fresh "no" arrow per match of the knockout lottery's first round
    (the arrows taken out and the losers' go back to the spares between rounds)."""
    n = k + hand // 2
    return n, (
        f"one in each sleeve (at most {k} cards on the table) pointing up if its card may be played, "
        f"and {hand // 2} fresh ones for the knockout lottery's matches"
    )


def virtual_bom(table: Table) -> Bom:
    """The bill of materials: the deck, θ per owner, α/β, the game's own cards, owner cards,
    envelopes, and sleeves for a store deck."""
    items: list[Item] = []
    notes: list[str] = []
    deck_faces = table.deck_faces
    if table.deck == "print":
        items.append(
            Item(
                "deck",
                f"{table.title}: {table.deck_name}",
                "card",
                len(deck_faces),
                0,
                "the game's cards, printed with the kit's back so every card looks alike face down",
                deck_faces,
                "Game cards",
            )
        )
    wc = table.worst_case
    owners = table.owners
    if table.virtual and wc is not None:
        k = wc["table"]
        counts = list(wc["hands"]) + table.pile_counts
        helpers = 0
        for i, (owner, n) in enumerate(zip(owners, counts), 1):
            extra = max(3, math.ceil(n * 0.25))  # a hand can grow beyond what the simulation saw
            face = Face("theta", f"theta{i}", f"θ{i} ({owner})", (owner,))
            shown = seat_name(owner)  # the engine's name, in the active language
            items.append(
                Item(
                    f"theta{i}",
                    f"θ{i} owner marker: {shown}",
                    "card",
                    n,
                    extra,
                    f"one below each card of {shown} in a {table.run_name} run; {shown} held at most {n} "
                    f"cards at a virtual turn in {wc['games']} simulated games",
                    [face] * (n + extra),
                    f"θ{i} · {shown}",
                )
            )
            helpers += n
        w = table.tickets
        arrows = table.bits == "arrow"
        if arrows:
            n, why = arrow_count(k, max(wc["hands"][: table.virtual]))
            items.append(
                Item(
                    "arrow",
                    "arrow card (up-down)",
                    "card",
                    n,
                    spares(n),
                    why,
                    [arrow_face()] * (n + spares(n)),
                    "arrows",
                )
            )
            helpers += n
        for key, glyph in () if arrows else (("alpha", "α"), ("beta", "β")):
            n = w * k + table.extra_pairs
            per_card = (
                "one per card on the table"
                if w == 1
                else f"{w} per card on the table (its lottery tickets, live or dead)"
            )
            why = table.pair_use.format(k=k, n=n) or (
                f"{per_card} (at most {k}) to mark whether it may be played, and "
                f"{'two' if table.extra_pairs == 2 else table.extra_pairs} more for the lottery's token "
                "and six-card AND"
            )
            items.append(
                Item(
                    key,
                    f"{glyph} bit marker",
                    "card",
                    n,
                    spares(n),
                    why,
                    [Face("marker", key, glyph)] * (n + spares(n)),
                    f"{glyph} markers",
                )
            )
            helpers += n
        if w > 1 and table.ticket_labels:
            hand = max(wc["hands"][: table.virtual])
            extra = max(3, math.ceil(hand * 0.25))
            labels = hand + extra
            faces = [label_face("ticket", j) for j in range(1, labels + 1) for _ in range(w)]
            items.append(
                Item(
                    "ticket",
                    f"λ ticket cards λ1 to λ{labels}, {w} of each",
                    "card",
                    w * hand,
                    w * extra,
                    f"a stronger virtual player: each of the {w} tickets of its first card goes under "
                    f"λ1, of its second card under λ2, and so on; a virtual player held at most {hand} "
                    f"cards at its turn in {wc['games']} simulated games",
                    faces,
                    "λ tickets",
                )
            )
            helpers += w * hand
        items += table.extra_items
        items.append(owner_cards(owners))
        if arrows:
            notes.append(
                "The knockout lottery plays its matches on mats: any sheet of paper or plate a pair of "
                "sleeves fits on, one per match (half the virtual player's cards, rounded down)."
            )
        elif table.sleeved:
            items.append(
                Item(
                    "envelope",
                    f"identical opaque envelopes, {envelope_for(*table.card_mm)}",
                    "envelope",
                    2,
                    2,
                    "the six-card AND's shuffle mixes its two halves of three cards in two envelopes",
                )
            )
        else:
            items.append(
                Item(
                    "envelope",
                    f"identical opaque envelopes, {envelope_for(*table.card_mm)}",
                    "envelope",
                    k,
                    spares(k),
                    f"one per column of the {table.run_name} grid (at most {k} columns) "
                    "for its shuffles; the lottery reuses them",
                )
            )
        if arrows:
            notes.append(
                f"The card selection protocol with arrow cards needs {k + n} helper cards for the largest "
                f"table the simulated games saw, {k} cards in play: an owner card and an arrow card for "
                f"each card, and a fresh arrow for each match of the lottery; the kit prints {helpers} "
                "owner and arrow cards plus spares."
            )
        elif table.helper_note:
            notes.append(table.helper_note.format(k=k, helpers=helpers))
        elif w == 1:
            notes.append(
                f"The card selection protocol needs {3 * k + 4} helper cards for the largest table the "
                f"simulated games saw, {k} cards in play: three for each card, and four more; the kit "
                f"prints {helpers} owner and bit cards plus spares."
            )
        else:
            k1 = max(wc["hands"][: table.virtual])
            notes.append(
                f"The weighted selection protocol needs {(2 * w + 1) * k + w * k1 + 4} helper cards for "
                f"the largest table the simulated games saw, {k} cards in play, {k1} of them the virtual "
                f"player's: {2 * w + 1} for each card, {w} more for each of the virtual player's cards, "
                f"and four more; the kit prints {helpers} owner cards, bit cards and ticket cards plus "
                "spares."
            )
    table_cards = sum(i.count for i in items if i.kind == "card" and i.key != "seat")
    if table.sleeved and table.virtual:
        total = len(deck_faces)
        size = SleeveSize(table.card_mm, SLEEVE_CARDS - 1 if table.bits == "arrow" else SLEEVE_CARDS, 2)
        items.append(
            Item(
                "sleeve",
                size.name(),
                "sleeve",
                total,
                spares(total),
                "every game card lives in a sleeve with its owner card behind it for the whole game "
                f"(and, during a virtual turn, its {'arrow card' if table.bits == 'arrow' else 'bit pair'} "
                "in front of it); a virtual turn washes the "
                f"sleeves on the table instead of filling envelopes; {size.stack_words(total)}"
                + (
                    "; the solid backs also hide the store-bought cards' different backs"
                    if table.deck == "store"
                    else ""
                ),
                holds_piles=True,
            )
        )
        notes.append(
            "Every game card goes in an identical opaque-backed sleeve with the θ card of its owner "
            "behind it (face toward the solid back). When a card changes hands, swap the θ card in "
            "its sleeve for the new owner's; a played card's θ card goes back to the spares."
        )
        notes.append(size.note(total))
    elif table.deck == "store":
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
    if table.virtual:
        notes.append(
            "Owner cards belong to seats for the whole game: "
            + whose_owner_cards(owners, table.virtual)
            + ". At a virtual player's turn, its own owner cards are the ones the steps call "
            "\"the virtual player's owner cards\"; everyone else's keep their owners."
        )
    return Bom(items, notes, owners if table.virtual else table.seats, dict(wc) if wc is not None else {})


def whose_owner_cards(owners: list[str], virtual: int) -> str:
    """``Virtual 1's are the θ1 cards and Virtual 2's the θ2 cards`` (virtual players sit first)."""
    parts = [
        (_("{owner}'s are the θ{i} cards") if i == 0 else _("{owner}'s the θ{i} cards")).format(
            owner=seat_name(owners[i]), i=i + 1
        )
        for i in range(min(virtual, len(owners)))
    ]
    return listing(parts)


def owner_cards(owners: list[str]) -> Item:
    """The owner cards that lie face up at each seat and by the piles (whose θ cards are whose)."""
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
    return Item(
        "seat",
        "owner cards (whose θ cards are whose)",
        "card",
        len(seat_faces),
        0,
        "lie face up at each seat and by the piles, so everyone knows which θ belongs to whom",
        seat_faces,
        "Owner cards",
    )


def kit_labels(bom: Bom) -> list[Label]:
    """Seat labels (θ_i and its owner) and a storage label for every group of printed cards."""
    labels: list[Label] = []
    for i, owner in enumerate(bom.seats, 1):
        if any(it.key == f"theta{i}" for it in bom.items):
            labels.append(theta_label(i, owner))
    for item in bom.items:
        if item.kind == "card":
            colour = ""
            if item.key.startswith("theta"):
                colour = theta_colour(int(item.key[len("theta") :]))
            labels.append(Label(item.label, plural(item.count, "card"), colour, "storage"))
        elif item.kind == "envelope":
            labels.append(Label(_("Envelopes"), _("{n}, identical").format(n=item.count), "", "storage"))
    return labels


@runtime_checkable
class WithDeck(Protocol):
    """A rule set with a deck: its card types by name and its colours (name, sign, RGB)."""

    @property
    def cards(self) -> Mapping[str, CardType]: ...
    @property
    def colors(self) -> Mapping[str, Mapping[str, str]]: ...


def deck_face(rules: WithDeck, name: str) -> Face:
    """The printed face of a game card of a rule set with ``cards`` and ``colors`` (a deck)."""
    ct = rules.cards[name]
    value = str(ct.value) if ct.value is not None else ct.face
    if ct.color in known_colours() or ct.color == "black":
        return Face("deck", name, ct.glyph, (ct.color, ct.kind, value))
    # A colour the templates have no design for: the rule set's own colour and symbol.
    spec = rules.colors[ct.color]
    return Face("deck", name, ct.glyph, (ct.color, ct.kind, value, spec["rgb"], spec["symbol"], spec["name"]))
