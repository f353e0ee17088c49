"""A place's resolved arguments kept where its expressions are structural
(reference_engine/compiled/placeargs.py): kept by the layout, the frame's key and the variables
the expressions name (1 and True apart), never for a card-reading or non-built-in expression,
bounded, checked both ways under CHECKED, and in whole card-level games the same as worked out."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from reference_engine import steps as st
from reference_engine.compiled import evaluate as ev
from reference_engine.compiled import placeargs
from reference_engine.expressions import parse
from reference_engine.functions import BUILTINS


def place(items: str, target: str = "P") -> st.Place:
    return st.Place((), None, "1", None, targets=[(st.Target(target, target, None), "columns", parse(items))])


class Fake:
    """What the kept resolver reads of a run (its answer comes from the resolver given)."""

    def __init__(self, layout: Any = "L1", key: Any = ("p", ()), env: dict[str, Any] | None = None) -> None:
        self.layout = layout
        self.runner = None
        self.fev = None
        self.frame = SimpleNamespace(key=key, globals=SimpleNamespace(functions=dict(BUILTINS)))
        self.env = env or {}

    def vars(self) -> dict[str, Any]:
        return self.env

    def state(self) -> Any:
        return None


def counting() -> tuple[list[Any], Any]:
    calls: list[Any] = []

    def resolve(runner: Any, frame: Any, step: Any, state: Any, fev: Any) -> Any:
        calls.append(frame)
        return (("name", "P"), "columns", len(calls))

    return calls, resolve


def test_kept_by_layout_frame_key_and_the_variables_named() -> None:
    calls, resolve = counting()
    kept = placeargs.kept_place(place("[[c[i], x[i]] for i in 1..m]"), resolve)
    first = kept.of_run(Fake(env={"m": 1}))  # type: ignore[arg-type]
    assert kept.of_run(Fake(env={"m": 1, "other": 5})) == first  # type: ignore[arg-type]  # unnamed
    assert len(calls) == 1
    for run in (
        Fake(env={"m": True}),  # 1 and True are apart
        Fake(layout="L2", env={"m": 1}),
        Fake(key=("p", (("m", 4),)), env={"m": 1}),
        Fake(env={"m": 1, "c": (1,)}),  # a variable c hides the region
    ):
        assert kept.of_run(run) != first  # type: ignore[arg-type]
    assert len(calls) == 5


def test_not_kept_where_an_expression_reads_a_card_or_a_function_is_the_games() -> None:
    calls, resolve = counting()
    reads = placeargs.kept_place(place("[c[i] for i in 1..m if c[i] == x]"), resolve)
    for _ in range(3):
        reads.of_run(Fake())  # type: ignore[arg-type]
    assert len(calls) == 3
    counted = placeargs.kept_place(place("[c[i] for i in 1..len(x)]"), resolve)
    own = Fake()
    own.frame.globals.functions["len"] = lambda v: 0  # the game's own len
    for _ in range(2):
        counted.of_run(own)  # type: ignore[arg-type]
    assert len(calls) == 5
    counted.of_run(Fake())  # type: ignore[arg-type]
    counted.of_run(Fake())  # type: ignore[arg-type]
    assert len(calls) == 6  # the built-in one: kept
    target = st.Place(
        (), None, "1", None, targets=[(st.Target("P[f(k)]", None, parse("P[f(k)]")), "row", parse("c"))]
    )
    fenced = placeargs.kept_place(target, resolve)
    fenced.of_run(Fake())  # type: ignore[arg-type]
    fenced.of_run(Fake())  # type: ignore[arg-type]
    assert len(calls) == 8  # a target calling a function: not structural


def test_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(placeargs, "KEPT", 2)
    calls, resolve = counting()
    kept = placeargs.kept_place(place("[c[i] for i in 1..m]"), resolve)
    for m in (1, 2, 3, 1):
        kept.of_run(Fake(env={"m": m}))  # type: ignore[arg-type]
    assert len(calls) == 4  # started afresh at the third: the first worked out again


def test_checked_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    _calls, resolve = counting()  # answers differently every time: a kept answer would be wrong
    kept = placeargs.kept_place(place("[c[i] for i in 1..m]"), resolve)
    kept.of_run(Fake())  # type: ignore[arg-type]
    monkeypatch.setattr(ev, "CHECKED", True)
    with pytest.raises(ev.Mismatch, match="kept"):
        kept.of_run(Fake())  # type: ignore[arg-type]


def test_a_game_keeps_the_lotterys_places_as_worked_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole card-level UNO games: the knockout lottery's step 1 is kept and its answers used;
    the same game with every kept answer checked (CHECKED) ends the same."""
    from reference_engine.kinds.shedding import Game, load_rules
    from reference_engine.registry import Library
    from reference_engine.selection import ENGINE

    made = placeargs.kept_place
    stores: list[dict[str, int]] = []

    def watched(step: st.Place, resolve: Any) -> Any:
        got = made(step, resolve)
        seen = {"hits": 0, "calls": 0}
        stores.append(seen)

        def counted(runner: Any, frame: Any, step_: Any, state: Any, fev: Any) -> Any:
            seen["calls"] += 1
            return resolve(runner, frame, step_, state, fev)

        inner = made(step, counted)
        of_run = inner.of_run

        def run(r: Any) -> Any:
            seen["hits"] += 1
            return of_run(r)

        got.of_run = run
        return got

    monkeypatch.setattr(placeargs, "kept_place", watched)
    token = ENGINE.set("compiled")
    try:
        plain = Game(load_rules("uno"), Library(), players=4, virtual=4, level="card", seed=2).play()
        asked = sum(s["hits"] for s in stores)
        worked = sum(s["calls"] for s in stores)
        monkeypatch.setattr(ev, "CHECKED", True)  # every kept answer worked out again and compared
        checked = Game(load_rules("uno"), Library(), players=4, virtual=4, level="card", seed=2).play()
    finally:
        ENGINE.reset(token)
    assert 0 < worked < asked  # kept answers were used
    assert checked == plain
