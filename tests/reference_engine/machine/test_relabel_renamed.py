"""A kept law's outcomes renamed as they are read (:class:`reference_engine.machine.relabel.Renamed`)
and its views interned in one loop (:meth:`~reference_engine.machine.views.ViewTable.extend_tree`):
each gives what the plain renaming and interning give."""

from __future__ import annotations

import random
from typing import Any

import pytest

from reference_engine.cards import DEALT, SYMBOLS, code
from reference_engine.errors import ReductionRefused
from reference_engine.machine import Runner, Shared
from reference_engine.machine import relabel as rl
from reference_engine.machine.plans import SubResult
from reference_engine.machine.views import ViewTable
from reference_engine.meters import Meters
from reference_engine.registry import Library

POOL = [SYMBOLS.intern(f"renamed_test_card_{i}") for i in range(8)]


@pytest.fixture(autouse=True)
def _fresh(relabel_fresh: None) -> None:
    """Every test starts with nothing kept."""


def _res(codes: tuple[int, ...]) -> SubResult:
    return SubResult((((1, len(codes)), codes),), (True,), ((0, -1),), Meters(1, 2, (), (), ()), ())


def test_renamed_reads_as_the_renamed_list() -> None:
    a, b, c, d = (s.id for s in POOL[:4])
    template = [
        (1, ("call", "x", (True,)), _res((a << 1, b << 1 | 1, -1))),
        (2, None, _res((b << 1, 7 << 1 | 1))),  # face 7: not renamed
        (3, None, _res(())),
    ]
    to = {a: c, b: d}
    want = [(p, obs, rl.relabel(res, to)) for p, obs, res in template]
    assert want[0][2].cards[0][1] == (c << 1, d << 1 | 1, -1)
    got = rl.Renamed(template, to)  # type: ignore[arg-type]
    assert len(got) == 3
    first = got[1]
    assert first == want[1] and got[1] is first  # renamed once, then kept
    assert got._done.count(None) == 2  # nothing else renamed yet
    assert got[-1] == want[-1] and got[0:2] == want[0:2]
    assert list(got) == want and got == want and got == rl.Renamed(template, to)  # type: ignore[arg-type]
    assert got != want[:2] and repr(got) == repr(want)
    with pytest.raises(IndexError):
        got[3]


def test_a_kept_law_is_drawn_from_its_renamed_outcomes() -> None:
    """A call on new cards of a kept law's pattern gives a :class:`~.relabel.Renamed` whose
    outcomes are the plain enumeration's, and the draw's thresholds pick the same ones."""
    from reference_engine.machine.subruns import _sub_outcomes

    lib = Library()
    proto = lib.protocol("knockout-lottery")
    rng = random.Random(5)
    enc = proto.encodings["arrow"].table
    arrows = tuple(code(SYMBOLS.get(enc[b][0])) for b in (0, 1, 1))  # type: ignore[arg-type]
    params = {"m": 3, "shuffled": 1}
    runner = Runner(lib, "sample", shared=Shared())
    sub = runner.frame(proto, proto.resolve_params(params))
    renamed = 0
    for _ in range(4):
        cards = tuple(code(s) for s in rng.sample(POOL, 3))
        outcomes, _ = rl.small_call(runner, sub, (cards, arrows), None)
        plain = _sub_outcomes(Runner(lib, "sample", shared=Shared()), sub, (cards, arrows))
        if isinstance(outcomes, rl.Renamed):
            renamed += 1
        assert [res for _, _, res in outcomes] == [res for _, _, res in plain]
        assert rl.small_call(runner, sub, (cards, arrows), None)[0] is outcomes  # kept for the game
    assert renamed >= 2


def _tree() -> list[tuple[int, Any]]:
    return [
        (0, ("if", True)),
        (1, ("turn", (3, 5))),
        (1, ("turn", (3, 7))),
        (3, ("unordered", 1, 0, (), 6)),
        (0, ("if", False)),
        (5, ("let", (("h", 2),))),
        (4, ("if", True)),
    ]


def _table() -> ViewTable:
    t = ViewTable()
    v = t.extend(0, ("if", True))  # some views met before: found again, not added
    t.extend(v, ("turn", (3, 7)))
    t.extend(0, ("for", (1, 2)))
    return t


def test_extend_tree_interns_as_extend_does() -> None:
    plain, batch = _table(), _table()
    ids = [0]
    for parent, obs in _tree():
        ids.append(plain.extend(ids[parent], obs))
    assert batch.extend_tree(_tree()) == ids
    assert batch.entries == plain.entries and batch.weights == plain.weights
    assert batch._index == plain._index
    assert batch.weight(ids[4]) == 6 and len(set(ids)) == len(ids)


def test_extend_tree_checks_each_view_under_classes() -> None:
    t = _table()
    face = SYMBOLS.intern("renamed_test_dealt")
    DEALT.ids.add(face.id)
    try:
        with pytest.raises(ReductionRefused):
            t.extend_tree([(0, ("if", True)), (1, ("turn", (code(face),)))])
    finally:
        DEALT.ids.discard(face.id)
    assert len(t) == 4  # the refused view is not kept


def test_extend_tree_keeps_nothing_of_a_view_it_cannot_weigh() -> None:
    t = _table()
    with pytest.raises(IndexError):
        t.extend_tree([(0, ("if", 3)), (1, ())])
    assert len(t) == 5 and len(t._index) == 4
