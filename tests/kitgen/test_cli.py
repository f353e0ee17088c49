"""The command line: thin commands, clear errors, documented options."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kitgen.cli import main
from reference_engine.registry import Library, rulesets_dir
from reference_engine.steps import walk


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def test_list_shows_every_protocol() -> None:
    code, out = run("list")
    assert code == 0
    for name in Library().names():
        assert name in out
    assert "INVALID" not in out


def test_verify_json_six_card_and() -> None:
    code, out = run("verify", "six-card-and", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["protocol"] == "six-card-and" and data["method"] == "exact"
    assert data["correct"] is True and data["secure"] is True
    assert data["resources"]["cards"] == 6 and data["resources"]["shuffles"] == 1
    assert set(data) >= {"protocol", "params", "method", "correct", "secure", "resources", "expect"}
    assert all(e["match"] for e in data["expect"])


@pytest.mark.parametrize("name", ["covert-lottery", "covert-lottery-modified"])
def test_verify_lotteries_with_m5(name: str) -> None:
    code, out = run("verify", name, "--param", "m=5")
    assert code == 0, out
    assert out.rstrip().endswith("VERIFIED")
    assert "ok   correct" in out and "ok   secure" in out


def test_verify_human_output_has_one_line_per_check() -> None:
    code, out = run("verify", "five-card-trick")
    lines = [line for line in out.splitlines() if line.startswith("  ok") or line.startswith("  FAIL")]
    assert code == 0
    assert [line.split()[1] for line in lines] == ["correct", "secure", "tidy", "expect", "expect"]


def test_failed_verification_exits_1(tmp_path: Path) -> None:
    text = (rulesets_dir() / "protocols" / "six-card-and.yaml").read_text()
    broken = tmp_path / "six-card-and.yaml"
    broken.write_text(text.replace('"bit(0)"', '"bit(1)"'))
    code, out = run("verify", str(broken))
    assert code == 1
    assert "FAIL correct" in out and "NOT VERIFIED" in out


def test_spec_errors_exit_2_without_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("protocol: bad\ntitle: t\nsteps:\n  - step: 1\n    say: x\n    shufle: {}\n")
    result = CliRunner().invoke(main, ["verify", str(bad)])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert f"{bad}:6: steps[0].shufle: unknown key 'shufle'" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["verify", "no-such"], "unknown protocol 'no-such'"),
        (["verify", "covert-lottery", "--param", "m=x"], "not a whole number"),
        (["verify", "covert-lottery", "--param", "q=3"], "no parameter 'q'"),
        (["verify", "covert-lottery", "--param", "m=0"], "at least 1"),
        (["simulate", "six-card-and", "--input", "x=1"], "give --input y="),
        (["simulate", "six-card-and", "--input", "x=2", "--input", "y=0"], "'2' is not one of 0, 1"),
        (["simulate", "covert-lottery", "--input", "x=1,0"], "needs 3 comma-separated values"),
        (["simulate", "card-selection", "--deck", "nope"], "has no scenario 'nope'"),
        (["simulate", "card-selection", "--input", "cards=red1,blue9,red5"], "needs 5 cards"),
        (["simulate", "card-selection", "--input", "cards=red1,red2,red3,red4,joker"], "not a card"),
    ],
)
def test_usage_errors(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output


def test_simulate_prints_the_spec_steps_in_order() -> None:
    code, out = run("simulate", "six-card-and", "--input", "x=1", "--input", "y=0", "--seed", "4")
    assert code == 0
    proto = Library().protocol("six-card-and")
    positions = [out.index(f"Step {s.number}. ") for s in walk(proto.steps) if s.number]
    assert positions == sorted(positions)
    assert "and = 0" in out and "nand = 0" in out
    assert "?" in out  # face-down cards


def test_simulate_json_is_one_object_and_reproducible() -> None:
    args = (
        "simulate",
        "covert-lottery-modified",
        "--param",
        "m=4",
        "--input",
        "x=0,1,1,0",
        "--seed",
        "7",
        "--json",
    )
    code, out = run(*args)
    assert code == 0
    data = json.loads(out)
    assert data["outputs"]["selected"] in ("c2", "c3")
    assert data["events"][0]["step"] == "1"
    assert run(*args)[1] == out


def test_simulate_a_game_protocol_in_a_scenario() -> None:
    """The table is dealt from the scenario's deck with the seed; the played card is valid."""
    code, out = run("simulate", "card-selection", "--seed", "5", "--json")
    assert code == 0, out
    data = json.loads(out)
    deal = data["inputs"]["cards"]
    assert sorted(deal) == sorted(["red1", "green2", "blue7", "yellow5", "wild"])
    hand = deal[:2]  # sizes 2, 1, 2: P_1's cards come first
    valid = {"red1", "yellow5", "wild"} & set(hand)  # on red 5 (the mini scenario)
    assert data["outputs"]["found"] is bool(valid)
    assert data["outputs"]["played"] in (valid or {None})
    assert run("simulate", "card-selection", "--seed", "5", "--json")[1] == out
    given = "cards=green2,blue7,red1,yellow5,wild"
    code, out = run("simulate", "card-selection", "--input", given, "--seed", "5", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["outputs"]["found"] is False and data["outputs"]["played"] is None
    assert sorted(data["outputs"]["hands"][0]) == ["blue7", "green2"]


def test_pause_waits_for_enter() -> None:
    code, out = run(
        "simulate", "five-card-trick", "--input", "a=1", "--input", "b=1", "--pause", input="\n" * 10
    )
    assert code == 0
    assert out.count("Press Enter") == 4
    assert "and = 1" in out


def test_verify_help_explains_the_checks() -> None:
    code, out = run("verify", "--help")
    assert code == 0
    for word in ("correct", "secure", "tidy", "expect", "every possible secret input"):
        assert word in out


def test_play_card_level_json() -> None:
    args = ("play", "uno", "--players", "4", "--virtual", "2", "--seed", "1", "--level", "card", "--json")
    code, out = run(*args)
    assert code == 0
    data = json.loads(out)
    for key in ("winner", "turns", "protocol_runs", "checks_passed", "shuffles", "max_helper_cards"):
        assert key in data
    assert data["all_checks_passed"] and data["protocol_runs"] > 0
    assert run(*args)[1] == out  # the same seed gives the same game


def test_play_human_log() -> None:
    code, out = run("play", "uno", "--virtual", "1", "--seed", "3")
    assert code == 0
    assert "Virtual 1: plays" in out and "checks passed" in out and "wins the hand" in out


def test_play_official_with_virtual_players_explains_the_options() -> None:
    result = CliRunner().invoke(main, ["play", "uno-official", "--virtual", "1"])
    assert result.exit_code == 2
    assert "--wild4 bluff" in result.output and "Traceback" not in result.output


def test_play_a_broken_protocol_exits_1(tmp_path: Path) -> None:
    text = (rulesets_dir() / "protocols" / "card-selection.yaml").read_text()
    broken = tmp_path / "card-selection.yaml"
    broken.write_text(
        text.replace("bit(1) if valid(M[1, j]) else bit(0)", "bit(0) if valid(M[1, j]) else bit(1)")
    )
    result = CliRunner().invoke(main, ["play", "uno", "--virtual", "2", "--protocol", str(broken)])
    assert result.exit_code == 1
    assert "Error (play): turn" in result.output


def test_verify_card_selection_mini_json() -> None:
    code, out = run("verify", "card-selection", "--deck", "mini", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["method"] == "exact" and data["correct"] and data["secure"]
    assert data["scenario"]["name"] == "mini"


def test_verify_runs_is_statistical() -> None:
    code, out = run("verify", "card-selection-v2", "--runs", "40", "--seed", "3", "--json")
    data = json.loads(out)
    assert data["method"] == "statistical"
    assert code == (0 if data["verified"] else 1)
    assert any("tests" in c for c in data["checks"])


def test_build_json_and_human(tmp_path: Path) -> None:
    code, out = run("build", "uno", "--virtual", "0", "--no-previews", "-o", str(tmp_path / "k"), "--json")
    assert code == 0
    manifest = json.loads(out)
    assert manifest["kit"] == "uno-4p0v-a4" and (tmp_path / "k" / "cards.pdf").is_file()
    code, out = run("build", "uno", "--virtual", "0", "--no-previews", "-o", str(tmp_path / "k"))
    assert code == 0 and "cards.pdf" in out and "Bill of materials" in out and "100 mm" in out


def test_build_bad_options_exit_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["build", "--card-size", "tiny", "-o", str(tmp_path / "k")])
    assert result.exit_code == 2 and "unknown card size 'tiny'" in result.output
    result = CliRunner().invoke(main, ["build", "--back-offset", "1mm", "-o", str(tmp_path / "k")])
    assert result.exit_code == 2 and "--back-offset takes X,Y" in result.output
