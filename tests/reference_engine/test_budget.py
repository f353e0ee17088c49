"""The size of a run is estimated from the spec before anything runs, and refused past the limits."""

from __future__ import annotations

import time

import pytest

from reference_engine.budget import MAX_CARDS, MAX_COMBINATIONS, check, check_protocol, estimate, format_count
from reference_engine.errors import UsageError
from reference_engine.machine import Frame
from reference_engine.registry import Library
from reference_engine.verify import input_assignments


def test_the_estimate_reads_the_spec(library: Library) -> None:
    est = estimate(library.protocol("covert-lottery-modified"), {"m": 3})
    # m candidate cards c_i plus m bit pairs x_i; 4 declared spare cards (2 α, 2 β).
    assert (est.input_cards, est.helper_cards, est.table_cards) == (9, 4, 13)
    assert est.combinations == 8 and est.combinations_log2 == 3  # x takes 2**3 values; c is fixed
    assert est.describe() == "covert-lottery-modified with m=3"


def test_every_built_in_protocol_is_within_the_limits(library: Library) -> None:
    for name in library.names():
        proto = library.protocol(name)
        est = estimate(proto)
        check(est, force=False, command="simulate")
        if name != "gakmoro-game":  # too big to verify exactly as a whole, and it says so
            check(est, force=False, command="verify")
        for scenario in proto.scenarios:
            check(estimate(proto, None, scenario), force=False, command="verify")
        example = proto.booklet
        check(estimate(proto, example.example_params or None, example.example_scenario), False, "simulate")


def test_a_huge_parameter_is_estimated_at_once(library: Library) -> None:
    started = time.perf_counter()
    est = estimate(library.protocol("covert-lottery-modified"), {"m": 10**12})
    # Nothing is built or enumerated (10**12 values would never end): a loose bound, as a loaded
    # machine may pause this process for seconds.
    assert time.perf_counter() - started < 30
    assert est.table_cards == 3 * 10**12 + 4
    assert est.combinations is None and est.combinations_log2 == 10**12


@pytest.mark.parametrize("command", ["simulate", "verify"])
def test_too_many_cards_are_refused_unless_forced(library: Library, command: str) -> None:
    est = estimate(library.protocol("covert-lottery-modified"), {"m": 1_000_000})
    with pytest.raises(UsageError) as info:
        check(est, force=False, command=command)
    assert info.value.exit_code == 2
    assert str(info.value) == (
        f"covert-lottery-modified with m=1000000 puts 3,000,004 cards on the table "
        f"(limit {MAX_CARDS[command]:,} for {command}; force lifts it up to 10,000)"
    )
    with pytest.raises(UsageError, match=r"limit 10,000 for .*; even with force\)"):
        check(est, force=True, command=command)  # the ceiling: hours and tens of gigabytes
    if command == "simulate":
        check(
            estimate(library.protocol("covert-lottery-modified"), {"m": 600}), force=True, command="simulate"
        )


def test_input_combinations_of_an_exact_verification_are_refused_even_when_forced(library: Library) -> None:
    est = estimate(library.protocol("covert-lottery-modified"), {"m": 3_000})
    with pytest.raises(UsageError, match=r"about 10\^903 combinations .* even with force"):
        check(est, force=True, command="verify")
    est = estimate(library.protocol("covert-lottery-modified"), {"m": 21})  # 2**21 > 2,000,000
    assert est.combinations == 2**21 > MAX_COMBINATIONS
    with pytest.raises(UsageError, match="2,097,152 combinations"):
        check(est, force=True, command="verify")


def test_game_protocols_count_the_deals_of_their_scenario(library: Library) -> None:
    proto = library.protocol("card-selection")
    est = estimate(proto, None, "mini")
    assert est.combinations == 30  # 5 cards dealt into hands of 2, 1 and 2: 5! / (2! 1! 2!)


def test_check_protocol_leaves_unreadable_specs_to_the_command(library: Library) -> None:
    proto = library.protocol("card-selection")
    with pytest.raises(UsageError, match="no scenario 'nope'"):
        check_protocol(proto, None, False, "simulate", "nope")
    with pytest.raises(UsageError, match="has no parameter 'q'"):
        check_protocol(library.protocol("six-card-and"), {"q": 1}, False, "verify")


def test_counts_too_large_to_print() -> None:
    assert format_count(2_000_000) == "2,000,000"
    assert format_count(10**400) == "about 10^400"
    assert format_count(None, 10**6) == "about 10^301,029"


def test_the_verifier_refuses_astronomical_input_counts_without_overflowing(library: Library) -> None:
    """``f"{total:.3g}"`` converted the count to a float: 2**2000 overflowed (a traceback)."""
    frame = Frame(library.protocol("covert-lottery-modified"), {"m": 2000})
    with pytest.raises(UsageError, match=r"has about 2\^2000 combinations of inputs"):
        input_assignments(frame)
    frame = Frame(library.protocol("covert-lottery-modified"), {"m": 30})
    with pytest.raises(UsageError, match="has 1,073,741,824 combinations of inputs"):
        input_assignments(frame)
