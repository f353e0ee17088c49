"""Weighted outputs and the first of scrambled columns by validity classes: ``card-selection-arrow``.

The arrow protocol's outputs ``played`` and ``kept`` are weighted choices (with no valid card, the
card drawn in the same run when it is valid, or none), and its draw takes the first sleeve of the
draw pile in the washed rows. The verification by classes takes both (``verify/classes.py``,
"Weighted choices"; ``verify/symmetry.py``, ``Symmetry.take_first``):

* Against the direct exact verification, card by card, on every scenario deck of the protocol
  and other sizes: the same verdicts, deals, resources and paper counts, and for every deal its
  exact output distribution seen through the classes (each dealt card as its validity and its
  owner) is its class deal's distribution.
* Hostile weights (reading a card's place in a hand or its name) are refused with the file, line
  and key; a wrong weight that the discipline lets through (a plain one) fails ``correct`` both
  ways; the draw without ``take_first`` (the first sleeve of the sorted columns) fails.
* Hostile takes of a first column: a condition that is not the same for the earlier columns is
  refused before anything runs; columns that may come first but show different cards are
  refused at run time.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from reference_engine.cards import Symbol
from reference_engine.errors import ReductionRefused
from reference_engine.registry import Library
from reference_engine.verify import outcome_distribution, verify
from reference_engine.verify.setting import setting
from reference_engine.verify.symmetry import Symmetry

from .test_classes import both, table_of

Variant = Callable[..., Library]
ARROW = "card-selection-arrow"

# (scenario, sizes, draw): P_1 with and without a valid card, draw piles of one class and of
# both, the discard pile as an owner, and each game's table (Sevens never draws).
ARROW_CASES = [
    ("mini", [1, 1, 3], 1),
    ("mini", [1, 2, 2], 0),
    ("crazy-eights-mini", [1, 1, 3], 1),
    ("sevens-mini", [2, 2, 1], 0),
    ("dominoes-mini", [1, 1, 3], 1),
    pytest.param("mini", [2, 1, 2], 1, marks=pytest.mark.slow),
    pytest.param("crazy-eights-mini", [2, 1, 2], 1, marks=pytest.mark.slow),
    pytest.param("mini-draw", [1, 1, 4], 1, marks=pytest.mark.slow),
    pytest.param("mini-draw", [2, 1, 3], 1, marks=pytest.mark.slow),
    pytest.param("mini-three", [3, 1, 2], 1, marks=pytest.mark.slow),
    pytest.param("mini-discard", [1, 1, 2, 2], 1, marks=pytest.mark.slow),
]


def agree(lib: Library, scenario: str, sizes: list[int], draw: int) -> tuple[bool, bool]:
    """Both verifications of the arrow protocol on one table: their verdicts, after checking
    that they agree check by check, on the deals, the resources, and every deal's distribution
    seen through the classes."""
    proto = lib.protocol(ARROW)
    direct = verify(lib, proto, {"sizes": tuple(sizes), "draw": draw}, scenario=scenario)
    classes = verify(
        lib, proto, table_params(lib, scenario, draw), table=table_of(lib, ARROW, scenario, sizes)
    )
    assert [(c.name, c.ok) for c in classes.checks] == [(c.name, c.ok) for c in direct.checks]
    assert classes.reduction is not None and classes.reduction["deals"] == classes.inputs == direct.inputs
    assert classes.resources == direct.resources and classes.expect == direct.expect
    same_distributions(lib, scenario, sizes, draw)
    return direct.correct, direct.secure


def table_params(lib: Library, scenario: str, draw: int) -> dict[str, Any]:
    """The scenario's parameters but its sizes (the table's), with ``draw``: ``discard`` too."""
    given = lib.protocol(ARROW).scenarios[scenario].params
    return {**{k: v for k, v in given.items() if k != "sizes"}, "draw": draw}


def same_distributions(lib: Library, scenario: str, sizes: list[int], draw: int) -> None:
    proto = lib.protocol(ARROW)
    table = table_of(lib, ARROW, scenario, sizes)
    by_class: dict[Any, dict[Any, Fraction]] = {}
    for values, dist in outcome_distribution(lib, proto, table_params(lib, scenario, draw), table=table):
        key = tuple(sorted(_glyph_key(s) for s in values["cards"]))
        by_class[key] = _seen(dist, lambda v: _glyph_key(v) if isinstance(v, Symbol) else None)
    valid = setting(proto, {"sizes": tuple(sizes)}, scenario).context["valid"]
    direct = outcome_distribution(lib, proto, {"sizes": tuple(sizes), "draw": draw}, scenario)
    assert len(direct) == sum(1 for _ in direct) > 0
    for values, dist in direct:
        owner: dict[int, int] = {}
        pos = 0
        for n, size in enumerate(sizes, 1):
            for sym in values["cards"][pos : pos + size]:
                owner[sym.id] = n
            pos += size

        def card(v: Any, owner: dict[int, int] = owner) -> tuple[str, int] | None:
            if not isinstance(v, Symbol) or v.id not in owner:
                return None
            return ("valid" if valid(v) else "not valid", owner[v.id])

        key = tuple(sorted(card(s) or ("", 0) for s in values["cards"]))
        assert _seen(dist, card) == by_class[key], (values, key)


def _glyph_key(sym: Symbol) -> tuple[str, int]:
    """``[not valid card of P2]`` -> ("not valid", 2)."""
    label, _, owner = sym.glyph.strip("[]").rpartition(" card of P")
    return label, int(owner)


def _seen(dist: dict[tuple[Any, ...], Fraction], card: Callable[[Any], Any]) -> dict[Any, Fraction]:
    out: dict[Any, Fraction] = defaultdict(Fraction)
    for outs, p in dist.items():
        out[tuple(_project(v, card) for v in outs)] += p
    return dict(out)


def _project(value: Any, card: Callable[[Any], Any]) -> Any:
    """An output with every dealt card as (its validity, its owner); a group of cards sorted."""
    if isinstance(value, tuple):
        items = [_project(v, card) for v in value]
        flat = items and all(isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], str) for v in items)
        return tuple(sorted(items)) if flat else tuple(items)
    seen = card(value)
    return value if seen is None else seen


@pytest.mark.parametrize(
    ("scenario", "sizes", "draw"),
    ARROW_CASES,
    ids=lambda v: "-".join(map(str, v)) if isinstance(v, list) else str(v),
)
def test_the_arrow_protocol_by_classes_agrees_card_by_card(
    library: Library, scenario: str, sizes: list[int], draw: int
) -> None:
    assert agree(library, scenario, sizes, draw) == (True, True)


def test_the_arrow_protocol_on_a_whole_deck(library: Library) -> None:
    """UNO for two, P_1 holding one card: 16 class deals for some 2.6 x 10^12 deals."""
    from reference_engine.verify import verify_deck

    report = verify_deck(library, library.protocol(ARROW), "uno", 2, 1)
    assert report.ok and report.reduction is not None and report.reduction["class_deals"] == 16


# --------------------------------------------------------------------------- hostile weights

PLAYED = "      [[c, 1] for c in part(cards, sizes, 1) if valid(c)]\n      if any("


@pytest.mark.parametrize(
    ("weights", "why"),
    [
        # a card picked by its place in P_1's hand
        ("[[part(cards, sizes, 1)[1], 1]]", "an item of a list of dealt cards picked by its place"),
        # weights by place in the hand
        (
            "[[part(cards, sizes, 1)[k], k] for k in 1..sizes[1] if valid(part(cards, sizes, 1)[k])]",
            "an item of a list of dealt cards picked by its place",
        ),
        # a card's name
        (
            "[[c, 2 if c == symbol('red1') else 1] for c in part(cards, sizes, 1) if valid(c)]",
            "dealt cards in a comparison",
        ),
        # two dealt cards compared
        (
            "[[c, 1] for c in part(cards, sizes, 1) if valid(c) and c != part(cards, sizes, 2)[1]]",
            "dealt cards in a comparison",
        ),
        # a choice of several cards at once
        ("[[part(cards, sizes, 1), 1]]", "a choice of several dealt cards"),
        # the number of a card's copies read through a function of the whole list
        (
            "[[c, count(part(cards, sizes, 1), c)] for c in part(cards, sizes, 1) if valid(c)]",
            "count() of dealt",
        ),
    ],
    ids=["place", "weight-by-place", "name", "two-cards", "several", "unknown-function"],
)
def test_weights_that_read_more_than_classes_are_refused(variant: Variant, weights: str, why: str) -> None:
    lib = variant(ARROW, (PLAYED, f"      {weights}\n      if any("))
    with pytest.raises(ReductionRefused) as info:
        verify(lib, lib.protocol(ARROW), None, table=table_of(lib, ARROW, "mini", [2, 1, 2]))
    text = str(info.value)
    assert "card-selection-arrow.yaml:" in text and "outputs.played.weighted" in text, text
    assert "other than as a multiset" in text and why in text, text


def test_a_wrong_plain_weight_fails_correct_both_ways(variant: Variant) -> None:
    """A drawn valid card twice as likely as it is: plain (the discipline lets it through), so
    the classes check it, and find it wrong like the direct verification."""
    lib = variant(
        ARROW,
        (
            "else [[c, 1] for c in part(cards, sizes, len(sizes) - discard) if draw == 1 and valid(c)]",
            "else [[c, 2] for c in part(cards, sizes, len(sizes) - discard) if draw == 1 and valid(c)]",
        ),
    )
    assert agree(lib, "mini", [1, 1, 3], 1) == (False, True)


def test_a_wrong_weight_by_class_fails_correct_both_ways(variant: Variant) -> None:
    """P_1's valid cards with a none besides (a weight the protocol does not have)."""
    lib = variant(
        ARROW,
        (PLAYED, "      [[c, 1] for c in part(cards, sizes, 1) if valid(c)] + [[none, 1]]\n      if any("),
    )
    direct, classes = both(lib, ARROW, "mini", [1, 1, 3])
    assert not direct.correct and not classes.correct and direct.secure and classes.secure


# --------------------------------------------------------------------------- the first column


def test_the_draw_needs_the_first_column_drawn_at_random(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without Symmetry.take_first the draw takes the first draw-pile sleeve of the sorted
    columns, always of one class, and the drawn card's distribution is wrong: a verdict that
    shows the mechanism is needed (and that it is the one that runs)."""
    table = table_of(library, ARROW, "mini", [1, 1, 3])
    assert verify(library, library.protocol(ARROW), None, table=table).ok
    monkeypatch.setattr(Symmetry, "take_first", lambda self, step, frontier, pick: frontier)
    assert not verify(library, library.protocol(ARROW), None, table=table).correct


TAKE = "and not any(M[2, i] == theta(pile) for i in 1..j - 1)"


@pytest.mark.parametrize(
    "earlier",
    [
        "and not any(M[2, i] == theta(1) for i in 1..j - 1)",  # another condition for the earlier ones
        "and not any(M[2, i] == theta(pile) for i in 1..j - 2)",  # not every earlier column
        "and not any(M[1, i] == theta(pile) for i in 1..j - 1)",  # another row
    ],
    ids=["condition", "range", "row"],
)
def test_a_take_that_is_not_the_first_with_its_property_is_refused(variant: Variant, earlier: str) -> None:
    lib = variant(ARROW, (TAKE, earlier))
    with pytest.raises(ReductionRefused, match="must be chosen by what each column shows"):
        verify(lib, lib.protocol(ARROW), None, table=table_of(lib, ARROW, "mini", [2, 1, 2]))


def test_first_columns_that_show_different_cards_are_refused(variant: Variant) -> None:
    """The first sleeve that is not P_1's: P_2's or the draw pile's, which the players tell apart
    by their owner cards (half out): the first of them is not a uniformly random one."""
    lib = variant(
        ARROW,
        (
            "M[2, j] == theta(pile)\n            and not any(M[2, i] == theta(pile) for i in 1..j - 1)",
            "M[2, j] != theta(1)\n            and not any(M[2, i] != theta(1) for i in 1..j - 1)",
        ),
    )
    with pytest.raises(ReductionRefused, match="show different cards"):
        verify(lib, lib.protocol(ARROW), None, table=table_of(lib, ARROW, "mini", [1, 1, 3]))


# --------------------------------------------------------------------------- removals

HANDS = "[sorted(without(part(cards, sizes, 1), played)) if i == 1"


@pytest.mark.parametrize(
    ("hand", "why"),
    [
        # a card removed twice: the second time it is not there, but its class symbol may be
        (
            "[sorted(without(without(part(cards, sizes, 1), played), played)) if i == 1",
            "from a list that is not every card of some owners' classes",
        ),
        # a card from the supply may share its face with a dealt card (UNO's copies)
        (
            "[sorted(without(part(cards, sizes, 1), symbol('red5'))) if i == 1",
            "removing a card that may not be a dealt card",
        ),
        (
            "[sorted(minus(part(cards, sizes, 1), [played, symbol('red5')])) if i == 1",
            "a list mixing dealt cards and other values",
        ),
    ],
    ids=["twice", "supply-card", "supply-card-minus"],
)
def test_removals_that_renaming_does_not_keep_are_refused(variant: Variant, hand: str, why: str) -> None:
    lib = variant(ARROW, (HANDS, hand))
    with pytest.raises(ReductionRefused) as info:
        verify(lib, lib.protocol(ARROW), None, table=table_of(lib, ARROW, "mini", [1, 1, 3]))
    text = str(info.value)
    assert "outputs.hands.equals" in text and why in text, text


def test_a_lottery_that_shows_a_bit_fails_secure_both_ways(variant: Variant) -> None:
    """The knockout lottery turns over the left sleeve's arrow of each match before its half
    turn: whether one of P_1's cards (a uniformly random one) may be played shows. The classes
    (the lottery run on a lazily scrambled block of P_1's sleeves) find it like the direct
    verification."""
    lib = variant(
        "knockout-lottery",
        (
            '                  - place:\n                      "P[2, alive[2 * i - 1]]": "new(down)"\n',
            '                  - place:\n                      "P[2, alive[2 * i - 1]]": "new(down)"\n'
            "              - turn: U\n              - turn: U\n",
        ),
    )
    assert agree(lib, "sevens-mini", [2, 2, 1], 0) == (True, False)
