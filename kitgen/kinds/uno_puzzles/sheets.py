"""The puzzle sheets (a puzzle on each half page) and the solution sheets, with our deck's faces.

Cards are drawn with :func:`kitgen.paper.drawing.draw_face` (the kit's colour-number designs), scaled
down from the UNO card size. A puzzle's colour i is the rule set's i-th deck colour.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from reference_engine.api import Card, Puzzle

from ...core.units import mm
from ...paper.drawing import draw_face
from ...paper.faces import FONT, FONT_BOLD, Face, new_canvas, style
from ...paper.sheets import wrap

CARD_W, CARD_H = mm(56), mm(87)
INK = HexColor("#222222")
GREY = HexColor("#595959")  # 7:1 on white (WCAG AA for small text)
ACCENT = HexColor("#0072B2")
LEVEL_DOTS = {"easy": 1, "medium": 2, "hard": 3}

CHAIN_RULE = (
    "Lay all these cards in one row so that every card matches the card before it in colour or in "
    "number. Can it be done? If it can, find an order; if not, say why not."
)
DUEL_RULE = (
    "Player 1 plays any card. Then the players take turns, each playing one card that matches the card "
    "just played, in colour or in number. Whoever cannot play loses. Both see all the cards and play "
    "their best. Who wins? If player 1, with which first card?"
)


class Deck:
    """Our deck's face of each puzzle card, and its name in words (``red 7``)."""

    def __init__(self, colour_names: Sequence[str]):
        self.colours = list(colour_names)

    def colour(self, card: Card) -> str:
        return self.colours[card.colour - 1]

    def face(self, card: Card) -> Face:
        name = self.colour(card)
        return Face(
            "deck", f"{name}{card.number}", f"{name} {card.number}", (name, "number", str(card.number))
        )

    def word(self, card: Card) -> str:
        return f"{style().colours[self.colour(card)]['name'].lower()} {card.number}"

    def words(self, cards: Sequence[Card]) -> str:
        names = [self.word(c) for c in cards]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def draw_card(c: Canvas, face: Face, x: float, y: float, width: float) -> float:
    """One card of ``width`` with its lower-left corner at (x, y); returns its height."""
    scale = width / CARD_W
    height = CARD_H * scale
    c.saveState()
    p = c.beginPath()
    p.roundRect(x, y, width, height, mm(1.2))
    c.clipPath(p, stroke=0, fill=0)
    c.translate(x, y)
    c.scale(scale, scale)
    draw_face(c, face, CARD_W, CARD_H, 0, mm(3))
    c.restoreState()
    c.setStrokeColor(HexColor("#999999"))
    c.setLineWidth(0.3)
    c.roundRect(x, y, width, height, mm(1.2), stroke=1, fill=0)
    return height


def card_row(
    c: Canvas,
    deck: Deck,
    cards: Sequence[Card],
    x: float,
    top: float,
    width: float,
    card_w: float,
    label: Callable[[int], str] | None = None,
) -> float:
    """Cards in rows from (x, top) downwards within ``width``; returns the y below the last row."""
    gap = mm(2.5)
    per_row = max(1, int((width + gap) // (card_w + gap)))
    card_h = CARD_H * card_w / CARD_W
    below = mm(4) if label else 0
    y = top
    for start in range(0, len(cards), per_row):
        y -= card_h
        for k, card in enumerate(cards[start : start + per_row]):
            cx = x + k * (card_w + gap)
            draw_card(c, deck.face(card), cx, y, card_w)
            if label:
                c.setFont(FONT, 7)
                c.setFillColor(GREY)
                c.drawCentredString(cx + card_w / 2, y - mm(3.2), label(start + k))
        y -= gap + below
    return y


def _text(
    c: Canvas, text: str, x: float, y: float, width: float, size: float = 9.5, font: str = FONT
) -> float:
    c.setFont(font, size)
    c.setFillColor(INK)
    for line in wrap(text, font, size, width):
        c.drawString(x, y, line)
        y -= size * 1.3
    return y


def _level(c: Canvas, level: str, x_right: float, y: float) -> None:
    dots = LEVEL_DOTS.get(level, 0)
    c.setFont(FONT, 9)
    c.setFillColor(GREY)
    c.drawRightString(x_right - mm(14), y, level)
    for k in range(3):
        c.setFillColor(ACCENT if k < dots else HexColor("#DDDDDD"))
        c.circle(x_right - mm(10) + k * mm(4), y + mm(1.2), mm(1.3), stroke=0, fill=1)


# --------------------------------------------------------------------------- puzzles


def render_puzzles(
    path: Path, puzzles: Sequence[Puzzle], deck: Deck, paper: tuple[float, float], title: str
) -> int:
    """Two puzzles per page, each on its half, a dashed cut line between; returns the pages."""
    w, h = paper
    c = new_canvas(str(path), paper, f"{title}: puzzles")
    margin = mm(12)
    pages = 0
    for start in range(0, len(puzzles), 2):
        pages += 1
        for half, puzzle in enumerate(puzzles[start : start + 2]):
            top = h - half * h / 2
            _puzzle(c, puzzle, deck, margin, top - margin, w - 2 * margin, h / 2 - 2 * margin)
        c.setDash(4, 3)
        c.setStrokeColor(GREY)
        c.setLineWidth(0.4)
        c.line(mm(5), h / 2, w - mm(5), h / 2)
        c.setDash()
        c.setFont(FONT, 6.5)
        c.setFillColor(GREY)
        c.drawString(mm(6), h / 2 + mm(1), "cut here")
        c.showPage()
    c.save()
    return pages


def _puzzle(c: Canvas, puzzle: Puzzle, deck: Deck, x: float, top: float, width: float, height: float) -> None:
    c.setFillColor(INK)
    c.setFont(FONT_BOLD, 16)
    c.drawString(x, top - mm(6), f"Puzzle {puzzle.number}")
    c.setFont(FONT, 10)
    c.setFillColor(ACCENT)
    c.drawString(x + mm(34), top - mm(6), "One chain" if puzzle.kind == "chain" else "Who wins?")
    _level(c, puzzle.level, x + width, top - mm(6))
    y = _text(c, CHAIN_RULE if puzzle.kind == "chain" else DUEL_RULE, x, top - mm(13), width)
    y -= mm(3)
    card_w = mm(25)
    if puzzle.kind == "chain":
        card_row(c, deck, puzzle.cards, x, y, width, card_w)
    else:
        for who, hand in (("Player 1 (plays first)", puzzle.hand1), ("Player 2", puzzle.hand2)):
            c.setFont(FONT_BOLD, 9)
            c.setFillColor(INK)
            c.drawString(x, y - mm(3), who)
            y = card_row(c, deck, hand, x, y - mm(5), width, card_w)
    c.setFont(FONT, 7)
    c.setFillColor(GREY)
    c.drawRightString(x + width, top - height + mm(1), f"Solution: solutions.pdf, puzzle {puzzle.number}")


# --------------------------------------------------------------------------- solutions


def reason_text(puzzle: Puzzle, deck: Deck) -> str:
    reason = puzzle.reason
    if reason is None:
        return ""
    if reason.kind == "split":
        groups = " | ".join(deck.words(g) for g in reason.groups)
        return (
            f"No chain. The cards fall into {len(reason.groups)} groups that share no colour and no number "
            f"({groups}); no card of one group can follow a card of another."
        )
    return (
        f"No chain. {len(reason.cards)} cards ({deck.words(reason.cards)}) each match only one other card, "
        "so each of them would have to be at an end of the chain; a chain has only two ends."
    )


def render_solutions(
    path: Path, puzzles: Sequence[Puzzle], deck: Deck, paper: tuple[float, float], title: str
) -> int:
    """Every solution in turn, as many as fit on a page; returns the pages."""
    w, h = paper
    c = new_canvas(str(path), paper, f"{title}: solutions")
    margin = mm(14)
    width = w - 2 * margin
    pages = 1
    c.setFont(FONT_BOLD, 14)
    c.setFillColor(INK)
    c.drawString(margin, h - margin - mm(4), "Solutions")
    y = h - margin - mm(12)
    for puzzle in puzzles:
        need = _solution_height(puzzle, width)
        if y - need < margin:
            c.showPage()
            pages += 1
            y = h - margin
        y = _solution(c, puzzle, deck, margin, y, width) - mm(6)
    c.showPage()
    c.save()
    return pages


def _solution_height(puzzle: Puzzle, width: float) -> float:
    """How tall a solution's block is (to keep it on one page)."""
    card_h = CARD_H * mm(15) / CARD_W
    per_row = max(1, int((width + mm(2.5)) // (mm(17.5))))
    row = card_h + mm(6.5)
    if puzzle.kind == "chain":
        if puzzle.sequence is not None:
            return mm(18) + -(-len(puzzle.sequence) // per_row) * row
        groups = puzzle.reason.groups if puzzle.reason and puzzle.reason.groups else [puzzle.cards]
        return mm(26) + sum(-(-len(g) // per_row) for g in groups) * row
    pairs_per_row = max(1, int((width + mm(6)) // (2 * mm(15) + mm(10))))
    return mm(30) + -(-len(puzzle.strategy) // pairs_per_row) * (card_h + mm(6))


def _solution(c: Canvas, puzzle: Puzzle, deck: Deck, x: float, top: float, width: float) -> float:
    c.setFont(FONT_BOLD, 11)
    c.setFillColor(INK)
    kind = "one chain" if puzzle.kind == "chain" else "who wins?"
    c.drawString(x, top - mm(4), f"Puzzle {puzzle.number} · {kind}")
    c.setFont(FONT, 7.5)
    c.setFillColor(GREY)
    checked = " and ".join(puzzle.checked_by)
    c.drawRightString(
        x + width,
        top - mm(4),
        f"{puzzle.level}: search effort {puzzle.effort} positions · checked by {checked}",
    )
    y = top - mm(10)
    small = mm(15)
    if puzzle.kind == "chain":
        if puzzle.sequence is not None:
            y = _text(c, "Yes. One chain, in this order (there may be others):", x, y, width)
            y = card_row(c, deck, puzzle.sequence, x, y - mm(1), width, small, label=lambda k: str(k + 1))
        else:
            y = _text(c, reason_text(puzzle, deck), x, y, width)
            reason = puzzle.reason
            if reason is not None and reason.kind == "split":
                for k, group in enumerate(reason.groups, 1):
                    c.setFont(FONT, 7.5)
                    c.setFillColor(GREY)
                    c.drawString(x, y - mm(3), f"group {k}")
                    y = card_row(c, deck, group, x + mm(14), y - mm(1), width - mm(14), small)
            elif reason is not None:
                y = _text(c, "The cards that match only one other card:", x, y - mm(1), width, 8.5)
                y = card_row(c, deck, reason.cards, x, y - mm(1), width, small)
        return y
    return _duel_solution(c, puzzle, deck, x, y, width, small)


def _duel_solution(
    c: Canvas, puzzle: Puzzle, deck: Deck, x: float, y: float, width: float, small: float
) -> float:
    if puzzle.loser == 2 and puzzle.first_card is not None:
        others = [w for w in puzzle.winning_first_cards if w != puzzle.first_card]
        also = f" (or with {deck.words(others)})" if others else ""
        head = f"Player 1 wins by starting with the {deck.word(puzzle.first_card)}{also}."
        how = (
            "Then player 1 answers each card of player 2 with its partner below; player 2 always has to "
            "play a card that has a partner, so player 2 runs out of moves first."
        )
    else:
        head = "Player 2 wins, whatever player 1 starts with."
        how = (
            "Player 2 answers each card of player 1 with its partner below; every card of player 1 has a "
            "partner, so player 1 runs out of moves first."
        )
    y = _text(c, head + " " + how, x, y, width)
    y = _text(
        c,
        "The pairs are a maximum matching of the cards that may follow each other (Theorem 7).",
        x,
        y,
        width,
        7.5,
    )
    pair_w = 2 * small + mm(4)
    per_row = max(1, int((width + mm(6)) // (pair_w + mm(6))))
    card_h = CARD_H * small / CARD_W
    y -= mm(1)
    for start in range(0, len(puzzle.strategy), per_row):
        y -= card_h
        for k, (a, b) in enumerate(puzzle.strategy[start : start + per_row]):
            px = x + k * (pair_w + mm(6))
            draw_card(c, deck.face(a), px, y, small)
            draw_card(c, deck.face(b), px + small + mm(4), y, small)
            c.setFont(FONT, 6.5)
            c.setFillColor(GREY)
            c.drawCentredString(px + small / 2, y - mm(3), "player 1")
            c.drawCentredString(px + small * 1.5 + mm(4), y - mm(3), "player 2")
            c.setStrokeColor(ACCENT)
            c.setLineWidth(1)
            c.line(px + small + mm(0.5), y + card_h / 2, px + small + mm(3.5), y + card_h / 2)
        y -= mm(6)
    return y
