"""``kitgen solve``: the JSON the issue asks for, Example 1, and one-line errors."""

from __future__ import annotations

import itertools
import json

import pytest
from click.testing import CliRunner

from kitgen.cli.main import main

EXAMPLE_1 = "1/3,2/2,2/3,2/3,2/4,3/2,3/4,4/1,4/3"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def _is_chain(sequence: list[str], cards: str) -> bool:
    pairs = [tuple(int(x) for x in c.split("/")) for c in sequence]
    given = [tuple(int(x) for x in c.split("/")) for c in cards.split(",")]
    return sorted(pairs) == sorted(given) and all(
        a[0] == b[0] or a[1] == b[1] for a, b in itertools.pairwise(pairs)
    )


@pytest.mark.parametrize("method", ["auto", "search", "dp", "cards"])
def test_solitaire_json_solves_example_1(method: str) -> None:
    code, out = run("solve", "solitaire", "--cards", EXAMPLE_1, "--method", method, "--json")
    assert code == 0
    data = json.loads(out)
    assert {"playable", "sequence", "method", "seconds"} <= set(data)
    assert data["playable"] is True and data["method"] == (method if method != "auto" else "search")
    assert _is_chain(data["sequence"], EXAMPLE_1)


def test_solitaire_text_says_why_not() -> None:
    code, out = run("solve", "solitaire", "--cards", "1/1,1/2,2/3")
    assert code == 0
    assert "NOT playable" in out and "why: the cards fall into 2 groups" in out


def test_cooperative_json() -> None:
    code, out = run("solve", "cooperative", "--hand1", "1/1,2/2", "--hand2", "1/2,3/3", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["player1_can_win"] is True
    assert [m["player"] for m in data["sequence"]] == [1, 2, 1]
    assert [m["card"] for m in data["sequence"]] == ["1/1", "1/2", "2/2"]


def test_cooperative_records_a_skip_as_null() -> None:
    # Player 2 cannot follow 5/5 and skips; player 1 goes on.
    _code, out = run("solve", "cooperative", "--hand1", "5/5,5/6", "--hand2", "1/1", "--json")
    data = json.loads(out)
    assert data["player1_can_win"] is True
    assert data["sequence"] == [
        {"player": 1, "card": "5/5"},
        {"player": 2, "card": None},
        {"player": 1, "card": "5/6"},
    ]


@pytest.mark.parametrize("method", ["matching", "search"])
def test_uncooperative_json(method: str) -> None:
    code, out = run(
        "solve", "uncooperative", "--hand1", "1/1,5/5", "--hand2", "1/2", "--method", method, "--json"
    )
    assert code == 0
    data = json.loads(out)
    assert data["loser"] == 2 and data["first_card"] == "5/5" and data["method"] == method
    code, out = run("solve", "uncooperative", "--hand1", "1/1", "--hand2", "1/2", "--json")
    data = json.loads(out)
    assert data["loser"] == 1 and data["first_card"] is None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["solitaire", "--cards", "1/x"], "'1/x' is not a card"),
        (["solitaire", "--cards", ""], "--cards is empty"),
        (["solitaire", "--cards", "1/1,"], "card 2 is empty"),
        (["cooperative", "--hand1", "1/1", "--hand2", "2"], "--hand2: card 1: '2' is not a card"),
        (["uncooperative", "--hand1", "", "--hand2", "1/1"], "--hand1 is empty"),
        (["solitaire", "--cards", ",".join(f"{i}/{i}" for i in range(10)), "--method", "dp"], "at most 8"),
    ],
)
def test_bad_input_exits_2_in_one_line(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["solve", *args])
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1
