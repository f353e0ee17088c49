"""What a game's function (``valid(M[1, j])``, supplied through ``context:``) is given, on both
engines: the same plain value (machine/frame.py ``game_argument``): the face for one card, the
list of faces for several, the same error, with the same message, for a card face down or hidden
in a sleeve (the game is then never asked). Every shipped protocol that calls a game's function,
and mutants of them."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

folder = str(Path(__file__).parent)
if folder not in sys.path:
    sys.path.insert(0, folder)

import runs  # noqa: E402
from test_arrows import ARROWS, _assignments, _library  # noqa: E402
from test_differential import _assignments as _shipped_assignments  # noqa: E402

from reference_engine.cards import SYMBOLS, Symbol  # noqa: E402
from reference_engine.compiled import Program, program_for  # noqa: E402
from reference_engine.errors import EvalError, KitgenError  # noqa: E402
from reference_engine.kinds.virtual import one_card  # noqa: E402
from reference_engine.machine import ONE, Runner  # noqa: E402
from reference_engine.machine.frame import game_argument  # noqa: E402
from reference_engine.registry import Library, rulesets_dir  # noqa: E402
from reference_engine.selection import ENGINE  # noqa: E402
from reference_engine.table import LeakError  # noqa: E402

CALLING = [name for name in Library().names() if Library().protocol(name).context]

Seen = dict[tuple[str, str], None]


def _recording(functions: dict[str, Any], seen: Seen) -> dict[str, Any]:
    """The game's functions, each recording the type and repr of every argument it is given."""

    def wrap(fn: Any) -> Any:
        def record(*args: Any) -> Any:
            for a in args:
                seen[(type(a).__name__, repr(a))] = None
            return fn(*args)

        return record

    return {name: wrap(fn) for name, fn in functions.items()}


def _run(library: Library, name: str, params: Any, values: Any, seed: int, engine: str, ctx: Any) -> Any:
    """One run on ``engine`` (the compiled one not checked against the interpreter: only its own
    calls of the game's functions are recorded); how it ended."""
    proto = library.protocol(name)
    runner = Runner(library, "sample", rng=random.Random(seed), context=ctx)
    frame = runner.frame(proto, params)
    runner.limits = frame.helpers
    state = frame.initial_state(values)
    token = ENGINE.set(engine)
    try:
        if engine == "compiled":
            program = program_for(library, proto)
            assert isinstance(program, Program), program
            program.run(runner, frame, state)
        else:
            runner.run(frame, {state: ONE})
    except KitgenError as exc:
        return (type(exc).__name__, str(exc))
    finally:
        ENGINE.reset(token)
    return "ran"


def _both(library: Library, name: str, params: Any, assignments: Any, context: Any, seeds: int = 2) -> Any:
    """Per engine: every argument the game's functions were given (type and repr, in the order
    first given) and how each run ended."""
    out = {}
    for engine in ("interpreter", "compiled"):
        seen: Seen = {}
        ctx = _recording(context, seen)
        ends = [_run(library, name, params, v, s, engine, ctx) for v in assignments for s in range(seeds)]
        out[engine] = (list(seen), ends)
    return out


@pytest.mark.parametrize("name", CALLING)
def test_a_shipped_protocols_game_functions_are_given_the_same_on_both_engines(name: str) -> None:
    library = Library()
    st, assignments = _shipped_assignments(library, name, 4)
    assert st.context, name
    got = _both(library, name, st.params, assignments, st.context)
    assert got["interpreter"] == got["compiled"], name
    args, ends = got["interpreter"]
    assert args and all(t == "Symbol" for t, _ in args), args  # the face of one card
    assert set(ends) == {"ran"}, ends


def _arrow_mutant(tmp: Path, old: str, new: str) -> Library:
    text = (rulesets_dir() / "protocols" / "card-selection-arrow.yaml").read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    text = text.replace(old, new).replace("protocol: card-selection-arrow", "protocol: arrow-mutant", 1)
    (tmp / "arrow-mutant.yaml").write_text(text, encoding="utf-8")
    return Library([tmp, rulesets_dir() / "protocols"])


@pytest.mark.parametrize(
    ("mutant", "old", "new", "why"),
    [
        # the mini spec with its row never turned up
        ("face-down", '      - turn: "M[1, *]"\n', "", "M[1] is face down: a decision may only use face-up"),
        # the arrow protocol with its sleeves left lying back up
        ("hidden", "      - sleeve: {M: front}\n", "", "M[1, 1] is in a sleeve lying back up: a decision"),
    ],
)
def test_a_card_the_table_does_not_show_is_refused_alike_before_the_game_is_asked(
    tmp_path: Path, mutant: str, old: str, new: str, why: str
) -> None:
    if mutant == "hidden":
        library, name = _arrow_mutant(tmp_path, old, new), "arrow-mutant"
        st, assignments = _shipped_assignments(Library(), "card-selection-arrow", 3)
        params, context = st.params, st.context
    else:
        assert ARROWS.count(old) == 1
        library, name = _library(tmp_path, ARROWS.replace(old, new)), "arrows-mini"
        st, assignments = _assignments(library, name, 3)
        params, context = st.params, {"valid": lambda card: True}
    got = _both(library, name, params, assignments, context)
    assert got["interpreter"] == got["compiled"], mutant
    args, ends = got["interpreter"]
    assert args == [], args  # never asked
    assert ends and all(e[0] == "SimulationError" and why in e[1] for e in ends), ends


@pytest.mark.parametrize(
    ("mutant", "old", "new", "given"),
    [
        # several places: the list of their faces
        ("the-row", "valid(M[1, j])", "valid(M[1, *])", "list"),
        # a list of places: the list of their faces
        ("a-list", "valid(M[1, j])", "valid([M[1, j], M[1, 1]])", "list"),
        # a place through a variable (a pile of one card: its face)
        (
            "a-variable",
            "valid(M[1, j]) else arrow(0) for j in 1..ncols(M)",
            "valid(c) else arrow(0) for c in cards(M[1, *])",
            "Symbol",
        ),
        # one place given by a range of one column
        ("a-range", "valid(M[1, j])", "valid(M[1, j..j])", "Symbol"),
        # a plain value passes as it is
        ("a-number", "valid(M[1, j])", "valid(j)", "int"),
    ],
)
def test_other_arguments_are_given_the_same_on_both_engines(
    tmp_path: Path, mutant: str, old: str, new: str, given: str
) -> None:
    assert ARROWS.count(old) == 1, mutant
    library = _library(tmp_path, ARROWS.replace(old, new))
    st, assignments = _assignments(library, "arrows-mini", 3)
    got = _both(library, "arrows-mini", st.params, assignments, {"valid": lambda card: True})
    assert got["interpreter"] == got["compiled"], mutant
    args, ends = got["interpreter"]
    assert ends and set(ends) == {"ran"}, ends
    assert args and {t for t, _ in args} == {given}, args
    if given == "list":
        assert all(r.startswith("[Symbol(") for _, r in args), args
    # and the run itself decides the same (table, outputs, random numbers, errors)
    context = {"valid": lambda card: repr(card) < "Symbol('k4')"}
    proto = library.protocol("arrows-mini")
    assert not runs.differences(library, proto, st.params, assignments, range(2), context)


def test_one_card_reads_the_argument_either_way(tmp_path: Path) -> None:
    """A game written for a place (``one_card``) or for the face reads the same card; one_card of
    several cards is refused with the same message as before."""
    a, b = SYMBOLS.intern("k1", "#1"), SYMBOLS.intern("k2", "#2")
    assert one_card(game_argument(a)) is a and game_argument([a, b]) == [a, b]
    with pytest.raises(EvalError, match="valid\\(\\) takes one card"):
        one_card(game_argument([a, b]))
    library = _library(tmp_path, ARROWS)
    st, assignments = _assignments(library, "arrows-mini", 2)
    asked: dict[str, list[Symbol]] = {}
    for engine in ("interpreter", "compiled"):
        got = asked[engine] = []

        def valid(card: Any, got: list[Symbol] = got) -> bool:
            got.append(one_card(card))
            return type(card) is Symbol and card is got[-1]

        _run(library, "arrows-mini", st.params, assignments[0], 0, engine, {"valid": valid})
    assert asked["interpreter"] and set(asked["interpreter"]) == set(asked["compiled"])


def test_an_empty_place_is_given_as_none_and_a_leak_error_is_an_eval_error() -> None:
    assert issubclass(LeakError, EvalError)
    assert game_argument([None, 3]) == [None, 3]
