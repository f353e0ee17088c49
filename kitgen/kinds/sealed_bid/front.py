"""The first chapters of a sealed-bid game's booklet: the kit, bundles, rules, a round."""

from __future__ import annotations

from reference_engine.api import SealedBidRules

from ...booklet.book import Booklet
from ...booklet.frontchapters import kit_contents, rules_head, table_layout, turn_head
from ...booklet.frontmatter import Block, FrontSection, Gap, Picture, Text, numbered
from ...booklet.parts import booklet_style
from ...lang.catalogue import _
from ...lang.overlay import player_name, spec_text


def front_sections(b: Booklet) -> list[FrontSection]:
    return kit_contents(b) + [bundles(b), sealed_rules(b)] + table_layout(b) + [round_overview(b)]


def bundles(b: Booklet) -> FrontSection:
    rules = b.rules_as(SealedBidRules)
    style = booklet_style()
    stock = "cutout" if b.bom is None or b.bom.labels_cutout else "sticker"
    values = {
        "size": rules.bundle,
        "size_1": rules.bundle - 1,
        "count": len(rules.hand("dealerless")),
        "attach": style.words[f"label_attach_{stock}"],
        "detach": style.words[f"label_detach_{stock}"],
    }
    example = [b.face("club")] * rules.bundle
    example[3] = b.face("heart")
    blocks: list[Block] = [Text(spec_text(rules.dealerless_doc))]
    blocks += numbered([text.format(**values) for text in style.lists["bundle_steps"]])
    blocks += [
        Gap(2),
        Picture("cards", tuple(example), 10, 12),
        Text(_("The bundle of value 3, face up: the ♥ is at place 4 from the left."), style="small"),
    ]
    return FrontSection(_("Making the bundles"), tuple(blocks))


def sealed_rules(b: Booklet) -> FrontSection:
    rules = b.rules_as(SealedBidRules)
    blocks = rules_head(b, summary=False)
    blocks.append(Text(spec_text(rules.dealer_doc), lead=_("With a dealer.")))
    blocks.append(Text(spec_text(rules.dealerless_doc), lead=_("Without a dealer.")))
    return FrontSection(_("The rules: {title}").format(title=spec_text(rules.title)), tuple(blocks))


def round_overview(b: Booklet) -> FrontSection:
    rules = b.rules_as(SealedBidRules)
    blocks = turn_head(b, booklet_style().lists["round_steps"])
    blocks.append(
        Text(
            _("{first} and {second} in this booklet are the two players.").format(
                first=player_name(rules.names[0]), second=player_name(rules.names[1])
            ),
            style="small",
        )
    )
    return FrontSection(_("A round without a dealer"), tuple(blocks))
