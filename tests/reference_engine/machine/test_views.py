"""The table of views: a view met again is the same id, a new one gets the next id and its
parent's weight, and a view that cannot be made (no such parent) leaves nothing behind."""

from __future__ import annotations

import pytest

from reference_engine.cards import DEALT
from reference_engine.machine import ViewTable


def test_a_view_is_interned_once() -> None:
    views = ViewTable()
    a = views.extend(0, ("turn", (2, 4, 6)))
    b = views.extend(a, ("if", True))
    assert (a, b) == (1, 2)
    assert views.extend(0, ("turn", (2, 4, 6))) == a  # an equal observation, another tuple
    assert views.extend(a, ("if", True)) == b
    assert views.extend(a, ("if", False)) == 3
    assert len(views) == 4
    assert views.observations(b) == [("turn", (2, 4, 6)), ("if", True)]
    assert views.entries[b] == (a, ("if", True))


def test_weights_follow_the_parent_and_unordered_reveals() -> None:
    views = ViewTable()
    merged = views.merged(("merged", "3", "d", 5))
    assert views.weight(merged) == 5
    child = views.extend(merged, ("if", True))
    assert views.weight(child) == 5
    shown = views.extend(child, ("unordered", "4", 0, (), 6))
    assert views.weight(shown) == 30
    assert views.extend(child, ("unordered", "4", 0, (), 6)) == shown
    assert views.weight(views.extend(-1, ("if", 1))) == 1  # no parent: weight 1


def test_a_view_of_no_such_parent_leaves_nothing() -> None:
    views = ViewTable()
    with pytest.raises(IndexError):
        views.extend(7, ("if", True))
    assert len(views) == 1 and not views._index
    assert views.extend(0, ("if", True)) == 1  # the table goes on as before
    with pytest.raises(TypeError):
        views.extend(1, ("unordered", "4", 0, (), None))  # a weight that is no number
    assert len(views) == 2 and len(views._index) == 1
    assert views.extend(1, ("if", False)) == 2


def test_a_refused_view_is_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """In a verification by validity classes a view is checked before it is interned: one that
    shows a dealt card is refused and leaves nothing behind; the others are interned as ever."""
    import reference_engine.machine.views as views_module

    refused: list[object] = []

    def refuse(obs: object) -> None:
        if obs == ("turn", (9,)):
            refused.append(obs)
            raise ValueError("shown")

    monkeypatch.setattr(views_module, "_refuse_dealt", refuse)
    monkeypatch.setattr(DEALT, "ids", frozenset({4}))
    views = ViewTable()
    with pytest.raises(ValueError):
        views.extend(0, ("turn", (9,)))
    assert len(views) == 1 and not views._index
    a = views.extend(0, ("turn", (2,)))
    assert views.extend(0, ("turn", (2,))) == a == 1
    assert views.weight(a) == 1
