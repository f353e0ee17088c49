"""A table game's kit counts the materials of the protocol it is built with
(:meth:`kitgen.kinds.table.TableKit.materials`): with ``--protocol card-selection-arrow`` a Sevens
or Dominoes kit printed α/β bit markers and listed envelopes, which that protocol never uses, and
no arrow cards or mats, which it does."""

from __future__ import annotations

from pathlib import Path

import pytest

from kitgen.core.templates import load_templates
from kitgen.kinds.kind import kit_kind
from kitgen.kit.build import KitOptions
from reference_engine.api import load_game
from reference_engine.registry import Library


def materials(game: str, protocol: str) -> dict[str, int]:
    library, rules = Library(), load_game(game)
    kind = kit_kind(rules)
    plan = kind.plan(KitOptions(ruleset=game, protocol=protocol, virtual=1), rules, load_templates())
    return {i.key: i.needed for i in kind.materials(library, rules, plan, []).items}


@pytest.mark.parametrize("game", ["sevens", "dominoes"])
def test_an_arrow_kit_prints_arrows_and_buys_no_envelopes(game: str) -> None:
    arrow = materials(game, "card-selection-arrow")
    assert "arrow" in arrow and "sleeve" in arrow
    assert not {"alpha", "beta", "envelope"} & set(arrow)
    fast = materials(game, "card-selection-fast")  # the rule sets' own: α/β pairs and envelopes
    assert {"alpha", "beta", "envelope"} <= set(fast) and "arrow" not in fast
    assert arrow["deck"] == fast["deck"]


@pytest.mark.parametrize("game", ["sevens", "dominoes"])
def test_the_set_up_sorts_the_spare_piles_the_kit_holds(game: str) -> None:
    """The set-up step named α cards, β cards and envelopes whatever the kit held: a rule set's
    step now says {bits} and {keep}, filled from the kit's bill of materials."""
    from types import SimpleNamespace

    from kitgen.booklet.sparepiles import helper_words

    rules = load_game(game)
    kind = kit_kind(rules)
    steps = [s for s in kind.texts(rules, "setup_steps") if "spare piles" in s]  # type: ignore[attr-defined]
    assert len(steps) == 1 and "{bits}" in steps[0] and "{keep}" in steps[0]
    library = Library()
    said = {}
    for protocol in ("card-selection-arrow", "card-selection-fast"):
        plan = kind.plan(KitOptions(ruleset=game, protocol=protocol, virtual=1), rules, load_templates())
        bom = kind.materials(library, rules, plan, [])
        words = helper_words(SimpleNamespace(bom=bom, faces={}))  # type: ignore[arg-type]
        said[protocol] = steps[0].replace("{bits}", words["bits"]).replace("{keep}", words["keep"])
    arrows = ": arrow cards (all pointing the same way), θ cards by owner."
    assert said["card-selection-arrow"].endswith(arrows)
    assert said["card-selection-fast"].endswith(
        ": α cards, β cards, θ cards by owner; keep the two envelopes with them."  # sleeved
    )


@pytest.mark.slow
def test_an_arrow_sevens_booklet_sets_up_arrow_cards(tmp_path: Path) -> None:
    """End to end: the booklet's set-up page of ``kitgen build sevens --protocol
    card-selection-arrow`` (about 8 s of CPU)."""
    from kitgen.kit.build import build
    from tests.kitgen.pdftext import page_texts

    folder = tmp_path / "sevens-arrow"
    build(KitOptions(ruleset="sevens", protocol="card-selection-arrow", output=str(folder), previews=False))
    setup = next(t for t in page_texts(folder / "booklet.pdf") if "Sort the helper cards" in t)
    words = " ".join(setup.split())
    assert "spare piles beside the table: arrow cards (all pointing the same way), θ cards by owner." in words
    assert "α cards" not in words and "envelope" not in words


def test_a_sleeved_kit_keeps_its_two_envelopes_in_every_language() -> None:
    """A kit whose cards live in sleeves has two envelopes (the six-card AND's), and the set-up
    said so in English only (frontchapters.setting_up rewrote the English words): the Japanese
    Hearts booklet said "the identical envelopes" (同じ封筒)."""
    from types import SimpleNamespace

    from kitgen.booklet.sparepiles import helper_words
    from kitgen.lang.catalogue import using_language

    rules = load_game("hearts")
    kind = kit_kind(rules)
    plan = kind.plan(KitOptions(ruleset="hearts", virtual=1), rules, load_templates())
    bom = kind.materials(Library(), rules, plan, [])
    assert {"sleeve", "envelope"} <= {i.key for i in bom.items}
    booklet = SimpleNamespace(bom=bom, faces={})
    assert helper_words(booklet)["keep"] == "; keep the two envelopes with them"  # type: ignore[arg-type]
    with using_language("ja"):
        assert helper_words(booklet)["keep"] == "2枚の封筒もいっしょに置いておきます。"  # type: ignore[arg-type]


def test_a_hearts_kit_refuses_a_protocol_that_may_play_no_card() -> None:
    """In Hearts a player with no valid card plays any card, so `kitgen play hearts --protocol
    card-selection-arrow` is refused (exit 2); `kitgen build` went on and failed in the table-time
    tracer ("Error (simulate): ... unknown name 'M'"). Its set-up step names the spare piles as
    Sevens' and Dominoes' do ({bits}, {keep})."""
    from reference_engine.api import UsageError

    with pytest.raises(UsageError, match="card-selection-arrow may play no card"):
        materials("hearts", "card-selection-arrow")
    assert {"alpha", "envelope", "sleeve"} <= set(materials("hearts", "card-selection-original-fast"))
    rules = load_game("hearts")
    steps = [s for s in kit_kind(rules).texts(rules, "setup_steps") if "spare piles" in s]  # type: ignore[attr-defined]
    assert len(steps) == 1 and "{bits}" in steps[0] and "{keep}" in steps[0]


@pytest.mark.parametrize(
    ("game", "english", "japanese"),
    [
        ("dominoes", "our double-six set", "このキットのダブルシックスのセット"),
        ("crazy-eights", "our four-colour standard deck", "このキットの4色のトランプ"),
    ],
)
def test_the_printed_deck_is_named_in_the_language(game: str, english: str, japanese: str) -> None:
    """A rule set names its printed deck in its ``kit: deck_name``, which the Japanese overlay
    could not reach: the Japanese Dominoes kit's bill of materials said "our double-six set,
    printed as cards with domino proportions"."""
    from kitgen.lang.catalogue import using_language

    rules = load_game(game)
    kind = kit_kind(rules)

    def deck_text() -> str:
        plan = kind.plan(KitOptions(ruleset=game, virtual=1), rules, load_templates())
        return next(i.name for i in kind.materials(Library(), rules, plan, []).items if i.key == "deck")

    assert english in deck_text()
    with using_language("ja"):
        said = deck_text()
    assert japanese in said and english not in said
