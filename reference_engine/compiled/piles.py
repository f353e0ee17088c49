"""What a compiled ``shuffle`` of piles makes of the slots its ``piles:`` value names: the
interpreter's reading (:func:`~reference_engine.machine.actions.shuffling._piles`) of one run's
value, its checks and messages in the same order. A step's answer is kept per layout and piles
(:func:`~.ops._shuffle`), so it is worked out once per shape, never per shuffle."""

from __future__ import annotations

from .. import steps as st
from ..expressions import EvalError
from ..machine.actions.sleeving import check_piles
from ..shuffles import Shuffle
from ..table import Layout


def shuffle_of(
    step: st.Shuffle, many: bool, items: list[tuple[int, ...]], layout: Layout
) -> tuple[Shuffle, tuple[tuple[int, ...], ...], str]:
    """What :func:`~reference_engine.machine.actions.shuffling._piles` makes of the value's slots."""
    how = step.how
    piles: tuple[tuple[int, ...], ...]
    if how in ("cut", "bisect"):
        flats = tuple(f for p in items for f in p)
        if how == "cut":
            piles = tuple((f,) for f in flats)
            shuffle = Shuffle("shift", len(piles))
        else:
            if len(flats) % 2:
                raise EvalError(f"a bisection cut needs an even number of cards, got {len(flats)}")
            h = len(flats) // 2
            piles = (flats[:h], flats[h:])
            shuffle = Shuffle("scramble", 2)
    else:
        piles = tuple(items)
        if how == "set":
            if step.perms and len(step.perms[0]) != len(piles):
                raise EvalError(
                    f"the permutations act on {len(step.perms[0])} piles, but there are {len(piles)}"
                )
            shuffle = Shuffle("set", len(piles), tuple(step.perms))
        else:
            shuffle = Shuffle(how, len(piles))
    if not piles:
        raise EvalError("nothing to shuffle")
    sizes = {len(p) for p in piles}
    if len(sizes) != 1:
        raise EvalError(f"piles must have the same number of cards, got sizes {sorted(sizes)}")
    every = [f for p in piles for f in p]
    if len(set(every)) != len(every):
        raise EvalError("the piles overlap")
    holes = layout.holes
    if holes:
        for f in every:
            if f in holes:
                raise EvalError(f"{layout.describe(f)} is empty")
    if layout.inside:
        check_piles(layout, piles)  # a shuffle mixes whole sleeves
    return shuffle, piles, how
