"""A plan that keeps every card where it is and puts its new cards after them (a place of new
cards at the end of the table) gathers the cells and the new cards as they are
(reference_engine/compiled/base.py, ``_tail``): what its index gathers; any other index, or new
cards of another number, gathered by the index."""

from __future__ import annotations

from operator import itemgetter

from reference_engine.cards import EMPTY
from reference_engine.compiled import base
from reference_engine.machine import Plan
from reference_engine.table import NEW, Layout


def by_index(cells: list[int], plan: Plan, consts: tuple[int, ...]) -> list[int]:
    n = len(cells)
    idx = [t if t >= 0 else (n if t == EMPTY else n + 1 + (NEW - t)) for t in plan.src]
    return list(itemgetter(*idx)([*cells, EMPTY, *consts]))


def test_new_cards_after_the_cells_are_gathered_as_they_are() -> None:
    layout = Layout.make([("A", 2, 5, 1, None, None)])
    cells = [2 * i + 1 for i in range(7)]
    for k in (1, 3):
        plan = Plan(layout, (*range(7), *range(NEW, NEW - k, -1)), tuple(range(k)), {})
        consts = tuple(range(501, 501 + 2 * k, 2))
        for _ in range(2):  # found, then kept on the plan
            got = base.gather(cells, plan, consts)
            assert got == by_index(cells, plan, consts) == [*cells, *consts]
        assert plan.__dict__["_tail"] == k and "_getter" not in plan.__dict__
        made = Plan(layout, plan.src, plan.consts, {})  # a builder's gather left on the plan
        made.__dict__["_getter"] = itemgetter(*range(7), *range(8, 8 + k))
        assert base.gather(cells, made, consts) == [*cells, *consts] and made.__dict__["_tail"] == k


def test_any_other_index_is_gathered_by_it() -> None:
    layout = Layout.make([("A", 2, 5, 1, None, None)])
    cells = [2 * i + 1 for i in range(7)]
    consts = (501, 503)
    for src in (
        (*range(7), NEW - 1, NEW),  # the new cards in another order
        (*range(1, 7), 0, NEW, NEW - 1),  # a card moved
        (*range(6), NEW, NEW - 1),  # a card gone
        (*range(7), EMPTY, NEW, NEW - 1),  # an empty place between
        (NEW, NEW - 1, *range(7)),  # the new cards first
    ):
        plan = Plan(layout, src, (0, 0), {})
        assert base.gather(cells, plan, consts) == by_index(cells, plan, consts)
        assert plan.__dict__["_tail"] == 0
    plan = Plan(layout, (*range(7), NEW), (0,), {})
    assert base.gather(cells, plan, (501,)) == [*cells, 501]
    more = (501, 503)  # more new cards than the index places: gathered by the index
    assert base.gather(cells, plan, more) == by_index(cells, plan, more)
