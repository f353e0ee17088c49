"""The set-up's spare piles in words: which bit cards a kit sorts beside the table (α/β pairs,
up-down arrow cards, or both) and where its envelopes go, for every kind's set-up steps
(``{bits}`` and ``{keep}`` in a rule set's ``setup_steps`` or the booklet template's)."""

from __future__ import annotations

from ..lang.catalogue import _
from .book import Booklet


def helper_words(b: Booklet) -> dict[str, str]:
    """The set-up's spare piles as the kit holds them: its bit cards (α/β pairs, up-down arrow
    cards or both, from the faces its protocols use) and, when it has envelopes, where they go."""
    keys = {i.key for i in b.bom.items} if b.bom is not None else None
    if keys is not None:  # a kit: what its bill of materials lists
        arrows, pairs, envelopes = "arrow" in keys, "alpha" in keys, "envelope" in keys
    else:  # a booklet alone: the faces its protocols use
        arrows, pairs = "up" in b.faces, "alpha" in b.faces or "up" not in b.faces
        envelopes = pairs
    bits = [_("α cards, β cards")] if pairs or not arrows else []
    bits += [_("arrow cards (all pointing the same way)")] if arrows else []
    # A sleeved kit's two envelopes (the six-card AND's), said in the language: frontchapters'
    # setting_up rewrote the English words only, and the Japanese said "the identical envelopes".
    sleeved = keys is not None and "sleeve" in keys
    keep = (
        ""
        if not envelopes
        else _("; keep the two envelopes with them")
        if sleeved
        else _("; keep the identical envelopes with them")
    )
    return {"bits": ", ".join(bits), "keep": keep}
