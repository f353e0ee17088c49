"""Writing into a kit folder: only into kitgen's own, with the user's umask; no temporary folder
survives an interrupt, a kill, a concurrent build, or a bad -o."""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kitgen.cli.main import main
from kitgen.core import output
from kitgen.core.marker import MARKER, Marker, read_marker
from kitgen.core.output import STALE_AFTER, check_output_folder, remove_stale, staged, staging_pattern
from reference_engine.errors import UsageError

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests" / "kitgen"))

import forkserver  # noqa: E402

KITGEN_SCRIPT = ROOT / "tests" / "kitgen" / "mutants.py"  # its kitgen_main: `kitgen ARGS`

# A child that builds into a staged folder and sleeps there until a signal arrives.
STAGED_CHILD = """
import signal, sys, time
from pathlib import Path
signal.signal(signal.SIGINT, signal.default_int_handler)  # even if the parent ignores SIGINT
from kitgen.core.output import staged
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
import kitgen.kit.build
from kitgen.core.output import staged

def slow_build(opts, progress=None):
    with staged(Path(opts.output)) as work:
        (work / "booklet.pdf").write_text("half a booklet")
        print("ready", flush=True)
        time.sleep(60)
    return {}

kitgen.kit.build.build_booklet = slow_build
from kitgen.cli.main import main
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


def test_a_probe_left_by_a_killed_build_is_removed_by_the_next_one(tmp_path: Path) -> None:
    """A build killed between making and removing the empty folder with which it checks that the
    destination can be made (found by the part-way kill test: ``.kit.probe-...`` was left for
    good) leaves it to the next build; one that something was put in is left alone."""
    destination = tmp_path / "kit"
    empty = tmp_path / f".kit.probe-{dead_pid()}-0a1b2c"
    full = tmp_path / f".kit.probe-{dead_pid()}-3d4e5f"
    empty.mkdir()
    full.mkdir()
    (full / "notes.txt").write_text("mine")
    assert staging_pattern(destination).match(empty.name)
    assert remove_stale(destination) == [empty]
    assert not empty.exists() and (full / "notes.txt").read_text() == "mine"
    check_output_folder(destination)  # its own probe is gone when it returns
    assert leftovers(destination) == [full.name]


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
    Marker.of(old_but_running, "kit", "kit").write(old_but_running)  # a previous kit, proven
    hours_ago = time.time() - STALE_AFTER - 60
    os.utime(old_but_running, (hours_ago, hours_ago))  # pid reused long after the build died
    removed = remove_stale(destination)
    assert sorted(p.name for p in removed) == sorted([dead.name, old_but_running.name])
    assert running.is_dir() and other_kit.is_dir() and not_ours.is_dir()


def test_a_stale_previous_kit_holding_other_files_is_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A previous kit set aside (``.kit.old-...``) by a build that then died is removed file by
    file: what kitgen cannot prove it wrote is kept, in a folder named so a person sees it."""
    destination = tmp_path / "kit"
    destination.mkdir()
    old = tmp_path / f".kit.old-{dead_pid()}-abc123"
    old.mkdir()
    (old / "cards.pdf").write_text("kitgen's")
    Marker.of(old, "kit", "kit").write(old)
    (old / "notes.txt").write_text("precious")
    assert remove_stale(destination) == []
    (kept,) = (p for p in tmp_path.iterdir() if p.name.startswith("kit.kept-"))
    assert sorted(p.name for p in kept.iterdir()) == ["notes.txt"] and not old.exists()
    assert f"kept {kept}" in capsys.readouterr().err


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


# --------------------------------------------------------------------------- whose folder it is

# Fast commands that write a folder, and the files each writes there (with the folder's marker).
WRITERS = {
    "build": (["build", "uno-puzzles", "--count", "2", "--no-previews"], "puzzles.pdf"),
    "booklet": (["booklet", "six-card-and", "--no-previews"], "booklet.pdf"),
    "view": (["view", "six-card-and"], "index.html"),
}


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def write(command: str, folder: Path, *extra: str) -> tuple[int, str]:
    return cli(*WRITERS[command][0], "-o", str(folder), *extra)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


@pytest.mark.parametrize("command", sorted(WRITERS))
def test_a_folder_with_files_kitgen_did_not_write_is_refused(tmp_path: Path, command: str) -> None:
    # A web app's folder: its manifest.json is not a kit's.
    app = tmp_path / "app"
    app.mkdir()
    (app / "manifest.json").write_text('{"name": "my app", "start_url": "/"}')
    (app / "notes.txt").write_text("precious")
    before = snapshot(app)
    code, out = write(command, app)
    assert code == 2
    assert out.strip() == (
        f"Error (usage): {app} holds files kitgen did not write: manifest.json, notes.txt; "
        "choose an empty folder or --force"
    )
    assert snapshot(app) == before and leftovers(app) == []


@pytest.mark.parametrize("command", sorted(WRITERS))
def test_kitgens_own_folder_is_rebuilt(tmp_path: Path, command: str) -> None:
    folder = tmp_path / "out"
    folder.mkdir()  # an empty folder is as good as a new one
    assert write(command, folder)[0] == 0
    marker = read_marker(folder)
    assert marker is not None and marker.what == command.replace("build", "kit")
    assert list(marker.files) == sorted(p for p in snapshot(folder) if p != MARKER)
    first = snapshot(folder)
    inode = folder.stat().st_ino
    code, out = write(command, folder)
    assert code == 0, out
    assert snapshot(folder) == first and leftovers(folder) == []
    assert folder.stat().st_ino != inode  # replaced whole, as one folder


@pytest.mark.parametrize("command", sorted(WRITERS))
def test_a_file_changed_since_kitgen_wrote_it_is_kept(tmp_path: Path, command: str) -> None:
    """An edited file of a kit is the user's now: the next build refuses the folder, and even
    forced it does not write over it (it would lose the edits); nothing is changed."""
    folder = tmp_path / "out"
    assert write(command, folder)[0] == 0
    name = WRITERS[command][1]
    (folder / name).write_bytes(b"my edits")
    before = snapshot(folder)
    code, out = write(command, folder)
    assert code == 2
    assert f"holds files kitgen did not write: {name} (changed since kitgen wrote it);" in out
    code, out = write(command, folder, "--force", "--json")
    assert code == 2 and "where it would write its own" in out and "--force never replaces them" in out
    assert snapshot(folder) == before and leftovers(folder) == []
    (folder / name).unlink()  # the user gives it up: the folder is kitgen's again
    code, out = write(command, folder)
    assert code == 0, out


@pytest.mark.parametrize("command", sorted(WRITERS))
def test_a_file_added_to_a_kit_stops_the_next_build(tmp_path: Path, command: str) -> None:
    folder = tmp_path / "out"
    assert write(command, folder)[0] == 0
    (folder / "sub").mkdir()
    (folder / "sub" / "mine.txt").write_text("mine")
    code, out = write(command, folder)
    assert code == 2 and "holds files kitgen did not write: sub/;" in out
    assert (folder / "sub" / "mine.txt").read_text() == "mine"


@pytest.mark.parametrize("command", sorted(WRITERS))
def test_force_writes_beside_other_files_and_never_over_them(tmp_path: Path, command: str) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "notes.txt").write_text("precious")
    code, out = write(command, folder, "--force")
    assert code == 0, out
    marker = read_marker(folder)
    assert marker is not None and "notes.txt" not in marker.files
    assert (folder / "notes.txt").read_text() == "precious"
    assert set(snapshot(folder)) == {*marker.files, MARKER, "notes.txt"}
    # Without --force the folder is still refused: it holds a file kitgen did not write.
    assert write(command, folder)[0] == 2
    assert (folder / "notes.txt").read_text() == "precious" and leftovers(folder) == []


@pytest.mark.parametrize("command", sorted(WRITERS))
def test_force_never_writes_over_a_file_kitgen_did_not_write(tmp_path: Path, command: str) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    theirs = folder / WRITERS[command][1]
    theirs.write_text("theirs")
    code, out = write(command, folder, "--force", "--json")  # (no progress lines)
    assert code == 2
    assert out.strip() == (
        f"Error (usage): {folder} holds files kitgen did not write where it would write its own: "
        f"{theirs.name}; --force never replaces them, choose another folder"
    )
    assert snapshot(folder) == {theirs.name: b"theirs"} and leftovers(folder) == []


def test_force_replaces_only_kitgens_own_files_and_keeps_earlier_ones(tmp_path: Path) -> None:
    """A proven file of an earlier build that this build does not write (the previews, after
    --no-previews) is kept and reported, and stays listed as kitgen's: the next build with
    previews replaces it."""
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "notes.txt").write_text("precious")
    (folder / "previews").mkdir()
    (folder / "previews" / "mine.png").write_bytes(b"my picture")
    assert cli("booklet", "six-card-and", "-o", str(folder), "--force")[0] == 0
    with_previews = read_marker(folder)
    assert with_previews is not None and "previews/booklet-p001.png" in with_previews.files
    previews = {f: b for f, b in snapshot(folder).items() if f.startswith("previews/booklet-")}
    result = CliRunner().invoke(
        main, ["booklet", "six-card-and", "-o", str(folder), "--force", "--no-previews"]
    )
    assert result.exit_code == 0, result.output
    assert "kitgen: kept " in result.stderr and "previews/booklet-p001.png" in result.stderr
    marker = read_marker(folder)
    assert marker is not None and set(marker.files) == {
        "booklet.json",
        "booklet.pdf",
        "manifest.json",
        *previews,
    }
    assert set(snapshot(folder)) == {MARKER, "notes.txt", "previews/mine.png", *marker.files}
    assert (folder / "previews" / "mine.png").read_bytes() == b"my picture"
    assert {f: snapshot(folder)[f] for f in previews} == previews
    assert cli("booklet", "six-card-and", "-o", str(folder), "--force")[0] == 0  # written again


def test_a_view_never_overwrites_someone_elses_index_html(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<h1>my site</h1>")
    assert write("view", site)[0] == 2
    assert write("view", site, "--force")[0] == 2
    assert (site / "index.html").read_text() == "<h1>my site</h1>"


def test_a_file_that_appears_during_the_build_stops_it(tmp_path: Path) -> None:
    destination = tmp_path / "kit"
    with staged(destination) as work:
        (work / "cards.pdf").write_text("old kit")
    with (
        pytest.raises(UsageError, match=r"holds files kitgen did not write: late\.txt;"),
        staged(destination) as work,
    ):
        (work / "cards.pdf").write_text("new kit")
        (destination / "late.txt").write_text("written while the kit was being built")
    assert snapshot(destination) == {
        MARKER: (destination / MARKER).read_bytes(),
        "cards.pdf": b"old kit",
        "late.txt": b"written while the kit was being built",
    }
    assert leftovers(destination) == []


def test_a_kit_of_an_older_kitgen_is_recognised_by_its_manifest(tmp_path: Path) -> None:
    folder = tmp_path / "old-kit"
    assert cli("booklet", "six-card-and", "-o", str(folder))[0] == 0
    (folder / MARKER).unlink()  # as an older kitgen left it: manifest.json, no marker
    code, out = cli("booklet", "six-card-and", "-o", str(folder), "--no-previews")
    assert code == 0, out
    assert (folder / MARKER).is_file()
    marker = read_marker(folder)  # the previews (proven by the manifest's checksums) are kept
    assert marker is not None and "previews/booklet-p001.png" in marker.files
    assert set(snapshot(folder)) == {MARKER, *marker.files}
    # ... but only the files its manifest lists (and the manifest) are taken as kitgen's: not
    # the kept previews, which this manifest does not list, nor anything else.
    (folder / MARKER).unlink()
    (folder / "notes.txt").write_text("precious")
    code, out = cli("booklet", "six-card-and", "-o", str(folder))
    assert code == 2 and "holds files kitgen did not write: notes.txt, previews/;" in out


def test_a_folder_with_a_marker_of_an_older_kitgen(tmp_path: Path) -> None:
    """A marker without checksums proves nothing it lists; a kit's or booklet's manifest still
    proves its files (by their checksums), so such a folder is rebuilt as before."""
    folder = tmp_path / "kit"
    assert cli("booklet", "six-card-and", "-o", str(folder), "--no-previews")[0] == 0
    data = json.loads((folder / MARKER).read_text())
    del data["sha256"]
    (folder / MARKER).write_text(json.dumps(data))
    code, out = cli("booklet", "six-card-and", "-o", str(folder), "--no-previews")
    assert code == 0, out
    marker = read_marker(folder)
    assert marker is not None and marker.sums  # checksums again
    data = json.loads((folder / MARKER).read_text())
    del data["sha256"]
    data["files"].append("notes.txt")  # listed, without a checksum: not proven
    (folder / MARKER).write_text(json.dumps(data))
    (folder / "notes.txt").write_text("precious")
    code, out = cli("booklet", "six-card-and", "-o", str(folder), "--no-previews")
    assert code == 2 and "notes.txt (listed in .kitgen-kit without a checksum)" in out
    assert (folder / "notes.txt").read_text() == "precious"


def test_a_viewer_folder_of_an_older_kitgen_is_recognised_by_its_page(tmp_path: Path) -> None:
    folder = tmp_path / "view"
    assert write("view", folder)[0] == 0
    (folder / MARKER).unlink()
    assert write("view", folder)[0] == 0
    (folder / MARKER).unlink()
    (folder / "index.html").write_text("<!DOCTYPE html><title>someone's page</title>")
    assert write("view", folder)[0] == 2


def test_a_linked_output_folder_is_written_through_the_link(tmp_path: Path) -> None:
    real = tmp_path / "real"
    link = tmp_path / "link"
    real.mkdir()
    link.symlink_to(real)
    for _ in range(2):
        code, out = cli("booklet", "six-card-and", "-o", str(link), "--no-previews")
        assert code == 0, out
    assert link.is_symlink() and (real / "booklet.pdf").is_file() and leftovers(real) == []


@pytest.mark.parametrize("mask", [0o022, 0o027])
@pytest.mark.parametrize("command", sorted(WRITERS))
def test_folders_and_files_get_the_users_umask(tmp_path: Path, command: str, mask: int) -> None:
    folder = tmp_path / "out"
    old = os.umask(mask)
    try:
        args = [a for a in WRITERS[command][0] if a != "--no-previews"]
        code, out = cli(*args, "-o", str(folder))
    finally:
        os.umask(old)
    assert code == 0, out
    modes = {
        p.relative_to(tmp_path).as_posix(): p.stat().st_mode & 0o777 for p in [folder, *folder.rglob("*")]
    }
    want = {p: (0o777 if (tmp_path / p).is_dir() else 0o666) & ~mask for p in modes}
    assert modes == want and (folder / MARKER).is_file()


# --------------------------------------------------------------------------- what held up

A_KIT = ["booklet", "six-card-and"]  # with previews: long enough to be killed half-way


def kitgen_child(folder: Path, *extra: str) -> Any:
    """``kitgen booklet six-card-and -o FOLDER --json`` in a process of its own, forked from one
    that imported kitgen once (tests/kitgen/forkserver.py): Popen's send_signal, wait and
    communicate (text), without a second of CPU importing kitgen before the build starts."""
    args = [*A_KIT, "-o", str(folder), "--json", *extra]
    return forkserver.start(KITGEN_SCRIPT, "kitgen_main", [args], dict(os.environ), ROOT, stderr=True)


@pytest.fixture(scope="module")
def two_kits(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], dict[str, bytes], float]:
    """The old kit (Letter, no previews) and the new one (A4), as files, and how long a build takes.
    The old kit has no previews, so the two kits differ in every file and the new one writes again
    every file of the old (kept files of an earlier build go along in the same rename:
    test_output_carry.py)."""
    base = tmp_path_factory.mktemp("two-kits")
    assert cli(*A_KIT, "-o", str(base / "old"), "--paper", "letter", "--no-previews")[0] == 0
    start = time.monotonic()
    child = kitgen_child(base / "new")
    assert child.wait(timeout=300) == 0
    return snapshot(base / "old"), snapshot(base / "new"), time.monotonic() - start


def install(kit: dict[str, bytes], folder: Path) -> None:
    shutil.rmtree(folder, ignore_errors=True)
    for name, data in kit.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
@pytest.mark.parametrize("fraction", [0.15, 0.5, 0.85])
def test_a_build_killed_part_way_leaves_the_old_kit_or_the_new_one(
    tmp_path: Path, two_kits: tuple[dict[str, bytes], dict[str, bytes], float], fraction: float, signum: int
) -> None:
    old, new, seconds = two_kits
    assert old != new
    folder = tmp_path / "kit"
    install(old, folder)
    child = kitgen_child(folder)
    time.sleep(seconds * fraction)
    child.send_signal(signum)
    child.communicate(timeout=60)
    assert snapshot(folder) in (old, new)  # byte for byte one kit or the other, never a mix
    if signum == signal.SIGTERM:
        assert leftovers(folder) == []  # SIGTERM leaves nothing behind
    assert cli(*A_KIT, "-o", str(folder))[0] == 0
    assert snapshot(folder) == new and leftovers(folder) == []  # the next build cleans up


# A child that is killed outright between setting the old kit aside and renaming the new one in.
KILLED_BETWEEN_RENAMES = """
import os, signal, sys
from pathlib import Path
from kitgen.core.output import staged
real = os.replace
def replace(src, dst):
    real(src, dst)
    if ".old-" in os.fspath(dst):
        os.kill(os.getpid(), signal.SIGKILL)
os.replace = replace
with staged(Path(sys.argv[1])) as work:
    (work / "cards.pdf").write_text("new kit")
"""


def test_a_build_killed_between_its_two_renames_gets_the_old_kit_back(tmp_path: Path) -> None:
    destination = tmp_path / "kit"
    with staged(destination) as work:
        (work / "cards.pdf").write_text("old kit")
    old = snapshot(destination)
    child = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(KILLED_BETWEEN_RENAMES), str(destination)],
        cwd=ROOT,
        timeout=60,
    )
    assert child.returncode == -signal.SIGKILL
    assert not destination.exists() and len(leftovers(destination)) == 2  # .old and .tmp
    remove_stale(destination)
    assert snapshot(destination) == old and leftovers(destination) == []


# A child that commits many kits into one folder, each a pair of files with the same token.
RACER = """
import sys
from pathlib import Path
from kitgen.core.output import staged
for i in range(int(sys.argv[2])):
    with staged(Path(sys.argv[1])) as work:
        token = f"{sys.argv[3]}-{i}"
        (work / "a.txt").write_text(token)
        (work / "previews").mkdir()
        (work / "previews" / "b.txt").write_text(token)
"""


def test_concurrent_builds_into_one_folder_leave_a_complete_kit(tmp_path: Path) -> None:
    destination = tmp_path / "kit"
    children = [
        subprocess.Popen(
            [sys.executable, "-c", textwrap.dedent(RACER), str(destination), "25", name],
            cwd=ROOT,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in ("first", "second", "third")
    ]
    for child in children:
        _, err = child.communicate(timeout=120)
        assert child.returncode == 0, err
    files = snapshot(destination)
    assert set(files) == {MARKER, "a.txt", "previews/b.txt"}
    assert files["a.txt"] == files["previews/b.txt"]
    assert leftovers(destination) == []


def test_a_kit_arriving_while_the_previous_one_is_put_back_is_replaced_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The race CI's concurrent builds hit once (stop 49): our rename into place fails because
    another build's kit came in between; putting the previous kit back then meets a third one
    arriving just before (``lexists`` said no): the previous kit is discarded, not an OSError,
    and the build tries again and ends with its own kit, nothing left over."""
    destination = tmp_path / "kit"
    for folder, token in ((destination, "old"), (tmp_path / "racer", "racer")):
        with staged(folder) as work:
            (work / "a.txt").write_text(token)
    real = os.replace
    calls: list[str] = []

    def replace(src: Any, dst: Any) -> None:
        name = Path(src).name
        if Path(dst) == destination:
            calls.append(name)
            if name.startswith(".kit.tmp-") and len(calls) == 1:  # ours: another build came first
                raise OSError(errno.ENOTEMPTY, "Directory not empty", str(dst))
            if name.startswith(".kit.old-") and len(calls) == 2:  # put back: a racer lands first
                real(tmp_path / "racer", dst)
        real(src, dst)

    monkeypatch.setattr(output.os, "replace", replace)
    with staged(destination) as work:
        (work / "a.txt").write_text("ours")
    assert len(calls) >= 3 and (destination / "a.txt").read_text() == "ours"
    assert leftovers(destination) == [] and not (tmp_path / "racer").exists()


def test_concurrent_booklets_into_one_folder(
    tmp_path: Path, two_kits: tuple[dict[str, bytes], dict[str, bytes], float]
) -> None:
    _, new, _ = two_kits
    folder = tmp_path / "kit"
    children = [kitgen_child(folder) for _ in range(2)]
    for child in children:
        _, err = child.communicate(timeout=300)
        assert child.returncode == 0, err
    assert snapshot(folder) == new and leftovers(folder) == []


def read_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder below which nothing can be made, as on a read-only file system (chmod would
    not stop root)."""
    root = tmp_path / "ro"
    root.mkdir()
    real = os.mkdir

    def mkdir(path: Any, mode: int = 0o777, *args: Any, **kwargs: Any) -> None:
        if os.fspath(path).startswith(str(root)):
            raise OSError(errno.EROFS, "Read-only file system", os.fspath(path))
        real(path, mode, *args, **kwargs)

    monkeypatch.setattr(os, "mkdir", mkdir)
    return root


@pytest.mark.parametrize("command", sorted(WRITERS))
@pytest.mark.parametrize("where", ["kit", "a/b/kit"])
def test_a_read_only_file_system(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str, where: str
) -> None:
    root = read_only(tmp_path, monkeypatch)
    code, out = write(command, root / where)
    assert code == 2
    assert out.startswith(
        f"Error (usage): cannot create the output folder {root / where}: Read-only file system"
    )
    assert len(out.splitlines()) == 1 and list(root.iterdir()) == []


@pytest.mark.parametrize("command", sorted(WRITERS))
def test_a_full_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str) -> None:
    folder = tmp_path / "kit"
    assert write(command, folder)[0] == 0
    before = snapshot(folder)
    real = Path.write_text

    def full(self: Path, *args: Any, **kwargs: Any) -> int:
        if self.name in ("manifest.json", "index.html"):
            raise OSError(errno.ENOSPC, "No space left on device", str(self))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", full)
    code, out = write(command, folder, "--json")  # (no progress lines)
    name = "manifest.json" if command == "booklet" else "index.html"  # the first of them it writes
    assert code == 2
    assert out.strip() == f"Error (render): cannot write {folder / name}: No space left on device"
    assert snapshot(folder) == before and leftovers(folder) == []


@pytest.mark.parametrize("command", sorted(WRITERS))
@pytest.mark.parametrize("where", ["proc", "sys", "below-a-file"])
def test_an_impossible_output_folder_is_one_line(tmp_path: Path, command: str, where: str) -> None:
    if where == "below-a-file":
        (tmp_path / "somefile").write_text("x")
        folder = tmp_path / "somefile" / "kit"
    else:
        if not Path(f"/{where}/self" if where == "proc" else f"/{where}/kernel").exists():
            pytest.skip(f"no /{where} here")
        folder = Path(f"/{where}/kitgen-test/kit")
    code, out = write(command, folder)
    assert code == 2 and len(out.splitlines()) == 1 and "Traceback" not in out
    assert out.startswith(f"Error (usage): cannot create the output folder {folder}: ")


def test_the_current_folder_is_updated_in_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`-o .` (or a folder above the current one) is not replaced but updated file by file, so a
    shell in it is not left in a removed folder."""
    folder = tmp_path / "kit"
    folder.mkdir()
    monkeypatch.chdir(folder)
    inode = os.stat(".").st_ino
    for extra in ([], ["--no-previews"]):
        code, out = cli("booklet", "six-card-and", "-o", ".", *extra)
        assert code == 0, out
        assert os.stat(os.getcwd()).st_ino == inode == folder.stat().st_ino
    marker = read_marker(folder)
    assert marker is not None and set(snapshot(folder)) == {MARKER, *marker.files}
    assert (folder / "previews").is_dir() and leftovers(folder) == []  # kept, not deleted
    (folder / "notes.txt").write_text("mine")
    assert cli("booklet", "six-card-and", "-o", ".")[0] == 2


def test_the_one_entry_point_checks_stages_commits_and_refuses(tmp_path: Path) -> None:
    """``OutputFolder``: refused with the reason before anything is written, else staged and
    committed in place with its marker; a folder that gains a stranger meanwhile is refused."""
    taken = tmp_path / "taken"
    taken.mkdir()
    (taken / "notes.txt").write_text("mine")
    with pytest.raises(UsageError, match=r"holds files kitgen did not write: notes\.txt; choose an empty"):
        output.OutputFolder.check(taken)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken"]  # nothing staged
    kit = output.OutputFolder.check(tmp_path / "kit")
    with kit.staged("demo", "kit") as work:
        (work / "cards.pdf").write_bytes(b"%PDF")
    marker = read_marker(tmp_path / "kit")
    assert marker is not None and marker.files == ("cards.pdf",) and marker.name == "demo"
    late = output.OutputFolder.check(tmp_path / "late")
    with pytest.raises(UsageError, match="did not write"), late.staged() as work:
        (tmp_path / "late").mkdir()
        (tmp_path / "late" / "theirs.txt").write_text("x")
        (work / "a.txt").write_text("a")
    assert (tmp_path / "late" / "theirs.txt").read_text() == "x"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kit", "late", "taken"]
