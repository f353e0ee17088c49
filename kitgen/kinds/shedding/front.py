"""The first chapters of a shedding game's booklet: the kit, set-up, rules, a virtual turn."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from reportlab.platypus import Flowable, PageBreak, Spacer

from ...booklet import Booklet
from ...typesetting import CardPicture, Writer
from ...units import mm
from ..virtual import whose_owner_cards


def front_matter(w: Writer, b: Booklet) -> list[Flowable]:
    return (
        w.kit_contents()
        + setup(w, b)
        + rules(w, b)
        + w.table_layout()
        + virtual_turn(w, b)
        + w.first_turn_checklist()
    )


def setup(w: Writer, b: Booklet) -> list[Flowable]:
    rules = b.rules
    assert rules is not None
    out: list[Flowable] = [PageBreak(), w.heading("Setting up the table")]
    values = {
        "players": b.players,
        "humans": b.players - b.virtual,
        "virtual": b.virtual,
        "hand_size": rules.hand_size_for(b.players),
        "colour": rules.word,
    }
    out.append(w.para(w.st.words["setup_intro"].format(**values)))
    rows: list[list[Any]] = [["θ card", "Owner", "Where"]]
    for i, owner in enumerate(b.owners, 1):
        where = (
            "a place at the table with nobody in it; its hand lies face down in a row"
            if owner.startswith("Virtual")
            else "a player's place; they hold their hand as usual"
            if owner.startswith("Human")
            else "the middle of the table"
        )
        face = b.face(f"theta{i}")
        rows.append([CardPicture(face, mm(9), b.ink_saver), f"θ{i}: {owner}", where])
    out.append(w.table(rows, [mm(14), mm(40), w.width - mm(54)]))
    out.append(Spacer(1, mm(2)))
    for n, text in enumerate(w.st.lists["setup_steps"], 1):
        out.append(w.para(f"{n}. {text.format(**values)}", spec=True))
    out.append(w.box([w.rich("Who does what.", w.st.words["shuffle_duty"])]))
    return out


def rules(w: Writer, b: Booklet) -> list[Flowable]:
    rules = b.rules
    assert rules is not None
    out: list[Flowable] = [PageBreak(), w.heading(f"The rules: {rules.title}")]
    if rules.source.get("cite"):
        out.append(w.para(f"Source: {rules.source['cite']}.", w.small))
    out.append(w.para(rules.summary))
    for text in rules.how_to_play:
        out.append(w.para(text))
    out.append(w.rich("Playing a card.", rules.valid_doc))
    effect_words = {
        "skip": "the next player misses a turn",
        "reverse": "the direction of play changes"
        + (" (with two players it acts as a skip)" if rules.two_player_reverse == "skip" else ""),
        "choose_color": f"the player names the {rules.word} in force (a virtual player: shuffle the "
        f"{rules.word} choice cards face down and turn one over)",
        "redraw": "put it back into the draw pile and turn over another",
    }

    def words(effects: Sequence[Any]) -> str:
        parts = []
        for e in effects:
            if e.kind == "draw":
                parts.append(f"the next player draws {e.count} cards")
            else:
                parts.append(effect_words.get(e.kind, e.kind))
        return "; ".join(parts)

    def name(kind: str) -> str:
        return str(rules.card_names.get(kind, kind))

    rows: list[list[Any]] = [["", "Card", "When it is played"]]
    for kind, effects in rules.effects.items():
        example = next((ct for ct in rules.cards.values() if ct.kind == kind), None)
        pic: Any = CardPicture(b.face(example.name), mm(8), b.ink_saver) if example else ""
        rows.append([pic, name(kind), words(effects)])
    out.append(w.table(rows, [mm(14), mm(36), w.width - mm(50)]))
    out.append(Spacer(1, mm(2)))
    for kind, effects in rules.first_card.items():
        article = "an" if name(kind)[:1] in "aeiou" else "a"
        out.append(w.para(f"If the first card turned over is {article} {name(kind)}: {words(effects)}."))
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
    out.append(w.rich("Drawing.", drawing))
    if rules.target_score:
        out.append(w.para(f"The first player to reach {rules.target_score} points wins the game."))
    if rules.virtual_doc:
        out.append(w.para(rules.virtual_doc))
    if rules.notes:
        out.append(w.para(rules.notes))
    return out


def virtual_turn(w: Writer, b: Booklet) -> list[Flowable]:
    rules = b.rules
    assert rules is not None and b.sections
    top = b.sections[0]
    out: list[Flowable] = [PageBreak(), w.heading("A virtual player's turn")]
    if top.overview:
        out.append(w.para(top.overview, spec=True))
    n = rules.draw_count
    values = {
        "whose": whose_owner_cards(b.owners, b.virtual),
        "protocol": re.sub(r"\s*\(.*\)$", "", top.title).lower(),
        "draw_cards": f"{n} card" if n == 1 else f"{n} cards",
        "colour": rules.word,
        "wild": rules.choosing,
    }
    steps = [t.format(**values) for t in w.st.lists["virtual_steps"]]
    if rules.play_drawn == "if_valid" and len(steps) >= 3:
        again = rules.draw_until > 1
        word = "virtual_draw_again" if again else "virtual_play_drawn"
        if rules.virtual_draw == "keep":
            word = "virtual_keep_drawn"
        text = w.st.words[word]
        steps[2] += " " + text.format(limit=rules.draw_until)
    for n, text in enumerate(steps, 1):
        out.append(w.para(f"{n}. {text}", spec=True))
    weights = (b.example or {}).get("weights")
    if weights:
        out.append(w.box([w.rich("A stronger virtual player.", stronger_player(rules, weights))]))
    if b.cost is not None:
        lines = b.cost.sentences()
        out.append(
            w.box(
                [w.rich("How long a virtual turn takes.", lines[0])] + [w.para(t, w.small) for t in lines[1:]]
            )
        )
    return out


CLASS_WORDS = {"action": "action cards", "number": "number cards", "wild": "wild cards"}


def stronger_player(rules: Any, weights: dict[str, int]) -> str:
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
