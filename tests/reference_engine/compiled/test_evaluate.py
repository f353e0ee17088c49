"""The compiled evaluator's values: a list of whole numbers is taken as it is, anything else
made plain all the way down, as the interpreter's ``deep_plain`` makes it."""

from __future__ import annotations

import gc
import weakref
from types import SimpleNamespace
from typing import Any

import pytest

from reference_engine.compiled.evaluate import _deep_plain, env_of
from reference_engine.compiled.run import NO_METERS, Run
from reference_engine.machine import deep_plain
from reference_engine.table import Layout


@pytest.mark.parametrize(
    "value",
    [[1, 2, 3], [], [True, 1], [1, [2, 3]], 5, [None], (1, 2), [1, "a"], [False]],
)
def test_a_value_is_the_interpreters(value: Any) -> None:
    got, want = _deep_plain(value), deep_plain(value)
    assert got == want and type(got) is type(want)
    if isinstance(want, list):
        assert [type(x) for x in got] == [type(x) for x in want]  # a bool stays a bool


class _Odd(int):
    """A whole number of another type: not one :func:`_deep_plain` gives back unlooked at."""


@pytest.mark.parametrize("value", [True, False, 0, 7, "a", "", None, _Odd(3), 2.5, (1,), [True]])
def test_a_plain_value_is_given_back_as_it_is(value: Any) -> None:
    """A truth, a whole number, a text or None: the very value, as ``deep_plain`` gives it
    (without its calls); any other type (a subclass of int, a float, a tuple, a list) goes
    through ``deep_plain`` as before."""
    got, want = _deep_plain(value), deep_plain(value)
    assert got == want and type(got) is type(want)
    if not isinstance(value, list):
        assert got is value


def test_a_list_of_numbers_is_a_copy() -> None:
    value = [3, 1]
    got = _deep_plain(value)
    assert got == value and got is not value  # the caller may keep it: no list shared with a variable


def _run(layout: Layout, cells: list[int], env: tuple[tuple[str, Any], ...]) -> Run:
    run: Run = object.__new__(Run)
    run.layout, run.cells, run.env = layout, cells, env
    run.out, run.meters, run.view = (), NO_METERS, 0
    run._vars, run._vars_of, run.E = {}, None, None
    run.frame = SimpleNamespace(globals=SimpleNamespace(names={"k": 7}, functions={}))
    return run


def test_a_run_reads_through_one_env_kept_up_to_date() -> None:
    """env_of: one Env a run, made on its first evaluation; every later one sees the table,
    its cells and its variables as they are then, and a reader of the faces made again."""
    a = Layout.make([("w37env", 1, 2, None, None)], (), ())
    b = Layout.make([("w37env", 1, 3, None, None)], (), ())
    run = _run(a, [2, 4], (("x", 1),))
    env = env_of(run)
    assert (env.layout, env.cells, env.vars, env.names) == (a, [2, 4], {"x": 1}, {"k": 7})
    first = env.reader()
    assert first.state.cells is run.cells
    run.layout, run.cells, run.env = b, [3, 5, 7], (("x", 2), ("y", 3))
    again = env_of(run)
    assert again is env
    assert (env.layout, env.cells, env.vars) == (b, [3, 5, 7], {"x": 2, "y": 3})
    reader = env.reader()
    assert reader is not first and reader.state.layout is b and reader.state.cells == [3, 5, 7]


def test_a_run_and_its_env_are_no_cycle() -> None:
    """The Env reaches its run's State through a weak reference: a run is freed as soon as it
    is dropped, not left to the cyclic collector (which walks every object it keeps)."""
    run = _run(Layout.make([("w37env", 1, 2, None, None)], (), ()), [2, 4], ())
    env_of(run).reader()
    ref = weakref.ref(run)
    was = gc.isenabled()
    gc.disable()
    try:
        del run
        assert ref() is None
    finally:
        if was:
            gc.enable()


def test_what_reads_as_a_run_without_being_one_gets_an_env_each_time() -> None:
    """A finished run's outputs are read through an object with a Run's attributes but no kept
    Env (program.Finished): a fresh Env at each evaluation, never an error swallowed as Slow."""
    layout = Layout.make([("w37env", 1, 2, None, None)], (), ())
    g = SimpleNamespace(names={}, functions={})
    like = SimpleNamespace(layout=layout, cells=[2, 4], frame=SimpleNamespace(globals=g))
    like.state = lambda: None
    like.vars = lambda: {"x": 1}
    one, two = env_of(like), env_of(like)  # type: ignore[arg-type]
    assert one is not two and one.vars == {"x": 1} and one.cells == [2, 4]


def test_a_game_falls_back_only_where_a_fast_function_cannot_tell(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every error of a fast function sends the expression to the interpreter, which gives the
    same value: a bug there (an Env the run cannot make, a helper reading what is not there)
    would only make runs slower, silently. In whole card-level UNO games every fast function
    either answers or says it cannot tell (Slow), and every run's Env is made."""
    from reference_engine.compiled import evaluate
    from reference_engine.compiled.helpers import Slow
    from reference_engine.kinds.shedding import Game, load_rules
    from reference_engine.registry import Library
    from reference_engine.selection import ENGINE

    errors: list[str] = []
    made = evaluate.fast_function

    def watched(node: Any, proto: Any, kind: str = "value") -> Any:
        fast = made(node, proto, kind)
        if fast is None:
            return None

        def run(env: Any) -> Any:
            try:
                return fast(env)
            except Slow:
                raise
            except Exception as exc:
                errors.append(f"{type(exc).__name__}: {exc}")
                raise

        return run

    env_of = evaluate.env_of

    def env(run: Any) -> Any:
        try:
            return env_of(run)
        except Exception as exc:
            errors.append(f"env_of: {type(exc).__name__}: {exc}")
            raise

    monkeypatch.setattr(evaluate, "fast_function", watched)
    monkeypatch.setattr(evaluate, "env_of", env)
    token = ENGINE.set("compiled")
    try:
        library = Library()  # its own programs: every fast function made (and watched) here
        rules = load_rules("uno")
        turns = sum(
            Game(rules, library, players=4, virtual=4, level="card", seed=seed).play().virtual_turns
            for seed in (1, 7)
        )
    finally:
        ENGINE.reset(token)
    assert turns > 40
    assert not errors, errors[:5]
