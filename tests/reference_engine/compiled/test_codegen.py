"""The generated expressions of the compiled path: ``any``/``all`` over a range inside another
comprehension is computed from a memo (each item once, every item still computed)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from reference_engine.cards import EMPTY, SYMBOLS
from reference_engine.compiled.codegen import generate
from reference_engine.compiled.helpers import HELPERS, Env, Slow, h_any_range
from reference_engine.compiled.program import expressions
from reference_engine.expressions import parse
from reference_engine.expressions.values import Scope
from reference_engine.functions import BUILTINS
from reference_engine.registry import Library
from reference_engine.table import Layout


def _memo_calls(protocol: str, text: str) -> str:
    library = Library()
    proto = library.protocol(protocol)
    (expr,) = [e for e in expressions(proto.steps) if e.text.split() == text.split()]
    return generate(expr.node, proto)[0]


def test_the_arrow_take_reads_its_owner_cards_through_the_memo() -> None:
    source = _memo_calls(
        "card-selection-arrow",
        "[j for j in 1..ncols(M) if draw == 1 and M[2, j] == theta(pile)\n"
        "and not any(M[2, i] == theta(pile) for i in 1..j - 1)]\n",
    )
    assert source.count("_anyr(M1, ") == 1 and "    M1 = {}\n" in source


def test_an_any_whose_items_follow_the_outer_variable_has_no_memo() -> None:
    library = Library()
    proto = library.protocol("card-selection-arrow")
    expr = parse("[j for j in 1..3 if any(i == j for i in 1..j - 1)]")
    source, _ = generate(expr.node, proto)
    assert "_anyr" not in source
    top = parse("any(i == 2 for i in 1..3)")  # not inside a comprehension: computed once anyway
    assert "_anyr" not in generate(top.node, proto)[0]


@pytest.mark.parametrize("seed", range(20))
def test_the_memo_answers_as_any_and_all_of_the_whole_list(seed: int) -> None:
    rng = random.Random(seed)
    items = {i: rng.random() < 0.3 for i in range(-3, 40)}
    computed: list[int] = []

    def item(i: int) -> bool:
        computed.append(i)
        return items[i]

    memo: dict[int, list[int]] = {}
    for _ in range(60):
        lo = rng.randrange(-3, 5)
        hi = rng.randrange(-5, 39)
        want = [items[i] for i in range(lo, hi + 1)]
        assert h_any_range(memo, lo, hi, item, True) is any(want)
        assert h_any_range(memo, lo, hi, item, False) is all(want)
    # Each item computed once per start of the range asked for (not once per question).
    assert len(computed) == sum(kept[0] for kept in memo.values())


def test_the_memo_computes_every_item_before_it_answers() -> None:
    """The interpreter makes the whole list before ``any`` reads it: an item it cannot compute
    (here: Slow, a card face down) is reached even when an earlier item is already true, so the
    fast function gives up and the interpreter says what it says."""

    def item(i: int) -> bool:
        if i == 4:
            raise Slow()
        return i == 1

    memo: dict[int, list[int]] = {}
    assert h_any_range(memo, 1, 3, item, True) is True
    with pytest.raises(Slow):
        h_any_range(memo, 1, 5, item, True)
    with pytest.raises(Slow):
        h_any_range({}, 1, 2_000_000, item, True)  # beyond the range limit: the interpreter's error


TRUTH_CASES = [
    "[j for j in 0..5 if j and (j - 2 or [])]",  # numbers and lists tested for truth in an and/or chain
    "[j for j in 0..5 if not (j % 2 and [j])]",
    "[j for j in 0..5 if j % 3 or j == 4 or []]",
    "[(j if j - 1 else [j]) for j in 0..3]",
    "[j for j in 1..4 if x == 1 and j > 1]",  # x == 1 uses no variable: computed once
    "[j for j in 1..4 if x == 2 or j in [2, 3]]",
    "[j for j in 1..0 if x == 1]",  # an empty comprehension
    "[j for j in 1..6 if j > 1 and not any(i % 3 == 0 for i in 1..j - 1)]",
    "[j for j in 1..6 if j != 3 and (x or [])]",
    "not (x and [])",
]


@pytest.mark.parametrize("text", TRUTH_CASES)
def test_tests_for_truth_give_the_interpreters_values(text: str) -> None:
    """``if`` clauses, ``not`` and conditionals are generated as Python's ``and``/``or`` of
    the parts' truth (no helper call, no closure per part) and comparisons that use no variable
    of the comprehension are computed once: the values stay the interpreter's."""
    library = Library()
    proto = library.protocol("card-selection-arrow")
    expr = parse(text)
    source, consts = generate(expr.node, proto)
    assert "_and(" not in source and "_or(" not in source
    namespace = dict(HELPERS)
    namespace["K"] = consts
    exec(compile(source, "<test>", "exec"), namespace)
    for x in (0, 1, 2, [], [0]):
        env = Env(lambda: None, None, [], {"x": x}, {}, {})  # type: ignore[arg-type]
        assert namespace["fast"](env) == expr(Scope({"x": x}, functions=dict(BUILTINS))), (text, x)


HOSTILE_CASES = [
    "[j for j in 1..0 if x < 1]",  # an empty comprehension whose hoisted comparison raises
    "[j for j in 1..3 if j > 5 and x < 1]",  # a comparison that raises, in a part never reached
    "[j for j in 1..3 if j > 5 and xs[5] == 1]",
    "[j for j in 1..3 if j > 5 and x // 0 == 1]",
    "[j for j in 1..3 if x == 1 and x < 1]",
    "[j for j in 1..3 if x > j and x < 1]",  # the interpreter's error is the first comparison's
    "[j for j in 1..3 if j > 5 and 3 in x]",
    "[j for j in 1..3 for k in 1..0 if x < 1]",
    "[(x < 1 if j > 5 else 0) for j in 1..3]",
    "[xs[j] for j in [1, true, 3]]",
    "[xs[j] for j in [0, -1, true, 1]]",
    "xs[true]",
    "xs[0]",
    "xs[-1]",
    "xs[[1, 3]]",
    "xs['a']",
    "ts[2]",
    "s[1]",
    "xs[4]",
]


@pytest.mark.parametrize("text", HOSTILE_CASES)
def test_a_hoisted_part_that_raises_never_gives_another_value(text: str) -> None:
    """Attack (round 3): a comparison or an index computed once before its comprehension raises
    where the interpreter never evaluates it (an empty comprehension, a part after ``and``). The
    fast function may raise (its caller then evaluates the interpreter's way, see
    compiled/evaluate.py), but it never returns another value than the interpreter's."""
    library = Library()
    proto = library.protocol("card-selection-arrow")
    expr = parse(text)
    source, consts = generate(expr.node, proto)
    namespace = dict(HELPERS)
    namespace["K"] = consts
    exec(compile(source, "<test>", "exec"), namespace)
    for x in (0, 1, 2, [], [0], "a", True):
        names = {"x": x, "xs": [10, 20, 30], "ts": (1, 2), "s": "abc"}
        env = Env(lambda: None, None, [], dict(names), {}, {})  # type: ignore[arg-type]
        try:
            got = namespace["fast"](env)
        except Exception:  # the caller falls back to the interpreter: nothing to compare
            continue
        assert got == expr(Scope(dict(names), functions=dict(BUILTINS))), (text, x)


@pytest.mark.parametrize(
    "text",
    [
        "[j for j in 1..4 if valid(j)]",
        "[(1 if valid(j) else 0) for j in 1..4]",
        "[j for j in 1..4 if valid(j) and j > 1]",
        "not valid(2)",
        # In a comprehension's iterable Python refuses a walrus: generated without one.
        "[j for j in (1..2 if valid(1) else 1..3)]",
        "[k for j in 1..2 for k in (1..j if valid(j) else [])]",
    ],
)
def test_a_games_answer_is_tested_for_truth_as_the_interpreter_does(text: str) -> None:
    """A game function's answer in an ``if``: a bool tested as it is, anything else (a number,
    a list, none) through ``truthy``, each answer asked once and in order; where Python refuses
    the walrus that names it, the expression is generated without one (still fast)."""
    library = Library()
    proto = library.protocol("card-selection-arrow")
    expr = parse(text)
    from reference_engine.compiled.codegen import fast_function

    fast = fast_function(expr.node, proto)
    assert fast is not None, text
    source, _ = generate(expr.node, proto)
    assert ":=" in source, source
    if "(1..2 if" in text or "(1..j if" in text:
        with pytest.raises(SyntaxError):
            compile(source, "<test>", "exec")
        assert ":=" not in generate(expr.node, proto, walrus=False)[0]
    for answers in ([True, False, True, False], [1, 0, [], [0]], [None, True, 2, False], [False] * 4):
        asked: list[Any] = []

        def valid(j: Any, answers: list[Any] = answers, asked: list[Any] = asked) -> Any:
            asked.append(j)
            return answers[(j - 1) % 4]

        def wrapper(scope: Any, j: Any) -> Any:
            return valid(j)

        wrapper.direct = valid  # type: ignore[attr-defined]
        env = Env(lambda: None, None, [], {}, {}, {**BUILTINS, "valid": wrapper})  # type: ignore[arg-type]
        got = fast(env)
        calls = list(asked)
        asked.clear()
        want = expr(Scope({}, functions={**BUILTINS, "valid": wrapper}))
        assert got == want and calls == asked, (text, answers, got, want, calls, asked)


def _owners(text: str) -> Any:
    library = Library()
    proto = library.protocol("card-selection-arrow")
    source, consts = generate(parse(text).node, proto)
    namespace = dict(HELPERS)
    namespace["K"] = consts
    exec(compile(source, "<test>", "exec"), namespace)
    return source, namespace["fast"]


def _outcome(fast: Any, env: Env) -> Any:
    try:
        return fast(env)
    except Exception as exc:  # Slow, or an error the interpreter then reports its own way
        return type(exc).__name__


@pytest.mark.parametrize("seed", range(12))
def test_the_owners_of_a_row_read_at_once_are_the_comprehensions(seed: int) -> None:
    """``[family_index(t) for t in M[2, *]]`` (Step 12's owners) is one helper over the row's
    codes (h_family_row): the same list as the comprehension card by card, and the same refusal
    where the comprehension refuses (a card face down, an empty slot, a face whose name ends in
    no number, ``M`` a variable, a row that is not there)."""
    rng = random.Random(seed)
    source, fast = _owners("[family_index(t) for t in M[2, *]]")
    assert "_famrow(" in source and "_famidx(" not in source
    generic_source, generic = _owners("[family_index(t) for t in M[2, *] if 1 == 1]")
    assert "_famrow(" not in generic_source
    named = [SYMBOLS.intern(f"w37owner{n}") for n in range(1, 9)]
    plain_face = SYMBOLS.intern("w37ownerless")
    cols = rng.randrange(0, 7)
    layout = Layout.make([("M", 3, cols, None, None)], (), ())
    for case in range(40):
        cells = [rng.choice(named).id << 1 | 1 for _ in range(3 * cols)]
        if case % 4 == 1 and cols:
            cells[cols + rng.randrange(cols)] &= ~1  # face down
        if case % 4 == 2 and cols:
            cells[cols + rng.randrange(cols)] = EMPTY
        if case % 8 == 3 and cols:
            cells[cols + rng.randrange(cols)] = plain_face.id << 1 | 1
        variables = {"M": [1, 2]} if case % 10 == 9 else {}
        env = Env(lambda: None, layout, cells, variables, {}, dict(BUILTINS))  # type: ignore[arg-type]
        want = _outcome(generic, env)
        assert _outcome(fast, env) == want, (seed, case, cells)
        if cols and case % 4 == 0 and not variables:
            assert want == [int(SYMBOLS.by_id(c >> 1).name[8:]) for c in cells[cols : 2 * cols]]


@pytest.mark.parametrize("fn", ["ncols", "nrows"])
def test_a_regions_size_read_from_the_layout_is_the_built_ins(fn: str) -> None:
    """``ncols(M)``/``nrows(M)`` of a region are read from the layout (h_region_shape), without
    a selection made: the built-in's value on the name's value wherever the name is looked up
    (a region, a variable or a spec's name of that name first, a hand, nothing)."""
    library = Library()
    proto = library.protocol("card-selection-arrow")
    source, consts = generate(parse(f"{fn}(M)").node, proto)
    assert "_rshape(" in source
    namespace = dict(HELPERS)
    namespace["K"] = consts
    exec(compile(source, "<test>", "exec"), namespace)
    fast = namespace["fast"]
    layout = Layout.make([("M", 3, 5, None, None), ("H", 1, 2, None, "H")], (), ())
    hand = Layout.make([("M", 1, 4, None, "M")], (), ())
    other = Layout.make([("N", 2, 2, None, None)], (), ())
    for table, variables, names in [
        (layout, {}, {}),
        (layout, {"M": [1, 2]}, {}),  # a variable named M comes first
        (layout, {"M": 3}, {}),
        (hand, {}, {}),  # a hand: the general path (the interpreter's reading)
        (other, {}, {"M": [1]}),  # a spec's name, not a region
        (other, {}, {}),  # nothing of that name
    ]:
        env = Env(lambda: None, table, [0] * table.size, variables, names, dict(BUILTINS))  # type: ignore[arg-type]
        want = _outcome(lambda e: BUILTINS[fn](None, HELPERS["_lk"](e, "M")), env)
        assert _outcome(fast, env) == want, (fn, table, variables, names)
    env = Env(lambda: None, layout, [0] * layout.size, {}, {}, dict(BUILTINS))  # type: ignore[arg-type]
    assert fast(env) == (5 if fn == "ncols" else 3)
