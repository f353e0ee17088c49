"""Reading a finished run's outputs: an output the caller does not read is left unread only where
reading it provably cannot fail (``outputs._never_fails``); otherwise it is read, and fails as
before."""

from __future__ import annotations

import random
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest

from reference_engine.cards import EMPTY, Symbol
from reference_engine.compiled import evaluate, run_single
from reference_engine.compiled.evaluate import FastEvaluator
from reference_engine.errors import SimulationError
from reference_engine.expressions import parse
from reference_engine.kinds.shedding import load_rules
from reference_engine.machine import Runner, read_outputs
from reference_engine.machine.frame import Frame
from reference_engine.machine.outputs import _all_unfailing, _every_hand, _never_fails, _shape, read_regions
from reference_engine.registry import Library
from reference_engine.selection import CallCache, run_selection
from reference_engine.table import Region

RULES = load_rules("uno")
valid = RULES.validity(RULES.symbol("red5"), "red")
HANDS = 'cards: "[hand(i) for i in 1..len(sizes)]"'


def table(seed: int) -> list[list[Symbol]]:
    deck = RULES.deck()
    random.Random(seed).shuffle(deck)
    return [deck[0:3], deck[3:5], deck[5:40]]


@pytest.mark.parametrize(
    ("text", "param"),
    [
        ("[hand(i) for i in 1..len(sizes)]", "sizes"),
        ("[hand(j) for j in 0..len(owners)]", "owners"),
        ("[hand(i) for i in 1..3]", ""),
        ("[hand(i) for i in 2..len(sizes)]", None),  # from 2: not recognised (kept narrow)
        ("[hand(i) for i in -5..len(sizes)]", None),
        ("[hand(i + 1) for i in 1..len(sizes)]", None),
        ("[hand(j) for i in 1..len(sizes)]", None),
        ("[hand(i) for i in 1..len(i)]", None),
        ("[hand(i) for i in 1..sum(sizes)]", None),
        ("[hand(i) for i in 1..len(sizes) if i > 1]", None),
        ("[hands(i) for i in 1..len(sizes)]", None),
        ("[hand(i) for i in 1..100]", None),
        ("hand(1)", None),
    ],
)
def test_only_every_hand_is_recognised(text: str, param: str | None) -> None:
    assert _every_hand(parse(text).node) == param


def test_the_unread_hands_are_skipped_and_the_read_outputs_are_the_same(library: Library) -> None:
    proto = library.protocol("card-selection-arrow")
    run = run_selection(library, proto, table(1), valid, random.Random(1), CallCache(), "turn 1")
    assert run.played is not None or run.drawn is None
    runner = Runner(library, "sample", rng=random.Random(1), context={"valid": valid})
    frame = runner.frame(proto, proto.resolve_params({"sizes": (3, 2, 35)}))
    state, _, _ = run_single(
        runner, frame, frame.initial_state({"cards": [c for hand in table(2) for c in hand]}), "interpreter"
    )
    assert _never_fails(frame, proto.outputs["hands"], state)
    some = read_outputs(runner, frame, state, only=("played", "kept"))
    every = read_outputs(runner, frame, state)
    assert "hands" not in some and len(every["hands"]) == 3
    assert {k: every[k] for k in some} == some


@pytest.mark.parametrize(
    "change",
    [
        (HANDS, 'cards: "[hand(i) for i in 1..len(draw)]"'),  # len of a number fails
        (HANDS, 'cards: "[hand(i == 1) for i in 1..len(sizes)]"'),  # a hand of true fails
    ],
)
def test_an_unread_output_that_fails_still_fails(
    variant: Callable[..., Library], change: tuple[str, str]
) -> None:
    lib = variant("card-selection-arrow", change)
    proto = lib.protocol("card-selection-arrow")
    for engine in ("compiled", "interpreter"):
        with pytest.raises(SimulationError, match="output hands"):
            run_selection(lib, proto, table(3), valid, random.Random(3), CallCache(engine=engine), "turn 1")


def test_the_values_recognised_as_unfailing(library: Library) -> None:
    outs = library.protocol("card-selection-arrow").outputs
    assert _shape(outs["found"]) == ("exists", "played") and _shape(outs["drew"]) == ("variable", "drew")
    assert _shape(outs["played"]) is None  # decode: card (it may fail): never skipped
    assert _shape(outs["hands"]) == ("hands", "sizes")


@pytest.mark.parametrize(
    "change",
    [
        ("value: \"exists('played')\"", 'value: "exists(1)"'),  # exists() of a number fails
        ('value: "drew"', 'value: "[drew, M]"'),  # M was taken away: a region no more
    ],
)
def test_an_unread_value_that_fails_still_fails(
    variant: Callable[..., Library], change: tuple[str, str]
) -> None:
    lib = variant("card-selection-arrow", change)
    proto = lib.protocol("card-selection-arrow")
    for engine in ("compiled", "interpreter"):
        with pytest.raises(SimulationError, match=r"output (found|drew)"):
            run_selection(lib, proto, table(3), valid, random.Random(3), CallCache(engine=engine), "turn 1")


def test_checked_runs_read_the_skipped_outputs_all_the_same(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    proto = library.protocol("card-selection-arrow")
    plain = run_selection(library, proto, table(4), valid, random.Random(4), CallCache(), "turn 1")
    read: list[str] = []
    original = FastEvaluator.value

    def spy(self: FastEvaluator, expr: object, state: object) -> object:
        read.append(getattr(expr, "text", ""))
        return original(self, expr, state)  # type: ignore[arg-type]

    monkeypatch.setattr(FastEvaluator, "value", spy)
    run_selection(library, proto, table(4), valid, random.Random(4), CallCache(engine="compiled"), "turn 1")
    assert read == []  # nothing read but the regions
    monkeypatch.setattr(evaluate, "CHECKED", True)
    checked = run_selection(
        library, proto, table(4), valid, random.Random(4), CallCache(engine="compiled"), "t"
    )
    assert "drew" in read and "exists('played')" in read
    assert (checked.played, checked.returned, checked.drawn) == (plain.played, plain.returned, plain.drawn)


def test_a_variable_is_looked_up_by_its_first_pair_of_that_name(library: Library) -> None:
    """``value: drew`` cannot fail where the first variable named drew holds a number, a truth
    value, a text or none; a region or a variable of a name shadows a parameter of it."""
    proto = library.protocol("card-selection-arrow")
    frame = Frame(proto, proto.resolve_params({"sizes": (2, 1, 3)}))

    def state(env: list[tuple[str, Any]], regions: tuple[str, ...] = ()) -> Any:
        return SimpleNamespace(env=tuple(env), layout=SimpleNamespace(by_name=dict.fromkeys(regions)))

    drew = proto.outputs["drew"]
    envs: list[tuple[list[tuple[str, Any]], bool]] = [
        ([], False),
        ([("drew", 1)], True),
        ([("a", 0), ("drew", [1])], False),
        ([("drew", None), ("drew", [1])], True),
        ([("drew", (1,)), ("drew", 1)], False),
        ([("drew", "x")], True),
        ([("drewx", 1), ("dre", True)], False),
    ]
    for env, plain in envs:
        assert _never_fails(frame, drew, state(env)) is plain, env
    # A region or a variable of the name read shadows it (every owner's hand: the parameter
    # ``sizes``; ``exists('played')``: the reader's ``__state__``), a name that merely starts
    # alike does not.
    hands, found = proto.outputs["hands"], proto.outputs["found"]
    assert _never_fails(frame, hands, state([("sizesx", 1)], ("size",)))
    assert not _never_fails(frame, hands, state([("a", 0), ("sizes", 1)]))
    assert not _never_fails(frame, hands, state([], ("sizes",)))
    assert _never_fails(frame, found, state([("x", 1)], ("played",)))
    assert not _never_fails(frame, found, state([("__state__", 1)]))
    assert not _never_fails(frame, found, state([], ("__state__",)))
    # All three at once, as read_regions asks them: one that fails is enough.
    shapes = (_shape(drew), _shape(found), _shape(hands))
    assert _all_unfailing(frame, shapes, state([("drew", 1)]))  # type: ignore[arg-type]
    assert not _all_unfailing(frame, shapes, state([("drew", 1)], ("sizes",)))  # type: ignore[arg-type]
    assert not _all_unfailing(frame, shapes, state([("drew", [1])]))  # type: ignore[arg-type]


# -- outputs read straight from the cells (read_regions) ------------------------------------


def finished(library: Library, seed: int, engine: str) -> tuple[Runner, Frame, Any]:
    proto = library.protocol("card-selection-arrow")
    runner = Runner(library, "sample", rng=random.Random(seed), context={"valid": valid})
    sizes = tuple(len(h) for h in table(seed))
    frame = runner.frame(proto, proto.resolve_params({"sizes": sizes}))
    start = frame.initial_state({"cards": [c for hand in table(seed) for c in hand]})
    state, _, _ = run_single(runner, frame, start, engine)
    return runner, frame, state


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("engine", ["compiled", "interpreter"])
def test_outputs_read_from_the_cells_are_the_general_reading(
    library: Library, seed: int, engine: str
) -> None:
    runner, frame, state = finished(library, seed, engine)
    fast = read_regions(frame, state, ("played", "kept"))
    assert fast is not None and fast == read_outputs(runner, frame, state, only=("played", "kept"))


def test_a_region_of_two_cards_is_left_to_the_general_reading(library: Library) -> None:
    """Hostile: two cards where the spec reads one: no value from the cells (the general reading
    fails, with its own error); a region that is not there reads no card."""
    _, frame, state = finished(library, 1, "compiled")
    two = Region("played", 1, 2, 0)
    red, blue = RULES.symbol("red1"), RULES.symbol("blue2")
    cells = ((red.id << 1), (blue.id << 1))
    fake = SimpleNamespace(layout=SimpleNamespace(by_name={"played": two}), cells=cells, env=state.env)
    assert read_regions(frame, fake, ("played", "kept")) is None  # type: ignore[arg-type]
    one = SimpleNamespace(
        layout=SimpleNamespace(by_name={"played": two}), cells=(EMPTY, blue.id << 1), env=state.env
    )
    assert read_regions(frame, one, ("played", "kept")) == {"played": blue, "kept": None}  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("change", "only"),
    [
        (("cards: played\n    encoding: card", "cards: played\n    encoding: faces"), ("played",)),
        (("encoding: cards\n    equals", "encoding: faces\n    equals"), ("played", "kept")),
        (("cards: kept\n    encoding: card", "cards: kept\n    encoding: card"), ("played", "kept", "found")),
    ],
)
def test_other_outputs_take_the_general_reading(
    variant: Callable[..., Library], change: tuple[str, str], only: tuple[str, ...]
) -> None:
    """An output read that is not one card of a named region, or one left out that is not
    recognised as unfailing: no plan, the general reading."""
    lib = variant("card-selection-arrow", change)
    _, frame, state = finished(lib, 2, "interpreter")
    assert read_regions(frame, state, only) is None


def test_an_output_left_out_that_could_fail_is_left_to_the_general_reading(library: Library) -> None:
    _, frame, state = finished(library, 3, "compiled")
    assert read_regions(frame, state, ("played", "kept")) is not None
    assert read_regions(frame, state.replace(env=(("drew", (1,)),)), ("played", "kept")) is None  # not plain
