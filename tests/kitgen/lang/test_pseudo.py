"""The pseudo-locale test (issue 41 part 3): a shipped kit built with ``--lang qps`` has every
player-facing string in ``⟦ ⟧``; a word on its pages outside every ``⟦ ⟧`` did not pass through
the catalogue or a spec overlay.

What stays as it is in every language is no fault: the names :func:`kept_names` derives from the
shipped specs and rule sets (card codes, symbols, the paper's notation), the kit's and files' names
(:data:`ALLOWED`) and data marked ``⟪ ⟫`` (:func:`kitgen.lang.catalogue.kept`: the engine's
formulas, figures it writes in shapes kitgen does not know, citations). The six-card AND kit has no
other word outside ``⟦ ⟧`` (:func:`test_every_player_facing_word_is_wrapped`), and neither has any
game kit: the default UNO kit in the fast tier (:data:`FILES_UNO`), every other shipped game kit in
the slow tier (:data:`FILES_GAMES`). A change that adds player-facing text without ``_()`` or an
overlay fails them."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest

from kitgen.lang.pseudo import WORD, outside, unwrapped_words
from reference_engine.api import Library, games_dir, load_game
from tests.kitgen.lang.poppler import poppler

# Distinct unwrapped words per file of the six-card AND protocol kit in qps: none
# (test_every_player_facing_word_is_wrapped).
CEILING = {
    "booklet.pdf": 0,
    "cards.pdf": 0,
    "labels.pdf": 0,
    "handout.pdf": 0,
    "printing-guide.txt": 0,
    "shopping-list.txt": 0,
}
# The files of the default UNO kit (uno-4p1v-a4) checked in qps: no word outside ⟦ ⟧ in any.
FILES_UNO = ("booklet.pdf", "cards.pdf", "labels.pdf", "printing-guide.txt", "shopping-list.txt")
# The other shipped game kits (slow: a build each). uno-official needs `--wild4 bluff` for a virtual
# player and is the uno kind's own rule set again; uno-puzzles is the puzzle kit (not yet routed:
# docs/languages.md).
FILES_GAMES = {
    "crazy-eights": FILES_UNO,
    "daifugo": FILES_UNO,
    "dominoes": FILES_UNO,
    "gakmoro": (*FILES_UNO, "bundles.pdf"),
    "hearts": FILES_UNO,
    "sevens": FILES_UNO,
    "uno-small": FILES_UNO,
}
# What stays as it is in every language: the program's and the kit's names, file names.
ALLOWED = frozenset(
    {
        "kitgen",
        "six-card-and-kit-a",
        "gakmoro-a4",
        "pdf",
        "txt",
        "html",
    }
)


def kept_names() -> frozenset[str]:
    """The names that stay as they are in every language, as the Japanese kit keeps them, derived
    from the shipped specs and rule sets: every game card's code (``YS``, ``G+2``), the players'
    names a rule set gives, every spec's symbol and the words of its notation (``P_i`` prints
    ``Pi``; ``x AND y``)."""
    library = Library()
    found: set[str] = set()
    for path in sorted(games_dir().glob("*.yaml")):
        rules = load_game(path.stem)
        found |= {card.glyph for card in (getattr(rules, "cards", None) or {}).values()}
        found |= set(getattr(rules, "names", None) or ())  # the players' names (Gakmoro's Alice, Bob)
    for name in library.names():
        proto = library.protocol(name)
        found |= set(proto.symbols)
        for key in proto.booklet.notation:
            found |= set(WORD.findall(key.replace("_", "")))
    return frozenset(found)


def kit_ids() -> frozenset[str]:
    """The ids of the game kits as built with their default seating (``uno-4p1v-a4``,
    ``uno-small-3p1v-a4``): a kit's name is the same in every language."""
    ids = set()
    for path in sorted(games_dir().glob("*.yaml")):
        ids |= {f"{path.stem}-{p}p1v-a4" for p in (3, 4)}
    return frozenset(ids)


@cache
def kept() -> frozenset[str]:
    """Every name a page may print unwrapped: :data:`ALLOWED`, :func:`kit_ids` and
    :func:`kept_names`. Worked out when a test first asks, not when the file is collected (every
    xdist worker collects every file: loading every spec for a file another worker runs cost about
    0.3 s of CPU)."""
    return ALLOWED | kit_ids() | kept_names()


ROUTED = ("Contents", "Validation", "Anything", "Worked", "Moves", "Quick", "Card")  # wrapped by now


def page_text(path: Path) -> str:
    if path.suffix == ".pdf":
        return poppler("pdftotext", str(path), "-")
    return path.read_text(encoding="utf-8")


def unwrapped(folder: Path, name: str) -> set[str]:
    return set(unwrapped_words(page_text(folder / name), kept()))


def test_outside_brackets() -> None:
    assert outside("⟦Shuffle⟧ the ⟦cards ⟦α⟧⟧.") == " the ."
    found = unwrapped_words("⟦Step 1.⟧ Lay out α β (x AND y) in six-card-and-kit-a.pdf", ALLOWED)
    assert found == ["Lay", "out", "AND", "in"]  # one letter (x) is no word; names and files stay


@pytest.mark.parametrize("name", sorted(CEILING))
def test_no_new_unwrapped_text(pseudo_protocol_kit: Path, name: str) -> None:
    found = unwrapped(pseudo_protocol_kit, name)
    assert len(found) <= CEILING[name], f"{name}: {len(found)} words outside ⟦ ⟧: {sorted(found)[:40]}"


@pytest.fixture(scope="module")
def pseudo_uno_kit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``kitgen build uno --lang qps --no-previews``: the default game kit in the pseudo-locale
    (about 13 s CPU with a cold verification cache, less when the session's cache has UNO)."""
    from kitgen.kit.build import KitOptions, build
    from kitgen.lang.catalogue import using_language

    folder = tmp_path_factory.mktemp("qps-uno") / "uno"
    with using_language("qps"):
        build(KitOptions(output=str(folder), previews=False))
    return folder


@pytest.mark.parametrize("name", FILES_UNO)
def test_every_word_of_the_uno_kit_is_wrapped(pseudo_uno_kit: Path, name: str) -> None:
    assert sorted(unwrapped(pseudo_uno_kit, name)) == []


def test_the_uno_kit_routes_seats_pictures_checks_and_chapters(pseudo_uno_kit: Path) -> None:
    """One regression per class of booklet words routed by issue 41: seat names (in pictures, on θ
    cards and labels), picture labels, the checks box, chapter titles, the checklist's steps."""
    text = page_text(pseudo_uno_kit / "booklet.pdf")
    for said in (
        "⟦Draw pile⟧",  # a seat name, on the θ cards drawn in the pictures
        "⟦Setting up the table⟧",  # a chapter title (and the contents)
        "⟦A correct table shows:⟧",
        "⟦Always the same cards, only their order changes.⟧",  # an engine fact, said again
        "⟦nobody sits here⟧",  # the table plan
    ):
        assert said in text, said
    assert re.search(r"⟦\d+ sleeves⟧", text)  # an elided region's size
    assert re.search(r"⟦Step 1: ", text)  # the checklist
    assert not unwrapped(pseudo_uno_kit, "cards.pdf")
    labels = page_text(pseudo_uno_kit / "labels.pdf")
    assert "⟦Virtual 1⟧" in labels and "⟦Human 3⟧" in labels


@pytest.mark.slow  # a whole kit build each
@pytest.mark.parametrize("game", sorted(FILES_GAMES))
def test_every_word_of_the_other_game_kits_is_wrapped(tmp_path: Path, game: str) -> None:
    from kitgen.kit.build import KitOptions, build
    from kitgen.lang.catalogue import using_language

    with using_language("qps"):
        build(KitOptions(ruleset=game, output=str(tmp_path / game), previews=False))
    found = {name: sorted(unwrapped(tmp_path / game, name)) for name in FILES_GAMES[game]}
    assert {name: words for name, words in found.items() if words} == {}


def test_the_booklet_headings_and_steps_are_routed(pseudo_protocol_kit: Path) -> None:
    text = page_text(pseudo_protocol_kit / "booklet.pdf")
    found = unwrapped(pseudo_protocol_kit, "booklet.pdf")
    assert not [w for w in ROUTED if w in found]
    assert "⟦Contents⟧" in text and re.search(r"⟦Step 1\.⟧", text)
    assert "⟦Six-card AND (Mizuki-Sone)⟧" in text  # the spec's title, through the overlay lookup


def test_the_manifest_records_the_language(pseudo_protocol_kit: Path) -> None:
    manifest = json.loads((pseudo_protocol_kit / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["language"] == "qps"
    assert list(manifest)[-2:] == ["language", "files"]


def test_every_player_facing_word_is_wrapped(pseudo_protocol_kit: Path) -> None:
    """Every word of the six-card AND kit went through the catalogue or an overlay, or is a name
    kept as it is (:func:`kept_names`) or data marked ``⟪ ⟫`` (the engine's formulas, citations)."""
    found = {name: sorted(unwrapped(pseudo_protocol_kit, name)) for name in CEILING}
    assert {name: words for name, words in found.items() if words} == {}
