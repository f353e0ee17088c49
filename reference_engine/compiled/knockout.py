"""A knockout lottery's decision of a round (``4(c)``) worked out from ``alive``, not evaluated.

Step 4(c) of ``knockout-lottery`` asks four values of every round: the arrows it rotates
(``[P[2, alive[2 * i - 1]] for i in 1..h if U[i] == up]``), the losers (``let out``), the
sleeves still in the running (``let alive``) and the losers' arrows it discards (``[P[2, j] for
j in out]``). :mod:`.chained` keeps them by the layout, ``alive``, ``h`` and the middle arrows'
cards; a round that starts from a layout not met before (a loser's empty place is part of the
layout) evaluates all four through the general evaluator, about half of what such a round costs.
They are plain functions of ``alive``, ``h``, the region ``P``'s offset and width and which
middle arrows point up, relative to ``alive`` (a match's winner is a position in ``alive``
whatever the sleeves' columns): here each is worked out directly (:func:`special`). So is the
test of every round, ``len(alive) > 1`` (``alive`` a variable holding a list, ``len`` the
built-in): kept by its key, it cost a key made and looked up per round (the variables change at
every round), more than the length compared.

When it applies (a static check, then one per run): the expression is one of the four, node for
node (:func:`_shape`, the columns left out); and at the run, every name means what the
interpreter's lookup would find first (``P`` and ``U`` regions of the layout, neither a
variable nor a hand; ``alive``, ``out`` and ``h`` variables of whole numbers, type ``int``
exactly; ``up`` none of those but one of the frame's symbols; ``len`` the built-in function),
``U`` one row of one-card items, every index in range, and every ``U[i]`` read a face-up card
on the open table (not inside a sleeve, not a dealt face a reduction hides). Anything else gives
:data:`NO` and the expression is evaluated as before, so every error and every unusual value is
the evaluator's own. With ``ev.CHECKED`` each value worked out here is compared with the
evaluator's (exact, types included).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from .. import steps as st
from ..cards import DEALT, EMPTY, Symbol, is_up, symbol_of
from ..expressions import Chain, Compare, Comprehension, Node
from ..expressions.expression import parse
from ..functions import BUILTINS
from ..table import Layout
from . import discards
from . import evaluate as ev
from .plans import kept_whole
from .run import Run

NO: Any = object()
"""What a worked-out value gives where it does not apply: the evaluator's turn."""

Special = Callable[[Run], Any]

ROTATE = "[P[2, alive[2 * i - 1]] for i in 1..h if U[i] == up]"
OUT = "[alive[2 * i] if U[i] == up else alive[2 * i - 1] for i in 1..h]"
ALIVE = (
    "[alive[2 * i - 1] if U[i] == up else alive[2 * i] for i in 1..h]"
    " + ([alive[len(alive)]] if len(alive) % 2 == 1 else [])"
)
DISCARD = "[P[2, j] for j in out]"
RUNNING = "len(alive) > 1"


def _shape(node: Any) -> Any:
    """A node as nested tuples, its fields but the column (where it stood in the text); each
    constant with its type (``1`` and ``true`` differ). The field names are kept per node class
    (:data:`_NAMES`): asked for every node of every expression a protocol compiles, ``fields()``
    was about a tenth of loading and compiling UNO's protocol."""
    cls = type(node)
    names = _NAMES.get(cls)
    if names is None and dataclasses.is_dataclass(node) and not isinstance(node, type):
        names = _NAMES[cls] = tuple(f.name for f in dataclasses.fields(node) if f.name != "col")
    if names is not None:
        return (cls.__name__, *(_shape(getattr(node, name)) for name in names))
    if isinstance(node, (list, tuple)):
        return tuple(_shape(x) for x in node)
    return (cls.__name__, node)


_NAMES: dict[type, tuple[str, ...]] = {}
"""A dataclass node's field names but the column, by class (the expression language's dozen)."""


_SHAPES: dict[Any, tuple[str, str | None]] = {}


def _known() -> dict[Any, tuple[str, str | None]]:
    if not _SHAPES:
        for name, text, sel in (
            ("rotate", ROTATE, "rotate"),
            ("out", OUT, None),
            ("alive", ALIVE, None),
            ("discard", DISCARD, "discard"),
            ("running", RUNNING, None),
        ):
            _SHAPES[_shape(parse(text).node)] = (name, sel)
    return _SHAPES


def special(node: Node, sel: str | None) -> Special | None:
    """The direct form of one of the four expressions (asked as its Steady asks it: its places
    with ``sel``, its plain value without), or None for any other expression."""
    if not isinstance(node, (Comprehension, Chain, Compare)):  # each of the five is one of these
        return None
    found = _known().get(_shape(node))
    if found is None or found[1] != sel:
        return None
    return _FORMS[found[0]]


def _region(run: Run, env: dict[str, Any], name: str) -> Any:
    """The region a name means (a variable shadows it), or None where it is not a plain one."""
    if name in env:
        return None
    reg = run.layout.by_name.get(name)
    if reg is None or reg.hand is not None:
        return None
    return reg


def _ints(env: dict[str, Any], name: str) -> tuple[int, ...] | None:
    v = env.get(name)
    if type(v) is not tuple or any(type(x) is not int for x in v):
        return None
    return v


def _ups(run: Run, env: dict[str, Any], h: int) -> list[bool] | None:
    """``U[i] == up`` for i in 1..h, as the evaluator reads them (None where it would not read
    them this simple way: see the module docs)."""
    reg = _region(run, env, "U")
    if reg is None or reg.rows != 1 or reg.unit != 1 or h > reg.cols:
        return None
    if "up" in env or "up" in run.layout.by_name:
        return None
    up = run.frame.globals.names.get("up")
    if type(up) is not Symbol:
        return None
    cells = run.cells
    inside = run.layout.inside
    dealt = DEALT.ids
    out = []
    for flat in range(reg.offset, reg.offset + h):
        c = cells[flat]
        if c == EMPTY or not is_up(c) or flat in inside or (dealt and DEALT.hidden(c >> 1)):
            return None
        out.append(symbol_of(c) == up)
    return out


def _round(run: Run) -> tuple[dict[str, Any], tuple[int, ...], int] | None:
    env = run.vars()
    alive = _ints(env, "alive")
    h = env.get("h")
    if alive is None or type(h) is not int or h < 1 or 2 * h > len(alive):
        return None
    return env, alive, h


def _column_flats(run: Run, env: dict[str, Any], columns: Any) -> tuple[int, ...] | None:
    """The places ``P[2, j]`` for the columns ``j``."""
    reg = _region(run, env, "P")
    if reg is None or reg.rows < 2:
        return None
    cols = reg.cols
    base = reg.offset + cols - 1
    out = []
    for j in columns:
        if not 1 <= j <= cols:
            return None
        out.append(base + j)
    return tuple(out)


def _rotate(run: Run) -> Any:
    got = _round(run)
    if got is None:
        return NO
    env, alive, h = got
    ups = _ups(run, env, h)
    if ups is None:
        return NO
    flats = _column_flats(run, env, [alive[2 * i] for i in range(h) if ups[i]])
    return NO if flats is None else flats


def _out(run: Run) -> Any:
    got = _round(run)
    if got is None:
        return NO
    env, alive, h = got
    ups = _ups(run, env, h)
    if ups is None:
        return NO
    return [alive[2 * i + 1] if ups[i] else alive[2 * i] for i in range(h)]


def _alive(run: Run) -> Any:
    got = _round(run)
    if got is None or run.frame.globals.functions.get("len") is not BUILTINS.get("len"):
        return NO
    env, alive, h = got
    ups = _ups(run, env, h)
    if ups is None:
        return NO
    left = [alive[2 * i] if ups[i] else alive[2 * i + 1] for i in range(h)]
    return left + ([alive[-1]] if len(alive) % 2 == 1 else [])


def _running(run: Run) -> Any:
    """``len(alive) > 1`` (the test of every round): ``alive`` a variable holding a list (a
    tuple, as frozen), ``len`` the built-in; else :data:`NO`."""
    alive = run.vars().get("alive")
    if type(alive) is not tuple or run.frame.globals.functions.get("len") is not BUILTINS.get("len"):
        return NO
    return len(alive) > 1


def _discard(run: Run) -> Any:
    env = run.vars()
    out = _ints(env, "out")
    if out is None:
        return NO
    flats = _column_flats(run, env, out)
    return NO if flats is None else flats


def _outcome(alive: tuple[int, ...], ups: tuple[bool, ...], low: int, u0: int, before: Layout | None) -> Any:
    """What a round's decision does when the middle arrows that point up are ``ups``: the
    losers (``out``), the sleeves left (``alive``), the arrows rotated, the losers' arrows and
    how the two discards go (as :func:`~.discards.apply` takes them), or None for the discards
    where no ``before`` is given or the table they leave shows a card (each then as
    :meth:`.knockround.Round._discard` does it).

    ``before``: the table before the slide, of a whole round (its plan checked,
    :meth:`.knockround.Round._round_plan`). The discards are then :func:`~.discards.after`'s
    (empty places of ``P``'s arrow row, then ``U``, the last region, cut off), worked out from
    ``before`` alone: the table after them is ``before``'s regions with the losers' places
    empty besides its own; the first discard leaves the layout as it is (the tables after the
    slide and between the discards are never made: their regions are the slide's, whose room
    is noted, and ``P``'s sleeves show nothing of an empty place, so neither shows a card where
    ``before`` shows none). ``ev.CHECKED`` compares them with :func:`~.discards.after`'s."""
    h = len(ups)
    lost = tuple([alive[2 * i + 1] if ups[i] else alive[2 * i] for i in range(h)])
    won = tuple([alive[2 * i] if ups[i] else alive[2 * i + 1] for i in range(h)])
    if len(alive) % 2 == 1:
        won += (alive[-1],)
    rotated = tuple(low + alive[2 * i] for i in range(h) if ups[i])
    losers = tuple([low + j for j in lost])
    hows: Any = None
    if before is not None and (not before.sleeved or kept_whole(before, losers)):
        holes = before.holes
        after = Layout.make((), holes.union(losers), (), before.regions)
        if not after.shown:
            P = before.by_name["P"]
            own = tuple(sorted(holes.intersection(range(P.offset, P.offset + P.size)))) if holes else ()
            hows = ((discards.HOLES, before, own), (discards.CUT, after, ()))
    if ev.CHECKED and before is not None:
        _check_ends(before, losers, u0, hows)
    return lost, won, rotated, losers, hows


def _check_ends(before: Layout, losers: tuple[int, ...], u0: int, hows: Any) -> None:
    """``ev.CHECKED``: the discards as :func:`_outcome` worked them out are
    :func:`~.discards.after`'s from the tables after the slide and between, made."""
    h = len(losers)
    final = Layout.make([("U", 1, h, 1, None, None)], before.holes, (), before.regions)
    want = None
    first = discards.after(final, losers)
    if first is not None and not first[1].shown:
        second = discards.after(first[1], tuple(range(u0, u0 + h)))
        if second is not None and not second[1].shown:
            want = (first[0], first[2], second)
    got = None if hows is None else (hows[0][0], hows[0][2], hows[1])
    if got != want:
        raise ev.Mismatch(f"a round's discards from {before}: {got}, not {want}")


def _rows(P: Any, alive: Any, n: int) -> tuple[int, int] | None:
    """The flat places before P's first row and before its second (a sleeve's card row and arrow
    row: column ``a`` at ``top + a`` and ``low + a``), where ``alive`` holds ``n`` distinct whole
    numbers (type ``int`` exactly) that are columns of P; else None (the steps say what is wrong)."""
    cols = P.cols
    if any(type(a) is not int or not 1 <= a <= cols for a in alive) or len(set(alive)) != n:
        return None
    top = P.offset - 1
    return top, top + cols


# The shapes a knockout round's steps must have, node for node, for :func:`.knockround.branch`
# to carry the round out directly (:class:`.knockround.Round`).

NEW = "new(down)"
SPIN = "[[P[*, alive[2 * i - 1]], U[i], P[*, alive[2 * i]]] for i in 1..h]"

_SIG: dict[str, Any] = {}
"""The shapes the steps must have (made on first use)."""


def _e(text: str) -> Any:
    return _shape(parse(text).node)


def _canonical() -> Any:
    if "round" not in _SIG:
        _SIG["round"] = (
            ("shuffle", "spin", _e(SPIN), ()),
            (
                "do",
                ("turn", None, _e("U")),
                ("rotate", None, _e(ROTATE)),
                ("let", None, (("out", _e(OUT)),)),
                ("let", None, (("alive", _e(ALIVE)),)),
                ("discard", None, _e(DISCARD)),
                ("discard", None, _e("U")),
            ),
        )
    return _SIG["round"]


def _slide_sig() -> Any:
    """The lottery's ``4(a)``: ``let h``, ``move U``, ``for i: place P[2, ...]: new(down)``."""
    if "slide" not in _SIG:
        left = "P[2, alive[2 * i - 1]]"
        _SIG["slide"] = (
            "do",
            ("let", None, (("h", _e("len(alive) // 2")),)),
            ("move", None, (("U", None, _e(f"[{left} for i in 1..h]")),)),
            (
                "for",
                None,
                "i",
                _e("1..h"),
                ("place", None, False, ((None, _e(left), "row", _e("new(down)")),)),
            ),
        )
    return _SIG["slide"]


def _sig(step: st.Step) -> Any:
    """What of a step the direct round relies on: its kind, its expressions node for node, an
    inner step's number; None for a step carrying labels or of another kind."""
    if step.labels:
        return None
    if isinstance(step, st.Shuffle) and step.piles is not None:
        return ("shuffle", step.how, _shape(step.piles.node), tuple(step.perms))
    if isinstance(step, st.Do):
        return ("do", *(_sig(s) for s in step.body))
    if isinstance(step, (st.Turn, st.Rotate, st.Discard)) and step.what is not None:
        return (step.kind, step.number, _shape(step.what.node))
    if isinstance(step, st.Let):
        return ("let", step.number, tuple((k, _shape(e.node)) for k, e in step.values.items()))
    if isinstance(step, st.Move):
        return ("move", step.number, tuple((t.name, _target(t), _shape(e.node)) for t, e in step.pairs))
    if isinstance(step, st.For) and step.values is not None:
        return ("for", step.number, step.var, _shape(step.values.node), *(_sig(s) for s in step.body))
    if isinstance(step, st.Place):
        places = tuple((t.name, _target(t), form, _shape(e.node)) for t, form, e in step.targets)
        return ("place", step.number, step.up, places)
    return None


def _target(t: st.Target) -> Any:
    return None if t.expr is None else _shape(t.expr.node)


_FORMS: dict[str, Special] = {
    "rotate": _rotate,
    "out": _out,
    "alive": _alive,
    "discard": _discard,
    "running": _running,
}
