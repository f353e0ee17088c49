"""The public values a run keeps (frontier._freeze): a list of numbers, texts and truth values
frozen at once is the value frozen item by item."""

from __future__ import annotations

import random
from typing import Any

import pytest

from reference_engine.cards import SYMBOLS, Symbol
from reference_engine.expressions import EvalError, plain
from reference_engine.machine.frontier import _freeze


def _item_by_item(v: Any) -> Any:
    """_freeze as it was: every item of a list frozen on its own."""
    v = plain(v)
    if isinstance(v, list):
        return tuple(_item_by_item(x) for x in v)
    if isinstance(v, (int, str, bool, Symbol, tuple)) or v is None:
        return v
    raise EvalError("not a public value")


class _Tagged(int):
    """An int of another type (a recording's tagged card): never frozen as it is at once."""


def test_a_list_frozen_at_once_is_the_list_frozen_item_by_item() -> None:
    rng = random.Random(51)
    atoms: list[Any] = [0, 1, -3, True, False, None, "a", "", (1, 2), _Tagged(4), SYMBOLS.intern("up")]
    for _ in range(2000):
        v = [
            rng.choice(atoms) if rng.random() < 0.8 else [rng.choice(atoms)] for _ in range(rng.randrange(6))
        ]
        got, want = _freeze(v), _item_by_item(v)
        assert got == want and [type(x) for x in got] == [type(x) for x in want]
    with pytest.raises(EvalError):
        _freeze([1, 2.5])


def test_a_state_with_another_view_is_replace_s() -> None:
    """with_view() passes the fields by position: the same state (fields, hash, equality) as
    replace(view=...), lazy blocks and variables of any types kept."""
    from reference_engine.machine.frontier import with_view
    from reference_engine.meters import Meters
    from reference_engine.table import Layout, State

    layout = Layout.make([("x", 1, 3, 1, None, None)])
    for env in ((), (("a", True),), (("a", 1), ("b", ((1, 2),)))):
        state = State(layout, (3, 5, -1), ((7, 1),), env, Meters(1, 2), 4, (((0, 1),),))
        new = with_view(state, 9)
        ref = state.replace(view=9)
        assert type(new) is State and new == ref and hash(new) == hash(ref)
        assert [getattr(new, f) for f in State.__slots__] == [getattr(ref, f) for f in State.__slots__]
