"""The Japanese font and line breaking (kitgen.lang.fonts): shipped with its licence, covering the
characters kitgen prints, embedded in a Japanese PDF, lines never starting with 。、」."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import Paragraph

from kitgen.lang import catalogue, fonts
from kitgen.lang.catalogue import using_language
from kitgen.paper.faces import FONT, ensure_fonts

ROOT = Path(__file__).resolve().parents[3]
JA = (
    "裏向きの2つのビットを入れます。どちらもカードのペアで、α β が 0、β α が 1 です。"
    "「両方」と「2つ目だけ」の二つのペアが出てきます。"
)
# Two marks that cannot start a line in a row (」、): reportlab's CJK wrapping hangs only one.
JA_TWO_MARKS = "「両方」と「2つ目だけ」、二つのペアが出てきます。" * 4


@pytest.fixture
def ja(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A Japanese catalogue with no translation yet (built with --allow-missing)."""
    shutil.copy(catalogue.TEMPLATE, tmp_path / "kitgen.pot")
    po = tmp_path / "ja" / "LC_MESSAGES" / "kitgen.po"
    po.parent.mkdir(parents=True)
    shutil.copy(catalogue.TEMPLATE, po)
    monkeypatch.setattr(catalogue, "LOCALE_DIR", tmp_path)
    monkeypatch.setattr(catalogue, "TEMPLATE", tmp_path / "kitgen.pot")
    catalogue.translations.cache_clear()
    yield "ja"
    catalogue.translations.cache_clear()


def test_the_font_names_are_the_kits() -> None:
    from kitgen.paper.faces import FONT_BOLD

    assert fonts.KIT_FONTS == (FONT, FONT_BOLD)


def test_the_font_ships_with_its_licence() -> None:
    font = fonts.FONTS_DIR / fonts.JA_FONT
    assert font.is_file() and font.stat().st_size < 2_000_000  # a subset, not the 4.5 MB original
    licence = (fonts.FONTS_DIR / fonts.LICENCE).read_text(encoding="utf-8")
    assert "SIL Open Font License" in licence and "Adobe" in licence
    assert font.read_bytes()[:4] == b"\0\1\0\0"  # TrueType outlines: reportlab embeds no CFF


def test_the_font_prints_kana_kanji_and_the_card_symbols() -> None:
    assert (
        fonts.uncovered("カードを裏向きに並べます。「大富豪」、山札、手札、α β θ λ ♠♣♥♦ ⇄ ⊘ ■ ×", "ja") == []
    )
    assert fonts.uncovered("⟦", "ja") == ["⟦"]  # the pseudo-locale's brackets: printed in DejaVu Sans


def test_every_translation_shipped_is_printable() -> None:
    """Every character of every shipped Japanese text (catalogue and overlays) is in the font."""
    texts = [p.read_text(encoding="utf-8") for p in ROOT.glob("rulesets/*/i18n/ja/*.yaml")]
    po = catalogue.po_path("ja")
    if po.is_file():
        texts.append(po.read_text(encoding="utf-8"))
    if not texts:
        pytest.skip("no Japanese texts yet (the w41-ja translations)")
    assert fonts.uncovered("".join(texts), "ja") == []


def test_a_japanese_kit_is_set_in_the_japanese_font(ja: str) -> None:
    ensure_fonts()
    english = pdfmetrics.getFont(FONT)
    with using_language(ja, allow_missing=True):
        assert pdfmetrics.getFont(FONT).face.name.endswith(b"NotoSansJP-Regular")  # type: ignore[attr-defined]
        assert pdfmetrics.stringWidth("大", FONT, 10) == pytest.approx(10)  # a full-width glyph
    assert pdfmetrics.getFont(FONT) is english


def line_text(line: object) -> str:
    """A wrapped line's text: (space, [text]) for one run of text, a line of fragments else."""
    if isinstance(line, tuple):
        return "".join(line[1])
    return "".join(getattr(w, "text", "") for w in getattr(line, "words", []))


def wrapped(text: str, ja: str) -> Iterator[tuple[int, list[str]]]:
    with using_language(ja, allow_missing=True):
        style = ParagraphStyle("body", fontName=FONT, fontSize=10, leading=13)
        assert style.wordWrap == "CJK"
        for width in range(60, 260, 7):
            para = Paragraph(text, style)
            para.wrap(width, 10_000)
            yield width, [line_text(line) for line in para.blPara.lines]  # type: ignore[attr-defined]


def test_two_closing_marks_in_a_row(ja: str) -> None:
    """reportlab hangs one closing mark; kitgen.lang.kinsoku moves the break back for two (」、:
    the Daifugō booklet had lines starting with 、 after a hung 」 or ）)."""
    for width, lines in wrapped(JA_TWO_MARKS, ja):
        assert all(line[:1] not in "。、」）" for line in lines[1:]), width


def test_no_line_ends_with_an_opening_mark(ja: str) -> None:
    """The six-card AND booklet had 「 at a line's end and 両方」 on the next (kitgen.lang.kinsoku)."""
    for width, lines in wrapped(JA * 2, ja):
        assert all(line.rstrip()[-1:] not in "「（" for line in lines[:-1]), width


def test_no_line_starts_with_a_long_vowel_mark_or_small_kana(ja: str) -> None:
    """ュー: reportlab hung the small ュ and started the next line with ー (「ーターの…」 in the
    Daifugō booklet); no line starts with ー, ッ or ャ ュ ョ."""
    text = "コンピューターのプレイヤーは、シャッフルしたカードをチェックします。" * 3
    for width, lines in wrapped(text, ja):
        assert all(line[:1] not in "ーッャュョ。、" for line in lines[1:]), (width, lines)
        assert all(line[-1:] not in "ーッャュョ" or len(line) > 1 for line in lines), (width, lines)
        assert "".join(lines) == text


def test_the_break_is_reportlabs_where_its_rule_was_right() -> None:
    """kitgen.lang.kinsoku.break_at: a plain break stays where it was; one closing mark hangs."""
    from kitgen.lang.kinsoku import break_at

    assert break_at("カードを並べます", 0, 5) == 5  # ベ starts the next line
    assert break_at("カードを並べます。次に", 0, 8) == 9  # 。 hangs, 次 starts the next line
    assert break_at("ペア、「両方」", 0, 3) == 3  # 「 may not end a line: it goes to the next
    assert break_at("ペア、「両方」", 0, 4) == 3  # 両 overflows: 「 goes with it
    assert break_at("「両方」、二つ", 0, 4) == 5  # 、 hangs after 」: 二 starts the next line
    assert break_at("「両方」、二つ", 0, 3) == 2  # 」 overflows before 、: 方」、 moves down
    assert break_at("コンピューター", 0, 4) == 2  # ュー: ピ starts the next line, nothing hangs
    assert break_at("ーー", 0, 1) == 2  # no place at all: reportlab's rule (hang)
    assert break_at("1つ目の数：4。次", 0, 5) == 6  # ： (not in reportlab's list) hangs; 4 starts the next


def test_japanese_lines_never_start_with_closing_punctuation(ja: str) -> None:
    with using_language(ja, allow_missing=True):
        style = ParagraphStyle("body", fontName=FONT, fontSize=10, leading=13)
        assert style.wordWrap == "CJK"
        for width in range(60, 260, 7):
            para = Paragraph(JA * 2, style)
            para.wrap(width, 10_000)
            lines = [line_text(line) for line in para.blPara.lines]  # type: ignore[attr-defined]
            assert len(lines) > 1
            for line in lines[1:]:
                assert line[:1] not in "。、」）", (width, line)
    assert ParagraphStyle("after", fontName=FONT).wordWrap is None  # English: words, as before


def test_a_picture_label_breaks_between_characters(ja: str) -> None:
    """A place's name in a step picture has no spaces in Japanese: it breaks between characters
    and fits its column (the page check found one over a card before)."""
    from kitgen.booklet.diagram import title_lines
    from kitgen.paper.faces import FONT_BOLD

    title = "わきに置いた持ち主カード"
    with using_language(ja, allow_missing=True):
        lines, size = title_lines(title, 40)
        assert len(lines) > 1 and "".join(lines) == title
        assert all(pdfmetrics.stringWidth(line, FONT_BOLD, size) <= 40 for line in lines)
    assert title_lines("Owner cards set aside", 40)[0] == ["Owner", "cards set", "aside"]  # English: words


def test_bold_in_a_paragraph_when_japanese_comes_first() -> None:
    """A process whose first kit is Japanese never registered the English fonts: <b> in a
    paragraph (Gakmoro's bundle sheet) still finds the font (a Gakmoro build failed before)."""
    import subprocess
    import sys

    code = (
        "from reportlab.lib.styles import ParagraphStyle\n"
        "from reportlab.platypus import Paragraph\n"
        "from kitgen.lang.fonts import KIT_FONTS, using_fonts\n"
        "with using_fonts('ja', KIT_FONTS):\n"
        "    p = Paragraph('<b>1.</b> 束を作ります。', ParagraphStyle('s', fontName=KIT_FONTS[0]))\n"
        "    p.wrap(100, 100)\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-500:]
