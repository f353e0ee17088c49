"""What a correct table can show at each reveal, from every possible run."""

from __future__ import annotations

import pytest

from reference_engine.registry import Library
from reference_engine.reveals import Observation, Reveal, possible_reveals

LIB = Library()


def pairs(*bits: int) -> Observation:
    """The lottery's Step 7: pairs in rows 2-3 of P, one column per pile."""
    out = []
    for j, b in enumerate(bits, 1):
        top, bottom = ("beta", "alpha") if b else ("alpha", "beta")
        out += [("P", 2, j, top), ("P", 3, j, bottom)]
    return tuple(out)


def facts(reveal: Reveal) -> list[str]:
    return [f.text for f in reveal.facts]


def test_modified_lottery_allows_at_most_one_pair_reading_one() -> None:
    reveals = possible_reveals(LIB, LIB.protocol("covert-lottery-modified"), {"m": 3})
    step7 = reveals[("covert-lottery-modified", "7")]
    # Every input, every shuffle: all zeros, or a single one in any of the three piles.
    seen = {tuple(s for *_, s in obs) for obs in step7.observations}
    assert len(seen) == 4
    assert "At most one pair shows β α." in facts(step7)
    assert step7.allows(pairs(0, 0, 0)) and step7.allows(pairs(0, 1, 0))
    assert not step7.allows(pairs(1, 0, 1))  # two pairs reading 1: a mistake earlier
    broken = list(pairs(0, 1, 0))
    broken[0] = ("P", 2, 1, "beta")  # a pair reading β β
    assert not step7.allows(tuple(broken))
    # The six-card AND inside it turns one pair, either way round.
    and5 = reveals[("six-card-and", "5")]
    assert "Each pair of turned cards shows α β (= 0) or β α (= 1)." in facts(and5)


def test_original_lottery_always_selects_exactly_one() -> None:
    reveals = possible_reveals(LIB, LIB.protocol("covert-lottery"), {"m": 3})
    step = next(r for (name, _), r in reveals.items() if name == "covert-lottery")
    assert "Exactly one pair shows β α." in facts(step)
    assert not step.allows(pairs(0, 0, 0))


def test_card_selection_reveals_game_cards_then_theta_cards() -> None:
    reveals = possible_reveals(LIB, LIB.protocol("card-selection"))
    step5 = reveals[("card-selection", "5")]
    step9 = reveals[("card-selection", "9")]
    assert facts(step5)[0] == "Only game cards appear."
    assert facts(step9)[0] == "Only θ cards appear."
    assert "Always the same cards, only their order changes." in facts(step9)
    # Mini scenario: P_1 holds 2 cards, P_2 1, the draw pile 2: always 2 θ1, 1 θ2, 2 θ3.
    bag = next(f for f in step9.facts if f.kind == "same_cards").data["cards"]
    assert bag == {"theta1": 2, "theta2": 1, "theta3": 2}
    one = step9.observations[0]
    swapped = tuple((r, row, col, "theta1" if s == "theta2" else s) for r, row, col, s in one)
    assert step9.allows(one) and not step9.allows(swapped)
    alpha_in_row = ((one[0][0], one[0][1], one[0][2], "alpha"),) + one[1:]
    assert not step9.allows(alpha_in_row)


@pytest.mark.parametrize("name", ["six-card-and", "five-card-trick", "ruangwises-itoh-addition"])
def test_every_observation_satisfies_its_facts(name: str) -> None:
    for reveal in possible_reveals(LIB, LIB.protocol(name)).values():
        assert reveal.facts
        assert all(reveal.allows(obs) for obs in reveal.observations)


def test_a_family_card_never_drawn_here_is_named_by_its_glyph() -> None:
    """A check sentence names λ1 as λ1 even where only a verification worker drew it (Daifugō's
    booklet said "The cards show one of: label1; label2; ■")."""
    from reference_engine.reveals import glyph

    proto = Library().protocol("play-selection")
    assert glyph("label9041", proto) == "λ9041"
    assert glyph("stop", proto) == "■"
    assert glyph("nothing7", proto) == "nothing7"
