"""What a correct table shows, in the active language: the engine's reveal facts
(:mod:`reference_engine.reveals`) said again from their data.

The engine words each fact in English (``Fact.text``) and keeps what it says as data (its kind and
``data``). An English booklet prints the engine's words as they are; any other language says the
same fact from its data through the catalogue (:func:`phrase`), and a test checks that
:func:`phrase` in English gives the engine's words exactly, fact kind by fact kind.
"""

from __future__ import annotations

from collections.abc import Sequence

from reference_engine.api import Fact, Protocol, glyph

from ..core.words import listing
from ..lang.catalogue import N_, SOURCE, _, language, ngettext

# The engine's small numbers in words (reference_engine.reveals._count).
COUNTS = {1: N_("one"), 2: N_("two"), 3: N_("three"), 4: N_("four")}  # 0 has its own sentences


def check_text(fact: Fact, proto: Protocol) -> str:
    """The fact's sentence for the booklet: the engine's own in English, else :func:`phrase`."""
    if language() == SOURCE:
        return fact.text
    return phrase(fact, proto) or fact.text


def phrase(fact: Fact, proto: Protocol) -> str | None:
    """The fact said from its data in the active language (None: a kind this module does not know)."""
    d = fact.data
    if fact.kind == "only":
        return _("Only {kinds} appear.").format(
            kinds=listing(sorted(_kind_words(proto, k) for k in d["kinds"]))
        )
    if fact.kind == "pairs":
        table = _table(proto, d["encoding"])
        shown = _(" or ").join(
            _("{cards} (= {value})").format(cards=_glyphs(syms, proto), value=v) for v, syms in table.items()
        )
        if d["width"] == 2:
            return _("Each pair of turned cards shows {shown}.").format(shown=shown)
        return _("Each group of {width} of turned cards shows {shown}.").format(width=d["width"], shown=shown)
    if fact.kind == "value_count":
        return _value_count(proto, d)
    if fact.kind == "count":
        return _("Exactly one {card} appears.").format(card=_glyph(d["symbol"], proto))
    if fact.kind == "same_cards":
        return _("Always the same cards, only their order changes.")
    if fact.kind == "one_of":
        listed = "; ".join(_glyphs(seq, proto) for seq in d["sequences"])
        if len(d["sequences"]) == 1:
            return _("The cards show exactly: {cards}.").format(cards=listed)
        return _("The cards show one of: {cards}.").format(cards=listed)
    return None


def _value_count(proto: Protocol, d: dict[str, object]) -> str:
    table = _table(proto, str(d["encoding"]))
    syms = _glyphs(table[str(d["value"])], proto)
    lo, hi, width = int(str(d["min"])), int(str(d["max"])), int(str(_width(table)))
    if lo == hi == 0:
        if width == 2:
            return _("No pair shows {cards}.").format(cards=syms)
        return _("No group of {width} shows {cards}.").format(width=width, cards=syms)
    n, exactly = (lo, True) if lo == hi else (hi, False)
    count = _(COUNTS[n]) if n in COUNTS else str(n)
    if exactly and width == 2:
        text = ngettext("Exactly {count} pair shows {cards}.", "Exactly {count} pairs show {cards}.", n)
    elif exactly:
        text = ngettext(
            "Exactly {count} group of {width} shows {cards}.",
            "Exactly {count} group of {width}s show {cards}.",
            n,
        )
    elif width == 2:
        text = ngettext("At most {count} pair shows {cards}.", "At most {count} pair show {cards}.", n)
    else:
        text = ngettext(
            "At most {count} group of {width} shows {cards}.",
            "At most {count} group of {width} show {cards}.",
            n,
        )
    return text.format(count=count, width=width, cards=syms)


def _kind_words(proto: Protocol, key: str) -> str:
    """A kind of card in words (reference_engine.reveals.category): game cards, θ cards, α."""
    decl = proto.symbols.get(key)
    if key == "game" or decl is None:
        return _("game cards")
    if decl.family:
        return _("{glyph} cards").format(glyph=decl.glyph.replace("{}", ""))
    return decl.glyph


def _table(proto: Protocol, encoding: str) -> dict[str, tuple[str, ...]]:
    return {str(k): tuple(v) for k, v in proto.encodings[encoding].table.items()}


def _width(table: dict[str, tuple[str, ...]]) -> int:
    return len(next(iter(table.values())))


def _glyphs(symbols: Sequence[str], proto: Protocol) -> str:
    return " ".join(_glyph(s, proto) for s in symbols)


def _glyph(symbol: str, proto: Protocol) -> str:
    """How ``symbol`` is printed (reference_engine.reveals.glyph): a family member by its family's
    template in ``proto`` when the process never drew it."""
    shown = glyph(symbol)
    if shown != symbol:
        return shown
    for decl in proto.symbols.values():
        suffix = symbol[len(decl.name) :]
        if decl.family and symbol.startswith(decl.name) and suffix.isdigit():
            template = decl.glyph
            return template.replace("{}", suffix) if "{}" in template else f"{template}{suffix}"
    return symbol
