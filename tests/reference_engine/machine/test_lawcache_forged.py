"""A law file of a law's shape whose sub-results a call cannot read (reference_engine/machine/
lawcache.py, stop 50's attack): UNO's cached laws rewritten under their own keys, format and
faces with a sub-result's cards ``("x",)`` or its supply's change ``(("a", "b"),)`` were taken,
and the game died with a traceback when it drew them (ValueError: not enough values to unpack;
TypeError: int + str). Such laws are refused like any malformed one (enumerated again)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from reference_engine.machine import lawcache
from reference_engine.machine.plans import SubResult
from reference_engine.meters import Meters

CARDS = (((1, 1), (84,)), ((1, 3), (50, 68, 86)))  # as UNO's knockout lottery's laws hold them


def _law(cards: Any = CARDS, delta: Any = ((0, -4),)) -> tuple[Any, ...]:
    meters = Meters(shuffles=2, turns=3, kinds=(("spin", 2),), peak=((0, 2),))
    sub = SubResult(cards=cards, values=(True,), delta=delta, meters=meters, shown=())
    return (((("turn", (3, 3)),), sub, Fraction(1, 2)), (((("turn", (1, 3)),),), sub, Fraction(1, 2)))


def test_a_real_law_s_sub_results_are_well_formed() -> None:
    assert lawcache._well_formed(_law())
    assert lawcache._well_formed(_law(cards=(), delta=()))  # nothing handed back, nothing out


@pytest.mark.parametrize(
    "cards",
    [
        ("x",),  # not a (shape, codes) pair
        (((1, 1), (84,), ()),),  # three parts
        (((1,), (84,)),),  # a shape of one number
        ((("1", 1), (84,)),),  # a shape of a text
        (((1, 2), (84,)),),  # fewer codes than places
        (((1, 1), (84, 85)),),  # more
        (((1, 1), ("x",)),),  # a code that is no number
        (((-1, -1), (84,)),),  # a negative shape
        (((1, 1), [84]),),  # a list
    ],
)
def test_cards_a_call_cannot_read_are_refused(cards: Any) -> None:
    assert not lawcache._well_formed(_law(cards=cards))


@pytest.mark.parametrize("delta", [(("a", "b"),), ((0,),), ((0, -4, 1),), ((0, "4"),), (0,)])
def test_a_supply_change_a_call_cannot_add_is_refused(delta: Any) -> None:
    assert not lawcache._well_formed(_law(delta=delta))


def test_an_outcome_listed_twice_is_refused() -> None:
    """UNO's laws rewritten with every chain of observations alike: entries repeated (the same
    chain and sub-result) were merged when drawn and the draw's thresholds named an outcome past
    the list's end (IndexError in the call). An enumeration lists each outcome once."""
    law = _law()
    twice = (law[0], (law[0][0], law[0][1], Fraction(1, 2)))
    assert lawcache._well_formed(law)
    assert not lawcache._well_formed(twice)


@pytest.mark.parametrize("code", [999999 << 1, -5, (100 << 1) | 1])
def test_a_code_of_a_face_the_writer_never_numbered_is_refused(code: int) -> None:
    """UNO's laws rewritten with every returned code 999999: the game died with an IndexError
    when it read the card (-5 named a face counted from the end). Every code must be one of the
    ``n`` faces the writer had numbered (the entry's own count), or an empty place."""
    law = _law(cards=(((1, 2), (84, code)),))
    assert lawcache._well_formed(law)  # its shape alone is a law's
    assert not lawcache._well_formed(law, 100)
    assert lawcache._well_formed(_law(cards=(((1, 2), (84, -1)),)), 100)  # an empty place
    assert lawcache._well_formed(_law(), 100)


@pytest.mark.parametrize(
    "field, value",
    [("kinds", (("spin", "x"),)), ("peak", (("a", "b"),)), ("calls", ((1, 2, 3),)), ("kinds", ((1, 2),))],
)
def test_counters_of_other_types_are_refused(field: str, value: Any) -> None:
    """UNO's laws rewritten with a kind of shuffle counted "x" times, or a peak of texts: the game
    died with a TypeError (int + str) when it added the counters."""
    law = _law()
    sub = law[0][1]
    fields = {"shuffles": 2, "turns": 3, "kinds": (("spin", 2),), "peak": ((0, 2),), "calls": ()}
    fields[field] = value
    bad = SubResult(sub.cards, sub.values, sub.delta, Meters(**fields), sub.shown)
    assert not lawcache._well_formed(tuple((chain, bad, p) for chain, _, p in law))
