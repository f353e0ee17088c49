"""A discard counted by C-level byte operations (reference_engine/compiled/base.py,
:func:`base.discarded`): few cards of one kind in one count, codes that are bytes translated to
their symbols and counted symbol by symbol, anything else by :func:`base._discarded`; each the
plain formula's counts and seen flag, also when the up-down pairs change in place."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from reference_engine.cards import EMPTY, ROTATIONS
from reference_engine.compiled import base


def plain(codes: list[int]) -> tuple[list[tuple[int, int]], bool]:
    to = ROTATIONS.to
    sids = [min(c >> 1, to[c >> 1]) if (c >> 1) in to else c >> 1 for c in codes]
    return sorted(Counter(sids).items()), min(codes) < 0 or not all(c & 1 for c in codes)


@pytest.mark.parametrize("seed", range(8))
def test_a_discard_of_any_size_and_kinds_is_the_plain_count(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One kind or several, up to and past FEW_CARDS cards and FEW_KINDS symbols, up-down
    cards either way up, face down, an empty place, a code past a byte: a list or a tuple."""
    monkeypatch.setattr(ROTATIONS, "to", {40: 41, 41: 40, 7: 90, 90: 7, 120: 121, 121: 120})
    rng = random.Random(seed)
    paths = Counter()
    for n in (1, 2, 3, base.FEW_CARDS, base.FEW_CARDS + 1, 40, 99):
        for kinds in ([60], [40, 41], [7, 90, 40, 5], list(range(2, 14)), [120, 121, 3], [200, 3], [0, 1]):
            for up in ((1,), (0, 1), (0,)):
                codes = [rng.choice(kinds) << 1 | rng.choice(up) for _ in range(n)]
                if rng.random() < 0.2 and n > 1:
                    codes[rng.randrange(n)] = EMPTY
                want = plain(codes)
                assert base.discarded(codes) == want == base._discarded(codes)
                assert base.discarded(tuple(codes)) == want
                paths[(len(want[0]) > base.FEW_KINDS, max(codes) > 255, min(codes) < 0)] += 1
    assert len(paths) >= 4, paths


def test_the_symbols_table_follows_the_pairs_changed_in_place(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table from codes to symbols is kept while the pairs are those it was made from: a
    pair added, dropped or changed in the same dict is seen at the next discard."""
    to: dict[int, int] = {}
    monkeypatch.setattr(ROTATIONS, "to", to)
    codes = [4 << 1 | 1, 5 << 1 | 1, 5 << 1 | 1, 9 << 1]
    assert base.discarded(codes) == plain(codes) == ([(4, 1), (5, 2), (9, 1)], True)
    to.update({4: 5, 5: 4})
    assert base.discarded(codes) == plain(codes) == ([(4, 3), (9, 1)], True)
    to.update({5: 9, 9: 5})
    del to[4]
    assert base.discarded(codes) == plain(codes) == ([(4, 1), (5, 3)], True)
    to.clear()
    assert base.discarded(codes) == plain(codes) == ([(4, 1), (5, 2), (9, 1)], True)


def test_nothing_discarded_is_refused_as_before() -> None:
    with pytest.raises(ValueError):
        base.discarded([])
    with pytest.raises(ValueError):
        base._discarded([])
