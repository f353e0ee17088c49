"""Line breaking where kitgen breaks lines itself (a picture's labels), by the active language's
rules: words at spaces, or for Chinese, Japanese and Korean between characters by the kinsoku
rules of :mod:`kitgen.lang.kinsoku` (never before 。、」ー, never after 「（), as paragraphs break."""

from __future__ import annotations

from reportlab.pdfbase.pdfmetrics import stringWidth

from .catalogue import language
from .fonts import CJK
from .kinsoku import word_split


def breaks_between_characters() -> bool:
    """Whether the active language breaks lines between characters (no spaces between words)."""
    return language().split("_")[0] in CJK


def fitted_lines(
    text: str, width: float, font: str, size: float, smallest: float, most: int
) -> tuple[list[str], float]:
    """``text`` broken into at most ``most`` lines that fit ``width`` by CJK rules, at ``size`` or
    smaller (to ``smallest``): (the lines, the type size). A last line of one character (カー|ド,
    手|札) is no fit either: the type gets smaller until the word stays whole, as a typesetter
    would avoid a lone character on a line."""
    first_fit: tuple[list[str], float] | None = None  # the largest size that fits, lone or not
    while True:
        lines = [line for _, line in word_split(text, width, font, size)]
        fits = len(lines) <= most and all(stringWidth(x, font, size) <= width for x in lines)
        if fits and first_fit is None:
            first_fit = (lines, size)
        if fits and not (len(lines) > 1 and len(lines[-1].strip()) < 2):
            return lines, size
        if size <= smallest:
            return first_fit or (lines, size)
        size -= 0.5
