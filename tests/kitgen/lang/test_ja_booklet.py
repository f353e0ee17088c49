"""The Japanese UNO booklet has no English left (issue 41, "Done when"): ``pdftotext`` of
``kitgen booklet uno --lang ja`` holds no ASCII word of 4+ letters outside card codes, file names
and the validation appendix. It needs the Japanese words (the w41-ja lane: the catalogue
kitgen/lang/locale/ja and the overlays beside the specs); until they are complete it skips and says
what is missing."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from kitgen.lang import catalogue
from kitgen.lang.overlay import cited_names
from reference_engine.api import Library, UsageError
from tests.kitgen.lang.poppler import poppler

ASCII_WORD = re.compile(r"(?<![A-Za-z0-9_.])[A-Za-z]{4,}(?![A-Za-z0-9_.])")  # a Japanese neighbour ends it
FILE_NAME = re.compile(r"\S+\.(?:pdf|txt|json|html|yaml|png)\b")


def english_words(
    text: str, codes: frozenset[str], validation: str, quick: str, names: frozenset[str] = frozenset()
) -> list[str]:
    """The ASCII words of 4+ letters of a booklet's text, less card codes (a spec's symbol names),
    file names and the cited papers' authors and titles where they are cited (``names``: whole
    phrases, across line breaks), and less the validation appendix (from its heading, after a line
    break or pdftotext's form feed, to the quick reference)."""
    heading = re.search(rf"[\n\f]{re.escape(validation)}\n", text)
    if heading:
        start = heading.start()
        end = text.find(quick, start)
        text = text[: start + 1] + (text[end:] if end >= 0 else "")
    text = FILE_NAME.sub(" ", re.sub(r"\s+", " ", text))
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    return sorted({w for w in ASCII_WORD.findall(text) if w not in codes and w != "kitgen"})


def test_english_words_finds_what_is_left() -> None:
    text = (
        "手順1. α を置く alpha\nshuffle.pdf を見る\nThe table\n検証\nexact verification here\nクイック Draw"
    )
    assert english_words(text, frozenset({"alpha"}), "検証", "クイック") == ["Draw", "table"]
    paged = "手順1. Simulating Virtual\nPlayers\f検証\nexact verification\fクイック"  # a form feed
    cited = frozenset({"Simulating Virtual Players"})
    assert english_words(paged, frozenset(), "検証", "クイック", cited) == []
    assert english_words("Virtual 1 の番です。" + paged, frozenset(), "検証", "クイック", cited) == [
        "Virtual"
    ]


def test_the_cited_words_are_the_papers_names_and_titles_only() -> None:
    from kitgen.lang.overlay import cited_words

    assert {
        "S. Ruangwises, K. Shinagawa",
        "Simulating Virtual Players for UNO without Computers",
    } <= cited_names()
    words = cited_words()
    assert {"Ruangwises", "Shinagawa", "Simulating", "Players", "without", "Computers", "Gakmoro"} <= words
    assert {"Mizuki", "Boer", "Penguin", "Covert", "Lottery"} <= words
    assert not {"Section", "Sections", "final", "version", "steps", "issue", "Appendix", "common"} & words


@pytest.mark.slow  # a whole booklet build in Japanese
def test_the_japanese_uno_booklet_has_no_english_words(tmp_path: Path) -> None:
    if "ja" not in catalogue.languages():
        pytest.skip("no Japanese catalogue yet (kitgen/lang/locale/ja: the w41-ja lane)")
    gaps = catalogue.missing("ja")
    if gaps:
        pytest.skip(f"the Japanese catalogue lacks {len(gaps)} strings, e.g. {gaps[0]!r}")
    from kitgen.kit.build import BookletOptions, build_booklet
    from kitgen.lang.catalogue import _, using_language

    out = tmp_path / "ja"
    with using_language("ja"):
        validation, quick = _("Validation"), _("Quick reference: {title}").split("{")[0]
        try:
            build_booklet(BookletOptions(name="uno", runs=20, previews=False, output=str(out)))
        except UsageError as exc:  # a spec text without translation: the overlays are not complete
            pytest.skip(str(exc))
    library = Library()
    codes = frozenset(s for name in library.names() for s in library.protocol(name).symbols)
    text = poppler("pdftotext", str(out / "booklet.pdf"), "-")
    kit_id = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["booklet"]  # the running foot's
    text = text.replace(kit_id, " ")
    assert english_words(text, codes, validation, quick, cited_names()) == []
    # The kit's contents give each count with its spares on one line: "20（16＋予備4）", not broken
    # inside the word (予|備) as it was in the English column's width.
    assert len(re.findall(r"\d+（\d+＋予備\d+）", text)) >= 5
    assert not re.search(r"予\s*\n\s*備", text)
    # Its pages filled as the English ones (tests/kitgen/booklet/test_writer.py): step 9's checks
    # box, alone, went to a page a seventh full before step 10's whole-page picture.
    from tests.kitgen.booklet.test_writer import fills, part_pages, short_pages

    assert short_pages(fills(out / "booklet.pdf"), part_pages(out / "booklet.pdf")) == []


# --- each class of kitgen-made booklet words, in Japanese (issue 41, w41-booklet) --------------
ASCII4 = re.compile(r"[A-Za-z]{4,}")


def test_seat_names_are_said_in_the_language_and_stay_english_as_data() -> None:
    from kitgen.lang.catalogue import using_language
    from kitgen.lang.seats import seat_name

    engine = ["Virtual 1", "Human 2", "Draw pile", "Discard pile", "Boneyard"]
    assert [seat_name(n) for n in engine] == engine  # English: the engine's names as they are
    with using_language("ja"):
        said = [seat_name(n) for n in engine]
        assert said == ["仮想1", "人間2", "山札", "捨て札の山", "山"]
        assert seat_name("Alice") == "アリス"  # a rule set's player, as its overlay and the glossary say it
        assert seat_name("Carol") == "Carol"  # a name nobody translates: as it is
        assert seat_name("Virtual") == "Virtual"  # not a seat's name: left alone
    with using_language("qps"):
        assert seat_name("Human 3") == "⟦Human 3⟧"


def test_owner_cards_labels_and_the_table_say_seats_in_japanese() -> None:
    from kitgen.booklet.legend import helper_legend
    from kitgen.booklet.parts import booklet_style
    from kitgen.kinds.virtual import whose_owner_cards
    from kitgen.lang.catalogue import using_language
    from kitgen.paper.faces import Face
    from kitgen.paper.labels import theta_label

    owners = ["Virtual 1", "Human 1", "Draw pile"]
    with using_language("ja"):
        faces = [Face("theta", f"theta{i}", f"θ{i}", (o,)) for i, o in enumerate(owners, 1)]
        words = {k[len("legend_") :]: v for k, v in booklet_style().words.items() if k.startswith("legend_")}
        legend = helper_legend(faces, words, owners)
        text = " ".join(legend.helpers) + " ".join(legend.codes.values())
        assert "θ1 仮想1" in text and "θ3 山札" in text and not ASCII4.findall(text)
        assert theta_label(2, "Human 1").line == "人間1"
        assert (
            whose_owner_cards(["Virtual 1", "Virtual 2", "Human 1"], 2)
            == "仮想1のカードは θ1 と仮想2のカードは θ2"  # と spaced only beside a code
        )
    assert whose_owner_cards(["Virtual 1", "Virtual 2", "Human 1"], 2) == (
        "Virtual 1's are the θ1 cards and Virtual 2's the θ2 cards"
    )


def test_the_checks_say_the_engines_facts_in_english_exactly_and_in_japanese() -> None:
    """:func:`kitgen.booklet.checks.phrase` in English is the engine's own sentence, fact by fact,
    for protocols whose reveals give every kind of fact; in Japanese it has no English word."""
    from kitgen.booklet.checks import check_text, phrase
    from kitgen.lang.catalogue import using_language
    from reference_engine.api import possible_reveals

    library = Library()
    kinds: set[str] = set()
    for name in ("six-card-and", "knockout-lottery", "covert-lottery", "ruangwises-itoh-addition"):
        proto = library.protocol(name)
        for reveal in possible_reveals(library, proto).values():
            for fact in reveal.facts:
                kinds.add(fact.kind)
                assert phrase(fact, reveal.proto) == fact.text, (name, fact.kind)
                assert check_text(fact, reveal.proto) == fact.text
                with using_language("ja"):
                    said = check_text(fact, reveal.proto)
                    assert said != fact.text and not ASCII4.findall(said), (name, said)
                with using_language("qps"):
                    assert check_text(fact, reveal.proto).startswith("⟦")
    assert {"only", "same_cards", "one_of"} <= kinds


def test_picture_labels_count_in_japanese() -> None:
    from kitgen.booklet.tableplan import rows_words
    from kitgen.lang.catalogue import ngettext, using_language

    assert rows_words(1, "sleeves").format(n=1, rows=1, per_row=18) == "1 sleeve in 1 rows of up to 18"
    assert rows_words(92, "columns").format(n=92, rows=6, per_row=18) == "92 columns in 6 rows of up to 18"
    assert ngettext("{n} more\ncolumn", "{n} more\ncolumns", 1).format(n=1) == "1 more\ncolumn"
    with using_language("ja"):
        assert (
            rows_words(107, "sleeves").format(n=107, rows=6, per_row=18)
            == "スリーブ 107 枚を 6 列に（1列に 18 枚まで）"
        )
        assert ngettext("{n} sleeve", "{n} sleeves", 92).format(n=92) == "スリーブ 92 枚"
        stacked = rows_words(37, "cards in a row", 2).format(n=37, rows=2, per_row=24, cards=74, height=2)
        assert stacked == "カード 74 枚（2 枚ずつ 37 列）を、最大 24 列ずつ 2 段に"


def test_the_legend_says_uno_cards_in_japanese() -> None:
    from kitgen.booklet.legend import game_card_legend
    from kitgen.lang.catalogue import using_language
    from reference_engine.api import load_game

    english = game_card_legend(load_game("uno"), ["red9"])
    assert english.key.startswith("The first letter is the colour: R red")
    with using_language("ja"):
        legend = game_card_legend(load_game("uno"), ["red9"])
        lines = " ".join(f"{lead} {text}" for lead, text in legend.lines)
        assert "R 赤" in lines and "R9 = 赤の9" in lines
        assert not ASCII4.findall(lines), lines


def test_outcome_values_in_japanese() -> None:
    from kitgen.booklet.glossary import in_words, outcome_sentence
    from kitgen.lang.catalogue import using_language

    assert [in_words(v) for v in (True, "False", None, [])] == ["yes", "no", "none", "none"]
    assert outcome_sentence("whether it draws", "x" * 61) == "Whether it draws: as the last picture shows."
    with using_language("ja"):
        assert [in_words(v) for v in (True, "False", None)] == ["はい", "いいえ", "なし"]
        assert outcome_sentence("引くかどうか", "x" * 61) == "引くかどうか：最後の絵のとおり。"


# --- what a Japanese family and a print shop read besides the booklet (lane w56-e) -------------
CLOSING_MARKS = "。、」）：ー"
OPENING_MARKS = "「（"


def test_the_japanese_labels_cards_and_handout_have_no_english_words(japanese_font_kit: Path) -> None:
    """labels.pdf (its calibration heading and footer named the sheet 'Avery L7160 (A4, 21
    labels)'), the duplex page of cards.pdf and the handout ('α marker (alpha)') say no English
    word of 4+ letters but the kit's and files' names; and no line of theirs or the booklet's
    starts with a closing mark or ends with an opening one (kitgen.lang.kinsoku)."""
    kit = json.loads((japanese_font_kit / "manifest.json").read_text(encoding="utf-8"))["kit"]
    for name, pages in (("labels.pdf", ()), ("cards.pdf", ("-l", "2")), ("handout.pdf", ())):
        text = poppler("pdftotext", *pages, str(japanese_font_kit / name), "-")
        text = re.sub(r"--[a-z][a-z-]*", " ", text.replace(kit, " "))  # a flag to type: --back-offset
        assert english_words(text, frozenset(), "検証", "早見表", cited_names()) == [], name
    for name in ("labels.pdf", "handout.pdf", "booklet.pdf"):
        for line in poppler("pdftotext", str(japanese_font_kit / name), "-").splitlines():
            line = line.strip()
            assert not line or (line[0] not in CLOSING_MARKS and line[-1] not in OPENING_MARKS), (name, line)
