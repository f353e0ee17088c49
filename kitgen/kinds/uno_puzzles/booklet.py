"""The puzzle kit's short booklet: the ideas of "UNO is hard" behind the puzzles.

The graph view (cards as points of a grid, and as edges between colours and numbers), why
one player's chain is hard (NP-complete, Theorems 4 and 1) but easy with few colours
(Theorem 5), why two uncooperative players are easy (geography and matchings, Theorem 7), and
how the puzzles were made and checked. The figures are drawn from the paper's Example 1 and
from the kit's own puzzles, with our deck's faces.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable, Paragraph, Table, TableStyle

from reference_engine.api import Card, Puzzle, PuzzleRules, parse_cards, solve_solitaire

from ...booklet.paragraphs import Fragment, Styled, paragraph
from ...core.units import mm
from ...core.words import listing, plural
from ...paper.faces import FONT, FONT_BOLD, ensure_fonts, new_document, pdf_table, style
from .sheets import CARD_H, CARD_W, Deck, draw_card

EXAMPLE_1 = "1/3,2/2,2/3,2/3,2/4,3/2,3/4,4/1,4/3"
INK = HexColor("#222222")
GREY = HexColor("#595959")  # 7:1 on white (WCAG AA for small text)


class GridFigure(Flowable):
    """The geometric view: each card a point at (colour, number); a chain's moves are
    horizontal or vertical steps (Section 3.3, Figure 5)."""

    def __init__(self, deck: Deck, cards: Sequence[Card], chain: Sequence[Card] | None, width: float):
        super().__init__()
        self.deck, self.cards, self.chain = deck, list(cards), list(chain or [])
        self.width, self.height = width, mm(62)

    def draw(self) -> None:
        c = self.canv
        colours = sorted({k.colour for k in self.cards})
        numbers = sorted({k.number for k in self.cards})
        step_x = min(mm(22), (self.width - mm(30)) / max(1, len(colours)))
        step_y = (self.height - mm(16)) / max(1, len(numbers))
        x0, y0 = mm(24), mm(10)

        def at(card: Card, k: int = 0, of: int = 1) -> tuple[float, float]:
            x = x0 + colours.index(card.colour) * step_x + (k - (of - 1) / 2) * mm(4)
            return x, y0 + numbers.index(card.number) * step_y

        c.setFont(FONT, 7)
        c.setFillColor(GREY)
        for i, col in enumerate(colours):
            c.drawCentredString(x0 + i * step_x, y0 - mm(6), self.deck.word(Card(col, 0)).split()[0])
        for j, num in enumerate(numbers):
            c.drawRightString(x0 - mm(6), y0 + j * step_y - mm(1), str(num))
        positions: dict[int, tuple[float, float]] = {}
        seen: dict[Card, int] = {}
        for idx, card in enumerate(self.chain or self.cards):
            k = seen.get(card, 0)
            seen[card] = k + 1
            positions[idx] = at(card, k, (self.chain or self.cards).count(card))
        if self.chain:
            c.setStrokeColor(HexColor("#0072B2"))
            c.setLineWidth(1.2)
            for i in range(len(self.chain) - 1):
                (ax, ay), (bx, by) = positions[i], positions[i + 1]
                c.line(ax, ay, bx, by)
        # Every disc first, then every number: no disc is drawn over a number. A number goes on the
        # side of its disc away from its twin (two cards of one kind sit side by side).
        for idx, card in enumerate(self.chain or self.cards):
            x, y = positions[idx]
            spec = style().colours[self.deck.colour(card)]
            c.setFillColor(HexColor(spec["fill"]))
            c.setStrokeColor(INK)
            c.setLineWidth(0.4)
            c.circle(x, y, mm(1.8), stroke=1, fill=1)
        if self.chain:
            c.setFont(FONT_BOLD, 6.5)
            c.setFillColor(INK)
            seen.clear()
            for idx, card in enumerate(self.chain):
                x, y = positions[idx]
                k = seen.get(card, 0)
                seen[card] = k + 1
                twins = self.chain.count(card)
                if twins > 1 and k == 0:
                    c.drawRightString(x - mm(2.2), y + mm(1.2), str(idx + 1))
                else:
                    c.drawString(x + mm(2.2), y + mm(1.2), str(idx + 1))


class BipartiteFigure(Flowable):
    """Observation 1: colours on the left, numbers on the right, a card is an edge between its
    colour and its number (drawn in its colour; a repeated card is a second, bent edge)."""

    def __init__(self, deck: Deck, cards: Sequence[Card], width: float):
        super().__init__()
        self.deck, self.cards = deck, list(cards)
        self.width, self.height = width, mm(50)

    def draw(self) -> None:
        c = self.canv
        colours = sorted({k.colour for k in self.cards})
        numbers = sorted({k.number for k in self.cards})
        lx, rx = mm(30), self.width - mm(30)

        def y_of(i: int, n: int) -> float:
            return self.height - mm(6) - i * (self.height - mm(12)) / max(1, n - 1)

        counts: dict[Card, int] = {}
        for card in self.cards:
            k = counts.get(card, 0)
            counts[card] = k + 1
            a = y_of(colours.index(card.colour), len(colours))
            b = y_of(numbers.index(card.number), len(numbers))
            c.setStrokeColor(HexColor(style().colours[self.deck.colour(card)]["fill"]))
            c.setLineWidth(1.4)
            bend = k * mm(3)
            p = c.beginPath()
            p.moveTo(lx, a)
            p.curveTo((lx + rx) / 2, a + bend, (lx + rx) / 2, b + bend, rx, b)
            c.drawPath(p, stroke=1, fill=0)
        c.setFont(FONT, 8)
        for i, col in enumerate(colours):
            y = y_of(i, len(colours))
            c.setFillColor(HexColor(style().colours[self.deck.colour(Card(col, 0))]["fill"]))
            c.circle(lx, y, mm(2), stroke=0, fill=1)
            c.setFillColor(INK)
            c.drawRightString(lx - mm(4), y - mm(1), self.deck.word(Card(col, 0)).split()[0])
        for j, num in enumerate(numbers):
            y = y_of(j, len(numbers))
            c.setFillColor(INK)
            c.circle(rx, y, mm(2), stroke=0, fill=1)
            c.drawString(rx + mm(4), y - mm(1), str(num))


class CardsFigure(Flowable):
    """A row of cards with our deck's faces."""

    def __init__(self, deck: Deck, cards: Sequence[Card], width: float, card_w: float = mm(14)):
        super().__init__()
        self.deck, self.cards, self.card_w = deck, list(cards), card_w
        self.width = width
        self.height = CARD_H * card_w / CARD_W + mm(2)

    def draw(self) -> None:
        for k, card in enumerate(self.cards):
            draw_card(self.canv, self.deck.face(card), k * (self.card_w + mm(2)), mm(1), self.card_w)


def _styles() -> dict[str, ParagraphStyle]:
    ensure_fonts()
    base = ParagraphStyle("body", fontName=FONT, fontSize=9.5, leading=13, textColor=INK, spaceAfter=5)
    return {
        "body": base,
        "title": ParagraphStyle(
            "title", parent=base, fontName=FONT_BOLD, fontSize=20, leading=24, spaceAfter=8
        ),
        "h": ParagraphStyle("h", parent=base, fontName=FONT_BOLD, fontSize=13, leading=17, spaceBefore=10),
        "note": ParagraphStyle("note", parent=base, fontSize=8, leading=10.5, textColor=GREY),
    }


def render_booklet(
    path: Path, rules: PuzzleRules, puzzles: Sequence[Puzzle], deck: Deck, paper: tuple[float, float]
) -> int:
    """Write the booklet; returns its pages."""
    st = _styles()
    margin = mm(18)
    width = paper[0] - 2 * margin
    pages = [0]

    def footer(canvas: Canvas, doc: BaseDocTemplate) -> None:
        pages[0] = doc.page
        canvas.setFont(FONT, 7)
        canvas.setFillColor(GREY)
        canvas.drawString(margin, mm(10), rules.title)
        canvas.drawRightString(paper[0] - margin, mm(10), f"page {doc.page}")

    doc = new_document(str(path), paper, margin, f"{rules.title}: booklet")
    doc.build(_story(st, rules, puzzles, deck, width), onFirstPage=footer, onLaterPages=footer)
    return pages[0]


def _p(st: dict[str, ParagraphStyle], *text: Fragment, kind: str = "body") -> Paragraph:
    return paragraph(st[kind], *text)


def _story(
    st: dict[str, ParagraphStyle], rules: PuzzleRules, puzzles: Sequence[Puzzle], deck: Deck, width: float
) -> list[Flowable]:
    example = parse_cards(EXAMPLE_1)
    chain = solve_solitaire(example, "search").sequence
    chains = sum(p.kind == "chain" for p in puzzles)
    story: list[Flowable] = [
        _p(st, rules.title, kind="title"),
        _p(st, "The ideas behind the puzzles, from the paper " + rules.source.get("cite", ""), kind="note"),
        _p(
            st,
            f"This kit has {plural(len(puzzles), 'puzzle')}: "
            + listing(
                [
                    plural(chains, "chain puzzle") + " (one player lays out every card)" if chains else "",
                    plural(len(puzzles) - chains, "who-wins puzzle") + " (two players who both want to win)"
                    if len(puzzles) > chains
                    else "",
                ]
            )
            + ". They come "
            "from a paper that looks at UNO with the eyes of a computer scientist: how hard is it to "
            "decide who can win? The answers are surprising, and each kind of puzzle shows one of them.",
        ),
        _p(st, "The model", kind="h"),
        _p(
            st,
            "A card has a colour and a number, and a card may follow another when they agree in colour or "
            "in number. The paper leaves out action cards and the draw pile, lets everybody see all the "
            "cards, and lets the first player start with any card. With one player (solitaire UNO) the "
            "question is whether all the cards can be played in one chain. With two players it asks either "
            "whether they can together make player 1 win (cooperative), or who loses when both play to win "
            "(uncooperative: whoever cannot play loses).",
        ),
        _table(st, width),
        _p(st, "The graph view", kind="h"),
        _p(
            st,
            "Put each card on a grid at its colour (across) and its number (up). Two cards match exactly "
            "when they are in the same column or the same row, so a chain is a tour of the points that "
            "moves only straight across or straight up and down. Here is the paper's Example 1 with one "
            "chain the solver found (the numbers give the order):",
        ),
        CardsFigure(deck, chain or example, width),
        GridFigure(deck, example, chain, width),
        _p(
            st,
            "Another picture of the same cards: draw the colours on one side and the numbers on the other, "
            "and each card as a line joining its colour to its number. Two cards match when their lines "
            "share an end. The paper calls the graph of matching cards a ",
            Styled("line graph of a bipartite graph", "i"),
            " (Observation 1). A chain walks from end to end along some of the lines, using each "
            "at most once; every other card is slipped in where the walk passes its colour or its number. "
            "Our solver searches these walks instead of every order of the cards, which is why it answers "
            "in a moment.",
        ),
        BipartiteFigure(deck, example, width),
        _p(st, "Why one player's chain is hard", kind="h"),
        _p(
            st,
            "Deciding whether a chain exists is NP-complete (Theorem 4): no one knows a method that is "
            "fast on every large set of cards. The proof turns any map of towns with three roads at each "
            "town into cards: a town becomes a colour with three cards, one for each of its roads, and a "
            "road becomes a number shared by the two cards at its ends. A chain of all the cards then "
            "exists exactly when a traveller can visit every town once (a Hamiltonian path), a famously "
            "hard question. The same idea shows that two players who cooperate face a hard question too "
            "(Theorem 1): player 1 holds a card per town, player 2 a card per road.",
        ),
        _p(
            st,
            "With few colours (or few numbers) the chain question becomes easy for a computer (Theorem 5): "
            "our deck has only four colours. Our solver keeps, number by number, which colours the walk "
            "has reached and how, and finishes in time proportional to the number of cards. For you, "
            "without a computer, a puzzle of ten cards can still take a lot of trying: the difficulty of "
            "each puzzle is how many positions a methodical card-by-card search visits before it knows the "
            "answer.",
        ),
        _p(st, "Why two players who both want to win are easy", kind="h"),
        _p(
            st,
            "Surprisingly, the game of two players who both want to win is easy to decide (Theorem 7). "
            "Join each card of player 1 to each card of player 2 that may follow it. Playing is moving a "
            "token along these joins to a card not played yet: a game called undirected vertex geography, "
            "which is decided by ",
            Styled("matchings", "i"),
            ", sets of pairs in which no card appears twice. Player 2 "
            "wins exactly when every card of player 1 can be paired with its own matching card of player "
            "2: then player 2 answers every card with its partner and never runs out. Otherwise player 1 "
            "wins by starting with a card that some largest set of pairs leaves out, and then answering "
            "with partners. The solutions show these pairs.",
        ),
        _p(st, "How the puzzles were made", kind="h"),
        _p(
            st,
            "Every puzzle is drawn at random (with a fixed seed, so the same options give the same kit) "
            "from our deck: one 0 and two of each of 1 to 9 in every colour, so you can lay each puzzle "
            "out with real cards. Each chain puzzle is solved twice, by the walk search and by the "
            "programme for few colours, and a chain answer is checked card by card; a puzzle without a "
            "chain is kept only when there is a short reason you can check. Each who-wins puzzle is solved "
            "by matchings and by trying the whole game; the two must agree. The levels accept these search "
            "efforts (positions):",
        ),
        _levels(st, rules, width),
    ]
    return story


def _table(st: dict[str, ParagraphStyle], width: float) -> Table:
    rows = [
        ["Model", "Complexity", "Paper"],
        ["Solitaire UNO (one player)", "NP-complete", "Theorem 4"],
        ["... with few colours or few numbers", "polynomial", "Theorem 5"],
        ["Cooperative UNO, two players", "NP-complete", "Theorem 1"],
        ["Uncooperative UNO, two players", "polynomial", "Theorem 7"],
    ]
    return _grid([[_p(st, c) for c in r] for r in rows], [width * 0.5, width * 0.25, width * 0.25])


def _levels(st: dict[str, ParagraphStyle], rules: PuzzleRules, width: float) -> Table:
    def band(b: tuple[int, int | None]) -> str:
        return f"{b[0]} to {b[1]}" if b[1] is not None else f"{b[0]} or more"

    rows = [["Level", "Chain puzzles", "Who-wins puzzles"]]
    for name, lv in rules.spec.levels.items():
        rows.append(
            [
                name,
                f"{lv.chain_cards[0]} to {lv.chain_cards[1]} cards, effort {band(lv.chain_effort)}",
                f"{lv.hand_cards[0]} to {lv.hand_cards[1]} cards each, effort {band(lv.hand_effort)}",
            ]
        )
    return _grid([[_p(st, c) for c in r] for r in rows], [width * 0.2, width * 0.4, width * 0.4])


def _grid(rows: list[list[Paragraph]], widths: list[float]) -> Table:
    table = pdf_table(rows, colWidths=widths)
    table.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.4, HexColor("#BBBBBB")),
                ("BACKGROUND", (0, 0), (-1, 0), HexColor("#EEF3F8")),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ]
        )
    )
    return table


__all__ = ["render_booklet"]
