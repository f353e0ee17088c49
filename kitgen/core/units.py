"""Physical lengths: one parser for ``56mm``, ``2.5in``, ``12pt``, ``1.2cm``, ``63.5 x 88.9 mm``.

Internally every length is in PostScript points (1/72 inch), which is what PDF uses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from reference_engine.api import UsageError

POINTS = {"pt": 1.0, "in": 72.0, "mm": 72.0 / 25.4, "cm": 720.0 / 25.4}
_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(mm|cm|in|pt)\s*$")
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(mm|cm|in|pt)?\s*[x×]\s*(\d+(?:\.\d+)?)\s*(mm|cm|in|pt)\s*$")


class LengthError(UsageError):
    """A length that cannot be read."""


@dataclass(frozen=True, order=True)
class Length:
    """A length in points, printed back in the unit it was given in."""

    points: float
    unit: str = "mm"

    @classmethod
    def parse(cls, text: object) -> Length:
        """A length as written in a template (``3mm``, ``0.25in``, ``12pt``, or 0), from YAML."""
        if isinstance(text, (int, float)) and not isinstance(text, bool):
            if text != 0:
                raise LengthError(f"a length needs a unit (mm, cm, in, pt): {text!r}")
            return cls(0.0)
        m = _LENGTH.match(str(text))
        if m is None:
            raise LengthError(f"not a length: {text!r} (write e.g. 3mm, 0.25in, 12pt)")
        value, unit = float(m.group(1)), m.group(2)
        return cls(value * POINTS[unit], unit)

    @property
    def mm(self) -> float:
        return self.points / POINTS["mm"]

    def __str__(self) -> str:
        value = self.points / POINTS[self.unit]
        return f"{value:g}{self.unit}"

    def __add__(self, other: Length) -> Length:
        return Length(self.points + other.points, self.unit)


@dataclass(frozen=True)
class Size:
    """A width and height: ``Size.parse("56mm x 87mm")`` or ``"56 x 87 mm"``."""

    width: Length
    height: Length

    @classmethod
    def parse(cls, text: str) -> Size:
        m = _SIZE.match(str(text))
        if m is not None:
            w, wu, h, hu = m.groups()
            wu = wu or hu
            return cls(Length.parse(f"{w}{wu}"), Length.parse(f"{h}{hu}"))
        parts = re.split(r"\s*[x×]\s*", str(text).strip())
        if len(parts) == 2:
            return cls(Length.parse(parts[0]), Length.parse(parts[1]))
        raise LengthError(f"not a size: {text!r} (write WIDTHxHEIGHT with units, e.g. 56x87mm)")

    @property
    def w(self) -> float:
        return self.width.points

    @property
    def h(self) -> float:
        return self.height.points

    def rotated(self) -> Size:
        return Size(self.height, self.width)

    def __str__(self) -> str:
        if self.width.unit == self.height.unit:
            return f"{self.width.points / POINTS[self.width.unit]:g}x{self.height}"
        return f"{self.width}x{self.height}"


def mm(value: float) -> float:
    """Millimetres to points (for drawing code)."""
    return value * POINTS["mm"]
