"""Make the Japanese font kitgen ships, ``kitgen/lang/fonts/NotoSansJP-Subset.ttf``, from Noto
Sans JP Regular (SIL Open Font License 1.1; the OpenType/CFF file of the noto-cjk project, as the
PyPI package pylopdf-fonts-jp 0.1.1 carries it).

reportlab embeds TrueType (glyf) outlines only, so the CFF outlines are converted to quadratic
TrueType ones (fontTools' cu2qu); to keep the repository small the font is first subset (fontTools)
to JIS X 0208 rows 1-47 (symbols, kana, Greek, the 2,965 kanji of level 1) plus every non-ASCII
character kitgen's templates, specs and code use. Each PDF then embeds only the glyphs its pages
use (reportlab subsets on embedding).

``python -m kitgen.lang.fontsubset SOURCE.otf`` rewrites the shipped file (a developer's step,
run once; kits never run it).
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.subset import Options, Subsetter
from fontTools.ttLib import TTFont, newTable

from .fonts import FONTS_DIR, JA_FONT

ROOT = Path(__file__).resolve().parent.parent.parent


def characters() -> set[int]:
    """The code points the subset keeps."""
    keep = set(range(0x20, 0x7F)) | set(range(0xA0, 0x100)) | set(range(0x2000, 0x2070))
    keep |= set(range(0x3000, 0x3100)) | set(range(0xFF00, 0xFFF0))
    for high in range(0xA1, 0xD0):  # EUC-JP rows 1-47: JIS X 0208 symbols, kana, level-1 kanji
        for low in range(0xA1, 0xFF):
            with contextlib.suppress(UnicodeDecodeError):
                keep.add(ord(bytes([high, low]).decode("euc_jp")))
    for pattern in ("templates/**/*.yaml", "rulesets/**/*.yaml", "kitgen/**/*.py", "kitgen/**/*.po"):
        for path in ROOT.glob(pattern):
            keep |= {ord(c) for c in path.read_text(encoding="utf-8") if ord(c) > 0x7E}
    return keep


def to_truetype(font: TTFont) -> None:
    """Replace ``font``'s CFF outlines by TrueType ones, in place."""
    order = font.getGlyphOrder()
    glyphs = font.getGlyphSet()
    glyf = newTable("glyf")
    glyf.glyphOrder, glyf.glyphs = order, {}
    for name in order:
        pen = TTGlyphPen(glyphs)
        glyphs[name].draw(Cu2QuPen(pen, 1.0, reverse_direction=True))
        glyf[name] = pen.glyph()
    font["glyf"], font["loca"] = glyf, newTable("loca")
    maxp = font["maxp"]
    maxp.tableVersion = 0x00010000
    for field in ("maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs"):
        setattr(maxp, field, 0)
    for field in ("maxStackElements", "maxSizeOfInstructions", "maxComponentElements"):
        setattr(maxp, field, 0)
    maxp.maxZones = 1
    font["head"].glyphDataFormat = 0
    for table in ("CFF ", "VORG"):
        if table in font:
            del font[table]
    post = font["post"]
    post.formatType, post.extraNames, post.mapping = 2.0, [], {}
    font.sfntVersion = "\0\1\0\0"


def make(source: Path, target: Path = FONTS_DIR / JA_FONT) -> None:
    font = TTFont(str(source))
    options = Options()
    options.layout_features, options.name_IDs = ["*"], ["*"]
    options.notdef_outline, options.hinting, options.desubroutinize = True, False, True
    subsetter = Subsetter(options)
    subsetter.populate(unicodes=characters())
    subsetter.subset(font)
    to_truetype(font)
    tmp = target.with_suffix(".tmp")
    font.save(str(tmp))
    tmp.replace(target)


if __name__ == "__main__":
    make(Path(sys.argv[1]))
