"""Hostile YAML against both composers (w48-attack1): the C path gives PyYAML's data, lines and
problems exactly or leaves the text to it, at the limits too; a bad file is one line naming
file and line through the command line."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from kitgen.cli.main import main
from reference_engine import source
from reference_engine.errors import SpecError
from reference_engine.source import MAX_DEPTH, MAX_NODES, load_text


def _outcome(parse: object) -> object:
    try:
        got = parse()  # type: ignore[operator]
    except SpecError as exc:
        return [(p.file, p.line, p.path, p.message) for p in exc.problems]
    return repr(got.data), sorted(got.lines.items(), key=repr)


def _c_or_none(text: str) -> object:
    c_loader = source._c_loader()
    assert c_loader is not None
    if source._py_only(text):
        return None
    try:
        return _outcome(lambda: source._parse_c(c_loader, text, "f.yaml"))
    except source._NotFast:
        return None


LAUGHS = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{c}: &{c} [{', '.join([f'*{p}'] * 10)}]\n" for p, c in zip("abcdefgh", "bcdefghi")
)

HOSTILE = [
    *(k * n + ": 1\n" for n in (1023, 1024, 1025) for k in ("a", "é", "日")),  # simple keys' limit
    *("{" + "é" * n + ": 1}\n" for n in (1023, 1024, 1025)),
    *("[" * d + "]" * d for d in (MAX_DEPTH, MAX_DEPTH + 1)),
    *("".join("  " * i + "k:\n" for i in range(d)) + "  " * d + "v\n" for d in (MAX_DEPTH - 1, MAX_DEPTH)),
    LAUGHS,
    "base: &b {x: 1, y: 2}\nm:\n  <<: *b\n  y: 3\n",
    "m:\n  <<: {x: 1}\n  x: 2\n",
    "m:\n  x: 2\n  <<: [{x: 1, z: 3}, {z: 4}]\n",
    "m: {<<: 1}\n",
    "0x1f: a\n0o17: b\n0b11: c\n017: d\n1_000: e\n1:20: f\n.inf: g\n",
    "a: [yes, on, Off, ~, null, 2024-01-01, 2001-12-14t21:59:43.10-05:00, 1e3, .NaN]\n",
    "a: " + "9" * 4301 + "\n",  # past Python's digits limit
    "a: 2024-13-45\n",
    'a: "\\ud800"\nb: "\\x00\\/\\N\\L\\P\\_"\n',
    'a: "\\U00110000"\n',
    "a: b\rc: d\r",
    "a: |\r  x\r  y\rb: 1\r",
    "a: 1\n---\nb: 2\n",
    "%YAML 1.2\n---\na: 1\n",
    "%YAML 1.3\n---\na: 1\n",
    "a: [1,\n2]\n",
    "a: x\n  y\n  z\n",
    "- a: 1\n  - b\n",
    "[a]: 1\n{b: 1}: 2\n1.5: 3\n2024-01-01: 4\nnull: 5\n",
    "true: a\n'true': b\n",
]


@pytest.mark.parametrize("text", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_text_the_c_path_gives_pyyamls_answer(text: str) -> None:
    python = _outcome(lambda: source._parse_py(text, "f.yaml"))
    c = _c_or_none(text)
    assert c is None or c == python
    assert _outcome(lambda: load_text(text, "f.yaml")) == python


# A list of n values at the values' limit and one past it. The fast tier lowers the limit (source
# reads MAX_NODES when it counts, so the code path is the real limit's); the texts at the real
# limit (each ~12 s of CPU in PyYAML's pure-Python composer) are the slow tier's.
VALUES_LIMIT = [
    *((1000, n) for n in (1000, 1001)),
    *(pytest.param(MAX_NODES, n, marks=pytest.mark.slow) for n in (MAX_NODES, MAX_NODES + 1)),
]


@pytest.mark.parametrize(("limit", "n"), VALUES_LIMIT)
def test_a_list_at_the_values_limit_the_c_path_gives_pyyamls_answer(
    limit: int, n: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(source, "MAX_NODES", limit)
    text = "[" + ",".join(["1"] * (n - 1)) + "]"
    python = _outcome(lambda: source._parse_py(text, "f.yaml"))
    c = _c_or_none(text)
    assert isinstance(python, list) == (n > limit)  # refused (its problems) only past the limit
    assert (c is None) == (n > limit)  # the C path reads the text the limit allows
    assert c is None or c == python
    assert _outcome(lambda: load_text(text, "f.yaml")) == python


def test_an_escape_past_the_last_character_is_one_problem() -> None:
    """PyYAML's scanner ends in chr(0x110000): a ValueError, not a YAMLError (main too)."""
    with pytest.raises(SpecError) as info:
        load_text('protocol: x\ntitle: "\\U00110000"\n', "f.yaml")
    (p,) = info.value.problems
    assert (p.file, p.line) == ("f.yaml", 2) and "names no character" in p.message


BAD_FILES = [
    b'protocol: x\ntitle: "\\U00110000"\n',
    b"protocol: x\ntitle: [is it?]\n",
    b"protocol: x\n\ttitle: t\n",
    b"protocol: x\r\ntitle: !!int ''\r\n",
    b"protocol: x\ntitle: !!python/object:os.system x\n",
    b"protocol: x\ntitle: t\ntitle: u\n",
    b"protocol: x\ntitle: t\n---\nb: 2\n",
    b"protocol: x\ntitle: \xff\n",
    b"protocol: x\ntitle: t\x00\n",
    b"protocol: x\ntitle: a\xc2\x85b: c\n",
    b"protocol: x\ntitle: " + b"[" * 200 + b"]" * 200 + b"\n",
    b"protocol: x\n" + LAUGHS.encode(),
    b"protocol: x\ntitle: 2024-13-45\n",
]


@pytest.mark.parametrize("raw", BAD_FILES, ids=range(len(BAD_FILES)))
def test_a_bad_file_exits_2_naming_file_and_line(tmp_path: Path, raw: bytes) -> None:
    bad = tmp_path / "x.yaml"
    bad.write_bytes(raw)
    for _ in range(2):  # and again in the same process: failures are not kept
        result = CliRunner().invoke(main, ["verify", str(bad)])
        assert result.exit_code == 2, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
        assert "Traceback" not in result.output
        assert f"{bad}:" in result.output
