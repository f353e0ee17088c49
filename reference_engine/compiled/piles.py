"""What a compiled ``shuffle`` of piles makes of the slots its ``piles:`` value names: the
interpreter's reading (:func:`~reference_engine.machine.actions.shuffling.shuffle_piles`) of one
run's value, its checks and messages in the same order. A step's answer is kept per layout and
piles (:func:`~.ops._shuffle`), so it is worked out once per shape, never per shuffle."""

from __future__ import annotations

from .. import steps as st
from ..machine.actions.shuffling import Piles, shuffle_piles
from ..shuffles import Shuffle
from ..table import Layout


def shuffle_of(
    step: st.Shuffle, many: bool, items: list[tuple[int, ...]], layout: Layout
) -> tuple[Shuffle, Piles, str]:
    """:func:`~reference_engine.machine.actions.shuffling.shuffle_piles` in the compiled steps'
    form (``many``: whether the value was a list; the slots read say the same)."""
    return shuffle_piles(step, items, layout)
