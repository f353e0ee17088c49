"""Line breaking where kitgen breaks lines itself (a picture's labels), by the active language's
rules: words at spaces, or for Chinese, Japanese and Korean between characters by reportlab's
CJK rules (never before 。、」 and the like), the ``wordWrap="CJK"`` of paragraphs."""

from __future__ import annotations

from reportlab.lib.textsplit import wordSplit
from reportlab.pdfbase.pdfmetrics import stringWidth

from .catalogue import language
from .fonts import CJK


def breaks_between_characters() -> bool:
    """Whether the active language breaks lines between characters (no spaces between words)."""
    return language().split("_")[0] in CJK


def fitted_lines(
    text: str, width: float, font: str, size: float, smallest: float, most: int
) -> tuple[list[str], float]:
    """``text`` broken into at most ``most`` lines that fit ``width`` by CJK rules, at ``size`` or
    smaller (to ``smallest``): (the lines, the type size)."""
    while True:
        lines = [line for _, line in wordSplit(text, width, font, size)]
        if (
            len(lines) <= most and all(stringWidth(x, font, size) <= width for x in lines)
        ) or size <= smallest:
            return lines, size
        size -= 0.5
