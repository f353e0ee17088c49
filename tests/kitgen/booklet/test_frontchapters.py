"""The chapters before the protocols (kitgen.booklet.frontchapters)."""

from __future__ import annotations

from kitgen.booklet.book import Booklet
from kitgen.booklet.frontchapters import kit_contents
from kitgen.booklet.frontmatter import Grid
from kitgen.cost.bom import Bom, Item
from kitgen.lang.catalogue import using_language


def test_what_is_in_the_kit_says_its_spares_apart() -> None:
    """How many counts the spares too, and says so: the reason beside it gives what a table uses
    (Gakmoro's "7 in each of the 18 bundles (126), and 30 loose" stood beside a bare 172)."""
    items = [
        Item("club", "♣ cards", "card", 156, 16, "7 in each of the 18 bundles (126), and 30 loose ♣"),
        Item("label", "value labels", "label", 18, 0, "one per sleeve"),
    ]
    booklet = Booklet("gakmoro", "Gakmoro", "", "game", [], [], bom=Bom(items, [], [], {}))

    def grid() -> Grid:
        made = kit_contents(booklet)[0].blocks[0]
        assert isinstance(made, Grid)
        return made

    def counts() -> list[object]:
        return [row[2] for row in grid().rows[1:]]

    assert counts() == ["172 (156 + 16 spares)", "18"]
    english = grid().widths
    with using_language("ja"):
        # Without spaces, in a wider column: lines break between characters there, and the English
        # width broke the count inside its word (予|備).
        assert counts() == ["172（156＋予備16）", "18"]
        assert grid().widths[2] > english[2] and sum(grid().widths) == sum(english)
