"""A plan's cells picked in C (reference_engine/machine/plans.py's ``gatherer``): the same cells
as the general ``gather``, token by token, and the general path wherever it would do anything
else (an IndexError, a single token)."""

from __future__ import annotations

import random

import pytest

from reference_engine.cards import EMPTY
from reference_engine.compiled import evaluate
from reference_engine.machine import plans
from reference_engine.machine.plans import gatherer
from reference_engine.registry import Library
from reference_engine.table import NEW, gather
from reference_engine.verify import verify


def _general(cells: tuple[int, ...], src: tuple[int, ...], consts: tuple[int, ...]) -> object:
    try:
        return gather(cells, src, consts)
    except IndexError:
        return IndexError


def _fast(cells: tuple[int, ...], src: tuple[int, ...], consts: tuple[int, ...]) -> object:
    n, get, tail = gatherer(src, consts, len(cells))
    assert n == len(cells)
    if get is None:
        return None
    return get(cells + tail if tail else cells)


def test_picked_cells_are_the_general_ones_for_any_tokens() -> None:
    """Random plans over random cells (tokens on the table, EMPTY, constants): wherever a getter
    is made its cells are gather's; no getter wherever gather fails."""
    rng = random.Random(37)
    made = fallbacks = 0
    for _ in range(3000):
        n = rng.randrange(0, 7)
        cells = tuple(rng.randrange(-1, 40) for _ in range(n))
        consts = tuple(rng.randrange(0, 40) for _ in range(rng.randrange(0, 4)))
        tokens = [*range(EMPTY, n), *(NEW - k for k in range(len(consts)))]
        past = [n, n + 1, NEW - len(consts), NEW - len(consts) - 1]  # IndexError in gather
        src = tuple(rng.choice(past if rng.random() < 0.04 else tokens) for _ in range(rng.randrange(0, 9)))
        fast = _fast(cells, src, consts)
        if fast is None:  # only where gather fails or there are fewer than two tokens
            assert len(src) < 2 or _general(cells, src, consts) is IndexError, (cells, src, consts)
            fallbacks += 1
            continue
        made += 1
        assert fast == _general(cells, src, consts), (cells, src, consts)
    assert made > 1000 and fallbacks > 200


@pytest.mark.parametrize(
    ("src", "consts"),
    [
        ((), ()),  # nothing to pick: a getter of no index cannot be made
        ((0,), ()),  # one index: a getter would give the item, not a tuple
        ((EMPTY,), ()),
        ((0, 3), ()),  # past the cells: IndexError, as gather raises
        ((0, NEW - 2), (5, 6)),  # a constant past the end: IndexError too
        ((NEW - 3, 1), (5, 6)),
    ],
)
def test_tokens_gather_treats_otherwise_take_the_general_path(
    src: tuple[int, ...], consts: tuple[int, ...]
) -> None:
    assert gatherer(src, consts, 3)[1] is None


def test_a_getter_serves_only_its_number_of_cells() -> None:
    """A plan meets cells of another length (another layout's states never reach it, but its
    getter is made again rather than trusted): tokens that were on the table may be past them."""
    src, consts = (0, 2, EMPTY, NEW), (9,)
    _, get, tail = gatherer(src, consts, 3)
    assert get is not None and get((1, 2, 3) + tail) == gather((1, 2, 3), src, consts) == (1, 3, EMPTY, 9)
    assert gatherer(src, consts, 2)[1] is None  # slot 2 is past two cells
    assert gatherer((0, 1), (), 2)[2] == ()  # the cells alone: nothing appended


def test_a_checked_verification_compares_every_plan_with_the_general_path(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under compiled.evaluate.CHECKED every plan's picked cells are compared with gather's; a
    wrong getter is caught there (here: one that reverses the cells)."""
    monkeypatch.setattr(evaluate, "CHECKED", True)
    proto = library.protocol("knockout-lottery")
    assert verify(library, proto, {"m": 2}).ok
    made = plans.gatherer

    def reversed_getter(src: tuple[int, ...], consts: tuple[int, ...], n: int) -> plans.Gatherer:
        n, get, tail = made(src, consts, n)
        if get is None or len(set(src)) < 2:
            return (n, get, tail)
        return (n, lambda cells: tuple(reversed(get(cells))), tail)

    monkeypatch.setattr(plans, "gatherer", reversed_getter)
    with pytest.raises(AssertionError) as caught:
        verify(Library(), Library().protocol("knockout-lottery"), {"m": 3, "shuffled": 1})
    assert caught.traceback[-1].name == "apply"  # Plan.apply's comparison, not another check
