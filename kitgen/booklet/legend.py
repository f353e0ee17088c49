"""The legend of card codes: what R8, G+2, RS, 8♥, 3|5, θ2 or λ4 mean, in a player's words.

The worked example and the step pictures write cards as short codes (the grey letters under a
face-down card, the cards of the worked example). A game booklet explains them once, near the
first picture and on the quick reference, with a legend made from data, never written per game:

* the game's cards come from its rule set's deck (:meth:`GameRules.deck`): each card's colour
  or suit (the deck's ``colors`` with their letters, signs and names), its kind (the rule set's
  ``card_names``, or the kind itself) and its number; a domino tile from its two halves. One
  example per kind of card (a card of the worked example where there is one), and a key to the
  colours when every coloured card's code is the colour's letter or sign joined to its face;
* the helper cards come from the faces the booklet's pictures show (owner cards with their
  owners, bit cards, label cards, the stop card, two-colour cards), in the words of
  ``templates/booklet.yaml`` (``legend:``).

:meth:`CardLegend.explains` says what a code means *from what the legend prints* (the colour
key, the kinds' faces): a test decodes every code of every picture with it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from reference_engine.api import GameRules, Symbol

from ..core.words import listing
from ..lang.catalogue import N_, _
from ..lang.overlay import spec_text
from ..lang.seats import seat_name
from ..paper.faces import Face
from .diagram import Diagram

PARENTHESIS = re.compile(r"\s*\([^)]*\)")
# The kinds of a deck of suits that are named, not numbered (a rule set's card_names say them
# when it has them).
TWO_COLOUR = {"club": N_("club"), "heart": N_("heart")}  # templates/cards.yaml's two-colour cards
RANKS = {"ace": N_("ace"), "jack": N_("jack"), "queen": N_("queen"), "king": N_("king"), "eight": N_("eight")}


@dataclass
class CardLegend:
    """The printed legend (``key``: the colours; ``cards``: an example per kind of game card;
    ``helpers``: the helper cards) and every code it explains, with its words."""

    key: str = ""
    cards: list[str] = field(default_factory=list)
    helpers: list[str] = field(default_factory=list)
    codes: dict[str, str] = field(default_factory=dict)

    @property
    def lines(self) -> list[tuple[str, str]]:
        """The legend as printed, (lead, text): the game's cards, then the helper cards."""
        out = []
        game = " ".join(p for p in (self.key, _("; ").join(self.cards) + _(".") if self.cards else "") if p)
        if game:
            out.append((_("Card codes."), game))
        if self.helpers:
            out.append((_("Helper cards."), _("; ").join(self.helpers) + _(".")))
        return out

    def explains(self, code: str) -> str | None:
        """What ``code`` means by this legend (None: the legend does not explain it)."""
        return self.codes.get(code)

    def to_json(self) -> dict[str, object]:
        return {"lines": [f"{lead} {text}" for lead, text in self.lines], "codes": self.codes}


@dataclass(frozen=True)
class _Kind:
    """One kind of game card (a number card of a colour, a skip, a wild...)."""

    kind: str
    coloured: bool


def card_words(rules: GameRules | None, sym: Symbol) -> str:
    """A game card in a player's words: ``red 8``, ``green draw two``, ``wild draw four``,
    ``jack of spades``, ``the double 4``, ``the tile 3 and 5``."""
    a = sym.attrs
    if "low" in a and "high" in a:  # a domino tile: its two halves
        if a["low"] == a["high"]:
            return _("the double {n} ({n} pips on both halves)").format(n=a["low"])
        return _("the tile with {low} and {high} pips").format(low=a["low"], high=a["high"])
    colours = _colours(rules)
    what = _kind_words(rules, a)
    colour = colours.get(str(a.get("color")))
    if colour is None:
        return what
    name = colour_word(str(colour.get("name", a.get("color"))))
    if _word(rules) == "suit":
        return _("{kind} of {suit}").format(kind=what, suit=name)
    return _("{colour} {kind}").format(colour=name, kind=what)


def colour_word(name: str) -> str:
    """A colour's (or suit's) name as the card faces say it (templates/cards.yaml's ``Red``), in the
    active language; in English as the rule set writes it (``red``)."""
    titled = name[:1].upper() + name[1:]
    said = _(titled)  # cards.yaml's names are in the catalogue
    return name if said == titled else said


def _word(rules: GameRules | None) -> str:
    return str(getattr(rules, "word", "") or "colour")


def _colours(rules: GameRules | None) -> Mapping[str, Mapping[str, object]]:
    """The rule set's colours (or suits) by name, each with its name, letter and sign; none for
    a kind without colours."""
    colours = getattr(rules, "colors", None)
    return colours if isinstance(colours, dict) else {}


def _kind_words(rules: GameRules | None, attrs: Mapping[str, object]) -> str:
    """A card's kind in words: its number for a number card, else the rule set's name for the kind
    without its bracketed sign (``skip (⊘)`` -> ``skip``), else the kind itself."""
    kind = str(attrs.get("kind", ""))
    if attrs.get("value") is not None and kind == "number":
        return str(attrs["value"])
    names = getattr(rules, "card_names", None) or {}
    if kind not in names and kind in RANKS:  # a deck of suits without the rule set's words
        return _(RANKS[kind])
    said = spec_text(str(names[kind])) if kind in names else kind  # the rule set's words: its overlay
    return PARENTHESIS.sub("", said).replace("_", " ").strip()


def _deck(rules: GameRules | None) -> list[Symbol]:
    deck = getattr(rules, "deck", None)
    cards = deck() if callable(deck) else []
    return list({s.name: s for s in cards}.values())


def _colour_key(
    rules: GameRules | None, cards: Sequence[Symbol]
) -> tuple[str, Callable[[str, str], str]] | None:
    """How a coloured card's code is made, when every coloured card follows one pattern: the
    colour's letter before its face (``R`` + ``8``) or its sign after it (``8`` + ``♥``). Returns
    the printed key and a function (colour, face) -> code; None when the codes follow no pattern."""
    colours = _colours(rules)
    coloured = [s for s in cards if str(s.attrs.get("color")) in colours]
    if not coloured:
        return None

    def before(c: str, face: str) -> str:
        return f"{colours[c].get('letter', '')}{face}"

    def after(c: str, face: str) -> str:
        return f"{face}{colours[c].get('symbol', '')}"

    word = _word(rules)
    for make, where, sign in ((before, "first letter", "letter"), (after, "sign at the end", "symbol")):
        if all(s.glyph == make(str(s.attrs["color"]), str(s.attrs.get("face"))) for s in coloured):
            used = list(dict.fromkeys(str(s.attrs["color"]) for s in coloured))
            parts = [
                f"{colours[c].get(sign, '')} {colour_word(str(colours[c].get('name', c)))}" for c in used
            ]
            return _key_sentence(where, word).format(parts=_(", ").join(parts)), make
    return None


def _key_sentence(where: str, word: str) -> str:
    """``The first letter is the colour: {parts}.`` (or the sign at the end, the suit)."""
    if (where, word) == ("first letter", "colour"):
        return _("The first letter is the colour: {parts}.")
    if (where, word) == ("sign at the end", "colour"):
        return _("The sign at the end is the colour: {parts}.")
    if (where, word) == ("first letter", "suit"):
        return _("The first letter is the suit: {parts}.")
    if (where, word) == ("sign at the end", "suit"):
        return _("The sign at the end is the suit: {parts}.")
    return f"The {where} is the {word}: {{parts}}."


def game_card_legend(rules: GameRules | None, shown: Iterable[str] = ()) -> CardLegend:
    """The game cards' part of the legend: the colour key and one example per kind of card, an
    example shown in the booklet (``shown``: card names) where there is one."""
    legend = CardLegend()
    cards = _deck(rules)
    if not cards:
        return legend
    colours = _colours(rules)
    order: dict[str, int] = {}
    for name in shown:
        order.setdefault(name, len(order))
    key = _colour_key(rules, cards)
    kinds: dict[_Kind, list[Symbol]] = {}
    for s in cards:
        kinds.setdefault(_Kind(str(s.attrs.get("kind")), str(s.attrs.get("color")) in colours), []).append(s)
    if key is not None:
        legend.key = key[0]
    for kind, members in kinds.items():
        pick = min(members, key=lambda s: (order.get(s.name, len(order)), members.index(s)))
        if kind.kind == "tile":  # a tile's code is its two halves: one example, then a double
            doubles = [s for s in members if s.attrs.get("double")]
            plains = [s for s in members if not s.attrs.get("double")] or members
            plain = min(plains, key=lambda s: (order.get(s.name, len(order)), members.index(s)))
            double = min(
                doubles, key=lambda s: (order.get(s.name, len(order)), members.index(s)), default=None
            )
            legend.cards.append(f"{plain.glyph} = {card_words(rules, plain)}" + _(" (its two halves)"))
            if double is not None:
                legend.cards.append(f"{double.glyph} = {card_words(rules, double)}")
            legend.codes.update({s.glyph: card_words(rules, s) for s in members})
            continue
        legend.cards.append(f"{pick.glyph} = {card_words(rules, pick)}")
        if kind.coloured and key is not None:  # the key decodes every colour of this kind
            legend.codes.update({s.glyph: card_words(rules, s) for s in members})
        else:
            legend.codes[pick.glyph] = card_words(rules, pick)
            if not kind.coloured:  # one code for the kind: all its cards read alike
                legend.codes.update({s.glyph: card_words(rules, s) for s in members})
    return legend


def helper_legend(faces: Sequence[Face], words: dict[str, str], owners: Sequence[str]) -> CardLegend:
    """The helper cards' part: each kind of helper card the pictures show, in ``words``
    (``templates/booklet.yaml``'s ``legend:``), with every code of its family it explains."""
    legend = CardLegend()
    by_kind: dict[str, list[Face]] = {}
    for f in faces:
        by_kind.setdefault(f.kind, []).append(f)
    thetas = sorted(by_kind.get("theta", []), key=lambda f: int(f.key[5:]))
    if thetas and owners:
        parts = [f"θ{i} {seat_name(o)}" for i, o in enumerate(owners, 1)]
        legend.helpers.append(words["theta"].format(owners=listing(parts)))
        for i, o in enumerate(owners, 1):
            legend.codes[f"θ{i}"] = _("the owner card of {owner}").format(owner=seat_name(o))
    markers = by_kind.get("marker", [])
    if markers:
        codes = [f.title for f in sorted(markers, key=lambda f: f.key)]
        legend.helpers.append(words["marker"].format(codes=_(", ").join(codes)))
        legend.codes.update({c: "a bit card" for c in codes})
    if by_kind.get("arrow"):  # one printed card, two faces: ▲ pointing away (yes), ▼ at you (no)
        legend.helpers.append(words["arrow"])
        legend.codes.update({"▲": "an arrow card pointing up: yes", "▼": "an arrow card pointing down: no"})
    candidates = sorted((f for f in by_kind.get("plain", []) if f.title.startswith("#")), key=lambda f: f.key)
    if candidates:  # a lottery's candidates drawn as placeholders: #1, #2, ...
        legend.helpers.append(words["candidate"])
        legend.codes.update({f.title: f"candidate {f.title[1:]} of a lottery" for f in candidates})
    labels = [f for f in by_kind.get("label", []) if f.key.rstrip("0123456789") != f.key]
    if labels:
        sign = labels[0].title.rstrip("0123456789")
        legend.helpers.append(words["label"].format(sign=sign))
        legend.codes.update(
            {f.title: f"label card {f.key[len(f.key.rstrip('0123456789')) :]}" for f in labels}
        )
    stops = [f for f in by_kind.get("label", []) if f.key.rstrip("0123456789") == f.key]
    for f in stops:
        legend.helpers.append(words["stop"].format(code=f.title))
        legend.codes[f.title] = "the stop card"
    two = sorted(by_kind.get("two_colour", []), key=lambda f: f.key)
    if two:
        named = {f.key: _(TWO_COLOUR[f.key]) if f.key in TWO_COLOUR else f.key for f in two}
        parts = [
            _("{glyph} = {name} card").format(glyph=f.title, name=named[f.key]) for f in two
        ]  # not "= a"
        legend.helpers.append(words["two_colour"].format(cards=listing(parts)))
        legend.codes.update({f.title: f"{f.key} card" for f in two})
    return legend


def card_legend(
    rules: GameRules | None,
    shown: Sequence[str],
    face: Callable[[str], Face],
    owners: Sequence[str],
    words: dict[str, str],
) -> CardLegend | None:
    """The whole legend of a game booklet whose pictures show the cards ``shown`` (names);
    None when there is nothing to explain."""
    game = game_card_legend(rules, shown)
    game_codes = set(game.codes)
    helper_faces = [face(n) for n in dict.fromkeys(shown)]
    helper_faces = [
        f for f in helper_faces if f.kind != "deck" and f.kind != "tile" and f.title not in game_codes
    ]
    helpers = helper_legend(helper_faces, words, owners)
    legend = CardLegend(game.key, game.cards, helpers.helpers, {**game.codes, **helpers.codes})
    return legend if legend.lines else None


def shown_cards(diagrams: Iterable[Diagram]) -> list[str]:
    """Every card name the booklet's pictures show (face up, or as the grey code under a
    face-down card), and the cards taken from and put back to the spares, in order."""
    out: list[str] = []
    for d in diagrams:
        for reg in d.regions:
            for row in reg.cells:
                out += [c.symbol for c in row if c is not None and c.symbol]
        out += list(d.taken) + list(d.returned)
    return list(dict.fromkeys(out))


__all__ = ["CardLegend", "card_legend", "card_words", "game_card_legend", "helper_legend", "shown_cards"]
