"""The forms of syntax trees that the compiled takes and the verifier read alike."""

from __future__ import annotations

from reference_engine.expressions import parse
from reference_engine.expressions.nodes import Node
from reference_engine.expressions.shapes import no_earlier, same


def tree(text: str) -> Node:
    return parse(text).node


def test_no_earlier_reads_exactly_one_range_below_the_column() -> None:
    got = no_earlier(tree("not any(R[1, i] == up for i in 1..j - 1)"), "j")
    assert got is not None and got[0] == "i" and same(got[1], tree("R[1, i] == up"))
    for text in (
        "not any(R[1, i] == up for i in 1..j)",  # up to j itself
        "not any(R[1, i] == up for i in 0..j - 1)",  # from 0
        "not any(R[1, i] == up for i in true..j - 1)",  # true is not 1
        "not any(R[1, i] == up for i in 1..k - 1)",  # another column
        "not any(R[1, j] == up for j in 1..j - 1)",  # the loop shadows j
        "any(R[1, i] == up for i in 1..j - 1)",  # not negated
        "not all(R[1, i] == up for i in 1..j - 1)",
    ):
        assert no_earlier(tree(text), "j") is None, text


def test_same_ignores_where_a_tree_was_written_but_not_its_leaves_types() -> None:
    assert same(tree("R[1, i]  ==  up"), tree("R[1,i] == up"))
    assert not same(tree("x == 1"), tree("x == true"))
    assert not same(tree("R[1, i]"), tree("R[1, k]"))
    assert same(tree("R[1, i]"), tree("R[1, k]"), {"i": "k"})
