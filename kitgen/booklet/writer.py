"""The writer: a booklet's chapters, steps and validation as a story of page elements."""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib.colors import Color, HexColor
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    KeepTogether,
    NextPageTemplate,
    PageBreak,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)
from reportlab.platypus.tableofcontents import TableOfContents

from ..core.claims import claims, meaning
from ..core.units import mm
from ..core.words import listing, plural, seating
from ..cost.tabletime import run_sentence
from ..lang.catalogue import _, after_lead
from ..paper.faces import FONT, FONT_BOLD, Cell, Face, pdf_table
from .book import Booklet
from .counts import counts_line, exact
from .diagram import DiagramFlowable, geometry
from .flowables import (
    CARD_RATIO,
    PAGE_REF,
    Anchor,
    CardFan,
    CardPicture,
    Kept,
    PageRefs,
    RefParagraph,
    TickBox,
    TitleBand,
    stacked_height,
)
from .frontchapters import cover_blocks
from .frontmatter import Block, Box, Checklist, FrontSection, Gap, Grid, Picture, Text, step_key
from .glossary import quantities_of
from .paragraphs import Heading, Styled, paragraph
from .parts import BookletStyle, Section, StepBlock
from .sleevepicture import SleeveFilling
from .tableplan import TablePlanFlowable
from .validation import engine_name, title_of, validation

HEAD_ROOM = mm(25)  # what a heading within a part needs below it: itself and three lines or table rows
PAD = 6  # the padding reportlab's frame keeps inside each of its sides, in points
# The share of a page a part needs left on it to open there (its heading, lead and first step).
PART_ROOM = 0.4
# A chapter's card pictures, smaller, so that a chapter running a little over its page fits on it.
PICTURE_SCALES = (0.9, 0.8, 0.7)


class Writer:
    def __init__(self, booklet: Booklet, style: BookletStyle, width: float, height: float | None = None):
        self.b = booklet
        self.st = style
        self.width = width
        # The tallest step picture: a taller table is drawn smaller, so it fits on a page with its step.
        self.diagram_height = 0.8 * height if height is not None else None
        ink = HexColor(style.colours["ink"])
        head = HexColor(style.colours["heading"])

        def ps(
            name: str,
            key: str,
            fontName: str = FONT,
            textColor: Color = ink,
            spaceBefore: float = 0,
            spaceAfter: float = 0,
            leftIndent: float = 0,
        ) -> ParagraphStyle:
            size, leading = style.text[key]
            return ParagraphStyle(
                name,
                fontName=fontName,
                fontSize=size,
                leading=leading,
                textColor=textColor,
                spaceBefore=spaceBefore,
                spaceAfter=spaceAfter,
                leftIndent=leftIndent,
            )

        self.body = ps("body", "body", spaceAfter=4)
        self.small = ps("small", "small", spaceAfter=2)
        self.title = ps("title", "title", fontName=FONT_BOLD, textColor=head, spaceAfter=10)
        self.h1 = ps("h1", "h1", fontName=FONT_BOLD, textColor=head, spaceBefore=4, spaceAfter=8)
        # A part that opens below another's end: its heading's space before (dropped at a page's top).
        self.h1_below = ps(
            "h1-below", "h1", fontName=FONT_BOLD, textColor=head, spaceBefore=4 + mm(6), spaceAfter=8
        )
        self.h2 = ps("h2", "h2", fontName=FONT_BOLD, textColor=head, spaceBefore=8, spaceAfter=4)
        self.step = ps("step", "body", spaceBefore=6, spaceAfter=3)
        self.sub = ps("sub", "body", leftIndent=mm(6), spaceBefore=6, spaceAfter=3)
        self.note = ps("note", "small", leftIndent=mm(4), textColor=HexColor("#333333"))
        self.cell = ps("cell", "small")
        self.cellb = ps("cellb", "small", fontName=FONT_BOLD)
        self.keys = 0
        self.refs = PageRefs()  # the pages of headings and steps, for the first-turn checklist
        self.titles: dict[str, str] = {}  # heading text -> its key
        geo, self.capacity = geometry(CARD_RATIO, width, style.card_width)
        self.geo = geo

    # -- helpers --------------------------------------------------------------------
    def heading(self, text: str, level: int = 0) -> Heading:
        self.keys += 1
        self.titles.setdefault(text, f"h{self.keys}")
        return Heading(text, self.h1 if level == 0 else self.h2, level, f"h{self.keys}")

    def subheading(self, title: str) -> list[Flowable]:
        """A heading within a part (the validation's reports), on a new page when less than
        :data:`HEAD_ROOM` is left: a heading at a page's foot with its table on the next page
        told the reader nothing."""
        return [CondPageBreak(HEAD_ROOM), self.heading(title, 1)]

    def heading_below(self, title: str) -> Heading:
        """A heading at level 0 that may open below another part's end (its space before)."""
        self.keys += 1
        self.titles.setdefault(title, f"h{self.keys}")
        return Heading(title, self.h1_below, 0, f"h{self.keys}")

    def part(self, title: str) -> list[Flowable]:
        """A part's opening (a protocol's section): on the page where the part
        before it ends when at least :data:`PART_ROOM` of the page is left there, else on a new page.
        Each part began on a new page, so a part whose last box (its "for the curious" notes) ran
        over left a page holding that box alone, four fifths empty."""
        room = PART_ROOM * (self.diagram_height / 0.8 if self.diagram_height else mm(250))
        return [CondPageBreak(room), self.heading_below(title)]

    def page_of(self, title: str) -> str:
        """``{page:KEY}`` of the heading ``title`` (made before or after this call)."""
        return f"{{page:title:{title}}}"

    def page(self, key: str) -> int | None:
        """The page of a heading (``title:TEXT``) or an anchor, as the last pass found it."""
        if key.startswith("title:"):
            key = self.titles.get(key[len("title:") :], "")
        return self.refs.pages.get(key)

    def para(self, text: str, style: ParagraphStyle | None = None, spec: bool = False) -> Paragraph:
        """A paragraph; ``spec`` marks a spec's own prose (``P_1`` is set as P with subscript 1)."""
        return paragraph(style or self.body, text, subscripts=spec)

    def rich(
        self, lead: str, text: str, style: ParagraphStyle | None = None, spec: bool = False
    ) -> Paragraph:
        """A paragraph that starts with a few words in bold."""
        return paragraph(style or self.body, Styled(lead, "b"), after_lead(lead), text, subscripts=spec)

    def box(self, rows: Sequence[Flowable], colour: str = "accent") -> Table:
        t = pdf_table([[r] for r in rows], colWidths=[self.width - mm(4)])
        t.setStyle(
            TableStyle(
                [
                    ("BACKGROUND", (0, 0), (-1, -1), HexColor(self.st.colours["shade"])),
                    ("LINEBEFORE", (0, 0), (0, -1), 2, HexColor(self.st.colours[colour])),
                    ("LEFTPADDING", (0, 0), (-1, -1), 6),
                    ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
                ]
            )
        )
        return t

    def table(
        self, rows: list[list[Cell]], widths: list[float], header: bool = True, spec: bool = False
    ) -> Table:
        def cell(c: Cell, i: int) -> Cell:
            if isinstance(c, (Flowable, list)):
                return c
            return paragraph(self.cellb if header and i == 0 else self.cell, c, subscripts=spec and i > 0)

        cells = [[cell(c, i) for c in row] for i, row in enumerate(rows)]
        t = pdf_table(cells, colWidths=widths, repeatRows=1 if header else 0)
        shade = [("BACKGROUND", (0, 0), (-1, 0), HexColor(self.st.colours["shade"]))] if header else []
        t.setStyle(
            TableStyle(
                [
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                    ("LINEBELOW", (0, 0), (-1, -1), 0.25, HexColor("#BBBBBB")),
                    ("LEFTPADDING", (0, 0), (-1, -1), 3),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 3),
                    *shade,
                ]
            )
        )
        return t

    # -- the story ------------------------------------------------------------------
    def story(self) -> list[Flowable]:
        s: list[Flowable] = [self.refs]
        s += self.cover()
        s += [NextPageTemplate("body"), PageBreak()]
        toc = TableOfContents(
            levelStyles=[
                # A title wraps before the page number's room (it ran over the right margin).
                ParagraphStyle("toc0", fontName=FONT_BOLD, fontSize=10, leading=14, rightIndent=mm(9)),
                ParagraphStyle(
                    "toc1", fontName=FONT, fontSize=9, leading=12, leftIndent=mm(6), rightIndent=mm(9)
                ),
            ],
            dotsMinLevel=0,
            # Its table's cells start in our font too (reportlab's default is unembedded Helvetica).
            tableStyle=TableStyle(
                [
                    ("FONT", (0, 0), (-1, -1), FONT, 9),
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                    ("TOPPADDING", (0, 0), (-1, -1), 0),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
                ]
            ),
        )
        s += [paragraph(self.h1, _("Contents")), toc, PageBreak()]
        if self.b.front is not None:  # the kit kind's chapters: the kit, set-up, rules, a turn
            s += self.front(self.b.front)
        else:
            s += self.needs()
        s += [
            Spacer(1, mm(6)),
            self.heading(_("How to read the step pictures")),
            self.para(self.st.words["diagrams"]),
        ]
        for i, sec in enumerate(self.b.sections):
            s += self.section(sec, first=i == 0)
        s += self.validation()
        s += self.quick_reference()
        return s

    def cover(self) -> list[Flowable]:
        """The title on a band of the kit's back colour, what the kit is in one line, a hand of its
        cards (a card of each kind the booklet shows: the game's, θ, α, β...), then the verdicts."""
        b = self.b
        out: list[Flowable] = [
            TitleBand(b.title, self.title, HexColor(self.st.colours["heading"]), self.width),
            Spacer(1, mm(4)),
            self.para(b.subtitle),
        ]
        facts = self.cover_facts()
        if facts:
            out.append(self.para(facts, self.small))
        symbols: list[str] = []
        for sec in b.sections:
            for step in sec.steps:
                for reg in (r for d in step.diagrams for r in d.regions):
                    for row in reg.cells:
                        for cell in row:
                            if cell is not None and cell.symbol and cell.symbol not in symbols:
                                symbols.append(cell.symbol)
        picks: list[Face] = []
        kinds: set[str] = set()
        if b.bom is not None:  # a kit: a card of each type it prints
            for item in b.bom.items:
                face = item.faces[0] if item.kind == "card" and item.faces else None
                kind = face.kind if face is not None and face.kind in ("deck", "theta") else item.key
                if face is not None and kind not in kinds and len(picks) < 7:  # one θ is enough
                    picks.append(face)
                    kinds.add(kind)
        for sym in symbols:  # one card of each kind the booklet shows: markers, θ, a game card
            face = b.face(sym)
            kind = face.kind if face.kind in ("deck", "theta") else face.key.rstrip("0123456789")
            if face.kind != "plain" and kind not in kinds and len(picks) < 7:
                kinds.add(kind)
                picks.append(face)
        if picks:
            out.append(Spacer(1, mm(6)))
            out.append(CardFan(picks, self.width, b.ink_saver))
            out.append(Spacer(1, mm(6)))
        else:
            out.append(Spacer(1, mm(8)))
        whole = b.whole_deck
        whole_claims: list[str] = []
        if whole is not None and whole["exact_hands_up_to"]:
            n = whole["exact_hands_up_to"]
            whole_claims.append(
                _(
                    "{title} with the whole deck and {players} players: checked the same way for every "
                    "possible deal when the hand holds 1 to {n} cards, not just on sample deals."
                ).format(title=title_of(b, whole["protocol"]), players=whole["players"], n=n)
            )
        elif b.whole_deck_offered:
            whole_claims.append(
                _(
                    "Every possible deal of the whole deck can also be checked exactly, not just sample "
                    "deals, when the kit is built (see the Validation section)."
                )
            )
        rows: list[Flowable] = [self.rich(_("Verified before printing"), "")]
        rows += [self.para(v, self.small) for v in [*self.claims(), *whole_claims]]
        rows.append(self.para(meaning(b.statistical), self.small))
        rows.append(
            self.para(
                _("By the {engine} (details in the Validation section).").format(
                    engine=engine_name(b.validation[0]["engine"]) if b.validation else "kitgen"
                ),
                self.small,
            )
        )
        out.append(self.box(rows))
        return out + [f for block in cover_blocks(b) for f in self.block(block)]

    def cover_facts(self) -> str:
        """What the kit holds, in one line (a game kit: seats, cards, what else to get)."""
        b = self.b
        if b.bom is None:
            return ""
        parts = []
        if b.players:
            parts.append(seating(b.players, b.virtual))
        cards = b.bom.printed_cards()
        if cards:
            parts.append(_("{n} cards to print").format(n=cards))
        others = [i.name for i in b.bom.items if i.kind in ("envelope", "sleeve")]
        if others:
            parts.append(_("and ") + _("; ").join(others))
        at_table = b.cost.cover_sentence() if b.cost is not None else ""  # kitgen.cost.kitcost
        if not parts:
            return f" {at_table}" if at_table else ""
        facts = _("In this kit: {parts}.").format(parts=_(", ").join(parts))
        return _("{sentence} {next}").format(sentence=facts, next=at_table) if at_table else facts

    def claims(self) -> list[str]:
        """What was verified, as the reports say (kitgen.core.claims), the parameters in words."""
        library = self.b.protocols()
        return claims(self.b.validation, self.b.statistical, lambda name: quantities_of(name, library))

    def curious(self, sec: Section) -> list[Flowable]:
        """The "for the curious" box: the paper, and its notation in the booklet's words. Set in
        the curious ink, which the identifier check (kitgen.booklet.jargon) leaves alone."""
        ink = HexColor(self.st.colours["curious_ink"])
        small = ParagraphStyle("curious", parent=self.small, textColor=ink)
        lead = ParagraphStyle("curious-lead", parent=self.cell, textColor=ink)
        rows: list[Flowable] = [self.rich(_("For the curious."), "", lead)]
        if sec.cite:
            rows.append(
                self.para(_("This is {title}, from {cite}.").format(title=sec.title, cite=sec.cite), small)
            )
        if sec.notation:
            rows.append(self.para(_("The paper writes:"), small))
            for symbol, meaning_ in sec.notation.items():
                rows.append(paragraph(small, symbol, ": ", meaning_, subscripts=True))
        if any(b.paper for b in sec.steps):
            rows.append(self.para(_("The Validation pages give every step in the paper's own words."), small))
        return [Spacer(1, mm(3)), KeepTogether([self.box(rows, "curious")])] if len(rows) > 1 else []

    def needs(self) -> list[Flowable]:
        if not self.b.validation:
            return []
        v = self.b.validation[0]
        res = v["resources"]
        out: list[Flowable] = [self.heading(_("What you need"))]
        if self.b.sections and self.b.sections[0].overview:
            out.append(self.para(self.b.sections[0].overview, spec=True))
        rows: list[list[Cell]] = [["", _("Card"), _("How many")]]
        for sym, n in res.get("cards_by_symbol", {}).items():
            face = self.b.face(sym)
            rows.append([CardPicture(face, mm(9), self.b.ink_saver), face.title, str(n)])
        out.append(self.table(rows, [mm(14), mm(50), mm(30)]))
        sec = self.b.sections[0] if self.b.sections else None
        params = quantities_of(v["protocol"])(v["params"]) if v["params"] else ""
        holders = ""
        if sec is not None and sec.needs:
            holders = (
                _(" The worked example's shuffles need ")
                + listing([plural(n.count, n.holder) for n in sec.needs.values()])
                + _(", all alike.")
            )
        out.append(
            self.para(
                _(
                    "For the verified setting{params}: {cards} in all, {helpers} of them helper cards; "
                    "{shuffles}."
                ).format(
                    params=f" ({params})" if params else "",
                    cards=plural(res["cards"], "card"),
                    helpers=res["helper_cards"],
                    shuffles=plural(exact(res["shuffles"]), "shuffle"),
                )
                + holders,
                self.small,
            )
        )
        return out

    def section(self, sec: Section, first: bool) -> list[Flowable]:
        opens = first and self.b.front is not None  # on the page of the pictures' key, not alone
        out: list[Flowable] = [Spacer(1, mm(6)), self.heading(sec.title)] if opens else self.part(sec.title)
        out.append(self.para(sec.summary))
        if sec.overview and not (first and self.b.front is not None):
            out.append(self.para(sec.overview, spec=True))
        if sec.table:
            out.append(self.box([self.rich(_("At the table."), sec.table, self.small, spec=True)]))
        for line in sec.legend:
            out.append(self.rich(_("How the cards show it."), line, self.small))
        if first:
            out += self.card_codes()
        example = [self.para(sec.example_text, self.small)]
        if sec.time is not None and not (first and self.b.cost is not None):
            example.append(self.para(run_sentence(sec.time), self.small))
        out.append(self.box(example))
        for block in sec.steps:
            out += self.step_block(block)
        if sec.outcome:  # kept whole: its heading alone at a page's foot left its lines over the page
            result: list[Flowable] = [Spacer(1, mm(2)), self.para(_("Result of the worked example"), self.h2)]
            result += [self.para(line, self.small, spec=True) for line in sec.outcome]
            out.append(Kept(result))
        out += self.curious(sec)
        return out

    # -- a game kit's first chapters (kitgen.booklet.frontmatter) ----------------------------------
    def front(self, chapters: Sequence[FrontSection]) -> list[Flowable]:
        out: list[Flowable] = []
        for k, chapter in enumerate(chapters):
            out += self.chapter(chapter, top=k == 0 or chapter.new_page)  # the first: after the contents
        return out

    def chapter(self, chapter: FrontSection, top: bool = True) -> list[Flowable]:
        """A chapter: its heading and blocks; a checklist set in the largest type that lets the
        chapter fit on one page (A5 too); a chapter that starts a page (``top``) and would run a
        little over it (the set-up's last box alone on a page of its own) with its card pictures the
        largest of :data:`PICTURE_SCALES` that lets it fit on its page."""
        heading = self.heading(chapter.title)
        body = self.blocks(heading, chapter.blocks)
        checklist = next((b for b in chapter.blocks if isinstance(b, Checklist)), None)
        if checklist is None and top and self.diagram_height and not self.fits(body):
            trials = (self.blocks(heading, chapter.blocks, scale) for scale in PICTURE_SCALES)
            body = next((trial for trial in trials if self.fits(trial)), body)
        if checklist is not None:
            at = next(i for i, block in enumerate(chapter.blocks) if isinstance(block, Checklist)) + 1
            page_h = self.diagram_height / 0.8 if self.diagram_height else mm(250)
            others = body[:at] + body[at + 1 :]
            fixed = sum(f.wrap(self.width, page_h)[1] for f in others) + mm(16)  # headings' space
            table = self._checklist(checklist.items, 9.0)
            for size in (8.5, 8.0, 7.5, 7.0, 6.5):
                if table.wrap(self.width, page_h)[1] + fixed <= page_h:
                    break
                table = self._checklist(checklist.items, size)
            body[at] = table
        return (
            ([PageBreak()] if chapter.new_page else []) + body + ([PageBreak()] if chapter.own_page else [])
        )

    def blocks(self, heading: Heading, blocks: Sequence[Block], scale: float = 1.0) -> list[Flowable]:
        """A chapter's heading and its blocks, the card pictures at ``scale`` of their size; a
        checklist's place is held by an empty spacer."""
        body: list[Flowable] = [heading]
        for block in blocks:
            body += [Spacer(0, 0)] if isinstance(block, Checklist) else self.block(block, scale)
        return body

    def fits(self, body: Sequence[Flowable]) -> bool:
        """Whether ``body`` fits on one page from its top: in the page's frame less its padding
        (reportlab's frame keeps :data:`PAD` points clear on each side)."""
        page_h = self.diagram_height / 0.8 if self.diagram_height else mm(250)
        return stacked_height(body, self.width - 2 * PAD) <= page_h - 2 * PAD

    def block(self, block: Block, scale: float = 1.0) -> list[Flowable]:
        if isinstance(block, Text):
            return [self.text(block)]
        if isinstance(block, Gap):
            return [Spacer(1, mm(block.height))]
        if isinstance(block, Box):
            return [self.box([self.text(t) for t in block.rows], block.colour)]
        if isinstance(block, Grid):
            widths = [mm(x) for x in block.widths] + [self.width - mm(sum(block.widths))]
            rows: list[list[Cell]] = [
                [self.picture(c, scale) if isinstance(c, Picture) else c for c in row] for row in block.rows
            ]
            return [self.table(rows, widths, spec=block.spec)]
        if isinstance(block, Picture):
            return [self.picture(block, scale)]
        raise TypeError(f"a checklist is a chapter's own: {block!r}")

    def text(self, t: Text) -> Flowable:
        style = {"body": None, "small": self.small, "h2": self.h2}[t.style]
        if PAGE_REF.search(t.text):  # page numbers of headings: set from the previous pass
            return RefParagraph(style or self.body, t.text, self.page, t.lead)
        return self.rich(t.lead, t.text, style, t.spec) if t.lead else self.para(t.text, style, t.spec)

    def picture(self, p: Picture, scale: float = 1.0) -> Flowable:
        """A chapter's picture; its cards at ``scale`` of their size (a table plan keeps its own)."""
        b = self.b
        if p.kind == "table_plan":
            plan = b.table_plan()
            assert plan is not None, "a table plan picture in a booklet without a table plan"
            # A tall table (Daifugō's) gets most of its own page, a wide one is as wide as the text.
            height = (self.diagram_height or self.width) * (0.9 if plan.tall() else 0.62)
            return TablePlanFlowable(plan, self.width, height, b.ink_saver)
        if p.kind == "sleeve":  # the set-up's sleeve being filled (kitgen.booklet.sleevepicture)
            return SleeveFilling(p.faces, self.width, b.ink_saver, scale)
        if len(p.faces) == 1:
            return CardPicture(p.faces[0], mm(p.width) * scale, b.ink_saver)
        pics: list[Flowable] = [CardPicture(f, mm(p.width) * scale, b.ink_saver) for f in p.faces]
        return pdf_table([pics], colWidths=[mm(p.pitch)] * len(pics), hAlign="LEFT")

    def _checklist(self, items: Sequence[str], size: float) -> Table:
        """The checklist's numbered boxes in type of ``size`` points."""
        style = ParagraphStyle("check", parent=self.body, fontSize=size, leading=size * 1.28, spaceAfter=0)
        rows: list[list[Cell]] = []
        for n, text in enumerate(items, 1):
            rows.append([TickBox(mm(3.6)), self.para(f"{n}.", style), RefParagraph(style, text, self.page)])
        table = pdf_table(rows, colWidths=[mm(7), mm(7), self.width - mm(14)])
        pad = size / 4
        table.setStyle(
            TableStyle(
                [
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("LEFTPADDING", (0, 0), (-1, -1), 1),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 2),
                    ("TOPPADDING", (0, 0), (-1, -1), pad),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), pad),
                    ("LINEBELOW", (0, 0), (-1, -1), 0.25, HexColor("#BBBBBB")),
                ]
            )
        )
        return table

    def card_codes(self) -> list[Flowable]:
        """The legend of card codes (a game booklet): what R8, G+2, θ2 ... mean."""
        legend = self.b.card_codes()
        if legend is None:
            return []
        return [self.rich(lead, text, self.small) for lead, text in legend.lines]

    def step_block(self, block: StepBlock) -> list[Flowable]:
        """A step: its sentence kept with its first picture, each further picture kept with its
        spare-card note, the checks box kept with the last picture (what the table shows after the
        step: alone, it went on to a page of its own, a fifth full, before a step whose picture needs
        a whole page); between these groups a page may break, so a long step no longer leaves the
        page before it half empty."""
        style = self.sub if block.depth else self.step
        loop = block.loop_text if block.diagrams else ""
        groups: list[list[Flowable]] = [
            [
                Anchor(step_key(block.protocol, block.number)),
                self.rich(_("Step {n}.").format(n=block.number), block.say, style, spec=True),
            ]
        ]
        for k, diagram in enumerate(block.diagrams):
            group = groups[0] if k == 0 else []
            group.append(
                DiagramFlowable(diagram, self.geo, self.b.face, self.b.ink_saver, self.diagram_height)
            )
            extra = []
            if diagram.taken:
                extra.append(_("taken from the spares: ") + counts_line(diagram.taken))
            if diagram.returned:
                extra.append(_("back to the spares: ") + counts_line(diagram.returned))
            if diagram.sleeved:
                extra.append(_("back in their sleeves, with their cards: ") + counts_line(diagram.sleeved))
            if extra:
                group.append(self.para(_("; ").join(extra).capitalize() + _("."), self.note))
            if k > 0:
                groups.append(group)
        tail: list[Flowable] = []
        if not block.ran:
            tail.append(self.para(_("(Not needed in the worked example.)"), self.note))
        for note in block.notes:
            tail.append(self.para(note, self.note))
        if loop:
            tail.append(self.para(_("Picture (shown for {loop}).").format(loop=loop), self.note))
        if tail:
            groups[-1] += tail
        if block.checks:
            rows: list[Flowable] = [self.rich(_("A correct table shows:"), "", self.cell)]
            rows += [self.para("• " + c, self.cell, spec=True) for c in block.checks]
            rows.append(self.rich(_("Anything else?"), block.if_wrong, self.cell, spec=True))
            groups[-1] += [Spacer(1, mm(1)), self.box(rows, "warning")]
        return [Kept(g) for g in groups]

    def validation(self) -> list[Flowable]:
        return validation(self)  # kitgen.booklet.validation

    def quick_reference(self) -> list[Flowable]:
        """Each protocol's quick reference kept whole below the part before it (the Validation's end,
        or the quick reference before) when it fits there, else on the next page. Each had a page
        of its own: the Gakmoro kit's four called protocols took four pages a sixth to a third
        full, and the Letter UNO booklet's Validation ended on a page 13 % full."""
        return [Kept(self.quick_one(i, sec)) for i, sec in enumerate(self.b.sections)]

    def quick_one(self, i: int, sec: Section) -> list[Flowable]:
        """One protocol's quick reference: its legend, its steps in brief with their checks, what
        to do when a check fails."""
        title = _("Quick reference: {title}").format(title=sec.title)
        out: list[Flowable] = [self.heading_below(title)]
        for line in sec.legend:
            out.append(self.rich(_("How the cards show it."), line, self.small))
        if i == 0:
            out += self.card_codes()
        rows: list[list[Cell]] = [[self.rich(_("Step"), "", self.body), self.rich(_("Do"), "", self.body)]]
        for block in sec.steps:
            cell: list[Flowable] = [self.para(block.brief, self.body, spec=True)]
            checks = [c for c in block.checks if c != block.example]
            if checks:
                cell.append(self.rich(_("Check:"), " ".join(checks), self.small, spec=True))
            rows.append([self.para(block.number, self.body), cell])
        out.append(self.table(rows, [mm(14), self.width - mm(14)]))
        if any(b.checks for b in sec.steps):
            first = next(b for b in sec.steps if b.checks)
            out.append(Spacer(1, mm(3)))
            out.append(self.rich(_("If a check fails:"), first.if_wrong, self.small, spec=True))
        return out
