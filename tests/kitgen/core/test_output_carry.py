"""A rebuild that keeps files of an earlier build it does not write again (the previews of a page
that is gone) still replaces the kit in one rename: the kept files are linked (or copied) into the
new folder first, so a build killed at any moment leaves the old kit or the new one, never a mix."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kitgen.core import output
from kitgen.core.marker import MARKER, read_marker
from kitgen.core.output import remove_stale, staged
from reference_engine.errors import UsageError

ROOT = Path(__file__).resolve().parents[3]
OLD = {"cards.pdf": b"old cards", "previews/p1.png": b"old page 1", "previews/p2.png": b"old page 2"}
NEW = {"cards.pdf": b"new cards", "previews/p1.png": b"new page 1"}


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != MARKER
    }


def leftovers(destination: Path) -> list[str]:
    return sorted(p.name for p in destination.parent.iterdir() if p.name.startswith(f".{destination.name}."))


def build(destination: Path, files: dict[str, bytes]) -> None:
    with staged(destination) as work:
        for name, data in files.items():
            (work / name).parent.mkdir(parents=True, exist_ok=True)
            (work / name).write_bytes(data)


def replaces(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Every os.replace the commit makes, as (source, destination)."""
    calls: list[tuple[str, str]] = []
    real = os.replace

    def spy(src: Any, dst: Any) -> None:
        calls.append((os.fspath(src), os.fspath(dst)))
        real(src, dst)

    monkeypatch.setattr(output.os, "replace", spy)
    return calls


def test_kept_files_go_with_the_new_kit_in_one_rename(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    destination = tmp_path / "kit"
    build(destination, OLD)
    before = os.stat(destination).st_ino
    calls = replaces(monkeypatch)
    build(destination, NEW)
    assert snapshot(destination) == {**NEW, "previews/p2.png": b"old page 2"}
    # Two renames of whole folders (the old kit aside, the new one in), no file moved one by one
    # (the other renames are the markers', written atomically inside the staging folder).
    folders = [dst for _, dst in calls if Path(dst).parent == tmp_path]
    assert len(folders) == 2 and folders[1] == str(destination)
    assert not [dst for _, dst in calls if Path(dst).parent.is_relative_to(destination)]
    assert os.stat(destination).st_ino != before and leftovers(destination) == []
    marker = read_marker(destination)
    assert marker is not None and set(marker.files) == {*NEW, "previews/p2.png"}
    assert "kept 1 file" in capsys.readouterr().err
    build(destination, OLD)  # the kept file is still kitgen's: a build that writes it replaces it
    assert snapshot(destination) == OLD


def test_where_links_cannot_be_made_kept_files_are_copied(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    destination = tmp_path / "kit"
    build(destination, OLD)

    def no_links(*args: Any, **kwargs: Any) -> None:
        raise OSError(errno.EPERM, "hard links not allowed here")

    monkeypatch.setattr(output.os, "link", no_links)
    build(destination, NEW)
    assert snapshot(destination) == {**NEW, "previews/p2.png": b"old page 2"} and leftovers(destination) == []


def test_a_race_after_taking_kept_files_along_takes_them_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When another build's rename comes between (the swap says False), what was taken along is
    put back out of the new folder, and the next look takes it along again."""
    destination = tmp_path / "kit"
    build(destination, OLD)
    real: Callable[[Path, Path], bool] = output._swap
    seen: list[dict[str, bytes]] = []

    def swap_late_once(work: Path, dest: Path) -> bool:
        if not seen:
            seen.append(snapshot(work))
            return False
        return real(work, dest)

    monkeypatch.setattr(output, "_swap", swap_late_once)
    build(destination, NEW)
    assert seen == [{**NEW, "previews/p2.png": b"old page 2"}]
    assert snapshot(destination) == {**NEW, "previews/p2.png": b"old page 2"} and leftovers(destination) == []


def test_a_new_file_where_a_kept_files_folder_is(tmp_path: Path) -> None:
    """The new build writes a file ``previews`` where the kept previews/p2.png needs a folder:
    nothing can be taken along, and the file-by-file commit refuses as before; the old kit stays."""
    destination = tmp_path / "kit"
    build(destination, OLD)
    with pytest.raises(UsageError, match="files kitgen did not write where it would write its own: previews"):
        build(destination, {"cards.pdf": b"new cards", "previews": b"a file"})
    assert snapshot(destination) == OLD and leftovers(destination) == []


# A child that takes the kept files along and is killed outright just before the first rename.
KILLED_BEFORE_RENAMES = """
import os, signal, sys
from pathlib import Path
from kitgen.core import output
real = os.replace
def replace(src, dst):
    if ".old-" in os.fspath(dst):
        (work,) = Path(src).parent.glob(".kit.tmp-*")
        if (work / "previews" / "p2.png").read_bytes() != b"old page 2":
            sys.exit(3)  # the kept file was not taken along before the renames
        os.kill(os.getpid(), signal.SIGKILL)
    real(src, dst)
output.os.replace = replace
with output.staged(Path(sys.argv[1])) as staging:
    (staging / "cards.pdf").write_bytes(b"new cards")
    (staging / "previews").mkdir()
    (staging / "previews" / "p1.png").write_bytes(b"new page 1")
"""

# The same, killed between setting the old kit aside and renaming the new one in.
KILLED_BETWEEN_RENAMES = """
import os, signal, sys
from pathlib import Path
from kitgen.core import output
real = os.replace
def replace(src, dst):
    real(src, dst)
    if ".old-" in os.fspath(dst):
        os.kill(os.getpid(), signal.SIGKILL)
output.os.replace = replace
with output.staged(Path(sys.argv[1])) as staging:
    (staging / "cards.pdf").write_bytes(b"new cards")
    (staging / "previews").mkdir()
    (staging / "previews" / "p1.png").write_bytes(b"new page 1")
"""


@pytest.mark.parametrize("child", [KILLED_BEFORE_RENAMES, KILLED_BETWEEN_RENAMES], ids=["before", "between"])
def test_a_build_killed_while_keeping_files_leaves_the_old_kit(tmp_path: Path, child: str) -> None:
    destination = tmp_path / "kit"
    build(destination, OLD)
    run = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(child), str(destination)], cwd=ROOT, timeout=60
    )
    assert run.returncode == -signal.SIGKILL
    remove_stale(destination)  # what the next build does first
    assert snapshot(destination) == OLD and leftovers(destination) == []
    build(destination, NEW)
    assert snapshot(destination) == {**NEW, "previews/p2.png": b"old page 2"}


def test_a_folder_set_aside_while_it_is_looked_at_is_looked_at_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another build sets the folder aside between the two looks (it was there, then it is not):
    the survey looks again instead of calling the folder 'not a folder' (a race the concurrent-builds
    test met on a loaded machine)."""
    destination = tmp_path / "kit"  # not there: the first look is told it was
    answers = iter([(1, 2, 3)])
    real = output._identity
    monkeypatch.setattr(output, "_identity", lambda path: next(answers, None) or real(path))
    assert output._survey(destination) == (output.Proof({}), frozenset(), [])


def test_a_folder_renamed_away_and_back_is_not_the_folder_it_was(tmp_path: Path) -> None:
    """The survey's identity of a folder changes when it is renamed, even back to the same inode
    (a folder renamed into place can be given the inode number of one removed a moment before)."""
    destination = tmp_path / "kit"
    build(destination, OLD)
    before = output._identity(destination)
    time.sleep(0.05)  # past the file system's clock tick (a few milliseconds)
    os.replace(destination, tmp_path / "aside")
    os.replace(tmp_path / "aside", destination)
    after = output._identity(destination)
    assert before is not None and after is not None and before[:2] == after[:2] and before != after
