"""What a kit's shuffles consume: envelopes, sleeves and clips, counted from a trace.

Every shuffle of a worked example's trace (at every call depth) needs one holder per pile: an
envelope for a pile-scramble (the piles are mixed), a sleeve for a pile-shifting shuffle (the
piles keep their cyclic order in a stack that is cut), nothing for a random cut of one row; a
spec's ``uses:`` on the shuffle says otherwise. The shuffles of one step of one protocol run
(Gakmoro's comparison mixes its left and its right half in one step) count together, as a
table might do them at once. :func:`require` raises a bill of materials to what the trace needs,
adding the item when the kit had none, so no kit asks for a shuffle it gives nothing to do.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from reference_engine.api import Event

from ..lang.catalogue import N_, _, number
from .bom import Bom, Item, envelope_for, spares

BY_KIND = {
    "scramble": "envelope",
    "set": "envelope",
    "bisect": "envelope",
    "shift": "sleeve",
    "cut": "nothing",
    "spin": "nothing",  # rows of piles on mats turned round: the mats hold them
}


@dataclass(frozen=True)
class Need:
    """The most holders of one kind in use at once, and where."""

    holder: str  # envelope | sleeve | clip
    count: int
    cards_per_pile: int
    protocol: str
    step: str

    def to_json(self) -> dict[str, object]:
        return dict(self.__dict__)


def holder_of(detail: Mapping[str, object]) -> str:
    """What holds each pile of a recorded shuffle."""
    return str(detail.get("uses") or BY_KIND.get(str(detail.get("kind")), "envelope"))


def needs(events: Sequence[Event]) -> dict[str, Need]:
    """The most envelopes, sleeves and clips any one step of the trace uses at once."""
    out: dict[str, Need] = {}
    # The pass of a step the piles are counted in: call path, protocol, step, loop variables.
    group: tuple[tuple[str, ...], str, str | None, tuple[tuple[str, str], ...]] | None = None
    here: dict[str, tuple[int, int]] = {}
    for e in events:
        key = (
            tuple(e.call_path),
            e.protocol,
            e.step,
            tuple(sorted((str(k), str(v)) for k, v in e.loop.items())),
        )
        if key != group:
            group, here = key, {}
        if e.action != "shuffle":
            continue
        holder = holder_of(e.detail)
        if holder == "nothing":
            continue
        piles = e.detail.get("piles", [])
        count, size = here.get(holder, (0, 0))
        here[holder] = (count + len(piles), max([size, *(len(p) for p in piles)]))
        best = out.get(holder)
        if best is None or here[holder][0] > best.count:
            out[holder] = Need(holder, here[holder][0], here[holder][1], e.protocol, str(e.step))
    return out


def require(bom: Bom, found: dict[str, Need], card_mm: tuple[float, float], where: str) -> None:
    """Raise ``bom`` to what the shuffles of the worked example need (``where`` names the example
    in the why column), adding an item for a holder the kit did not list."""
    bom.holders = [n.to_json() for _, n in sorted(found.items())]
    for holder, need in sorted(found.items()):
        key = {"envelope": "envelope", "sleeve": "shuffle_sleeve", "clip": "clip"}[holder]
        item = next((i for i in bom.items if i.key == key), None)
        if item is None and holder == "sleeve":
            # The kit's own sleeves are the piles (every card lives in one): no second line.
            item = next((i for i in bom.items if i.kind == "sleeve" and i.holds_piles), None)
        why = _plural_why(holder, need.cards_per_pile).format(
            where=_(WHERE[where]) if where in WHERE else where,
            count=number(need.count),
            cards=number(need.cards_per_pile),
        )
        if item is None:
            bom.items.append(
                Item(
                    key,
                    _name(holder, card_mm, need.cards_per_pile),
                    holder,
                    need.count,
                    spares(need.count),
                    why,
                )
            )
        elif need.count > item.needed:
            item.needed = need.count
            item.spares = spares(need.count)
            item.why = f"{item.why}; {why}"


# Why a kit has its holders: the largest shuffle's piles, by holder and one card a pile or more.
WHY = {
    ("envelope", True): N_(
        "the largest shuffle of {where} puts {count} piles of {cards} card in envelopes at once"
    ),
    ("envelope", False): N_(
        "the largest shuffle of {where} puts {count} piles of {cards} cards in envelopes at once"
    ),
    ("sleeve", True): N_(
        "the largest shuffle of {where} puts {count} piles of {cards} card in sleeves at once"
    ),
    ("sleeve", False): N_(
        "the largest shuffle of {where} puts {count} piles of {cards} cards in sleeves at once"
    ),
    ("clip", True): N_("the largest shuffle of {where} puts {count} piles of {cards} card in clips at once"),
    ("clip", False): N_(
        "the largest shuffle of {where} puts {count} piles of {cards} cards in clips at once"
    ),
}


# Where the largest shuffle is (kitgen.kit.build's WORKED), in the catalogue.
WHERE = {"the booklet's worked example": N_("the booklet's worked example")}


def _plural_why(holder: str, cards: int) -> str:
    return _(WHY[holder, cards == 1])


def _name(holder: str, card_mm: tuple[float, float], cards: int) -> str:
    w, h = card_mm
    if holder == "envelope":
        return _("identical opaque envelopes, {size}").format(size=envelope_for(w, h))
    if holder == "sleeve":
        return (
            _(
                "identical opaque card sleeves for {w} × {h} mm cards, each holding {n} card "
                "(for the shuffles)"
            )
            if cards == 1
            else _(
                "identical opaque card sleeves for {w} × {h} mm cards, each holding {n} cards "
                "(for the shuffles)"
            )
        ).format(w=f"{w:g}", h=f"{h:g}", n=number(cards))
    return _("identical paper clips, large enough for a pile of cards")
