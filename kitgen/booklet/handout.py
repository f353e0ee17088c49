"""A one-page handout for a lesson with a protocol kit (``handout.pdf``).

What a teacher hands each group: what the protocol does, who sits where and who does what,
what each group needs, the steps in one line each, what to watch for at every reveal (what a
correct table shows, and what to do otherwise), and what was verified. Everything comes from
the spec's player words and the booklet made from it (never the paper's notation, which the
booklet's "for the curious" boxes keep), so a user's spec gets its handout too. The text is set
in the largest size that fits one page (:data:`SIZES`); a spec too wordy for one page even at
the smallest size is cut at a step, saying so, never spilled onto a second page.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, KeepTogether, Spacer, Table, TableStyle

from reference_engine.api import Protocol

from ..core.units import mm
from ..core.words import listing, plural
from ..cost.bom import Bom
from ..lang.catalogue import N_, _, times
from ..lang.overlay import spec_text
from ..paper.faces import FONT, FONT_BOLD, Cell, Face, new_document, pdf_table
from .book import Booklet
from .flowables import CardPicture, TitleBand
from .glossary import Glossary
from .paragraphs import Styled, paragraph
from .prose import first_sentence

ORDINALS = {1: N_("first"), 2: N_("second"), 3: N_("third")}  # "The first row of the grid"
SIZES = (11.5, 11.0, 10.5, 10.0, 9.5, 9.0, 8.5, 8.0, 7.5, 7.0, 6.5)  # body text, largest first
INK = HexColor("#1F2A44")
BAND = HexColor("#E8ECF4")

TRY = N_(
    "Run it twice with secrets the group chooses and write down everything the table saw (every turned "
    "card, every public choice). Then compare the result with the secrets. The check below shows that "
    "the result is always right and that what you saw is equally likely whatever the secrets: could "
    "you have guessed them from your notes?"
)
SEATING = N_(
    "Groups of three or four around one table, everyone able to reach the middle. One of you lays "
    "out, moves and turns the cards, reading each step aloud; the others watch every move and check "
    "it against the step before the next one starts. At a shuffle, each of you mixes in turn behind "
    "your back, so nobody alone knows the order. Whoever holds a secret lays its cards face down "
    "without showing them; nobody peeks at a face-down card until a step turns it."
)


@dataclass(frozen=True)
class Handout:
    """The handout's text, made from a protocol, its booklet and its kit's materials."""

    title: str
    summary: str
    overview: str
    seating: str
    needs: list[str]
    steps: list[tuple[str, str]]  # (step number, one line)
    watch: list[tuple[str, str, str]]  # (step number, what a correct table shows, what to do if not)
    verified: list[str]
    sets: int
    cards: list[tuple[Face, int]]  # the printed cards of one group's set, with how many
    ink_saver: bool = False
    # Where each output ends up, in words, and what it is: ("Places 3 and 4 of the row", '"both"').
    answers: list[tuple[str, str]] = field(default_factory=list)
    legend: list[str] = field(default_factory=list)  # how values are laid out with cards

    @classmethod
    def of(cls, proto: Protocol, booklet: Booklet, bom: Bom, sets: int, verified: list[str]) -> Handout:
        sec = booklet.sections[0]
        people = proto.people()
        seating = _(SEATING)
        if people:
            seating += _(" Seats: {names}, each with their own cards in hand.").format(
                names=listing([p.name for p in people])
            )
        needs = [times(i.needed // sets, i.label) for i in bom.items if i.kind == "card"] + [
            times(i.needed // sets, i.name, "") for i in bom.items if i.kind != "card"
        ]
        steps = [(b.number, b.brief or first_sentence(b.say)) for b in sec.steps]
        cards = [(i.faces[0], i.needed // sets) for i in bom.items if i.kind == "card" and i.faces]
        watch: list[tuple[str, str, str]] = []
        seen: set[tuple[str, ...]] = set()
        for s in booklet.sections:
            for b in s.steps:
                key = (s.protocol, b.number.split("(")[0])
                if b.checks and key not in seen:
                    seen.add(key)
                    where = _("Step {n}").format(n=b.number) + (
                        _(" of the {title}").format(title=s.title) if s is not sec else ""
                    )
                    watch.append(
                        (where, " ".join(b.checks), first_sentence(b.if_wrong) if b.if_wrong else "")
                    )
        return cls(
            spec_text(proto.title),
            spec_text(proto.summary),
            spec_text(proto.booklet.overview),
            seating,
            needs,
            steps,
            watch,
            verified,
            sets,
            cards,
            booklet.ink_saver,
            answers(proto),
            Glossary(proto).legend(),
        )


def answers(proto: Protocol) -> list[tuple[str, str]]:
    """Where each of the protocol's outputs ends up at the end, in words, from the spec's outputs:
    ``("Places 3 and 4 of the row", '"both" (first AND second)')``. A class with only the handout
    must be able to read its answer off the table."""
    words = Glossary(proto)
    out = []
    for key, decl in proto.outputs.items():
        name = words.output_name(key)
        text = decl.cards.text if decl.cards is not None else None
        out.append((_place(text, words), name))
    return out


def _place(text: str | None, words: Glossary) -> str:
    """An output's cards (the spec's ``cards:``) as a place on the table, in a player's words."""
    if text is None:
        return _("Said at the last step (everyone sees it)")
    if "hand(" in text:
        return _("Back in every owner's hand")
    span = re.fullmatch(r"(\w+)\[\s*(\d+)\s*\.\.\s*(\d+)\s*\]", text)
    if span:
        a, b = int(span[2]), int(span[3])
        places = (_("Places {a} and {b}") if b == a + 1 else _("Places {a} to {b}")).format(a=a, b=b)
        return _("{places} of the {place}").format(places=places, place=words.place(span[1]))
    one = re.fullmatch(r"(\w+)\[\s*(\d+)\s*\]", text)
    if one:
        return _("Place {n} of the {place}").format(n=one[2], place=words.place(one[1]))
    row = re.fullmatch(r"(\w+)\[\s*(\d+)\s*,\s*\*\s*\]", text)
    if row:
        n = int(row[2])
        nth = _(ORDINALS[n]) if n in ORDINALS else _("number {n}").format(n=n)
        return _("The {nth} row of the {place}").format(nth=nth, place=words.place(row[1]))
    if re.fullmatch(r"\w+", text):
        return _("The {place}").format(place=words.place(text))
    return _("Where the last step puts them")


def _styles(size: float) -> dict[str, ParagraphStyle]:
    lead = size * 1.25
    return {
        "title": ParagraphStyle(
            "t", fontName=FONT_BOLD, fontSize=size * 1.9, leading=size * 2.3, textColor=INK
        ),
        "h": ParagraphStyle(
            "h",
            fontName=FONT_BOLD,
            fontSize=size * 1.15,
            leading=lead * 1.2,
            textColor=INK,
            spaceBefore=size * 0.6,
        ),
        "p": ParagraphStyle("p", fontName=FONT, fontSize=size, leading=lead),
        "small": ParagraphStyle("s", fontName=FONT, fontSize=size * 0.85, leading=lead * 0.85),
    }


def _story(h: Handout, size: float, width: float, steps: int) -> list[Flowable]:
    st = _styles(size)
    p, small = st["p"], st["small"]
    out: list[Flowable] = [
        TitleBand(_("{title}: a lesson").format(title=h.title), st["title"], INK, width),
        Spacer(1, size * 0.6),
        paragraph(p, Styled(h.summary, "i")),
    ]
    if h.overview:
        out += [paragraph(st["h"], _("What it does")), paragraph(p, h.overview)]
    out += [paragraph(st["h"], _("Who sits where")), paragraph(p, h.seating)]
    group = _("Each group needs") if h.sets > 1 else _("What you need")
    needs = _("; ").join(h.needs) + _(".")
    out += [paragraph(st["h"], group), *_card_row(h, size, width), paragraph(p, needs)]
    out.append(paragraph(st["h"], _("The steps")))
    rows: list[list[Cell]] = [
        [paragraph(p, Styled(n, "b")), paragraph(p, line)] for n, line in h.steps[:steps]
    ]
    if steps < len(h.steps):
        more = plural(len(h.steps) - steps, "more step")
        rows.append(["", paragraph(small, _("… and {steps}: see the booklet.").format(steps=more))])
    out.append(_table(rows, [size * 4.2, width - size * 4.2]))
    if h.watch:
        out.append(paragraph(st["h"], _("What to watch for")))
        for where, shows, wrong in h.watch:
            text: list[str | Styled] = [Styled(where + _(": "), "b"), shows]
            if wrong:
                text += [" ", Styled(_("Otherwise: "), "b"), wrong]
            out.append(paragraph(p, *text))
    if h.answers:
        out.append(paragraph(st["h"], _("Where the answer is")))
        rows = [[paragraph(p, Styled(where, "b")), paragraph(p, what)] for where, what in h.answers]
        out.append(_table(rows, [width * 0.38, width * 0.62]))
        out += [paragraph(small, line) for line in h.legend]
    out += [paragraph(st["h"], _("Try it")), paragraph(p, _(TRY))]
    verified: list[Flowable] = [
        paragraph(small, Styled(_("Verified before printing. "), "b"), " ".join(h.verified))
    ]
    verified.append(
        paragraph(
            small,
            _("Every step with pictures of the table: booklet.pdf. Step through it on a screen: index.html."),
        )
    )
    out += [Spacer(1, size), KeepTogether(_boxed(verified, width))]
    return out


def _card_row(h: Handout, size: float, width: float) -> list[Flowable]:
    """A small picture of each kind of card a group gets, with how many (at most a row)."""
    if not h.cards:
        return []
    card_w = min(size * 2.6, width / max(len(h.cards), 1) - 8)
    small = ParagraphStyle("n", fontName=FONT_BOLD, fontSize=size * 0.9, leading=size * 1.1, alignment=1)
    shown = h.cards[: int(width // (card_w + 8))]
    cells: list[list[Cell]] = [
        [CardPicture(face, card_w, h.ink_saver) for face, _ in shown],
        [paragraph(small, f"× {n}") for _, n in shown],
    ]
    t = pdf_table(cells, colWidths=[card_w + 8] * len(shown), hAlign="LEFT")
    t.setStyle(
        TableStyle(
            [
                ("ALIGN", (0, 0), (-1, -1), "CENTER"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
            ]
        )
    )
    return [Spacer(1, size * 0.3), t, Spacer(1, size * 0.3)]


def _table(rows: list[list[Cell]], widths: list[float]) -> Table:
    t = pdf_table(rows, colWidths=widths)
    t.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
                ("TOPPADDING", (0, 0), (-1, -1), 0),
            ]
        )
    )
    return t


def _boxed(flowables: list[Flowable], width: float) -> list[Flowable]:
    t = pdf_table([[f] for f in flowables], colWidths=[width])
    t.setStyle(
        TableStyle(
            [
                ("BACKGROUND", (0, 0), (-1, -1), BAND),
                ("LEFTPADDING", (0, 0), (-1, -1), 6),
            ]
        )
    )
    return [t]


def _render(target: io.BytesIO | str, h: Handout, paper: tuple[float, float], size: float, steps: int) -> int:
    margin = mm(14)
    pages = [0]

    def count(canvas: object, doc: object) -> None:
        pages[0] += 1

    doc = new_document(target, paper, margin, _("{title}: lesson handout").format(title=h.title))
    doc.build(_story(h, size, paper[0] - 2 * margin, steps), onFirstPage=count, onLaterPages=count)
    return pages[0]


def fit(h: Handout, paper: tuple[float, float]) -> tuple[float, int]:
    """The largest text size (and how many steps) that keeps the handout on one page."""
    for steps in range(len(h.steps), 0, -1):
        for size in SIZES:
            if _render(io.BytesIO(), h, paper, size, steps) == 1:
                return size, steps
    return SIZES[-1], 1


def render_handout(path: Path, h: Handout, paper: tuple[float, float]) -> int:
    """Write the handout at ``path`` on one page of ``paper`` (points); returns its page count."""
    size, steps = fit(h, paper)
    return _render(str(path), h, paper, size, steps)
