"""A row of a game's answers laid out at once (compiled/arrows.py): both engines run for run,
the answers of every kind, a game's function that raises, the row's cards face down or read
through a variable, near-miss expressions left to the general path."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

folder = str(Path(__file__).parent)
if folder not in sys.path:
    sys.path.insert(0, folder)

import runs  # noqa: E402
from test_differential import _drawn  # noqa: E402

from reference_engine import steps as st_  # noqa: E402
from reference_engine.compiled import Program, arrows, program_for  # noqa: E402
from reference_engine.compiled.evaluate import Expr  # noqa: E402
from reference_engine.errors import EvalError  # noqa: E402
from reference_engine.kinds.virtual import one_card  # noqa: E402
from reference_engine.machine import ONE, Runner  # noqa: E402
from reference_engine.registry import Library, rulesets_dir  # noqa: E402

ARROWS = """\
protocol: arrows-mini
title: An arrow under each card, by a game's answer
summary: >-
  An arrow under each face-up card, up where the game's function says yes (a test of the
  compiled path).
source:
  cite: "kitgen tests"
symbols:
  up: {glyph: "▲", rotated: down, doc: "pointing up"}
  down: {glyph: "▼", rotated: up, doc: "pointing down"}
  k: {family: true, glyph: "#{}", doc: "candidates"}
encodings:
  arrow:
    values: {0: [down], 1: [up]}
    doc: "one up-down card"
  card:
    label: k
    doc: a card
inputs:
  cards: {encoding: card, count: 6, doc: "cards"}
context:
  valid:
    doc: whether a card may be played
steps:
  - step: 1
    say: "Lay the cards out, face down, and mix them."
    place:
      M: [cards]
  - step: 2
    say: "Mix the columns, turn the cards up."
    do:
      - shuffle:
          scramble: "columns(M)"
      - turn: "M[1, *]"
  - step: 3
    say: "An arrow under each column."
    place:
      "M[2, *]": {columns: "[arrow(1) if valid(M[1, j]) else arrow(0) for j in 1..ncols(M)]"}
    face: up
  - step: 4
    say: "Count the arrows up, then mix the columns again."
    do:
      - let:
          n: "len([j for j in 1..ncols(M) if M[2, j] == up])"
      - shuffle:
          scramble: "columns(M)"
outputs:
  ups:
    value: "n"
    public: true
    doc: how many arrows point up
"""


def _library(tmp: Path, text: str) -> Library:
    (tmp / "arrows-mini.yaml").write_text(text, encoding="utf-8")
    return Library([tmp, rulesets_dir() / "protocols"])


def _answer(kind: str) -> Any:
    """A game's function of the card: answers of several kinds, or raising on one card."""
    table: dict[str, Any] = {
        "bools": {1: True, 2: False, 3: True, 4: False, 5: False, 6: True},
        "others": {1: 1, 2: 0, 3: [], 4: [0], 5: None, 6: "yes"},
        "none": dict.fromkeys(range(1, 7), False),
        "all": dict.fromkeys(range(1, 7), True),
    }.get(kind, {})

    def valid(card: Any) -> Any:
        n = int(one_card(card).name[1:])
        if kind == "raises" and n == 4:
            raise EvalError("valid() cannot tell #4")
        if kind == "crashes" and n == 2:
            raise ZeroDivisionError("a broken game")
        return table[n]

    return valid


def _assignments(library: Library, name: str, most: int) -> tuple[Any, list[dict[str, Any]]]:
    """No parameters, and ``most`` inputs drawn at random (the spec declares no scenario)."""
    proto = library.protocol(name)

    return SimpleNamespace(params={}), _drawn(Runner(library, "sample").frame(proto, {}), most)


def _compare(library: Library, kind: str, seeds: int = 3) -> tuple[Any, ...]:
    proto = library.protocol("arrows-mini")
    program = program_for(library, proto)
    assert isinstance(program, Program), program
    st, assignments = _assignments(library, "arrows-mini", 3)
    context = {"valid": _answer(kind)}
    found = runs.differences(library, proto, st.params, assignments, range(seeds), context)
    assert not found, "\n".join(found)
    return runs.single(library, proto, st.params, assignments[0], 0, "interpreter", context)


@pytest.fixture
def taken(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each call of the fast path laid the row out (True) or left it (False)."""
    seen: list[bool] = []
    call = arrows.ArrowRow.__call__

    def spy(self: Any, *args: Any) -> bool:
        got: bool = call(self, *args)
        seen.append(got)
        return got

    monkeypatch.setattr(arrows.ArrowRow, "__call__", spy)
    return seen


@pytest.mark.parametrize("kind", ["bools", "others", "none", "all", "raises", "crashes"])
def test_a_row_of_answers_runs_alike(tmp_path: Path, kind: str, taken: list[bool]) -> None:
    result = _compare(_library(tmp_path, ARROWS), kind)
    if kind in ("raises", "crashes"):
        assert result[0] != "ran", result[:3]  # both engines stop alike (compared above)
        assert taken and not any(taken)  # the general path said why
    else:
        assert result[0] == "ran", result[:3]
        assert result[8] == {"ups": {"bools": 3, "others": 3, "none": 0, "all": 6}[kind]}, result[8]
        assert taken and all(taken)


@pytest.mark.parametrize("kind", ["bools", "all", "none"])
def test_a_row_of_one_card_runs_alike(tmp_path: Path, kind: str, taken: list[bool]) -> None:
    """A row of one column: its answers are a tuple of one, as a longer row's (one itemgetter
    of one code would give the code's answer alone)."""
    text = ARROWS.replace("count: 6", "count: 1", 1)
    assert text != ARROWS
    result = _compare(_library(tmp_path, text), kind)
    assert result[0] == "ran", result[:3]
    assert taken and all(taken)


# name -> (text replaced, its replacement, whether the fast path still lays the row out)
MUTANTS = {
    "face-down": ('      - turn: "M[1, *]"\n', "", False),
    "half-face-up": ('      - turn: "M[1, *]"\n', '      - turn: "M[1, 1..3]"\n', False),
    "reads-the-column": ("arrow(1) if valid", "arrow(j % 2) if valid", None),
    "past-the-row": ("for j in 1..ncols(M)]", "for j in 1..ncols(M) + 1]", None),
    "from-two": ("for j in 1..ncols(M)]", "for j in 2..ncols(M)]", None),
    "two-cards": ("arrow(1) if valid", "[new(up), new(down)] if valid", False),
    "a-list": ("arrow(1) if valid", "[arrow(1)] if valid", False),
}


@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_a_near_miss_is_left_to_the_general_path_alike(
    tmp_path: Path, mutant: str, taken: list[bool]
) -> None:
    old, new, fast = MUTANTS[mutant]
    assert old in ARROWS, mutant
    text = ARROWS.replace(old, new, 1)
    library = _library(tmp_path, text)
    _compare(library, "bools")
    if fast is None:  # not the shape: never tried
        assert not taken
    else:
        assert taken and not any(taken)


def test_a_variable_named_as_the_region_is_read_as_the_variable(tmp_path: Path, taken: list[bool]) -> None:
    text = ARROWS.replace(
        '  - step: 3\n    say: "An arrow under each column."\n',
        '  - step: 3\n    say: "An arrow under each column."\n    let:\n      M: "[1, 2]"\n  - step: 3b\n'
        '    say: "An arrow."\n',
        1,
    )
    assert text != ARROWS
    _compare(_library(tmp_path, text), "bools")
    assert not any(taken)


def test_the_game_is_asked_once_a_card_in_the_rows_order(tmp_path: Path, taken: list[bool]) -> None:
    """The compiled run asks the game's function once per card of the row, in the order the
    row first shows each (the interpreter asks once a column): the first answer that raises is
    the interpreter's first; the spec's own step 6 is of the shape."""
    library = _library(tmp_path, ARROWS)
    proto = library.protocol("arrows-mini")
    st, assignments = _assignments(library, "arrows-mini", 3)
    for values in assignments:
        for seed in range(4):
            asked: dict[str, list[str]] = {"interpreter": [], "compiled": []}
            for engine, calls in asked.items():

                def valid(card: Any, calls: list[str] = calls) -> bool:
                    name = one_card(card).name
                    calls.append(name)
                    return name in ("k1", "k3")

                runner = Runner(library, "sample", rng=random.Random(seed), context={"valid": valid})
                frame = runner.frame(proto, st.params)
                state = frame.initial_state(values)
                if engine == "compiled":
                    program = program_for(library, proto)
                    assert isinstance(program, Program)
                    program.run(runner, frame, state)
                else:
                    runner.run(frame, {state: ONE})
            assert len(asked["interpreter"]) == 6
            assert asked["compiled"] == list(dict.fromkeys(asked["interpreter"])), asked
    assert taken and all(taken)
    arrow = Library().protocol("card-selection-arrow")
    step6 = next(s for s in arrow.steps if s.number == "6")
    assert isinstance(step6, st_.Place)
    assert arrows.ArrowRow.match(Expr(step6.targets[0][2], arrow)) is not None


def test_the_kept_answers_are_per_function_and_bounded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, taken: list[bool]
) -> None:
    """Attack: games whose functions answer differently for the same cards, one after another
    (each function's answers kept apart), more of them than the store keeps; a function marked
    fixed handed again is not asked again about a card it answered."""
    monkeypatch.setattr(arrows, "KEPT", 2)
    monkeypatch.setattr(arrows, "ANSWERS", {})
    library = _library(tmp_path, ARROWS)
    for kind in ("bools", "none", "all", "others", "bools"):
        _compare(library, kind, seeds=2)
        assert len(arrows.ANSWERS) <= 2
    assert taken and all(taken)
    asked: list[str] = []

    @arrows.fixed
    def valid(card: Any) -> bool:
        asked.append(one_card(card).name)
        return asked[-1] == "k2"

    proto = library.protocol("arrows-mini")
    st, assignments = _assignments(library, "arrows-mini", 3)
    program = program_for(library, proto)
    assert isinstance(program, Program)
    for values in assignments:
        for seed in range(3):
            runner = Runner(library, "sample", rng=random.Random(seed), context={"valid": valid})
            frame = runner.frame(proto, st.params)
            program.run(runner, frame, frame.initial_state(values))
    assert len(asked) == len(set(asked)), asked


def test_a_function_reading_a_live_game_is_asked_again_at_every_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, taken: list[bool]
) -> None:
    """Attack: one function object handed run after run while the game it reads moves on (a
    layout game's ``valid`` reads the live layout): each run lays out the arrows the game says
    now, on both engines alike, and nothing of an unmarked function is kept."""
    monkeypatch.setattr(arrows, "ANSWERS", {})
    library = _library(tmp_path, ARROWS)
    proto = library.protocol("arrows-mini")
    st, assignments = _assignments(library, "arrows-mini", 2)
    game = {"allowed": {"k1", "k2"}}

    def valid(card: Any) -> bool:
        return one_card(card).name in game["allowed"]

    for allowed in ({"k1", "k2"}, {"k3", "k4", "k5", "k6"}, set(), {"k1", "k2"}, {"k6"}):
        game["allowed"] = allowed
        for values in assignments:
            got = {
                engine: runs.single(library, proto, st.params, values, 1, engine, {"valid": valid})
                for engine in ("interpreter", "compiled")
            }
            assert got["compiled"] == got["interpreter"]
            assert got["compiled"][0] == "ran"
    assert taken and all(taken) and not arrows.ANSWERS


def _handed(
    rules: Any, library: Library, seed: int, **options: Any
) -> list[tuple[Any, tuple[Any, ...], frozenset[int]]]:
    """Every validity function a rule-level shedding game hands a virtual player, with the
    public state it was handed in and the ids of the deck's cards it allows then."""
    from reference_engine.kinds.shedding import Game

    cards = rules.distinct_cards()
    seen: list[tuple[Any, tuple[Any, ...], frozenset[int]]] = []

    def watch(game: Any, seat: int, valid: Any) -> bool:
        state = (game.top.id, game.color, game.seats[seat].virtual and game.bluff)
        seen.append((valid, state, frozenset(c.id for c in cards if valid(c))))
        return False

    Game(rules, library, players=4, virtual=4, level="rule", seed=seed, **options).run_until(watch)
    return seen


@pytest.mark.parametrize(
    ("name", "options"), [("uno", {}), ("uno-official", {"wild4": "bluff"}), ("crazy-eights", {})]
)
def test_a_shedding_game_hands_a_fixed_function_for_one_public_state(
    name: str, options: dict[str, Any]
) -> None:
    """The assumption the kept answers rest on, checked on whole games: a function marked fixed
    is handed for one public state only (top card, colour in force, bluffing) and allows the
    same cards every time it is handed; a rule that reads the hand is never marked. Fails if a
    game reuses a function object across public states, or marks one that reads the hand."""
    from reference_engine.kinds.shedding import load_rules

    library = Library()
    rules = load_rules(name)
    states: dict[int, tuple[Any, tuple[Any, ...], frozenset[int]]] = {}
    handed = 0
    for seed in range(3):
        for valid, state, allowed in _handed(rules, library, seed, **options):
            handed += 1
            rule = rules.bluff_valid if state[2] and rules.bluff_valid is not None else rules.valid
            marked = getattr(valid, arrows.FIXED, False) is True
            assert marked is not rule.uses("hand"), (name, state)
            if not marked:
                continue
            first = states.setdefault(id(valid), (valid, state, allowed))
            assert first[0] is valid  # kept alive: no id reused
            assert first[1] == state, f"{name}: one function handed for {first[1]} and {state}"
            assert first[2] == allowed
    assert handed > 20 and states  # the per-card rule was marked, and met again


def test_games_reading_a_live_table_are_not_marked_fixed() -> None:
    """A layout game's ``valid`` reads the layout as it grows (the object would answer
    differently later), so it is not marked; a shedding game's per-card one is."""
    from reference_engine.kinds.layout import load_layout
    from reference_engine.kinds.ruleset import rules_path
    from reference_engine.kinds.shedding import load_rules

    sevens = load_layout(rules_path("sevens"), "sevens")
    runs_: dict[str, tuple[int, int]] = {}
    valid = sevens.validity(runs_)
    first = sevens.symbol(sevens.first)
    assert valid(first)
    runs_["diamonds"] = (7, 7)
    assert not valid(first)  # the same object, another answer: must not be kept
    assert getattr(valid, arrows.FIXED, False) is False
    uno = load_rules("uno")
    top = uno.symbol("red5")
    assert getattr(uno.validity(top, "red"), arrows.FIXED, False) is True


def test_kept_answers_never_lay_out_a_row_face_down(tmp_path: Path, taken: list[bool]) -> None:
    """Attack: a function marked fixed has answered every card of the row face up; the same
    cards face down in a later run (the row's turn left out) are not laid out from those
    answers (only face-up cards are ever asked about): the general path runs, on both engines
    alike, for every run after the first, whichever was first."""
    up_first = _library(tmp_path, ARROWS)
    down = tmp_path / "down"
    down.mkdir()
    text = ARROWS.replace('      - turn: "M[1, *]"\n', "", 1)
    assert text != ARROWS
    face_down = _library(down, text)

    @arrows.fixed
    def valid(card: Any) -> bool:
        return one_card(card).name in ("k1", "k4")

    for library in (up_first, face_down, up_first, face_down):
        proto = library.protocol("arrows-mini")
        st, assignments = _assignments(library, "arrows-mini", 2)
        found = runs.differences(library, proto, st.params, assignments, range(2), {"valid": valid})
        assert not found, "\n".join(found)
    assert True in taken and False in taken


def test_the_rows_kept_per_layout_are_bounded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, taken: list[bool]
) -> None:
    """The row's place kept per layout (ArrowRow.rows) starts afresh beyond ROWS_KEPT; tables
    of several sizes still run alike."""
    monkeypatch.setattr(arrows, "ROWS_KEPT", 1)
    sizes: list[int] = []
    row = arrows.ArrowRow._row

    def spy(self: Any, layout: Any) -> Any:
        sizes.append(len(self.rows))
        return row(self, layout)

    monkeypatch.setattr(arrows.ArrowRow, "_row", spy)
    text = ARROWS.replace("count: 6", 'count: "many"', 1).replace(
        "symbols:\n", 'params:\n  many: {default: 6, min: 1, doc: "cards"}\nsymbols:\n', 1
    )
    assert '"many"' in text and "params:" in text
    library = _library(tmp_path, text)
    proto = library.protocol("arrows-mini")
    for n in (6, 4, 6, 5):
        params = {"many": n}
        values = _drawn(Runner(library, "sample").frame(proto, params), 1)
        found = runs.differences(library, proto, params, values, range(2), {"valid": _answer("bools")})
        assert not found, "\n".join(found)
    assert taken and all(taken) and len(sizes) >= 3 and max(sizes) <= 1


def _row_of_encodings(made: list[Any], encodings: Any = ("arrow", "arrow")) -> arrows.ArrowRow:
    """A row whose A and B make new cards (counted in ``made``), as the spec's ``arrow(1)``."""
    from reference_engine.cards import SYMBOLS
    from reference_engine.table import NewCards

    def card(name: str) -> Any:
        def fast(env: Any) -> Any:
            made.append(name)
            return NewCards([SYMBOLS.intern(name)], label=name)

        return fast

    return arrows.ArrowRow("M", 1, "valid", card("up"), card("down"), encodings)


def _frame_run(bound: dict[str, Any]) -> Any:
    return SimpleNamespace(frame=SimpleNamespace(bound=bound.__getitem__))


def test_encoded_new_cards_are_kept_per_bound_encodings(monkeypatch: pytest.MonkeyPatch) -> None:
    """A and B encodings of constants: made once per pair of bound encodings (the very
    objects given again), made anew for other bound encodings (another protocol's, one
    reading a parameter); a value that is not new cards is never kept."""
    from reference_engine.compiled import evaluate as ev

    monkeypatch.setattr(ev, "CHECKED", False)
    made: list[Any] = []
    row = _row_of_encodings(made)
    items = SimpleNamespace(env=lambda run: None, text="[...]")
    first = row._cards(_frame_run({"arrow": "bound-1"}), items)  # type: ignore[arg-type]
    again = row._cards(_frame_run({"arrow": "bound-1"}), items)  # type: ignore[arg-type]
    assert made == ["up", "down"] and again[0] is first[0] and again[1] is first[1]
    other = row._cards(_frame_run({"arrow": "bound-2"}), items)  # type: ignore[arg-type]
    assert made == ["up", "down"] * 2 and other[0] is not first[0] and other[0].symbols == first[0].symbols
    plain = _row_of_encodings(made, None)  # not encodings of constants: made at every run
    for _ in range(2):
        plain._cards(_frame_run({}), items)  # type: ignore[arg-type]
    assert made == ["up", "down"] * 4 and not plain.cards
    odd = arrows.ArrowRow("M", 1, "valid", lambda env: 1, lambda env: 0, ("arrow", "arrow"))
    assert odd._cards(_frame_run({"arrow": "b"}), items) == (1, 0) and not odd.cards  # type: ignore[arg-type]


def test_checked_compares_kept_new_cards_with_those_made(monkeypatch: pytest.MonkeyPatch) -> None:
    """Attack: kept new cards that are not those the encodings make (planted) are caught."""
    from reference_engine.compiled import evaluate as ev

    monkeypatch.setattr(ev, "CHECKED", True)
    made: list[Any] = []
    row = _row_of_encodings(made)
    items = SimpleNamespace(env=lambda run: None, text="[...]")
    run = _frame_run({"arrow": "bound"})
    up, down = row._cards(run, items)  # type: ignore[arg-type]
    assert row._cards(run, items) == (up, down)  # type: ignore[arg-type]  # kept, and the same as made
    key = next(iter(row.cards))
    row.cards[key] = ("bound", "bound", down, up)
    with pytest.raises(ev.Mismatch, match="new cards kept"):
        row._cards(run, items)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("replaced", "encodings"),
    [("", ("arrow", "arrow")), ("new(up) if valid", None), ("arrow(1 + 0) if valid", None)],
    ids=["as-written", "a-builtin", "not-constants"],
)
def test_only_encodings_of_constants_are_kept(
    tmp_path: Path, replaced: str, encodings: Any, taken: list[bool]
) -> None:
    """The spec's arrows are encodings of constants; a builtin's card or an encoding of an
    expression are made at every run (both still laid out by the fast path), every run the
    interpreter's."""
    text = ARROWS.replace("arrow(1) if valid", replaced, 1) if replaced else ARROWS
    library = _library(tmp_path, text)
    proto = library.protocol("arrows-mini")
    step3 = next(s for s in proto.steps if s.number == "3")
    assert isinstance(step3, st_.Place)
    row = arrows.ArrowRow.match(Expr(step3.targets[0][2], proto))
    assert row is not None and row.encodings == encodings
    _compare(library, "bools")
    assert taken and all(taken)
