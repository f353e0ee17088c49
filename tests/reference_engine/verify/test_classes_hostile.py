"""Hostile outputs for a verification by classes: supply cards, removals twice, hands split otherwise.

The renaming argument of ``verify/classes.py`` needs every expression of the outputs to map by
the renaming ``pi`` of the dealt cards to their class symbols. It does not when a card from the
supply (``symbol('red1')``) meets a dealt card of the same face (equal in the deal, never in the
class deal), here brought in by a branch of a condition whose other branch gives dealt cards;
when one card is removed twice (``minus(hand, [played, played])``: in the deal the second
removal finds nothing, in the class deal another card of the same class); nor when ``part``
splits the dealt cards by other sizes than their hands' (``part(cards, [1, 4], 1)``: the first
card of P_1's hand, by its place, which the class deal orders by class).

Each variant changes ``card-selection-arrow`` (scenario mini, [2, 1, 2]) so that its promise is
false card by card (the direct verification says so) but held on every class deal before the
fix: the verification by classes said "correct" (and secure) for a protocol that is not. Each
must be refused, with the file, the line and the key.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from reference_engine.errors import ReductionRefused
from reference_engine.registry import Library, rulesets_dir
from reference_engine.verify import verify

from .test_classes import table_of

Variant = Callable[..., Library]
ARROW = "card-selection-arrow"
FOUND = "  found:\n    public: true\n"
SUPPLY = "two branches giving dealt cards and other values"

# (value, equals): each promise is false card by card when P_1 (or P_2) holds the red 1.
HOSTILE = [
    # a supply card removed from P_1's hand: P_1's red 1 is removed in the deal, no class card is
    (
        "sizes[1]",
        "len(minus(part(cards, sizes, 1), ([symbol('red1')] if sizes[1] > 0 else part(cards, sizes, 2))))",
    ),
    # a loop variable that is a supply card, removed from P_2's hand
    (
        "sizes[2]",
        "sum([len(without(part(cards, sizes, 2), c)) for c in ([symbol('red1')] if sizes[1] > 0"
        " else part(cards, sizes, 1))])",
    ),
]


def hostile(variant: Variant, value: str, equals: str) -> Library:
    block = f'  extra:\n    public: true\n    value: "{value}"\n    equals: "{equals}"\n    doc: hostile\n'
    return variant(ARROW, (FOUND, block + FOUND))


def direct(lib: Library) -> tuple[bool, bool]:
    report = verify(lib, lib.protocol(ARROW), {"sizes": (2, 1, 2), "draw": 1}, scenario="mini")
    return report.correct, report.secure


def refused(lib: Library, key: str, why: str) -> None:
    with pytest.raises(ReductionRefused) as info:
        verify(lib, lib.protocol(ARROW), None, table=table_of(lib, ARROW, "mini", [2, 1, 2]))
    text = str(info.value)
    assert "card-selection-arrow.yaml:" in text and key in text, text
    assert "other than as a multiset" in text and why in text, text


@pytest.mark.parametrize(("value", "equals"), HOSTILE, ids=["supply-card", "supply-loop"])
def test_a_supply_card_beside_dealt_cards_is_refused(variant: Variant, value: str, equals: str) -> None:
    lib = hostile(variant, value, equals)
    assert direct(lib) == (False, True)
    refused(lib, "outputs.extra.equals", SUPPLY)


def test_a_supply_card_beside_a_dealt_card_in_a_choice_is_refused(variant: Variant) -> None:
    lib = variant(
        ARROW,
        (
            "[[c, 1] for c in part(cards, sizes, 1) if valid(c)]\n      if any(",
            "[[c if sizes[1] > 0 else symbol('red1'), 1] for c in part(cards, sizes, 1) if valid(c)]"
            "\n      if any(",
        ),
    )
    refused(lib, "outputs.played.weighted", SUPPLY)


TWICE = (
    "[sorted(without(part(cards, sizes, 1), played)) if i == 1",
    "[sorted(minus(part(cards, sizes, 1), [played, played])) if i == 1",
)


def test_a_card_removed_twice_is_refused(variant: Variant) -> None:
    """``minus(hand, [played, played])`` is P_1's hand without the played card in every deal, so
    card by card the protocol is correct; in a class deal where P_1 holds two valid cards it
    removes both: the classes would say "not correct". A renaming that does not commute with
    the expression: refused (a run that removed a second card of the class would pass)."""
    lib = variant(ARROW, TWICE)
    assert direct(lib) == (True, True)
    refused(lib, "outputs.hands.equals", "a card that may be removed twice")


def test_two_outputs_of_one_region_are_not_distinct_cards(variant: Variant) -> None:
    """``kept`` read from the region ``played``: the same card, removed twice from the draw pile."""
    lib = variant(ARROW, ("    cards: kept\n", "    cards: played\n"))
    refused(lib, "outputs.hands.equals", "a card that may be removed twice")


def test_a_loop_variable_named_as_an_output_is_no_output(variant: Variant) -> None:
    """``played`` renamed by a loop over the draw pile: it may be the card ``kept`` too."""
    lib = variant(
        ARROW,
        (
            "(sorted(minus(part(cards, sizes, i), [played, kept])) if i == len(sizes) - discard",
            "(sorted([x for played in part(cards, sizes, i)"
            " for x in minus(part(cards, sizes, i), [played, kept])]) if i == len(sizes) - discard",
        ),
    )
    refused(lib, "outputs.hands.equals", "a card that may be removed twice")


def test_distinct_outputs_of_distinct_regions_are_removed_together(library: Library) -> None:
    """The protocol's own ``minus(part(cards, sizes, i), [played, kept])``: two regions, never one card."""
    report = verify(library, library.protocol(ARROW), None, table=table_of(library, ARROW, "mini", [1, 1, 3]))
    assert report.ok


HANDS = "[sorted(without(part(cards, sizes, 1), played)) if i == 1"
PART = "part() of the dealt cards by other sizes than their hands'"


@pytest.mark.parametrize(
    "first",
    [
        "part(cards, [1, sum(sizes) - 1], 1)",  # the first dealt card: P_1's first, by its place
        "part(part(cards, sizes, 1), [1, sizes[1] - 1], 1)",  # the same, from P_1's hand
        "[part(cards, sizes, 1) for sizes in [[1, 4]]][1]",  # the sizes renamed by a loop
    ],
    ids=["other-sizes", "part-of-part", "renamed-sizes"],
)
def test_a_hand_split_by_other_sizes_is_refused(variant: Variant, first: str) -> None:
    """P_1's hand back as "its first card" when it had a valid one: in every class deal the card
    left is the first one (the classes lie sorted in a hand, the one played is the valid one or
    either of two alike); card by card it is not (R1 and Y5: either may be left)."""
    lib = variant(
        ARROW,
        (
            HANDS,
            f"[({first} if any(valid(c) for c in part(cards, sizes, 1))"
            " else part(cards, sizes, 1)) if i == 1",
        ),
    )
    if "for sizes" not in first:
        assert direct(lib) == (False, True)
    refused(lib, "outputs.hands.equals", PART)


def test_a_draw_from_the_wrong_owner_fails_correct_both_ways(variant: Variant) -> None:
    """The first sleeve of P_2 drawn instead of the draw pile's: the first column with a property
    is still drawn at random (the same owner card shows), and the promise (a card of the draw
    pile) is false both ways."""
    lib = variant(
        ARROW,
        (
            "M[2, j] == theta(pile)\n            and not any(M[2, i] == theta(pile) for i",
            "M[2, j] == theta(2)\n            and not any(M[2, i] == theta(2) for i",
        ),
    )
    proto = lib.protocol(ARROW)
    direct = verify(lib, proto, {"sizes": (1, 1, 3), "draw": 1}, scenario="mini")
    classes = verify(lib, proto, None, table=table_of(lib, ARROW, "mini", [1, 1, 3]))
    assert (direct.correct, direct.secure) == (classes.correct, classes.secure) == (False, True)


# --------------------------------------------------------------------------- card outputs

SUPPLY_OUTPUTS = """outputs:
  played:
    cards: fake
    encoding: card
    public: true
    weighted: "[[symbol('red1'), 1]]"
    doc: a card from the supply
  found:
    public: true
    value: "found"
    equals: "any(valid(c) for c in part(cards, sizes, 1))"
    doc: whether P_1 has a valid card
  hands:
    cards: "[hand(i) for i in 1..len(sizes)]"
    encoding: cards
    equals: "[sorted(without(part(cards, sizes, i), played)) for i in 1..len(sizes)]"
    doc: every hand without the played card

"""
FAKE = """  - step: 13
    say: "The played card back to P_1; a red 1 from the supply is played instead."
    do:
      - if: "exists('played')"
        then:
          - return: {cards: "played", to: 1}
      - place:
          fake: "[new(symbol('red1'))]"
"""
END = '    table: {during: "10"}\n'


def supply_output(variant: Variant, played: str) -> Library:
    text = (rulesets_dir() / "protocols" / f"{ARROW}.yaml").read_text(encoding="utf-8")
    outputs = text[text.index("outputs:\n") : text.index("expect:\n")]
    new = SUPPLY_OUTPUTS.replace("""    weighted: "[[symbol('red1'), 1]]"\n""", played)
    return variant(
        ARROW,
        (outputs, new),
        (END, END + "\n" + FAKE),
        ("default: 1\n    min: 0\n    max: 1", "default: 0\n    min: 0\n    max: 1"),
    )


@pytest.mark.parametrize(
    "played",
    ["""    weighted: "[[symbol('red1'), 1]]"\n""", """    uniform: "[symbol('red1')]"\n"""],
    ids=["weighted", "uniform"],
)
def test_a_card_output_from_the_supply_is_refused(variant: Variant, played: str) -> None:
    """The output ``played`` is a red 1 from the supply, removed from the hands: card by card it
    removes P_i's red 1 (which the run does not), in the class deal nothing. Before the fix the
    classes said correct and secure; the card by card check, not correct."""
    lib = supply_output(variant, played)
    report = verify(lib, lib.protocol(ARROW), {"sizes": (1, 1, 3)}, scenario="mini")
    assert (report.correct, report.secure) == (False, True)
    key = "outputs.played.weighted" if "weighted" in played else "outputs.played.uniform"
    with pytest.raises(ReductionRefused) as info:
        verify(lib, lib.protocol(ARROW), None, table=table_of(lib, ARROW, "mini", [1, 1, 3]))
    text = str(info.value)
    assert key in text and "may be a card from the supply" in text, text
