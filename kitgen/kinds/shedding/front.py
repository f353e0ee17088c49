"""The first chapters of a shedding game's booklet: the kit, set-up, rules, a virtual turn."""

from __future__ import annotations

import re
from collections.abc import Sequence

from reference_engine.api import RuleSet, SheddingEffect

from ...booklet.book import Booklet
from ...booklet.frontchapters import rules_head, setting_up, setup_values, turn_head
from ...booklet.frontmatter import Box, Cell, FrontSection, Gap, Grid, Picture, Text
from ...booklet.parts import booklet_style
from ...booklet.sparepiles import helper_words
from ...core.words import plural
from ...lang.catalogue import N_, _, ngettext
from ...lang.overlay import spec_text
from ..virtual import whose_owner_cards

# What a deck calls the attribute of ``card.color`` in sentences (rulesets/decks: ``word:``), and
# what a booklet calls a card that names it (a rule set's ``booklet: choosing:`` is translated in
# its overlay; this is the default).
DECK_WORDS = {"colour": N_("colour"), "suit": N_("suit")}
WILD_CARD = N_("a wild card")


def deck_word(rules: RuleSet) -> str:
    """``colour`` (or ``suit``) in the active language."""
    return _(DECK_WORDS[rules.word]) if rules.word in DECK_WORDS else rules.word


def wild_words(rules: RuleSet) -> str:
    """``a wild card`` (or the rule set's ``choosing``: ``an eight``) in the active language."""
    return _(WILD_CARD) if rules.choosing == WILD_CARD else spec_text(rules.choosing)


def setup_page(b: Booklet) -> FrontSection:
    rules = b.rules_as(RuleSet)
    values = setup_values(b) | {"hand_size": rules.hand_size_for(b.players), "colour": deck_word(rules)}
    values |= helper_words(b)
    return setting_up(b, values, [text.format(**values) for text in booklet_style().lists["setup_steps"]])


def effect_words(rules: RuleSet, effects: Sequence[SheddingEffect]) -> str:
    """What playing a card does, in words: ``the next player draws 2 cards; the next player
    misses a turn``."""
    word = deck_word(rules)
    said = {
        "skip": _("the next player misses a turn"),
        "reverse": _("the direction of play changes")
        + (_(" (with two players it acts as a skip)") if rules.two_player_reverse == "skip" else ""),
        "choose_color": _(
            "the player names the {word} in force (a virtual player: shuffle the {word} choice cards "
            "face down and turn one over)"
        ).format(word=word),
        "redraw": _("put it back into the draw pile and turn over another"),
    }
    parts = []
    for e in effects:
        if e.kind == "draw":
            parts.append(_("the next player draws {n} cards").format(n=e.count))
        else:
            parts.append(said.get(e.kind, e.kind))
    # i18n: between two effects of one card ("the next player draws 2 cards; the next player misses a turn")
    return _("; ").join(parts)


def rules_page(b: Booklet) -> FrontSection:
    rules = b.rules_as(RuleSet)
    out = rules_head(b)
    out.append(Text(spec_text(rules.valid_doc), lead=_("Playing a card.")))

    def name(kind: str) -> str:
        return spec_text(str(rules.card_names.get(kind, kind)))

    rows: list[tuple[Cell, ...]] = [("", _("Card"), _("When it is played"))]
    for kind, effects in rules.effects.items():
        example = next((ct for ct in rules.cards.values() if ct.kind == kind), None)
        pic: Cell = Picture("cards", (b.face(example.name),), 8) if example else ""
        rows.append((pic, name(kind), effect_words(rules, effects)))
    out += [Grid(tuple(rows), (14, 36)), Gap(2)]
    for kind, effects in rules.first_card.items():
        first = (
            _("If the first card turned over is an {card}: {effects}.")
            if rules.card_names.get(kind, kind)[:1] in "aeiou"
            else _("If the first card turned over is a {card}: {effects}.")
        )
        out.append(Text(first.format(card=name(kind), effects=effect_words(rules, effects))))
    drawn = (
        _("if it may be played, the player may play it at once")
        if rules.play_drawn == "if_valid"
        else _("the turn ends")
    )
    if rules.draw_until > 1:
        drawing = _(
            "A player who does not play draws one card at a time until one may be played, at most "
            "{n} cards; {drawn}."
        ).format(n=rules.draw_until, drawn=drawn)
    else:
        drawing = ngettext(
            "A player who does not play draws {n} card; {drawn}.",
            "A player who does not play draws {n} cards; {drawn}.",
            rules.draw_count,
        ).format(n=rules.draw_count, drawn=drawn)
    out.append(Text(drawing, lead=_("Drawing.")))
    if rules.target_score:
        out.append(
            Text(_("The first player to reach {n} points wins the game.").format(n=rules.target_score))
        )
    if rules.virtual_doc:
        out.append(Text(spec_text(rules.virtual_doc)))
    if rules.notes:
        out.append(Text(spec_text(rules.notes)))
    return FrontSection(_("The rules: {title}").format(title=spec_text(rules.title)), tuple(out))


def virtual_turn(b: Booklet) -> FrontSection:
    rules = b.rules_as(RuleSet)
    assert rules is not None and b.sections
    top = b.sections[0]
    style = booklet_style()
    n = rules.draw_count
    values = {
        "whose": whose_owner_cards(b.owners, b.virtual),
        "protocol": re.sub(r"\s*\(.*\)$", "", top.title).lower(),
        "draw_cards": plural(n, "card"),
        "colour": deck_word(rules),
        "wild": wild_words(rules),
    }
    steps = [t.format(**values) for t in style.lists["virtual_steps"]]
    if rules.play_drawn == "if_valid" and len(steps) >= 3:
        again = rules.draw_until > 1
        word = "virtual_draw_again" if again else "virtual_play_drawn"
        if rules.virtual_draw == "keep":
            word = "virtual_keep_drawn"
        elif not again and _draws_in_run(top.protocol):
            word = "virtual_draw_in_run"  # card-selection-draw: the draw is part of the run
        text = style.words[word]
        steps[2] += " " + text.format(limit=rules.draw_until)
    out = turn_head(b, steps)
    weights = b.example_weights()
    if weights:
        out.append(Box((Text(stronger_player(rules, weights), lead=_("A stronger virtual player.")),)))
    if b.cost is not None:
        lines = b.cost.sentences()
        box = [Text(lines[0], lead=_("How long a virtual turn takes."))] + [
            Text(t, style="small") for t in lines[1:]
        ]
        out.append(Box(tuple(box)))
    return FrontSection(_("A virtual player's turn"), tuple(out))


def _draws_in_run(protocol: str) -> bool:
    """Whether the protocol does the draw rule in its own run (a parameter ``draw``, as
    card-selection-draw): then the booklet says so instead of "run the protocol once more"."""
    from reference_engine.api import Library

    try:
        return "draw" in Library().protocol(protocol).params
    except Exception:  # a protocol the library cannot load says nothing here
        return False


CLASS_WORDS = {"action": N_("action cards"), "number": N_("number cards"), "wild": N_("wild cards")}


def stronger_player(rules: RuleSet, weights: dict[str, int]) -> str:
    """What the weights of a weighted virtual player mean, in a family's words."""

    def name(key: str) -> str:
        return _(CLASS_WORDS[key]) if key in CLASS_WORDS else spec_text(str(rules.card_names.get(key, key)))

    named = ", ".join(f"{name(k)} {v}" for k, v in sorted(weights.items(), key=lambda kv: (-kv[1], kv[0])))
    return _(
        "In this kit the virtual players do not choose blindly among the cards they may play: each kind "
        "of card has a weight ({named}; any other card 1), and a card with weight 3 is three times as "
        "likely to be played as a card with weight 1. Everyone knows the weights; still nobody learns "
        "anything about a virtual player's hand but the card it plays. Each card on the table gets as "
        "many tickets as the largest weight: a card that may be played has as many live tickets as its "
        "weight, and the lottery draws one live ticket."
    ).format(named=named)
