"""The record document: its schema, its text (one event per line, the same bytes for the same
game), and reading it back with located errors."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import jsonschema
import pytest

from reference_engine.errors import RecordError
from reference_engine.records.document import dumps, loads, locate

from .conftest import SCHEMA

Recorded = Callable[..., dict[str, Any]]


def test_the_schema_is_a_valid_json_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["properties"]["version"] == {"const": 1}


def test_the_text_has_one_event_per_line_and_reads_back(recorded: Recorded) -> None:
    record = recorded("dominoes", "card")
    text = dumps(record)
    assert loads(text) == record
    lines = text.splitlines()
    for event in record["events"]:
        assert (
            lines[locate(text, ["events", event["n"] - 1]) - 1].lstrip().startswith('{"n":' + str(event["n"]))
        )
    assert text == dumps(json.loads(text))  # the same bytes again


DOC = '{\n "a": [1, {"b": "x,]}"},\n  [2, {"c": {\n "d": null}}]],\n "e": {"f": "g"}\n}\n'


@pytest.mark.parametrize(
    ("path", "line"),
    [
        ([], 1),
        (["a"], 2),
        (["a", 1, "b"], 2),
        (["a", 2, 1, "c", "d"], 4),
        (["e", "f"], 5),
        (["e", "zz"], 5),
        (["nope"], 1),
    ],
)
def test_locate_finds_the_line_of_a_key_path(path: list[Any], line: int) -> None:
    assert locate(DOC, path) == line


def test_a_record_breaking_the_schema_lists_its_problems_in_file_order(recorded: Recorded) -> None:
    record = recorded("sevens", "rule")
    record["seats"][0]["virtual"] = "no"
    record["events"][4]["public"]["action"] = "discard"
    del record["events"][7]["hidden"]
    with pytest.raises(RecordError) as info:
        loads(dumps(record), "game.json")
    message = info.value.format_message()
    assert "3 problems found:" in message and info.value.exit_code == 2
    found = [line.strip() for line in message.splitlines()[1:]]
    assert found[0].endswith("seats[0].virtual: 'no' is not of type 'boolean'")
    assert "events[4].public.action: 'discard' is not one of" in found[1]
    assert "events[7]: 'hidden' is a required property" in found[2]
    record["events"][2]["runs"] = [{"protocol": "x"}]  # five required keys missing
    text = dumps(record)
    with pytest.raises(RecordError) as info:
        loads(text, "game.json")
    message = info.value.format_message()
    assert "8 problems found (the first 5)" in message
    found = [line.strip() for line in message.splitlines()[1:]]
    lines = [int(f.split(":")[1]) for f in found]
    assert lines == sorted(lines) and len(found) == 5
    at = locate(text, ["events", 2, "runs", 0])
    assert [f.startswith(f"game.json:{at}: events[2].runs[0]: ") for f in found[1:]] == [True] * 4


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not JSON"),
        ('{"format": "kitgen game record", "version": 7}', "version 7"),
        ('{"format": "kitgen game record", "version": 1}', "'generator' is a required property"),
        ('"kitgen"', "a JSON object, not str"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ],
)
def test_unreadable_records(text: str, message: str) -> None:
    with pytest.raises(RecordError) as info:
        loads(text, "x.json")
    assert message in info.value.format_message()
