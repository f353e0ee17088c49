"""The progress line (kitgen/cli/commands/progress.py) and the engine's progress reports.

The engine reports as data (reference_engine/progress.py) and never prints; the line shows
the latest report on stderr only on a terminal, after two seconds, never with --json.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from click.testing import CliRunner

from kitgen.cli.commands import progress as line_module
from kitgen.cli.commands.progress import ProgressLine
from kitgen.cli.main import main
from reference_engine.api import Library, PlaySettings, play, reporting
from reference_engine.verify import verify

# The commands must show "verifying": a report another test left in the shared cache would skip it.
pytestmark = pytest.mark.fresh_cache


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_line_on_a_terminal_after_the_quiet_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [100.0]
    monkeypatch.setattr(line_module.time, "monotonic", lambda: clock[0])
    out = Terminal()
    line = ProgressLine(out)
    line("verifying x", 1, 10, "step 1")
    assert out.getvalue() == ""  # quick work shows nothing
    clock[0] += 3.0
    line("verifying x", 4, 10, "step 4, 12 table states")
    text = out.getvalue()
    assert text.startswith("\r") and "verifying x: 4/10 (step 4, 12 table states)" in text
    assert "0:03" in text and "about 0:05 left" in text  # 3 s for 4 of 10: 4.5 s more
    line.close()
    assert out.getvalue().endswith("\r") and out.getvalue().count("\r") == 3


def test_a_build_step_counts_its_phase(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [0.0]
    monkeypatch.setattr(line_module.time, "monotonic", lambda: clock[0])
    out = Terminal()
    line = ProgressLine(out)
    line.total("drawing card sheets", 40)
    clock[0] = 5.0
    line("drawing card sheets", 10)
    clock[0] = 6.0
    line("drawing card sheets", 10)
    assert "drawing card sheets: 20/40" in out.getvalue()


def test_nothing_when_not_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [0.0]
    monkeypatch.setattr(line_module.time, "monotonic", lambda: clock[0])
    out = io.StringIO()
    line = ProgressLine(out)
    clock[0] = 10.0
    line("verifying x", 1, 2, "")
    line.close()
    assert out.getvalue() == ""


def test_the_engine_reports_the_steps_of_a_verification(library: Library) -> None:
    seen: list[tuple[str, int, int | None, str]] = []
    with reporting(lambda *a: seen.append(a)):
        verify(library, library.protocol("card-selection"), scenario="mini")
    steps = [s for s in seen if s[0] == "verifying card-selection"]
    assert [s[1] for s in steps] == list(range(1, 13)) and {s[2] for s in steps} == {12}
    assert steps[4][3].startswith("step 5, ") and steps[4][3].endswith(" table states")


def test_partitions_report_through_the_coordinator(library: Library) -> None:
    seen: list[tuple[Any, ...]] = []
    with reporting(lambda *a: seen.append(a)):
        verify(library, library.protocol("six-card-and"), workers=2)
    rounds = [s for s in seen if s[0].startswith("verifying")]
    assert rounds and rounds[-1][3].endswith("in 2 workers")


def test_the_engine_reports_a_game(library: Library) -> None:
    seen: list[tuple[Any, ...]] = []
    with reporting(lambda *a: seen.append(a)):
        result = play("uno", library, PlaySettings(players=3, virtual=2, seed=1)).to_json()
    runs = [s for s in seen if s[0] == "playing"]
    assert runs and runs[-1][1] == result["protocol_runs"]


def test_no_report_without_a_listener(library: Library) -> None:
    verify(library, library.protocol("six-card-and"))  # nothing to call: nothing happens


@pytest.mark.parametrize(
    "args",
    [
        ["verify", "card-selection", "--deck", "mini", "--workers", "1"],
        ["play", "uno", "--players", "3", "--virtual", "2", "--seed", "1"],
        ["view", "six-card-and"],
    ],
)
def test_commands_show_the_line_on_a_terminal_and_not_with_json(
    args: list[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    monkeypatch.setattr(line_module, "QUIET_SECONDS", 0.0)
    monkeypatch.setattr(line_module, "REDRAW_SECONDS", 0.0)
    monkeypatch.setattr(line_module, "_is_terminal", lambda stream: True)
    if args[0] == "view":
        args = [*args, "-o", str(tmp_path / "v")]
    runner = CliRunner()
    shown = runner.invoke(main, args)
    assert shown.exit_code == 0, shown.output
    word = {"verify": "verifying", "play": "playing", "view": "verifying"}[args[0]]
    assert f"\r{word}" in shown.stderr and shown.stderr.endswith("\r")
    assert f"\r{word}" not in shown.stdout
    if args[0] == "view":
        args = [*args[:-2], "-o", str(tmp_path / "w")]
    quiet = runner.invoke(main, [*args, "--json"])
    assert quiet.exit_code == 0, quiet.output
    assert quiet.stderr.strip() == "" or word not in quiet.stderr


def test_commands_are_silent_off_a_terminal() -> None:
    shown = CliRunner().invoke(main, ["verify", "card-selection", "--deck", "mini", "--workers", "1"])
    assert shown.exit_code == 0 and "\r" not in shown.stderr
