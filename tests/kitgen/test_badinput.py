"""Bad input through every command: a clear refusal (exit 2, one line, file:line:key), never a
traceback, a hang or a file left behind (issues 29 and 31).

Three layers: every spec file kept in the tests' folders (bad_specs/ here, whose header says
the exit code and message each command must give, and the regression specs of the verifier)
through every command; a few dozen seeded mutants of the shipped specs (mutants.py; the long
run is bench/badinput.py); and each option attack of the issues, one by one.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kitgen.cli.main import main
from reference_engine.api import Library

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import forkserver  # noqa: E402
import mutants  # noqa: E402

TESTS = HERE.parent
BAD_SPECS = HERE / "bad_specs"
MUTANTS = int(os.environ.get("KITGEN_BADINPUT_MUTANTS", "32"))  # every class twice
SEED = int(os.environ.get("KITGEN_BADINPUT_SEED", "29"))


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def refused(*args: str) -> str:
    """The one line a refused command prints (exit code 2)."""
    code, out = cli(*args)
    assert code == 2, out
    assert len(out.strip().splitlines()) == 1, out
    return out.strip()


def _header(path: Path) -> tuple[int, str, list[str]]:
    """A bad spec's header: the exit code and message every command must give, and the options
    of ``simulate`` (its inputs: ``# simulate: --input x=1``) where the spec loads."""
    text = path.read_bytes().decode("utf-8", errors="replace")
    expect = re.search(r"^# expect: (\d)$", text, re.MULTILINE)
    message = re.search(r"^# message: (.+)$", text, re.MULTILINE)
    assert expect and message, f"{path.name}: give '# expect: N' and '# message: ...' in its header"
    simulate = re.search(r"^# simulate: (.+)$", text, re.MULTILINE)
    return int(expect.group(1)), message.group(1).strip(), simulate.group(1).split() if simulate else []


def _problems(verdict: mutants.Verdict) -> list[str]:
    return [f"{verdict.mutant.label}: {p}" for p in verdict.problems()]


# --------------------------------------------------------------------------- the tests' spec folders


@pytest.mark.parametrize("path", sorted(BAD_SPECS.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_command_refuses_each_bad_spec_alike(path: Path, tmp_path: Path) -> None:
    """The spec alone in a folder; every command that takes a spec file gives the exit code and
    the message its header names, without a traceback or a file left behind."""
    expect, message, sim_args = _header(path)
    verdict = mutants.run_spec(
        tmp_path / "run", {path.name: path.read_bytes()}, path.name, None, sim_args, tmp_path / "c"
    )
    assert not verdict.problems(), verdict.problems()
    assert {o.command for o in verdict.outcomes} == {"verify", "simulate", "booklet", "view"}
    for o in verdict.outcomes:
        assert o.code == expect, (o.command, o.output)
        assert message in " ".join(o.output.split()), (o.command, o.output)


def _spec_folders() -> list[Path]:
    """Every folder of spec files the tests keep (bad_specs, the fuzz regressions, the partition
    specs, and any other), but not the shipped ones."""
    return sorted({p.parent for p in TESTS.rglob("*.yaml")} - {BAD_SPECS})


# The folders whose specs cost 2.7-14 s of CPU each through the four commands: the slow tier's.
# The fast tier keeps at least one folder of each family (fuzz regressions, determinism, partition
# and soundness specs), and tests/reference_engine/verify/test_soundness.py runs every broken spec
# of these folders through every command in the fast tier (no traceback, refused).
SWEEP_ONLY = {
    "reference_engine/verify/determinism_specs/callee",
    "reference_engine/verify/determinism_specs/merged-views",
    "reference_engine/verify/determinism_specs/nested-calls",
    "reference_engine/verify/partition_specs/leak-order",
    "reference_engine/verify/soundness/callee-shown",
    "reference_engine/verify/soundness/calls-hands",
    "reference_engine/verify/soundness/hand-order",
    "reference_engine/verify/soundness/players",
    "reference_engine/verify/soundness/shown-order",
}


def _sweep() -> list[Any]:
    """Every spec folder of the tests, those of SWEEP_ONLY marked slow (a new folder is fast)."""
    folders = _spec_folders()
    named = {f.relative_to(TESTS).as_posix() for f in folders}
    assert named >= SWEEP_ONLY, SWEEP_ONLY - named  # a renamed folder must be renamed here too
    return [
        pytest.param(f, marks=pytest.mark.slow) if f.relative_to(TESTS).as_posix() in SWEEP_ONLY else f
        for f in folders
    ]


@pytest.mark.parametrize("folder", _sweep(), ids=lambda p: str(p.relative_to(TESTS)))
def test_every_spec_file_of_the_tests_goes_through_every_command(folder: Path, tmp_path: Path) -> None:
    """Issue 24's last line: no spec file of the tests makes verify, simulate, booklet or view
    print a traceback; their exit codes agree with each other (mutants.wrong_exit_codes). The
    fast tier runs a representative folder of each family, the slow tier every folder."""
    files = {p.name: p.read_bytes() for p in folder.glob("*.yaml")}
    problems = []
    for name in sorted(files):
        verdict = mutants.run_spec(tmp_path / name, files, name, None, [], tmp_path / "cache")
        problems += _problems(verdict)
        assert verdict.outcomes, name
    assert not problems, problems


# --------------------------------------------------------------------------- mutants


def test_the_mutants_are_reproducible_and_cover_every_class() -> None:
    drawn = mutants.mutants(SEED, len(mutants.CLASSES))
    assert {m.kind for m in drawn} == set(mutants.CLASSES)
    again = mutants.mutants(SEED, len(mutants.CLASSES))
    assert [m.content for m in drawn] == [m.content for m in again]
    for m in drawn:
        if m.kind != "empty":
            assert m.content != (mutants.PROTOCOLS / f"{m.base}.yaml").read_bytes(), m.label


@pytest.mark.slow  # a seeded sweep; the fast tier runs every bad spec and shipped spec through every command
def test_seeded_mutants_through_every_command(tmp_path: Path) -> None:
    """A few dozen mutants (every class twice); each command on each: exit code 0, 1 or 2 as
    the rules of mutants.wrong_exit_codes say, no traceback, within 20 s of CPU time (or three
    times what the command takes on the shipped spec on this machine), nothing left behind.
    bench/badinput.py runs hundreds."""
    drawn = mutants.mutants(SEED, MUTANTS)
    sim = {b: mutants.simulate_args(b) for b in {m.base for m in drawn}}
    with ThreadPoolExecutor(max_workers=2) as pool:
        verdicts = list(
            pool.map(lambda m: mutants.run_mutant(m, tmp_path, tmp_path / "cache", sim[m.base]), drawn)
        )
    problems = [p for v in verdicts for p in _problems(v)]
    assert not problems, problems
    figures = mutants.summary(verdicts)
    assert figures["tried"] >= 4 * MUTANTS


def test_a_cache_file_is_a_leftover_unless_another_live_process_is_writing_it() -> None:
    """Two drivers share one cache in the seeded sweep: the other driver's write in flight is not
    this driver's leftover (CI saw one at stop 49), but this process's temporary file, a dead
    process's and any other stray name are."""
    ours = mutants._ours_left_in_cache
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert not ours("0123abcd.json")
        assert ours(f".0123abcd.json.tmp-{os.getpid()}-c5443dcf125e")
        assert ours(f".0123abcd.json.tmp-{dead.pid}-c5443dcf125e")
        assert not ours(f".0123abcd.json.tmp-{live.pid}-c5443dcf125e")
        assert ours("stray.txt")
    finally:
        live.kill()
        live.wait()


def test_the_judge_sees_what_it_must() -> None:
    """The rules of mutants.wrong_exit_codes, on made-up outcomes (so that a bench reporting 0
    is not a judge that sees nothing)."""

    def o(command: str, code: int | None, output: str = "") -> mutants.Outcome:
        return mutants.Outcome(command, [], code, 0.1, output)

    assert mutants.wrong_exit_codes(2, [o("verify", 2), o("simulate", 0)]) == [
        "the spec does not load, but simulate exited 0 instead of 2"
    ]
    assert mutants.wrong_exit_codes(0, [o("verify", 1), o("booklet", 0)])
    assert mutants.wrong_exit_codes(0, [o("verify", 0), o("build", 1)])
    assert mutants.wrong_exit_codes(0, [o("verify", 2, "Error (simulate): x.yaml:3: ..."), o("play", 0)])
    assert not mutants.wrong_exit_codes(0, [o("verify", 2, "Error (usage): ... cards"), o("simulate", 0)])
    assert mutants.wrong_exit_codes(0, [o("view", 139)])
    assert o("verify", 1, "Traceback (most recent call last):\n ...").traceback
    assert o("verify", None).hang


def test_a_slow_command_is_measured_against_the_shipped_spec(tmp_path: Path) -> None:
    """Over 20 s of CPU time is a hang unless the command takes a third of it on the unchanged
    shipped spec on this machine (allow_for_base), and a stopped command is a hang always."""
    seconds = {("gakmoro-round", "booklet"): 10.0, ("gakmoro-round", "verify"): 1.0}
    drawn = mutants.mutants(SEED, 16)
    m = next(m for m in drawn if m.base == "gakmoro-round")

    def verdict(command: str, cpu: float, code: int | None = 1) -> mutants.Verdict:
        outcome = mutants.Outcome(command, [], code, cpu, "")
        return mutants.Verdict(m, 0, "", [outcome], [])

    saved = dict(mutants._BASE_SECONDS)
    mutants._BASE_SECONDS.update(seconds)
    try:
        judged = {}
        for command, cpu, code in [("booklet", 25.0, 1), ("booklet", 31.0, 1), ("verify", 25.0, 1)]:
            v = verdict(command, cpu, code)
            mutants.allow_for_base(v, tmp_path, [])
            judged[command, cpu] = (v.outcomes[0].hang, v.outcomes[0].limit)
        stopped = verdict("booklet", 0.0, None)
        mutants.allow_for_base(stopped, tmp_path, [])
    finally:
        mutants._BASE_SECONDS.clear()
        mutants._BASE_SECONDS.update(saved)
    assert judged == {
        ("booklet", 25.0): (False, 30.0),
        ("booklet", 31.0): (True, 30.0),
        ("verify", 25.0): (True, 20.0),
    }
    assert stopped.outcomes[0].hang
    assert not list(tmp_path.iterdir())  # the figures given were used, nothing was run


# --------------------------------------------------------------------------- options and inputs


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "gakmoro", "--players", "3"], "gakmoro is a game for 2 players, not 3"),
        (["play", "gakmoro", "--virtual", "5"], "--virtual makes no sense for gakmoro"),
        (["build", "uno", "--only", ""], "--only takes card types"),
        (["build", "uno", "--only", " , "], "--only takes card types"),
        (["solve", "solitaire", "--cards", "1/1", "--time-limit", "nan"], "'nan' is not a number of seconds"),
        (["solve", "solitaire", "--cards", "1/1", "--time-limit", "inf"], "is not in the range"),
        (["solve", "solitaire", "--cards", "1/1", "--time-limit", "-1"], "is not in the range"),
        (["solve", "cooperative", "--hand1", "1/1", "--hand2", "2/2", "--time-limit", "NaN"], "not a number"),
        (
            ["verify", "card-selection", "--runs", "1000000000000000000"],
            "'--runs': 1000000000000000000 is too",
        ),
        (["build", "uno", "--runs", "1000000000000000000"], "'--runs': 1000000000000000000 is too large"),
        (["booklet", "uno", "--runs", "1000000000000000000"], "'--runs': 1000000000000000000 is too large"),
        (["verify", "card-selection", "--runs", "10001"], "10001 is not in the range 10<=x<=10000"),
        (["build", "uno", "--runs", "20000"], "20000 is not in the range 0<=x<=10000"),
        (["verify", "covert-lottery", "--param", "m=1_0"], "'1_0' is not a whole number"),
        (["verify", "covert-lottery", "--param", "m= 5"], "' 5' is not a whole number"),
        (["verify", "covert-lottery", "--param", "m=٣"], "is not a whole number"),
        (["verify", "covert-lottery", "--param", "m=" + "9" * 400], "a number of 400 digits is too large"),
        (["verify", "covert-lottery", "--param", "m=3", "--param", "m=4"], "--param m is given twice"),
        (["simulate", "six-card-and", "--seed", "1_0"], "'1_0' is not a whole number"),
        (["play", "uno", "--seed", "1e3"], "'1e3' is not a whole number"),
        (["play", "uno", "--players", "1000000"], "is not in the range 1<=x<=100"),
        (["verify", "six-card-and", "--bogus"], "No such option '--bogus'"),
        (["verify", "card-selection", "--hand", "1_0"], "'1_0' is not a hand size"),
        (["verify", "card-selection", "--hand", "1.." + "9" * 400], "is not a hand size"),
        (["verify", "card-selection", "--hand", "1", "--players", "3_0"], "'3_0' is not a whole number"),
        (["build", "uno", "--exact-hands", "1_0"], "'1_0' is not a whole number"),
        (
            ["simulate", "card-selection", "--input", "cards=red9,red9,red9,blue7,yellow5"],
            "--input cards: red9 is not in the deck of scenario mini (R1 G2 B7 Y5 W, the first; --deck "
            "picks another)",
        ),
        (
            ["simulate", "card-selection", "--input", "cards=red1,purple9,red9,blue7,yellow5"],
            "--input cards: 'purple9' is not a card of the game",
        ),
        # Issue 38: an impossible deal in weighted selection (three wilds of a five-card deck).
        (
            ["simulate", "weighted-selection", "--input", "cards=wild,wild,wild,red1,green2"],
            "--input cards: wild is given 3 times, but the deck of scenario mini (R1 RS G2 Y5 W, the "
            "first; --deck picks another) holds 1 copy of it",
        ),
        (
            [
                "simulate",
                "weighted-selection",
                "--deck",
                "mini",
                "--input",
                "cards=wild,red1,red1,green2,yellow5",
            ],
            "red1 is given 2 times, but the deck of scenario mini (R1 RS G2 Y5 W) holds 1 copy",
        ),
        (
            ["view", "weighted-selection", "--input", "cards=wild,wild,wild,red1,green2"],
            "--input cards: wild is given 3 times",
        ),
        (
            [
                "simulate",
                "card-selection",
                "--deck",
                "crazy-eights-mini",
                "--input",
                "cards=hearts2,hearts2,spades9,diamonds5,spades_king",
            ],
            "--input cards: hearts2 is given 2 times, but the deck of scenario crazy-eights-mini",
        ),
        # Issue 38: --weights with a key given twice, or absurdly long.
        (
            [
                "play",
                "uno",
                "--virtual",
                "2",
                "--level",
                "rule",
                "--strategy",
                "weighted",
                "--weights",
                "action=3,action=4",
            ],
            "--weights 'action=3,action=4': 'action' is given twice",
        ),
        (
            [
                "play",
                "uno",
                "--virtual",
                "2",
                "--strategy",
                "weighted",
                "--weights",
                "action=3," * 12_500 + "wild=2",
            ],
            "characters long; weights are at most 500",
        ),
        (
            ["build", "uno", "--strategy", "weighted", "--weights", "wild=2,number=1,wild=3"],
            "'wild' is given twice",
        ),
    ],
)
def test_options_accepted_silently_are_refused_in_one_line(args: list[str], message: str) -> None:
    assert message in refused(*args)


def test_the_triple_r9_deal_is_refused_by_view_too(tmp_path: Path) -> None:
    out = refused(
        "view", "card-selection", "--input", "cards=red9,red9,red9,blue7,yellow5", "-o", str(tmp_path / "v")
    )
    assert "red9 is not in the deck of scenario mini" in out
    assert not (tmp_path / "v").exists()


@pytest.mark.parametrize("protocol", ["card-selection", "weighted-selection"])
def test_a_deal_of_the_scenarios_deck_still_runs(protocol: str) -> None:
    """A game protocol's table holds every card in play, so a deal given is one of the deck of the
    scenario it runs in (any order of it, or part of it)."""
    cards = {
        "card-selection": "wild,yellow5,blue7,green2,red1",
        "weighted-selection": "wild,yellow5,red_skip,green2,red1",
    }
    code, out = cli("simulate", protocol, "--input", f"cards={cards[protocol]}")
    assert code == 0, out


def test_a_scenario_dealing_more_copies_than_the_game_holds_is_a_spec_error(tmp_path: Path) -> None:
    text = (mutants.PROTOCOLS / "card-selection.yaml").read_text(encoding="utf-8")
    bad = text.replace(
        "deal: [red1, green2, blue7, yellow5, wild]", "deal: [red1, red1, red1, yellow5, wild]", 1
    )
    assert bad != text
    spec = tmp_path / "card-selection.yaml"
    spec.write_text(bad, encoding="utf-8")
    out = refused("simulate", str(spec))
    assert "scenarios.mini.deal: red1 is dealt 3 times, but uno's deck holds 2" in out


def test_a_spec_shadowing_a_shipped_protocol_is_refused_with_both_names(tmp_path: Path) -> None:
    text = (mutants.PROTOCOLS / "six-card-and.yaml").read_text(encoding="utf-8")
    spec = tmp_path / "gakmoro-comparison.yaml"
    spec.write_text(text, encoding="utf-8")  # declares six-card-and
    for command in ("verify", "simulate", "booklet", "view"):
        out = refused(
            command, str(spec), *(["-o", str(tmp_path / command)] if command in ("booklet", "view") else [])
        )
        assert "the file gakmoro-comparison.yaml declares protocol 'six-card-and'" in out
        assert f"{spec}:3: protocol:" in out


def test_a_step_without_an_action_is_refused_by_play_and_build(tmp_path: Path) -> None:
    """Issue 31: the incomplete step exits 2 wherever the spec is run (play and build of a game
    that runs it included), before anything is written."""
    text = (mutants.PROTOCOLS / "card-selection.yaml").read_text(encoding="utf-8")
    start = text.index("  - step: 8")
    action = text.index("    shuffle:", start)
    end = text.index("\n  - step: 9", start)
    spec = tmp_path / "card-selection.yaml"
    spec.write_text(text[:action] + text[end:], encoding="utf-8")
    for args in (
        ["play", "uno-small", "--protocol", str(spec)],
        ["build", "uno-small", "--protocol", str(spec), "-o", str(tmp_path / "kit"), "--no-previews"],
        ["verify", str(spec)],
        ["simulate", str(spec)],
    ):
        assert "steps[7]: step 8 has no action" in refused(*args)
    assert not (tmp_path / "kit").exists()


def test_simulate_exits_1_when_its_run_breaks_the_spec(tmp_path: Path) -> None:
    """Issue 31: a spec that fails verification was simulated with exit 0 and wrong outputs."""
    text = (mutants.PROTOCOLS / "six-card-and.yaml").read_text(encoding="utf-8")
    spec = tmp_path / "six-card-and.yaml"
    spec.write_text(text.replace('"bit(0)"', '"bit(1)"'), encoding="utf-8")
    code, out = cli("simulate", str(spec), "--input", "x=1", "--input", "y=1")
    assert code == 1
    assert "NOT AS THE SPEC SAYS: output nand is 1, but the spec says (not x) and y = 0" in out
    code, out = cli("simulate", str(spec), "--input", "x=1", "--input", "y=1", "--json")
    assert code == 1 and json.loads(out)["wrong"]
    code, out = cli("simulate", "six-card-and", "--input", "x=1", "--input", "y=1", "--json")
    assert code == 0 and json.loads(out)["wrong"] == []


def test_a_callee_parameter_out_of_range_is_located_at_the_call_with_workers(tmp_path: Path) -> None:
    """Issue 29.2: 'n must be at most 40, got 1000000000 (called at step 3)' escaped as a
    UsageError traceback from the verification workers."""
    text = (mutants.PROTOCOLS / "gakmoro-round.yaml").read_text(encoding="utf-8")
    spec = tmp_path / "gakmoro-round.yaml"
    spec.write_text(
        text.replace("params: {n: 8, to: 14}", "params: {n: 1000000000, to: 14}", 1), encoding="utf-8"
    )
    for workers in ("1", "2"):
        out = refused("verify", str(spec), "--workers", workers)
        assert re.search(
            r"gakmoro-round\.yaml:\d+: steps\[1\]\.do\[0\]: the call to gakmoro-extension: "
            r"n must be at most 40, got 1000000000",
            out,
        ), out


def test_every_built_in_spec_still_loads_and_runs_through_every_command(tmp_path: Path) -> None:
    """The checks refuse nothing that is right: the shipped specs pass them (the unmutated
    version of every mutant)."""
    library = Library()
    for name in ("six-card-and", "five-card-trick", "covert-lottery-modified"):
        text = (mutants.PROTOCOLS / f"{name}.yaml").read_bytes()
        verdict = mutants.run_spec(
            tmp_path / name,
            {f"{name}.yaml": text},
            f"{name}.yaml",
            None,
            mutants.simulate_args(name),
            tmp_path / "c",
        )
        assert not verdict.problems(), verdict.problems()
        assert [o.code for o in verdict.outcomes] == [0, 0, 0, 0], [
            (o.command, o.output) for o in verdict.outcomes
        ]
        assert library.protocol(name).name == name


def test_verify_runs_refuses_a_selection_spec_without_what_a_turn_needs(tmp_path: Path) -> None:
    """`verify --runs` on a card selection spec without its outputs was a KeyError ('played')
    traceback; it is refused before any run, as play and build refuse it."""
    text = (mutants.PROTOCOLS / "card-selection-fast.yaml").read_text(encoding="utf-8")
    start = text.index("\noutputs:\n") + 1
    end = text.index("\nexpect:\n", start) + 1
    text = text[:start] + text[end:]
    # The booklet's words for the outputs go with them (a name the spec lacks is refused first).
    for output in ("found", "hands"):
        text = re.sub(rf"\n    {output}: [^\n]*", "", text, count=1)
    spec = tmp_path / "card-selection-fast.yaml"
    spec.write_text(text, encoding="utf-8")
    out = refused("verify", str(spec), "--runs", "10")
    assert f"{spec}:" in out
    assert "cannot run a virtual player's turn: it needs an output 'played'" in out


@pytest.mark.parametrize("number", ["1" + "0" * 60, "'" + "9" * 13 + "'"])
def test_a_step_number_too_long_to_print_is_refused(tmp_path: Path, number: str) -> None:
    """A step number of 60 digits loaded and broke the booklet's layout (a reportlab
    LayoutError traceback from booklet and build, while verify passed): bench/badinput.py
    seed 2, mutant 162."""
    text = (mutants.PROTOCOLS / "six-card-and.yaml").read_text(encoding="utf-8")
    spec = tmp_path / "six-card-and.yaml"
    spec.write_text(text.replace("- step: 3\n", f"- step: {number}\n", 1), encoding="utf-8")
    for command in ("verify", "booklet"):
        out = refused(command, str(spec), *(["-o", str(tmp_path / "b")] if command == "booklet" else []))
        assert re.search(r"six-card-and\.yaml:\d+: steps\[2\]\.step: a step number of \d+ characters", out)
    assert not (tmp_path / "b").exists()


def test_the_longest_step_number_allowed_is_printed(tmp_path: Path) -> None:
    text = (mutants.PROTOCOLS / "six-card-and.yaml").read_text(encoding="utf-8")
    spec = tmp_path / "six-card-and.yaml"
    spec.write_text(text.replace("- step: 3\n", "- step: ＷＷＷＷＷＷＷＷＷＷＷＷ\n", 1), encoding="utf-8")
    code, out = cli("booklet", str(spec), "-o", str(tmp_path / "b"), "--no-previews")
    assert code == 0, out


def test_a_part_larger_than_a_page_is_one_line_not_a_layout_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The safety net behind the text limits: reportlab's LayoutError becomes a render error
    (exit 2, one line) and no booklet is left."""
    from reportlab.platypus import Table

    import kitgen.booklet.writer

    monkeypatch.setattr(
        kitgen.booklet.writer.Writer, "story", lambda self: [Table([["x"]], rowHeights=[5000])]
    )
    code, out = cli("booklet", "six-card-and", "-o", str(tmp_path / "b"), "--no-previews")
    assert code == 2, out
    out = out.strip().splitlines()[-1]  # after the progress lines
    assert out.startswith(
        "Error (render): cannot typeset booklet.pdf: a part of the booklet is larger than a page"
    )
    assert not (tmp_path / "b").exists()


# --------------------------------------------------------------------------- files given as options

ROOT = HERE.parents[1]


def kitgen_process(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``kitgen ARGS`` in its own process (forked from one that imported kitgen once,
    forkserver.py), killed after ``timeout`` s: a command that waits on a FIFO fails the test
    (TimeoutExpired) instead of hanging the suite."""
    return forkserver.run(
        Path(mutants.__file__), "kitgen_main", [list(args)], dict(os.environ), ROOT, timeout
    )


TABLE_TIME_COMMANDS = {
    "play": ["play", "uno", "--virtual", "2", "--level", "rule"],
    "list": ["list", "--times"],
    "booklet": ["booklet", "uno", "--no-previews"],
    "build": ["build", "uno", "--no-previews"],
}


@pytest.mark.parametrize("command", sorted(TABLE_TIME_COMMANDS))
def test_table_time_given_a_fifo_exits_2_at_once(tmp_path: Path, command: str) -> None:
    os.mkfifo(tmp_path / "model.yaml")
    args = [*TABLE_TIME_COMMANDS[command], "--table-time", str(tmp_path / "model.yaml")]
    if command in ("booklet", "build"):
        args += ["-o", str(tmp_path / "out")]
    start = time.monotonic()
    done = kitgen_process(*args)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == (
        f"Error (spec): {tmp_path / 'model.yaml'}: cannot read file: a FIFO (named pipe), not a regular file"
    )
    assert time.monotonic() - start < 30 and not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("- a\n- b\n", "expected a mapping, got a list"),
        ("5\n", "expected a mapping, got int 5"),
    ],
)
def test_a_table_time_file_that_is_not_a_mapping_is_one_line(tmp_path: Path, text: str, message: str) -> None:
    model = tmp_path / "model.yaml"
    model.write_text(text, encoding="utf-8")
    out = refused("play", "uno", "--virtual", "2", "--level", "rule", "--table-time", str(model))
    assert out == f"Error (spec): {model}:1: {message}"


def test_a_spec_or_rule_set_that_is_a_fifo_is_named_as_one(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "mine.yaml")
    for command in (
        ["verify"],
        ["simulate"],
        ["play"],
        ["booklet", "--no-previews", "-o", str(tmp_path / "b")],
    ):
        done = kitgen_process(command[0], str(tmp_path / "mine.yaml"), *command[1:])
        assert done.returncode == 2
        assert done.stderr.strip().endswith(
            f"{tmp_path / 'mine.yaml'}: a FIFO (named pipe), not a regular file"
        )


def test_the_file_and_option_attacks_of_issue_38() -> None:
    """A quick subset of bench/badinput.py --attacks (tests/kitgen/attacks.py): a record over a
    user's file or a FIFO, forged and linked markers, a FIFO and a YAML list as --table-time,
    repeated and huge --weights, an impossible deal. Each in a driver process that is killed
    when it stops answering, so a command waiting on a FIFO fails here instead of hanging."""
    import attacks

    outcomes = attacks.run(attacks.QUICK, limit=120)
    assert [o.attack for o in outcomes] == list(attacks.QUICK)
    assert attacks.summary(outcomes)["problems"] == []
