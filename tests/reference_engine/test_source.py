"""YAML is loaded safely and every value keeps its line for error messages."""

from __future__ import annotations

import pytest

from reference_engine.errors import SpecError
from reference_engine.source import format_path, load_text


def test_lines_of_nested_keys() -> None:
    src = load_text("a:\n  b:\n    - x\n    - {c: 1}\n", "f.yaml")
    assert src.line(("a",)) == 1
    assert src.line(("a", "b", 1, "c")) == 4
    assert src.line(("a", "missing")) == 1  # nearest known ancestor


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
