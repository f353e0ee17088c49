"""Envelopes, sleeves and clips counted from a trace: one holder per pile, the shuffles of one
step together, ``uses:`` overriding the default of the shuffle's kind."""

from __future__ import annotations

from pathlib import Path

import pytest

from kitgen.cost.bom import Bom, Item
from kitgen.cost.consumables import needs, require
from reference_engine.api import Library, SpecError, simulate
from reference_engine.spec import load_protocol

SPEC = """
protocol: holders
title: Holders
symbols: {club: {glyph: "♣"}, heart: {glyph: "♥"}}
inputs: {a: {encoding: one}}
encodings: {one: {values: {0: [heart, club, club], 1: [club, heart, club]}}}
steps:
  - step: 1
    say: Mix the three cards.
    shuffle: {scramble: "cards(a)", uses: USES}
  - step: 2
    say: Cut them.
    shuffle: {cut: a}
  - step: 3
    say: Turn them over.
    turn: a
outputs: {}
"""


def _spec(tmp_path: Path, uses: str) -> Path:
    path = tmp_path / "holders.yaml"
    path.write_text(SPEC.replace("USES", uses), encoding="utf-8")
    return path


def test_a_spec_says_what_holds_its_piles(tmp_path: Path) -> None:
    proto = load_protocol(_spec(tmp_path, "clip"))
    sim = simulate(Library(), proto, {}, ["a=1"], 1)
    found = needs(sim.trace.events)
    assert set(found) == {"clip"} and found["clip"].count == 3 and found["clip"].cards_per_pile == 1
    bom = Bom([], [], [], {})
    require(bom, found, (56.0, 87.0), "the example")
    (item,) = bom.items
    assert (item.key, item.kind, item.needed) == ("clip", "clip", 3)
    assert "3 piles of 1 card in clips" in item.why


def test_an_unknown_holder_is_a_spec_error(tmp_path: Path) -> None:
    with pytest.raises(
        SpecError, match=r"steps\[0\]\.shuffle\.uses: 'bag': one of envelope, sleeve, clip, nothing"
    ):
        load_protocol(_spec(tmp_path, "bag"))


def test_the_card_selection_needs_an_envelope_per_column() -> None:
    """The mini deck's 5 cards: the two matrix shuffles put 5 columns in envelopes."""
    library = Library()
    from kitgen.booklet.examples import spec_example

    proto = library.protocol("card-selection")
    found = needs(spec_example(proto, library).run(library, proto).trace.events)
    assert set(found) == {"envelope"} and found["envelope"].count == 5
    assert found["envelope"].protocol == "card-selection" and found["envelope"].cards_per_pile in (2, 4)


def test_require_raises_but_never_lowers() -> None:
    library = Library()
    from kitgen.booklet.examples import spec_example

    proto = library.protocol("card-selection")
    found = needs(spec_example(proto, library).run(library, proto).trace.events)
    big = Item("envelope", "envelopes", "envelope", 107, 11, "one per column")
    bom = Bom([big], [], [], {})
    require(bom, found, (56.0, 87.0), "x")
    assert big.needed == 107 and big.why == "one per column"
    small = Item("envelope", "envelopes", "envelope", 2, 2, "a few")
    bom = Bom([small], [], [], {})
    require(bom, found, (56.0, 87.0), "x")
    assert small.needed == 5 and small.spares == 2 and "largest shuffle of x" in small.why
