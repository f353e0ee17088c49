"""A step's notes (kitgen.booklet.steps)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kitgen.booklet.steps import shuffle_note


def test_a_shuffle_says_how_many_arrangements_it_makes() -> None:
    """Shuffles done at once, one per group, count the orders of every group (the engine writes no
    size for them: Daifugō's tickets mixed rank by rank said "Each of the 0 possible
    arrangements"); a half turn of each group counts as the engine does; one order or none is not
    said."""
    how = "Mix them."
    assert shuffle_note(how, {"kind": "scramble", "size": 6}) == (
        "Mix them. (Each of the 6 possible arrangements is equally likely.)"
    )
    each = {"kind": "each", "size": 0, "groups": [3, 2, 1]}
    assert shuffle_note(how, each) == "Mix them. (Each of the 12 possible arrangements is equally likely.)"
    assert shuffle_note(how, {"kind": "spin", "size": 8, "groups": [1, 1, 1]}).endswith(
        "the 8 possible arrangements is equally likely.)"
    )
    assert shuffle_note(how, {"kind": "each", "size": 0, "groups": [1, 1]}) == how
    assert shuffle_note(how, {"kind": "each", "size": 0}) == how


@pytest.mark.parametrize("protocol", ["gakmoro-subtraction", "ruangwises-itoh-addition"])
def test_a_pictures_caption_counts_the_rows_it_draws(protocol: str, tmp_path: Path) -> None:
    """A place's name is the caption of every picture of it: the subtraction's "two rows" stood
    beside the one row left after its last step ("two rows 1 × 15"). A caption that counts rows
    counts the rows drawn."""
    import json
    import re

    from kitgen.kit.build import BookletOptions, build_booklet

    build_booklet(BookletOptions(name=protocol, output=str(tmp_path / "b"), previews=False))
    data = json.loads((tmp_path / "b" / "booklet.json").read_text(encoding="utf-8"))
    counts = {"one": 1, "two": 2, "three": 3, "four": 4}
    regions = [
        r for sec in data["sections"] for step in sec["steps"] for d in step["diagrams"] for r in d["regions"]
    ]
    assert regions
    for region in regions:
        said = re.search(r"\b(one|two|three|four) rows?\b", region["title"])
        assert said is None or counts[said.group(1)] == region["rows"], region["title"]
