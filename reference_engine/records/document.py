"""A game record as a document: built from a played game, written as JSON, read back and checked.

The format is described by ``record.schema.json`` (JSON Schema, draft 2020-12) beside this
module and in docs/records.md. Reading a record checks it against the schema and reports the
first problems with the file, the line and the key path (``events[12].public.card``), as
:class:`~reference_engine.errors.RecordError` (exit code 2).
"""

from __future__ import annotations

import errno
import hashlib
import json
from collections.abc import Mapping, Sequence
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from ..errors import RecordError
from ..files import read_regular, read_text, reason
from ..source import MAX_FILE_BYTES
from . import FORMAT, HEADER, VERSION
from .recorder import Recorder

SCHEMA_FILE = Path(__file__).resolve().with_name("record.schema.json")
MAX_PROBLEMS = 5  # problems a malformed record reports (the first ones, in file order)
MAX_FOUND = 200  # problems collected before the first ones are picked
MAX_BYTES = 256 * 2**20  # a record larger than this is refused (a whole card-level game is a few MB)

KeyPath = Sequence[str | int]


@cache
def schema() -> dict[str, Any]:
    """The record format's JSON Schema."""
    data: dict[str, Any] = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    return data


def _generator() -> str:
    try:
        return f"kitgen {version('kitgen')}"
    except PackageNotFoundError:  # pragma: no cover - a source tree without installing
        return "kitgen"


def digest(path: Path) -> str:
    """The SHA-256 of a rule set file (read as any rule set file is: at most the loader's limit)."""
    return hashlib.sha256(read_regular(path, MAX_FILE_BYTES)).hexdigest()


def build(
    rules: Any,
    kind: str,
    source: str,
    path: Path,
    settings: Mapping[str, Any],
    result: Mapping[str, Any],
    recorder: Recorder,
) -> dict[str, Any]:
    """The record of a played game: ``source`` is how the rule set was named (a built-in name,
    or the path of the user's file), ``settings`` what the game was played with."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "generator": _generator(),
        "game": {
            "rule_set": rules.name,
            "kind": kind,
            "title": rules.title,
            "source": source,
            "sha256": digest(path),
            "parameters": recorder.parameters,
        },
        "settings": dict(settings),
        "seats": recorder.seats,
        "cards": dict(sorted(recorder.cards.items())),
        "events": recorder.events,
        "result": {k: v for k, v in result.items() if k != "log"},
    }


def dumps(record: Mapping[str, Any]) -> str:
    """The record as text: the header indented, then one event per line (a changed event is a
    changed line), the same bytes for the same game."""
    parts = []
    for key, value in record.items():
        if key == "events":
            lines = ",\n".join("  " + json.dumps(e, ensure_ascii=False, separators=(",", ":")) for e in value)
            parts.append(f' "events": [\n{lines}\n ]')
        else:
            text = json.dumps(value, indent=1, ensure_ascii=False).replace("\n", "\n ")
            parts.append(f" {json.dumps(key)}: {text}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


# --------------------------------------------------------------------------- reading


def loads(text: str, file: str = "<record>") -> dict[str, Any]:
    """A record from its text, checked against the schema (RecordError when it is not one)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{file}:{exc.lineno}:{exc.colno}: not JSON: {exc.msg}") from None
    except RecursionError:
        raise RecordError(f"{file}: nested too deeply to be a game record") from None
    if not isinstance(data, dict):
        raise RecordError(f"{file}:1: a game record is a JSON object, not {type(data).__name__}")
    if data.get("format") != FORMAT:
        line = locate(text, ["format"]) if "format" in data else 1
        raise RecordError(f"{file}:{line}: format: not a {FORMAT} (format {data.get('format')!r})")
    v = data.get("version")
    if isinstance(v, int) and not isinstance(v, bool) and v > VERSION:
        raise RecordError(
            f"{file}:{locate(text, ['version'])}: version: the record is version {v}; this kitgen reads "
            f"version {VERSION} and older: update kitgen"
        )
    problems = validate(data)
    if problems:
        located = sorted({(locate(text, path), _dotted(path) or "(top)", msg) for path, msg in problems})
        lines = [f"  {file}:{line}: {path}: {msg}" for line, path, msg in located[:MAX_PROBLEMS]]
        count = f"{len(located)}{' or more' if len(problems) == MAX_FOUND else ''}"
        head = f"{count} problem{'s' if len(located) != 1 else ''} found"
        more = f" (the first {MAX_PROBLEMS})" if len(located) > MAX_PROBLEMS else ""
        raise RecordError(f"{file} is not a valid game record: {head}{more}:\n" + "\n".join(lines))
    return data


def read(path: Path) -> dict[str, Any]:
    """A record from its file: a regular file (a pipe or a device is refused, never waited on) of
    at most :data:`MAX_BYTES` (:mod:`reference_engine.files`)."""
    try:
        text = read_text(path, MAX_BYTES)
    except FileNotFoundError:
        raise RecordError(f"no such record file: {path}") from None
    except UnicodeDecodeError as exc:
        raise RecordError(f"{path}: not a text file (UTF-8): {exc.reason} at byte {exc.start}") from None
    except OSError as exc:
        if exc.errno == errno.EFBIG:
            raise RecordError(f"{path}: larger than {MAX_BYTES:,} bytes: not a game record") from None
        raise RecordError(f"cannot read {path}: {reason(exc)}") from None
    return loads(text.replace("\r\n", "\n").replace("\r", "\n"), str(path))


def is_record(head: bytes) -> bool:
    """Whether a file that begins with ``head`` is a record kitgen wrote (by its first lines)."""
    return head.startswith(HEADER)


def validate(data: Any) -> list[tuple[list[str | int], str]]:
    """The schema's complaints about ``data``: (key path, message), at most :data:`MAX_FOUND`."""
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(schema())
    found: list[tuple[list[str | int], str]] = []
    for error in validator.iter_errors(data):
        deepest = _deepest(error)
        problem = (list(deepest.absolute_path), deepest.message)
        if problem not in found:
            found.append(problem)
        if len(found) == MAX_FOUND:
            break
    return found


def _deepest(error: Any) -> Any:
    """For a failed ``oneOf``/``anyOf``/``if``, the sub-error that says most (the deepest path)."""
    while error.context:
        error = max(error.context, key=lambda e: len(e.absolute_path))
    return error


def _dotted(path: KeyPath) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out


# --------------------------------------------------------------------------- locating


def locate(text: str, path: KeyPath) -> int:
    """The line of the value at ``path`` in the JSON ``text`` (the deepest part of the path that
    exists): a scan that skips every value it does not enter with the C decoder."""
    decoder = json.JSONDecoder()
    pos = _space(text, 0)
    for key in path:
        if pos >= len(text):
            break
        found = _member(text, pos, key, decoder)
        if found is None:
            break
        pos = found
    return text.count("\n", 0, pos) + 1


def _space(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\r\n":
        pos += 1
    return pos


def _member(text: str, pos: int, key: str | int, decoder: json.JSONDecoder) -> int | None:
    """Where the member ``key`` of the object or array starting at ``pos`` starts, or None."""
    opening = text[pos]
    if opening not in "{[" or (opening == "{") != isinstance(key, str):
        return None
    pos = _space(text, pos + 1)
    index = 0
    while pos < len(text) and text[pos] not in "}]":
        if opening == "{":
            name, pos = json.decoder.scanstring(text, pos + 1)  # type: ignore[attr-defined]
            pos = _space(text, _space(text, pos) + 1)  # past the colon
            if name == key:
                return pos
        elif index == key:
            return pos
        _, end = decoder.raw_decode(text, pos)
        pos = _space(text, end)
        if pos < len(text) and text[pos] == ",":
            pos = _space(text, pos + 1)
        index += 1
    return None
