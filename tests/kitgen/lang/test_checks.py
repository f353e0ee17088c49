"""The checks in every language (issue 41 part 3): the page check (every font embedded, no
overlap, margins, contrast, clipped text) and the identifier check on a kit set in the Japanese
font and on the pseudo-locale's kit, whose every string is longer by its brackets."""

from __future__ import annotations

from pathlib import Path

import pytest

from kitgen.booklet.jargon import check_kit as plain_words
from kitgen.booklet.jargon import validation_titles
from kitgen.paper.pagecheck import check_kit
from tests.kitgen.lang.poppler import poppler


@pytest.mark.parametrize("kit", ["japanese_font_kit", "pseudo_protocol_kit"])
def test_the_page_check_passes(kit: str, request: pytest.FixtureRequest) -> None:
    folder: Path = request.getfixturevalue(kit)
    assert [str(f) for f in check_kit(folder)] == []


@pytest.mark.parametrize("kit", ["japanese_font_kit", "pseudo_protocol_kit"])
def test_the_identifier_check_passes(kit: str, request: pytest.FixtureRequest) -> None:
    folder: Path = request.getfixturevalue(kit)
    assert [str(f) for f in plain_words(folder)] == []


def test_every_font_is_embedded_and_japanese(japanese_font_kit: Path) -> None:
    for pdf in sorted(japanese_font_kit.glob("*.pdf")):
        rows = poppler("pdffonts", str(pdf)).splitlines()[2:]
        assert rows, pdf.name
        for row in rows:
            assert "NotoSansJP" in row and " yes yes yes " in row, (pdf.name, row)


def test_the_validation_heading_is_known_in_every_language() -> None:
    assert {"Validation", "⟦Validation⟧"} <= validation_titles()


@pytest.mark.slow  # a whole kit build each
@pytest.mark.parametrize("game", ["daifugo", "gakmoro", "uno", "uno-small"])
def test_the_japanese_game_kits_pass_the_page_check(tmp_path: Path, game: str) -> None:
    """Issue 41's "the page check reports 0 problems" on the Japanese game kits: translated
    captions are longer or wider than English ones (the table picture's spare-pile captions
    overlapped in Japanese until they were fitted to their neighbours)."""
    from kitgen.kit.build import KitOptions, build
    from kitgen.lang.catalogue import using_language

    with using_language("ja"):
        build(KitOptions(ruleset=game, output=str(tmp_path / game), previews=False))
    assert [str(f) for f in check_kit(tmp_path / game)] == []
