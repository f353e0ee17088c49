"""The table-time model: actions counted from a trace, the model file, the kits' figures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kitgen.kit import KitOptions, build
from kitgen.tabletime import ACTIONS, action_counts, load_time_model, table_time, time_model
from reference_engine.api import Library, SpecError, simulate


def test_six_card_and_counted_by_hand() -> None:
    # Mizuki-Sone as the spec states it: Step 1 lays out x, α β and y (6 cards); Step 2 moves
    # cards 2, 3, 4 (a rearrangement of 3 moves); Step 3 is one pile-scramble shuffle of two
    # piles (2 envelopes); Step 4 moves cards back (3 moves); Step 5 turns two cards and puts
    # them back with the spares.
    library = Library()
    sim = simulate(library, library.protocol("six-card-and"), {}, ["x=1", "y=0"], 1)
    counts = action_counts(sim.trace.events)
    assert counts["place"] == 6
    assert counts["shuffle"] == 1 and counts["envelope"] == 2
    assert counts["turn"] == 2
    assert counts["rearrange"] == 6
    assert counts["return"] == 2
    model = time_model()
    t = table_time(sim.trace.events)
    assert t.seconds == pytest.approx(sum(counts[a] * model.seconds[a] for a in ACTIONS))
    assert t.minutes == max(1, -(-int(t.seconds) // 60))


def test_the_model_file_is_checked(tmp_path: Path) -> None:
    bad = tmp_path / "table_time.yaml"
    bad.write_text("source: x\nseconds: {place: -1, turn: fast, bogus: 1}\n", encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load_time_model(bad)
    text = str(err.value)
    assert "table_time.yaml" in text and "seconds.place" in text and "bogus" in text and "move" in text


def test_reduced_deck_turn_is_shorter_and_both_are_stated(tmp_path: Path) -> None:
    manifest = build(KitOptions(ruleset="uno-small", output=str(tmp_path / "small"), runs=0, previews=False))
    turns = manifest["table_time"]["virtual_turn"]
    own, other = turns
    assert own["k"] == 31  # the 32-card deck but the top of the discard pile
    assert other["game"].startswith("UNO") and other["k"] > own["k"]
    assert own["minutes"] < other["minutes"]
    booklet = json.loads((tmp_path / "small" / "booklet.json").read_text(encoding="utf-8"))
    assert booklet["turn_times"][0]["minutes"] == own["minutes"]
    # The counts are the worked example's run, as booklet.json records its section.
    assert booklet["sections"][0]["table_time"]["counts"] == own["counts"]
    index = (tmp_path / "small" / "index.html").read_text(encoding="utf-8")
    assert f"about {own['minutes']} minutes" in index
