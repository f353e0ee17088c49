"""Japanese line breaking (kinsoku shori) for paragraphs: reportlab's CJK wrapping
(``reportlab.platypus.paragraph.cjkFragSplit``) with its two gaps closed.

reportlab breaks a CJK paragraph between any two characters and, when the character that overflows
a line may not start one (。、」 and the like), hangs that one character in the margin. It hangs
one only, so a second mark in a row starts the next line (「両方」、 gave a line starting with 、,
コンピューター one starting with ー), and it has no rule against ending a line with an opening mark
(a line ending with 「 or （, its word on the next line). Here the break moves back instead
(oikomi is not needed: the line only gets shorter) until the next line starts with a character that
may start one and this line does not end with one that may not end one; one closing mark is still
hung as before when the character after it may start a line, so a page breaks where it did
wherever reportlab's rule was already right. The character lists are reportlab's own
(``reportlab.lib.textsplit``); the rest of the function is reportlab 5.1's, unchanged.
"""

from __future__ import annotations

from typing import Any
from unicodedata import category

from reportlab.lib.textsplit import ALL_CANNOT_END, ALL_CANNOT_START, CANNOT_START_LINE
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import paragraph

CLOSING = "：；！？〉》｝］"  # full-width marks reportlab's list lacks (a legend's ：, a quantity's ：)
CANNOT_START = ALL_CANNOT_START + CLOSING  # 。、」）ー ァ ッ ... and ASCII .,;:!?)]
CANNOT_END = ALL_CANNOT_END  # 「（『【 ... and $ # @
RL: dict[str, Any] = vars(paragraph)  # reportlab's paragraph module (its CJK helpers are untyped)
HANGS = CANNOT_START_LINE[0] + CLOSING  # the closing marks that may hang in the margin (。、」）), not ー ッ


def break_at(text: str, start: int, over: int) -> int:
    """Where the line that starts at ``start`` ends when the character at ``over`` overflows it:
    the index the next line starts at. A closing mark at ``over`` (。、」）, not ー or a small
    kana) hangs (reportlab's rule) when the character after it may start a line; otherwise the
    break moves back to the last place where the next line may start and this one may end,
    keeping at least one character on this line (when there is no such place, reportlab's rule
    stands)."""
    nxt = text[over + 1] if over + 1 < len(text) else ""
    ok_before = over == start or text[over - 1] not in CANNOT_END
    if text[over] in HANGS and nxt not in CANNOT_START and ok_before and over > start:
        return over + 1  # hang the one closing mark, as reportlab does
    b = over
    while b > start + 1 and (text[b] in CANNOT_START or text[b - 1] in CANNOT_END):
        b -= 1
    if b > start and text[b] not in CANNOT_START and text[b - 1] not in CANNOT_END:
        return b
    return over if text[over] not in CANNOT_START and over > start else over + 1  # reportlab's rule


def _latin_back(text: str, start: int, i: int) -> int:
    """Inside a Latin run (the overflowing character below U+3000), the overflowing index moved
    back to just after a space or a CJK character in the line's second half (reportlab's rule)."""
    over = i - 1
    for j in range(i - 1, (start + i) >> 1, -1):
        if category(text[j]) == "Zs" or ord(text[j]) >= 0x3000:
            return j + 1 if j + 1 < i else over
    return over


def word_split(
    word: str, maxWidths: Any, fontName: str, fontSize: float, encoding: str = "utf8"
) -> list[list[Any]]:
    """reportlab's ``wordSplit`` (one run of text, a paragraph of one style: [extra space, line]
    per line) breaking by :func:`break_at`."""
    widths = [stringWidth(c, fontName, fontSize) for c in word]
    if not isinstance(maxWidths, (list, tuple)):
        maxWidths = [maxWidths]
    fuzz = RL.get("_FUZZ", 1e-6)
    lines: list[list[Any]] = []
    i = start = 0
    used = 0.0
    max_width = maxWidths[0]
    while i < len(word):
        used += widths[i]
        i += 1
        if used > max_width + fuzz and used > 0:
            over = _latin_back(word, start, i) if ord(word[i - 1]) < 0x3000 else i - 1
            end = break_at(word, start, over)
            lines.append([max_width - used + sum(widths[end:i]), word[start:end].strip()])
            i = end
            max_width = maxWidths[min(len(lines), len(maxWidths) - 1)]
            start, used = i, 0
    if used > 0:
        lines.append([max_width - used, word[start:]])
    return lines


def cjk_frag_split(frags: Any, maxWidths: Any, calcBounds: Any, encoding: str = "utf8") -> Any:
    """reportlab's ``cjkFragSplit`` (the same arguments and result) breaking by :func:`break_at`."""
    U = []  # reportlab's names, to keep the two easy to compare
    for f in frags:
        text = f.text
        if isinstance(text, bytes):
            text = text.decode(encoding)
        if text:
            U.extend([RL["cjkU"](t, f, encoding) for t in text])
        else:
            U.append(RL["cjkU"](text, f, encoding))
    plain = "".join(str(u)[:1] or "\0" for u in U)  # one character per glyph, for break_at
    fuzz = RL.get("_FUZZ", 1e-6)
    lines = []
    i = width_used = line_start = 0
    max_width = maxWidths[0]
    n = len(U)
    while i < n:
        u = U[i]
        i += 1
        w = u.width
        if hasattr(w, "normalizedValue"):
            w._normalizer = max_width
            w = w.normalizedValue(max_width)
        width_used += w
        line_break = hasattr(u.frag, "lineBreak")
        if (width_used > max_width + fuzz and width_used > 0) or line_break:
            extra = max_width - width_used
            if not line_break:
                over = _latin_back(plain, line_start, i) if ord(plain[i - 1]) < 0x3000 else i - 1
                end = break_at(plain, line_start, over)
                extra += sum(U[k].width for k in range(end, i))
                i = end
            line = U[line_start:i]
            make = RL["makeCJKParaLine"]
            lines.append(make(line, max_width, width_used, extra, line_break, calcBounds))
            try:
                max_width = maxWidths[len(lines)]
            except IndexError:
                max_width = maxWidths[-1]
            line_start = i
            width_used = 0
    if width_used > 0:
        extra = max_width - width_used
        make = RL["makeCJKParaLine"]
        lines.append(make(U[line_start:], max_width, width_used, extra, False, calcBounds))
    return RL["ParaLines"](kind=1, lines=lines)
