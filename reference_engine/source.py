"""Safe YAML loading that remembers where every value came from.

Values come back as plain Python data (dict, list, str, int, ...); a side table maps
each key path, e.g. ``("steps", 3, "shuffle")``, to its line, so validators can
report ``file:line: steps[3].shuffle: message`` for any problem they find.

Loading is bounded whatever the file holds (README, "Writing a protocol spec"): a file of at
most :data:`MAX_FILE_BYTES`, nested at most :data:`MAX_DEPTH` levels (PyYAML composes
recursively, so a file of ``[[[[...`` would otherwise end in a RecursionError), with at most
:data:`MAX_ALIASES` uses of ``*alias`` and at most :data:`MAX_NODES` values once every alias
is expanded (anchors that refer to anchors, the "billion laughs", would otherwise expand
exponentially). An alias that refers to the node containing it is refused too.
"""

from __future__ import annotations

import errno
import functools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import yaml

from .errors import Problem, SpecError
from .files import read_regular, reason

KeyPath = tuple[str | int, ...]

# Loading limits (README, "Writing a protocol spec"). The largest built-in file has 8 KB,
# 400 values and 10 levels; PyYAML's pure-Python composer reads about 25,000 values a second,
# the C path (libyaml's composer, see _parse) six to ten times as many.
MAX_FILE_BYTES = 1_000_000  # a spec, rule set or template file
MAX_DEPTH = 100  # mappings and lists inside each other
MAX_ALIASES = 10_000  # uses of *alias in one file
MAX_NODES = 100_000  # values (mappings, lists, scalars), as written and with every alias expanded


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


class _TooBig(Exception):
    """A file past one of the loading limits: where, and what."""

    def __init__(self, line: int | None, path: KeyPath, message: str):
        super().__init__(message)
        self.line = line
        self.path = path
        self.message = message


class _BoundedLoader(yaml.SafeLoader):
    """``SafeLoader`` that refuses deep nesting and alias floods while it composes nodes."""

    def __init__(self, text: str):
        super().__init__(text)
        self.kg_path: list[str | int] = []
        self.kg_depth = 0
        self.kg_aliases = 0
        self.kg_nodes = 0

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        event: Any = self.peek_event()  # type: ignore[no-untyped-call]
        line = event.start_mark.line + 1 if event.start_mark is not None else None
        part: str | int | None = None
        if isinstance(index, int) and not isinstance(index, bool):
            part = index
        elif isinstance(index, yaml.ScalarNode):
            part = str(index.value)
        if part is not None:
            self.kg_path.append(part)
        try:
            if isinstance(event, yaml.AliasEvent):
                self.kg_aliases += 1
                if self.kg_aliases > MAX_ALIASES:
                    raise _TooBig(
                        line, tuple(self.kg_path), f"more than {MAX_ALIASES:,} uses of aliases (*name)"
                    )
                return super().compose_node(parent, index)
            self.kg_nodes += 1
            if self.kg_nodes > MAX_NODES:
                raise _TooBig(line, tuple(self.kg_path), f"more than {MAX_NODES:,} values in one file")
            if not isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                return super().compose_node(parent, index)
            self.kg_depth += 1
            try:
                if self.kg_depth > MAX_DEPTH:
                    raise _TooBig(line, tuple(self.kg_path), _too_deep())
                return super().compose_node(parent, index)
            finally:
                self.kg_depth -= 1
        finally:
            if part is not None:
                self.kg_path.pop()


def _short_path(path: KeyPath) -> str:
    """A key path for one line: ``a[0][0][0]...[0][0]`` (100 levels) rather than all of it."""
    if len(path) <= 8:
        return format_path(path)
    head, tail = format_path(path[:4]), format_path(("",) + path[-2:])
    return f"{head}...{tail.lstrip('.')} ({len(path)} levels)"


def _too_deep() -> str:
    return f"nested more than {MAX_DEPTH} levels deep (lists and mappings inside each other)"


def _measure(root: yaml.Node) -> tuple[int, bool]:
    """Refuse a document whose aliases expand past :data:`MAX_NODES` values or :data:`MAX_DEPTH`
    levels, or refer to the node that contains them, before anything is expanded. The number of
    uses of aliases (every reference to a node met before), and whether an empty plain value
    stands where its own line is read (the document, a key, an item of a list: not a mapping's
    value, which takes its key's line): the two composers place such a value on different lines.

    Each distinct node is measured once (aliases share nodes), so this takes time in proportion
    to the file, not to its expansion.
    """
    sizes: dict[int, int] = {}  # id(node) -> values in its expansion
    heights: dict[int, int] = {}  # id(node) -> levels of lists and mappings in its expansion
    open_: set[int] = set()
    visits = 0
    loose = False

    def visit(node: yaml.Node, path: KeyPath, depth: int, valued: bool = False) -> None:
        nonlocal visits, loose
        visits += 1
        if not valued and node.value == "" and isinstance(node, yaml.ScalarNode):
            loose = True
        key = id(node)
        line = node.start_mark.line + 1
        if key in open_:
            raise _TooBig(line, path, "an alias refers to a list or mapping that contains it")
        if key in sizes:
            if depth + heights[key] > MAX_DEPTH:
                raise _TooBig(line, path, _too_deep() + ", once aliases are expanded")
            return
        if not isinstance(node, (yaml.MappingNode, yaml.SequenceNode)):
            sizes[key], heights[key] = 1, 0
            return
        if depth + 1 > MAX_DEPTH:
            raise _TooBig(line, path, _too_deep() + ", once aliases are expanded")
        open_.add(key)
        children: list[tuple[yaml.Node, KeyPath, bool]] = []
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                children.append((k, path, False))
                children.append((v, path + (str(k.value),) if isinstance(k, yaml.ScalarNode) else path, True))
        else:
            children = [(item, path + (i,), False) for i, item in enumerate(node.value)]
        size, height = 1, 0
        for child, child_path, child_valued in children:
            visit(child, child_path, depth + 1, child_valued)
            size += sizes[id(child)]
            height = max(height, heights[id(child)])
        open_.discard(key)
        sizes[key], heights[key] = size, height + 1
        if size > MAX_NODES:
            raise _TooBig(
                line, path, f"the aliases expand to {size:,} values, more than the limit of {MAX_NODES:,}"
            )

    visit(root, (), 0)
    return visits - len(sizes), loose


# Parsed documents by (file, text): a build loads the same rule sets and specs dozens of times
# (every simulated game loads its rule set), and parsing is most of loading. Each caller gets its
# own copy of the data, so nothing a caller changes reaches another; failures are not kept.
_PARSED: dict[tuple[str, str], Source] = {}
_PARSED_MAX = 512  # documents; the built-in library has about 150 files


def _copy(value: Any) -> Any:
    """A copy of loaded YAML data (dicts and lists copied, scalars are immutable)."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def load_text(text: str, file: str) -> Source:
    """Parse YAML text safely; raise :class:`SpecError` naming file and line on failure."""
    parsed = _PARSED.get((file, text))
    if parsed is None:
        parsed = _parse(text, file)
        if len(_PARSED) >= _PARSED_MAX:
            _PARSED.clear()
        _PARSED[(file, text)] = parsed
    return Source(file=parsed.file, data=_copy(parsed.data), lines=dict(parsed.lines), text=parsed.text)


def _parse(text: str, file: str) -> Source:
    """The document, composed by libyaml's C composer where this PyYAML has it (several times
    faster than the pure-Python one), else, or wherever the C composer refuses the text or any
    limit is reached, by the pure-Python one, whose messages (file, line, key) are the ones users
    read: the C composer only ever speeds up a document that loads without error."""
    c_loader = _c_loader()
    if c_loader is not None and not _py_only(text):
        try:
            return _parse_c(c_loader, text, file)
        except _NotFast:
            pass
    return _parse_py(text, file)


# What the two composers disagree on (libyaml accepts a tab inside a plain value, a byte-order
# mark inside the text, a comment right after a block scalar's ``|`` or ``>``, tags PyYAML
# cannot read, such as ``!=!!int``; they split lines at the rarer line breaks differently): a
# text holding one of these (or any tag, ``!`` but in ``!=``) is read by PyYAML alone.
_PY_ONLY = re.compile("[\t\ufeff\x85\u2028\u2029]|!(?!=)|[|>][-+0-9]*#")


def _py_only(text: str) -> bool:
    """Whether only PyYAML may read ``text``: it holds a character of :data:`_PY_ONLY`, or a
    ``?`` where there may be a list or mapping written inline (PyYAML ends a plain value at a ``?``
    inside ``[...]`` or ``{...}`` and then refuses ``[is it?]``; libyaml reads ``'is it?'``).
    tests/reference_engine/test_source.py compares the two composers on hostile text.

    :data:`_PY_ONLY` is the rule; this asks it piece by piece, as fast: the characters by ``in``,
    ``!`` by a search that starts at each ``!``, and ``[|>][-+0-9]*#`` from each ``#`` back
    (a run of ``-+0-9`` right before it, then ``|`` or ``>``: neither is in the run, so only the
    character before the longest run can be one). One search of the whole pattern took a tenth
    of a spec's parse (25 KB: the regular expression tries three branches at every character).
    """
    if any(ch in text for ch in _PY_ONLY_CHARS) or _TAG.search(text) is not None:
        return True
    at = text.find("#")
    while at >= 0:
        start = at
        while start > 0 and text[start - 1] in _BLOCK_INDICATOR:
            start -= 1
        if start > 0 and text[start - 1] in "|>":
            return True
        at = text.find("#", at + 1)
    return "?" in text and ("[" in text or "{" in text)


_PY_ONLY_CHARS = "\t\ufeff\x85\u2028\u2029"  # the characters of _PY_ONLY
_TAG = re.compile("!(?!=)")
_BLOCK_INDICATOR = frozenset("-+0123456789")  # [-+0-9]: what may stand between | or > and #


class _NotFast(Exception):
    """The C composer met something the pure-Python one must say (or decide) the way it does."""


@functools.cache
def _c_loader() -> type[yaml.CSafeLoader] | None:
    """libyaml's safe loader, where PyYAML has it and libyaml bounds nesting itself (0.2.5 and
    later refuse 1,000 levels; an older one would recurse in C until the stack ran out, so it is
    not used)."""
    loader = getattr(yaml, "CSafeLoader", None)
    if loader is None:
        return None
    probe = loader("[" * 2_000 + "]" * 2_000)
    try:
        probe.get_single_node()
    except yaml.YAMLError:
        return cast("type[yaml.CSafeLoader]", loader)
    finally:
        probe.dispose()
    return None


def _parse_c(loader_type: type[yaml.CSafeLoader], text: str, file: str) -> Source:
    """:func:`_parse_py`'s result for a document that loads, or :class:`_NotFast`."""
    lines: dict[KeyPath, int] = {}
    problems: list[Problem] = []
    try:
        loader = loader_type(text)
        try:
            node = loader.get_single_node()
            if node is not None:
                if "&" in text:  # anchors, so perhaps aliases: measured as PyYAML's text is
                    aliases, loose = _measure(node)
                    if aliases > MAX_ALIASES or loose:
                        raise _NotFast
                elif not _tree_fits(node):
                    raise _NotFast
            # The written values are within MAX_NODES and MAX_DEPTH: _measure bounds their
            # expansion, which holds them all.
            data = None if node is None else _build(loader, node, (), lines, problems, file)
        finally:
            loader.dispose()
    except Exception:  # a syntax error, a limit, a value PyYAML cannot build: said the usual way
        raise _NotFast from None
    if problems:  # a duplicate key, a tag: found by _build on the same nodes, so the same words
        raise SpecError(problems)
    return Source(file=file, data=data, lines=lines, text=text)


def _tree_fits(root: yaml.Node) -> bool:
    """For a text without anchors (so without aliases: each node is met once), what
    :func:`_measure` and PyYAML's composing decide, without key paths (the C path leaves every
    refusal to PyYAML, which names them): whether it has at most :data:`MAX_NODES` values, nested
    at most :data:`MAX_DEPTH` levels, and no empty plain value whose own line is read."""
    count = 0
    stack: list[tuple[yaml.Node, int, bool]] = [(root, 1, False)]
    scalar, mapping = yaml.ScalarNode, yaml.MappingNode
    while stack:
        node, depth, valued = stack.pop()
        count += 1
        value = node.value
        if isinstance(node, scalar):
            if not valued and value == "":
                return False
            continue
        if depth > MAX_DEPTH or count > MAX_NODES:
            return False
        # A scalar below is counted and checked here rather than pushed (most of a spec's
        # values): the answer is the same, as the count only grows and is checked at the end.
        below = depth + 1
        if isinstance(node, mapping):
            for k, v in value:
                if isinstance(k, scalar):
                    count += 1
                    if k.value == "":
                        return False
                else:
                    stack.append((k, below, False))
                if isinstance(v, scalar):
                    count += 1
                else:
                    stack.append((v, below, True))
        else:
            for item in value:
                if isinstance(item, scalar):
                    count += 1
                    if item.value == "":
                        return False
                else:
                    stack.append((item, below, False))
    return count <= MAX_NODES


def _parse_py(text: str, file: str) -> Source:
    lines: dict[KeyPath, int] = {}
    problems: list[Problem] = []
    at: list[_BoundedLoader] = []
    try:
        loader = _BoundedLoader(text)
        at.append(loader)
        try:
            node = loader.get_single_node()
            if node is not None:
                _measure(node)
            data = None if node is None else _build(loader, node, (), lines, problems, file)
        finally:
            loader.dispose()
    except _TooBig as exc:
        raise SpecError([Problem(file, exc.line, _short_path(exc.path), exc.message)]) from None
    except RecursionError:  # not reached within the limits above; a last resort, never a traceback
        raise SpecError([Problem(file, None, "", _too_deep())]) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        reason = exc.problem or exc.context or "invalid YAML"
        raise SpecError([Problem(file, line, "", f"YAML syntax error: {reason}")]) from None
    except yaml.YAMLError as exc:
        raise SpecError([Problem(file, None, "", f"YAML error: {exc}")]) from None
    except ValueError as exc:  # PyYAML's scanner reads "\U00110000" as chr(0x110000)
        if "chr()" not in str(exc):
            raise
        line = at[0].line + 1 if at else None
        message = "YAML syntax error: an escape (\\U...) names no character (past U+10FFFF)"
        raise SpecError([Problem(file, line, "", message)]) from None
    if problems:
        raise SpecError(problems)
    return Source(file=file, data=data, lines=lines, text=text)


def load_file(path: str | Path) -> Source:
    """Read and parse one YAML file: a regular file (a FIFO, a device or a folder is refused at
    once, see :mod:`reference_engine.files`) of at most :data:`MAX_FILE_BYTES`."""
    return load_text(read_text(path), str(Path(path)))


def read_text(path: str | Path) -> str:
    """The text of one YAML file, read as :func:`load_file` reads it (the same refusals), not
    parsed; its name for messages is ``str(Path(path))``."""
    p = Path(path)

    def refuse(message: str) -> SpecError:
        return SpecError([Problem(str(p), None, "", message)])

    try:
        raw = read_regular(p, MAX_FILE_BYTES)
    except IsADirectoryError:
        raise refuse("is a folder, not a spec file") from None
    except OSError as exc:
        if exc.errno == errno.EFBIG:
            message = f"file is larger than {MAX_FILE_BYTES:,} bytes; a spec is a small text file"
            raise refuse(message) from None
        raise refuse(f"cannot read file: {reason(exc)}") from None
    try:
        text = raw.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")  # as read_text() would
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise SpecError(
            [Problem(str(p), line, "", f"file is not UTF-8 text (byte {exc.start + 1} cannot be read)")]
        ) from None
    if "\0" in text:
        raise SpecError(
            [Problem(str(p), text[: text.index("\0")].count("\n") + 1, "", "file is binary, not YAML text")]
        )
    if not text.strip():
        raise refuse("file is empty")
    return text


_STR = "tag:yaml.org,2002:str"
_SCALAR = yaml.ScalarNode  # a text (most of a spec's values) is built inline, without two calls
_DEFAULT_TAGS = {"tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"}


def _build(
    loader: yaml.SafeLoader | yaml.CSafeLoader,
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
            try:
                if key_node.tag == _STR and isinstance(key_node, yaml.ScalarNode):
                    key = key_node.value  # PyYAML's construct_yaml_str: the scalar's text
                else:
                    key = loader.construct_object(key_node, deep=True)
            except _UNREADABLE as exc:
                problems.append(_unreadable(key_node, exc, path, file))
                continue
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
            if type(value_node) is _SCALAR and value_node.tag == _STR:  # what _build gives, inline
                lines[path + (part,)] = key_node.start_mark.line + 1
                result[key] = value_node.value
                continue
            result[key] = _build(
                loader, value_node, path + (part,), lines, problems, file, key_node.start_mark.line + 1
            )
        return result
    if isinstance(node, yaml.SequenceNode):
        items: list[Any] = []
        for i, item in enumerate(node.value):
            if type(item) is _SCALAR and item.tag == _STR:  # what _build gives, inline
                lines[path + (i,)] = item.start_mark.line + 1
                items.append(item.value)
            else:
                items.append(_build(loader, item, path + (i,), lines, problems, file))
        return items
    return _scalar(loader, node, path, problems, file)


def _scalar(
    loader: yaml.SafeLoader | yaml.CSafeLoader,
    node: yaml.Node,
    path: KeyPath,
    problems: list[Problem],
    file: str,
) -> Any:
    """A scalar's value; one PyYAML cannot construct (a number of over 4,300 digits, the date
    2024-13-45) is a problem, not a crash."""
    try:
        if node.tag == _STR:  # PyYAML's construct_yaml_str: the scalar's text
            return node.value
        return loader.construct_object(node, deep=True)
    except _UNREADABLE as exc:
        problems.append(_unreadable(node, exc, path, file))
        return None


# What PyYAML's constructors raise on a value its tag does not fit: a ValueError for most, but
# an empty ``!!int`` or ``!!float`` indexes past its end, ``!!bool x`` looks ``x`` up, and
# ``!!timestamp x`` reads a match that is not there.
_UNREADABLE = (ValueError, LookupError, AttributeError, TypeError)


def _unreadable(node: yaml.Node, exc: Exception, path: KeyPath, file: str) -> Problem:
    text = str(node.value)
    shown = repr(text) if len(text) <= 40 else f"{text[:20]!r}... ({len(text):,} characters)"
    if isinstance(exc, ValueError):
        reason = str(exc).split(":")[0][:80]
    else:
        reason = f"not a valid {str(node.tag).rsplit(':', 1)[-1][:40]}"
    return Problem(
        file, node.start_mark.line + 1, format_path(path), f"cannot read the value {shown}: {reason}"
    )
