"""Mutated copies of the shipped protocol specs, and how every command must treat them.

A *mutant* is one shipped spec (``rulesets/protocols/*.yaml``) changed in one way a careless or
hostile author could change it. :data:`CLASSES` lists the ways, each a function drawing one
change with a seeded ``random.Random``; :func:`mutant` draws mutant ``index`` of ``seed``, always
the same one for the same pair (the bytes of the file included), so a failure found by
``bench/badinput.py --seed S`` is reproduced by its index.

:func:`run_mutant` (:func:`run_spec` for any spec file) writes the mutant into a fresh folder
and runs every command that takes a spec file on it (``verify``, ``simulate``, ``booklet``,
``view``, and for a card selection or Gakmoro round spec ``build`` and ``play`` of a game that
runs it) in a driver process of its own (:func:`drive`: one Python for all the commands of a
mutant, forked from a process that imported kitgen once (forkserver.py), each command with its
own TMPDIR, stopped at 120 s of CPU time, a hang beyond 20 s or three times what it takes on the
shipped spec on the same machine); :func:`wrong_exit_codes`
judges the exit codes against each other (see ``bench/badinput.py`` for the rules). Used by
``tests/kitgen/test_badinput.py`` (a few dozen mutants in CI) and ``bench/badinput.py``.
"""

from __future__ import annotations

import json
import os
import random
import re
import resource
import shutil
import signal
import sys
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import forkserver
import yaml

ROOT = Path(__file__).resolve().parents[2]
PROTOCOLS = ROOT / "rulesets" / "protocols"
BASES = tuple(sorted(p.stem for p in PROTOCOLS.glob("*.yaml")))
# A card selection spec runs in these games' kits and plays; the round spec in Gakmoro's.
GAME_OF = {
    "card-selection": "uno-small",
    "card-selection-v2": "uno-small",
    "card-selection-fast": "uno-small",
    "card-selection-original": "hearts",
    "card-selection-original-fast": "hearts",
    "gakmoro-round": "gakmoro",
}
HANG_SECONDS = 20.0  # CPU seconds, the command's verification workers included ...
HANG_FACTOR = 3.0  # ... or, where the shipped spec's own command takes longer, this many times its
KILL_SECONDS = 120.0  # CPU seconds at which the driver stops a command (always a hang)
WALL_FACTOR = 6  # a driver running HANG_SECONDS x this per command on the clock (waiting on nothing)

Data = Any
Mutation = Callable[[random.Random, str, str, Data], tuple[str, bytes, str]]


@dataclass(frozen=True)
class Mutant:
    """One mutated spec: the file to write, and what was done to the shipped one."""

    seed: int
    index: int
    base: str
    kind: str
    detail: str
    file_name: str
    content: bytes = field(repr=False)

    @property
    def label(self) -> str:
        return f"#{self.index} {self.kind} of {self.base}: {self.detail}"


# --------------------------------------------------------------------------- walking YAML data


def _paths(data: Data, want: Callable[[Any], bool], path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path in ``data`` whose value satisfies ``want`` (the root excluded)."""
    out: list[tuple[Any, ...]] = []
    items: list[tuple[Any, Any]] = []
    if isinstance(data, dict):
        items = list(data.items())
    elif isinstance(data, list):
        items = list(enumerate(data))
    for k, v in items:
        p = (*path, k)
        if want(v):
            out.append(p)
        out.extend(_paths(v, want, p))
    return out


def _get(data: Data, path: tuple[Any, ...]) -> Any:
    for k in path:
        data = data[k]
    return data


def _set(data: Data, path: tuple[Any, ...], value: Any) -> None:
    _get(data, path[:-1])[path[-1]] = value


def _dump(data: Data) -> bytes:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100).encode("utf-8")


def _shown(path: tuple[Any, ...]) -> str:
    return "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path).lstrip(".") or "(root)"


def _steps(data: Data) -> list[tuple[Any, ...]]:
    """Key paths of every step (nested ones included)."""

    def is_step(v: Any) -> bool:
        return isinstance(v, dict) and bool(
            {"say", "step", "do", "place", "turn", "shuffle", "call", "if", "for"} & set(v)
        )

    return [p for p in _paths(data.get("steps", []), is_step, ("steps",)) if isinstance(p[-1], int)]


def _strings(data: Data) -> list[tuple[Any, ...]]:
    return _paths(data, lambda v: isinstance(v, str))


# --------------------------------------------------------------------------- the classes


def deleted_key(rng: random.Random, base: str, text: str, data: Data) -> tuple[str, bytes, str]:
    paths = _paths(data, lambda v: True)
    path = rng.choice([p for p in paths if not isinstance(p[-1], int)])
    del _get(data, path[:-1])[path[-1]]
    return f"{base}.yaml", _dump(data), f"deleted {_shown(path)}"


def deleted_action(rng: random.Random, base: str, text: str, data: Data) -> tuple[str, bytes, str]:
    """A step loses its action (``do:``, ``shuffle:``...): it still has its number and sentence."""
    actions = ("place", "rearrange", "swap", "move", "take", "shuffle", "turn", "discard", "return")
    actions += ("shift", "if", "for", "call", "let", "do")
    candidates = [(p, k) for p in _steps(data) for k in _get(data, p) if k in actions]
    path, key = rng.choice(candidates)
    del _get(data, path)[key]
    return f"{base}.yaml", _dump(data), f"deleted {_shown(path)}.{key}"


_OTHER_TYPES: list[Any] = [None, 0, -1, 2.5, True, "text", "", [], {}, [1, 2], {"a": 1}, "s[1..2]"]


def changed_type(rng: random.Random, base: str, text: str, data: Data) -> tuple[str, bytes, str]:
    path = rng.choice(_paths(data, lambda v: True))
    old = _get(data, path)
    new = rng.choice([v for v in _OTHER_TYPES if type(v) is not type(old)])
    _set(data, path, new)
    return f"{base}.yaml", _dump(data), f"{_shown(path)} = {new!r} (was {type(old).__name__})"


_NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.])")


def index_out_of_range(rng: random.Random, base: str, text: str, data: Data) -> tuple[str, bytes, str]:
    """A position in an expression (``s[3..4]``), a permutation or an output moved off the table."""
    spots = [p for p in _paths(data.get("steps", []), lambda v: isinstance(v, str) and "[" in v, ("steps",))]
    spots += [
        p for p in _paths(data.get("outputs", {}), lambda v: isinstance(v, str) and "[" in v, ("outputs",))
    ]
    ints = _paths(data.get("steps", []), lambda v: isinstance(v, int) and not isinstance(v, bool), ("steps",))
    ints = [p for p in ints if p[-1] != "step"]
    choice = rng.choice(spots + ints)
    value = _get(data, choice)
    bad = rng.choice([0, -1, 7, 99, 10**6])
    if isinstance(value, int):
        _set(data, choice, bad)
        return f"{base}.yaml", _dump(data), f"{_shown(choice)} = {bad} (was {value})"
    numbers = list(_NUMBER.finditer(value))
    if not numbers:
        _set(data, choice, value.replace("[", f"[{bad}+", 1))
    else:
        m = rng.choice(numbers)
        _set(data, choice, value[: m.start()] + str(bad) + value[m.end() :])
    return f"{base}.yaml", _dump(data), f"{_shown(choice)} = {_get(data, choice)!r} (was {value!r})"


_HUGE = [10**9, 10**18, 2**63, 10**400, 123456789012345678901234567890]


def huge_number(rng: random.Random, base: str, text: str, data: Data) -> tuple[str, bytes, str]:
    ints = _paths(data, lambda v: isinstance(v, int) and not isinstance(v, bool))
    exprs = [p for p in _paths(data, lambda v: isinstance(v, str) and bool(_NUMBER.search(v)))]
    path = rng.choice(ints + exprs)
    value = _get(data, path)
    huge = rng.choice(_HUGE)
    if isinstance(value, int):
        _set(data, path, huge)
    else:
        m = rng.choice(list(_NUMBER.finditer(value)))
        _set(data, path, value[: m.start()] + str(huge) + value[m.end() :])
    return f"{base}.yaml", _dump(data), f"{_shown(path)} = {str(_get(data, path))[:60]!r}"


def negative_number(rng: random.Random, base: str, text: str, data: Data) -> tuple[str, bytes, str]:
    """A negative count: helper cards, a parameter's default or bounds, any whole number."""
    helpers = (
        [("helpers", k) for k in data.get("helpers", {}) or {}]
        if isinstance(data.get("helpers"), dict)
        else []
    )
    ints = _paths(data, lambda v: isinstance(v, int) and not isinstance(v, bool))
    path = rng.choice(helpers * 3 + ints) if helpers or ints else ("helpers",)
    value = rng.choice([-1, -2, -1000, -(10**18)])
    if path == ("helpers",):
        data["helpers"] = {"alpha": value}
    else:
        _set(data, path, value)
    return f"{base}.yaml", _dump(data), f"{_shown(path)} = {value}"


def unknown_step(rng: random.Random, base: str, text: str, data: Data) -> tuple[str, bytes, str]:
    steps = _steps(data)
    path = rng.choice(steps)
    step = _get(data, path)
    how = rng.choice(["new-action", "misspelt", "extra-key"])
    if how == "new-action":
        parent = _get(data, path[:-1])
        parent.insert(path[-1], {"step": "99", "say": "Juggle the cards.", "juggle": "s[1..2]"})
        return f"{base}.yaml", _dump(data), f"a step with action 'juggle' before {_shown(path)}"
    keys = [k for k in step if k not in ("step", "say", "brief")]
    if how == "misspelt" and keys:
        key = rng.choice(keys)
        step[key[:-1] + key[-1] * 2] = step.pop(key)
        return f"{base}.yaml", _dump(data), f"{_shown(path)}.{key} spelt {key[:-1] + key[-1] * 2!r}"
    step["colour"] = "red"
    return f"{base}.yaml", _dump(data), f"{_shown(path)} has an unknown key 'colour'"


def duplicate(rng: random.Random, base: str, text: str, data: Data) -> tuple[str, bytes, str]:
    how = rng.choice(["key", "step", "number", "input"])
    if how == "key":  # a duplicate mapping key, which YAML parsers usually keep silently
        key = rng.choice(["title", "protocol", "steps", "outputs"])
        line = {"title": "title: Again", "protocol": "protocol: again", "steps": "steps: []"}.get(
            key, "outputs: {}"
        )
        return f"{base}.yaml", (text + "\n" + line + "\n").encode(), f"a second {key!r} key"
    steps = _steps(data)
    path = rng.choice(steps)
    parent = _get(data, path[:-1])
    if how == "step":
        parent.insert(path[-1], json.loads(json.dumps(_get(data, path))))
        return f"{base}.yaml", _dump(data), f"{_shown(path)} twice"
    if how == "number":
        numbered = [p for p in steps if len(p) == 2 and "step" in _get(data, p)]
        a, b = rng.sample(numbered, 2) if len(numbered) > 1 else (numbered[0], numbered[0])
        _get(data, b)["step"] = _get(data, a)["step"]
        return f"{base}.yaml", _dump(data), f"{_shown(b)} has the number of {_shown(a)}"
    lines = text.splitlines()
    entries = [i for i, line in enumerate(lines) if re.match(r"^  \w[\w-]*: \S", line)]
    at = rng.choice(entries)
    lines.insert(at + 1, lines[at])
    return (
        f"{base}.yaml",
        ("\n".join(lines) + "\n").encode(),
        f"line {at + 1} twice: {lines[at].strip()[:40]!r}",
    )


_UNICODE = [
    "\u202e",  # right-to-left override
    "\u200b",  # zero-width space
    "e\u0301\u0301\u0301",  # combining accents
    "🂡🃏",
    "\U0001f600" * 3,
    "Ω≈ç√∫",
    "\ufeff",  # byte order mark
    "ﬁ",
    "𝕏",
    "\u0000".replace("\u0000", "\u2028"),  # line separator
]


def unicode(rng: random.Random, base: str, text: str, data: Data) -> tuple[str, bytes, str]:
    how = rng.choice(["text", "name", "key", "file"])
    odd = rng.choice(_UNICODE)
    if how == "file":
        name = f"{base}{odd}"
        data["protocol"] = name
        return f"{name}.yaml", _dump(data), f"protocol and file named {name!r}"
    if how == "name":
        data["protocol"] = base + odd
        return f"{base}.yaml", _dump(data), f"protocol named {base + odd!r}"
    if how == "key":
        keys = [p for p in _paths(data, lambda v: True) if isinstance(p[-1], str)]
        path = rng.choice(keys)
        parent = _get(data, path[:-1])
        parent[path[-1] + odd] = parent.pop(path[-1])
        return f"{base}.yaml", _dump(data), f"key {_shown(path)} + {odd!r}"
    path = rng.choice(_strings(data))
    value = _get(data, path)
    at = rng.randrange(len(value) + 1)
    _set(data, path, value[:at] + odd + value[at:])
    return f"{base}.yaml", _dump(data), f"{odd!r} in {_shown(path)}"


def empty(rng: random.Random, base: str, text: str, data: Data) -> tuple[str, bytes, str]:
    how = rng.choice(["file", "blank", "comment", "null", "list", "mapping", "steps", "strings", "section"])
    if how == "file":
        return f"{base}.yaml", b"", "an empty file"
    if how == "blank":
        return f"{base}.yaml", b"  \n\n\t\n", "only white space"
    if how == "comment":
        return f"{base}.yaml", b"# nothing here\n", "only a comment"
    if how in ("null", "list", "mapping"):
        return (
            f"{base}.yaml",
            {"null": b"~\n", "list": b"[]\n", "mapping": b"{}\n"}[how],
            f"the document is {how}",
        )
    if how == "steps":
        data["steps"] = []
        return f"{base}.yaml", _dump(data), "no steps"
    if how == "section":
        key = rng.choice([k for k in data if k not in ("protocol",)])
        data[key] = rng.choice([None, {}, [], ""])
        return f"{base}.yaml", _dump(data), f"{key} is empty ({data[key]!r})"
    path = rng.choice(_strings(data))
    _set(data, path, rng.choice(["", " ", "\n"]))
    return f"{base}.yaml", _dump(data), f"{_shown(path)} is empty text"


def binary(rng: random.Random, base: str, text: str, data: Data) -> tuple[str, bytes, str]:
    how = rng.choice(["random", "nul", "latin1", "inserted"])
    raw = text.encode("utf-8")
    if how == "random":
        return f"{base}.yaml", rng.randbytes(rng.randrange(1, 4000)), "random bytes"
    at = rng.randrange(len(raw))
    if how == "nul":
        return f"{base}.yaml", raw[:at] + b"\0" + raw[at:], f"a NUL byte at {at}"
    if how == "latin1":
        return f"{base}.yaml", text.encode("latin-1", errors="replace") + b"\xe9\xff", "Latin-1, not UTF-8"
    return f"{base}.yaml", raw[:at] + rng.randbytes(16) + raw[at:], f"16 random bytes at {at}"


_TEXT_KEYS = ("title", "summary", "say", "brief", "overview", "if_wrong", "doc", "glyph", "cite", "how")


def long_string(rng: random.Random, base: str, text: str, data: Data) -> tuple[str, bytes, str]:
    """A title, sentence, glyph, name or expression of thousands to hundreds of thousands of characters."""
    texts = [p for p in _strings(data) if isinstance(p[-1], str) and p[-1] in _TEXT_KEYS]
    length = rng.choice([3_000, 20_000, 200_000, 900_000])
    how = rng.choice(["words", "one-word", "lines", "name", "expression", "key"])
    if how == "name":
        data["protocol"] = "p" * length
        return f"{base}.yaml", _dump(data), f"protocol name of {length:,} characters"
    if how == "key":
        data.setdefault("booklet", {})
        if isinstance(data["booklet"], dict):
            data["booklet"]["regions"] = {"r" * min(length, 5000): "a region"}
        return f"{base}.yaml", _dump(data), "a region name of up to 5,000 characters"
    if how == "expression":
        exprs = [
            p
            for p in _strings(
                data.get("steps", []),
            )
            if True
        ]
        path = ("steps", *rng.choice(exprs)) if exprs else ("title",)
        _set(data, path, " + ".join(["1"] * (length // 4)))
        return f"{base}.yaml", _dump(data), f"{_shown(path)}: an expression of {length:,} characters"
    path = rng.choice(texts)
    if how == "words":
        value = " ".join(
            rng.choice(["card", "shuffle", "pile", "turn", "α", "β"]) for _ in range(length // 5)
        )
    elif how == "one-word":
        value = "x" * length
    else:
        value = "\n".join(["a line of the sentence"] * (length // 23))
    _set(data, path, value)
    return f"{base}.yaml", _dump(data), f"{_shown(path)}: {how} of {len(value):,} characters"


def truncated(rng: random.Random, base: str, text: str, data: Data) -> tuple[str, bytes, str]:
    raw = text.encode("utf-8")
    at = rng.randrange(1, len(raw))
    return f"{base}.yaml", raw[:at], f"cut after {at} of {len(raw)} bytes"


def range_bomb(rng: random.Random, base: str, text: str, data: Data) -> tuple[str, bytes, str]:
    """A size that explodes: a parameter's default, a loop's range, an input's count, a call's parameter."""
    huge = rng.choice([10**6, 10**9, 10**18, 10**400])
    options: list[tuple[tuple[Any, ...], Any]] = []
    params = data.get("params") if isinstance(data.get("params"), dict) else {}
    for name, p in params.items():
        if isinstance(p, dict) and isinstance(p.get("default"), int):
            options.append(
                (("params", name), {**{k: v for k, v in p.items() if k != "max"}, "default": huge})
            )
        if isinstance(p, dict) and isinstance(p.get("default"), list):
            options.append((("params", name), {"default": [huge, 1, 1], "min": 0}))
            options.append((("params", name), {"default": [1] * rng.choice([1000, 100_000]), "min": 0}))
    for path in _paths(data.get("steps", []), lambda v: isinstance(v, dict) and "for" in v, ("steps",)):
        loop = _get(data, path)["for"]
        if isinstance(loop, dict) and len(loop) == 1:
            ((var, _),) = loop.items()
            options.append(((*path, "for"), {var: f"1..{huge}"}))
    for path in _paths(data.get("steps", []), lambda v: isinstance(v, dict) and "call" in v, ("steps",)):
        call = _get(data, path)
        if isinstance(call.get("params"), dict) and call["params"]:
            name = rng.choice(list(call["params"]))
            options.append(((*path, "params"), {**call["params"], name: huge}))
    inputs = data.get("inputs") if isinstance(data.get("inputs"), dict) else {}
    for name, spec in inputs.items():
        if isinstance(spec, dict) and "count" in spec:
            options.append((("inputs", name, "count"), str(huge)))
    if isinstance(data.get("helpers"), dict):
        for name in data["helpers"]:
            options.append((("helpers", name), huge))
    if not options:  # a parameter of its own, used by nothing: still to be bounded
        options.append((("params",), {"m": {"default": huge, "min": 1}}))
    path, value = rng.choice(options)
    _set(data, path, value)
    return f"{base}.yaml", _dump(data), f"{_shown(path)} = {str(value)[:70]}"


def name_mismatch(rng: random.Random, base: str, text: str, data: Data) -> tuple[str, bytes, str]:
    """The file's name and the protocol it declares differ, e.g. to shadow a shipped protocol."""
    other = rng.choice([b for b in BASES if b != base] + ["my-protocol"])
    if rng.random() < 0.5:
        data["protocol"] = other
        return f"{base}.yaml", _dump(data), f"{base}.yaml declares protocol {other!r}"
    return f"{other}.yaml", _dump(data), f"{other}.yaml declares protocol {base!r}"


def _block_list(depth: int) -> str:
    """A block-style YAML list nested ``depth`` deep (written as text: PyYAML's dumper recurses)."""
    return "".join("  " * i + "-\n" for i in range(depth - 1)) + "  " * (depth - 1) + "- 1\n"


def deep_nesting(rng: random.Random, base: str, text: str, data: Data) -> tuple[str, bytes, str]:
    how = rng.choice(["block-list", "map", "flow", "expression", "steps"])
    depth = rng.choice([60, 99, 101, 150, 1_000, 20_000])
    if how == "block-list":
        depth = min(depth, 700)
        return (
            f"{base}.yaml",
            (text + "\nnotes:\n" + _block_list(depth)).encode(),
            f"notes: a list {depth} deep",
        )
    if how == "map":
        depth = min(depth, 150)
        value: Any = "x"
        for _ in range(depth):
            value = {"a": value}
        data["source"] = value
        return f"{base}.yaml", _dump(data), f"source: a mapping nested {depth} deep"
    if how == "flow":
        return (
            f"{base}.yaml",
            (text + "\nnotes: " + "[" * depth + "]" * depth + "\n").encode(),
            (f"notes: [[[...]]] {depth} deep in flow style"),
        )
    if how == "expression":
        path = rng.choice(_steps(data))
        step = _get(data, path)
        step["let"] = {"deep": "(" * depth + "1" + ")" * depth}
        for k in [k for k in step if k not in ("step", "say", "brief", "let", "labels")]:
            del step[k]
        return f"{base}.yaml", _dump(data), f"{_shown(path)}: an expression nested {depth} deep"
    depth = min(depth, 40)  # steps inside 'do' inside 'do' ..., within the YAML depth limit
    inner: Any = [{"turn": "s[1]"}]
    for _ in range(depth):
        inner = [{"do": inner}]
    data["steps"] = [{"step": "1", "say": "Deep.", "do": inner}, *(data.get("steps") or [])]
    return f"{base}.yaml", _dump(data), f"steps nested {depth} deep under do:"


CLASSES: dict[str, Mutation] = {
    "deleted-key": deleted_key,
    "deleted-action": deleted_action,
    "changed-type": changed_type,
    "index-out-of-range": index_out_of_range,
    "huge-number": huge_number,
    "negative-number": negative_number,
    "unknown-step": unknown_step,
    "duplicate": duplicate,
    "unicode": unicode,
    "empty": empty,
    "binary": binary,
    "long-string": long_string,
    "truncated": truncated,
    "range-bomb": range_bomb,
    "name-mismatch": name_mismatch,
    "deep-nesting": deep_nesting,
}


def mutant(seed: int, index: int, bases: tuple[str, ...] = BASES) -> Mutant:
    """Mutant ``index`` of ``seed``: the classes in turn (every class in every 16 mutants), the
    shipped spec and the change drawn with a generator seeded by both."""
    rng = random.Random(f"kitgen-mutant:{seed}:{index}")
    kinds = list(CLASSES)
    kind = kinds[(index + seed) % len(kinds)]
    base = rng.choice(bases)
    text = (PROTOCOLS / f"{base}.yaml").read_text(encoding="utf-8")
    for _attempt in range(20):
        data = yaml.safe_load(text)
        try:
            file_name, content, detail = CLASSES[kind](rng, base, text, data)
        except (IndexError, KeyError, ValueError, TypeError, AttributeError, RecursionError):
            continue  # this spec has nothing the class can change there: draw again
        return Mutant(seed, index, base, kind, detail, file_name, content)
    raise AssertionError(f"no {kind} mutant of {base}")


def mutants(seed: int, count: int, bases: tuple[str, ...] = BASES) -> list[Mutant]:
    return [mutant(seed, i, bases) for i in range(count)]


# --------------------------------------------------------------------------- running the commands


@dataclass
class Outcome:
    """One command on one mutant."""

    command: str
    argv: list[str]
    code: int | None  # None: it ran past the time limit and was stopped or killed
    seconds: float  # CPU time, the worker processes it waited for included
    output: str
    leftovers: list[str] = field(default_factory=list)
    limit: float = HANG_SECONDS  # CPU seconds beyond which it is a hang (see allow_for_base)

    @property
    def traceback(self) -> bool:
        return "Traceback (most recent call last)" in self.output

    @property
    def hang(self) -> bool:
        """Stopped at its CPU seconds, killed, or over its limit with its workers' time counted."""
        return self.code is None or self.seconds > self.limit


@dataclass
class Verdict:
    mutant: Mutant
    loader: int  # the exit code of loading the spec alone (0: it loads)
    loader_message: str
    outcomes: list[Outcome]
    wrong: list[str]

    def problems(self) -> list[str]:
        out = [f"traceback in {o.command}: {_last_line(o.output)}" for o in self.outcomes if o.traceback]
        out += [f"hang: {o.command} ran past {o.limit:.0f} s of CPU time" for o in self.outcomes if o.hang]
        out += [f"leftover after {o.command}: {', '.join(o.leftovers)}" for o in self.outcomes if o.leftovers]
        return out + [f"wrong exit code: {w}" for w in self.wrong]


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1][:200] if lines else ""


def simulate_args(base: str) -> list[str]:
    """The worked example of a shipped spec, as ``kitgen simulate`` options."""
    from reference_engine.api import Library, example_inputs

    library = Library()
    proto = library.protocol(base)
    args = ["--seed", "1"]
    for name, value in proto.booklet.example_params.items():
        shown = ",".join(map(str, value)) if isinstance(value, tuple) else str(value)
        args += ["--param", f"{name}={shown}"]
    for item in example_inputs(library, proto):
        args += ["--input", item]
    if proto.booklet.example_scenario:
        args += ["--deck", proto.booklet.example_scenario]
    return args


def commands(spec: Path, out: Path, sim_args: list[str], game: str | None) -> list[tuple[str, list[str]]]:
    """Every command that takes the spec file, with its arguments (``game``: a game whose kit and
    play run it as its protocol)."""
    path = str(spec)
    cmds = [
        ("verify", ["verify", path]),
        ("simulate", ["simulate", path, *sim_args]),
        ("booklet", ["booklet", path, "-o", str(out / "booklet"), "--no-previews"]),
        ("view", ["view", path, "-o", str(out / "view")]),
    ]
    if game is not None:
        build = ["build", game, "--protocol", path, "-o", str(out / "kit"), "--no-previews", "--runs", "0"]
        cmds.append(("build", build))
        play = ["play", game, "--protocol", path, "--seed", "1"]
        cmds.append(("play", play + (["--rounds", "1"] if game == "hearts" else [])))
    return cmds


class _Hang(BaseException):
    """Raised in the driver when a command has used its CPU seconds (not an Exception, so no
    ``except Exception`` of the command swallows it)."""


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _leftovers(folder: Path, keep: set[str]) -> list[str]:
    if not folder.exists():
        return []
    return sorted(str(p.relative_to(folder)) for p in folder.iterdir() if p.name not in keep)


def _ours_left_in_cache(name: str) -> bool:
    """Whether a name in the shared cache folder is something this driver left behind: anything
    but an entry (``*.json``), except another live process's temporary file. Two drivers share
    one cache (the seeded sweep runs two at a time), so one driver's check can see the other's
    write in flight; that file is the other's, and it is gone when the other finishes. A temporary
    file of this process, or of a process that is no longer running, is a real leftover."""
    if name.endswith(".json"):
        return False
    found = re.search(r"\.tmp-(\d+)-[0-9a-f]+$", name)
    if found is None:
        return True
    from kitgen.core.output import process_alive

    pid = int(found.group(1))
    return pid == os.getpid() or not process_alive(pid)


def drive(folder: Path, spec: Path, cmds: list[tuple[str, list[str]]], limit: float) -> None:
    """In a process of its own (``python mutants.py drive ...``): load the spec alone, then run
    each command in this process (click's test runner: the same ``main`` the ``kitgen`` script
    calls, without starting Python and importing kitgen seven times), each with its own TMPDIR
    and at most ``limit`` CPU seconds, and print one JSON line per command."""
    import traceback as tb

    from click.testing import CliRunner

    from kitgen.cli.main import main
    from reference_engine.api import KitgenError, Library

    def emit(data: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(data) + "\n")
        sys.stdout.flush()

    def hang(signum: int, frame: Any) -> None:
        raise _Hang()

    signal.signal(signal.SIGPROF, hang)
    try:
        Library().protocol(str(spec))
        emit({"loader": 0, "message": ""})
    except KitgenError as exc:
        emit({"loader": exc.exit_code, "message": exc.format_message().splitlines()[-1][:300]})
    except Exception:
        emit({"loader": -1, "message": tb.format_exc()[-2000:]})
    spec_dir, out, tmp, cache = (
        spec.parent,
        folder / "out",
        folder / "tmp",
        Path(os.environ["KITGEN_CACHE_DIR"]),
    )
    written = {p.name for p in spec_dir.iterdir()}
    for name, args in cmds:
        emit({"start": name})
        os.environ["TMPDIR"] = str(tmp)
        tempfile.tempdir = str(tmp)
        before = _cpu()
        signal.setitimer(signal.ITIMER_PROF, limit)
        code: int | None
        try:
            result = CliRunner().invoke(main, args)
            code, output = result.exit_code, result.output
            if result.exception is not None and not isinstance(result.exception, SystemExit):
                exc = result.exception
                output += "\n" + "".join(tb.format_exception(type(exc), exc, exc.__traceback__))
        except _Hang:
            code, output = None, "(stopped: it used its CPU seconds)"
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
        seconds = _cpu() - before
        left = _leftovers(tmp, set()) + [f"spec/{x}" for x in _leftovers(spec_dir, written)]
        left += [f"out/{x}" for x in _leftovers(out, {"booklet", "view", "kit"})]
        if code not in (0, None):
            left += [f"out/{x} (written by a failed {name})" for x in _leftovers(out, set())]
        left += [f"cache/{x}" for x in _leftovers(cache, set()) if _ours_left_in_cache(x)]
        for x in _leftovers(tmp, set()) + _leftovers(out, set()):  # the next command starts clean
            target = (tmp if (tmp / x).exists() else out) / x
            if target.is_dir():
                shutil.rmtree(target, ignore_errors=True)
            else:
                target.unlink(missing_ok=True)
        emit(
            {
                "command": name,
                "argv": args,
                "code": code,
                "seconds": seconds,
                "output": output[-6000:],
                "leftovers": left,
            }
        )


def run_mutant(m: Mutant, work: Path, cache: Path, sim_args: list[str]) -> Verdict:
    """Write ``m`` into a fresh folder below ``work`` and drive every command on it; a command
    over HANG_SECONDS is measured against the shipped spec (:func:`allow_for_base`)."""
    folder = work / f"mutant-{m.seed}-{m.index}"
    verdict = run_spec(folder, {m.file_name: m.content}, m.file_name, GAME_OF.get(m.base), sim_args, cache, m)
    allow_for_base(verdict, work, sim_args)
    return verdict


_BASE_SECONDS: dict[tuple[str, str], float] = {}
_BASE_LOCK = threading.Lock()


def base_seconds(base: str, command: str, work: Path, sim_args: list[str]) -> float:
    """The CPU seconds ``command`` takes on the shipped spec ``base`` itself, on this machine, with
    an empty verification cache (measured once per run of the tests or the bench)."""
    with _BASE_LOCK:
        if (base, command) not in _BASE_SECONDS:
            folder = work / f"base-{base}-{command}"
            name = f"{base}.yaml"
            files = {name: (PROTOCOLS / name).read_bytes()}
            verdict = run_spec(
                folder,
                files,
                name,
                GAME_OF.get(base),
                sim_args,
                folder.with_name(folder.name + "-cache"),
                only=command,
            )
            shutil.rmtree(folder.with_name(folder.name + "-cache"), ignore_errors=True)
            ran = [o for o in verdict.outcomes if o.command == command and o.code is not None]
            _BASE_SECONDS[base, command] = ran[0].seconds if ran else 0.0
        return _BASE_SECONDS[base, command]


def allow_for_base(verdict: Verdict, work: Path, sim_args: list[str]) -> None:
    """A command of a mutant that used more than HANG_SECONDS but finished may take up to
    HANG_FACTOR times what it takes on the unchanged shipped spec on this machine (a full-size
    verification is slow on a slow machine; a hang is a runaway, not a machine's speed)."""
    for o in verdict.outcomes:
        if o.code is not None and o.seconds > o.limit and verdict.mutant.base in BASES:
            own = base_seconds(verdict.mutant.base, o.command, work, sim_args)
            o.limit = max(o.limit, HANG_FACTOR * own)


def run_spec(
    folder: Path,
    files: dict[str, bytes],
    main: str,
    game: str | None,
    sim_args: list[str],
    cache: Path,
    m: Mutant | None = None,
    limit: float = KILL_SECONDS,
    only: str | None = None,
) -> Verdict:
    """Write ``files`` (a spec and the specs it calls) into ``folder`` and drive every command on
    ``main`` (see :func:`drive`; ``game``: a game whose kit and play run it; ``only``: just that
    command). A command is stopped at ``limit`` CPU seconds. A driver still running after
    ``WALL_FACTOR`` times HANG_SECONDS for every command (a command waiting on something) is
    killed, and its current command is a hang."""
    shutil.rmtree(folder, ignore_errors=True)
    spec_dir, out, tmp = folder / "spec", folder / "out", folder / "tmp"
    for d in (spec_dir, out, tmp):
        d.mkdir(parents=True)
    cache.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        (spec_dir / name).write_bytes(content)
    spec = spec_dir / main
    cmds = [c for c in commands(spec, out, sim_args, game) if only in (None, c[0])]
    env = {**os.environ, "KITGEN_CACHE_DIR": str(cache), "TMPDIR": str(tmp), "PYTHONDONTWRITEBYTECODE": "1"}
    job = json.dumps({"folder": str(folder), "spec": str(spec), "commands": cmds, "limit": limit})
    # Its own process (forked from a process that imported kitgen once, forkserver.py), in its own
    # session: a hang is ended with its workers.
    proc = forkserver.start(Path(__file__), "drive_job", [job], env, folder)
    timer = threading.Timer(
        limit + HANG_SECONDS * WALL_FACTOR * len(cmds), lambda: os.killpg(proc.pid, signal.SIGKILL)
    )
    timer.start()
    loader, message = -1, "the driver ended before loading the spec"
    outcomes: list[Outcome] = []
    current: str | None = None
    stray: list[str] = []  # lines the command's worker processes printed themselves
    assert proc.stdout is not None
    for raw in proc.stdout:
        line = raw.decode("utf-8", errors="replace")
        data = json.loads(line) if line.startswith("{") else None
        if data is None:
            stray.append(line)
        elif "loader" in data:
            loader, message = data["loader"], data["message"]
        elif "start" in data:
            current, stray = data["start"], []
        else:
            output = data["output"] + "".join(stray)
            outcomes.append(
                Outcome(
                    data["command"], data["argv"], data["code"], data["seconds"], output, data["leftovers"]
                )
            )
            current = None
    proc.wait()
    timer.cancel()
    if current is not None:  # killed (or crashed) in the middle of a command
        killed = proc.returncode == -signal.SIGKILL
        argv = next(a for n, a in cmds if n == current)
        outcomes.append(Outcome(current, argv, None if killed else proc.returncode, 0.0, "".join(stray)))
    wrong = wrong_exit_codes(loader if loader >= 0 else 2, outcomes)
    if loader < 0:
        outcomes.append(Outcome("load", [], 1, 0.0, message))
    shutil.rmtree(folder, ignore_errors=True)
    return Verdict(m or Mutant(0, 0, main, "file", main, main, b""), loader, message, outcomes, wrong)


def _stage(output: str) -> str | None:
    """The stage of a one-line error (``Error (spec): ...`` -> ``spec``)."""
    found = re.search(r"^Error \((\w+)\):", output, re.MULTILINE)
    return found.group(1) if found else None


SPEC_STAGES = ("spec", "load", "simulate", "evaluate", "run")  # errors of the spec itself


def wrong_exit_codes(loader: int, outcomes: list[Outcome]) -> list[str]:
    """The exit codes that contradict each other (see bench/badinput.py for the rules)."""
    wrong = []
    code = {o.command: o.code for o in outcomes if o.code is not None}
    for o in outcomes:
        if o.code is not None and o.code not in (0, 1, 2):
            wrong.append(f"{o.command} exited {o.code} (0, 1 or 2 expected)")
    if loader != 0:
        for o in outcomes:
            if o.code is not None and o.code != 2:
                wrong.append(f"the spec does not load, but {o.command} exited {o.code} instead of 2")
        return wrong
    verify = next((o for o in outcomes if o.command == "verify"), None)
    if verify is None or verify.code is None:
        return wrong
    for name in ("booklet", "build"):
        if verify.code == 1 and code.get(name) == 0:
            wrong.append(f"verify fails a check (1), but {name} printed the protocol (0)")
        if verify.code == 0 and code.get(name) == 1:
            wrong.append(f"verify passes (0), but {name} says a check fails (1)")
    if verify.code == 2 and _stage(verify.output) in SPEC_STAGES:
        for name in ("simulate", "booklet", "view", "build", "play"):
            if code.get(name) == 0:
                wrong.append(f"verify refuses the spec as broken (2), but {name} exited 0")
    return wrong


def summary(verdicts: list[Verdict]) -> dict[str, Any]:
    runs = [o for v in verdicts for o in v.outcomes]
    return {
        "mutants": len(verdicts),
        "tried": len(runs),
        "tracebacks": sum(o.traceback for o in runs),
        "wrong_exit_codes": sum(len(v.wrong) for v in verdicts),
        "hangs": sum(o.hang for o in runs),
        "leftovers": sum(bool(o.leftovers) for o in runs),
        "slowest_seconds": round(max((o.seconds for o in runs), default=0.0), 1),
    }


def temporary_work() -> Path:
    return Path(tempfile.mkdtemp(prefix="kitgen-badinput-"))


def kitgen_main(args: list[str]) -> None:
    """``kitgen ARGS``, as the ``kitgen`` script runs it (what test_badinput's kitgen_process forks)."""
    from kitgen.cli.main import main

    main(args)


def drive_job(job: str) -> None:
    """:func:`drive` of a job that :func:`run_spec` wrote as JSON (what forkserver.start calls)."""
    data = json.loads(job)
    drive(Path(data["folder"]), Path(data["spec"]), [(n, a) for n, a in data["commands"]], data["limit"])


if __name__ == "__main__" and sys.argv[1:2] == ["drive"]:
    drive_job(sys.argv[2])
