"""The work forecast (``kitgen verify --estimate``): measured smaller sizes, extrapolated."""

from __future__ import annotations

import pytest

from reference_engine.errors import UsageError
from reference_engine.registry import Library
from reference_engine.verify import forecast, verify
from reference_engine.verify.forecast import _extrapolate


def test_a_geometric_series_is_extrapolated_exactly() -> None:
    assert _extrapolate([1, 3, 9], 2) == (81, 81)
    assert _extrapolate([10, 20], 3) == (160, 160)  # two points: the ratio is kept


def test_a_growing_ratio_widens_the_range() -> None:
    """Ratios 2 then 4: low keeps 4 (32 -> 128), high lets it grow to 8 then 16."""
    assert _extrapolate([2, 4, 16], 2) == (256, 2048)


def test_the_lotterys_next_size_lies_in_the_forecast_range() -> None:
    """From m = 1 to 4, the states and the frontier of m = 5 are forecast as a range that holds
    the real run (bench: from m = 3 to 6 it holds m = 7's, from 4 to 7 m = 8's)."""
    library = Library()
    proto = library.protocol("covert-lottery-modified")
    f = forecast(library, proto, {"m": 5})
    assert [m.value for m in f.measured] == [1, 2, 3, 4]
    real = verify(library, proto, {"m": 5}).stats
    assert f.states[0] <= real["states_processed"] <= f.states[1]
    assert f.frontier[0] <= real["peak_frontier"] <= f.frontier[1]
    assert 0 < f.memory_bytes[0] <= f.memory_bytes[1]
    assert f.to_json()["states_processed"] == list(f.states)


def test_each_measured_size_passes_the_callers_limits() -> None:
    library = Library()
    proto = library.protocol("covert-lottery-modified")
    seen = []

    def allowed(params: dict[str, object]) -> None:
        seen.append(params["m"])
        if params["m"] == 4:
            raise UsageError("too big")

    with pytest.raises(UsageError, match="too big"):
        forecast(library, proto, {"m": 5}, allowed=allowed)
    assert seen == [1, 2, 3, 4]


def test_a_protocol_without_a_size_to_shrink_is_refused() -> None:
    library = Library()
    with pytest.raises(UsageError, match="no whole-number parameter"):
        forecast(library, library.protocol("six-card-and"))
