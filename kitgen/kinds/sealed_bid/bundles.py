"""The bundle preparation sheet of a Gakmoro kit (``bundles.pdf``).

Without a dealer, every card of a player's hand is a bundle E_8(v) in a sleeve. If each
player made their own bundles in private, one could make nine E_8(7) (Gakmoro, Section
5.1). The sheet has one page per player: a row per bundle showing where the ♥ goes, and
boxes for both players to tick once they have seen the row laid out face up, stacked and
sleeved with its value label.
"""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.colors import HexColor, black, white
from reportlab.lib.styles import ParagraphStyle

from reference_engine.api import SealedBidRules

from ...booklet.paragraphs import paragraph
from ...core.templates import Paper
from ...core.units import mm
from ...cost.bom import PLAYER_COLOURS
from ...lang.catalogue import _
from ...lang.overlay import player_name
from ...paper.faces import FONT, FONT_BOLD, new_canvas
from ...paper.pen import fitted_size

HEART = HexColor("#C8102E")  # the ♥ cards' red (templates/cards.yaml)


def render_bundle_sheet(
    path: Path, rules: SealedBidRules, paper: Paper, kit: str, cutout: bool = True
) -> int:
    """Write the sheet; returns the number of pages (one per player)."""
    w, h = paper.size.w, paper.size.h
    c = new_canvas(str(path), (w, h), _("{kit}: making the bundles").format(kit=kit))
    hand = rules.hand("dealerless")
    size = rules.bundle
    names = [player_name(n) for n in rules.names]  # as the protocols' texts say them
    for p, name in enumerate(names):
        other = names[1 - p]
        margin = mm(15)
        y = h - margin
        c.setFillColor(HexColor(PLAYER_COLOURS[p]))
        c.setFont(FONT_BOLD, 17)
        title = _("Making {name}'s bundles, together and in public").format(name=name)
        c.drawString(margin, y - mm(6), title)
        y -= mm(13)
        text = [
            _(
                "Both players make all {n} bundles of {name} together, before the game, where both can see."
            ).format(n=len(hand), name=name),
            _(
                "For each row: lay out {clubs} ♣ and one ♥ face up, in the order shown: as many ♣ as the "
                "bundle's value, then the ♥, then the other ♣ (for 2: ♣ ♣ ♥ and the rest ♣). Both players "
                "check the row and tick."
            ).format(clubs=size - 1),
            (
                _(
                    "Turn the cards face down one by one from the left, stacking them: the leftmost card "
                    "ends at the bottom. Slide the stack into a sleeve, and the cut-out value label into "
                    "the sleeve in front of it, facing out."
                )
                if cutout
                else _(
                    "Turn the cards face down one by one from the left, stacking them: the leftmost card "
                    "ends at the bottom. Slide the stack into a sleeve, and stick the value label on its "
                    "transparent front."
                )
            ),
            (
                _(
                    "When {name} submits the sleeve in a round: take the label out unseen, take the stack "
                    "out face down, and deal it from the top into a row from right to left."
                )
                if cutout
                else _(
                    "When {name} submits the sleeve in a round: peel the label off unseen, take the stack "
                    "out face down, and deal it from the top into a row from right to left."
                )
            ).format(name=name),
            _(
                "Why: a player making their own bundles alone could make nine bundles of 7 (Gakmoro, "
                "Section 5.1)."
            ),
        ]
        style = ParagraphStyle("sheet", fontName=FONT, fontSize=8.5, leading=11, textColor=black)
        for n, line in enumerate(text, 1):
            para = paragraph(style, f"{n}. {line}")
            _width, used = para.wrapOn(c, w - 2 * margin, h)
            para.drawOn(c, margin, y - used)
            y -= used + mm(1.2)
        y -= mm(8)  # room for the caption above the column numbers (it sits at y + 4 mm)
        cell = min(mm(11), (w - 2 * margin - mm(70)) / size)
        x0 = margin + mm(16)
        c.setFont(FONT_BOLD, 8)
        c.drawString(margin, y, _("value"))
        c.drawString(x0, y + mm(4), _("place in the row, from the left:"))
        for k in range(size):
            c.drawCentredString(x0 + k * cell + cell / 2, y, str(k + 1))
        checks = [f"{name} ✓", f"{other} ✓", _("sleeved ✓")]
        xc = x0 + size * cell + mm(4)
        for k, label in enumerate(checks):  # each within its column (Japanese ran into its neighbour)
            c.setFont(FONT_BOLD, fitted_size(label, FONT_BOLD, 8, mm(16)))
            c.drawCentredString(xc + k * mm(17) + mm(8), y, label)
        y -= mm(3)
        row_h = min(mm(18), (y - mm(30)) / len(hand))
        for v in hand:
            y -= row_h
            c.setFillColor(black)
            c.setFont(FONT_BOLD, 16)
            c.drawCentredString(margin + mm(6), y + row_h / 2 - mm(2), str(v))
            for k in range(size):
                x = x0 + k * cell
                hot = k == v
                c.setStrokeColor(HEART if hot else black)
                c.setLineWidth(1.2 if hot else 0.5)
                c.setFillColor(white)
                c.roundRect(x + mm(0.8), y + mm(1), cell - mm(1.6), row_h - mm(2), mm(1), stroke=1, fill=1)
                c.setFillColor(HEART if hot else black)
                c.setFont(FONT, min(16, row_h * 0.45))
                c.drawCentredString(x + cell / 2, y + row_h / 2 - mm(2), "♥" if hot else "♣")
            for k in range(len(checks)):
                c.setStrokeColor(black)
                c.setLineWidth(0.6)
                c.rect(xc + k * mm(17) + mm(5), y + row_h / 2 - mm(3), mm(6), mm(6), stroke=1, fill=0)
            c.setStrokeColor(HexColor("#BBBBBB"))
            c.setLineWidth(0.3)
            c.line(margin, y, w - margin, y)
        c.setFont(FONT, 6.5)
        c.setFillColor(black)
        c.drawString(
            margin,
            mm(10),
            _("{kit} · bundles page {page} of {pages} · print at 100% (actual size)").format(
                kit=kit, page=p + 1, pages=len(names)
            ),
        )
        c.showPage()
    c.save()
    return len(names)
