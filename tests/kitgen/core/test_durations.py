"""Minutes in words and in table cells: ranges, one figure, hours over 90 minutes."""

from __future__ import annotations

import pytest

from kitgen.core.durations import about, about_range, short, short_range


@pytest.mark.parametrize(
    ("low", "high", "words"),
    [
        (8.2, 10.6, "about 8-11 minutes"),
        (8.2, None, "about 8 minutes"),
        (8.4, 7.6, "about 8 minutes"),  # both round alike: one figure
        (0.2, 0.9, "about 1 minute"),
        (90.0, 90.0, "about 90 minutes"),  # 90 is still minutes ...
        (90.4, 95.0, "about 1.5-1.6 hours"),  # ... anything over it is hours
        (108.1, 175.6, "about 1.8-2.9 hours"),
        (80.0, 130.0, "about 1.3-2.2 hours"),  # one unit: hours for both ends
        (1099.3, 1786.7, "about 18.3-29.8 hours"),
    ],
)
def test_ranges_in_words(low: float, high: float | None, words: str) -> None:
    assert about_range(low, high) == words


def test_one_figure_in_words() -> None:
    assert about(1.0) == "about 1 minute"
    assert about(840.4) == "about 14.0 hours"  # Hearts' game is hours, never "840 min"


@pytest.mark.parametrize(
    ("low", "high", "cell"),
    [
        (9.6, 15.9, "9.6-16 min"),
        (5.3, 8.2, "5.3-8.2 min"),
        (14.3, 14.3, "14 min"),
        (108.1, 175.6, "1.8-2.9 h"),
        (80.0, 130.0, "1.3-2.2 h"),
    ],
)
def test_ranges_in_table_cells(low: float, high: float, cell: str) -> None:
    assert short_range(low, high) == cell


def test_no_minute_figure_over_90_anywhere() -> None:
    for m in (90.1, 122.0, 821.0, 1188.0):
        assert "min" not in short(m) and short(m).endswith(" h")
        assert "minute" not in about(m) and about(m).endswith(" hours")
