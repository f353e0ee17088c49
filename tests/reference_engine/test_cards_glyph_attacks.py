"""Hostile review of ``Symbol``'s hash and equality on name and id alone (glyph ``compare=False``):
a kept value computed from a card's glyph (``str(card)``) and keyed by the card would be stale if
a live symbol's glyph could change between two runs of a protocol that uses it. It cannot: a
spec that prints a card another spec declared otherwise is refused, so only a card met by its
name alone (a report read back from the cache, a view), which no run has used, gets its glyph
later. Both engines give the glyph as declared, before and after the other spec is read."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
for folder in (HERE / "compiled", HERE):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import runs  # noqa: E402

from reference_engine.cards import SYMBOLS  # noqa: E402
from reference_engine.errors import SpecError  # noqa: E402
from reference_engine.registry import Library, rulesets_dir  # noqa: E402

SPEC = """protocol: NAME
title: a card's glyph read into a variable
summary: str() of a card read from the table, kept by the variable holding the card
params:
  sizes: {default: [1], min: 0, doc: sizes}
symbols:
  CARD: {glyph: "GLYPH"}
  beta: {glyph: "β"}
encodings:
  card: {values: {0: [CARD], 1: [beta]}, doc: a card}
inputs:
  cards: {encoding: card, count: "sum(sizes)", groups: sizes, doc: cards}
steps:
  - step: 1
    say: read
    do:
      - turn: "cards[1, 1]"
      - let: {x: "cards[1, 1]"}
  - step: 2
    say: name it
    do:
      - let: {g: "str(x[1])"}
      - let: {h: "str(x[1]) + '!'"}
outputs:
  g: {public: true, value: "g"}
  h: {public: true, value: "h"}
"""


def _spec(folder: Path, name: str, card: str, glyph: str) -> None:
    text = SPEC.replace("NAME", name).replace("CARD", card).replace("GLYPH", glyph)
    (folder / f"{name}.yaml").write_text(text, encoding="utf-8")


def _glyphs(library: Library, name: str) -> list[tuple[str, str]]:
    proto = library.protocol(name)
    out = []
    for engine in ("compiled", "interpreter"):
        got = runs.single(library, proto, {"sizes": (1,)}, {"cards": [0]}, 0, engine)
        assert got[0] == "ran", got[:3]
        out.append(got[-3])
    return out


def test_a_card_another_spec_printed_otherwise_is_refused_so_kept_glyphs_stay_true(tmp_path: Path) -> None:
    _spec(tmp_path, "w49-glyph-a", "w49ga", "w49ga")  # printed as its name
    _spec(tmp_path, "w49-glyph-b", "w49ga", "G")  # the same card printed otherwise
    library = Library([tmp_path, rulesets_dir() / "protocols"])
    first = _glyphs(library, "w49-glyph-a")
    assert first[0] == first[1] and "w49ga" in repr(first[0]), first
    with pytest.raises(SpecError, match="already printed as"):
        library.protocol("w49-glyph-b")
    assert SYMBOLS.get("w49ga").glyph == "w49ga"  # type: ignore[union-attr]
    assert _glyphs(library, "w49-glyph-a") == first  # the same on both engines, kept or not


def test_a_card_met_by_name_alone_takes_its_glyph_before_any_run(tmp_path: Path) -> None:
    SYMBOLS.intern("w49gb")  # a report read back from the cache names it (no glyph of its own)
    _spec(tmp_path, "w49-glyph-c", "w49gb", "Γ")
    library = Library([tmp_path, rulesets_dir() / "protocols"])
    got = _glyphs(library, "w49-glyph-c")
    assert got[0] == got[1] and "Γ" in repr(got[0]) and "w49gb" not in repr(got[0]), got
    assert _glyphs(library, "w49-glyph-c") == got
