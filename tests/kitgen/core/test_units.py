"""One parser for physical lengths and sizes."""

from __future__ import annotations

import pytest

from kitgen.core.units import Length, LengthError, Size


@pytest.mark.parametrize(
    ("text", "mm"), [("56mm", 56), ("2.5in", 63.5), ("72pt", 25.4), ("1.2cm", 12), ("0mm", 0)]
)
def test_lengths(text: str, mm: float) -> None:
    length = Length.parse(text)
    assert length.mm == pytest.approx(mm)
    assert Length.parse(str(length)).points == pytest.approx(length.points)


@pytest.mark.parametrize(
    ("text", "w", "h"),
    [
        ("56mm x 87mm", 56, 87),
        ("56x87mm", 56, 87),
        ("2.5 x 3.5 in", 63.5, 88.9),
        ("63.5mm×88.9mm", 63.5, 88.9),
    ],
)
def test_sizes(text: str, w: float, h: float) -> None:
    size = Size.parse(text)
    assert (size.width.mm, size.height.mm) == (pytest.approx(w), pytest.approx(h))


@pytest.mark.parametrize("text", ["56", "56 mm mm", "x87mm", "-", "12px"])
def test_bad_lengths(text: str) -> None:
    with pytest.raises(LengthError):
        Size.parse(text) if "x" in text else Length.parse(text)
