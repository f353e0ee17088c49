"""A knockout round's discards without a plan (:mod:`reference_engine.compiled.discards`): where
:func:`~reference_engine.compiled.discards.after` takes a discard, the layout is the one the step's
builders make (by identity), the cells and the cards returned are their plan's, and no card lands;
every other case (a hand, two regions, an empty place, a place twice, a row left empty, a split
sleeve, a last region of two rows or not last) is refused, the builders' turn."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

from reference_engine.compiled import discards
from reference_engine.compiled import plans as fp
from reference_engine.compiled.base import gather, strip
from reference_engine.machine.actions.layout import _discard_build
from reference_engine.machine.plans import landings
from reference_engine.table import Layout

HERE = Path(__file__).parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from test_holes import shapes  # noqa: E402


def with_u(cols: int = 7, u: tuple[Any, ...] = ("U", 1, 3, 1, None, None)) -> list[tuple[Any, ...]]:
    """The test table with a last region of middle arrows."""
    return [*shapes(cols), u]


def agree(layout: Layout, flats: tuple[int, ...]) -> bool:
    """Whether :func:`discards.after` takes ``flats``; where it does, it is the builders' plan."""
    how = discards.after(layout, flats)
    if how is None:
        return False
    for plan in (fp.build_discard(layout, flats), strip(_discard_build(None, None, None, layout, flats))):
        assert plan.layout is how[1]
        assert tuple(plan.returned) == flats and not plan.delta and not plan.consts
        assert not landings(plan, layout)
        cells = list(range(0, 2 * layout.size, 2))
        for f in layout.holes:
            cells[f] = -1
        want = gather(cells, plan, ())
        returned = [cells[f] for f in plan.returned]
        assert discards.change(cells, how, flats) == returned
        assert cells == want
    return True


@pytest.mark.parametrize("seed", range(6))
def test_losers_arrows_are_the_builders(seed: int) -> None:
    rng = random.Random(seed)
    taken = 0
    for _ in range(30):
        layout = Layout.make(with_u(), rng.sample(range(10, 17), rng.randint(0, 3)))
        free = [f for f in range(10, 17) if f not in layout.holes]
        flats = tuple(rng.sample(free, rng.randint(1, len(free))))
        took = agree(layout, flats)
        taken += took
        assert took == (len(flats) < len(free)), (layout.holes, flats)  # a row left empty: refused
    assert taken > 10


@pytest.mark.parametrize("holes", [(), (11,), (10, 12), (3, 4)])
def test_the_middle_arrows_cut_off_are_the_builders(holes: tuple[int, ...]) -> None:
    layout = Layout.make(with_u(), holes)
    u = layout.by_name["U"]
    assert agree(layout, tuple(range(u.offset, u.offset + 3)))
    assert discards.after(layout, tuple(range(u.offset, u.offset + 3)))[0] == discards.CUT  # type: ignore[index]


def test_hostile_discards_are_refused() -> None:
    layout = Layout.make(with_u(), (11,))
    u = layout.by_name["U"].offset
    refused = [
        (0,),  # a hand
        (10, 17),  # two regions
        (11,),  # an empty place
        (10, 10),  # a place twice
        (),  # nothing
        (u + 2, u + 1, u),  # the last region out of order
        (-1,),  # off the table
        (layout.size,),
    ]
    for flats in refused:
        assert discards.after(layout, flats) is None, flats
    assert agree(layout, (u, u + 1))  # part of the last region: empty places, as the builders
    # The last region with two rows, or not last, or with a hole: the builders'.
    two = Layout.make(with_u(u=("U", 2, 3, 1, None, None)))
    off = two.by_name["U"].offset
    assert discards.after(two, tuple(range(off + 3, off + 6))) is None
    inner = Layout.make([*with_u(), ("W", 1, 2, 1, None, None)])
    off = inner.by_name["U"].offset
    assert discards.after(inner, tuple(range(off, off + 3))) is None
    holed = Layout.make(with_u(), (u + 1,))
    assert discards.after(holed, (u, u + 1, u + 2)) is None


@pytest.mark.parametrize("seed", range(4))
def test_random_discards_anywhere_are_refused_or_the_builders(seed: int) -> None:
    """Any places of the table (sleeves that keep a row among them): taken only as the builders."""
    assert Layout.make(with_u()).size == 34
    rng = random.Random(100 + seed)
    taken = refused = 0
    for _ in range(60):
        layout = Layout.make(with_u(), rng.sample(range(34), rng.randint(0, 4)))
        flats = tuple(rng.sample(range(layout.size), rng.randint(1, 4)))
        try:
            took = agree(layout, flats)
        except Exception:  # the builders refuse it (their message): so must after
            assert discards.after(layout, flats) is None, flats
            took = False
        taken += took
        refused += not took
    assert taken and refused
