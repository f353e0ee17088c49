"""The first chapters game kits share, as data (:mod:`kitgen.booklet.frontmatter`): what is in the kit,
setting up the table, the table at a virtual turn, the first-turn checklist. A kind's own
chapters (its rules, its turn) are made of the same blocks by the kind."""

from __future__ import annotations

from collections.abc import Sequence

from ..core.words import plural
from ..lang.catalogue import _, word_space
from ..lang.overlay import spec_text
from ..lang.seats import seat_name
from ..lang.wrap import breaks_between_characters
from .book import Booklet
from .frontmatter import Block, Box, Checklist, FrontSection, Gap, Grid, Picture, Text, numbered, step_key
from .parts import booklet_style


def kit_contents(b: Booklet) -> list[FrontSection]:
    """What is in the kit: the bill of materials with a card of each item (a kit's first page)."""
    bom = b.bom
    if bom is None:
        return []
    rows: list[tuple[str | Picture, ...]] = [("", _("What"), _("How many"), _("Why"))]
    for item in bom.items:
        pic: str | Picture = Picture("cards", (item.faces[0],), 9) if item.faces else ""
        # The count with its spares said apart: the reason gives what a table uses (Gakmoro's
        # "7 in each of the 18 bundles (126), and 30 loose" stood beside 172, with no word of 16 spares).
        spare = _(" ({needed} + {spares} spares)").format(needed=item.needed, spares=item.spares)
        rows.append((pic, item.name, f"{item.count}{spare if item.spares else ''}", item.why))
    # Where lines break between characters, a count with its spares would break inside a word
    # (予|備) in the English width: the count's column takes 12 mm of the item's.
    widths = (14, 33, 30) if breaks_between_characters() else (14, 45, 18)
    blocks: list[Block] = [Grid(tuple(rows), widths, spec=True), Gap(3)]
    blocks += [Text(n, style="small", spec=True) for n in bom.notes]
    if b.cost is not None:
        blocks.append(Text(b.cost.sentences()[0], style="small"))
    return [FrontSection(_("What is in the kit"), tuple(blocks), new_page=False)]


def owners_table(b: Booklet) -> Grid:
    """Each seat's θ card, its owner and where it lies on the table."""
    rows: list[tuple[str | Picture, ...]] = [(_("θ card"), _("Owner"), _("Where"))]
    for i, owner in enumerate(b.owners, 1):
        where = (
            _("a place at the table with nobody in it; its hand lies face down in a row")
            if owner.startswith("Virtual")
            else _("a player's place; they hold their hand as usual")
            if owner.startswith("Human")
            else _("the middle of the table")
        )
        rows.append((Picture("cards", (b.face(f"theta{i}"),), 9), f"θ{i}: {seat_name(owner)}", where))
    return Grid(tuple(rows), (14, 40))


def setup_values(b: Booklet, turn: str | None = None) -> dict[str, object]:
    """The numbers the set-up's words name: players, people, virtual players; who sits at the
    table (an operator when every player is virtual) and ``turn``, what the virtual player's
    protocol does (default: the card selection protocol's words)."""
    words = booklet_style().words
    operator = b.virtual == b.players
    values: dict[str, object] = {
        "players": b.players,
        "humans": plural(b.players - b.virtual, "person"),
        "virtual": b.virtual,
    }
    seating = words["setup_seating_operator" if operator else "setup_seating"].format(**values)
    who = words["setup_who_operator" if operator else "setup_who"]
    return values | {"seating": seating, "who": who, "turn": turn or words["setup_turn"]}


def setting_up(b: Booklet, values: dict[str, object], steps: Sequence[str]) -> FrontSection:
    """Setting up the table: who sits where (θ cards), the steps, who does what; a kit whose cards
    live in sleeves says how to sleeve them, with a picture of one sleeve and what it holds."""
    words = booklet_style().words
    blocks: list[Block] = [Text(words["setup_intro"].format(**values)), owners_table(b), Gap(2)]
    sleeved = b.bom is not None and any(i.key == "sleeve" for i in b.bom.items)
    steps = list(steps)
    if sleeved:
        steps = [
            s.replace("keep the identical envelopes with them", "keep the two envelopes with them")
            for s in steps
        ]
        steps.insert(len(steps) - 1, words["setup_sleeves"])
    blocks += numbered(steps)
    if sleeved and b.bom is not None:
        deck = next((i for i in b.bom.items if i.key == "deck" and i.faces), None)
        if deck is not None:  # a store-bought deck prints no faces: the steps' words say it all
            faces = (b.face("theta2"), deck.faces[0])
            blocks += [Picture("sleeve", faces), Text(words["setup_sleeve_picture"], style="small")]
    duty = words["sleeve_duty"] if sleeved else words["shuffle_duty"]
    blocks.append(Box((Text(duty, lead=_("Who does what.")),)))
    return FrontSection(_("Setting up the table"), tuple(blocks))


def rules_head(b: Booklet, summary: bool = True) -> list[Block]:
    """The rules chapter's first lines: the source, the summary and how to play."""
    rules = b.game_rules
    out: list[Block] = []
    if rules.source.get("cite"):
        out.append(Text(_("Source: {cite}.").format(cite=spec_text(rules.source["cite"])), style="small"))
    if summary:
        out.append(Text(spec_text(rules.summary)))
    out += [Text(spec_text(t)) for t in getattr(rules, "how_to_play", [])]
    return out


def turn_head(b: Booklet, steps: Sequence[str]) -> list[Block]:
    """A virtual turn's chapter: the protocol's overview, then its numbered steps."""
    top = b.sections[0]
    out: list[Block] = [Text(top.overview, spec=True)] if top.overview else []
    return out + numbered(list(steps))


def table_layout(b: Booklet) -> list[FrontSection]:
    """A game kit's whole table at a virtual turn, from above and to scale (:mod:`kitgen.booklet.tableplan`),
    with the sizes of the kit's own figures; nothing without virtual players or figures."""
    space = b.table_space()
    if b.table_plan() is None or space is None:
        return []
    words = booklet_style().words
    of = "" if b.virtual else "_round"  # a game without virtual players: a round's table
    blocks: tuple[Block, ...] = (
        Text(words["table_intro" + of]),
        Gap(2),
        Picture("table_plan"),
        Gap(3),
        Text(words["table_middle" + of], style="small"),
        Text(space[0].sentence(space[1]), style="small"),
    )
    return [FrontSection(words["table_title" + of], blocks)]


def cover_blocks(b: Booklet) -> list[Block]:
    """The cover's lower half of a game kit: what a virtual turn and a game take at the table and
    the space it needs (the kit's figures, :class:`kitgen.cost.kitcost.KitCost`), and where to start
    reading, with pages. Nothing for a booklet without the kit's chapters."""
    if b.front is None:
        return []
    words = booklet_style().words
    out: list[Block] = [Gap(5)]
    rows: list[Text] = []
    if b.cost is not None:  # the time figure's words come from the figures' one function
        rows.append(Text(b.cost.sentences()[0], lead=words["cover_time"], style="small"))
    space = b.table_space()
    if space is not None:
        rows.append(Text(space[0].sentence(space[1]), style="small"))
    if rows:
        out += [Box(tuple(rows)), Gap(4)]
    titles = [c.title for c in b.front]
    contents = _("What is in the kit")
    start = [t for t in titles if t != contents][:1] + [t for t in titles if t == words["checklist_title"]]
    steps = [
        _("{title}: page {page}").format(title=t, page=page_of(t)) for t in [contents, *start] if t in titles
    ]
    if steps:
        out.append(Text(_("; ").join(steps) + _("."), lead=words["cover_start"]))
    return out


def page_of(title: str) -> str:
    """``{page:title:TITLE}``: the page of the heading ``title``, filled in by the PDF."""
    return f"{{page:title:{title}}}"


def first_turn_checklist(b: Booklet) -> list[FrontSection]:
    """One page to tick through at the first virtual turn: numbered boxes in a player's words,
    each with the page of the full instructions."""
    if not b.virtual or not b.sections:
        return []
    words = booklet_style().words
    top = b.sections[0]
    items: list[str] = [
        words["checklist_setup"].format(page=page_of(_("Setting up the table"))),
        words["checklist_read"].format(page=page_of(_("A virtual player's turn"))),
    ]
    space = b.table_space()
    if space is not None:
        items.append(
            words["checklist_space"].format(
                width=f"{space[0].width_cm:.0f}",
                depth=f"{space[0].depth_cm:.0f}",
                page=page_of(words["table_title"]),
            )
        )
    items.append(words["checklist_start"].format(title=top.title, page=page_of(top.title)))
    called = {sec.title: sec for sec in b.sections[1:]}
    for block in top.steps:
        text = _("Step {n}: {brief}").format(n=block.number, brief=block.brief)
        also = [t for t in called if any(t in n for n in block.notes)]
        for t in also:
            text += word_space() + _("({title}: page {page})").format(title=t, page=page_of(t))
        if block.checks:
            text += word_space() + words["checklist_check"]
        page = _("(page {page})").format(page=f"{{page:{step_key(block.protocol, block.number)}}}")
        items.append(text + word_space() + page)
    items.append(words["checklist_play"].format(page=page_of(_("A virtual player's turn"))))
    items.append(words["checklist_back"])
    first_check = next((blk for blk in top.steps if blk.checks), None)
    blocks: list[Block] = [Text(words["checklist_intro"], style="small"), Checklist(tuple(items))]
    if first_check is not None:
        warn = Text(first_check.if_wrong, lead=_("If a check fails:"), style="small", spec=True)
        blocks += [Gap(2), Box((warn,), "warning")]
    return [FrontSection(words["checklist_title"], tuple(blocks), own_page=True)]


__all__ = [
    "cover_blocks",
    "first_turn_checklist",
    "kit_contents",
    "owners_table",
    "page_of",
    "rules_head",
    "setting_up",
    "setup_values",
    "table_layout",
    "turn_head",
]
