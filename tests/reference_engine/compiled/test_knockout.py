"""A knockout round's decision worked out from ``alive`` (:mod:`reference_engine.compiled.knockout`):
which expressions qualify (the four of the lottery's 4(c), node for node, and nothing else), that
runs using them are the interpreter's (``ev.CHECKED`` compares every value worked out with the
evaluator's), and hostile variants where the direct form must step aside (arrows face down
when read, a non-built-in ``len``, truth values for numbers); a mutant that reads face-down
arrows is refused."""

from __future__ import annotations

import collections
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from reference_engine import steps as st
from reference_engine.compiled import evaluate as compiled_evaluate
from reference_engine.compiled import knockout
from reference_engine.errors import SpecError
from reference_engine.expressions.expression import parse
from reference_engine.functions import BUILTINS
from reference_engine.registry import Library

HERE = Path(__file__).parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from test_pure import LOTTERY, _compare, _step  # noqa: E402


def _decision_exprs() -> dict[str, Any]:
    proto = Library().protocol("knockout-lottery")
    decide = _step(proto.steps, "4(c)")
    assert isinstance(decide, st.Do)
    out: dict[str, Any] = {}
    for step in decide.body:
        if isinstance(step, st.Rotate):
            out["rotate"] = step.what
        elif isinstance(step, st.Let):
            out.update(step.values)
        elif isinstance(step, st.Discard) and step.what is not None and step.what.text != "U":
            out["discard"] = step.what
    return out


def test_the_four_decisions_are_recognised() -> None:
    exprs = _decision_exprs()
    assert knockout.special(exprs["rotate"].node, "rotate") is knockout._rotate
    assert knockout.special(exprs["out"].node, None) is knockout._out
    assert knockout.special(exprs["alive"].node, None) is knockout._alive
    assert knockout.special(exprs["discard"].node, "discard") is knockout._discard
    assert knockout.special(parse("len(alive) > 1").node, None) is knockout._running
    # Asked another way (a let of the rotation's places, the losers as places): not these.
    assert knockout.special(exprs["rotate"].node, None) is None
    assert knockout.special(exprs["out"].node, "discard") is None


@pytest.mark.parametrize(
    "text",
    [
        "[P[2, alive[2 * i - 1]] for i in 1..h if U[i] == down]",
        "[P[1, alive[2 * i - 1]] for i in 1..h if U[i] == up]",
        "[P[2, alive[2 * i]] for i in 1..h if U[i] == up]",
        "[alive[2 * i] if U[i] == up else alive[2 * i - 1] for i in 2..h]",
        "[alive[2 * i - 1] if U[i] == up else alive[2 * i] for i in 1..h]",
        "[alive[2 * i - 1] if U[i] == up else alive[2 * i] for i in 1..h] + [alive[len(alive)]]",
        "[P[2, j] for j in alive]",
        "[P[2, j] for j in out if j > 1]",
        "[Q[2, j] for j in out]",
        "[P[true, j] for j in out]",
        "U",
        "len(alive) > 2",
        "len(alive) >= 1",
        "len(out) > 1",
        "count(alive) > 1",
    ],
)
def test_other_expressions_are_not_worked_out(text: str) -> None:
    node = parse(text).node
    for sel in (None, "rotate", "discard"):
        assert knockout.special(node, sel) is None, (text, sel)


def _counted(monkeypatch: pytest.MonkeyPatch) -> collections.Counter[tuple[str, bool]]:
    """Every direct form counted, by whether it gave a value (set before the spec is compiled:
    each expression takes its form when compiled)."""
    counts: collections.Counter[tuple[str, bool]] = collections.Counter()
    for name, form in list(knockout._FORMS.items()):

        def counted(run: Any, form: Any = form, name: str = name) -> Any:
            got = form(run)
            counts[name, got is not knockout.NO] += 1
            return got

        monkeypatch.setitem(knockout._FORMS, name, counted)
    return counts


def _variant(title: str, old: str = "", new: str = "") -> str:
    text = LOTTERY.read_text().replace("title: Knockout lottery", f"title: Knockout lottery ({title})")
    if old:
        assert old in text
        text = text.replace(old, new)
    return text


def test_worked_out_decisions_run_as_the_interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    counts = _counted(monkeypatch)
    ended, _ = _compare(_variant("worked out"), 60, 3, 11, checked=True)
    assert ended == {"ran"}
    for name in knockout._FORMS:
        assert counts[name, True] > 10, counts
    assert not any(counts[name, False] for name in knockout._FORMS), counts


_UNTURNED = ("              - turn: U\n", "")


def test_arrows_read_face_down_step_aside_and_fail_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hostile: the middle arrows are never turned over, so ``U[i] == up`` reads a face-down
    card: the evaluator's error, with its message, at the same step; the direct form steps aside."""
    counts = _counted(monkeypatch)
    ended, _ = _compare(_variant("unturned", *_UNTURNED), 30, 4, 8, checked=True)
    assert ended and "ran" not in ended, ended
    assert any("face down" in e for e in ended), ended
    assert counts["rotate", False] > 0 and not counts["rotate", True], counts


def test_a_form_that_reads_face_down_arrows_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mutant: ``U[i] == up`` read even where the middle arrow lies face down (the evaluator's
    error skipped): the runs differ from the interpreter's, or ``ev.CHECKED`` refuses the value."""
    monkeypatch.setattr(knockout, "is_up", lambda c: True)
    for checked in (False, True):
        with pytest.raises((AssertionError, compiled_evaluate.Mismatch)):
            _compare(_variant(f"careless {checked}", *_UNTURNED), 30, 4, 8, checked=checked)


def test_a_variable_cannot_shadow_the_names_read(tmp_path: Path) -> None:
    """A spec whose variable is named like the symbol ``up`` is refused when loaded: the direct
    form's check that ``up`` is no variable is a second guard, never the only one."""
    let = '      alive: "[j for j in 1..m]"\n'
    text = _variant("shadowed", let, let + '      up: "down"\n')
    text = text.replace("protocol: knockout-lottery", "protocol: ko-shadowed")
    (tmp_path / "ko-shadowed.yaml").write_text(text)
    with pytest.raises(SpecError, match="'up' names both"):
        Library([tmp_path]).protocol("ko-shadowed")


def test_a_len_not_built_in_and_odd_variables_step_aside() -> None:
    """Where a name does not hold what the direct form needs (a ``len`` of the frame's that is not
    the built-in one, ``h`` a truth value, ``alive`` holding a truth value, too few candidates for
    ``h`` matches), it gives :data:`~reference_engine.compiled.knockout.NO`."""

    globals_ = SimpleNamespace(functions={"len": lambda xs: 0}, names={})
    fake: Any = SimpleNamespace(frame=SimpleNamespace(globals=globals_), cells=[], env={})
    fake.vars = lambda: fake.env
    fake.env = {"alive": (1, 2, 3), "h": 1}
    assert knockout._alive(fake) is knockout.NO  # len is the frame's own
    for env in ({"alive": (1, 2, 3), "h": True}, {"alive": (1, True, 3), "h": 1}, {"alive": (1,), "h": 1}):
        fake.env = env
        for form in knockout._FORMS.values():
            assert form(fake) is knockout.NO, (env, form)


def test_the_rounds_test_steps_aside_unless_alive_is_a_list() -> None:
    """``len(alive) > 1`` worked out only where ``alive`` is a variable holding a list (frozen: a
    tuple) and ``len`` the built-in; a region, a number, a text, a missing name: the evaluator's."""
    globals_ = SimpleNamespace(functions={"len": BUILTINS.get("len")}, names={})
    fake: Any = SimpleNamespace(frame=SimpleNamespace(globals=globals_), cells=[], env={})
    fake.vars = lambda: fake.env
    for env, want in (({"alive": (1, 2)}, True), ({"alive": (3,)}, False), ({"alive": ()}, False)):
        fake.env = env
        got = knockout._running(fake)
        assert type(got) is bool and got is want, (env, got)
    for env in ({}, {"alive": 2}, {"alive": "ab"}, {"alive": [1, 2]}, {"out": (1, 2)}):
        fake.env = env
        assert knockout._running(fake) is knockout.NO, env
    globals_.functions["len"] = lambda xs: 5
    fake.env = {"alive": (1, 2)}
    assert knockout._running(fake) is knockout.NO


def _fields_shape(node: Any) -> Any:
    """The node's shape worked out with ``dataclasses.fields`` on every node (the referee of the
    field names :func:`knockout._shape` keeps per class)."""
    import dataclasses

    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        fields = [f.name for f in dataclasses.fields(node) if f.name != "col"]
        return (type(node).__name__, *(_fields_shape(getattr(node, n)) for n in fields))
    if isinstance(node, (list, tuple)):
        return tuple(_fields_shape(x) for x in node)
    return (type(node).__name__, node)


@pytest.mark.parametrize(
    "text",
    [
        "[j for j in 1..ncols(M) if M[2, j] == theta(1)]",
        "not found and exists('D') and len(D) > 0",
        "1 if a < b <= c else -2",
        "sum(sizes) + len([x for x in xs if x != none])",
        "true",
    ],
)
def test_shape_keeps_field_names_per_class(text: str) -> None:
    """The kept field names give the shape ``fields()`` gives, asked twice (kept, then read),
    and the column never counts (the same text at another column has the same shape)."""
    node = parse(text).node
    assert knockout._shape(node) == _fields_shape(node)
    assert knockout._shape(node) == _fields_shape(node)
    assert knockout._shape(parse("  " + text).node) == knockout._shape(node)
