"""A take's columns found by one scan of a row (:mod:`reference_engine.compiled.takes`): which
expressions are recognised, and, on variants of the card selection that break each condition
of the scan (a row face down, a region shadowed by a variable, a face that is not a card, a
guard that is not a truth value, another range...), the same runs as the interpreter, errors
included, with every scanned result checked against the expression's own value."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import runs  # noqa: E402

from reference_engine import steps as st  # noqa: E402
from reference_engine.cards import EMPTY, SYMBOLS, Symbol  # noqa: E402
from reference_engine.compiled import takes  # noqa: E402
from reference_engine.compiled.helpers import h_eq_face, h_face_row  # noqa: E402
from reference_engine.expressions import parse  # noqa: E402
from reference_engine.functions import BUILTINS  # noqa: E402
from reference_engine.machine import Runner  # noqa: E402
from reference_engine.registry import Library, rulesets_dir  # noqa: E402
from reference_engine.sleeves import SleeveFrame  # noqa: E402
from reference_engine.table import Layout  # noqa: E402
from reference_engine.verify import input_assignments, setting  # noqa: E402

ARROW = rulesets_dir() / "protocols" / "card-selection-arrow.yaml"
PILE = '          pile: "len(sizes) - discard"\n'
FIRST = "[j for j in 1..ncols(M) if draw == 1 and M[2, j] == theta(1) and not any("


def _scan(text: str) -> takes.ColumnScan | None:
    proto = Library().protocol("card-selection-arrow")
    return takes.column_scan(parse(text).node, proto)


def test_the_card_selections_takes_are_scans() -> None:
    lib = Library()
    found = []
    for name in lib.names():
        for step in st.walk(lib.protocol(name).steps):
            if isinstance(step, st.Take) and step.columns is not None:
                scan = takes.column_scan(step.columns.node, lib.protocol(name))
                if scan is not None:
                    found.append((name, scan.region, scan.row, scan.first, scan.guard is not None))
    assert ("card-selection-arrow", "M", 2, False, False) in found
    assert ("card-selection-arrow", "M", 2, True, True) in found
    assert len(found) >= 10


@pytest.mark.parametrize(
    "text",
    [
        "[j for j in 1..ncols(M) - 1 if M[2, j] == theta(1)]",  # not the whole row
        "[j for j in 2..ncols(M) if M[2, j] == theta(1)]",
        "[j for j in 1..ncols(L) if M[2, j] == theta(1)]",  # another region's width
        "[j + 1 for j in 1..ncols(M) if M[2, j] == theta(1)]",  # not the column itself
        "[j for j in 1..ncols(M) if M[2, j] != theta(1)]",
        "[j for j in 1..ncols(M) if M[2, j] == theta(j)]",  # the face depends on the column
        "[j for j in 1..ncols(M) if M[j, 2] == theta(1)]",
        "[j for j in 1..ncols(M) if M[r, j] == theta(1)]",  # a row that is not a number
        "[j for j in 1..ncols(M) if draw == j and M[2, j] == theta(1) "
        "and not any(M[2, i] == theta(1) for i in 1..j - 1)]",
        FIRST + "M[2, i] == theta(2) for i in 1..j - 1)]",
        FIRST + "M[2, i] == theta(1) for i in 1..j)]",
        FIRST + "M[3, i] == theta(1) for i in 1..j - 1)]",
        FIRST.replace("not any(", "any(") + "M[2, i] == theta(1) for i in 1..j - 1)]",
        "[j for j in 1..ncols(M) if draw == 1 or M[2, j] == theta(1)]",
    ],
)
def test_what_is_not_a_scan_is_evaluated_as_written(text: str) -> None:
    assert _scan(text) is None


def test_the_near_misses_differ_from_scans_by_their_one_change() -> None:
    whole = _scan("[j for j in 1..ncols(M) if M[2, j] == theta(pile)]")
    first = _scan(FIRST + "M[2, i] == theta(1) for i in 1..j - 1)]")
    assert whole is not None and not whole.first and whole.guard is None
    assert first is not None and first.first and first.guard is not None


# Variants of the card selection, each breaking one condition of the scan (or none).
VARIANTS: dict[str, tuple[str, str]] = {
    "as shipped": ("", ""),
    "owner cards face down": ('      - turn: "M[2, *]"\n', ""),  # step 9 reads them without turning them
    "face not a card": ("M[2, j] == theta(1)]", "M[2, j] == 1]"),
    "face of the draw pile": ("M[2, j] == theta(1)]", "M[2, j] == theta(pile)]"),
    "face nobody has": ("M[2, j] == theta(1)]", "M[2, j] == theta(9)]"),  # the lottery refuses m = 0
    "guard a number": ("if draw == 1 and M[2, j]", "if draw and M[2, j]"),
    # The face kept by the value of a variable that changes from run to run (its card differs).
    "face of a changing owner": (
        '          pile: "len(sizes) - discard"\n',
        '          pile: "1 + ncols(M) % 2"\n',
    ),
    "face read from a region": ("M[2, j] == theta(1)]", "M[2, j] == theta(len(M) - len(M) + 1)]"),
    "region shadowed": (
        '          pile: "len(sizes) - discard"\n',
        '          pile: "len(sizes) - discard"\n          M: 2\n',
    ),
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_scanned_take_runs_as_the_interpreter(
    tmp_path: Path, variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    old, new = VARIANTS[variant]
    text = ARROW.read_text(encoding="utf-8")
    if old:
        assert old in text, old
        text = text.replace(old, new, 1)
    (tmp_path / "card-selection-arrow.yaml").write_text(text, encoding="utf-8")
    lib = Library([tmp_path, rulesets_dir() / "protocols"])
    proto = lib.protocol("card-selection-arrow")
    scanned: list[Any] = []
    columns = takes.ColumnScan.columns

    def counted(self: takes.ColumnScan, run: Any) -> Any:
        got = columns(self, run)
        scanned.append((self.first, got))
        return got

    monkeypatch.setattr(takes.ColumnScan, "columns", counted)
    s = setting(proto)
    frame = Runner(lib, "sample").frame(proto, s.params)
    every = input_assignments(frame, s.deal)
    assignments = every[:: max(1, len(every) // 6)][:6]
    kinds: set[str] = set()
    for draw in (0, 1):
        params = {**s.params, "draw": draw}
        found = runs.differences(lib, proto, params, assignments, range(2), s.context or None, kinds)
        assert not found, "\n".join(found)
    firsts = [cols for first, cols in scanned if not first]
    if variant in (
        "as shipped",
        "face of the draw pile",
        "face of a changing owner",
        "face read from a region",
    ):
        assert kinds == {"ran"} and any(cols for _, cols in scanned)
    if variant == "face nobody has":
        assert firsts and all(cols == () for cols in firsts)
    if variant in ("owner cards face down", "face not a card", "region shadowed"):
        assert all(cols is None for cols in firsts)  # evaluated as written
    if variant == "guard a number":
        assert all(cols is None for first, cols in scanned if first)


class _Const:
    """An expression part standing for a value (or raising, for ``boom``)."""

    def __init__(self, value: Any):
        self.v = value

    def value(self, run: Any) -> Any:
        if self.v == "boom":
            raise ValueError("boom")
        return self.v


def test_the_scan_reads_a_row_exactly_as_the_generated_code_compares_its_faces() -> None:
    """Random rows (face down, empty, in sleeves that show or hide them, a region shadowed by a
    variable, faces not registered, ranges, guards): the scan gives the columns the generated
    code's row reading (``h_face_row``) and comparison (``h_eq_face``) give, or None exactly
    where that reading refuses the row (the expression is then evaluated as written)."""
    faces = [SYMBOLS.intern(f"take_test_{i}") for i in range(4)]
    stray = Symbol("take_test_0", "x", faces[0].id)  # equal by name, not the registered object
    rng = random.Random(5)
    sleeves = [None, SleeveFrame((1, 2), (1, 2), frozenset({1, 2}), frozenset(), "back", "sleeve")]
    sleeves.append(SleeveFrame((1, 2), (1, 2), frozenset({1, 2}), frozenset(), "front", "sleeve"))
    sleeves.append(SleeveFrame((1, 2), (1,), frozenset({1, 2}), frozenset(), "front", "sleeve"))
    seen = {"none": 0, "some": 0, "empty": 0}
    for _ in range(3000):
        cols = rng.randrange(1, 7)
        layout = Layout.make([("M", 2, cols, 1, None, rng.choice(sleeves))])
        cells = [rng.choice(faces).id << 1 | (rng.random() < 0.9) for _ in range(2 * cols)]
        if rng.random() < 0.1:
            cells[rng.randrange(len(cells))] = EMPTY
        shadow = {"M": 1} if rng.random() < 0.05 else {}
        face: Any = rng.choice([*faces, faces[0], stray, 3])
        hi: Any = rng.choice([cols] * 6 + [cols - 1, True if cols == 1 else cols, "boom"])
        first = rng.random() < 0.5
        guard = _Const(rng.choice([True, True, False, 1, "boom"])) if first else None
        scan = takes.ColumnScan("M", 2, _Const(hi), _Const(face), guard, first)  # type: ignore[arg-type]
        # ``ncols`` not the built-in: the range's end is evaluated (see the test below for the other case)
        frame = SimpleNamespace(globals=SimpleNamespace(functions={}))
        run = SimpleNamespace(layout=layout, cells=cells, vars=lambda shadow=shadow: shadow, frame=frame)
        got = scan.columns(run)
        env = SimpleNamespace(vars=shadow, layout=layout, cells=cells)
        row = h_face_row(env, "M", 2)  # type: ignore[arg-type]
        if not row or type(hi) is not int or hi != cols or type(face) is not Symbol or face is stray:
            want: Any = None
        else:
            want = tuple(j for j in range(1, cols + 1) if h_eq_face(row[j], face))
            if first:
                assert guard is not None
                if guard.v == "boom" or type(guard.v) is not bool:
                    want = None
                elif not guard.v:
                    want = ()
                else:
                    want = want[:1]
        if first and guard is not None and type(guard.v) is bool and not guard.v and row and hi == cols:
            want = () if type(hi) is int else None
        assert got == want, (cells, layout, face, hi, first, guard and guard.v, shadow)
        seen["none" if got is None else "some" if got else "empty"] += 1
    assert min(seen.values()) > 200, seen


def test_the_scan_skips_the_range_end_only_for_the_built_in_ncols() -> None:
    """With ``ncols`` the built-in, ``ncols(M)`` of the layout's region is its width, whatever the
    part would say (it is not evaluated); with another function of that name, it is evaluated."""
    layout = Layout.make([("M", 2, 3, 1, None)])
    face = SYMBOLS.intern("take_test_0")
    cells = [face.id << 1 | 1] * 6
    for functions, want in (({"ncols": BUILTINS["ncols"]}, (1, 2, 3)), ({"ncols": len}, None)):
        frame = SimpleNamespace(globals=SimpleNamespace(functions=functions))
        run = SimpleNamespace(layout=layout, cells=cells, vars=lambda: {}, frame=frame)
        scan = takes.ColumnScan("M", 2, _Const(2), _Const(face), None, False)  # type: ignore[arg-type]
        assert scan.columns(run) == want


class _Counted:
    """An expression part that counts its evaluations (its value: ``value(vars)``)."""

    def __init__(self, text: str, value: Any):
        self.expr = parse(text)
        self.text = text
        self.fn = value
        self.n = 0

    def value(self, run: Any) -> Any:
        self.n += 1
        return self.fn(run.vars())


def test_a_kept_part_is_kept_by_its_names_values_and_types_and_never_reads_a_region() -> None:
    proto = Library().protocol("card-selection-arrow")
    layout = Layout.make([("M", 2, 3, 1, None)])
    frame = SimpleNamespace(globals=SimpleNamespace(functions=dict(BUILTINS), names={"draw": 1}))

    def run(env: dict[str, Any], lay: Layout = layout) -> Any:
        return SimpleNamespace(layout=lay, vars=lambda: env, frame=frame)

    part = _Counted("theta(pile)", lambda env: ("card", type(env["pile"]), env["pile"]))
    kept = takes.KeptPart(part, proto)  # type: ignore[arg-type]
    for pile in (1, 2, 1, True, 1, True, "1", 2):
        assert kept.value(run({"pile": pile})) == ("card", type(pile), pile)
    assert part.n == 4  # 1, 2, True and "1": 1 and true are told apart
    guard = _Counted("draw == 1", lambda env: True)
    kept = takes.KeptPart(guard, proto)  # type: ignore[arg-type]
    kept.value(run({}))
    kept.value(run({}))
    kept.value(run({"draw": 1}))  # a variable of the name: another key
    assert guard.n == 2
    shadowed = Layout.make([("M", 2, 3, 1, None), ("draw", 1, 1, 1, None)])
    kept.value(run({}, shadowed))
    kept.value(run({}, shadowed))  # a region of the name: read each time
    assert guard.n == 4
    # A game's function, a function of the layout, a list's value: evaluated each time; a text: kept.
    for text, env, n in (
        ("theta(n) if valid(x) else theta(1)", {"n": 1, "x": 1}, 2),
        ("theta(ncols(M))", {}, 2),
        ("theta(len(k)) + 0", {"k": [1]}, 2),
        ("theta(len(k)) + 0", {"k": "a"}, 1),
    ):
        other = _Counted(text, lambda env: 1)
        kept = takes.KeptPart(other, proto)  # type: ignore[arg-type]
        for _ in range(2):
            kept.value(run(env))
        assert other.n == n, text
    frame.globals.functions["len"] = len  # a game's function named len: not kept
    other = _Counted("theta(len(k))", lambda env: 1)
    kept = takes.KeptPart(other, proto)  # type: ignore[arg-type]
    for _ in range(2):
        kept.value(run({"k": "a"}))
    assert other.n == 2


def test_take_plans_with_their_layout_kept_are_the_builders_plans() -> None:
    """TakePlans keeps the layout a take makes per layout and number of columns: on random
    columns of random tables (sleeved or not, other regions around, the new region's name taken
    or not), each plan, the first and the kept ones, is the general builder's, gather included."""
    from reference_engine.compiled import plans as fp
    from reference_engine.compiled.base import same_plan

    rng = random.Random(7)
    sleeve = SleeveFrame((1, 2, 3), (1, 2, 3), frozenset({1, 2, 3}), frozenset(), "back", "sleeve")
    step = st.Take(path=(), line=0, number="10", say="", source="M", into="L")  # type: ignore[arg-type]
    plans = takes.TakePlans(step)
    for _ in range(400):
        width = rng.randrange(1, 8)
        shapes: list[Any] = [("A", 1, 2, 1, None)] if rng.random() < 0.5 else []
        shapes.append(("M", 3, width, 1, None, sleeve if rng.random() < 0.8 else None))
        if rng.random() < 0.2:
            shapes.append(("L", 1, 1, 1, None))
        layout = Layout.make(shapes)
        cols = tuple(rng.sample(range(1, width + 1), rng.randrange(0, width + 1)))
        res = ("M", cols, "L")
        try:
            want = fp.build_take(layout, res)
        except fp.Defer:
            with pytest.raises(fp.Defer):
                plans(layout, res)
            continue
        same_plan(step, plans(layout, res), want, layout)
        same_plan(step, plans(layout, res), want, layout)  # kept now
    assert len(plans.after) > 0


def _drafted_take(layout: Layout, res: Any) -> Any:
    """build_take's general path (a draft of the table), never its runs."""
    from reference_engine.compiled import plans as fp

    source, cols, into = res
    reg = layout.by_name[source]
    d = fp.FastDraft(layout)
    grid = d.grid(source)
    keep = [c for c in range(1, reg.cols + 1) if c not in set(cols)]
    d.grids[source] = fp._columns(grid, keep)
    d.add_region(into, fp._columns(grid, cols), sleeve=reg.sleeve)
    if not keep:
        d.remove_region(source)
    return d.plan({})


def test_take_plans_from_runs_are_the_drafts_plans_for_hands_units_and_sleeves() -> None:
    """Hostile tables for TakePlans (a region of several rows, of two-column units, a hand, in
    sleeves that show or hide, among other regions and hands): each plan, the first and the kept
    ones, is the general draft's (build_take itself takes the runs' path, so it cannot judge it)."""
    from reference_engine.compiled.base import same_plan

    rng = random.Random(3)
    sleeves = [
        SleeveFrame((1, 2, 3), (1, 2, 3), frozenset({1, 2, 3}), frozenset(), "back", "sleeve"),
        SleeveFrame((1, 2, 3), (1,), frozenset({1, 2, 3}), frozenset(), "front", "sleeve"),
    ]
    step = st.Take(path=(), line=0, number="10", say="", source="M", into="L")  # type: ignore[arg-type]
    plans = takes.TakePlans(step)
    compared = 0
    for _ in range(600):
        width = rng.randrange(1, 7)
        shapes: list[Any] = [("A", 1, 2, 1, None)] if rng.random() < 0.5 else []
        if rng.random() < 0.3:
            shapes.append(("H", 1, 3, 1, "P1"))
        unit, hand = rng.choice([1, 1, 2]), rng.choice([None, None, "P2"])
        m = ("M", rng.randrange(1, 4), width, unit, hand, rng.choice(sleeves))
        shapes.insert(rng.randrange(len(shapes) + 1), m)
        layout = Layout.make(shapes)
        res = ("M", tuple(rng.sample(range(1, width + 1), rng.randrange(1, width + 1))), "L")
        want = _drafted_take(layout, res)
        for _ in range(2):
            same_plan(step, plans(layout, res), want, layout)
            compared += 1
    assert compared == 1200 and len(plans.after) > 0
