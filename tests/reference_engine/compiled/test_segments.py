"""A protocol's fixed run of steps carried out as one kept chain
(:mod:`reference_engine.compiled.segments`): card-selection-arrow's steps 1-9, against the
interpreter run for run (every segment run both ways and compared, ``runs.py``), and mutants and
limits that stop a run inside the segment (a sleeve showing a face-down card, an exploration
budget, the limit of steps), each stopped alike, at the same step, with the same message."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
for folder in (HERE, HERE.parent):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import runs  # noqa: E402
from test_differential import _assignments  # noqa: E402

from reference_engine.compiled import Program, ops, program_for, segments  # noqa: E402
from reference_engine.compiled import evaluate as compiled_evaluate  # noqa: E402
from reference_engine.compiled import run as compiled_run  # noqa: E402
from reference_engine.machine import frontier  # noqa: E402
from reference_engine.machine import runner as machine_runner  # noqa: E402
from reference_engine.registry import Library, rulesets_dir  # noqa: E402

ARROW = rulesets_dir() / "protocols" / "card-selection-arrow.yaml"


def _segment(program: Program) -> segments.Segment:
    found = [e[0] for e in program.block if isinstance(e[0], segments.Segment)]
    assert len(found) == 1, program.block
    return found[0]


def _library(tmp: Path, text: str | None = None) -> Library:
    if text is None:
        return Library()
    (tmp / "card-selection-arrow.yaml").write_text(text, encoding="utf-8")
    return Library([tmp, rulesets_dir() / "protocols"])


def _differences(library: Library, seeds: int = 3, most: int = 4) -> tuple[list[str], set[str]]:
    proto = library.protocol("card-selection-arrow")
    st, assignments = _assignments(library, "card-selection-arrow", most)
    kinds: set[str] = set()
    found = runs.differences(library, proto, st.params, assignments, range(seeds), st.context or None, kinds)
    return found, kinds


def test_steps_1_to_9_are_one_segment_and_run_alike() -> None:
    library = Library()
    program = program_for(library, library.protocol("card-selection-arrow"))
    assert isinstance(program, Program), program
    seg = _segment(program)
    numbers = [leaf.number for leaf in seg.leaves]
    assert numbers == ["1", "2", "3", "4", "5", "5", "6", "7", "7", "8", "9", "9"]
    assert [e[1] for e in seg.entries] == [str(n) for n in range(1, 10)]
    # The segment sits where step 9 was: the block's next step is step 10.
    numbers = [e[1] for e in program.block]
    assert numbers[: numbers.index("10") + 1] == ["9", "10"]
    # Links for the place of the hands, the owner row, the washes, the rows turned, the sleeves.
    made = [leaf.number for leaf in seg.leaves if leaf.make is not None]
    assert made == ["1", "2", "4", "5", "5", "7", "8", "9", "9"]
    before = seg.fast_runs
    found, kinds = _differences(library)
    assert not found, "\n".join(found)
    assert kinds == {"ran"}
    assert seg.fast_runs > before  # the chains did run (each compared with the steps one by one)


def test_a_chain_runs_a_step_alone_where_its_layout_is_not_the_links() -> None:
    """A link is used only on the very layout it was made for: a chain whose links were made
    for other layouts runs every step by its own operation, with the same result."""
    library = Library()
    proto = library.protocol("card-selection-arrow")
    program = program_for(library, proto)
    assert isinstance(program, Program)
    seg = _segment(program)
    st, assignments = _assignments(library, "card-selection-arrow", 2)
    want = runs.single(library, proto, st.params, assignments[0], 0, "interpreter", st.context or None)
    other = object()

    def never(run: Any) -> bool:
        raise AssertionError("a link used on a layout it was not made for")

    seg.chains.clear()
    real = seg._fast

    def poisoned(run: Any) -> None:
        key = run.layout
        seg.chains[key] = seg.chain([(other, never)] * len(seg.leaves))
        real(run)

    seg._fast = poisoned  # type: ignore[method-assign]
    try:
        got = runs.single(library, proto, st.params, assignments[0], 0, "compiled", st.context or None)
    finally:
        del seg._fast
        seg.chains.clear()
    assert got == want


@pytest.mark.parametrize(
    "mutant",
    [
        # Step 5 without its turn: the sleeves come front up over face-down cards (the shown
        # check after the sleeve step, inside the segment).
        ('      - turn: "M[1, *]"\n      - sleeve: {M: front}', "      - sleeve: {M: front}"),
        # Step 7 turns the sleeves back up after turning the cards: the sleeve shows a face-down
        # card after the turn, the do's second step.
        (
            '      - sleeve: {M: back}\n      - turn: "up()"',
            '      - turn: "up()"\n      - sleeve: {M: back}',
        ),
        # Step 9 slides out a row that is not in the sleeves' rows.
        ("      - sleeve: {M: {out: [2]}}", "      - sleeve: {M: {out: [4]}}"),
        # Step 8 washes the rows, not the columns (no link: the step's own operation).
        (
            '      scramble: "columns(M)"\n      uses: sleeve\n      how: >-\n        A table wash that',
            '      scramble: "rows(M)"\n      uses: sleeve\n      how: >-\n        A table wash that',
        ),
        # A variable named as the region before the segment: M[1, *] and columns(M) read it.
        (
            "  - step: 1\n",
            '  - step: 0\n    say: "A variable named M."\n    let:\n      M: "1"\n\n  - step: 1\n',
        ),
    ],
)
def test_a_broken_segment_stops_alike(tmp_path: Path, mutant: tuple[str, str]) -> None:
    text = ARROW.read_text(encoding="utf-8")
    assert text.count(mutant[0]) == 1, mutant[0]
    library = _library(tmp_path, text.replace(*mutant))
    found, kinds = _differences(library, seeds=2, most=3)
    assert not found, "\n".join(found)
    assert kinds and kinds != {"ran"}, kinds  # it does stop


@pytest.mark.parametrize("units", [0, 3, 7, 11, 14, 15, 16, 40])
def test_an_exploration_budget_stops_inside_the_segment_alike(units: int) -> None:
    """Every step of the segment spends the budget as the interpreter's does: a budget that
    runs out at any step stops both engines there (the same error, the same random state)."""
    library = Library()
    proto = library.protocol("card-selection-arrow")
    st, assignments = _assignments(library, "card-selection-arrow", 2)
    got = []
    for engine in ("interpreter", "compiled"):
        with frontier.budget(units):
            got.append(runs.single(library, proto, st.params, assignments[0], 1, engine, st.context or None))
    assert got[0] == got[1]


def test_the_budget_counts_of_the_chain_are_the_steps_one_by_one() -> None:
    """The chain spends exactly what the steps one by one spend (compared budget for budget,
    the chain's own error included, by the segment's checked run)."""
    library = Library()
    proto = library.protocol("card-selection-arrow")
    st, assignments = _assignments(library, "card-selection-arrow", 2)
    checked = compiled_evaluate.CHECKED
    compiled_evaluate.CHECKED = True
    try:
        for units in range(0, 30, 2):
            with frontier.budget(units):
                try:
                    runs.single(library, proto, st.params, assignments[0], 2, "compiled", st.context or None)
                except compiled_evaluate.Mismatch:
                    raise
                except Exception:
                    pass
    finally:
        compiled_evaluate.CHECKED = checked


@pytest.mark.parametrize("most", [3, 6, 9, 12, 13, 14])
def test_the_step_limit_stops_inside_the_segment_alike(monkeypatch: pytest.MonkeyPatch, most: int) -> None:
    for module in (machine_runner, compiled_run, ops):
        monkeypatch.setattr(module, "MAX_RUN_STEPS", most)
    library = Library()
    proto = library.protocol("card-selection-arrow")
    st, assignments = _assignments(library, "card-selection-arrow", 2)
    a = runs.single(library, proto, st.params, assignments[0], 0, "interpreter", st.context or None)
    b = runs.single(library, proto, st.params, assignments[0], 0, "compiled", st.context or None)
    assert a == b
    assert a[0] == "error" and f"more than {most} steps in one run" in a[2], a[:3]


def test_the_chains_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(segments, "KEPT", 2)
    library = Library()
    proto = library.protocol("card-selection-arrow")
    program = program_for(library, proto)
    assert isinstance(program, Program)
    seg = _segment(program)
    st, assignments = _assignments(library, "card-selection-arrow", 4)
    pool = [card for values in assignments for card in values["cards"]]
    rng = random.Random(5)
    context = st.context or None
    for n in range(6):  # hands of different sizes: a layout each
        sizes = (1 + n, 2, 3 + n % 2)
        params = dict(st.params, sizes=sizes)
        values = {"cards": [rng.choice(pool) for _ in range(sum(sizes))]}
        a = runs.single(library, proto, params, values, n, "interpreter", context)
        b = runs.single(library, proto, params, values, n, "compiled", context)
        assert a == b
        assert len(seg.chains) <= 2


def test_the_chain_alone_runs_as_the_interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    """The chain's own result, not the one the checked run keeps: run for run the interpreter's."""
    monkeypatch.setattr(segments.Segment, "__call__", segments.Segment._fast)
    library = Library()
    found, kinds = _differences(library, seeds=3, most=6)
    assert not found, "\n".join(found)
    assert kinds == {"ran"}


def test_one_chain_serves_every_parameter_on_the_same_layout() -> None:
    """A link depends on its layout alone: runs whose hands all lay out as the same row (the
    same number of cards) but whose parameters differ (the owners' sizes, the draw rule, the
    discard pile) share one chain, made by the first, and each equals the interpreter's run
    (the checked run compares every segment run both ways; a link that kept a parameter's
    value, e.g. the owner row's sizes, would end otherwise)."""
    library = Library()
    proto = library.protocol("card-selection-arrow")
    program = program_for(library, proto)
    assert isinstance(program, Program)
    seg = _segment(program)
    seg.chains.clear()
    st, assignments = _assignments(library, "card-selection-arrow", 4)
    pool = [card for values in assignments for card in values["cards"]]
    rng = random.Random(3)
    context = st.context or None
    before = seg.fast_runs
    ends = set()
    shapes = [(2, 1, 2), (1, 2, 2), (3, 1, 1), (1, 1, 3), (1, 1, 1, 2), (0, 2, 3)]
    for n in range(12):
        params = dict(st.params, sizes=shapes[n % 6], draw=n % 2, discard=(n // 2) % 2)
        values = {"cards": [rng.choice(pool) for _ in range(5)]}
        a = runs.single(library, proto, params, values, n, "interpreter", context)
        b = runs.single(library, proto, params, values, n, "compiled", context)
        assert a == b, (n, params)
        ends.add(a[0])
    assert len(seg.chains) == 1 and seg.fast_runs - before == 12
    assert ends == {"ran", "error"}  # (0, 2, 3): P_1 holds no card, an error after the segment


@pytest.mark.parametrize(
    "let",
    [
        '      cards: "[1, 2]"',  # step 1's cards: the variable, not the hands (no link)
        '      i: "7"',  # the owner row's comprehension variable, set outside it
        '      columns: "0"',  # a variable named as the washes' function
    ],
)
def test_a_variable_named_as_a_segments_names_runs_alike(tmp_path: Path, let: str) -> None:
    text = ARROW.read_text(encoding="utf-8")
    before = '  - step: 0\n    say: "A variable."\n    let:\n' + let + "\n\n  - step: 1\n"
    library = _library(tmp_path, text.replace("  - step: 1\n", before, 1))
    found, kinds = _differences(library, seeds=2, most=3)
    assert not found, "\n".join(found)
    assert kinds


def test_a_link_that_keeps_a_parameters_value_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The mutant the test above must refuse: an owner-row link that keeps what it laid out the
    first time (the sizes of that run) instead of reading the sizes at each run."""
    from reference_engine.compiled import rows

    real = rows.NewPlace.owner_link

    def keeping(self: Any, run: Any) -> Any:
        go = real(self, run)
        if go is None:
            return None
        first: list[Any] = []

        def stale(run: Any) -> bool:
            if not first:
                if not go(run):
                    return False
                first.append((run.layout, list(run.cells), run.out, run.meters))
                return True
            run.layout, cells, run.out, run.meters = first[0]
            run.cells = list(cells)
            return True

        return stale

    monkeypatch.setattr(rows.NewPlace, "owner_link", keeping)
    library = Library()
    proto = library.protocol("card-selection-arrow")
    program = program_for(library, proto)
    assert isinstance(program, Program)
    _segment(program).chains.clear()
    st, assignments = _assignments(library, "card-selection-arrow", 2)
    values = assignments[0]
    context = st.context or None
    for _ in range(2):  # the first run keeps the row's plan (the link finds it from the next)
        runs.single(library, proto, dict(st.params, sizes=(2, 1, 2)), values, 0, "compiled", context)
    with pytest.raises(compiled_evaluate.Mismatch):
        runs.single(library, proto, dict(st.params, sizes=(1, 2, 2)), values, 0, "compiled", context)
    _segment(program).chains.clear()


def test_the_chain_is_counted_by_run_block_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    """A chain has no after-step bookkeeping of its own: its steps (links or their own
    operations) and the ``do`` steps they end are run_block's entries, run by run_block (the
    shown cards checked, the step counted, the budget spent there), all but the last, whose
    checks and count are the enclosing block's; and the run is the interpreter's."""
    monkeypatch.setattr(segments.Segment, "__call__", segments.Segment._fast)
    library = Library()
    proto = library.protocol("card-selection-arrow")
    program = program_for(library, proto)
    assert isinstance(program, Program)
    seg = _segment(program)
    seen: list[tuple[str | None, str]] = []

    def recording(run: Any, block: Any) -> None:
        if block is not program.block:
            seen.extend((number, step.kind) for _, number, step in block)
        ops.run_block(run, block)

    monkeypatch.setattr(seg, "tools", seg.tools._replace(run_block=recording))
    seg.chains.clear()
    st, assignments = _assignments(library, "card-selection-arrow", 2)
    context = st.context or None
    for seed in range(2):  # the first run makes the links, the second uses them
        seen.clear()
        before = seg.fast_runs
        a = runs.single(library, proto, st.params, assignments[0], seed, "interpreter", context)
        b = runs.single(library, proto, st.params, assignments[0], seed, "compiled", context)
        assert a == b
        assert seg.fast_runs == before + 1
        numbers = [number for number, _ in seen]
        assert numbers == ["1", "2", "3", "4", "5", "5", "5", "6", "7", "7", "7", "8", "9", "9"], seen
        assert [kind for number, kind in seen if number in ("5", "7")].count("do") == 2


# Step 3 turns the cards face up instead of turning every card down, and step 5 only slides the
# sleeves front up: the wash of step 4 then shows the cards (an observation), step 8's none.
_SHOWN_WASH = (
    ('\n    turn: "up()"\n', '\n    turn: "M[1, *]"\n'),
    ('      - turn: "M[1, *]"\n      - sleeve: {M: front}', "      - sleeve: {M: front}"),
)


def _hidden_washes(seg: segments.Segment) -> list[str]:
    """The steps whose link in a chain is a wash that reads no face (after ``turn: up()``)."""
    out = []
    for chain in seg.chains.values():
        for leaf, link in zip(seg.leaves, chain.links):
            if isinstance(link, tuple) and "hidden" in link[1].__qualname__:
                out.append(leaf.number)
    return sorted(set(out))


def test_a_wash_right_after_turning_every_card_down_reads_no_face(tmp_path: Path) -> None:
    library = Library()
    program = program_for(library, library.protocol("card-selection-arrow"))
    assert isinstance(program, Program)
    seg = _segment(program)
    seg.chains.clear()
    found, kinds = _differences(library, seeds=2, most=3)
    assert not found and kinds == {"ran"}, found
    assert _hidden_washes(seg) == ["4", "8"]  # both washes follow turn: up()
    text = ARROW.read_text(encoding="utf-8")
    for old, new in _SHOWN_WASH:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    shown = _library(tmp_path, text)
    found, kinds = _differences(shown, seeds=2, most=3)
    assert not found and kinds == {"ran"}, found
    program = program_for(shown, shown.protocol("card-selection-arrow"))
    assert isinstance(program, Program)
    assert _hidden_washes(_segment(program)) == ["8"]  # step 4 reads the faces it shows


def test_a_wash_that_reads_no_face_where_a_card_is_up_is_caught(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The mutant: every wash taken to follow ``turn: up()``. Where step 4's wash shows the
    cards, leaving out their observation makes the chain's view differ from the steps one by
    one (the checked run says so)."""
    monkeypatch.setattr(segments, "_all_turned_down", lambda c, step: True)
    text = ARROW.read_text(encoding="utf-8")
    for old, new in _SHOWN_WASH:
        text = text.replace(old, new)
    with pytest.raises(compiled_evaluate.Mismatch, match="segment 1: its chain ends with"):
        _differences(_library(tmp_path, text), seeds=2, most=3)


def _down_leaves(seg: segments.Segment) -> list[str]:
    """The steps whose link is made knowing no card outside the hands is face up before it."""
    out = []
    for leaf in seg.leaves:
        make = leaf.make
        if make is not None and "down" in make.__code__.co_freevars:
            cell = make.__closure__[make.__code__.co_freevars.index("down")]  # type: ignore[index]
            if cell.cell_contents:
                out.append(f"{leaf.number} {leaf.step.kind}")
    return out


def test_what_follows_turning_every_card_down_is_known_down(tmp_path: Path) -> None:
    """After ``turn: up()`` (steps 3 and 7), the wash right after it and the row turned right
    after that wash (steps 5 and 9) know no card outside the hands is face up; where step 3
    turns the cards up instead, neither step 4 nor step 5 does (step 8 and 9 still do)."""
    library = Library()
    program = program_for(library, library.protocol("card-selection-arrow"))
    assert isinstance(program, Program)
    assert _down_leaves(_segment(program)) == ["4 shuffle", "5 turn", "8 shuffle", "9 turn"]
    text = ARROW.read_text(encoding="utf-8").replace(*_SHOWN_WASH[0])
    shown = _library(tmp_path, text)
    program = program_for(shown, shown.protocol("card-selection-arrow"))
    assert isinstance(program, Program)
    assert _down_leaves(_segment(program)) == ["8 shuffle", "9 turn"]


# --- w48-attack2: what a link may take as known down, attacked ---------------------------------


def _mutant(tmp_path: Path, *edits: tuple[str, str]) -> Library:
    text = ARROW.read_text(encoding="utf-8")
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return _library(tmp_path, text)


def _down_of(library: Library) -> list[str]:
    program = program_for(library, library.protocol("card-selection-arrow"))
    assert isinstance(program, Program)
    return _down_leaves(_segment(program))


def test_a_turn_of_the_face_up_cards_of_one_region_is_not_every_card_down(tmp_path: Path) -> None:
    """``turn: up(M)`` turns only M's face-up cards: what follows it is not taken as known down
    (the other regions' cards may be up), and both engines still run alike."""
    shown = _mutant(tmp_path, ('\n    turn: "up()"\n', '\n    turn: "up(M)"\n'))
    assert _down_of(shown) == ["8 shuffle", "9 turn"]
    found, kinds = _differences(shown, seeds=2, most=3)
    assert not found and kinds == {"ran"}, found


def test_up_declared_as_a_game_function_is_not_the_built_in(tmp_path: Path) -> None:
    """A protocol whose ``up`` is a game function of its own (``context: up``) may mean anything
    by ``turn: up()``: no step after it is taken as known down."""
    shown = _mutant(
        tmp_path,
        ("context:\n  valid:\n", "context:\n  up:\n    doc: the game's own up\n  valid:\n"),
    )
    assert _down_of(shown) == []


def test_a_sleeve_step_between_the_turn_and_the_wash_ends_what_is_known(tmp_path: Path) -> None:
    """Step 7 turned round (``turn: up()`` first, then the sleeves back up): step 8's wash no
    longer follows the turn right away, so neither it nor step 9 is taken as known down."""
    shown = _mutant(
        tmp_path,
        (
            '      - sleeve: {M: back}\n      - turn: "up()"',
            '      - turn: "up()"\n      - sleeve: {M: back}',
        ),
    )
    assert _down_of(shown) == ["4 shuffle", "5 turn"]


def test_labels_on_the_turn_leave_the_washes_alike(tmp_path: Path) -> None:
    """A label put on the cards by ``turn: up()`` (the layout changes between the turn and the
    wash): the wash's link is made for the labelled layout, and both engines run alike."""
    shown = _mutant(
        tmp_path,
        ('\n    turn: "up()"\n', '\n    turn: "up()"\n    labels:\n      "M[1, *]": "the cards"\n'),
    )
    assert _down_of(shown) == ["4 shuffle", "5 turn", "8 shuffle", "9 turn"]
    found, kinds = _differences(shown, seeds=2, most=3)
    assert not found and kinds == {"ran"}, found


def test_two_washes_after_the_turn_are_both_known_down(tmp_path: Path) -> None:
    """Step 8 washes twice: the second wash follows a wash that follows ``turn: up()`` (still
    no card up outside the hands), and both engines run alike."""
    text = ARROW.read_text(encoding="utf-8")
    i = text.index("  - step: 8\n")
    j = text.index("  - step: 9\n")
    wash = '      - shuffle: {scramble: "columns(M)"}\n'
    step8 = '  - step: 8\n    say: "Wash twice."\n    do:\n' + wash + wash + "\n"
    shown = _library(tmp_path, text[:i] + step8 + text[j:])
    assert _down_of(shown) == ["4 shuffle", "5 turn", "8 shuffle", "8 shuffle", "9 turn"]
    found, kinds = _differences(shown, seeds=2, most=3)
    assert not found and kinds == {"ran"}, found


def test_a_variable_named_like_the_washed_region_runs_alike(tmp_path: Path) -> None:
    """A variable ``M`` set before step 3 to the region's cards, to shadow the region the wash
    and the row turn name (their links would refuse it, the steps staying marked known down):
    a variable may not hold face-down cards, so both engines stop alike at step 2a."""
    let = '  - step: 2a\n    say: "Nothing to do."\n    let: {M: "M"}\n\n  - step: 3\n'
    shown = _mutant(tmp_path, ("  - step: 3\n", let))
    program = program_for(shown, shown.protocol("card-selection-arrow"))
    assert isinstance(program, Program)
    found, kinds = _differences(shown, seeds=2, most=3)
    assert not found, found
    assert kinds == {"error SimulationError"}, kinds


TAIL = "      how: >-\n        A table wash that turns"  # step 8's, not step 4's


def test_a_spin_after_the_turn_is_no_wash_of_the_chain(tmp_path: Path) -> None:
    """Step 8 spins the row of sleeves instead of scrambling it (a spin turns every card round,
    at once): no segment step, so step 9's row is not taken as known down; both engines run
    alike."""
    shown = _mutant(
        tmp_path,
        (
            '      scramble: "columns(M)"\n      uses: sleeve\n' + TAIL,
            '      spin: "columns(M)"\n      uses: sleeve\n' + TAIL,
        ),
    )
    assert _down_of(shown) == ["4 shuffle", "5 turn"]
    found, kinds = _differences(shown, seeds=2, most=3)
    assert not found and kinds == {"ran"}, found


def test_a_card_placed_face_up_between_the_turn_and_the_wash_ends_what_is_known(tmp_path: Path) -> None:
    """A step between step 3's ``turn: up()`` and step 4's wash lays a new card face up: neither
    the wash nor step 5's row is taken as known down; both engines run alike."""
    put = (
        '  - step: 3a\n    say: "Lay an owner card face up."\n'
        '    place:\n      X: "[new(theta(1))]"\n    face: up\n\n  - step: 4\n'
    )
    shown = _mutant(tmp_path, ("  - step: 4\n", put))
    assert _down_of(shown) == ["8 shuffle", "9 turn"]
    found, kinds = _differences(shown, seeds=2, most=3)
    assert not found and kinds == {"ran"}, found
