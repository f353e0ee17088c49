"""The Japanese words (issue 41 part 4): the overlays beside the specs and rule sets mirror their
source's text fields, keep the symbols and card codes, use the glossary's terms, and leave no
English word on a page a family reads; the catalogue's translations keep their placeholders.

These read only the files (no build), so they run in the fast tier in well under a second."""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from kitgen.lang.overlay import cited_words, text_fields

ROOT = Path(__file__).resolve().parents[3]
RULESETS = ROOT / "rulesets"
LOCALE = ROOT / "kitgen" / "lang" / "locale" / "ja"

# The kits issue 41 asks for in Japanese: four game kits and one protocol kit.
RULESETS_JA = ("uno", "uno-small", "daifugo", "gakmoro")
PROTOCOL_KITS_JA = ("six-card-and",)
Path_ = tuple[str, ...]


def _text_fields(source: Any) -> dict[Path_, str]:
    """Every text field of a source spec or rule set, by its overlay path (steps keyed by `step:`):
    kitgen/lang/overlay.py's own rules."""
    return dict(text_fields(source))


def _strings(node: Any, path: Path_ = ()) -> dict[Path_, str]:
    """Every string of an overlay by its path (a list's items keyed by position from "0")."""
    found: dict[Path_, str] = {}
    if isinstance(node, dict):
        for key, value in node.items():
            found |= _strings(value, (*path, str(key)))
    elif isinstance(node, list):
        for index, item in enumerate(node):
            found |= _strings(item, (*path, str(index)))
    elif isinstance(node, str):
        found[path] = node
    return found


def _load(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8")) if path.is_file() else {}


def _pairs(kind: str, name: str) -> tuple[dict[Path_, str], dict[Path_, str]]:
    """A source's text fields, and its overlay's translations."""
    source = _load(RULESETS / kind / f"{name}.yaml")
    return _text_fields(source), _strings(_load(RULESETS / kind / "i18n" / "ja" / f"{name}.yaml"))


CASES = [
    (kind, path.stem)
    for kind in ("games", "protocols")
    for path in sorted((RULESETS / kind / "i18n" / "ja").glob("*.yaml"))
]
# A card code or symbol a player matches against the cards: it must come through unchanged.
CODE = re.compile(r"[αβθλ](?:\d+|_\w+)?|\b[RGBYW]\d\b|\b(?:[2-9]|10|[JQKA])[♥♠♣♦]|[♥♠♣♦]")
ENGLISH_WORD = re.compile(r"\b[A-Za-z]{4,}\b")
FRAME = frozenset({"Section", "Sections", "Appendix", "Step", "Steps", "final", "version"})
# A kit's own file or folder, a command or a command-line option, named as it is.
FILE_NAME = re.compile(
    r"\b[\w-]+\.(?:pdf|html|json|txt|png|csv|md)\b|\b\w+/[\w-]*|--[a-z][a-z-]*|\bkitgen(?: [a-z]+)?"
)


@pytest.mark.parametrize(("kind", "name"), CASES, ids=[n for _, n in CASES])
def test_an_overlay_translates_every_text_field_and_nothing_else(kind: str, name: str) -> None:
    source = _load(RULESETS / kind / f"{name}.yaml")
    fields = _text_fields(source)
    overlay = _strings(_load(RULESETS / kind / "i18n" / "ja" / f"{name}.yaml"))
    assert not set(overlay) - set(fields), sorted(set(overlay) - set(fields))
    assert not set(fields) - set(overlay), sorted(set(fields) - set(overlay))


@pytest.mark.parametrize(("kind", "name"), CASES, ids=[n for _, n in CASES])
def test_symbols_card_codes_and_placeholders_stay_as_they_are(kind: str, name: str) -> None:
    source, overlay = _pairs(kind, name)
    for path, english in source.items():
        if path in overlay:
            lost = set(CODE.findall(english)) - set(CODE.findall(overlay[path]))
            assert not lost, (path, lost, overlay[path])
            # A value the booklet fills in ({whose}, {}) must stay.
            assert set(PLACEHOLDER.findall(english)) == set(PLACEHOLDER.findall(overlay[path])), path


@pytest.mark.parametrize(("kind", "name"), CASES, ids=[n for _, n in CASES])
def test_a_page_gets_no_english_word(kind: str, name: str) -> None:
    # The paper's own wording is printed only in the Validation appendix, which may quote it.
    _, overlay = _pairs(kind, name)
    for path, text in overlay.items():
        if path == ("source", "cite"):  # the cited papers' authors and titles stay; their frame is said
            kept = [w for w in ENGLISH_WORD.findall(text) if w not in cited_words()]
            assert not [w for w in kept if (w.islower() and w != "kitgen") or w in FRAME], (path, text, kept)
        elif "paper" not in path:
            assert not ENGLISH_WORD.findall(PLACEHOLDER.sub("", FILE_NAME.sub("", text))), (path, text)


# What each translation was made from: a short hash of the English text of every field, so that a
# field whose English changes after it was translated is caught. After translating, record anew:
# `.venv/bin/python tests/kitgen/lang/test_ja_words.py --record`.
TRANSLATED_FROM = Path(__file__).with_name("ja_translated_from.json")


def _fingerprints() -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for kind, name in CASES:
        source, _ = _pairs(kind, name)
        out[f"{kind}/{name}"] = {
            ".".join(path): hashlib.sha256(text.encode()).hexdigest()[:12]
            for path, text in sorted(source.items())
        }
    return out


def test_no_translation_is_of_an_english_text_that_has_changed_since() -> None:
    recorded = json.loads(TRANSLATED_FROM.read_text(encoding="utf-8"))
    now = _fingerprints()
    changed = sorted(
        f"{doc}: {field}"
        for doc, fields in now.items()
        for field, digest in fields.items()
        if recorded.get(doc, {}).get(field) != digest
    )
    assert not changed, (
        "English changed since it was translated (update the overlay, then --record): " + "; ".join(changed)
    )


def _found(node: Any, key: str) -> set[str]:
    """Every string value of `key` anywhere in a YAML tree."""
    if isinstance(node, dict):
        own = {node[key]} if isinstance(node.get(key), str) else set()
        return own.union(*(_found(v, key) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(_found(v, key) for v in node))
    return set()


def _kit_protocols() -> set[str]:
    """The protocols the Japanese kits teach: each rule set's protocols and every spec they call."""
    todo = set(PROTOCOL_KITS_JA)
    for name in RULESETS_JA:
        ruleset = yaml.safe_load((RULESETS / "games" / f"{name}.yaml").read_text(encoding="utf-8"))
        todo |= _found(ruleset, "virtual_protocol") | _found(ruleset, "protocol")
    done: set[str] = set()
    while todo:
        name = todo.pop()
        done.add(name)
        spec = yaml.safe_load((RULESETS / "protocols" / f"{name}.yaml").read_text(encoding="utf-8"))
        todo |= _found(spec.get("steps", []), "call") - done
    return done


def test_every_japanese_kit_has_its_words() -> None:
    # When a kit's default protocol changes (or calls a new spec), its overlay must come with it.
    overlays = {(kind, name) for kind, name in CASES}
    needed = {("games", name) for name in RULESETS_JA} | {("protocols", name) for name in _kit_protocols()}
    assert len(needed) >= 10
    waiting = sorted(p.stem for p in RULESETS.glob("*/i18n/ja/next/*.yaml"))
    assert not needed - overlays, (
        sorted(needed - overlays),
        f"translations waiting in i18n/ja/next/: {waiting}",
    )


def test_the_glossary_file_and_page_agree() -> None:
    terms = yaml.safe_load((LOCALE / "terms.yaml").read_text(encoding="utf-8"))["terms"]
    page = (ROOT / "docs" / "glossary-ja.md").read_text(encoding="utf-8")
    assert len({t["english"] for t in terms}) == len(terms)
    for term in terms:
        assert f"| {term['english']} | {term['ja']} |" in page, term


# A rival word a translator might reach for, where the glossary chose another (docs/glossary-ja.md).
RIVALS = {
    "所有者": "持ち主",
    "ウォッシュ": "かき混ぜ",
    "デッキの山": "山札",
    "封をした": "封筒",
    "カードの表": "並べたカード",
}


@pytest.mark.parametrize(("kind", "name"), CASES, ids=[n for _, n in CASES])
def test_one_word_per_term(kind: str, name: str) -> None:
    _, overlay = _pairs(kind, name)
    for path, text in overlay.items():
        for rival, chosen in RIVALS.items():
            assert rival not in text, (path, rival, chosen)


# The catalogue (kitgen/lang/locale/ja/LC_MESSAGES/kitgen.po): the words of kitgen and templates/.
PO = LOCALE / "LC_MESSAGES" / "kitgen.po"
POT = LOCALE.parent / "kitgen.pot"
PLACEHOLDER = re.compile(r"\{[a-z_0-9]*\}")


def _catalogue(path: Path) -> Any:
    # Babel is kitgen's dependency from w41-i18n's branch on; this branch alone may lack it.
    pofile = pytest.importorskip("babel.messages.pofile")
    with path.open("rb") as f:
        return pofile.read_po(f, locale="ja" if path == PO else None)


def _entries() -> list[tuple[str, str]]:
    """(English, Japanese) for every form of every entry of the Japanese catalogue."""
    pairs: list[tuple[str, str]] = []
    for message in _catalogue(PO):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        pairs += [(ids[min(i, len(ids) - 1)], s) for i, s in enumerate(strings)]
    return pairs


def test_the_catalogue_is_japanese_with_one_plural_form() -> None:
    catalogue = _catalogue(PO)
    assert str(catalogue.locale) == "ja" and catalogue.num_plurals == 1
    assert len(_entries()) >= 70


def test_every_entry_is_translated_and_keeps_its_placeholders() -> None:
    for english, japanese in _entries():
        assert japanese.strip(), english
        assert set(PLACEHOLDER.findall(english)) == set(PLACEHOLDER.findall(japanese)), english
        assert set(CODE.findall(english)) <= set(CODE.findall(japanese)), english
        assert not ENGLISH_WORD.findall(PLACEHOLDER.sub("", FILE_NAME.sub("", japanese))), japanese


def test_the_catalogue_translates_the_whole_template() -> None:
    # The template is kitgen's (w41-i18n, `python -m kitgen.lang.extract`); it grows as strings
    # are wrapped in _(), and every new string needs its Japanese here.
    if not POT.is_file():
        pytest.skip("no kitgen/lang/locale/kitgen.pot on this branch yet (w41-i18n writes it)")
    translated = {m.id for m in _catalogue(PO) if m.id and m.string and all(m.string)}
    wanted = {m.id for m in _catalogue(POT) if m.id}
    assert not wanted - translated, sorted(wanted - translated, key=str)


if __name__ == "__main__" and sys.argv[1:] == ["--record"]:
    # An overlay waiting in i18n/ja/next/ keeps the fingerprints of the English it was made from.
    kept = json.loads(TRANSLATED_FROM.read_text(encoding="utf-8")) if TRANSLATED_FROM.is_file() else {}
    # (A waiting rule set keeps the fingerprints of the version it replaces: after the move, the
    # staleness test names the fields that version changed, and --record clears them.)
    waiting = {f"protocols/{p.stem}" for p in RULESETS.glob("protocols/i18n/ja/next/*.yaml")}
    prints = {doc: fields for doc, fields in kept.items() if doc in waiting} | _fingerprints()
    TRANSLATED_FROM.write_text(json.dumps(prints, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def test_the_checks_catch_a_broken_overlay() -> None:
    # Attacks on the checks above: a key the source has no text for, a step that does not exist, a
    # lost card code, an English word left on a page, a file name that may stay.
    source = {
        "title": "Six cards",
        "steps": [{"step": 1, "say": "Turn α β over.", "place": {"s": ["x"]}}],
        "booklet": {"how_to_play": ["One.", "Two."], "example": {"seed": 1}},
    }
    fields = _text_fields(source)
    assert set(fields) == {
        ("title",),
        ("steps", "1", "say"),
        ("booklet", "how_to_play", "0"),
        ("booklet", "how_to_play", "1"),
    }
    overlay = _strings({"title": "6枚", "steps": {"2": {"say": "めくります"}, "1": {"place": "列"}}})
    assert set(overlay) - set(fields) == {("steps", "2", "say"), ("steps", "1", "place")}
    assert set(CODE.findall("Turn α β over.")) - set(CODE.findall("α をめくります")) == {"β"}
    assert ENGLISH_WORD.findall(FILE_NAME.sub("", "cards.pdf を印刷し、Shuffle します")) == ["Shuffle"]


def test_one_english_text_has_one_translation() -> None:
    # kitgen looks a spec text up by its English words in all overlays merged
    # (kitgen.lang.overlay.texts), so "yes" translated two ways in two specs would print
    # whichever was read last, in both.
    seen: dict[str, tuple[str, str]] = {}
    for kind, name in CASES:
        source, overlay = _pairs(kind, name)
        for path, english in source.items():
            if path in overlay:
                first = seen.setdefault(english, (overlay[path], f"{name}: {'.'.join(path)}"))
                assert first[0] == overlay[path], (english, first, overlay[path], f"{name}: {'.'.join(path)}")
