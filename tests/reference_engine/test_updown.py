"""Up-down cards in the engine: a face that a half turn changes (``rotated:``), the public
``rotate`` action, and the shuffles done by several people at once (``spin``: rows on mats turned
round or not; ``each``: groups of piles mixed apart). Face down, an up-down card does not show
which way it points, and going back to the spares it is one card whichever way it pointed.

The knockout lottery and the card selection protocol with arrow cards are built on them; both
verify exactly, and the broken versions are refused.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from reference_engine.api import Library, SimulationError, SpecError, verify
from reference_engine.spec import load_protocol_text

HEAD = """
protocol: {name}
title: test
symbols:
  up: {{glyph: "▲", rotated: down}}
  down: {{glyph: "▼", rotated: up}}
  alpha: {{glyph: "α"}}
  beta: {{glyph: "β"}}
encodings:
  arrow: {{values: {{0: [down], 1: [up]}}}}
  bit: {{values: {{0: [alpha, beta], 1: [beta, alpha]}}}}
"""


def library_with(tmp_path: Path, name: str, body: str) -> Library:
    (tmp_path / f"{name}.yaml").write_text(HEAD.format(name=name) + body, encoding="utf-8")
    return Library([tmp_path])


# An arrow copied with a random half turn: lay the arrow between two fresh "no" arrows on a mat,
# turn the mat round or not, turn the middle one over (x XOR r), and turn the two copies round
# when it points up. The two copies then point as x did; the middle card tells nothing.
COPY = """
inputs:
  x: {encoding: arrow}
steps:
  - step: 1
    say: lay out
    place:
      s: "[new(down), x, new(down)]"
  - step: 2
    say: turn the mat round or not
    shuffle:
      spin: "[[s[1], s[2], s[3]]]"
  - step: 3
    say: read the middle one
    do:
      - turn: "s[2]"
      - if: "s[2] == up"
        then:
          - rotate: "[s[1], s[3]]"
      - let:
          seen: "s[2] == up"
      - discard: "s[2]"
outputs:
  a: {cards: "s[1]", encoding: arrow, equals: x}
  b: {cards: "s[3]", encoding: arrow, equals: x}
"""


def test_a_half_turn_copies_an_arrow_and_shows_nothing(tmp_path: Path) -> None:
    lib = library_with(tmp_path, "arrow-copy", COPY)
    report = verify(lib, lib.protocol("arrow-copy"))
    assert report.ok, report.to_json()["checks"]


def test_without_the_half_turn_the_copy_shows_the_bit(tmp_path: Path) -> None:
    body = COPY.replace('spin: "[[s[1], s[2], s[3]]]"', 'scramble: "[s[1], s[3]]"')
    lib = library_with(tmp_path, "arrow-copy", body)
    assert verify(lib, lib.protocol("arrow-copy")).failed() == ["secure"]


def test_a_rotation_that_forgets_the_mask_is_wrong(tmp_path: Path) -> None:
    body = COPY.replace('- rotate: "[s[1], s[3]]"', '- rotate: "[s[1]]"')
    lib = library_with(tmp_path, "arrow-copy", body)
    assert "correct" in verify(lib, lib.protocol("arrow-copy")).failed()


def test_face_down_an_arrow_does_not_show_its_direction(tmp_path: Path) -> None:
    """Turning an arrow round where it lies, face down, shows nothing; putting it back with the
    spares shows nothing either (it is one card whichever way it pointed)."""
    body = """
inputs:
  x: {encoding: arrow}
steps:
  - step: 1
    say: turn it round, then put it back
    do:
      - place: {s: [x]}
      - rotate: "s[1]"
      - discard: s
outputs: {}
"""
    lib = library_with(tmp_path, "arrow-back", body)
    report = verify(lib, lib.protocol("arrow-back"))
    assert report.ok, report.to_json()["checks"]
    shown = body.replace('- rotate: "s[1]"', '- rotate: "s[1]"\n      - turn: "s[1]"')
    lib = library_with(tmp_path, "arrow-back", shown)
    assert verify(lib, lib.protocol("arrow-back")).failed() == ["secure"]


# Two bits masked at once: each pair's two cards swapped or not, independently (two people at once).
MASKS = """
inputs:
  a: {encoding: bit}
  b: {encoding: bit}
steps:
  - step: 1
    say: lay out
    place: {s: "[a, b]"}
  - step: 2
    say: mix each pair apart, at once
    shuffle:
      each: "[[s[1], s[2]], [s[3], s[4]]]"
  - step: 3
    say: look
    do:
      - turn: s
      - discard: s
outputs: {}
"""


def test_groups_mixed_apart_are_independent(tmp_path: Path) -> None:
    lib = library_with(tmp_path, "two-masks", MASKS)
    report = verify(lib, lib.protocol("two-masks"))
    assert report.ok, report.to_json()["checks"]
    assert report.to_json()["resources"]["shuffles"] == 1
    # One mask for both (a bisection of the two pairs together) shows a XOR b.
    common = MASKS.replace('each: "[[s[1], s[2]], [s[3], s[4]]]"', 'scramble: "[[s[1], s[3]], [s[2], s[4]]]"')
    lib = library_with(tmp_path, "two-masks", common)
    assert verify(lib, lib.protocol("two-masks")).failed() == ["secure"]


@pytest.mark.parametrize(
    ("symbols", "message"),
    [
        ('up: {rotated: down}\n  down: {glyph: "v"}', "must say 'rotated: up'"),
        ("up: {rotated: sideways}", "'sideways' is not a card of this spec"),
        ("up: {rotated: up}", "needs no 'rotated'"),
        ('t: {family: true, glyph: "t{}", rotated: u}\n  u: {rotated: t}', "family of cards cannot"),
    ],
)
def test_bad_up_down_pairs_are_refused(symbols: str, message: str) -> None:
    text = f"protocol: bad\ntitle: bad\nsymbols:\n  {symbols}\nsteps:\n  - step: 1\n    say: x\n    note: x\n"
    with pytest.raises(SpecError, match=message):
        load_protocol_text(text, "bad.yaml")


def test_a_spin_needs_mirrored_piles(tmp_path: Path) -> None:
    body = COPY.replace('spin: "[[s[1], s[2], s[3]]]"', 'spin: "[[s[1..2], s[3]]]"')
    lib = library_with(tmp_path, "arrow-copy", body)
    with pytest.raises(Exception, match="same number of cards"):
        verify(lib, lib.protocol("arrow-copy"))


# --------------------------------------------------------------------------- the knockout lottery


@pytest.mark.parametrize("m", [1, 2, 3, 4, 5])
def test_the_knockout_lottery_verifies(library: Library, m: int) -> None:
    report = verify(library, library.protocol("knockout-lottery"), {"m": m})
    assert report.ok, report.to_json()["checks"]
    rounds = len([n for n in (1, 2, 4, 8) if n < m])
    assert report.to_json()["resources"]["shuffles"] == 1 + rounds  # its first shuffle, then a round each


KNOCKOUT_BROKEN: dict[str, tuple[tuple[str, str], str]] = {
    # The winner's arrow not turned round after a mat turned up: "either valid" is lost.
    "winner not turned": (
        ('- rotate: "[P[2, alive[2 * i - 1]] for i in 1..h if U[i] == up]"', "- let: {z: 0}"),
        "correct",
    ),
    # A fresh "yes" arrow in the left sleeve instead of "no".
    "fresh arrow up": (
        ('"P[2, alive[2 * i - 1]]": "new(down)"', '"P[2, alive[2 * i - 1]]": "new(up)"'),
        "correct",
    ),
    # Reading the left arrow without the random half turn: it shows the left card's bit.
    "no half turn": (
        ('spin: "[[P[*, alive[2 * i - 1]], U[i], P[*, alive[2 * i]]] for i in 1..h]"', 'scramble: "[U[1]]"'),
        "secure",
    ),
}


@pytest.mark.parametrize("name", sorted(KNOCKOUT_BROKEN))
def test_broken_knockouts_are_refused(variant: Callable[..., Library], name: str) -> None:
    change, check = KNOCKOUT_BROKEN[name]
    lib = variant("knockout-lottery", change)
    assert check in verify(lib, lib.protocol("knockout-lottery"), {"m": 3}).failed()


def test_the_knockout_without_its_shuffle_picks_the_first_valid_card(library: Library) -> None:
    report = verify(library, library.protocol("knockout-lottery"), {"m": 3, "shuffled": 1})
    assert "correct" in report.failed()


# --------------------------------------------------------------------------- card selection with arrows


@pytest.mark.parametrize(
    "scenario",
    # mini-discard (the discard pile owned too) is 30 s of CPU: the slow tier's; the others are fast.
    [
        "mini",
        "mini-draw",
        "mini-three",
        pytest.param("mini-discard", marks=pytest.mark.slow),
        "dominoes-mini",
    ],
)
def test_card_selection_with_arrows_verifies(library: Library, scenario: str) -> None:
    report = verify(library, library.protocol("card-selection-arrow"), scenario=scenario)
    assert report.ok, report.to_json()["checks"]


def _second_wash() -> str:
    """Step 8's wash in the arrow spec, whole (its shuffle key down to the end of its how)."""
    text = Path(Library().protocol("card-selection-arrow").file).read_text(encoding="utf-8")
    start = text.index("    shuffle:", text.index("  - step: 8"))
    return text[start : text.index("\n\n", start) + 1]


SECOND_WASH = _second_wash()

ARROW_BROKEN: dict[str, tuple[tuple[tuple[str, str], ...], str]] = {
    # The arrows the wrong way round.
    "arrows reversed": (
        (
            (
                '"[arrow(1) if valid(M[1, j]) else arrow(0) for j in 1..ncols(M)]"',
                '"[arrow(0) if valid(M[1, j]) else arrow(1) for j in 1..ncols(M)]"',
            ),
        ),
        "correct",
    ),
    # A random cut instead of the second wash: each column keeps its neighbours, so the owner
    # cards read at Step 9 line up with the faces shown at Step 5.
    "a cut for the second wash": (((SECOND_WASH, SECOND_WASH.replace("scramble", "shift")),), "secure"),
    # No second wash at all: the owner cards slid out at Step 9 lie under the faces shown at Step 5.
    "the second wash left out": (
        ((SECOND_WASH, "    let:\n      washed: 0\n"),),
        "secure",
    ),
    # The sleeves turned end over end at Step 7 (not sideways, like a page): every arrow turns round.
    "sleeves turned end over end": (
        (
            (
                '      - sleeve: {M: back}\n      - turn: "up()"',
                '      - sleeve: {M: back}\n      - turn: "up()"\n      - rotate: "M[3, *]"',
            ),
        ),
        "correct",
    ),
}


@pytest.mark.parametrize("name", sorted(ARROW_BROKEN))
def test_broken_arrow_selections_are_refused(variant: Callable[..., Library], name: str) -> None:
    changes, check = ARROW_BROKEN[name]
    lib = variant("card-selection-arrow", *changes)
    # The smallest scenario catches each (mini-draw took 25 s of CPU for the same verdict).
    assert check in verify(lib, lib.protocol("card-selection-arrow"), scenario="mini").failed()


# A sleeved table may show less than the protocol, never more: these break the sleeves, not the
# protocol's cards, and the engine refuses them with the step.
ARROW_SLEEVES_BROKEN: dict[str, tuple[tuple[str, str], str]] = {
    # The arrow slid in facing the solid back: lying back up, the sleeve would hand it to the
    # lottery face up (its direction seen).
    "arrow facing the solid back": (
        ("    front: [1, 3]        # the card", "    front: [1]           # the card"),
        "would come out of its sleeve face up",
    ),
    # The sleeves turned front up to read the owner cards: every arrow would show its direction.
    "sleeves front up at Step 9": (
        ("      - sleeve: {M: {out: [2]}}\n\n  - step: 10", "      - sleeve: {M: front}\n\n  - step: 10"),
        "the sleeve of M[3, 1] lies front up",
    ),
}


@pytest.mark.parametrize("name", sorted(ARROW_SLEEVES_BROKEN))
def test_arrow_sleeves_that_show_too_much_are_refused(variant: Callable[..., Library], name: str) -> None:
    change, words = ARROW_SLEEVES_BROKEN[name]
    lib = variant("card-selection-arrow", change)
    with pytest.raises(SimulationError) as raised:
        report = verify(lib, lib.protocol("card-selection-arrow"), scenario="mini")
        raise AssertionError(report.to_json()["checks"])
    assert words in str(raised.value), str(raised.value)


@pytest.mark.slow
def test_card_selection_with_arrows_on_the_whole_deck(library: Library) -> None:
    """The whole UNO deck, 4 players: checked statistically (the weighted draw output has no
    validity-class reduction, so `verify --hand` refuses it); every run checked, chi-square tests
    of the played card and of the view."""
    from reference_engine.verify import verify_runs

    report = verify_runs(library, library.protocol("card-selection-arrow"), runs=120, seed=2)
    data = report.to_json()
    assert data["method"] == "statistical"
    assert data["correct"] and data["secure"], data["checks"]
    assert data["params"]["sizes"] == (7, 7, 7, 7, 79)
    assert all(e["match"] for e in data["expect"])


@pytest.mark.slow
def test_arrows_without_the_second_wash_fail_on_the_whole_deck(variant: Callable[..., Library]) -> None:
    from reference_engine.verify import verify_runs

    lib = variant("card-selection-arrow", (SECOND_WASH, "    let:\n      washed: 0\n"))
    report = verify_runs(lib, lib.protocol("card-selection-arrow"), runs=200, seed=0)
    assert "secure" in report.failed()
