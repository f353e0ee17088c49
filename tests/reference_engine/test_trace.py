"""A trace's snapshots write every card the way :class:`Card` does (``Card.from_code(c).to_json()``),
though :meth:`Snapshot.of` builds the cells without a Card (it runs twice per traced action)."""

from __future__ import annotations

from reference_engine.cards import EMPTY, Card, CardJSON
from reference_engine.registry import Library
from reference_engine.simulate import simulate
from reference_engine.table import State
from reference_engine.trace import Snapshot


def _by_card(state: State) -> list[list[list[object]]]:
    """Every region's cells as the Card class writes them, place by place."""
    return [
        [
            [
                None if (c := state.cells[reg.slot(r, k)]) == EMPTY else Card.from_code(c).to_json()
                for k in range(1, reg.cols + 1)
            ]
            for r in range(1, reg.rows + 1)
        ]
        for reg in state.layout.regions
    ]


def test_snapshots_write_cards_as_the_card_class_does() -> None:
    library = Library()
    seen: list[State] = []
    original = Snapshot.of

    snaps: list[Snapshot] = []

    def spy(state: State, rows: dict[tuple[int, ...], list[CardJSON | None]] | None = None) -> Snapshot:
        seen.append(state)
        snaps.append(original(state, rows))
        return snaps[-1]

    Snapshot.of = spy  # type: ignore[method-assign]
    try:
        sim = simulate(library, library.protocol("card-selection-arrow"), None, seed=3)
    finally:
        Snapshot.of = original  # type: ignore[method-assign]
    assert sim.trace.events and seen
    up = down = 0
    assert len({id(row) for snap in snaps for reg in snap.regions for row in reg["cells"]}) < sum(
        len(reg["cells"]) for snap in snaps for reg in snap.regions
    )  # rows the same as earlier ones were written once
    for state, made in zip(seen, snaps):
        snap = original(state)
        assert [reg["cells"] for reg in snap.regions] == _by_card(state)
        assert made.to_json() == snap.to_json()  # with the run's rows as without them
        for reg in snap.regions:
            for row in reg["cells"]:
                for cell in row:
                    if cell is not None:
                        assert list(cell) == ["symbol", "glyph", "up"]  # the JSON's key order
                        up, down = up + cell["up"], down + (not cell["up"])
    assert up and down  # both faces were written
