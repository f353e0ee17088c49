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
from ..cost.bom import PAPER_SIZES, Bom, Item, envelope_for, mat_for, spares
from ..cost.sleevesize import SLEEVE_CARDS, SleeveSize
from ..lang.catalogue import N_, _, number
from ..lang.overlay import spec_text
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
    # In the active language, with {k} (and {helpers} / {n}) to fill in:
    helper_note: str = ""  # what the protocol needs, in a note (default: the card selection's)
    pair_use: str = ""  # why the α and β cards are needed (default: the card selection's words)
    run_name: str = "card selection"  # the protocol a virtual turn runs, in words

    @property
    def owners(self) -> list[str]:
        return self.seats + self.piles


# The protocols a virtual turn runs, in words (Table.run_name), in the catalogue.
RUNS = {"card selection": N_("card selection"), "play selection": N_("play selection")}


def run_words(name: str) -> str:
    """``Table.run_name`` in the active language."""
    return _(RUNS[name]) if name in RUNS else name


def arrow_face() -> Face:
    """The printed up-down arrow card (kitgen/paper/arrowface.py): one card for both of its faces."""
    return symbol_face("up", "▲")


def arrow_count(k: int, hand: int) -> tuple[int, str]:
    """Arrow cards for a table of ``k`` cards, the virtual player holding at most ``hand``: one
    in each sleeve, and one fresh "no" arrow per match of the knockout lottery's first round
    (the arrows taken out and the losers' go back to the spares between rounds)."""
    n = k + hand // 2
    return n, _(
        "one in each sleeve (at most {k} cards on the table) pointing up if its card may be played, "
        "and {fresh} fresh ones for the knockout lottery's matches"
    ).format(k=number(k), fresh=number(hand // 2))


def table_sleeve(table: Table) -> SleeveSize:
    """The sleeve every card of the table lives in: a card, its owner card and its bit (an arrow
    card, or an α/β pair), two of them at rest."""
    return SleeveSize(table.card_mm, SLEEVE_CARDS - 1 if table.bits == "arrow" else SLEEVE_CARDS, 2)


def mat_item(table: Table, hand: int, games: int) -> Item:
    """The knockout lottery's mats: a match is played on a mat that one person turns round or not,
    out of sight, and a round's matches are played at once, each on its own: the first round,
    the largest, has a match for every two of the virtual player's cards. Any sheet of paper (or
    a plate) the two sleeves and a card fit on will do, so the table needs them but the kit
    prints none: they are on the shopping list, as paper."""
    n = hand // 2
    size = mat_for(*table_sleeve(table).outer)
    iso = size in {name for name, _w, _h in PAPER_SIZES}  # else "at least W × H mm": said once
    return Item(
        "mat",
        (
            _("mats (sheets of scrap paper, {size} or larger, or plates)")
            if iso
            else _("mats (sheets of scrap paper, {size}, or plates)")
        ).format(size=size),
        "paper",
        n,
        0,
        _(
            "the knockout lottery plays each match on a mat that one person turns round or not, out "
            "of sight, and all the matches of a round at once: {n} in the first round, half the "
            "virtual player's cards (at most {hand} in {games} simulated games)"
        ).format(n=number(n), hand=number(hand), games=number(games)),
        short=_("Mats"),
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
                _("{title}: {deck}").format(title=spec_text(table.title), deck=table.deck_name),
                "card",
                len(deck_faces),
                0,
                _("the game's cards, printed with the kit's back so every card looks alike face down"),
                deck_faces,
                _("Game cards"),
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
                    _("θ{i} owner marker: {owner}").format(i=i, owner=shown),
                    "card",
                    n,
                    extra,
                    (
                        _(
                            "one behind each card of {owner} in its sleeve; {owner} held at most {n} cards "
                            "at a virtual turn in {games} simulated games"
                        )
                        if table.sleeved  # in its sleeve for the whole game, not below it for a run
                        else _(
                            "one below each card of {owner} in a {run} run; {owner} held at most {n} cards "
                            "at a virtual turn in {games} simulated games"
                        )
                    ).format(
                        owner=shown, run=run_words(table.run_name), n=number(n), games=number(wc["games"])
                    ),
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
                    _("arrow card (up-down)"),
                    "card",
                    n,
                    spares(n),
                    why,
                    [arrow_face()] * (n + spares(n)),
                    _("Arrow cards"),
                )
            )
            helpers += n
        for key, glyph in () if arrows else (("alpha", "α"), ("beta", "β")):
            n = w * k + table.extra_pairs
            per_card = (
                _("one per card on the table")
                if w == 1
                else _("{w} per card on the table (its lottery tickets, live or dead)").format(w=w)
            )
            why = table.pair_use.format(k=k, n=n)
            why = why or _(
                "{per_card} (at most {k}) to mark whether it may be played, and {more} more for the "
                "lottery's token and six-card AND"
            ).format(
                per_card=per_card,
                k=number(k),
                more=_("two") if table.extra_pairs == 2 else number(table.extra_pairs),
            )
            items.append(
                Item(
                    key,
                    _("{glyph} bit marker").format(glyph=glyph),
                    "card",
                    n,
                    spares(n),
                    why,
                    [Face("marker", key, glyph)] * (n + spares(n)),
                    _("{glyph} markers").format(glyph=glyph),
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
                    _("λ ticket cards λ1 to λ{labels}, {w} of each").format(labels=labels, w=w),
                    "card",
                    w * hand,
                    w * extra,
                    _(
                        "a stronger virtual player: each of the {w} tickets of its first card goes under "
                        "λ1, of its second card under λ2, and so on; a virtual player held at most {hand} "
                        "cards at its turn in {games} simulated games"
                    ).format(w=w, hand=number(hand), games=number(wc["games"])),
                    faces,
                    "λ tickets",
                )
            )
            helpers += w * hand
        items += table.extra_items
        items.append(owner_cards(owners, table.sleeved))
        if arrows:
            hand = max(wc["hands"][: table.virtual])
            if hand >= 2:  # a lottery of one card plays no match
                items.append(mat_item(table, hand, wc["games"]))
        elif table.sleeved:
            items.append(
                Item(
                    "envelope",
                    _("identical opaque envelopes, {size}").format(size=envelope_for(*table.card_mm)),
                    "envelope",
                    2,
                    2,
                    _("the six-card AND's shuffle mixes its two halves of three cards in two envelopes"),
                )
            )
        else:
            items.append(
                Item(
                    "envelope",
                    _("identical opaque envelopes, {size}").format(size=envelope_for(*table.card_mm)),
                    "envelope",
                    k,
                    spares(k),
                    _(
                        "one per column of the {run} grid (at most {k} columns) for its shuffles; the "
                        "lottery reuses them"
                    ).format(run=run_words(table.run_name), k=number(k)),
                )
            )
        if arrows:
            notes.append(
                _(
                    "The card selection protocol with arrow cards needs {needed} helper cards for the "
                    "largest table the simulated games saw, {k} cards in play: an owner card and an arrow "
                    "card for each card, and a fresh arrow for each match of the lottery; the kit prints "
                    "{helpers} owner and arrow cards plus spares."
                ).format(needed=number(k + n), k=number(k), helpers=number(helpers))
            )
        elif table.helper_note:
            notes.append(table.helper_note.format(k=k, helpers=helpers))
        elif w == 1:
            notes.append(
                _(
                    "The card selection protocol needs {needed} helper cards for the largest table the "
                    "simulated games saw, {k} cards in play: three for each card, and four more; the kit "
                    "prints {helpers} owner and bit cards plus spares."
                ).format(needed=number(3 * k + 4), k=number(k), helpers=number(helpers))
            )
        else:
            k1 = max(wc["hands"][: table.virtual])
            notes.append(
                _(
                    "The weighted selection protocol needs {needed} helper cards for the largest table "
                    "the simulated games saw, {k} cards in play, {k1} of them the virtual player's: "
                    "{per_card} for each card, {w} more for each of the virtual player's cards, and four "
                    "more; the kit prints {helpers} owner cards, bit cards and ticket cards plus spares."
                ).format(
                    needed=number((2 * w + 1) * k + w * k1 + 4),
                    k=number(k),
                    k1=number(k1),
                    per_card=2 * w + 1,
                    w=w,
                    helpers=number(helpers),
                )
            )
    table_cards = sum(i.count for i in items if i.kind == "card" and i.key != "seat")
    if table.sleeved and table.virtual:
        total = len(deck_faces)
        size = table_sleeve(table)
        items.append(
            Item(
                "sleeve",
                size.name(),
                "sleeve",
                total,
                spares(total),
                (
                    _(
                        "every game card lives in a sleeve with its owner card behind it for the whole "
                        "game (and, during a virtual turn, its arrow card in front of it); a virtual turn "
                        "washes the sleeves on the table instead of filling envelopes; {stack}"
                    )
                    if table.bits == "arrow"
                    else _(
                        "every game card lives in a sleeve with its owner card behind it for the whole "
                        "game (and, during a virtual turn, its bit pair in front of it); a virtual turn "
                        "washes the sleeves on the table instead of filling envelopes; {stack}"
                    )
                ).format(stack=size.stack_words(total))
                + (
                    _("; the solid backs also hide the store-bought cards' different backs")
                    if table.deck == "store"
                    else ""
                ),
                holds_piles=True,
            )
        )
        notes.append(
            _(
                "Every game card goes in an identical opaque-backed sleeve with the θ card of its owner "
                "behind it (face toward the solid back). When a card changes hands, swap the θ card in "
                "its sleeve for the new owner's; a played card's θ card goes back to the spares."
            )
        )
        notes.append(size.note(total))
    elif table.deck == "store":
        total = len(deck_faces) + table_cards
        items.append(
            Item(
                "sleeve",
                _("opaque-backed card sleeves, all identical"),
                "sleeve",
                total,
                spares(total),
                _(
                    "store-bought cards and printed cards have different backs: face down, anyone could "
                    "tell a marker from a game card, which gives the protocol away. Sleeve every card "
                    "(the store deck too) in the same opaque-backed sleeve"
                ),
            )
        )
        notes.append(
            _(
                "You use a store-bought deck with printed cards: every card must go in an identical "
                "opaque-backed sleeve, or the different backs reveal which face-down card is which."
            )
        )
    else:
        notes.append(
            _(
                "Every card is printed with the same back; sleeves are optional (if you use them, put "
                "every card in the same kind of sleeve)."
            )
        )
    if table.virtual:
        notes.append(
            _(
                "Owner cards belong to seats for the whole game: {whose}. At a virtual player's turn, "
                'its own owner cards are the ones the steps call "the virtual player\'s owner cards"; '
                "everyone else's keep their owners."
            ).format(whose=whose_owner_cards(owners, table.virtual))
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


def owner_cards(owners: list[str], sleeved: bool = False) -> Item:
    """The owner cards that lie face up at each seat and by the piles (whose θ cards are whose);
    ``sleeved``: the kit keeps each card's θ card behind it in its sleeve, which the card says."""
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
                *(("sleeved",) if sleeved else ()),
            ),
        )
        for i, o in enumerate(owners, 1)
    ]
    return Item(
        "seat",
        _("owner cards (whose θ cards are whose)"),
        "card",
        len(seat_faces),
        0,
        _("lie face up at each seat and by the piles, so everyone knows which θ belongs to whom"),
        seat_faces,
        _("Owner cards"),
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
