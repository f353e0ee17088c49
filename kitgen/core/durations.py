"""Minutes in words and in tables: one way of writing every time figure a kit states.

Every figure is a range, the optimistic estimate first and the cautious one second ("about
8-11 minutes"); where the two round to the same number it is one figure. Spans of more than
:data:`HOURS_FROM` minutes are written in hours ("about 1.8-2.6 hours"), and a range is written
in one unit: in hours, both ends, when its longer end is ("about 1.1-1.8 hours", never "65
minutes to 1.8 hours": the Japanese kits said 約65分〜1.8時間 beside 約1.6〜2.7時間). One rule
everywhere: booklets, index pages, handouts, the console, ``kitgen list --times`` and the README's
tables.
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
    "about 1.8-2.6 hours", "about 1.3-2.1 hours" (one unit); one figure when both round alike
    or when there is no cautious one (``high`` None). In the active language."""
    return _("about {span}").format(span=span(low, high))


def span(low: float, high: float | None) -> str:
    """:func:`about_range` without its "about": "8-11 minutes", "1.8 hours"."""
    high = low if high is None else high
    hours = _in_hours(max(low, high))  # one unit for both ends
    a, b = _number(low, hours), _number(high, hours)
    if a == b:
        if hours:
            return _("{n} hours").format(n=b)
        n = max(1, round(high))
        return ngettext("{n} minute", "{n} minutes", n).format(n=b)
    return (_("{a}-{b} hours") if hours else _("{a}-{b} minutes")).format(a=a, b=b)


def short(minutes: float) -> str:
    """A figure in a table cell: "9.6 min", "23 min", "1.8 h"."""
    return short_range(minutes, minutes)


def short_range(low: float, high: float | None) -> str:
    """Both figures in a table cell, in one unit: "8.1-11 min", "1.8-2.6 h", "1.3-2.1 h"."""
    high = low if high is None else high
    hours = _in_hours(max(low, high))

    def num(m: float) -> str:
        return f"{m / 60:.1f}" if hours else (f"{m:.1f}" if m < 10 else f"{m:.0f}")

    a, b = num(low), num(high)
    unit = "h" if hours else "min"
    return f"{a} {unit}" if a == b else f"{a}-{b} {unit}"


__all__ = ["HOURS_FROM", "about", "about_range", "short", "short_range", "span"]
