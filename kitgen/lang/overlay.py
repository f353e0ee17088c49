"""Translated spec and rule-set texts: an overlay file beside the source (docs/languages.md).

``rulesets/protocols/i18n/<lang>/<protocol>.yaml`` translates ``rulesets/protocols/<protocol>.yaml``
(and ``rulesets/games/i18n/<lang>/<ruleset>.yaml`` a rule set). An overlay mirrors the source's
structure for its text fields only; a list whose items have a ``step:`` becomes a mapping keyed by
that value as a string (``"1"``, ``"5a"``); any other list stays a list (or a mapping keyed by
position from ``"0"``). A key that is not a text field of the source is refused (exit 2, the overlay's
file, line and key); a text field the overlay leaves out is counted as missing.

A text field is a string of the source under one of :data:`TEXT_KEYS` (``say``, ``title``, ...),
under the top-level ``booklet:`` (but its ``example:``) or a top-level key of :data:`TEXT_TOP` (a
protocol's ``table:`` words), and not under :data:`NOT_TEXT_TOP`; of the top-level ``source:`` only
its ``cite`` is (the citation's frame, "Section 3.1", is translated; the cited paper's authors and
title stay as they are), and of a rule set's top-level ``kit:`` only its ``deck_name`` (the words
the bill of materials names the printed deck by, Dominoes' "our double-six set").

Kits look texts up by their English words (:func:`spec_text`): every overlay of the active
language, merged, maps each English text to its translation.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from functools import lru_cache
from pathlib import Path
from typing import overload

import click

from reference_engine.api import Checker, SpecError, UsageError, load_file, rulesets_dir

from .catalogue import PSEUDO, SOURCE, allow_missing, language, wrap

# Keys whose strings are words wherever they are; under a spec's or rule set's top-level
# `booklet:` every string is a word but the worked example's data (`example:`).
TEXT_KEYS = frozenset(
    {"title", "summary", "notes", "say", "paper", "brief", "how", "doc", "labels", "differences"}
)
# Words at the top level only: a protocol's `table:` (a step's is a hint), a rule set's players' `names:`.
TEXT_TOP = frozenset({"table", "names"})
FOLDERS = ("protocols", "games")
NOT_TEXT_TOP = frozenset({"source", "expect", "symbols", "encodings", "kit"})  # never translated
Path_ = tuple[str, ...]


def text_fields(node: object, path: Path_ = (), texty: bool = False) -> Iterator[tuple[Path_, str]]:
    """Every text field of a source document: (its overlay path, its English text). A list of
    steps is keyed by each step's ``step:``, any other list by position from ``"0"``."""
    if isinstance(node, dict):
        for k, v in node.items():
            key = str(k)
            if not path and key == "source" and isinstance(v, dict) and isinstance(v.get("cite"), str):
                yield ("source", "cite"), v["cite"]  # the citation, and nothing else of the source
                continue
            if not path and key == "kit" and isinstance(v, dict) and isinstance(v.get("deck_name"), str):
                yield ("kit", "deck_name"), v["deck_name"]  # the deck's name, and nothing else of the kit
                continue
            if not path and key in NOT_TEXT_TOP:
                continue
            top = not path and key in TEXT_TOP  # a protocol's `table:` words (a step's are hints)
            inner = (texty or top or key in TEXT_KEYS or (key == "booklet" and not path)) and key != "example"
            yield from text_fields(v, (*path, key), inner)
    elif isinstance(node, list):
        steps = bool(node) and all(isinstance(item, dict) and "step" in item for item in node)
        for i, item in enumerate(node):
            yield from text_fields(item, (*path, str(item["step"]) if steps else str(i)), texty)
    elif isinstance(node, str) and texty and node.strip():
        yield path, node


def overlay_path(source: Path, lang: str) -> Path:
    return source.parent / "i18n" / lang / source.name


def _flatten(node: object, path: Path_ = ()) -> Iterator[tuple[Path_, object]]:
    if isinstance(node, dict) and node:
        for k, v in node.items():
            yield from _flatten(v, (*path, str(k)))
    elif isinstance(node, list) and node:  # a list of paragraphs, as in the source
        for i, v in enumerate(node):
            yield from _flatten(v, (*path, str(i)))
    else:
        yield path, node


def load_overlay(source: Path, lang: str) -> tuple[dict[str, str], int]:
    """The overlay of ``source`` in ``lang``: {English text: translation}, and how many text
    fields of the source it leaves untranslated. No overlay file: nothing translated."""
    fields = dict(text_fields(load_file(source).data))
    path = overlay_path(source, lang)
    if not path.is_file():
        return {}, len(fields)
    src = load_file(path)
    ck = Checker(src)
    found: dict[str, str] = {}
    if src.data is not None and not isinstance(src.data, dict):
        ck.error((), "an overlay is a mapping that mirrors its source's text fields")
    for where, value in _flatten(src.data or {}):
        if where not in fields:
            ck.error(where, f"not a text field of {source.name}: '{'.'.join(where)}'")
        elif not isinstance(value, str) or not value.strip():
            ck.error(where, "a translation is text")
        else:
            found[fields[where]] = value
    if ck.problems:
        raise SpecError(ck.problems)
    return found, sum(1 for where in fields if where not in dict(_flatten(src.data or {})))


def sources() -> list[Path]:
    """Every shipped protocol and rule-set file that texts are translated from."""
    root = rulesets_dir()
    return sorted(p for folder in FOLDERS for p in (root / folder).glob("*.yaml"))


NAME = r"(?:[A-Z]\. )+(?:[a-z]+ )?[A-Z][\w-]+"  # "S. Ruangwises", "B. den Boer"
CITED = re.compile(  # authors, then the title up to its venue, section or bracket
    rf"({NAME}(?:, {NAME})*(?: et al)?)[.,]{{1,2}} (.+?)(?=\. |, (?:Section|arXiv|Appendix|')| \(|\)|$)"
)
WORD = re.compile(r"[A-Za-z]+")


@lru_cache(maxsize=1)
def cited_names() -> frozenset[str]:
    """The authors' names and the titles of the papers the shipped specs cite (their ``source:
    cite:``, as "S. Ruangwises, K. Shinagawa" and "Simulating Virtual Players for UNO without
    Computers"): proper names, which a translated citation keeps as they are."""
    names: set[str] = set()
    for path in sources():
        data = load_file(path).data
        source = data.get("source") if isinstance(data, dict) else None
        cite = source.get("cite") if isinstance(source, dict) else None
        for authors, title in CITED.findall(cite if isinstance(cite, str) else ""):
            names.update((authors, title))
    return frozenset(names)


def cited_words() -> frozenset[str]:
    """The words of :func:`cited_names`."""
    return frozenset(w for name in cited_names() for w in WORD.findall(name))


@lru_cache(maxsize=4)
def texts(lang: str) -> dict[str, str]:
    """Every overlay of ``lang``, merged: {English text: translation}."""
    merged: dict[str, str] = {}
    for source in sources():
        merged.update(load_overlay(source, lang)[0])
    return merged


def player_name(name: str) -> str:
    """A rule set's player's name (its top-level ``names:``, Gakmoro's Alice and Bob) in the
    active language: its overlay's (the Japanese glossary's アリス and ボブ, as the protocols' texts
    say them), else as it is; the pseudo-locale keeps a name as it is (a name, not a sentence)."""
    lang = language()
    if lang in (SOURCE, PSEUDO):
        return name
    return texts(lang).get(name, name)


def deck_name(kit: Mapping[str, object], default: str) -> str:
    """The name a rule set's ``kit: deck_name`` gives its printed deck, in the active language
    (its overlay's ``kit: deck_name``: the Japanese Dominoes kit named its deck in English), else
    ``default`` (a catalogue text, already in the language)."""
    name = kit.get("deck_name")
    return spec_text(name) if isinstance(name, str) else default


def missing_texts(lang: str) -> dict[str, int]:
    """Per source file name, how many of its text fields ``lang`` leaves untranslated."""
    if lang in (SOURCE, PSEUDO):
        return {}
    counts = {f"{s.parent.name}/{s.name}": load_overlay(s, lang)[1] for s in sources()}
    return {k: v for k, v in counts.items() if v}


@overload
def spec_text(english: str) -> str: ...
@overload
def spec_text(english: None) -> None: ...
def spec_text(english: str | None) -> str | None:
    """A spec's or rule set's text (its English words) in the active language: the overlay's
    translation, else the English (the pseudo-locale wraps it in ⟦ ⟧)."""
    lang = language()
    if lang == SOURCE or not english:
        return english
    if lang == PSEUDO:
        return wrap(english)
    found = texts(lang).get(english)
    if found is not None:
        return found
    if not allow_missing():
        raise UsageError(
            f"language {lang!r}: a spec text has no translation in rulesets/*/i18n/{lang}/: "
            f"{english[:70]!r}; --allow-missing builds with English for such texts"
        )
    MISSED.add(english)
    return english


MISSED: set[str] = set()  # the spec texts a build left English (--allow-missing)


def say_missed(lang: str) -> None:
    """One line on stderr when a build left spec texts English (--allow-missing)."""
    if MISSED:
        click.echo(f"{lang}: {len(MISSED)} spec texts have no translation; they stay English", err=True)
        MISSED.clear()
