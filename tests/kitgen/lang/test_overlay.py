"""Translated spec texts (kitgen.lang.overlay): an overlay beside its source, keyed like the
source, refused when it names what is not a text field, counted when it leaves one out."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kitgen.lang import overlay
from kitgen.lang.catalogue import using_language
from reference_engine.api import SpecError

ROOT = Path(__file__).resolve().parents[3]
SOURCE = ROOT / "rulesets" / "protocols" / "six-card-and.yaml"


@pytest.fixture
def source(tmp_path: Path) -> Path:
    copy = tmp_path / "six-card-and.yaml"
    shutil.copy(SOURCE, copy)
    return copy


def write_overlay(source: Path, text: str, lang: str = "ja") -> Path:
    path = overlay.overlay_path(source, lang)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_text_fields_are_keyed_by_step() -> None:
    import yaml

    fields = dict(overlay.text_fields(yaml.safe_load(SOURCE.read_text(encoding="utf-8"))))
    assert fields[("title",)] == "Six-card AND (Mizuki-Sone)"
    assert ("steps", "3", "say") in fields and ("steps", "3", "shuffle", "how") in fields
    assert ("booklet", "names", "alpha") in fields and ("booklet", "names", "x", "values", "0") in fields
    assert not any(k[0] in ("expect", "symbols") for k in fields)  # not words players read
    assert [k for k in fields if k[0] == "source"] == [("source", "cite")]  # the citation only
    assert ("steps", "1", "place", "s") not in fields and ("booklet", "example", "seed") not in fields


def test_an_overlay_translates_by_the_english_words(source: Path) -> None:
    write_overlay(source, 'title: 六枚AND\nsteps:\n  "2":\n    brief: 二枚目を四番目へ。\n')
    found, missing = overlay.load_overlay(source, "ja")
    assert found == {
        "Six-card AND (Mizuki-Sone)": "六枚AND",
        "Card 2 moves to place 4; cards 3 and 4 slide left.": "二枚目を四番目へ。",
    }
    assert missing == len(dict(overlay.text_fields(__import__("yaml").safe_load(source.read_text())))) - 2


def test_no_overlay_translates_nothing(source: Path) -> None:
    found, missing = overlay.load_overlay(source, "ja")
    assert found == {} and missing > 30


@pytest.mark.parametrize(
    ("text", "line", "key"),
    [
        ("title: ok\nprotocol: other\n", 2, "protocol"),  # not a text field
        ('title: ok\nsteps:\n  "9":\n    say: no such step\n', 4, "steps.9.say"),
        ('steps:\n  "1":\n    place: {s: [x]}\n', 3, "steps.1.place"),
        ("title: [a, b]\n", 1, "title"),  # a translation is text
    ],
)
def test_an_overlay_key_that_is_not_a_text_field_is_refused(
    source: Path, text: str, line: int, key: str
) -> None:
    path = write_overlay(source, text)
    with pytest.raises(SpecError) as info:
        overlay.load_overlay(source, "ja")
    problem = info.value.problems[0]
    assert problem.file == str(path) and problem.line == line
    assert key.split(".")[0] in str(info.value)
    assert info.value.exit_code == 2


def test_spec_text_in_each_language() -> None:
    assert overlay.spec_text("Shuffle.") == "Shuffle."
    assert overlay.spec_text(None) is None
    with using_language("qps"):
        assert overlay.spec_text("Shuffle.") == "⟦Shuffle.⟧"
        assert overlay.spec_text("") == ""


def test_the_shipped_overlays_load() -> None:
    """Every overlay a translator wrote beside the shipped specs mirrors its source."""
    for lang in {p.parent.name for p in ROOT.glob("rulesets/*/i18n/*/*.yaml")}:
        overlay.texts.cache_clear()
        assert isinstance(overlay.texts(lang), dict)


def test_a_missing_spec_text_is_refused_unless_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    from kitgen.lang import catalogue
    from reference_engine.api import UsageError

    monkeypatch.setattr(overlay, "texts", lambda lang: {"Shuffle.": "シャッフル。"})
    monkeypatch.setattr(catalogue._ACTIVE, "lang", "zz")
    assert overlay.spec_text("Shuffle.") == "シャッフル。"
    with pytest.raises(
        UsageError, match=r"no translation in rulesets/\*/i18n/zz/: 'Deal\.'.*--allow-missing"
    ):
        overlay.spec_text("Deal.")
    monkeypatch.setattr(catalogue._ACTIVE, "allow_missing", True)
    assert overlay.spec_text("Deal.") == "Deal." and "Deal." in overlay.MISSED
    overlay.MISSED.clear()
