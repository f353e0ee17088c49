"""The checks of one card-level run (``selection._checked``), each caught on a broken result, and
what a run sets up and leaves behind: the paper's counts kept per parameters, the initial table,
no reference cycles left for the garbage collector."""

from __future__ import annotations

import gc
import random
from collections.abc import Callable
from typing import Any

import pytest

from reference_engine.cards import Symbol, code
from reference_engine.compiled import run_single
from reference_engine.compiled.evaluate import FastEvaluator
from reference_engine.compiled.run import Run
from reference_engine.errors import CheckFailure, SimulationError
from reference_engine.expressions import EvalError
from reference_engine.kinds.shedding import load_rules
from reference_engine.machine import Runner, Shared, ViewTable, read_outputs
from reference_engine.machine.frame import Frame
from reference_engine.registry import Library
from reference_engine.selection import CallCache, _checked, run_selection

RULES = load_rules("uno")
CARD = RULES.symbol
valid = RULES.validity(CARD("red5"), "red")  # a red card, a 5 or a wild card


def owners() -> list[list[Symbol]]:
    """P_1 (red1 and green2 valid: red1), P_2, the draw pile (blue5 valid, green3 not)."""
    return [[CARD("red1"), CARD("green2")], [CARD("yellow3")], [CARD("blue5"), CARD("green3")]]


def check(
    returned: list[list[Symbol]],
    played: Symbol | None,
    *,
    table: list[list[Symbol]] | None = None,
    fallback: bool = False,
    measured: tuple[int, int] = (4, 10),
    paper: dict[str, int] | None = None,
    helpers_back: bool = True,
    pile: int | None = None,
    kept: Symbol | None = None,
) -> Any:
    counts = {"shuffles": 4, "helper_cards": 10} if paper is None else paper
    return _checked(
        Library().protocol("card-selection-arrow"),
        owners() if table is None else table,
        valid,
        "turn 7",
        True,
        fallback,
        played,
        returned,
        measured,
        (ViewTable(), 0),
        counts.get,
        helpers_back,
        pile=pile,
        kept=kept,
    )


def test_a_correct_run_passes_every_check() -> None:
    run = check([[CARD("green2")], [CARD("yellow3")], [CARD("green3"), CARD("blue5")]], CARD("red1"))
    assert (
        run.played == CARD("red1") and run.checks == 6 and run.expected == {"shuffles": 4, "helper_cards": 10}
    )


@pytest.mark.parametrize(
    ("returned", "played", "options", "message"),
    [
        pytest.param(
            [[CARD("red1"), CARD("green2")], [CARD("yellow3")], [CARD("blue5"), CARD("green3")]],
            None,
            {},
            "reported no valid card, but R1 is valid",
            id="no card though one is valid",
        ),
        pytest.param(
            [[CARD("red1")], [CARD("yellow3")], [CARD("blue5"), CARD("green3")]],
            CARD("green2"),
            {},
            "played G2, which is not a valid card of the hand",
            id="an invalid card",
        ),
        pytest.param(
            [[CARD("green2")], [CARD("green3")], [CARD("blue5"), CARD("yellow3")]],
            CARD("red1"),
            {},
            "owner 2 got back ['G3'] instead of ['Y3']",
            id="a card to the wrong owner",
        ),
        pytest.param(
            [[CARD("green2")], [CARD("yellow3")]],
            CARD("red1"),
            {},
            "cards were created or lost",
            id="an owner's cards lost",
        ),
        pytest.param(
            [[CARD("green2")], [CARD("yellow3")], [CARD("blue5"), CARD("green3")]],
            CARD("red1"),
            {"helpers_back": False},
            "helper cards were not all returned to the supply",
            id="a helper card kept",
        ),
        pytest.param(
            [[CARD("green2")], [CARD("yellow3")], [CARD("blue5"), CARD("green3")]],
            CARD("red1"),
            {"measured": (3, 10)},
            "used 3 shuffles, the paper says 4",
            id="a shuffle left out",
        ),
        pytest.param(
            [[CARD("green2")], [CARD("yellow3")], [CARD("blue5"), CARD("green3")]],
            CARD("red1"),
            {"measured": (4, 11)},
            "used 11 helper cards, the paper says 10",
            id="a helper card too many",
        ),
        pytest.param(
            [[CARD("green2"), CARD("blue5")], [CARD("yellow3")], [CARD("green3")]],
            CARD("red1"),
            {"pile": 2, "kept": CARD("blue5")},
            "drew B5, but the hand held a valid card",
            id="a draw with a valid card in hand",
        ),
        pytest.param(
            [[CARD("green2"), CARD("blue5")], [CARD("yellow3")], [CARD("green3")]],
            CARD("red1"),
            {"kept": CARD("blue5")},
            "kept B5, but this run draws no card",
            id="a card kept without the draw rule",
        ),
    ],
)
def test_each_check_catches_a_broken_run(
    returned: list[list[Symbol]], played: Symbol | None, options: dict[str, Any], message: str
) -> None:
    with pytest.raises(CheckFailure) as info:
        check(returned, played, **options)
    assert info.value.format_message() == f"turn 7: {message}"


NO_VALID = [[CARD("green2")], [CARD("yellow3")], [CARD("blue5"), CARD("green3")]]


@pytest.mark.parametrize(
    ("returned", "played", "kept", "message"),
    [
        pytest.param(
            NO_VALID,
            None,
            None,
            "no valid card in the hand, but drew no card from the draw pile",
            id="no draw",
        ),
        pytest.param(
            [[CARD("green2"), CARD("yellow3")], [], NO_VALID[2]],
            None,
            CARD("yellow3"),
            "drew Y3, which is not a card of the draw pile",
            id="not the pile's",
        ),
        pytest.param(
            [[CARD("green2"), CARD("blue5")], [CARD("yellow3")], [CARD("green3")]],
            None,
            CARD("blue5"),
            "kept the drawn card B5, which is valid",
            id="a valid card kept",
        ),
        pytest.param(
            [[CARD("green2")], [CARD("yellow3")], [CARD("blue5")]],
            CARD("green3"),
            None,
            "played the drawn card G3, which is not valid",
            id="an invalid card played",
        ),
        pytest.param(
            [[CARD("green2"), CARD("green3")], [CARD("yellow3")], []],
            CARD("blue5"),
            CARD("green3"),
            "both played B5 and kept G3",
            id="both",
        ),
    ],
)
def test_the_draw_rule_checks_catch_a_broken_run(
    returned: list[list[Symbol]], played: Symbol | None, kept: Symbol | None, message: str
) -> None:
    table = [[CARD("green2")], [CARD("yellow3")], [CARD("blue5"), CARD("green3")]]
    with pytest.raises(CheckFailure) as info:
        check(returned, played, table=table, pile=2, kept=kept)
    assert info.value.format_message() == f"turn 7: {message}"


def test_the_original_lottery_plays_some_card_without_a_valid_one() -> None:
    table = [[CARD("green2")], [CARD("yellow3")], [CARD("blue5"), CARD("green3")]]
    with pytest.raises(CheckFailure, match="with no valid card any card of the hand is played"):
        check(table, None, table=table, fallback=True)
    assert check([[], *table[1:]], CARD("green2"), table=table, fallback=True).played == CARD("green2")


# -- a run's set-up -----------------------------------------------------------------------


def full_table(seed: int) -> list[list[Symbol]]:
    deck = RULES.deck()
    random.Random(seed).shuffle(deck)
    return [deck[0:7], deck[7:14], deck[14:21], deck[21:28], deck[28:107]]


def test_the_paper_counts_are_kept_per_protocol_and_parameters(library: Library) -> None:
    proto = library.protocol("card-selection-arrow")
    cache = CallCache(engine="compiled", counts={})  # its own table (else the process's, shared)
    for seed in (1, 2):
        run = run_selection(library, proto, full_table(seed), valid, random.Random(seed), cache, "turn 1")
        assert run.expected == {"shuffles": run.shuffles} and run.shuffles == 2 + 3  # k_1 = 7: 3 rounds
    # Kept by the item of the parameters it reads (k_1 = sizes[1]), not by all of them.
    (key,) = [k for k in cache.counts if len(k) == 3]  # (protocol, count, the values it reads)
    assert key[1:] == ("shuffles", (("item", 1, 7),)) and cache.counts[key] == (proto, 5)
    reads = cache.counts[(id(proto), "shuffles")]
    assert reads[:2] == (proto, False) and reads[3] == (("sizes", 1),)  # it reads no game function
    other = full_table(4)
    other[1] = other[1][:3]  # other sizes, the same k_1: the kept count
    run = run_selection(library, proto, other, valid, random.Random(4), cache, "turn 2")
    assert run.expected == {"shuffles": 5} and len([k for k in cache.counts if len(k) == 3]) == 1
    smaller = full_table(3)
    smaller[0] = smaller[0][:2]
    run = run_selection(library, proto, smaller, valid, random.Random(3), cache, "turn 3")
    assert run.expected == {"shuffles": 2 + 1} and len([k for k in cache.counts if len(k) == 3]) == 2


def test_a_paper_count_that_reads_the_game_is_asked_every_run(variant: Callable[..., Library]) -> None:
    quoted = 'value: "2 + len([n for n in [1, 2, 4, 8, 16, 32, 64, 128] if n < sizes[1]])"'
    lib = variant(
        "card-selection-arrow", (quoted, quoted.replace('"2 +', '"(valid(0) if 1 == 2 else 0) + 2 +'))
    )
    proto = lib.protocol("card-selection-arrow")
    cache = CallCache(engine="compiled", counts={})  # its own table (else the process's, shared)
    for seed in (1, 2):
        run = run_selection(lib, proto, full_table(seed), valid, random.Random(seed), cache, "turn 1")
        assert run.expected == {"shuffles": 5}
    (only,) = cache.counts  # it reads the game: no value kept
    assert only == (id(proto), "shuffles") and cache.counts[only][:2] == (proto, True)


def test_the_initial_table_holds_each_card_face_down(library: Library) -> None:
    proto = library.protocol("card-selection-arrow")
    table = full_table(4)
    row = [c for o in table for c in o]
    frame = Frame(proto, proto.resolve_params({"sizes": tuple(map(len, table))}))
    state = frame.initial_state({"cards": row})
    assert state.cells == tuple(code(c) for c in row)
    assert state == frame.state_from_codes((tuple(c for v in row for c in frame.encoded("card", v)),))
    with pytest.raises(EvalError, match="encodes a card, not 3"):
        frame.initial_state({"cards": [*row[:-1], 3]})
    with pytest.raises(EvalError, match="needs 107 values, got 106"):
        frame.initial_state({"cards": row[:-1]})


def test_an_encoding_outliving_its_frame_says_so(library: Library) -> None:
    proto = library.protocol("card-selection-arrow")
    frame = Frame(proto, proto.resolve_params({}))
    scope = frame.globals
    arrow = scope.functions["arrow"]
    assert [s.name for s in arrow(scope, 1).symbols] == ["up"]
    del frame
    gc.collect()
    with pytest.raises(EvalError, match="encoding arrow: used after its protocol's run ended"):
        arrow(scope, 0)


@pytest.mark.parametrize("engine", ["compiled", "interpreter"])
def test_a_run_leaves_no_cycle_of_its_own_for_the_garbage_collector(library: Library, engine: str) -> None:
    """A card-level game runs the protocol at every turn: a run's runner, frame and (compiled)
    table must be freed when it ends, not left in cycles that only full collections free."""
    proto = library.protocol("card-selection-arrow")
    cache = CallCache(engine=engine)
    run_selection(library, proto, full_table(5), valid, random.Random(5), cache, "turn 1")
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        run_selection(library, proto, full_table(5), valid, random.Random(5), cache, "turn 2")
        gc.collect()
        left = [
            type(o).__name__ for o in gc.garbage if isinstance(o, (Runner, Shared, Frame, Run, FastEvaluator))
        ]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert left == []


def varied_table(seed: int) -> list[list[Symbol]]:
    """Four hands of 1-9 cards and the draw pile, dealt from a shuffled deck."""
    deck = RULES.deck()
    rng = random.Random(seed)
    rng.shuffle(deck)
    out = []
    for n in [rng.randint(1, 9) for _ in range(4)]:
        out.append(deck[:n])
        del deck[:n]
    return [*out, deck]


@pytest.mark.parametrize("engine", ["compiled", "interpreter"])
def test_runs_leave_no_reference_cycle_at_all(library: Library, engine: str) -> None:
    """Nothing a run makes is freed only by the cyclic collector (issue 37: a draft and its
    grids, a counter remembering itself as its own next value were cycles at every turn): on
    tables of every hand size, once the first runs compiled what they meet, a run's garbage
    is all freed by reference counting."""
    proto = library.protocol("card-selection-arrow")
    cache = CallCache(engine=engine)
    for _ in range(2):
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            for seed in range(6):
                table = varied_table(seed)
                run_selection(library, proto, table, valid, random.Random(seed), cache, "turn")
            gc.collect()
            left = sorted({type(o).__name__ for o in gc.garbage})
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
    assert left == []


@pytest.mark.parametrize("engine", ["compiled", "interpreter"])
def test_the_cyclic_collector_waits_for_the_end_of_a_run(library: Library, engine: str) -> None:
    seen: list[bool] = []

    def watching(card: Any) -> bool:
        seen.append(gc.isenabled())
        return valid(card)

    assert gc.isenabled()
    proto = library.protocol("card-selection-arrow")
    run_selection(
        library, proto, full_table(6), watching, random.Random(6), CallCache(engine=engine), "turn 1"
    )
    # Step 6 asks about every card of the table during the run (paused): the interpreter about
    # each of the 107, the compiled engine once per face (compiled/arrows.py: the table's 54
    # faces); the checks after the run ask about P_1's (not paused).
    asked = 107 if engine == "interpreter" else 54
    assert seen.count(False) >= asked and seen[0] is False and seen[-1] is True and gc.isenabled()


def finished_run(library: Library, lib: Library | None = None) -> tuple[Runner, Frame, Any]:
    """A runner, frame and final table of one compiled run of card-selection-arrow."""
    use = lib or library
    proto = use.protocol("card-selection-arrow")
    table = full_table(7)
    runner = Runner(use, "sample", rng=random.Random(7), context={"valid": valid})
    frame = runner.frame(proto, proto.resolve_params({"sizes": tuple(map(len, table))}))
    state, engine, _ = run_single(
        runner, frame, frame.initial_state({"cards": [c for o in table for c in o]}), "compiled"
    )
    assert engine == "compiled"
    return runner, frame, state


def test_outputs_a_game_does_not_read_are_checked_not_decoded(library: Library) -> None:
    runner, frame, state = finished_run(library)
    every = read_outputs(runner, frame, state)
    some = read_outputs(runner, frame, state, only=("played", "kept"))
    assert set(every) == {"played", "kept", "found", "drew", "hands"} and len(every["hands"]) == 5
    # found (exists('played')) and drew (a variable the run set) cannot fail: not read at all.
    assert some == {k: v for k, v in every.items() if k in ("played", "kept")}


def test_an_output_not_read_still_fails_a_broken_run(
    variant: Callable[..., Library], library: Library
) -> None:
    lib = variant(
        "card-selection-arrow",
        (
            'cards: "[hand(i) for i in 1..len(sizes)]"',
            'cards: "[hand(i) for i in 1..len(sizes) // (draw - draw)]"',
        ),
    )
    runner, frame, state = finished_run(library, lib)
    with pytest.raises(SimulationError, match="output hands"):
        read_outputs(runner, frame, state, only=("played", "kept"))


def test_a_runs_observations_are_what_the_table_saw(library: Library) -> None:
    proto = library.protocol("card-selection-arrow")
    cache = CallCache(engine="compiled")
    run = run_selection(library, proto, full_table(8), valid, random.Random(8), cache, "turn 1")
    seen = run.observations
    assert seen and seen == cache.views.expanded(run.view[1]) and run.observations is seen
    assert any(obs[0] == "call" and isinstance(obs[2], list) for obs in seen)  # the lottery's own view
    again = run_selection(
        library, proto, full_table(8), valid, random.Random(8), CallCache(engine="interpreter"), "turn 1"
    )
    assert again.observations == seen


@pytest.mark.parametrize("seed", range(4))
def test_no_broken_run_with_a_hand_for_every_owner_passes_having_created_or_lost_a_card(seed: int) -> None:
    """Attack (round 3) on the created-or-lost check, run only when the number of hands
    returned differs: random tables (few faces, so duplicates are common), random results
    (hands shuffled, cards moved, dropped, doubled, played, kept, drawn, with and without the
    draw pile and the fallback): every result the other checks let through keeps every card."""
    rng = random.Random(seed)
    faces = [CARD(n) for n in ("red1", "red5", "green2", "yellow3", "blue5", "green3", "wild")]
    passed = 0
    for _ in range(3000):
        table = [[rng.choice(faces) for _ in range(rng.randrange(0, 4))] for _ in range(rng.randrange(1, 4))]
        every = [c for o in table for c in o]
        returned = [list(o) for o in table]
        played = kept = None
        if rng.random() < 0.7 and table[0]:
            played = rng.choice(table[0] if rng.random() < 0.8 else every)
            if played in returned[0] and rng.random() < 0.8:
                returned[0].remove(played)
        pile = rng.randrange(len(table)) if rng.random() < 0.4 else None
        if pile is not None and rng.random() < 0.5 and table[pile]:
            got = rng.choice(table[pile])
            if rng.random() < 0.5:
                played, kept = got, None
            else:
                played, kept = None, got
                returned[0].append(got)
            if got in returned[pile] and rng.random() < 0.8:
                returned[pile].remove(got)
        for _ in range(rng.randrange(0, 3)):  # damage: move, drop or double a card
            src, dst = rng.randrange(len(returned)), rng.randrange(len(returned))
            if returned[src]:
                card = returned[src].pop(rng.randrange(len(returned[src])))
                what = rng.random()
                if what < 0.4:
                    returned[dst].append(card)
                elif what < 0.7:
                    returned[src].extend([card, card])
        fallback = rng.random() < 0.3
        try:
            _checked(
                PROTO,
                table,
                valid,
                "turn 7",
                False,
                fallback,
                played,
                returned,
                (4, 10),
                (ViewTable(), 0),
                {}.get,
                True,
                pile=pile,
                kept=kept,
            )
        except CheckFailure:
            continue
        passed += 1
        back = sorted(c.name for c in [c for r in returned for c in r] + ([played] if played else []))
        assert back == sorted(c.name for c in every), (table, returned, played, kept, pile)
    assert passed > 300  # enough results got through the other checks to mean something


PROTO = Library().protocol("card-selection-arrow")


@pytest.mark.parametrize("engine", ["compiled", "interpreter"])
def test_the_cyclic_collector_is_back_on_after_a_run_that_raises(library: Library, engine: str) -> None:
    """Attack (round 3): a game function that raises in the middle of a run (the collector
    paused): the error comes out as it is and the collector is on again; one already off
    stays off."""

    class Boom(Exception):
        pass

    calls: list[bool] = []

    def failing(card: Any) -> bool:
        calls.append(gc.isenabled())
        if len(calls) > 20:
            raise Boom()
        return valid(card)

    proto = library.protocol("card-selection-arrow")
    for was in (True, False):
        calls.clear()
        gc.enable() if was else gc.disable()
        try:
            with pytest.raises(Boom):
                run_selection(
                    library,
                    proto,
                    full_table(6),
                    failing,
                    random.Random(6),
                    CallCache(engine=engine),
                    "turn 1",
                )
            assert gc.isenabled() is was and calls and not any(calls)
        finally:
            gc.enable()


def test_a_compiled_run_reads_its_outputs_as_the_interpreter_does(
    variant: Callable[..., Library], library: Library
) -> None:
    """The compiled path reads a finished run's outputs with its fast functions (program.py's
    outputs_evaluator): the same values, and the same error where an output fails."""
    from reference_engine.compiled import evaluate
    from reference_engine.compiled.program import outputs_evaluator

    runner, frame, state = finished_run(library)
    fast = outputs_evaluator(runner, frame, state)
    assert fast is not None
    evaluate.CHECKED = True  # every fast value compared with the interpreter's as it is read
    try:
        assert read_outputs(runner, frame, state, ev=fast) == read_outputs(runner, frame, state)
        assert read_outputs(runner, frame, state, only=("played", "kept"), ev=fast) == read_outputs(
            runner, frame, state, only=("played", "kept")
        )
    finally:
        evaluate.CHECKED = False
    broken = variant(
        "card-selection-arrow",
        ("value: \"exists('played')\"", "value: \"exists('played') and sizes[9] > 0\""),
        (
            'cards: "[hand(i) for i in 1..len(sizes)]"',
            'cards: "[hand(i) for i in 1..len(sizes) // (draw - draw)]"',
        ),
    )
    runner, frame, state = finished_run(library, broken)
    fast = outputs_evaluator(runner, frame, state)
    with pytest.raises(SimulationError) as slow_error:
        read_outputs(runner, frame, state, only=("played", "kept"))
    with pytest.raises(SimulationError) as fast_error:
        read_outputs(runner, frame, state, only=("played", "kept"), ev=fast)
    assert str(fast_error.value) == str(slow_error.value) and "output found" in str(fast_error.value)


def test_a_paper_count_is_the_same_through_the_fast_function(
    variant: Callable[..., Library], library: Library
) -> None:
    """expect_value gives what the interpreter gives the expect value, for every protocol with
    one and every table size, and its error where it fails."""
    from reference_engine.compiled.program import expect_value

    checked = 0
    for name in library.names():
        proto = library.protocol(name)
        for exp in proto.expect.values():
            if exp.value is None or "sizes" not in proto.params:
                continue
            for sizes in ((1, 0, 3), (7, 7, 7, 7, 79), (0, 2, 2), (129, 1, 1)):
                frame = Frame(proto, proto.resolve_params({"sizes": sizes}))
                try:
                    want: Any = exp.value(frame.globals)
                except EvalError as exc:
                    want = ("error", str(exc))
                try:
                    got: Any = expect_value(library, frame, exp.value)
                except EvalError as exc:
                    got = ("error", str(exc))
                assert got == want and type(got) is type(want), (name, sizes)
                checked += 1
    assert checked >= 8
    quoted = 'value: "2 + len([n for n in [1, 2, 4, 8, 16, 32, 64, 128] if n < sizes[1]])"'
    lib = variant("card-selection-arrow", (quoted, quoted.replace("sizes[1]", "sizes[9]")))
    proto = lib.protocol("card-selection-arrow")
    frame = Frame(proto, proto.resolve_params({"sizes": (2, 1, 2)}))
    with pytest.raises(EvalError) as slow_error:
        proto.expect["shuffles"].value(frame.globals)  # type: ignore[misc]
    with pytest.raises(EvalError) as fast_error:
        expect_value(lib, frame, proto.expect["shuffles"].value)  # type: ignore[arg-type]
    assert str(fast_error.value) == str(slow_error.value)


def test_faces_compare_by_name_whatever_their_ids() -> None:
    """_same_faces compares by id first, then by name: a card made outside the symbol table with
    a table card's name (another id) is the same face; another name with the same id is not."""
    from reference_engine.selection import _same_faces

    red1, green2 = CARD("red1"), CARD("green2")
    outsider = Symbol("red1", "R1", 10_000)  # the name of red1, another id
    impostor = Symbol("not-red1", "R1", red1.id)  # red1's id, another name
    assert _same_faces([red1, green2], [green2, red1])
    assert _same_faces([red1, green2], [green2, outsider])
    assert not _same_faces([red1, green2], [green2, impostor])
    assert not _same_faces([red1], [red1, red1]) and not _same_faces([red1, red1], [red1, green2])


def test_the_played_card_leaves_the_expected_hand_by_identity_or_else_by_equality() -> None:
    """run_selection's check removes the card played from P_1's expected hand: the identical
    card when the hand holds it (a game's cards are interned), else the first equal one, as
    ``list.remove`` does; a card not there is an error as before."""
    from reference_engine.cards import SYMBOLS
    from reference_engine.selection import _remove

    a = SYMBOLS.intern("remove_a")
    twin = Symbol(a.name, a.glyph, a.id)  # equal to a, not the table's own object
    hand = [twin, a, a]
    _remove(hand, a)
    assert len(hand) == 2 and hand[0] is twin and hand[1] is a
    hand = [twin]
    _remove(hand, a)
    assert hand == []
    with pytest.raises(ValueError):
        _remove([SYMBOLS.intern("remove_b")], a)


def test_param_reads_names_the_parameters_and_items_an_expect_value_reads() -> None:
    from reference_engine.expressions import parse
    from reference_engine.selection import param_reads

    params = frozenset({"sizes", "draw"})
    cases = {
        "2 + len([n for n in [1, 2, 4] if n < sizes[1]])": (("sizes", 1),),
        "sizes[1] + len(sizes)": (("sizes", None),),  # the whole value: its items are not keyed
        "sizes[2] * 10 + sizes[1] + draw": (("draw", None), ("sizes", 1), ("sizes", 2)),
        "sizes[-1]": (("sizes", None),),  # an index that is not a written whole number
        "sizes[draw]": (("draw", None), ("sizes", None)),
        "3": (),
        "[sizes for sizes in [1, 2]]": None,  # a variable shadows a parameter: every parameter
        # Hostile forms (w37-attack6): every node kind that can hold a read, nested.
        "len([[m for m in [1] if m < sizes[1]] for n in [1, 2]])": (("sizes", 1),),
        "len([[sizes for sizes in [1]] for n in [1]])": None,  # shadowed in an inner comprehension
        "len([n for n in 1..sizes[2]])": (("sizes", 2),),
        "sizes[1] if draw else 0": (("draw", None), ("sizes", 1)),
        "0 < sizes[1] <= 3": (("sizes", 1),),
        "not sizes[1]": (("sizes", 1),),
        "-sizes[1]": (("sizes", 1),),
        "sizes[1..2]": (("sizes", None),),  # a range of items: the whole value
        "sizes[1][1]": (("sizes", 1),),  # an item's item follows from the item
        "sizes[true]": (("sizes", None),),  # a flag is not a written whole number
        "sizes[1, 1]": (("sizes", None),),
        "sizes.x": (("sizes", None),),
    }
    for text, reads in cases.items():
        assert param_reads(parse(text).node, params) == reads, text


def test_param_reads_leaves_no_reference_cycle() -> None:
    """Asked once per game (a game's CallCache), param_reads must leave nothing for the cyclic
    collector: a card-level game runs with the collector paused and its promotion assumes the
    game makes no cycle (collector.py). Its walk was a closure calling itself: 8 objects a game."""
    import gc

    from reference_engine.expressions import parse
    from reference_engine.selection import param_reads

    node = parse("2 + len([n for n in [1, 2, 4] if n < sizes[1]]) + draw").node
    gc.collect()
    gc.disable()
    try:
        for _ in range(3):
            assert param_reads(node, frozenset({"sizes", "draw"})) == (("draw", None), ("sizes", 1))
        assert gc.collect() == 0
    finally:
        gc.enable()


@pytest.mark.parametrize(
    "text",
    [
        "sizes[2] * 100 + sizes[1] * 10 + draw",
        "len([n for n in [1, 2, 4, 8] if n < sizes[1]]) + len(sizes)",
        "sizes[1] + sizes[0]",  # an index outside 1..n: an error every time, never kept
        "len([sizes for sizes in [1, 2]]) + sizes[1] + sizes[3]",
    ],
)
def test_the_paper_counts_kept_by_what_they_read_equal_the_interpreters_every_time(
    library: Library, text: str
) -> None:
    """A game's turns share an ``expect`` value kept by the parameter items it reads; hostile
    values (reading two items, a flag, the whole list, an index that fails, a shadowing
    variable) must still give the interpreter's value (or its error) on every table."""
    import copy

    from reference_engine.declarations import ExpectDecl
    from reference_engine.errors import EvalError
    from reference_engine.expressions import parse
    from reference_engine.machine import Runner
    from reference_engine.selection import CallCache, _paper_count

    proto = copy.copy(library.protocol("card-selection-arrow"))
    proto.expect = {"shuffles": ExpectDecl("shuffles", parse(text), {}, "a hostile count", ("expect",))}
    cache = CallCache()
    rng = random.Random(5)
    runner = Runner(library, "sample", rng=rng, context={"valid": lambda c: True})
    for _ in range(60):
        sizes = tuple(rng.randrange(1, 4) for _ in range(rng.choice([3, 4])))
        frame = runner.frame(proto, proto.resolve_params({"sizes": sizes, "draw": rng.randrange(2)}))
        try:
            want = proto.expect["shuffles"].value(frame.globals)
        except EvalError as exc:
            with pytest.raises(EvalError, match=str(exc)[:20]):
                _paper_count(cache, proto, frame, "shuffles", library)
            continue
        for lib in (library, None):  # the compiled function, then the interpreter's
            assert _paper_count(cache, proto, frame, "shuffles", lib) == want, (sizes, frame.params)
