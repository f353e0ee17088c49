"""Minutes in words and in tables: one way of writing every time figure a kit states.

Every figure is a range, the optimistic estimate first and the cautious one second ("about
8-11 minutes"); where the two round to the same number it is one figure. Spans of more than
:data:`HOURS_FROM` minutes are written in hours ("about 1.8-2.6 hours"), everywhere: booklets,
index pages, the console, ``kitgen list --times`` and the README's tables.
"""

from __future__ import annotations

from ..lang.catalogue import _, ngettext, number

HOURS_FROM = 90.0  # minutes: a longer span is written in hours


def _number(minutes: float, hours: bool) -> str:
    """``minutes`` as a bare number: whole minutes (as the active locale writes them), or hours
    with one decimal."""
    if hours:
        return f"{minutes / 60:.1f}"
    return number(max(1, round(minutes)))


def _in_hours(minutes: float) -> bool:
    return minutes > HOURS_FROM


def about(minutes: float) -> str:
    """ "about 8 minutes", "about 1 minute", "about 1.8 hours"."""
    return about_range(minutes, minutes)


def about_range(low: float, high: float | None) -> str:
    """The optimistic and the cautious figure as one range in words: "about 8-11 minutes",
    "about 1.8-2.6 hours", "about 80 minutes to 2.1 hours"; one figure when both round alike
    or when there is no cautious one (``high`` None). In the active language."""
    return _("about {span}").format(span=span(low, high))


def span(low: float, high: float | None) -> str:
    """:func:`about_range` without its "about": "8-11 minutes", "1.8 hours"."""
    high = low if high is None else high
    lo_h, hi_h = _in_hours(low), _in_hours(high)
    a, b = _number(low, lo_h), _number(high, hi_h)
    if lo_h == hi_h:
        if a == b:
            if hi_h:
                return _("{n} hours").format(n=b)
            n = max(1, round(high))
            return ngettext("{n} minute", "{n} minutes", n).format(n=b)
        return (_("{a}-{b} hours") if hi_h else _("{a}-{b} minutes")).format(a=a, b=b)
    return _("{a} minutes to {b} hours").format(a=a, b=b)


def short(minutes: float) -> str:
    """A figure in a table cell: "9.6 min", "23 min", "1.8 h"."""
    return short_range(minutes, minutes)


def short_range(low: float, high: float | None) -> str:
    """Both figures in a table cell: "8.1-11 min", "1.8-2.6 h", "80 min-2.1 h"."""
    high = low if high is None else high

    def num(m: float) -> str:
        return f"{m / 60:.1f}" if _in_hours(m) else (f"{m:.1f}" if m < 10 else f"{m:.0f}")

    a, b = num(low), num(high)
    lo_h, hi_h = _in_hours(low), _in_hours(high)
    if lo_h == hi_h:
        unit = "h" if hi_h else "min"
        return f"{a} {unit}" if a == b else f"{a}-{b} {unit}"
    return f"{a} min-{b} h"


__all__ = ["HOURS_FROM", "about", "about_range", "short", "short_range", "span"]
