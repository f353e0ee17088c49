"""The canonical form of a loaded protocol: what decides a run, typed, without its words.

Two specs with the same canonical form run the same way on every path (the interpreter, the
compiled runner, an exact verification): the form is built from the loaded, typed model, not
from the YAML text, so ``0`` and ``"0"`` (an integer and a string key of an encoding) differ,
while spacing inside an expression, quoting and the words a booklet prints (``say``,
``paper`` (the paper's wording of a step), ``brief``, ``doc``, a shuffle's ``how``, a step's
``table:`` hint for the table-time model, a shuffle's ``uses:`` (what holds its piles at the
table: a kit's envelope or sleeve, not a different permutation), display labels' text, step
numbers, titles, citations) do not count. :func:`fingerprint`
hashes it (the compiled runner is chosen by it, see :mod:`reference_engine.compiled`).
"""

from __future__ import annotations

import dataclasses
import hashlib
from typing import Any

from .expressions import Expression
from .spec import Protocol
from .steps import Step, Target

# Fields of the model that only say something (or locate it in the file): never canonical.
_WORDS = frozenset(
    {"col", "path", "line", "number", "say", "paper", "brief", "doc", "text", "index_args", "fn"}
)
# A step's own words: its hint for the table-time model (``table:``; not an encoding's table) and
# a shuffle's holder at the table (``uses:``: envelope or sleeve; the same permutation either way).
_STEP_WORDS = _WORDS | {"table", "uses"}
# A call's seating (who holds the callee's hands) counts when it is given; a call without one has
# the form it had before calls could say it.
_SEATING = frozenset({"hands", "players"})


def canonical(proto: Protocol) -> tuple[Any, ...]:
    """Everything of ``proto`` that decides what a run does, as nested typed tuples."""
    return (
        ("params", _form(proto.params)),
        (
            "symbols",
            tuple(
                (s.name, s.glyph, s.family) + ((s.rotated,) if s.rotated else ())
                for s in proto.symbols.values()
            ),
        ),
        ("encodings", _form(proto.encodings)),
        ("inputs", _form(proto.inputs)),
        ("context", tuple(sorted(proto.context))),
        ("helpers", _form(proto.helpers)),
        ("admissible", _form(proto.admissible)),
        ("steps", _form(proto.steps)),
        ("outputs", _form(proto.outputs)),
        ("players", _form(proto.players)),
    )


def fingerprint(proto: Protocol) -> str:
    """A short hash of :func:`canonical` (16 hex digits of sha256)."""
    return hashlib.sha256(repr(canonical(proto)).encode("utf-8")).hexdigest()[:16]


def _form(value: Any) -> Any:
    """A value as typed, hashable, printable data (see the module docs for what is left out)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return (type(value).__name__, value)
    if isinstance(value, Expression):
        return ("expr", _form(value.node))
    if isinstance(value, Target):
        return ("target", value.name, _form(value.expr))
    if isinstance(value, Step):
        fields = [
            (f.name, getattr(value, f.name))
            for f in dataclasses.fields(value)
            if f.name not in _STEP_WORDS and not (f.name in _SEATING and not getattr(value, f.name))
        ]
        body = tuple(
            (name, tuple(_form(e) for e, _ in v) if name == "labels" else _form(v)) for name, v in fields
        )
        return (type(value).__name__, body)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        names = [f.name for f in dataclasses.fields(value) if f.name not in _WORDS]
        return (type(value).__name__, tuple((name, _form(getattr(value, name))) for name in names))
    if isinstance(value, dict):
        return ("dict", tuple((_form(k), _form(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(_form(v) for v in value))
    if isinstance(value, (set, frozenset)):
        return ("set", tuple(sorted((_form(v) for v in value), key=repr)))
    raise TypeError(f"no canonical form for {type(value).__name__}")
