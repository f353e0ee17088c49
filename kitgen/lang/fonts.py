"""A language's font (docs/languages.md): DejaVu Sans (templates/fonts) prints English and the
card symbols; Japanese needs a CJK font, Noto Sans JP (SIL Open Font License 1.1), shipped as
``kitgen/lang/fonts/NotoSansJP-Subset.ttf`` (made by :mod:`kitgen.lang.fontsubset`), its licence
beside it.

While a language with its own font is active, the kit's font names (``KitSans``,
``KitSans-Bold``, :mod:`kitgen.paper.faces`) stand for that font, so every page is set in it; reportlab
embeds only the glyphs a PDF uses.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Literal

from reportlab.lib import fonts
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import paragraph

from .kinsoku import cjk_frag_split, word_split

FONTS_DIR = Path(__file__).parent / "fonts"
JA_FONT = "NotoSansJP-Subset.ttf"
LICENCE = "OFL-NotoSansJP.txt"
BY_LANGUAGE = {"ja": JA_FONT}  # a language DejaVu Sans cannot print: its font file (regular and bold)
KIT_FONTS = ("KitSans", "KitSans-Bold")  # the names every page is set in: kitgen.paper.faces.FONT, FONT_BOLD
STYLES: tuple[tuple[Literal[0, 1], Literal[0, 1]], ...] = ((0, 0), (1, 0), (0, 1), (1, 1))
CJK = frozenset({"ja", "zh", "ko"})  # lines break between characters, by reportlab's CJK rules


def font_file(lang: str) -> Path | None:
    name = BY_LANGUAGE.get(lang.split("_")[0])
    return FONTS_DIR / name if name else None


@lru_cache(maxsize=4)
def _loaded(path: Path, as_name: str) -> TTFont:
    return TTFont(as_name, str(path))


@lru_cache(maxsize=4)
def coverage(lang: str) -> frozenset[int]:
    """The code points the language's font has (DejaVu's for a language without its own)."""
    from fontTools.ttLib import TTFont as Reader

    path = font_file(lang)
    if path is None:
        path = Path(__file__).resolve().parent.parent.parent / "templates" / "fonts" / "DejaVuSans.ttf"
    return frozenset(Reader(str(path), lazy=True).getBestCmap())


def uncovered(text: str, lang: str) -> list[str]:
    """The characters of ``text`` the language's font cannot print (they would print as boxes)."""
    have = coverage(lang)
    return sorted({c for c in text if ord(c) >= 0x20 and ord(c) not in have})


@contextmanager
def using_fonts(lang: str, names: tuple[str, ...]) -> Iterator[None]:
    """While the block runs, each registered font in ``names`` is ``lang``'s font (nothing
    changes for a language without one), and for a CJK language every paragraph style made
    breaks lines by reportlab's CJK wrapping (``wordWrap="CJK"``: between any two characters),
    with :mod:`kitgen.lang.kinsoku`'s rules (never before 。、」ー and the like, even two in a
    row, never after 「（ and the like)."""
    path = font_file(lang)
    if path is None:
        yield
        return
    wrap_before = ParagraphStyle.defaults.get("wordWrap")
    rl: dict[str, object] = vars(paragraph)  # reportlab's paragraph module: its line splitters
    split_before = (rl["cjkFragSplit"], rl["wordSplit"])
    if lang.split("_")[0] in CJK:
        ParagraphStyle.defaults["wordWrap"] = "CJK"
        rl["cjkFragSplit"] = cjk_frag_split  # kinsoku: no line starts 。、」ー, none ends 「（
        rl["wordSplit"] = word_split  # the same for a paragraph of one run of text
    registry: dict[str, object] = vars(pdfmetrics)["_fonts"]  # reportlab's registered fonts, by name
    before = {n: registry.get(n) for n in names}
    for n in names:  # one font object for all of them: one embedded subset per PDF
        registry[n] = _loaded(path, names[0])
        for bold, italic in STYLES:  # as registerFont maps a TrueType font, for <b> in a paragraph
            try:
                fonts.tt2ps(n.lower(), bold, italic)
            except ValueError:  # never registered in this process (a Japanese kit first)
                fonts.addMapping(n.lower(), bold, italic, n)
    try:
        yield
    finally:
        ParagraphStyle.defaults["wordWrap"] = wrap_before
        rl["cjkFragSplit"], rl["wordSplit"] = split_before
        for n, font in before.items():
            if font is None:
                registry.pop(n, None)
            else:
                registry[n] = font
