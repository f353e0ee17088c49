"""A step's notes (kitgen.booklet.steps)."""

from __future__ import annotations

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
