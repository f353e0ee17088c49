"""kitgen's own words on materials, table time, printing and verification, in Japanese (issue 41):
the bill of materials, the table-time sentences, the printing guide and shopping list, the
booklet's verification chapter and the claims come from the catalogue (and a protocol's `table:`
words from its overlay). English stays byte for byte what it was: the goldens check that.

One test per class of string; the kit-level ones read the Japanese six-card AND kit that
tests/kitgen/lang/conftest.py builds once per session."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from kitgen.core.claims import claim, meaning
from kitgen.core.durations import about_range
from kitgen.cost.gametime import GameTime
from kitgen.cost.kitcost import Footprint, KitCost, build_warnings
from kitgen.cost.sleevesize import SleeveSize
from kitgen.cost.tabletime import TableTime, run_sentence
from kitgen.kinds.virtual import Table, virtual_bom
from kitgen.lang.catalogue import using_language
from kitgen.lang.overlay import spec_text
from reference_engine.api import Library, load_game
from tests.kitgen.lang.poppler import poppler

ENGLISH = re.compile(r"(?<![A-Za-z0-9_.\-/])[A-Za-z]{4,}(?![A-Za-z0-9_.])")
NAMES = frozenset({"kitgen", "Avery"})  # the program's own name, a label maker's brand


def english(text: str, allowed: frozenset[str] = NAMES) -> list[str]:
    """The ASCII words of 4+ letters in ``text`` but ``allowed`` and file names."""
    text = re.sub(r"\S+\.(?:pdf|txt|json|html|md|csv|png)\b|--[a-z-]+", " ", text)
    return [w for w in ENGLISH.findall(text) if w not in allowed]


def test_durations_follow_the_language() -> None:
    assert about_range(65, 108) == "about 1.1-1.8 hours"  # a range in one unit
    assert about_range(1, None) == "about 1 minute"
    with using_language("ja"):
        assert about_range(8, 11) == "約8〜11分"
        assert about_range(65, 108) == "約1.1〜1.8時間"  # said 約65分〜1.8時間: two units in one range
        assert about_range(100, 160) == "約1.7〜2.7時間"
        assert about_range(1, None) == "約1分"


def _times(people: int = 3, slow: float = 1.0) -> dict[str, GameTime]:
    def one(scale: float, profile: str) -> GameTime:
        return GameTime(
            "card-selection-arrow", 30, people, 10.0, 11.0, 5.4 * scale, 0.5, 6.8 * scale, 107,
            65 * scale, 98 * scale, 60.0, 4.5, 1, profile,
        )  # fmt: skip

    return {"optimistic": one(slow, "optimistic"), "cautious": one(1.8 * slow, "cautious")}


def test_table_time_sentences_in_japanese() -> None:
    footprint = Footprint.of(107, (56, 87), 1)
    paper = _times()
    small = load_game("uno-small").title  # a rule set's title: its overlay's words
    cost = KitCost("UNO", 4, 1, _times(), footprint, "sleeves", paper, footprint, ((small, 4, 1, paper),))
    english_text = " ".join(cost.sentences())
    assert (
        "A virtual turn takes about 5-10 minutes at this table, with 3 people sharing the work"
        in english_text
    )
    with using_language("ja"):
        lines = [*cost.sentences(), cost.cover_sentence()]
        lines += [footprint.sentence(unit) for unit in ("sleeves", "columns", "cards in a row")]
        stacked = Footprint.of(37, (41, 63), 2).sentence("cards in a row")  # Gakmoro's: two to a column
        assert "カード 74 枚（2 枚ずつ 37 列）" in stacked
        lines.append(stacked)
        solo = KitCost("UNO", 1, 1, _times(1), footprint, "columns")  # every player virtual: the operator
        lines += solo.sentences()
        time = TableTime(
            {"place": 1, "move": 23, "turn": 6, "envelope": 0, "shuffle": 3}, 80, 70, 10, 3, "", 110
        )
        lines.append(run_sentence(time))
    assert "約5〜10分" in lines[0] and "3人で分担して" in lines[0]
    for line in lines:
        assert english(line) == [], line


def test_build_warnings_in_japanese() -> None:
    cost = KitCost("UNO", 4, 1, _times(slow=5.0), Footprint.of(107, (56, 87), 1), "sleeves")
    assert build_warnings(cost, 200)[1].startswith("the kit prints 200 sheets of card stock")
    with using_language("ja"):
        warnings = build_warnings(cost, 200)
    assert len(warnings) == 2 and all(english(w) == [] for w in warnings), warnings


def test_sleeve_words_in_japanese() -> None:
    size = SleeveSize((63, 88), 3, 2)
    assert size.name().startswith("opaque-backed card sleeves (clear front, solid back), all identical")
    with using_language("ja"):
        for text in (size.name(), size.note(108), size.stack_words(108)):
            assert english(text) == [], text


def test_the_bill_of_materials_in_japanese() -> None:
    """Every item's name and reason, and every note, of a sleeved UNO table with arrow cards."""
    with using_language("ja"):
        table = Table(
            title=load_game("uno").title,  # English: the item names it in the active language
            deck_name="デッキ",
            deck_faces=[],
            deck="print",
            seats=["仮想1", "人間1"],
            piles=["山札"],
            virtual=1,
            card_mm=(56, 87),
            worst_case={"table": 30, "table_seen": 30, "hands": [8, 10], "games": 100},
            pile_counts=[12],
            sleeved=True,
            bits="arrow",
        )
        bom = virtual_bom(table)
    assert [i.key for i in bom.items][:3] == ["deck", "theta1", "theta2"]
    for item in bom.items:
        assert english(item.name) == [] and english(item.why) == [], (item.name, item.why)
    for note in bom.notes:
        assert english(note) == [], note


def test_claims_in_japanese() -> None:
    library = Library()
    title = library.protocol("six-card-and").title
    base: dict[str, Any] = {"title": title, "protocol": "six-card-and", "verified": True, "params": {}}
    exact = base | {"method": "exact", "inputs": 30, "resources": {}}
    dealt = exact | {"scenario": {"deal": ["R1", "G2", "B7"], "doc": "", "name": "mini", "game": "uno"}}
    statistical = base | {
        "method": "statistical",
        "inputs": 2,
        "resources": {"cards": 107, "runs": 200},
        "scenario": {"deal": [], "doc": "full uno deck, 4 players", "name": "full", "game": "uno"},
    }
    failed = exact | {"verified": False, "scenario": None}
    reports = [exact | {"scenario": None}, dealt, statistical, failed]
    assert claim(statistical).startswith(
        f"{title}: statistical on the game's full deck, 4 players (107 cards"
    )
    with using_language("ja"):
        lines = [claim(r) for r in reports]  # type: ignore[arg-type]
        lines += [claim(exact | {"scenario": None}, statistical), meaning(None), meaning(statistical)]  # type: ignore[arg-type]
    for line in lines:
        assert english(line) == [], line


def test_a_protocols_table_words_come_from_its_overlay() -> None:
    """`table:` (how the table does the protocol, the booklet's "At the table." box) is a text field."""
    library = Library()
    for name in ("card-selection-arrow", "knockout-lottery", "covert-lottery-fast"):
        text = library.protocol(name).table
        assert text
        with using_language("ja"):
            assert english(spec_text(text)) == [], name


def _text(path: Path) -> str:
    return poppler("pdftotext", str(path), "-")


def test_the_japanese_printing_guide_and_shopping_list(japanese_font_kit: Path) -> None:
    shopping = (japanese_font_kit / "shopping-list.txt").read_text(encoding="utf-8")
    assert english(shopping) == [], shopping
    guide = (japanese_font_kit / "printing-guide.txt").read_text(encoding="utf-8")
    # Left as they are: the command and its option's value, the card types' keys; "marker" is the
    # face's name (kitgen.paper.facenames, not yet in the catalogue).
    assert english(guide, NAMES | {"build", "only", "alpha", "beta", "marker"}) == [], guide


def test_the_japanese_verification_chapter_and_cover(japanese_font_kit: Path) -> None:
    text = _text(japanese_font_kit / "booklet.pdf")
    assert "リファレンスエンジンが" in text and "Before this booklet was made" not in text
    heading = re.search(r"^\f?検証$", text, re.M)  # the chapter's heading, on a page of its own
    assert heading is not None
    chapter = text[heading.start() :]
    for word in ("Spec:", "Method:", "Resources:", "Engine:", "Verdict", "Figure", "the steps in the paper"):
        assert word not in chapter, word
    cover = text[: heading.start()]
    for word in ("exact on", "statistical on", "every possible secret", "Exact:", "reference engine"):
        assert word not in cover, word
