"""The work forecast (``kitgen verify --estimate``): measured smaller sizes, extrapolated."""

from __future__ import annotations

from pathlib import Path

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


BITS_ONLY = """\
protocol: eight-bits
title: eight bits shown in a scrambled order
symbols:
  alpha: {glyph: "α"}
  beta: {glyph: "β"}
encodings:
  bit:
    values: {0: [alpha, beta], 1: [beta, alpha]}
inputs:
  x: {encoding: bit, count: 8}
steps:
  - step: 1
    say: Pairs in a row, scrambled, turned.
    do:
      - place: {P: {columns: "[x[i] for i in 1..8]"}}
      - shuffle: {scramble: "columns(P)", how: envelopes}
      - turn: "P[1, *]"
      - discard: P
outputs:
  ones:
    public: true
    value: "1"
"""


def test_a_protocol_without_a_size_is_forecast_by_its_inputs(tmp_path: Path) -> None:
    """No whole-number parameter: the first 1/32 ... 1/4 of the inputs are measured; the real run
    does at least the work of the last measured share and at most the proportional figure (the
    forecast's high end). The low end keeps the last growth: here the work saturates faster, on
    a Gakmoro round it holds the real run (docs/verification.md)."""
    (tmp_path / "eight-bits.yaml").write_text(BITS_ONLY, encoding="utf-8")
    library = Library([tmp_path])
    proto = library.protocol("eight-bits")
    f = forecast(library, proto)
    assert f.param == "inputs" and f.target == 256
    assert [m.value for m in f.measured] == [8, 16, 32, 64]
    real = verify(library, proto).stats
    assert f.measured[-1].states <= real["states_processed"] <= f.states[1]
    assert f.measured[-1].states <= f.states[0] <= f.states[1]
    assert f.seconds[0] <= f.seconds[1] and f.memory_bytes[0] <= f.memory_bytes[1]


def test_too_few_inputs_to_forecast_is_said(library: Library) -> None:
    """Six-card AND has no size to vary and only 4 inputs: nothing smaller to measure."""
    with pytest.raises(UsageError, match="too few inputs"):
        forecast(library, library.protocol("six-card-and"))
