"""YAML is loaded safely and every value keeps its line for error messages."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from reference_engine import files, source
from reference_engine.errors import Problem, SpecError
from reference_engine.source import MAX_ALIASES, MAX_DEPTH, MAX_NODES, format_path, load_file, load_text


def test_lines_of_nested_keys() -> None:
    src = load_text("a:\n  b:\n    - x\n    - {c: 1}\n", "f.yaml")
    assert src.line(("a",)) == 1
    assert src.line(("a", "b", 1, "c")) == 4
    assert src.line(("a", "missing")) == 1  # nearest known ancestor


def test_every_value_has_its_line_in_both_composers() -> None:
    """A text value takes its key's line in a mapping, its own in a list, as any other value
    does (_build makes the texts inline): the whole table, from the C path and PyYAML's."""
    text = "a: x\nb:\n  - y\n  - 2\n  -\n    z\n  - {c: w, d: 3}\ne:\n  'q'\nf: [v, 4]\n"
    want = {
        (): 1, ("a",): 1, ("b",): 2, ("b", 0): 3, ("b", 1): 4, ("b", 2): 6, ("b", 3): 7,
        ("b", 3, "c"): 7, ("b", 3, "d"): 7, ("e",): 8, ("f",): 10, ("f", 0): 10, ("f", 1): 10,
    }  # fmt: skip
    data = {"a": "x", "b": ["y", 2, "z", {"c": "w", "d": 3}], "e": "q", "f": ["v", 4]}
    c_loader = source._c_loader()
    assert c_loader is not None and not source._py_only(text)
    for src in (source._parse_c(c_loader, text, "f.yaml"), source._parse_py(text, "f.yaml")):
        assert src.data == data and src.lines == want and list(src.lines) == list(want)


def test_duplicate_keys_are_problems() -> None:
    with pytest.raises(SpecError) as info:
        load_text("a: 1\nb: 2\na: 3\n", "f.yaml")
    (p,) = info.value.problems
    assert (p.line, p.path) == (3, "a")
    assert "duplicate key" in p.message


def test_syntax_error_names_file_and_line() -> None:
    with pytest.raises(SpecError) as info:
        load_text("a: 1\n  b: [\n", "broken.yaml")
    (p,) = info.value.problems
    assert p.file == "broken.yaml" and p.line == 2


def test_unsafe_tags_are_refused() -> None:
    with pytest.raises(SpecError):
        load_text("a: !!python/object/apply:os.system ['echo hi']\n", "evil.yaml")


def test_paths_read_like_keys() -> None:
    assert format_path(("steps", 3, "shuffle", "piles")) == "steps[3].shuffle.piles"
    assert format_path(("encodings", "bit", "values", "1")) == "encodings.bit.values.1"


# --------------------------------------------------------------------------- bounded loading


def refused(text: str) -> Problem:
    with pytest.raises(SpecError) as info:
        load_text(text, "f.yaml")
    (p,) = info.value.problems
    assert p.file == "f.yaml"
    return p


def test_billion_laughs_is_refused_before_it_expands() -> None:
    levels = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, 9):  # 10**9 values once expanded
        levels.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    p = refused("\n".join(levels) + "\n")
    assert f"more than the limit of {MAX_NODES:,}" in p.message
    # The first anchor whose expansion is too big, with its line and key.
    assert (p.line, p.path) == (5, "a4")  # 111,111 values


def test_merge_keys_cannot_double_their_way_past_the_limit() -> None:
    lines = ["a0: &a0 {k: 1}"] + [f"a{i}: &a{i} {{<<: [*a{i - 1}, *a{i - 1}]}}" for i in range(1, 40)]
    assert "more than the limit" in refused("\n".join(lines) + "\n").message


def test_alias_uses_are_counted() -> None:
    p = refused("a: &a x\nb: [" + ", ".join(["*a"] * (MAX_ALIASES + 1)) + "]\n")
    assert f"more than {MAX_ALIASES:,} uses of aliases" in p.message and p.line == 2


def test_a_few_aliases_still_work() -> None:
    src = load_text("a: &a [1, 2]\nb: [*a, *a]\nc: &c {x: 1}\nd: {<<: *c, y: 2}\n", "f.yaml")
    assert src.data["b"] == [[1, 2], [1, 2]] and src.data["d"] == {"x": 1, "y": 2}
    assert src.line(("b", 1, 0)) == 1  # an expanded alias keeps the line of its anchor


def test_an_alias_inside_its_own_anchor_is_refused() -> None:
    p = refused("a: &a [1, *a]\n")
    assert "refers to a list or mapping that contains it" in p.message and p.path == "a[1]"


@pytest.mark.parametrize(
    "text",
    [
        "a: " + "[" * 5000 + "]" * 5000 + "\n",
        "a: " + "{k: " * 5000 + "1" + "}" * 5000 + "\n",
        "".join("  " * i + f"k{i}:\n" for i in range(300)) + "  " * 300 + "x\n",
        "- " * 3000 + "x\n",
    ],
    ids=["flow-lists", "flow-mappings", "block-mappings", "block-lists"],
)
def test_deep_nesting_is_refused_with_line_and_key(text: str) -> None:
    p = refused(text)
    assert f"nested more than {MAX_DEPTH} levels deep" in p.message
    assert p.line is not None and p.path  # where it happened, in one line
    assert "\n" not in str(p) and len(str(p)) < 200


def test_nesting_up_to_the_limit_is_fine() -> None:
    src = load_text("a: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n", "f.yaml")
    assert isinstance(src.data["a"], list)


def test_aliases_cannot_nest_past_the_limit() -> None:
    lines = [f"l{i}: &l{i} " + "[" * 60 + (f"*l{i - 1}" if i else "1") + "]" * 60 for i in range(3)]
    p = refused("\n".join(lines) + "\n")
    assert "once aliases are expanded" in p.message and p.path.startswith("l1")


def test_too_many_values_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(source, "MAX_NODES", 1000)  # the same code path as 100,000, faster
    p = refused("a: [" + ", ".join(["1"] * 1010) + "]\n")
    assert "more than 1,000 values" in p.message and p.path == "a[997]"  # the 1,001st value


def test_a_folder_is_not_a_spec(tmp_path: Path) -> None:
    with pytest.raises(SpecError) as info:
        load_file(tmp_path)
    assert "is a folder, not a spec file" in str(info.value)


@pytest.mark.parametrize(
    ("content", "message", "line"),
    [
        (b"", "file is empty", None),
        (b"  \n\n", "file is empty", None),
        (b"a: 1\nb: \xff\xfe\n", "file is not UTF-8 text", 2),
        (b"a: 1\n\x00\x01\x02", "file is binary, not YAML text", 2),
    ],
)
def test_empty_binary_and_non_utf8_files(
    tmp_path: Path, content: bytes, message: str, line: int | None
) -> None:
    f = tmp_path / "x.yaml"
    f.write_bytes(content)
    with pytest.raises(SpecError) as info:
        load_file(f)
    (p,) = info.value.problems
    assert message in p.message and p.line == line


def test_an_unreadable_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    f = tmp_path / "x.yaml"
    f.write_text("a: 1\n")

    def denied(path: Path, *args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(files, "open_regular", denied)  # chmod 000 would not stop root
    with pytest.raises(SpecError) as info:
        load_file(f)
    assert "cannot read file: Permission denied" in str(info.value)


def test_a_huge_file_is_refused_unread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(source, "MAX_FILE_BYTES", 100)
    f = tmp_path / "x.yaml"
    f.write_text("a: " + "x" * 200 + "\n")
    with pytest.raises(SpecError) as info:
        load_file(f)
    assert "file is larger than 100 bytes" in str(info.value)


def test_windows_line_endings_read_as_before(tmp_path: Path) -> None:
    f = tmp_path / "x.yaml"
    f.write_bytes(b"a: 1\r\nb:\r\n  - 2\r\n")
    src = load_file(f)
    assert src.data == {"a": 1, "b": [2]} and src.line(("b", 0)) == 3 and "\r" not in src.text


# --------------------------------------------------------------------------- libyaml's composer
# A document is composed by libyaml's C composer where it loads without error and by PyYAML's
# pure-Python composer otherwise: the C one must give exactly what the Python one gives, or
# leave the text to it.

ROOT = Path(__file__).resolve().parents[2]


def _both(text: str) -> tuple[object, object]:
    """What the pure-Python composer and the C path make of ``text``: (data, lines) or the
    problems; the C path's None where it leaves the text to the Python one."""

    def outcome(parse: Callable[[], source.Source]) -> object:
        try:
            got = parse()
        except SpecError as exc:
            return exc.problems
        return repr(got.data), got.lines

    c_loader = source._c_loader()
    assert c_loader is not None  # PyYAML's wheels bundle libyaml
    python = outcome(lambda: source._parse_py(text, "f.yaml"))
    if source._py_only(text):
        return python, None
    try:
        return python, outcome(lambda: source._parse_c(c_loader, text, "f.yaml"))
    except source._NotFast:
        return python, None


def _shipped() -> list[Path]:
    out = [p for d in ("rulesets", "templates", "tests") for p in sorted((ROOT / d).rglob("*.y*ml"))]
    assert len(out) > 100
    return out


def test_every_shipped_file_composes_the_same_in_c() -> None:
    fast = 0
    for path in _shipped():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        python, c = _both(text)
        assert c is None or c == python, path
        fast += c is not None
    assert fast >= 100  # the C path is the one taken: only bad specs are left to PyYAML


def test_a_shipped_spec_never_reaches_the_python_composer(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(text: str, file: str) -> source.Source:
        raise AssertionError("composed by PyYAML")

    monkeypatch.setattr(source, "_parse_py", refuse)
    monkeypatch.setattr(source, "_PARSED", {})
    src = load_file(ROOT / "rulesets" / "protocols" / "card-selection-arrow.yaml")
    assert src.data["protocol"] == "card-selection-arrow" and src.line(("steps",)) is not None


@pytest.mark.parametrize(
    "text",
    [
        "a: [is it?]\n",  # PyYAML ends a plain value at '?' inside [...] and refuses it
        "a: {b: why?}\n",
        "a: b\tc\n- x\n",  # a tab inside a plain value
        "a: x\ufeffy\n",  # a byte-order mark inside the text
        "a: |#\n  x\n",  # a comment right after a block scalar's indicator
        "a: !=!!int 1\n",  # a tag PyYAML cannot read
        "a: x\x85b: y\n",  # a line break PyYAML and libyaml count differently
        "---\n ",  # an empty document: the lines of empty values differ
        "- \n- x\n",  # an empty item of a list
        "? \n: 1\n",  # an empty key
        "a: &x\nb: [*x]\n",  # an empty value met again through an alias
    ],
)
def test_where_the_composers_disagree_pyyaml_decides(text: str) -> None:
    assert _both(text)[1] is None  # left to PyYAML
    try:
        expected: object = (repr(source._parse_py(text, "f.yaml").data), None)
    except SpecError as exc:
        expected = exc.problems
    try:
        got: object = (repr(load_text(text, "f.yaml").data), None)
    except SpecError as exc:
        got = exc.problems
    assert got == expected


@pytest.mark.parametrize("seed", [1, 2])
def test_hostile_text_composes_the_same_in_c(seed: int) -> None:
    """Random texts from YAML's own punctuation: wherever the C path answers (it answers for
    about a fifth of them: the rest hold a ``?`` and a ``[``, or are not YAML), it gives
    PyYAML's data, lines or problems exactly."""
    alphabet = [
        "k: ", "a", "b1", "\n", "\n  ", "\n    ", "- ", "-", "[", "]", ",", ", ", "{", "}", ": ",
        ":", "'", '"', "#", " #c", "|", ">", "|-", ">+", " ", "&a ", "*a", "<<: ", "%", "@", "`",
        "---", "...", "\\n", "0o7", "0b1", "1_000", "+1", "-.5", "=", "<<", "1:2", "null", "true",
        "\r\n", "\r", "L[2, *]", "x.y", "==", "!=", "? ", "?", "~", "yes", "2024-01-01", ".inf",
        "é", "0x1", "1e3",
    ]  # fmt: skip
    rng = random.Random(seed)
    answered = 0
    for _ in range(2_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 40)))
        python, c = _both(text)
        if c is not None:
            answered += 1
            assert c == python, repr(text)
    assert answered > 300


def test_without_libyaml_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    path = ROOT / "rulesets" / "protocols" / "card-selection-arrow.yaml"
    fast = load_file(path)
    monkeypatch.setattr(source, "_c_loader", lambda: None)
    monkeypatch.setattr(source, "_PARSED", {})
    slow = load_file(path)
    assert repr(slow.data) == repr(fast.data) and slow.lines == fast.lines


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a: !!int \n", "a: cannot read the value '': not a valid int"),
        ("a: !!float \n", "a: cannot read the value '': not a valid float"),
        ("a: !!bool x\n", "a: cannot read the value 'x': not a valid bool"),
        ("a: !!timestamp x\n", "a: cannot read the value 'x': not a valid timestamp"),
        ("!!bool x: 1\n", "cannot read the value 'x': not a valid bool"),
    ],
)
def test_a_value_its_tag_does_not_fit_is_one_line(text: str, message: str) -> None:
    """PyYAML's constructors raise IndexError, KeyError, AttributeError on these: one problem
    naming file, line and key, not a traceback."""
    p = refused(text)
    assert p.line == 1 and f"{p.path}: {p.message}".lstrip(": ") == message


def test_the_py_only_test_is_its_pattern() -> None:
    """``_py_only`` asks :data:`source._PY_ONLY` piece by piece (for speed): the same answer as
    one search of the pattern, on texts made of what the pattern looks for."""
    pieces = [*"ab #|>-+09!=?[{:\t\n", "\ufeff", "\x85", "\u2028", "\u2029", "|-", ">+2#", "!=", "|#"]
    rng = random.Random(11)
    texts = ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 10))) for _ in range(20_000)]
    texts += [path.read_text(encoding="utf-8", errors="replace") for path in _shipped()]
    for text in texts:
        want = source._PY_ONLY.search(text) is not None or ("?" in text and ("[" in text or "{" in text))
        assert source._py_only(text) is want, repr(text)
