"""The UNO booklet's captions, pictures and step text tell one story of where the owner cards
(θ) and the bit cards (the arrow cards of the default protocol, card-selection-arrow; α, β in
card-selection-fast) are after every step: in a sleeve, just below their sleeve, aside,
or back with the spares. Everything comes from the one sleeved run (docs/specs.md, "Sleeves and
envelopes"), and a caption never sends to the spares a card the text keeps in its sleeve."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from reference_engine.api import load_game

DEFAULT = str(load_game("uno").virtual_protocol)  # type: ignore[attr-defined]
BITS = ("alpha", "beta", "up", "down")

Where = dict[str, set[str]]  # "owner" / "bit" -> the places the picture shows them


@pytest.fixture(scope="module")
def uno(game_booklet: Callable[[str], Path]) -> dict[str, Any]:
    """The UNO booklet's data (20 runs, no previews; built once per session for every file)."""
    data: dict[str, Any] = json.loads((game_booklet("uno") / "booklet.json").read_text(encoding="utf-8"))
    return data


def _kind(symbol: str) -> str | None:
    return "owner" if symbol.startswith("theta") else "bit" if symbol in BITS else None


def places(diagram: dict[str, Any]) -> Where:
    """Where the picture shows owner and bit cards: ``sleeve`` (inside one), ``below`` (a row of a
    sleeved region lying outside its sleeve) or ``aside`` (any other place on the table)."""
    out: Where = {"owner": set(), "bit": set()}
    for reg in diagram["regions"]:
        inside = reg.get("sleeves", {}).get("rows", 0)
        for r, row in enumerate(reg["cells"]):
            for cell in row:
                kind = _kind(cell["symbol"]) if cell and cell["symbol"] else None
                if kind is not None:
                    where = "sleeve" if r < inside else "below" if "sleeves" in reg else "aside"
                    out[kind].add(where)
    return out


WORDS = {
    "sleeve": ("slide", "into", "in front of", "back in", "already", "hidden in", "stay hidden"),
    "below": ("below",),
    "aside": ("aside",),
}


def test_captions_pictures_and_text_agree_on_owner_and_bit_cards(uno: dict[str, Any]) -> None:
    section = next(s for s in uno["sections"] if s["protocol"] == DEFAULT)
    before: Where = {"owner": set(), "bit": set()}
    checked = 0
    since = ""  # the text of the steps since the last picture (a step without one still speaks)
    for step in section["steps"]:
        say = step["say"].lower()
        since += " " + say
        for diagram in step["diagrams"]:
            now = places(diagram)
            for kind, name in (
                ("owner", "owner card"),
                ("bit", "arrow" if DEFAULT.endswith("arrow") else "pair"),
            ):
                # A card that comes to a new kind of place: the text says how it gets there.
                for where in sorted(now[kind] - before[kind]):
                    assert any(w in since for w in WORDS[where]), (step["number"], kind, where, since)
                    checked += 1
                gone = {k for k in diagram["returned"] if _kind(k) == kind}
                kept = {k for k in diagram.get("sleeved", {}) if _kind(k) == kind}
                if gone:  # back to the spares: the text says so
                    assert "spares" in say, (step["number"], gone, say)
                    checked += 1
                if kept:  # they went home in their sleeves: the text slides them back in
                    assert "back in" in say and name in say, (step["number"], kept, say)
                    checked += 1
            before = now
            since = say
    assert checked >= 8


def test_the_default_is_the_arrow_protocol_with_the_papers_draw_rule() -> None:
    rules = load_game("uno")
    assert DEFAULT == "card-selection-arrow"
    assert rules.virtual_draw == "play"  # type: ignore[attr-defined]


def test_arrow_orientation_after_each_step(uno: dict[str, Any]) -> None:
    """Where the arrows are, and which way the table sees them, after every step of the default
    protocol: none before Step 6; in Step 6's picture one in every sleeve, face up (its direction
    is public while the card shows); face down from Step 7 on (a face-down arrow shows nothing of
    its direction); the virtual player's go to the lottery at Step 10, the rest back to the spares
    at Step 12."""
    section = next(s for s in uno["sections"] if s["protocol"] == DEFAULT)
    seen: dict[str, list[tuple[int, int]]] = {}  # step -> (arrows face up, arrows face down)
    for step in section["steps"]:
        for diagram in step["diagrams"]:
            up = down = 0
            for reg in diagram["regions"]:
                for row in reg["cells"]:
                    for cell in row:
                        if cell and cell.get("symbol") in ("up", "down"):
                            up += bool(cell["up"])
                            down += not cell["up"]
            seen.setdefault(step["number"], []).append((up, down))
    assert all(n == (0, 0) for s in ("1", "4", "5") for n in seen.get(s, []))
    (six,) = seen["6"][-1:]
    assert six[0] >= 10 and six[1] == 0, seen
    for s in ("7", "8", "9"):
        assert seen[s][-1][0] == 0 and seen[s][-1][1] == six[0], (s, seen[s])
    assert seen["12"][-1] == (0, 0)


def test_no_caption_sends_a_card_kept_in_its_sleeve_to_the_spares(uno: dict[str, Any]) -> None:
    """The old booklet said "Back to the spares: 86 α, 86 β, 6 θ2, ..." at Step 12, whose text
    slides every owner card back in behind its card."""
    section = next(s for s in uno["sections"] if s["protocol"] == DEFAULT)
    step12 = next(s for s in section["steps"] if s["number"] == "12")
    (last,) = step12["diagrams"][-1:]
    assert not any(k.startswith("theta") for k in last["returned"])
    assert last["returned"]["up"] > 50  # the arrows do go back (one card, whichever way it points)
    step11 = next(s for s in section["steps"] if s["number"] == "11")
    caption = step11["diagrams"][-1]
    assert not any(k.startswith("theta") for k in caption["returned"])  # owner cards stay in sleeves
    assert caption["sleeved"]["theta1"] >= 1


def test_every_step_the_text_points_to_has_its_picture(uno: dict[str, Any]) -> None:
    """A step whose cards change at the table has a picture; only steps where nothing is done
    (their text says so) have none."""
    section = next(s for s in uno["sections"] if s["protocol"] == DEFAULT)
    for step in section["steps"]:
        if not step["diagrams"]:
            assert step["number"] == "1" or "nothing to do" in step["say"].lower(), step["number"]
    step5 = next(s for s in section["steps"] if s["number"] == "5")
    (picture,) = step5["diagrams"]  # the sleeves turned front up show the cards: one picture
    grid = picture["regions"][0]
    assert grid["sleeves"] == {"side": "front", "rows": 2}
    assert all(cell["up"] for cell in grid["cells"][0] if cell)  # every card shows
    assert not any(cell["up"] for cell in grid["cells"][1] if cell)  # no owner card does


def test_a_step_that_slides_cards_out_is_not_captioned_turned_over(uno: dict[str, Any]) -> None:
    """Step 9 slides each owner card half out of its sleeve, face up; its note said "92 cards are
    turned over", which no one at the table does. A note about many cards shown says they show
    their faces (turned over in step 5, slid out in step 9), and never "turned over" where the
    step's own sentence does not turn anything."""
    section = next(s for s in uno["sections"] if s["protocol"] == DEFAULT)
    shown = {s["number"]: s for s in section["steps"] if any("show their faces" in n for n in s["notes"])}
    assert {"5", "9"} <= set(shown)
    assert "turn" not in shown["9"]["say"].lower() and "slide" in shown["9"]["say"].lower()
    for step in section["steps"]:
        for note in step["notes"]:
            assert "turned over" not in note or "turn" in step["say"].lower(), (step["number"], note)
