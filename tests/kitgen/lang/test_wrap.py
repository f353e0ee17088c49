"""kitgen.lang.wrap: a picture's labels broken by the language's rules, without a lone character
on the last line (並べたカー|ド) where smaller type keeps the word whole."""

from __future__ import annotations

from reportlab.pdfbase.pdfmetrics import stringWidth

from kitgen.lang.fonts import KIT_FONTS, using_fonts
from kitgen.lang.wrap import fitted_lines

FONT = KIT_FONTS[1]


def test_no_lone_character_on_the_last_line_when_smaller_type_helps() -> None:
    with using_fonts("ja", KIT_FONTS):
        word = "並べたカード"
        width = stringWidth("並べたカー", FONT, 6.5) + 0.5  # the whole word is one character too wide
        lines, size = fitted_lines(word, width, FONT, 6.5, 4.5, 3)
        assert lines == [word] and size < 6.5
        assert stringWidth(word, FONT, size) <= width
        two = "仮想プレイヤー1の手札"  # two lines, the last longer than one character: kept at 6.5
        lines, size = fitted_lines(two, stringWidth("仮想プレイヤー", FONT, 6.5) + 0.5, FONT, 6.5, 4.5, 3)
        assert size == 6.5 and len(lines) == 2 and len(lines[-1]) > 1


def test_the_largest_fitting_size_when_no_size_avoids_it() -> None:
    with using_fonts("ja", KIT_FONTS):
        word = "山札" * 4 + "山"  # 4 + 4 + 1 characters at 6.5 and at 6.0 alike
        width = stringWidth("山札山札", FONT, 6.5) + 0.1
        lines, size = fitted_lines(word, width, FONT, 6.5, 6.0, 9)
        assert size == 6.5 and lines[-1] == "山"  # 6.0 cannot avoid it either: the larger size stays
        assert all(stringWidth(line, FONT, size) <= width for line in lines)
