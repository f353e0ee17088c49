"""The quick protocols by validity classes: a callee that relies on its caller's scramble.

``card-selection-fast`` and ``card-selection-original-fast`` call their lottery with
``shuffled: 1``: it leaves out its own first scramble because Step 8 has just scrambled the
columns. The verification by classes runs such a callee once per multiset of the columns it
gets, on a lazily scrambled block of them (``verify/symmetry.py``, ``Symmetry.under_scramble``).

* Against the direct exact verification on every scenario deck of the quick protocols: the same
  verdicts, deals, views, resources and paper counts.
* The mechanism: the callee on a lazily scrambled input has the distribution of the same callee
  averaged over every order of its columns (by brute force), which is also the distribution of
  the lottery that scrambles first (``shuffled: 0``), shuffle count apart.
* Each half of the precondition broken by a spec of its own, refused with the reason. The class
  cards cannot show this by a verdict (the lottery's choice among P_1's valid cards, one class
  symbol, would look uniform whatever the order did), which is why it is a checked precondition.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from reference_engine.cards import SYMBOLS
from reference_engine.encodings import family_symbol
from reference_engine.errors import ReductionRefused
from reference_engine.machine import Ctx, Runner, Shared
from reference_engine.machine.calls import _sub_outcomes
from reference_engine.registry import Library
from reference_engine.verify import verify

from .test_classes import both, cases, refused, same_report

Variant = Callable[..., Library]

FAST_CASES = [
    ("card-selection-fast", "mini", [[2, 1, 2], [1, 2, 2], [3, 1, 1], [1, 1, 3]]),
    ("card-selection-fast", "mini-discard", [[2, 1, 2, 1]]),
    ("card-selection-fast", "crazy-eights-mini", [[2, 1, 2], [1, 3, 1]]),
    ("card-selection-fast", "sevens-mini", [[2, 2, 1], [3, 1, 1]]),
    ("card-selection-fast", "dominoes-mini", [[2, 1, 2], [2, 3, 0]]),
    ("card-selection-original-fast", "hearts-mini", [[2, 1, 1, 1], [1, 2, 1, 1]]),
]


@pytest.mark.parametrize(
    ("protocol", "scenario", "sizes"),
    cases(FAST_CASES),
    ids=lambda v: "-".join(map(str, v)) if isinstance(v, list) else str(v),
)
def test_the_quick_protocols_by_classes_give_the_direct_verdicts_and_counts(
    library: Library, protocol: str, scenario: str, sizes: list[int]
) -> None:
    direct, classes = both(library, protocol, scenario, sizes)
    assert direct.ok
    same_report(direct, classes)


def test_every_scenario_deck_of_the_quick_protocols_is_compared(library: Library) -> None:
    for name in ("card-selection-fast", "card-selection-original-fast"):
        decks = {s for p, s, _ in FAST_CASES if p == name}
        assert decks == set(library.protocol(name).scenarios)


def test_a_whole_uno_deck_with_the_quick_protocol(library: Library) -> None:
    from reference_engine.verify import verify_deck

    report = verify_deck(library, library.protocol("card-selection-fast"), "uno", 2, 2)
    assert report.ok and report.reduction is not None
    assert report.reduction["sizes"] == [2, 7, 98]


def test_whether_the_whole_deck_check_applies_is_told_without_running_it(library: Library) -> None:
    from reference_engine.verify import deck_refusal

    assert deck_refusal(library, library.protocol("card-selection-fast"), "uno", 4) is None
    assert deck_refusal(library, library.protocol("card-selection-original-fast"), "hearts", 4) is None
    assert deck_refusal(library, library.protocol("card-selection-arrow"), "uno", 4) is None
    assert deck_refusal(library, library.protocol("card-selection-draw"), "uno", 4) is None
    weighted = deck_refusal(library, library.protocol("weighted-selection"), "uno", 4)
    assert weighted is not None and "scrambled columns in their order" in weighted
    lottery = deck_refusal(library, library.protocol("covert-lottery-fast"))
    assert lottery is not None and "names no game" in lottery


# --------------------------------------------------------------------------- the mechanism


def _lottery(
    library: Library, shuffled: int, codes: tuple[tuple[int, ...], ...], block: Any = None
) -> list[tuple[Fraction, Any, Any]]:
    runner = Runner(library, "exact", shared=Shared())
    sub = runner.frame_for(
        library.protocol("covert-lottery-fast"), {"m": 3, "shuffled": shuffled}, Ctx(None, None, None)
    )
    return _sub_outcomes(runner, sub, codes, block)


def _law(outcomes: list[tuple[Fraction, Any, Any]], weight: Fraction = Fraction(1)) -> dict[Any, Fraction]:
    """The outcomes without the shuffle count (the quick lottery has one shuffle fewer)."""
    law: dict[Any, Fraction] = defaultdict(Fraction)
    for p, obs, res in outcomes:
        law[(obs, res.cards, res.values, res.delta)] += p * weight
    return dict(law)


def test_a_lazily_scrambled_input_is_every_order_of_the_columns(library: Library) -> None:
    library.protocol("covert-lottery-fast")  # declares its cards (not left to an earlier test)
    alpha, beta = SYMBOLS.get("alpha"), SYMBOLS.get("beta")
    assert alpha is not None and beta is not None
    one, zero = (beta.id << 1, alpha.id << 1), (alpha.id << 1, beta.id << 1)
    cards = [family_symbol("c", i).id << 1 for i in (1, 2, 3)]
    columns = sorted(zip(cards, [one, one, zero]))  # two valid candidates, one not

    def codes(cols: Any) -> tuple[tuple[int, ...], ...]:
        return (tuple(c for c, _ in cols), tuple(b for _, bits in cols for b in bits))

    # Column j of the input is the candidate at position j and its pair at 3 + 2j, 4 + 2j.
    block = tuple((j, 3 + 2 * j, 4 + 2 * j) for j in range(3))
    lazy = _law(_lottery(library, 1, codes(columns), block))
    every: dict[Any, Fraction] = defaultdict(Fraction)
    for order in itertools.permutations(columns):
        for k, p in _law(_lottery(library, 1, codes(order)), Fraction(1, 6)).items():
            every[k] += p
    scrambled_first = _law(_lottery(library, 0, codes(columns)))
    assert lazy == dict(every) == scrambled_first
    # Without the block the quick lottery takes the first valid pile: not a lottery at all.
    assert _law(_lottery(library, 1, codes(columns))) != lazy


# --------------------------------------------------------------------------- refusals

STEP_8_FAST = (
    '    shuffle:\n      scramble: "columns(M)"\n      uses: sleeve\n      how: >-\n'
    "        A table wash as in Step 4: all of you mix the sleeves, back up, with flat hands for at\n"
    "        least half a minute and about a second more for every sleeve beyond eight, and leave\n"
    "        them spread where they lie, back up.\n"
)


def test_the_quick_lottery_without_the_callers_scramble_is_refused(variant: Variant) -> None:
    lib = variant("card-selection-fast", (STEP_8_FAST, "    note: the scramble is left out\n"))
    assert "second reveal" in refused(lib, "card-selection-fast")


def test_the_quick_lottery_after_the_seen_owner_cards_are_put_away_is_refused(variant: Variant) -> None:
    """Static half: what the players saw of the columns (their owner cards) left the table
    before the call, so nothing shows that it cannot tell the columns apart."""
    lib = variant(
        "card-selection-fast",
        ('      - move: {T: "L[2, *]"}\n', '      - move: {T: "L[2, *]"}\n      - discard: T\n'),
    )
    text = refused(lib, "card-selection-fast")
    assert "relies on the caller's scramble" in text and "left the table" in text and "steps[9]" in text


def test_the_quick_lottery_on_columns_told_apart_is_refused(variant: Variant) -> None:
    """Run-time half: P_2's columns go to the lottery too, their owner cards face up beside
    P_1's, so the players know which column is whose: the order is not uniformly random.
    The direct verification finds the protocol wrong; the classes refuse it."""
    lib = variant(
        "card-selection-fast",
        ("M[2, j] == theta(1)]", "M[2, j] == theta(1) or M[2, j] == theta(2)]"),
    )
    text = refused(lib, "card-selection-fast")
    assert "row 1 of T differs from column to column" in text
    proto = lib.protocol("card-selection-fast")
    direct = verify(lib, proto, {"sizes": (2, 1, 2)}, scenario="mini")
    assert not direct.ok


def test_the_quick_lottery_given_face_up_cards_is_refused(variant: Variant) -> None:
    """Run-time half: the lottery gets the owner cards, face up, as its candidates."""
    lib = variant(
        "card-selection-fast",
        ('with: {c: "L[1, *]", x: "columns(L[3..4, *])"}', 'with: {c: "T[1, *]", x: "columns(L[3..4, *])"}'),
    )
    assert "lies face up" in refused(lib, "card-selection-fast")


def test_the_paper_lottery_without_its_first_scramble_relies_on_the_callers(variant: Variant) -> None:
    """The paper's protocol scrambles at Step 8 just before the call: its lottery without the
    first scramble is the quick lottery, verified by classes as the direct verification does;
    with the caller's scramble left out too, it is refused."""
    no_first = (
        '    shuffle:\n      scramble: "columns(P)"\n      how: Put each pile in an envelope, mix all '
        "envelopes thoroughly, and lay them out in a row again.\n\n  - step: 3",
        "    note: the scramble is left out\n\n  - step: 3",
    )
    lib = variant("covert-lottery-modified", no_first)
    direct, classes = both(lib, "card-selection", "mini")
    assert direct.correct and direct.secure
    assert [c.name for c in direct.checks if not c.ok] == ["expect shuffles"]  # one fewer than the paper's
    same_report(direct, classes)
    lib = variant(
        "card-selection",
        (
            '    shuffle:\n      scramble: "columns(M)"\n      how: Put each column of four cards in an '
            "envelope, mix all envelopes thoroughly, and lay them out in a row again.\n",
            "    note: the scramble is left out\n",
        ),
    )
    assert "second reveal" in refused(lib)


def test_a_plain_call_given_dealt_cards_is_refused(library: Library) -> None:
    """A callee that may depend on the order of its inputs, given dealt cards that were never
    scrambled: the verifier's one order per hand would stand for every order."""
    from reference_engine import steps as st
    from reference_engine.cards import DEALT
    from reference_engine.verify.segments import SegmentPlan
    from reference_engine.verify.symmetry import Symmetry

    proto = library.protocol("card-selection-fast")
    call = next(s for s in st.walk(proto.steps) if isinstance(s, st.Call))
    plan = SegmentPlan(plain={id(call): ("10", "its first shuffle is left out")})
    sym = Symmetry(plan, {}, Counter())
    dealt = SYMBOLS.intern("dealt_fast_test_card", "[a dealt test card]")
    DEALT.ids.add(dealt.id)
    try:
        sym.plain_call(call, ((SYMBOLS.get("alpha").id << 1,),))  # type: ignore[union-attr]
        with pytest.raises(ReductionRefused) as info:
            sym.plain_call(call, ((dealt.id << 1,),))
    finally:
        DEALT.ids.discard(dealt.id)
    assert "in the order they lie" in str(info.value)


def test_the_existing_refusals_of_the_quick_protocol_hold(variant: Variant) -> None:
    """As for the paper's protocol (test_classes.py): a face read other than through valid()."""
    lib = variant("card-selection-fast", ("bit(1) if valid(M[1, j])", "bit(1) if M[1, j] == symbol('red1')"))
    assert "reads the face of the dealt card" in refused(lib, "card-selection-fast")
