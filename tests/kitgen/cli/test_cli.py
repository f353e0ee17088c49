"""The command line: thin commands, clear errors, documented options."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kitgen.cli.main import main
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
        (["verify", "covert-lottery", "--workers", "0"], "0 is not in the range"),
        (["verify", "covert-lottery", "--workers", "2", "--scheduler", "tcp://x:1"], "do not go together"),
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


def test_verify_with_workers_prints_the_same_verdicts() -> None:
    """--workers splits the inputs over processes; the checks read the same."""
    code1, one = run("verify", "covert-lottery-modified", "--param", "m=4", "--workers", "1", "--json")
    code2, two = run("verify", "covert-lottery-modified", "--param", "m=4", "--workers", "2", "--json")
    assert code1 == code2 == 0
    a, b = json.loads(one), json.loads(two)
    assert a["checks"] == b["checks"] and a["resources"] == b["resources"]
    assert b["stats"]["workers"] == 2 and "workers" not in a["stats"]
    code, text = run("verify", "covert-lottery-modified", "--param", "m=4", "--workers", "2")
    assert code == 0 and "in 2 workers (state counts added up over the workers)" in text


def test_an_unreachable_scheduler_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed")
    monkeypatch.setattr("reference_engine.verify.cluster.CONNECT_SECONDS", 1.0)
    result = CliRunner().invoke(main, ["verify", "covert-lottery", "--scheduler", "tcp://127.0.0.1:9"])
    assert result.exit_code == 2, result.output
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in result.output
    assert "Traceback" not in result.output


def test_verify_estimate_forecasts_without_verifying() -> None:
    code, out = run("verify", "covert-lottery-modified", "--param", "m=6", "--estimate")
    assert code == 0 and "work forecast for m=6, from exact verifications at m=2, m=3, m=4, m=5" in out
    assert "(forecast)" in out and "VERIFIED" not in out
    code, out = run("verify", "covert-lottery-modified", "--param", "m=5", "--estimate", "--json")
    data = json.loads(out)
    assert code == 0 and data["target"] == 5 and [m["value"] for m in data["measured"]] == [1, 2, 3, 4]
    code, out = run("verify", "covert-lottery-modified", "--param", "m=1000000", "--estimate")
    assert code == 2 and "limit 200 for verify" in out


def test_verify_help_explains_the_checks() -> None:
    code, out = run("verify", "--help")
    assert code == 0
    for word in ("correct", "secure", "tidy", "expect", "every possible secret input"):
        assert word in out


def test_verify_help_puts_the_table_right_after_and_checks() -> None:
    """The checks' table follows "and checks:" at once; --deck's paragraph comes after it."""
    _, out = run("verify", "--help")
    text = " ".join(out.split())
    after = text[text.index("and checks:") + len("and checks:") :].lstrip()
    assert after.startswith("correct every run produces")
    assert text.index("With --deck SCENARIO") > text.index("from the paper in the spec's `expect` block")


@pytest.mark.parametrize("command", ["verify", "simulate", "view", "play"])
def test_seed_help_says_integer_and_no_empty_range(command: str) -> None:
    _, out = run(command, "--help")
    text = " ".join(out.split())
    assert (
        "--seed INTEGER " in text
        and "None" not in text
        and "INTEGER RANGE" not in text.split("--seed")[1][:20]
    )


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


# --------------------------------------------------------------------------- bad input is bounded


def refused(*args: str) -> str:
    """Run a command that must be refused: exit 2, no traceback; returns the error line."""
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.output.strip()


@pytest.mark.parametrize(
    ("command", "limit"), [("verify", "limit 200 for verify"), ("simulate", "limit 1,000 for simulate")]
)
def test_a_huge_parameter_is_refused_before_any_work(command: str, limit: str) -> None:
    out = refused(command, "covert-lottery-modified", "--param", "m=1000000")
    assert out == (
        "Error (usage): covert-lottery-modified with m=1000000 puts 3,000,006 cards on the table "
        f"({limit}; --force lifts it up to 10,000)"
    )


def test_force_lifts_the_card_limit_but_not_the_verifiers(tmp_path: Path) -> None:
    out = refused("verify", "covert-lottery-modified", "--param", "m=3000", "--force")
    assert "about 10^903 combinations of inputs, too many to verify exactly" in out
    assert len(out.splitlines()) == 1
    # Nor past the ceiling: hours of work and tens of gigabytes.
    out = refused("simulate", "covert-lottery-modified", "--param", "m=1000000", "--force")
    assert out.endswith("puts 3,000,006 cards on the table (limit 10,000 for simulate; even with --force)")
    # simulate --force goes on to the run itself (here: it wants the inputs first).
    out = refused("simulate", "covert-lottery-modified", "--param", "m=2000", "--force")
    assert "give --input x=... (2000 comma-separated values" in out


def test_force_is_documented_with_the_limits() -> None:
    for command in ("verify", "simulate"):
        code, out = run(command, "--help")
        assert code == 0 and "--force" in out and "1,000 cards" in " ".join(out.split())
    code, out = run("booklet", "--help")
    assert code == 0 and "--force" in out


def test_a_protocol_booklet_checks_the_spec_sizes(tmp_path: Path) -> None:
    out = refused("booklet", "gakmoro-game", "-o", str(tmp_path / "b"))
    assert "too many to verify exactly" in out and not (tmp_path / "b").exists()


@pytest.mark.parametrize("command", ["verify", "simulate", "booklet"])
def test_a_folder_is_not_a_spec(tmp_path: Path, command: str) -> None:
    assert refused(command, str(tmp_path)) == f"Error (usage): {tmp_path} is a folder, not a spec file"
    folder = tmp_path / "looks-like.yaml"
    folder.mkdir()
    assert refused(command, str(folder)) == f"Error (usage): {folder} is a folder, not a spec file"


def test_a_relative_folder_is_not_a_spec(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(rulesets_dir().parent)
    assert refused("verify", "rulesets") == "Error (usage): rulesets is a folder, not a spec file"
    assert refused("play", "rulesets") == "Error (usage): rulesets is a folder, not a rule set file"


def test_a_protocol_name_wins_over_a_folder_of_the_same_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "five-card-trick").mkdir()
    code, out = run("verify", "five-card-trick")
    assert code == 0 and out.rstrip().endswith("VERIFIED")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "x.yaml: file is empty"),
        (b"protocol: x\n\xff\xfe\n", "x.yaml:2: file is not UTF-8 text"),
        (b"\x7fELF\x02\x01\x01\x00\x00\x00", "x.yaml:1: file is binary, not YAML text"),
    ],
)
def test_empty_and_binary_spec_files(tmp_path: Path, content: bytes, message: str) -> None:
    spec = tmp_path / "x.yaml"
    spec.write_bytes(content)
    out = refused("verify", str(spec))
    assert f"{tmp_path}/{message}" in out


def test_a_yaml_bomb_is_refused_with_file_line_and_key(tmp_path: Path) -> None:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text("\n".join(lines) + "\n")
    out = refused("verify", str(bomb))
    assert f"{bomb}:5: a4: the aliases expand to 111,111 values, more than the limit of 100,000" in out


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "a: " + "[" * 5000 + "]" * 5000 + "\n",
            ":1: a[0][0][0]...[0][0] (100 levels): nested more than 100",
        ),
        ("a: &a [1, *a]\n", ":1: a[1]: an alias refers to a list or mapping that contains it"),
    ],
    ids=["deep", "recursive"],
)
def test_deep_or_recursive_yaml_is_refused(tmp_path: Path, text: str, message: str) -> None:
    spec = tmp_path / "deep.yaml"
    spec.write_text(text)
    assert f"{spec}{message}" in refused("verify", str(spec))


def test_a_deep_expression_is_refused_with_file_line_key_and_column(tmp_path: Path) -> None:
    text = (rulesets_dir() / "protocols" / "five-card-trick.yaml").read_text()
    assert 'equals: "a and b"' in text
    spec = tmp_path / "five-card-trick.yaml"
    spec.write_text(text.replace('equals: "a and b"', 'equals: "' + "not " * 60 + 'a"'))
    out = refused("verify", str(spec))
    assert "outputs.and.equals: expression nested more than 50 levels deep at column 201" in out
    assert len(out) < 600  # the pointer shows the part around the column, not 20,000 characters


@pytest.mark.parametrize("command", ["build", "booklet"])
def test_an_output_folder_below_a_file(tmp_path: Path, command: str) -> None:
    (tmp_path / "somefile").write_text("x")
    destination = tmp_path / "somefile" / "kit"
    args = [command] + (["six-card-and"] if command == "booklet" else []) + ["-o", str(destination)]
    out = refused(*args)
    reason = f"Not a directory ({destination.parent})"
    assert out == f"Error (usage): cannot create the output folder {destination}: {reason}"


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="no /proc here")
@pytest.mark.parametrize("command", ["build", "booklet"])
def test_an_output_folder_in_proc(command: str) -> None:
    args = [command] + (["six-card-and"] if command == "booklet" else []) + ["-o", "/proc/x"]
    out = refused(*args)
    assert out.startswith("Error (usage): cannot create the output folder /proc/x: ")
    assert len(out.splitlines()) == 1


def test_ctrl_c_prints_one_line_and_exits_130(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    command = importlib.import_module("kitgen.cli.commands.simulate")

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(command, "simulate", interrupted)
    result = CliRunner().invoke(main, ["simulate", "six-card-and", "--input", "x=1", "--input", "y=0"])
    assert result.exit_code == 130
    assert result.output.strip() == "kitgen: interrupted" and "Traceback" not in result.output


def test_ctrl_c_at_the_pause_prompt() -> None:
    import click

    def abort_at_prompt(*args: object, **kwargs: object) -> str:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise click.Abort() from None

    args = ["simulate", "six-card-and", "--input", "x=1", "--input", "y=0", "--pause"]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(click, "prompt", abort_at_prompt)
        result = CliRunner().invoke(main, args)
    assert result.exit_code == 130 and result.output.strip().endswith("kitgen: interrupted")


def test_play_engines_give_the_same_game() -> None:
    # The kit's default protocol (the sleeved quick card selection) and the paper's.
    for protocol in ((), ("--protocol", "card-selection")):
        _same_game_on_both_engines(protocol)


def _same_game_on_both_engines(protocol: tuple[str, ...]) -> None:
    args = ("play", "crazy-eights", "--players", "3", "--virtual", "3", "--seed", "4", "--json", *protocol)
    code, compiled = run(*args)
    assert code == 0, compiled
    code, interpreted = run(*args, "--engine", "interpreter")
    assert code == 0, interpreted
    fast, slow = json.loads(compiled), json.loads(interpreted)
    assert (fast.pop("engine_used"), slow.pop("engine_used")) == ("compiled", "interpreter")
    assert fast == slow
    assert fast["protocol_runs"] > 0


def test_play_says_which_engine_ran_and_refuses_what_it_cannot_compile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Hearts' kit teaches the sleeved quick protocol: compiled; and the paper's protocol.
    args = [
        "play",
        "hearts",
        "--virtual",
        "2",
        "--rounds",
        "1",
        "--json",
        "--protocol",
        "card-selection-original",
    ]
    auto = json.loads(
        CliRunner().invoke(main, ["play", "hearts", "--virtual", "2", "--rounds", "1", "--json"]).stdout
    )
    assert (auto["engine_used"], auto["fallback_reason"]) == ("compiled", None)
    ran = CliRunner().invoke(main, [*args, "--engine", "compiled"])
    assert ran.exit_code == 0, ran.output
    data = json.loads(ran.stdout)
    assert (data["engine_used"], data["fallback_reason"]) == ("compiled", None)
    # A step the compiler does not know (here: the piles of a shuffle, made unknown to it).
    from reference_engine.compiled import ops, program
    from reference_engine.steps import Shuffle

    monkeypatch.setitem(ops.KNOWN_FIELDS, Shuffle, ops.KNOWN_FIELDS[Shuffle] - {"piles"})
    monkeypatch.setattr(program, "_PROGRAMS", {})
    refused = CliRunner().invoke(main, [*args, "--engine", "compiled"])
    assert refused.exit_code == 2, refused.output
    assert "--engine compiled: card-selection-original is not compiled" in refused.output
    assert "a shuffle step with piles: not known to the compiler" in refused.output
    assert "Traceback" not in refused.output
    # Not asked by name: the interpreter runs it, and --json says so and why.
    default = CliRunner().invoke(main, args)
    assert default.exit_code == 0, default.output
    data = json.loads(default.stdout)
    assert data["engine_used"] == "interpreter" and "not known to the compiler" in data["fallback_reason"]
    bad = CliRunner().invoke(main, ["play", "uno", "--engine", "jit"])
    assert bad.exit_code == 2 and "Traceback" not in bad.output


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["play", "daifugo", "--players", "4", "--virtual", "5"], "--virtual must be between 0 and 4, got 5"),
        (["play", "sevens", "--level", "rule", "--weights", "action=2"], "--weights"),
        (["solve", "cooperative", "--hand1", "", "--hand2", "1/1"], "--hand1 is empty"),
    ],
)
def test_the_command_line_names_an_engine_setting_by_its_flag(args: list[str], said: str) -> None:
    """The engine names a setting by its field («virtual»); the command line says the flag."""
    code, out = run(*args)
    assert code == 2 and said in out and "«" not in out, out


# Every rule set that plays at card level, as `kitgen play NAME --level card --engine compiled`
# runs it (with its default protocol); uno-official needs --wild4 bluff at card level (one hand).
CARD_LEVEL = [
    ("uno", ()),
    ("uno-small", ()),
    ("uno-official", ("--wild4", "bluff", "--hands", "1")),
    ("crazy-eights", ()),
    ("sevens", ()),
    ("hearts", ("--rounds", "1")),
    ("dominoes", ()),
    ("daifugo", ()),
    ("gakmoro", ()),
]


@pytest.mark.parametrize(("game", "extra"), CARD_LEVEL)
def test_play_compiled_runs_every_rule_sets_default_protocol(game: str, extra: tuple[str, ...]) -> None:
    ran = CliRunner().invoke(
        main, ["play", game, "--level", "card", "--engine", "compiled", "--json", "--seed", "1", *extra]
    )
    assert ran.exit_code == 0, ran.output
    data = json.loads(ran.stdout)
    assert (data["engine_used"], data["fallback_reason"]) == ("compiled", None), data["protocol"]


def test_play_compiled_refuses_a_protocol_it_cannot_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    # A step kind the compiler does not know (here: sleeves, made unknown to it): exit 2, the reason.
    from reference_engine.compiled import ops, program
    from reference_engine.steps import Sleeve

    monkeypatch.delitem(ops._COMPILERS, Sleeve)
    monkeypatch.setattr(program, "_PROGRAMS", {})
    args = ["play", "uno", "--level", "card", "--engine", "compiled", "--json", "--seed", "1"]
    refused = CliRunner().invoke(main, args)
    assert refused.exit_code == 2, refused.output
    assert "--engine compiled: card-selection-arrow is not compiled" in refused.output
    assert "the step kind 'sleeve' is not compiled" in refused.output
    assert "Traceback" not in refused.output
    # Not asked by name: the interpreter runs it, and --json says so and why.
    auto = CliRunner().invoke(main, args[:4] + args[6:])
    assert auto.exit_code == 0, auto.output
    data = json.loads(auto.stdout)
    assert data["engine_used"] == "interpreter" and "'sleeve' is not compiled" in data["fallback_reason"]
