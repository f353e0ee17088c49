"""A virtual-players kit's owner cards and θ owner markers (:mod:`kitgen.kinds.virtual`) say where a
θ card goes: in a kit whose cards live in sleeves (the default kit's card-selection-arrow), behind
its card in the sleeve for the whole game; otherwise below its card during a virtual turn's run.
The default kit's owner cards and its "What is in the kit" said "below" though every θ card lives
in a sleeve behind its card."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from pypdf import PdfReader

from kitgen.kinds.virtual import mat_item, owner_cards
from kitgen.lang.catalogue import using_language


def test_owner_card_faces_carry_whether_the_kit_is_sleeved() -> None:
    owners = ["Virtual 1", "Human 1", "Draw pile"]
    plain, sleeved = owner_cards(owners), owner_cards(owners, sleeved=True)
    assert [f.extra for f in plain.faces] == [
        ("Virtual 1", "virtual player"),
        ("Human 1", "human player"),
        ("Draw pile", "not a player"),
    ]
    assert [f.extra[2:] for f in sleeved.faces] == [("sleeved",)] * 3
    assert [f.extra[:2] for f in sleeved.faces] == [f.extra for f in plain.faces]


def test_the_default_kit_says_theta_cards_go_behind_their_cards_in_the_sleeves(
    built_kit: Callable[..., tuple[Path, dict[str, Any]]],
) -> None:
    folder, manifest = built_kit()
    items = {i["key"]: i for i in manifest["bom"]["items"]}
    assert "sleeve" in items
    markers = [i for key, i in items.items() if key.startswith("theta")]
    assert markers and all(i["why"].startswith("one behind each card of ") for i in markers)
    assert all("in its sleeve" in i["why"] and " below " not in i["why"] for i in markers)
    seats = next(p for p in manifest["card_pages"] if p["key"] == "seat")  # the owner cards' pages
    reader = PdfReader(folder / "cards.pdf")  # those pages only: all 104 take 2.4 s of CPU
    for number in seats["fronts"]:
        words = " ".join((reader.pages[number - 1].extract_text() or "").split())
        assert "behind it in its sleeve." in words and "below them" not in words, number


def test_the_default_kit_lists_the_knockout_lotterys_mats(
    built_kit: Callable[..., tuple[Path, dict[str, Any]]],
) -> None:
    """The knockout lottery plays a round's matches at once, each on a mat: the table needs one
    for every two of the virtual player's cards. A note in small print said so without a count,
    and the shopping list did not name them."""
    folder, manifest = built_kit()
    bom = manifest["bom"]
    hand = max(bom["worst_case"]["hands"][: manifest["options"]["virtual"]])
    mats = next(i for i in bom["items"] if i["key"] == "mat")
    assert (mats["kind"], mats["needed"], mats["spares"]) == ("paper", hand // 2, 0)
    assert mats["name"] == "mats (sheets of scrap paper, A5 or larger, or plates)"
    assert f"{hand // 2} in the first round" in mats["why"] and f"at most {hand} in" in mats["why"]
    assert not any("mats" in note for note in bom["notes"])  # the item says it, once
    shopping = (folder / "shopping-list.txt").read_text(encoding="utf-8")
    assert f"\n- {hand // 2} mats (sheets of scrap paper, A5 or larger, or plates): " in shopping


def test_a_mat_larger_than_a3_is_said_in_millimetres_once() -> None:
    """A card so large that no ISO sheet up to A3 holds a match: the mat's size is "at least
    W × H mm", which the name said "or larger" after ("at least 440 × 220 mm or larger")."""
    from types import SimpleNamespace

    small = mat_item(SimpleNamespace(card_mm=(56, 87), bits="arrow"), 8, 10)  # type: ignore[arg-type]
    assert small.name == "mats (sheets of scrap paper, A5 or larger, or plates)"
    large = mat_item(SimpleNamespace(card_mm=(130, 180), bits="arrow"), 8, 10)  # type: ignore[arg-type]
    assert large.name.startswith("mats (sheets of scrap paper, at least ")
    assert large.name.endswith(" mm, or plates)") and "larger" not in large.name
    with using_language("ja"):
        japanese = mat_item(SimpleNamespace(card_mm=(130, 180), bits="arrow"), 8, 10).name  # type: ignore[arg-type]
    assert japanese.count("以上") == 1, japanese
