"""Colours as WCAG 2 sees them: relative luminance, contrast ratio, and the ink that reads on a fill.

Used by the card designs (which ink goes on which fill), the viewer (text colours on a white
page) and the page check (text against what lies under it). Colours are ``#RRGGBB`` strings or
sRGB triples with channels 0..1.
"""

from __future__ import annotations

from collections.abc import Sequence

AA = 4.5  # WCAG 2 level AA for text
DARK = "#1A1A1A"
WHITE = "#FFFFFF"

RGB = Sequence[float]


def rgb(hex_: str) -> tuple[float, float, float]:
    """``#RRGGBB`` as a triple of 0..1 floats."""
    h = hex_.lstrip("#")
    if len(h) != 6:
        raise ValueError(f"not a #RRGGBB colour: {hex_!r}")
    return (int(h[0:2], 16) / 255, int(h[2:4], 16) / 255, int(h[4:6], 16) / 255)


def hex_of(value: RGB) -> str:
    return "#" + "".join(f"{round(max(0.0, min(1.0, float(v))) * 255):02X}" for v in value[:3])


def luminance(value: str | RGB) -> float:
    """WCAG 2 relative luminance."""
    r, g, b = rgb(value) if isinstance(value, str) else value[:3]

    def lin(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * lin(float(r)) + 0.7152 * lin(float(g)) + 0.0722 * lin(float(b))


def contrast(a: str | RGB, b: str | RGB) -> float:
    """WCAG 2 contrast ratio of two colours, from 1 to 21."""
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def ink_on(fill: str) -> str:
    """White or near-black: whichever reads better on ``fill``."""
    return WHITE if contrast(WHITE, fill) >= contrast(DARK, fill) else DARK


def readable(colour: str, background: str = WHITE) -> str:
    """``colour`` itself if text in it reads at AA on ``background``, else near-black."""
    return colour if contrast(colour, background) >= AA else DARK
