"""WCAG contrast and CIE colour difference, against published reference values."""

from __future__ import annotations

import pytest

from kitgen.core.colour import contrast, difference, lab


def test_contrast_matches_wcag_examples() -> None:
    assert contrast("#FFFFFF", "#000000") == pytest.approx(21.0)
    assert contrast("#777777", "#FFFFFF") == pytest.approx(4.48, abs=0.01)  # the classic AA miss


def test_lab_of_srgb_primaries() -> None:
    # Reference values (D65, 2°) as published for sRGB red and white.
    assert lab("#FF0000") == pytest.approx((53.24, 80.09, 67.20), abs=0.05)
    assert lab("#FFFFFF") == pytest.approx((100.0, 0.0, 0.0), abs=0.01)


def test_difference() -> None:
    assert difference("#FFFFFF", "#000000") == pytest.approx(100.0, abs=0.01)
    assert difference("#C8102E", "#C8102E") == 0.0
    assert difference("#0057B8", "#0072B2") < 30  # two blues: shades of one colour
