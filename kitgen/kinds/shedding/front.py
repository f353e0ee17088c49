"""The first chapters of a shedding game's booklet: the kit, set-up, rules, a virtual turn."""

from __future__ import annotations

import re
from collections.abc import Sequence

from reference_engine.api import RuleSet, SheddingEffect

from ...booklet.book import Booklet
from ...booklet.frontchapters import rules_head, setting_up, setup_values, turn_head
from ...booklet.frontmatter import Box, Cell, FrontSection, Gap, Grid, Picture, Text
from ...booklet.parts import booklet_style
from ...lang.catalogue import _
from ...lang.overlay import spec_text
from ..virtual import whose_owner_cards


def helper_words(b: Booklet) -> dict[str, str]:
    """The set-up's spare piles as the kit holds them: its bit cards (α/β pairs, up-down arrow
    cards or both, from the faces its protocols use) and, when it has envelopes, where they go."""
    keys = {i.key for i in b.bom.items} if b.bom is not None else None
    if keys is not None:  # a kit: what its bill of materials lists
        arrows, pairs, envelopes = "arrow" in keys, "alpha" in keys, "envelope" in keys
    else:  # a booklet alone: the faces its protocols use
        arrows, pairs = "up" in b.faces, "alpha" in b.faces or "up" not in b.faces
        envelopes = pairs
    bits = [_("α cards, β cards")] if pairs or not arrows else []
    bits += [_("arrow cards (all pointing the same way)")] if arrows else []
    keep = _("; keep the identical envelopes with them") if envelopes else ""
    return {"bits": ", ".join(bits), "keep": keep}


def setup_page(b: Booklet) -> FrontSection:
    rules = b.rules_as(RuleSet)
    values = setup_values(b) | {"hand_size": rules.hand_size_for(b.players), "colour": rules.word}
    values |= helper_words(b)
    return setting_up(b, values, [text.format(**values) for text in booklet_style().lists["setup_steps"]])


def rules_page(b: Booklet) -> FrontSection:
    rules = b.rules_as(RuleSet)
    out = rules_head(b)
    out.append(Text(rules.valid_doc, lead="Playing a card."))
    effect_words = {
        "skip": "the next player misses a turn",
        "reverse": "the direction of play changes"
        + (" (with two players it acts as a skip)" if rules.two_player_reverse == "skip" else ""),
        "choose_color": f"the player names the {rules.word} in force (a virtual player: shuffle the "
        f"{rules.word} choice cards face down and turn one over)",
        "redraw": "put it back into the draw pile and turn over another",
    }

    def words(effects: Sequence[SheddingEffect]) -> str:
        parts = []
        for e in effects:
            if e.kind == "draw":
                parts.append(f"the next player draws {e.count} cards")
            else:
                parts.append(effect_words.get(e.kind, e.kind))
        return "; ".join(parts)

    def name(kind: str) -> str:
        return spec_text(str(rules.card_names.get(kind, kind)))

    rows: list[tuple[Cell, ...]] = [("", _("Card"), _("When it is played"))]
    for kind, effects in rules.effects.items():
        example = next((ct for ct in rules.cards.values() if ct.kind == kind), None)
        pic: Cell = Picture("cards", (b.face(example.name),), 8) if example else ""
        rows.append((pic, name(kind), words(effects)))
    out += [Grid(tuple(rows), (14, 36)), Gap(2)]
    for kind, effects in rules.first_card.items():
        article = "an" if name(kind)[:1] in "aeiou" else "a"
        out.append(Text(f"If the first card turned over is {article} {name(kind)}: {words(effects)}."))
    drawn = (
        "if it may be played, the player may play it at once"
        if rules.play_drawn == "if_valid"
        else "the turn ends"
    )
    if rules.draw_until > 1:
        drawing = (
            "A player who does not play draws one card at a time until one may be played, at most "
            f"{rules.draw_until} cards; {drawn}."
        )
    else:
        drawing = (
            f"A player who does not play draws {rules.draw_count} "
            f"card{'s' if rules.draw_count != 1 else ''}; {drawn}."
        )
    out.append(Text(drawing, lead=_("Drawing.")))
    if rules.target_score:
        out.append(Text(f"The first player to reach {rules.target_score} points wins the game."))
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
        "draw_cards": f"{n} card" if n == 1 else f"{n} cards",
        "colour": rules.word,
        "wild": rules.choosing,
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
        out.append(Box((Text(stronger_player(rules, weights), lead="A stronger virtual player."),)))
    if b.cost is not None:
        lines = b.cost.sentences()
        box = [Text(lines[0], lead="How long a virtual turn takes.")] + [
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


CLASS_WORDS = {"action": "action cards", "number": "number cards", "wild": "wild cards"}


def stronger_player(rules: RuleSet, weights: dict[str, int]) -> str:
    """What the weights of a weighted virtual player mean, in a family's words."""

    def name(key: str) -> str:
        return str(CLASS_WORDS.get(key) or rules.card_names.get(key, key))

    named = ", ".join(f"{name(k)} {v}" for k, v in sorted(weights.items(), key=lambda kv: (-kv[1], kv[0])))
    return (
        "In this kit the virtual players do not choose blindly among the cards they may play: each kind "
        f"of card has a weight ({named}; any other card 1), and a card with weight 3 is three times as "
        "likely to be played as a card with weight 1. Everyone knows the weights; still nobody learns "
        "anything about a virtual player's hand but the card it plays. Each card on the table gets as "
        "many tickets as the largest weight: a card that may be played has as many live tickets as its "
        "weight, and the lottery draws one live ticket."
    )
