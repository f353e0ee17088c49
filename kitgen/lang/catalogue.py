"""The message catalogue: Python's gettext with Babel, domain ``kitgen`` (docs/languages.md).

English is the source language: its msgids are the words, so an English kit is byte for byte
what it was before languages existed. A language is a ``.po`` file under
``kitgen/lang/locale/<lang>/LC_MESSAGES/``, compiled in memory (no ``.mo`` is committed).
``qps`` is the pseudo-locale: every string wrapped in ``⟦ ⟧``, generated, never a file.

The active language is process-wide (kit builds are one language at a time; worker processes
fork with it): :func:`using_language` sets it for a block.
"""

from __future__ import annotations

import functools
import gettext
import io
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TypeVar, cast

import click
from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from reference_engine.api import UsageError

from .fonts import CJK, KIT_FONTS, using_fonts

DOMAIN = "kitgen"
LOCALE_DIR = Path(__file__).parent / "locale"
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
SOURCE = "en"
PSEUDO = "qps"
OPEN, CLOSE = "⟦", "⟧"  # the pseudo-locale's brackets
KEPT_OPEN, KEPT_CLOSE = "⟪", "⟫"  # the pseudo-locale's marks around what stays as it is (:func:`kept`)


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def languages() -> tuple[str, ...]:
    """Every language kitgen knows: English, each ``.po`` under the locale folder, the
    pseudo-locale last."""
    found = sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return (SOURCE, *[lang for lang in found if lang not in (SOURCE, PSEUDO)], PSEUDO)


def language_name(lang: str) -> str:
    """The language's own name for itself (``日本語``), or a description of the pseudo-locale."""
    if lang == PSEUDO:
        return f"pseudo-locale: every string in {OPEN} {CLOSE}, to find text that is not translated"
    return Locale.parse(lang).get_display_name(lang) or lang


class Pseudo(gettext.NullTranslations):
    """The pseudo-locale: each string comes back wrapped in ``⟦ ⟧``."""

    def gettext(self, message: str) -> str:
        return wrap(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return wrap(msgid1 if n == 1 else msgid2)


def wrap(text: str) -> str:
    return f"{OPEN}{text}{CLOSE}" if text.strip() else text


def kept(text: str) -> str:
    """``text`` as it is in every language: data quoted where it was written (a formula, a figure
    or note the engine wrote into its report, a paper's citation), never a sentence of kitgen's or
    a spec's own. The pseudo-locale marks it ``⟪ ⟫`` so that its check tells text kept on purpose
    from text that missed the catalogue."""
    if _ACTIVE.lang == PSEUDO and text.strip():
        return f"{KEPT_OPEN}{text}{KEPT_CLOSE}"
    return text


@lru_cache(maxsize=8)
def _catalog(path: Path) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, domain=DOMAIN)


@lru_cache(maxsize=8)
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled translations of ``lang``: its ``.po`` read and compiled in memory, cached."""
    if lang == SOURCE:
        return gettext.NullTranslations()
    if lang == PSEUDO:
        return Pseudo()
    path = po_path(lang)
    if not path.is_file():
        raise UsageError(unknown(lang))
    buf = io.BytesIO()
    write_mo(buf, _catalog(path))
    buf.seek(0)
    return gettext.GNUTranslations(buf)


def unknown(lang: str) -> str:
    return f"unknown language {lang!r}: kitgen knows {', '.join(languages())} (kitgen list --langs)"


def template_ids() -> list[str]:
    """Every msgid of the template (a plural entry by its singular), in the template's order."""
    return [str(m.id[0] if isinstance(m.id, tuple) else m.id) for m in _catalog(TEMPLATE) if m.id]


def missing(lang: str) -> list[str]:
    """The template's msgids that ``lang``'s catalogue does not translate (none for English
    and the pseudo-locale)."""
    if lang in (SOURCE, PSEUDO):
        return []
    if not po_path(lang).is_file():
        raise UsageError(unknown(lang))
    done = {
        (m.id[0] if isinstance(m.id, tuple) else m.id)
        for m in _catalog(po_path(lang))
        if m.id and not m.fuzzy and (all(m.string) if isinstance(m.string, tuple) else m.string)
    }
    return [i for i in template_ids() if i not in done]


@dataclass
class _Active:
    lang: str = SOURCE
    allow_missing: bool = False
    tr: gettext.NullTranslations = field(default_factory=gettext.NullTranslations)


_ACTIVE = _Active()


def language() -> str:
    """The active language (``en`` unless :func:`using_language` set another)."""
    return _ACTIVE.lang


def allow_missing() -> bool:
    return _ACTIVE.allow_missing


def check_language(lang: str, allow_missing: bool = False) -> int:
    """Refuse an unknown language (exit 2, with the known ones) and, unless ``allow_missing``,
    one whose catalogue lacks strings (exit 2, how many). Returns how many are missing."""
    if lang not in languages():
        raise UsageError(unknown(lang))
    gaps = len(missing(lang))
    if gaps and not allow_missing:
        raise UsageError(
            f"language {lang!r}: {gaps} of {len(template_ids())} strings are not translated in "
            f"{po_path(lang).relative_to(LOCALE_DIR.parent.parent.parent)}; --allow-missing builds "
            "with English for them"
        )
    return gaps


@contextmanager
def using_language(lang: str = SOURCE, allow_missing: bool = False) -> Iterator[None]:
    """Make ``lang`` the active language for the block (checked as :func:`check_language`), its
    words and its font (:mod:`kitgen.lang.fonts`)."""
    check_language(lang, allow_missing)
    before = (_ACTIVE.lang, _ACTIVE.allow_missing, _ACTIVE.tr)
    _ACTIVE.lang, _ACTIVE.allow_missing, _ACTIVE.tr = lang, allow_missing, translations(lang)
    try:
        with using_fonts(lang, KIT_FONTS):
            yield
    finally:
        _ACTIVE.lang, _ACTIVE.allow_missing, _ACTIVE.tr = before


T = TypeVar("T")
V = TypeVar("V")


def per_language(make: Callable[[], T]) -> Callable[[], T]:
    """Cache ``make()`` once per language (for what is loaded once and holds words)."""
    made: dict[str, T] = {}

    @functools.wraps(make)
    def cached() -> T:
        if _ACTIVE.lang not in made:
            made[_ACTIVE.lang] = make()
        return made[_ACTIVE.lang]

    cached.cache_clear = made.clear  # type: ignore[attr-defined]  # as lru_cache's
    return cached


def _(message: str) -> str:
    """``message`` (its English words) in the active language."""
    return _ACTIVE.tr.gettext(message)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue where it is written (a module's constant) and translate
    it with :func:`_` where it is used."""
    return message


def named(design: Mapping[str, V]) -> dict[str, V]:
    """A card design of templates/cards.yaml with its ``name`` and ``word`` in the active language."""
    return {
        k: cast(V, _(v)) if k in ("name", "word") and isinstance(v, str) else v for k, v in design.items()
    }


def aside(text: str) -> str:
    """``text`` as a parenthesis after a sentence: `` (text)`` in English, ``（text）`` with no space
    in Chinese, Japanese and Korean (full-width brackets are the only ones their pages use)."""
    if _ACTIVE.lang.split("_")[0] in CJK:
        return f"（{text}）"
    return f" ({text})"


def word_space() -> str:
    """The space between two sentences or a sentence and its page reference kitgen joins: one in
    English, none in Chinese, Japanese and Korean (。 and （ carry their own space there)."""
    return "" if _ACTIVE.lang.split("_")[0] in CJK else " "


def after_lead(lead: str) -> str:
    """The space after a bold lead (``Where to start.``) before its text: none after a full-width
    mark (。：）」 carry their own space: a space there prints as a gap), one otherwise."""
    return "" if lead.endswith(("。", "：", "）", "」")) else " "


def times(n: int, thing: str, sign: str = "× ") -> str:
    """``n`` of ``thing`` in a list of what to bring: ``3 × α card`` in English (``sign`` between,
    ``"" `` for ``2 envelopes``), ``α カード ×3`` in Chinese, Japanese and Korean, which put the
    count after the thing (a number before a noun there needs a counter word: 3枚の)."""
    if _ACTIVE.lang.split("_")[0] in CJK:
        return f"{thing} ×{n}"
    return f"{n} {sign}{thing}"


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, by the active language's plural rule."""
    return _ACTIVE.tr.ngettext(singular, plural, n)


def number(value: float | int) -> str:
    """A number as the active locale writes it (Babel); English keeps Python's own ``str``."""
    if _ACTIVE.lang in (SOURCE, PSEUDO):
        return str(value)
    try:
        return str(format_decimal(value, locale=_ACTIVE.lang))
    except UnknownLocaleError:  # a translation Babel has no locale data for: Python's own
        return str(value)


def say_missing(lang: str) -> None:
    """One line on stderr when ``lang`` builds with English for some strings (--allow-missing)."""
    gaps = len(missing(lang))
    if gaps:
        click.echo(
            f"{lang}: {gaps} strings are not translated; they stay English (--allow-missing)", err=True
        )


def language_lines() -> list[str]:
    """``kitgen list --langs``: each language, its own name, and how complete it is."""
    total = len(template_ids())
    lines = []
    for lang in languages():
        if lang in (SOURCE, PSEUDO):
            state = "the source language" if lang == SOURCE else "generated"
        else:
            state = f"{total - len(missing(lang))} of {total} strings translated"
        lines.append(f"{lang:<6} {language_name(lang)} ({state})")
    return lines
