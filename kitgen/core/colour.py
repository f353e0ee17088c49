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


def lab(value: str | RGB) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB colour."""
    r, g, b = rgb(value) if isinstance(value, str) else value[:3]

    def lin(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    lr, lg, lb = lin(float(r)), lin(float(g)), lin(float(b))
    # sRGB to XYZ, scaled by the D65 white (each row's sum), so white is exactly (1, 1, 1).
    x = (0.4124564 * lr + 0.3575761 * lg + 0.1804375 * lb) / 0.9504700
    y = 0.2126729 * lr + 0.7151522 * lg + 0.0721750 * lb
    z = (0.0193339 * lr + 0.1191920 * lg + 0.9503041 * lb) / 1.0888300

    def f(t: float) -> float:
        return float(t ** (1 / 3)) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def difference(a: str | RGB, b: str | RGB) -> float:
    """How different two colours look: CIE76 ΔE*ab (about 2.3 is just noticeable; above about
    30 they are different colours, not shades of one)."""
    la, lb = lab(a), lab(b)
    return float(sum((p - q) ** 2 for p, q in zip(la, lb, strict=True)) ** 0.5)
