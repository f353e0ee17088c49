"""Kits built in another language, once per test session."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def pseudo_protocol_kit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``kitgen build six-card-and --lang qps --no-previews``: the shipped protocol kit (cards,
    labels, booklet, handout, index.html, printing guide, shopping list) in the pseudo-locale."""
    from kitgen.kit.build import KitOptions, build
    from kitgen.lang.catalogue import using_language

    folder = tmp_path_factory.mktemp("qps") / "six-card-and"
    with using_language("qps"):
        build(KitOptions(ruleset="six-card-and", output=str(folder), previews=False))
    return folder


@pytest.fixture(scope="session")
def japanese_font_kit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``kitgen build six-card-and --lang ja --allow-missing --no-previews`` with the shipped
    Japanese words if any (else a Japanese catalogue of nothing translated): whatever the words,
    every page is set in the Japanese font and broken by its rules."""
    import shutil

    from kitgen.kit.build import KitOptions, build
    from kitgen.lang import catalogue
    from kitgen.lang.catalogue import using_language

    root = tmp_path_factory.mktemp("ja")
    before = (catalogue.LOCALE_DIR, catalogue.TEMPLATE)
    if "ja" not in catalogue.languages():
        shutil.copy(catalogue.TEMPLATE, root / "kitgen.pot")
        (root / "ja" / "LC_MESSAGES").mkdir(parents=True)
        shutil.copy(catalogue.TEMPLATE, root / "ja" / "LC_MESSAGES" / "kitgen.po")
        catalogue.LOCALE_DIR, catalogue.TEMPLATE = root, root / "kitgen.pot"
    try:
        with using_language("ja", allow_missing=True):
            build(KitOptions(ruleset="six-card-and", output=str(root / "kit"), previews=False))
    finally:
        catalogue.LOCALE_DIR, catalogue.TEMPLATE = before
        catalogue.translations.cache_clear()
    return root / "kit"
