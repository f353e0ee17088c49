"""The message catalogue (kitgen.lang.catalogue): languages, the pseudo-locale, a .po compiled in
memory, missing strings refused unless allowed, the template up to date."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from kitgen.cli.main import main
from kitgen.lang import catalogue, extract
from kitgen.lang.catalogue import _, ngettext, using_language
from reference_engine.api import UsageError

PO = """msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=1; plural=0;\\n"

msgid "At the table."
msgstr "テーブルで。"

msgid "{n} card"
msgid_plural "{n} cards"
msgstr[0] "{n}枚"
"""


@pytest.fixture
def locale_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A locale folder with the real template and a small Japanese catalogue (two strings)."""
    shutil.copy(catalogue.TEMPLATE, tmp_path / "kitgen.pot")
    po = tmp_path / "zz" / "LC_MESSAGES" / "kitgen.po"
    po.parent.mkdir(parents=True)
    po.write_text(PO, encoding="utf-8")
    monkeypatch.setattr(catalogue, "LOCALE_DIR", tmp_path)
    monkeypatch.setattr(catalogue, "TEMPLATE", tmp_path / "kitgen.pot")
    catalogue.translations.cache_clear()
    yield tmp_path
    catalogue.translations.cache_clear()


def test_the_template_is_up_to_date() -> None:
    """kitgen.pot holds exactly the strings the code and templates have (python -m kitgen.lang.extract)."""
    assert extract.main(["--check"]) == 0


def test_the_template_has_the_booklet_words_and_card_names() -> None:
    ids = set(catalogue.template_ids())
    assert "At the table." in ids  # templates/booklet.yaml words.cover_time
    assert "Red" in ids and "Wild" in ids  # templates/cards.yaml names


def test_english_is_the_words_themselves() -> None:
    assert catalogue.language() == "en"
    assert _("At the table.") == "At the table."
    assert ngettext("{n} card", "{n} cards", 2) == "{n} cards"


def test_the_pseudo_locale_wraps_every_string() -> None:
    with using_language("qps"):
        assert catalogue.language() == "qps"
        assert _("At the table.") == "⟦At the table.⟧"
        assert ngettext("{n} card", "{n} cards", 1).format(n=1) == "⟦1 card⟧"
    assert catalogue.language() == "en"


def test_a_po_file_is_compiled_in_memory(locale_dir: Path) -> None:
    assert "zz" in catalogue.languages()
    with using_language("zz", allow_missing=True):
        assert _("At the table.") == "テーブルで。"
        assert ngettext("{n} card", "{n} cards", 3).format(n=3) == "3枚"
        assert _("Red") == "Red"  # not translated: English
    assert not list(locale_dir.rglob("*.mo"))


def test_a_language_with_missing_strings_is_refused_unless_allowed(locale_dir: Path) -> None:
    gaps = len(set(catalogue.template_ids()) - {"At the table.", "{n} card"})  # the two the file translates
    with (
        pytest.raises(UsageError, match=rf"{gaps} of \d+ strings are not translated.*--allow-missing"),
        using_language("zz"),
    ):
        pass
    assert catalogue.check_language("zz", allow_missing=True) == gaps


def test_an_unknown_language_names_the_known_ones() -> None:
    with pytest.raises(UsageError, match=r"unknown language 'xx': kitgen knows en, .*qps"):
        catalogue.check_language("xx")


@pytest.mark.parametrize("command", [["build", "uno"], ["booklet", "uno"]])
def test_the_cli_refuses_an_unknown_language_with_exit_2(command: list[str], tmp_path: Path) -> None:
    result = CliRunner().invoke(main, [*command, "--lang", "xx", "-o", str(tmp_path / "k")])
    assert result.exit_code == 2, result.output
    assert "unknown language 'xx'" in result.output and "en, " in result.output
    assert not (tmp_path / "k").exists()


def test_list_langs() -> None:
    result = CliRunner().invoke(main, ["list", "--langs"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("en") and "English" in lines[0]
    assert lines[-1].startswith("qps") and "⟦" in lines[-1]


def test_list_langs_alone() -> None:
    result = CliRunner().invoke(main, ["list", "--langs", "--times"])
    assert result.exit_code == 2


def test_number_follows_the_locale() -> None:
    assert catalogue.number(1234.5) == "1234.5"  # English: Python's own, as before
    catalogue._ACTIVE.lang = "de"
    try:
        assert catalogue.number(1234.5) == "1.234,5"
    finally:
        catalogue._ACTIVE.lang = "en"


def test_a_booklet_in_a_language_with_gaps(locale_dir: Path, tmp_path: Path) -> None:
    """Refused without --allow-missing (exit 2, nothing written); with it, built, the gaps
    counted, the manifest naming the language, the translated words on the pages."""
    out = tmp_path / "b"
    refused = CliRunner().invoke(
        main, ["booklet", "six-card-and", "--lang", "zz", "--no-previews", "-o", str(out)]
    )
    assert refused.exit_code == 2 and "--allow-missing" in refused.output and not out.exists()
    args = ["booklet", "six-card-and", "--lang", "zz", "--allow-missing", "--no-previews", "-o", str(out)]
    built = CliRunner().invoke(main, args)
    assert built.exit_code == 0, built.output
    assert "strings are not translated; they stay English" in built.output
    assert "spec texts have no translation; they stay English" in built.output
    assert json.loads((out / "manifest.json").read_text(encoding="utf-8"))["language"] == "zz"


# --- the Japanese catalogue writes marks and numbers the Japanese way (lane w56-e) ------------
JA_STYLE = {
    "a space before % (100 % -> 100%)": r"\d %",
    "a half-width colon after Japanese (: -> ：)": r"[^\x00-\x7f]: ",
    "a space after a full-width mark": r"[。、：「（）」] ",
    "a space before a closing mark": r" [。、：」）]",
    "a half-width bracket beside Japanese (( ) -> （ ）)": r"[^\x00-\x7f] ?\(|\) ?[^\x00-\x7f\s]",
    "an English comma between Japanese words": r"[^\x00-\x7f], [^\x00-\x7f]",
}


def _strings(node: object) -> Iterator[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for v in node.values():
            yield from _strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from _strings(v)


def test_the_japanese_catalogue_writes_marks_and_numbers_the_japanese_way() -> None:
    """No ja msgstr has 100 % (Japanese writes 100%), a half-width colon or bracket beside
    Japanese text, or a space after 。、： or inside 「」（）, which prints as a gap; nor has a
    Japanese overlay beside the specs, but for brackets (a paper's formulas: E(a), (NOT x) AND y)."""
    import re

    import yaml
    from babel.messages.pofile import read_po

    with catalogue.po_path("ja").open("rb") as f:
        po = read_po(f)
    found = []
    for m in po:
        for text in m.string if isinstance(m.string, tuple) else (m.string,):
            found += [(rule, text) for rule, pat in JA_STYLE.items() if text and re.search(pat, text)]
    root = Path(__file__).resolve().parents[3]
    for path in sorted(root.glob("rulesets/*/i18n/ja/*.yaml")):
        for text in _strings(yaml.safe_load(path.read_text(encoding="utf-8"))):
            found += [
                (rule, path.name, text)
                for rule, pat in JA_STYLE.items()
                if "bracket" not in rule and re.search(pat, text)
            ]
    assert found == []
    assert re.search(JA_STYLE["a space before % (100 % -> 100%)"], "理想の70 %の速さ")  # the rule sees it


def test_lists_asides_and_counts_in_japanese() -> None:
    """A list, an aside and a count of things to bring, said the Japanese way: 、 between items,
    （） with no space, the count after the thing (English: as before)."""
    from kitgen.booklet.counts import counts_line
    from kitgen.core.words import listing
    from kitgen.cost.printguide import page_ranges
    from kitgen.lang.catalogue import after_lead, aside, times, word_space

    assert listing(["a", "b", "c"]) == "a, b and c"
    assert aside("2 ways") == " (2 ways)" and times(3, "α card") == "3 × α card"
    assert after_lead("Where to start.") == " " and word_space() == " "
    assert after_lead("どこから始めるか。") == "" and after_lead("確認：") == ""  # 。： carry their space
    assert times(2, "envelopes", "") == "2 envelopes" and counts_line({"λ1": 1, "λ2": 2}) == "1 λ1, 2 λ2"
    with using_language("ja"):
        assert listing(["λ1", "λ2", "λ3"]) == "λ1、λ2 と λ3"
        assert listing(["くじ札 3 枚", "「はい」"]) == "くじ札 3 枚と「はい」"  # no space beside Japanese
        assert aside("ありうる 2 通り") == "（ありうる 2 通り）" and word_space() == ""
        assert times(3, "α カード") == "α カード ×3" and times(2, "封筒", "") == "封筒 ×2"
        assert counts_line({"λ1": 1, "λ2": 2}) == "1 λ1、2 λ2"
        assert page_ranges([3, 5, 7, 9, 12, 13]) == "3〜9（奇数ページ）、12〜13"  # 〜 as the guide's 1〜2
