"""The compiled path's whole-row steps (:mod:`reference_engine.compiled.rows`) against the
interpreter: places of new cards whose plan is kept per layout and shape and filled with the
faces of each run, faces read along a row at once (``valid(M[1, j])``), shuffles of a region's
columns applied one row at a time, and the permutation drawn without a method call per card.
Run for run, with every fast value and plan checked (``runs.py``), on a small spec and on
mutants of it that break it (each refused alike, at the same step)."""

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

from reference_engine.cards import EMPTY, SYMBOLS  # noqa: E402
from reference_engine.compiled import Program, program_for, rows  # noqa: E402
from reference_engine.compiled.codegen import generate  # noqa: E402
from reference_engine.compiled.helpers import Env, h_face_row  # noqa: E402
from reference_engine.compiled.program import expressions  # noqa: E402
from reference_engine.registry import Library, rulesets_dir  # noqa: E402
from reference_engine.shuffles import Shuffle  # noqa: E402
from reference_engine.table import Layout  # noqa: E402

ROWS = """\
protocol: rows-mini
title: Rows of new cards, and faces read along a row
summary: >-
  New cards laid out by the row and by the column, faces read at a column variable (a test of
  the compiled path).
source:
  cite: "kitgen tests"
symbols:
  up: {glyph: "▲", rotated: down, doc: "pointing up"}
  down: {glyph: "▼", rotated: up, doc: "pointing down"}
  k: {family: true, glyph: "#{}", doc: "candidates"}
  t: {family: true, glyph: "t{}", doc: "owner marks"}
encodings:
  arrow:
    values: {0: [down], 1: [up]}
    doc: "one up-down card"
  card:
    label: k
    doc: a card
inputs:
  cards: {encoding: card, count: 5, doc: "cards"}
steps:
  - step: 1
    say: "Lay the cards out, face down."
    place:
      M: [cards]
  - step: 2
    say: "A mark under each card, face up."
    place:
      "M[2, *]": "[new(t(i)) for i in 1..2 for j in 1..(3 if i == 1 else 2)]"
    face: up
  - step: 3
    say: "Turn the marks down, mix the columns, turn the cards up."
    do:
      - turn: "M[2, *]"
      - shuffle:
          scramble: "columns(M)"
      - turn: "M[1, *]"
  - step: 4
    say: "An arrow under each column."
    place:
      "M[3, *]":
        columns: >-
          [arrow(1) if M[1, j] == k(2) or M[1, j] == k(4) else arrow(0)
          for j in 1..ncols(M)]
    face: up
  - step: 5
    say: "Pairs of marks in columns, and a row of them."
    do:
      - place:
          P: {columns: "[[new(t(1)), new(t(2))] for j in 1..3]"}
      - place:
          Q: "[new(t(j)) for j in 1..4]"
      - let:
          n: "len([j for j in 1..ncols(M) if M[3, j] == up])"
      - discard: P
      - discard: Q
      - discard: "M[2..3, *]"
outputs:
  ups:
    value: "n"
    public: true
    doc: how many arrows point up
"""

# name -> (texts replaced and their replacements, what the run must be refused for; None: it
# runs; "": either, as long as both engines do the same)
MUTANTS: dict[str, tuple[list[tuple[str, str]], str | None]] = {
    "places-on-a-full-row": ([('"M[2, *]": "[new(t(i))', '"M[1, *]": "[new(t(i))')], "not empty"),
    "reads-face-down-cards": ([('      - turn: "M[1, *]"\n', "")], "face down"),
    "reads-only-the-face-up-columns": (
        [
            ('      - turn: "M[1, *]"\n', '      - turn: "M[1, 1..3]"\n'),
            ("if M[1, j] == k(2) or M[1, j] == k(4)", "if j <= 3 and M[1, j] == k(2)"),
        ],
        None,
    ),
    "reads-past-the-row": ([("for j in 1..ncols(M)]\n", "for j in 1..ncols(M) + 1]\n")], "out of range"),
    "pairs-in-rows": ([('P: {columns: "[[new(t(1))', 'P: {rows: "[[new(t(1))')], None),
    "uneven-columns": (
        [("[[new(t(1)), new(t(2))] for", "[[new(t(1))] if j == 1 else [new(t(2)), new(t(1))] for")],
        "",
    ),
    "a-single-new-card": ([('Q: "[new(t(j)) for j in 1..4]"', 'Q: "new(t(2))"')], None),
    "a-card-of-the-table-among-new-cards": (
        [('Q: "[new(t(j)) for j in 1..4]', 'Q: "[new(t(1)), M[3, 1]]')],
        "",
    ),
}


def _library(tmp: Path, text: str) -> Library:
    (tmp / "rows-mini.yaml").write_text(text, encoding="utf-8")
    return Library([tmp, rulesets_dir() / "protocols"])


def _compare(library: Library, seeds: int = 4) -> tuple[Any, ...]:
    """Both engines run for run (their differences asserted away); the interpreter's first run."""
    proto = library.protocol("rows-mini")
    program = program_for(library, proto)
    assert isinstance(program, Program), program
    st, assignments = _assignments(library, "rows-mini", 3)
    assignments = assignments + [{"cards": list(reversed(assignments[0]["cards"]))}]
    found = runs.differences(library, proto, st.params, assignments, range(seeds))
    assert not found, "\n".join(found)
    return runs.single(library, proto, st.params, assignments[0], 0, "interpreter")


def test_the_rows_spec_runs_alike(tmp_path: Path) -> None:
    result = _compare(_library(tmp_path, ROWS), seeds=8)
    assert result[0] == "ran" and result[8] == {"ups": 2}, result


@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_a_broken_row_is_refused_alike(tmp_path: Path, mutant: str) -> None:
    changes, refused = MUTANTS[mutant]
    text = ROWS
    for old, new in changes:
        assert old in text, f"{mutant}: the spec changed; update the mutant"
        text = text.replace(old, new, 1)
    result = _compare(_library(tmp_path, text))
    if refused is None:
        assert result[0] == "ran", result[:3]
    elif refused:
        assert result[0] == "error" and refused in result[2], result[:3]


def test_a_place_of_new_cards_builds_its_plan_once_per_layout_and_shape(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The arrows of step 4 differ from run to run (the columns are mixed), the layout does
    not: each place step builds one plan, whatever the faces."""
    built: list[Any] = []
    real = rows.place_sized

    def counting(*args: Any) -> Any:
        built.append(args[0])
        return real(*args)

    monkeypatch.setattr(rows, "place_sized", counting)
    library = _library(tmp_path, ROWS)
    _compare(library, seeds=6)
    assert len(built) == 4, built  # steps 2 and 4, and P and Q of step 5


def test_the_plans_a_place_keeps_are_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[rows.NewPlace] = []

    class Recorded(rows.NewPlace):
        def __init__(self, *args: Any) -> None:
            super().__init__(*args)
            made.append(self)

    monkeypatch.setattr(rows, "NewPlace", Recorded)
    monkeypatch.setattr(rows, "KEPT", 1)
    _compare(_library(tmp_path, ROWS))
    assert made and all(len(p.kept) <= 1 and len(p.few) <= 1 for p in made)


SLEEVED = """\
protocol: fzmain
title: Two rows laid out where sleeves hold one (found by the fuzz generator)
symbols:
  al: {}
  be: {}
encodings:
  bit:
    values:
      0: [al, be]
      1: [be, al]
inputs:
  x: {encoding: bit}
steps:
- step: '1'
  say: 'Lay out two rows of new cards in sleeves of one row.'
  place:
    s:
      rows: [new(al), new(al)]
- step: '2'
  say: Put them back.
  discard: s
outputs:
  o2: {cards: x, encoding: bit, equals: x}
sleeves:
  s:
    rows: [1]
    front: []
"""


def test_a_layout_its_sleeves_refuse_is_refused_alike(tmp_path: Path) -> None:
    """Building the plan of new cards raises the layout's own error (not a Defer): the step
    reports it as the interpreter does (it escaped as a bare EvalError before)."""
    (tmp_path / "fzmain.yaml").write_text(SLEEVED, encoding="utf-8")
    library = Library([tmp_path])
    proto = library.protocol("fzmain")
    st, assignments = _assignments(library, "fzmain", 2)
    found = runs.differences(library, proto, st.params, assignments, range(2))
    assert not found, "\n".join(found)
    result = runs.single(library, proto, st.params, assignments[0], 0, "compiled")
    assert result[:2] == ("error", "SimulationError") and "declare only rows 1" in result[2], result[:3]


# --------------------------------------------------------------------------- the arrow protocol


def test_the_arrow_step_reads_the_row_of_cards_once() -> None:
    library = Library()
    proto = library.protocol("card-selection-arrow")
    text = "[arrow(1) if valid(M[1, j]) else arrow(0) for j in 1..ncols(M)]"
    (expr,) = [e for e in expressions(proto.steps) if e.text == text]
    source = generate(expr.node, proto)[0]
    assert source.count("_face_row(E, ") == 1, source
    assert "_face(E, " in source  # a row it cannot read at once is read cell by cell


def _env(cells: list[int], layout: Layout, variables: dict[str, Any] | None = None) -> Env:
    return Env(lambda: None, layout, cells, variables or {}, {}, {})  # type: ignore[arg-type,return-value]


def test_a_row_is_read_at_once_only_when_every_card_of_it_is_seen() -> None:
    a, b, c = (SYMBOLS.intern(n) for n in ("rowtest-a", "rowtest-b", "rowtest-c"))
    layout = Layout.make([("M", 2, 3, 1, None), ("h", 1, 2, 1, "hand1")])
    up = [a.id << 1 | 1, b.id << 1 | 1, c.id << 1 | 1]
    down = [a.id << 1, b.id << 1, c.id << 1]
    assert h_face_row(_env(up + down + [0, 0], layout), "M", 1) == [None, a, b, c]
    assert h_face_row(_env(up + down + [0, 0], layout), "M", 2) == []  # face down
    assert h_face_row(_env([up[0], EMPTY, up[2]] + down + [0, 0], layout), "M", 1) == []  # a hole
    assert h_face_row(_env(up + down + [0, 0], layout), "M", 3) == []  # no such row
    assert h_face_row(_env(up + down + [0, 0], layout), "M", 0) == []
    assert h_face_row(_env(up + down + [0, 0], layout), "h", 1) == []  # a hand
    assert h_face_row(_env(up + down + [0, 0], layout), "X", 1) == []  # no such region
    assert h_face_row(_env(up + down + [0, 0], layout, {"M": 3}), "M", 1) == []  # a variable


# --------------------------------------------------------------------------- shuffles


@pytest.mark.parametrize("seed", range(6))
def test_the_scramble_draws_as_the_shuffle_does(seed: int) -> None:
    assert rows.scramble_is_exact(), "this Python shuffles another way: the fast draw is off"
    for k in (1, 2, 3, 4, 9, 54, 108, 109, 200):
        a, b = random.Random(seed * 1000 + k), random.Random(seed * 1000 + k)
        assert rows.scramble(a, k) == Shuffle("scramble", k).sample(b)
        assert a.getstate() == b.getstate()


def test_a_generator_of_its_own_shuffles_its_own_way() -> None:
    class Mine(random.Random):
        def random(self) -> float:
            return 0.5

    a, b = Mine(3), Mine(3)
    assert rows.scramble(a, 20) == Shuffle("scramble", 20).sample(b)
    assert a.getstate() == b.getstate()


@pytest.mark.parametrize("seed", range(10))
def test_a_permutation_of_columns_is_one_gather_per_row(seed: int) -> None:
    rng = random.Random(seed)
    nrows, ncols = rng.randrange(1, 4), rng.randrange(1, 12)
    layout = Layout.make([("A", 1, 2, 1, None), ("M", nrows, ncols, 1, None), ("B", 1, 3, 1, None)])
    reg = layout.by_name["M"]
    piles = tuple(tuple(range(reg.offset + c, reg.offset + nrows * ncols, ncols)) for c in range(ncols))
    bounds = rows.column_rows(layout, piles)
    assert bounds is not None
    cells = [rng.randrange(0, 99) for _ in range(layout.size)]
    perm = rows.scramble(rng, ncols)
    want = list(cells)
    for p, i in zip(piles, perm):
        for f, v in zip(p, [cells[g] for g in piles[i]]):
            want[f] = v
    rows.permute_rows(cells, bounds, perm)
    assert cells == want
    # Not the columns of a region, in order: no gather by rows.
    assert rows.column_rows(layout, piles[::-1]) is None or ncols == 1
    assert rows.column_rows(layout, piles[:-1]) is None
    assert rows.column_rows(layout, ((0,), (1,))) == ((0, 2),)  # the columns of A
    assert rows.column_rows(layout, ((0,), (2,))) is None


def _columns_referee(layout: Layout, piles: Any) -> bool:
    """Whether ``piles`` are the columns of the first pile's region, in order, pile by pile."""
    reg = layout.owner(piles[0][0])
    cols, nrows, off = reg.cols, reg.rows, reg.offset
    return len(piles) == cols and all(
        p == tuple(range(off + c, off + nrows * cols, cols)) for c, p in enumerate(piles)
    )


@pytest.mark.parametrize("seed", range(6))
def test_columns_are_found_in_c_as_pile_by_pile(seed: int) -> None:
    """Attack: :func:`column_rows` reads the piles across in C (``zip``); piles of other
    lengths (``zip`` would stop at the shortest), lists, swapped or shifted slots, a pile too
    many or too few: it takes them exactly where the pile-by-pile referee does."""
    rng = random.Random(seed)
    nrows, ncols = rng.randrange(1, 4), rng.randrange(2, 9)
    layout = Layout.make([("A", 1, 2, 1, None), ("M", nrows, ncols, 1, None), ("B", 2, 3, 1, None)])
    reg = layout.by_name["M"]
    good = [tuple(range(reg.offset + c, reg.offset + nrows * ncols, ncols)) for c in range(ncols)]
    tries: list[Any] = [tuple(good)]
    for _ in range(40):
        piles = [list(p) for p in good]
        c = rng.randrange(ncols)
        kind = rng.randrange(6)
        if kind == 0:
            piles[c].append(rng.randrange(layout.size))  # one pile longer
        elif kind == 1 and nrows > 1:
            piles[c].pop()  # one pile shorter
        elif kind == 2:
            d = rng.randrange(ncols)
            piles[c], piles[d] = piles[d], piles[c]
        elif kind == 3:
            piles[c][rng.randrange(nrows)] += rng.choice((-1, 1))
        elif kind == 4:
            piles.append([reg.offset + nrows * ncols] * nrows)
        tries.append(tuple(tuple(p) for p in piles))
    tries.append(tuple(list(p) for p in good))  # lists: not taken (the referee's tuples)
    for piles in tries:
        got = rows.column_rows(layout, piles)
        assert (got is not None) == _columns_referee(layout, piles), piles
        if got is not None:
            assert got == tuple((reg.offset + r * ncols, reg.offset + (r + 1) * ncols) for r in range(nrows))


def test_the_step_limit_stops_both_engines_alike(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """run_block counts a step itself until the run nears the limit of steps: past it, the
    compiled run stops where the interpreter's does, with its message."""
    from reference_engine.compiled import ops
    from reference_engine.compiled import run as compiled_run
    from reference_engine.machine import runner as machine_runner

    # A new step 5 turns the cards over and back six times (the same layout, step after step);
    # a run that counted on past the limit would stop at the next new layout, in step 6.
    loop = (
        '  - step: 5\n    say: "Turn the cards over and back, six times."\n'
        '    for: {i: "1..6"}\n    do:\n      - turn: "M[1, *]"\n  - step: 6\n'
    )
    text = ROWS.replace("  - step: 5\n", loop, 1)
    for module in (machine_runner, compiled_run, ops):
        monkeypatch.setattr(module, "MAX_RUN_STEPS", 10)
    result = _compare(_library(tmp_path, text))
    assert result[0] == "error" and "more than 10 steps in one run (at step 5)" in result[2], result[:3]


def test_the_scramble_draws_as_the_shuffle_does_at_every_edge() -> None:
    """Attack (round 3): sizes 0, 1, 2 and on each side of a power of two (where a draw of
    ``getrandbits`` is rejected most), many seeds, a generator with its own bits and one with
    its own shuffle: the same permutation and the generator left in the same state."""

    class Bits(random.Random):
        def getrandbits(self, k: int) -> int:
            return super().getrandbits(k) ^ ((1 << k) - 1)

    class Reversed(random.Random):
        def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
            x.reverse()

    for cls in (random.Random, Bits, Reversed):
        for seed in range(40):
            for k in (0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 65, 128, 129):
                a, b = cls(seed), cls(seed)
                assert rows.scramble(a, k) == Shuffle("scramble", k).sample(b)
                assert a.getstate() == b.getstate()


# --------------------------------------------------------------------------- w37-rows2


def test_turning_every_face_up_card_runs_alike(tmp_path: Path) -> None:
    """``turn: up()`` turned a stretch of slots at a time (rows.turn_face_up): the marks of
    step 2 (the only face-up cards), and later every card and arrow of the table, with an empty
    place among them (the discarded row 2 of a region that keeps its shape is not there: the
    region Q is still on the table while P is discarded)."""
    text = ROWS.replace('      - turn: "M[2, *]"\n', '      - turn: "up()"\n', 1)
    text = text.replace("      - discard: P\n", '      - discard: P\n      - turn: "up()"\n', 1)
    assert text.count('turn: "up()"') == 2
    library = _library(tmp_path, text)
    proto = library.protocol("rows-mini")
    program = program_for(library, proto)
    assert isinstance(program, Program), program
    result = _compare(library, seeds=6)
    assert result[0] == "ran" and result[8] == {"ups": 2}, result


def test_turning_every_face_up_card_of_a_table_with_holes_and_hands() -> None:
    """Attack: slots of a hand are left as they are; empty places stay empty; a face-down card
    stays face down; every face-up card elsewhere is turned, and nothing else."""
    from reference_engine.compiled import evaluate
    from reference_engine.compiled.helpers import not_hand_runs

    layout = Layout.make(
        [("A", 2, 3, None, None, None), ("H", 1, 2, None, "H", None), ("B", 1, 4, None, None, None)], (), ()
    )
    runs_ = not_hand_runs(layout)
    hand = set(layout.by_name["H"].slots)
    assert [f for a, b in runs_ for f in range(a, b)] == [f for f in range(layout.size) if f not in hand]
    rng = random.Random(5)
    for _ in range(200):
        cells = [rng.choice([EMPTY, 2, 3, 4, 5, 6, 7]) for _ in range(layout.size)]
        want = [v ^ 1 if f not in hand and v >= 0 and v & 1 else v for f, v in enumerate(cells)]

        class FakeRun:
            pass

        run: Any = FakeRun()
        run.layout, run.cells = layout, list(cells)

        class Meters:
            turned = 0

            def add_turn(self) -> Any:
                self.turned += 1
                return self

        run.meters = Meters()
        assert not evaluate.CHECKED
        op = rows.turn_face_up(None)  # type: ignore[arg-type]  # the expression is read only when checked
        op(run)
        assert run.cells == want and run.meters.turned == 1


def test_a_place_of_new_cards_from_names_alone_is_laid_out_once_per_layout_and_values(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Step 2's marks depend on no card: the second run on the same layout lays them out
    without evaluating them; a value that reads the table (the arrows of step 4), or a name
    that is a region, is evaluated every run."""
    evaluated: list[str | None] = []  # the step of each evaluation of new cards
    current: list[str | None] = [None]

    class Counted(rows.Lines):
        def __init__(self, up: bool) -> None:
            super().__init__(up)
            evaluated.append(current[0])

    monkeypatch.setattr(rows, "Lines", Counted)
    made: list[rows.NewPlace] = []

    class Recorded(rows.NewPlace):
        def __init__(self, *args: Any) -> None:
            super().__init__(*args)
            made.append(self)

        def __call__(self, run: Any) -> bool:
            current[0] = self.step.number
            return super().__call__(run)

    monkeypatch.setattr(rows, "NewPlace", Recorded)
    library = _library(tmp_path, ROWS)
    _compare(library, seeds=6)
    pure = {p.step.number: p.pure for p in made}
    assert pure["2"] == () and pure["4"] is None, pure  # step 4 calls ncols and reads M
    step2 = [p for p in made if p.step.number == "2"]
    step4 = [p for p in made if p.step.number == "4"]
    assert all(len(p.same) == 1 for p in step2)  # one layout, one set of parameters
    # Once per program (the engines' programs are made afresh by the test's runs, at most one
    # per run): never more than the runs, and fewer when a program ran twice.
    laid2 = sum(p.laid for p in step2)
    assert evaluated.count("2") == len(step2) < laid2, (evaluated.count("2"), len(step2), laid2)
    assert evaluated.count("4") == sum(p.laid for p in step4)  # the arrows: every run


PARAMS = ROWS.replace(
    'inputs:\n  cards: {encoding: card, count: 5, doc: "cards"}\n',
    'params:\n  owners: {default: [3, 2], doc: "marks per owner"}\n'
    'inputs:\n  cards: {encoding: card, count: 5, doc: "cards"}\n',
).replace(
    "[new(t(i)) for i in 1..2 for j in 1..(3 if i == 1 else 2)]",
    "[new(t(i)) for i in 1..len(owners) for j in 1..owners[i]]",
)


@pytest.mark.parametrize(
    "change",
    [
        None,
        # A for loop's variable in the value: kept per value of the variable.
        (
            '      - place:\n          Q: "[new(t(j)) for j in 1..4]"\n',
            '      - for: {v: "1..3"}\n        do:\n          - place:\n'
            '              Q: "[new(t(v)) for j in 1..4]"\n'
            "          - discard: Q\n",
        ),
        # A region's name among the names: its cards are read (never kept).
        (
            '      - place:\n          Q: "[new(t(j)) for j in 1..4]"\n',
            '      - place:\n          Q: "[new(t(j)) for j in 1..len(M)]"\n',
        ),
        # A value that fails for some parameters: the error every run, never a kept plan.
        (
            "for j in 1..owners[i]]",
            "for j in 1..owners[i + 1]]",
        ),
    ],
)
def test_a_place_kept_by_its_names_runs_alike(tmp_path: Path, change: tuple[str, str] | None) -> None:
    """Attack: a place of new cards kept per layout, parameters and variables, where a
    variable changes between runs of the step, a name is a region, or the value raises."""
    text = PARAMS
    if change is not None:
        assert change[0] in text, change
        text = text.replace(change[0], change[1], 1)
        if "discard: Q\n" in change[1]:
            text = text.replace("      - discard: Q\n      - discard:", "      - discard:", 1)
    library = _library(tmp_path, text)
    proto = library.protocol("rows-mini")
    assert isinstance(program_for(library, proto), Program)
    for owners in ([3, 2], [2, 3], [1, 4]):
        st, assignments = _assignments(library, "rows-mini", 2)
        params = dict(st.params, owners=tuple(owners))
        found = runs.differences(library, proto, params, assignments, range(3))
        assert not found, "\n".join(found)


@pytest.mark.parametrize(
    ("change", "refused"),
    [
        # A row past the region's rows: the interpreter's error.
        (('      - turn: "M[1, *]"\n', '      - turn: "M[4, *]"\n'), "out of range"),
        # An empty place in the row (its first card put back first): the interpreter says which.
        (('      - turn: "M[1, *]"\n', '      - discard: "M[1, 1]"\n      - turn: "M[1, *]"\n'), "empty"),
        # Two rows turned one after the other in a block.
        (('      - turn: "M[1, *]"\n', '      - turn: "M[1, *]"\n      - turn: "M[2, *]"\n'), None),
    ],
)
def test_a_whole_row_turned_at_once_runs_alike(
    tmp_path: Path, change: tuple[str, str], refused: str | None
) -> None:
    """Attack: ``turn: M[r, *]`` read as a stretch of the layout (rows.turn_row): a row past the
    region, an empty place in it, a row turned twice in a block: as the interpreter."""
    assert change[0] in ROWS
    text = ROWS.replace(change[0], change[1], 1)
    result = _compare(_library(tmp_path, text))
    if refused is None:
        assert result[0] == "ran", result[:3]
    else:
        assert result[0] == "error" and refused in result[2], result[:3]


def test_a_variable_named_as_a_region_is_not_read_as_its_row() -> None:
    """A loop's variable that shadows a region's name: not a stretch of the region's slots."""
    from reference_engine.compiled.run import Run

    class FakeRun:
        pass

    run: Any = FakeRun()
    run.layout = Layout.make([("M", 2, 3, 1, None, None)], (), ())
    run.vars = lambda: {"M": (1, 2)}
    assert rows.row_slots(run, "M", 1) is None
    run.vars = lambda: {}
    assert rows.row_slots(run, "M", 2) == (3, 6)
    assert rows.row_slots(run, "M", 3) is None and rows.row_slots(run, "N", 1) is None
    run.layout = Layout.make([("M", 2, 3, 1, "M", None)], (), ())
    assert rows.row_slots(run, "M", 1) is None  # a hand
    run.layout = Layout.make([("M", 2, 3, 2, None, None)], (), ())
    assert rows.row_slots(run, "M", 1) is None  # items of two cards
    assert Run  # the type a real run has


def test_the_shape_of_new_cards_tells_every_layout_apart() -> None:
    """A place's plan is kept by the number of codes of each group: said at once where every
    group has as many (an arrow per column), group by group otherwise; never the same key for
    two different shapes."""
    from reference_engine.table import NewCards

    one = NewCards([SYMBOLS.intern("t1")])
    other = NewCards([SYMBOLS.intern("t2")])
    pair = NewCards([SYMBOLS.intern("t1"), SYMBOLS.intern("t2")])
    shapes = {}
    for value in ([one, other, one], [pair, pair, pair], [one, pair, one], [pair, one, one], [one, one]):
        lines = rows.Lines(True)
        assert lines.add(value, "columns")
        shapes[tuple(lines.shapes)] = [len(v) for v in value]
        assert tuple(chain_codes(lines)) == tuple(c for v in value for c in rows._codes(v, True))
    assert len(shapes) == 5, shapes
    assert (("each", 3, 1),) in shapes and (("each", 3, 2),) in shapes and ((1, 2, 1),) in shapes


def chain_codes(lines: rows.Lines) -> list[int]:
    return [c for line in lines.lines for c in line]


# --------------------------------------------------------------------------- w37-rows3


def test_the_kept_draws_stay_exact_and_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Attack: a scramble's draws kept per number of piles are the shuffle's, for sizes met in
    any order and again after the store started afresh (a few sizes kept at a time here)."""
    monkeypatch.setattr(rows, "KEPT", 3)
    monkeypatch.setattr(rows, "_DRAWS", {})
    sizes = [108, 2, 0, 1, 108, 5, 64, 65, 108, 3, 200, 2]
    for n, k in enumerate(sizes):
        a, b = random.Random(n), random.Random(n)
        assert rows.scramble(a, k) == Shuffle("scramble", k).sample(b)
        assert a.getstate() == b.getstate()
        assert len(rows._DRAWS) <= 3
        assert rows._DRAWS[k] == tuple((i, (i + 1).bit_length()) for i in range(k - 1, 0, -1))


@pytest.mark.parametrize(
    "before",
    [
        '      - turn: "M[1, *]"\n',  # every card of row 1 face up: the wash is seen
        '      - turn: "M[1, 2]"\n',  # one card face up
        '      - discard: "M[2, 2]"\n',  # an empty place (an odd code): refused alike
        '      - discard: "M[2, 2]"\n      - turn: "M[1, 3]"\n',  # and a card face up: refused alike
    ],
)
def test_a_wash_of_columns_is_seen_alike(tmp_path: Path, before: str) -> None:
    """Attack: the wash of step 3 with cards face up, an empty place (whose code is odd) or
    both, before it: seen (or not) as the interpreter sees it."""
    old = '      - shuffle:\n          scramble: "columns(M)"\n'
    assert old in ROWS
    text = ROWS.replace(old, before + old, 1)
    result = _compare(_library(tmp_path, text))
    assert result[0] in ("ran", "error"), result[:3]


BOOL = """\
protocol: rows-bool
title: A place of new cards whose value tells 1 from true
summary: the same step, on the same layout, with a variable 1 then true
params:
  sizes: {default: [2, 1], min: 0, doc: sizes}
symbols:
  alpha: {glyph: "α"}
  beta: {glyph: "β"}
  theta: {family: true, glyph: "θ{}", doc: owner}
encodings:
  card: {values: {0: [alpha], 1: [beta]}, doc: a card}
inputs:
  cards: {encoding: card, count: "sum(sizes)", groups: sizes, doc: cards}
steps:
  - step: 1
    say: first
    place:
      K: "[new(theta(3))]"
    face: up
  - step: 2
    say: again
    for: {k: "[1, 1 == 1]"}
    do:
      - place:
          "K[2, *]": "[new(theta(2 if str(k) == 'True' else 1))]"
        face: up
      - let:
          last: "K[2, 1]"
      - discard: "K[2, *]"
outputs:
  found: {public: true, value: "last"}
"""


def test_a_place_kept_by_its_variables_tells_1_from_true(tmp_path: Path) -> None:
    """Attack (w37-attack2): NewPlace.same kept what a place lays out by its variables' values,
    and 1 == true in Python: the second round reused the first's θ1 where the interpreter lays
    out θ2 (``str(k)`` is "True")."""
    (tmp_path / "rows-bool.yaml").write_text(BOOL, encoding="utf-8")
    library = Library([tmp_path, rulesets_dir() / "protocols"])
    proto = library.protocol("rows-bool")
    st, assignments = _assignments(library, "rows-bool", 2)
    found = runs.differences(library, proto, st.params, assignments, range(2))
    assert not found, "\n".join(found)
    result = runs.single(library, proto, st.params, assignments[0], 0, "compiled")
    assert result[0] == "ran" and "theta2" in repr(result[8]), result


def test_exact_keys_tell_types_apart_all_the_way_down() -> None:
    keys = [1, True, "1", (1,), (True,), ((1, 2),), ((True, 2),), None, ()]
    exact = [rows._exact(k) for k in keys]
    assert len(set(exact)) == len(keys)
    assert rows._exact((1, "a", (2,))) == rows._exact((1, "a", (2,)))
