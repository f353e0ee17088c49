"""Safe YAML loading that remembers where every value came from.

Values come back as plain Python data (dict, list, str, int, ...); a side table maps
each key path, e.g. ``("steps", 3, "shuffle")``, to its line, so validators can
report ``file:line: steps[3].shuffle: message`` for any problem they find.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .errors import Problem, SpecError

KeyPath = tuple[str | int, ...]


def format_path(path: KeyPath) -> str:
    """Render a key path the way users read it: ``steps[3].shuffle.piles``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


@dataclass
class Source:
    """A loaded YAML document with line numbers for every key path."""

    file: str
    data: Any
    lines: dict[KeyPath, int] = field(default_factory=dict)
    text: str = ""

    def line(self, path: KeyPath) -> int | None:
        """Line of ``path``, or of its nearest ancestor that has one."""
        probe = tuple(path)
        while True:
            if probe in self.lines:
                return self.lines[probe]
            if not probe:
                return None
            probe = probe[:-1]

    def problem(self, path: KeyPath, message: str) -> Problem:
        return Problem(self.file, self.line(path), format_path(path), message)


def load_text(text: str, file: str) -> Source:
    """Parse YAML text safely; raise :class:`SpecError` naming file and line on failure."""
    lines: dict[KeyPath, int] = {}
    problems: list[Problem] = []
    try:
        loader = yaml.SafeLoader(text)
        try:
            node = loader.get_single_node()
            data = None if node is None else _build(loader, node, (), lines, problems, file)
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        reason = exc.problem or exc.context or "invalid YAML"
        raise SpecError([Problem(file, line, "", f"YAML syntax error: {reason}")]) from None
    except yaml.YAMLError as exc:
        raise SpecError([Problem(file, None, "", f"YAML error: {exc}")]) from None
    if problems:
        raise SpecError(problems)
    return Source(file=file, data=data, lines=lines, text=text)


def load_file(path: str | Path) -> Source:
    """Read and parse one YAML file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise SpecError([Problem(str(p), None, "", f"cannot read file: {exc.strerror}")]) from None
    except UnicodeDecodeError:
        raise SpecError([Problem(str(p), None, "", "file is not UTF-8 text")]) from None
    return load_text(text, str(p))


_DEFAULT_TAGS = {"tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"}


def _build(
    loader: yaml.SafeLoader,
    node: yaml.Node,
    path: KeyPath,
    lines: dict[KeyPath, int],
    problems: list[Problem],
    file: str,
    line: int | None = None,
) -> Any:
    lines[path] = line if line is not None else node.start_mark.line + 1
    if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and node.tag not in _DEFAULT_TAGS:
        problems.append(
            Problem(
                file,
                node.start_mark.line + 1,
                format_path(path),
                f"unsupported YAML tag {node.tag!r}: specs are plain data",
            )
        )
        return None
    if isinstance(node, yaml.MappingNode):
        loader.flatten_mapping(node)
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            if not isinstance(key, (str, int, bool)):
                problems.append(
                    Problem(
                        file,
                        key_node.start_mark.line + 1,
                        format_path(path),
                        f"keys must be names or numbers, not {type(key).__name__}",
                    )
                )
                continue
            if isinstance(key, bool):
                key = str(key).lower()
            part = str(key)  # mapping keys are names in a path, list positions are ints
            if key in result:
                problems.append(
                    Problem(
                        file,
                        key_node.start_mark.line + 1,
                        format_path(path + (part,)),
                        f"duplicate key {key!r}",
                    )
                )
                continue
            result[key] = _build(
                loader, value_node, path + (part,), lines, problems, file, key_node.start_mark.line + 1
            )
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_build(loader, item, path + (i,), lines, problems, file) for i, item in enumerate(node.value)]
    return loader.construct_object(node, deep=True)
