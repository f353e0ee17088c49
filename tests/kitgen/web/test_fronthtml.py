"""The chapters before the protocols as HTML (kitgen.web.fronthtml)."""

from __future__ import annotations

from kitgen.booklet.tableplan import table_plan
from kitgen.cost.kitcost import Footprint
from kitgen.lang.catalogue import using_language
from kitgen.paper.faces import Face
from kitgen.web.fronthtml import FrontHtml


def test_the_table_from_above_names_its_places_in_the_language() -> None:
    """The index's table picture says each place as the booklet's picture does: the engine's
    "Virtual 1" and "Draw pile", and a rule set's players (Gakmoro's Alice), stood in English on
    the Japanese index."""
    face = Face("theta", "theta1", "θ1", ("x",))
    seats = ["Virtual 1", "Human 1", "Alice"]
    with using_language("ja"):
        plan = table_plan(
            Footprint.of(20, (56, 87), 1), seats, 1, ["Draw pile"], [], [5], [], 0, [face] * 4, "sleeves"
        )
        svg = FrontHtml([], plan).table_plan()
    for said in ("仮想1", "人間1", "アリス", "山札"):
        assert f">{said}</text>" in svg, said
    assert "Virtual" not in svg and "Alice" not in svg and "Draw pile" not in svg
