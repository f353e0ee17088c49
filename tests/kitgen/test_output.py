"""Writing into a kit folder: no temporary folder survives an interrupt, a kill, or a bad -o."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from kitgen import output
from kitgen.output import STALE_AFTER, check_output_folder, remove_stale, staged, staging_pattern
from reference_engine.errors import UsageError

ROOT = Path(__file__).resolve().parents[2]

# A child that builds into a staged folder and sleeps there until a signal arrives.
STAGED_CHILD = """
import signal, sys, time
from pathlib import Path
signal.signal(signal.SIGINT, signal.default_int_handler)  # even if the parent ignores SIGINT
from kitgen.output import staged
with staged(Path(sys.argv[1])) as work:
    (work / "cards.pdf").write_text("half a kit")
    (work / "previews").mkdir()
    print("ready", flush=True)
    time.sleep(60)
"""

# The same through the command line: `kitgen booklet` with a build that sleeps in its staged folder.
CLI_CHILD = """
import signal, sys, time
from pathlib import Path
signal.signal(signal.SIGINT, signal.default_int_handler)
import kitgen.kit
from kitgen.output import staged

def slow_build(opts, progress=None):
    with staged(Path(opts.output)) as work:
        (work / "booklet.pdf").write_text("half a booklet")
        print("ready", flush=True)
        time.sleep(60)
    return {}

kitgen.kit.build_booklet = slow_build
from kitgen.cli import main
main(["booklet", "six-card-and", "-o", sys.argv[1], "--json"])
"""


def start(script: str, destination: Path) -> subprocess.Popen[str]:
    child = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(script), str(destination)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "ready"
    return child


def leftovers(destination: Path) -> list[str]:
    return sorted(p.name for p in destination.parent.iterdir() if p.name.startswith(f".{destination.name}."))


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_during_a_build_leaves_no_temporary_folder(tmp_path: Path, signum: int) -> None:
    destination = tmp_path / "kit"
    child = start(STAGED_CHILD, destination)
    assert len(leftovers(destination)) == 1  # the build is under way in its staging folder
    child.send_signal(signum)
    child.communicate(timeout=30)
    assert child.returncode != 0
    assert leftovers(destination) == [] and not destination.exists()


def test_an_interrupted_build_keeps_the_previous_kit(tmp_path: Path) -> None:
    destination = tmp_path / "kit"
    destination.mkdir()
    (destination / "manifest.json").write_text("{}")
    child = start(STAGED_CHILD, destination)
    child.send_signal(signal.SIGTERM)
    child.communicate(timeout=30)
    assert leftovers(destination) == []
    assert sorted(p.name for p in destination.iterdir()) == ["manifest.json"]


@pytest.mark.parametrize(
    ("signum", "code", "message"),
    [(signal.SIGINT, 130, "kitgen: interrupted"), (signal.SIGTERM, 143, "kitgen: terminated")],
    ids=["SIGINT", "SIGTERM"],
)
def test_the_command_line_reports_an_interrupt_in_one_line(
    tmp_path: Path, signum: int, code: int, message: str
) -> None:
    destination = tmp_path / "booklet"
    child = start(CLI_CHILD, destination)
    child.send_signal(signum)
    _, err = child.communicate(timeout=30)
    assert child.returncode == code
    assert err.strip() == message and "Traceback" not in err
    assert leftovers(destination) == [] and not destination.exists()


def test_a_killed_build_is_cleaned_up_by_the_next_one(tmp_path: Path) -> None:
    destination = tmp_path / "kit"
    child = start(STAGED_CHILD, destination)
    child.kill()  # SIGKILL: no chance to clean up
    child.communicate(timeout=30)
    (stale,) = leftovers(destination)
    assert staging_pattern(destination).match(stale)
    with staged(destination) as work:
        assert leftovers(destination) == [work.name]  # the dead build's folder is gone
        (work / "manifest.json").write_text("{}")
    assert leftovers(destination) == [] and (destination / "manifest.json").is_file()


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_only_stale_staging_folders_of_this_destination_are_removed(tmp_path: Path) -> None:
    destination = tmp_path / "kit"
    destination.mkdir()  # (without it, a stale .old folder is the previous kit: it is put back)
    live = os.getppid()  # a process that is surely running
    dead = tmp_path / f".kit.tmp-{dead_pid()}-abc123"
    running = tmp_path / f".kit.tmp-{live}-def456"
    old_but_running = tmp_path / f".kit.old-{live}-ghi789"
    other_kit = tmp_path / f".kit2.tmp-{dead_pid()}-abc123"
    not_ours = tmp_path / ".kit.notes"
    for folder in (dead, running, old_but_running, other_kit, not_ours):
        folder.mkdir()
        (folder / "file").write_text("x")
    hours_ago = time.time() - STALE_AFTER - 60
    os.utime(old_but_running, (hours_ago, hours_ago))  # pid reused long after the build died
    removed = remove_stale(destination)
    assert sorted(p.name for p in removed) == sorted([dead.name, old_but_running.name])
    assert running.is_dir() and other_kit.is_dir() and not_ours.is_dir()


def test_staged_creates_missing_parents(tmp_path: Path) -> None:
    destination = tmp_path / "a" / "b" / "kit"
    with staged(destination) as work:
        (work / "x").write_text("x")
    assert (destination / "x").is_file() and leftovers(destination) == []


@pytest.mark.parametrize("where", ["below-a-file", "proc"])
def test_an_output_folder_that_cannot_be_created(tmp_path: Path, where: str) -> None:
    if where == "proc":
        if not Path("/proc/self").is_dir():
            pytest.skip("no /proc here")
        destination = Path("/proc/kitgen-test/kit")
    else:
        (tmp_path / "somefile").write_text("not a folder")
        destination = tmp_path / "somefile" / "kit"
    with pytest.raises(UsageError) as info:
        check_output_folder(destination)
    assert str(info.value).startswith(f"cannot create the output folder {destination}: ")
    assert info.value.exit_code == 2
    with pytest.raises(UsageError, match="cannot create the output folder"), staged(destination):
        pass


def test_a_read_only_parent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def denied(*args: object, **kwargs: object) -> str:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(output, "new_folder", denied)  # chmod would not stop root
    with pytest.raises(UsageError, match=rf"Permission denied \({tmp_path}\)"):
        check_output_folder(tmp_path / "kit")


def test_probing_the_output_folder_leaves_nothing_behind(tmp_path: Path) -> None:
    check_output_folder(tmp_path / "a" / "b" / "kit")
    assert list(tmp_path.iterdir()) == []
