"""Forged, copied, linked and damaged folder markers through the commands that write folders
(issue 38): a marker proves nothing on its word, and no file of a user's is deleted or
overwritten because one lists it."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kitgen.cli.main import main
from kitgen.core.marker import MARKER, read_marker

# Fast commands that write a folder (as in test_output.py).
WRITERS = {
    "build": ["build", "uno-puzzles", "--count", "2", "--no-previews"],
    "booklet": ["booklet", "six-card-and", "--no-previews"],
    "view": ["view", "six-card-and"],
}


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def write(command: str, folder: Path, *extra: str) -> tuple[int, str]:
    return cli(*WRITERS[command], "-o", str(folder), *extra)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def leftovers(destination: Path) -> list[str]:
    return sorted(p.name for p in destination.parent.iterdir() if p.name.startswith(f".{destination.name}."))


USERS = {"notes.txt": b"precious notes", "photos/cat.jpg": b"\xff\xd8 a cat"}


def users_folder(folder: Path, marker: dict[str, object] | None) -> dict[str, bytes]:
    """A folder of a user's files, with a ``.kitgen-kit`` marker someone forged (or copied)."""
    for name, data in USERS.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    if marker is not None:
        (folder / MARKER).write_text(json.dumps(marker))
    return snapshot(folder)


def forged(sums: str) -> dict[str, object]:
    data: dict[str, object] = {"written_by": "kitgen", "what": "booklet", "files": sorted(USERS)}
    if sums == "right":  # anyone can compute them
        data["sha256"] = {n: hashlib.sha256(d).hexdigest() for n, d in USERS.items()}
    elif sums == "wrong":
        data["sha256"] = {n: "0" * 64 for n in USERS}
    return data


@pytest.mark.parametrize("command", sorted(WRITERS))
@pytest.mark.parametrize("sums", ["none", "wrong", "right"])
def test_a_forged_marker_deletes_nothing(tmp_path: Path, command: str, sums: str) -> None:
    """A marker listing a user's notes.txt and photos/cat.jpg: without checksums or with wrong
    ones it proves nothing (the folder is refused; forced, the kit goes beside them). With the
    right ones the files are proven, but kitgen's build does not write them: they are kept and
    reported. Never is one of them deleted or changed."""
    folder = tmp_path / "mine"
    folder.mkdir()
    before = users_folder(folder, forged(sums))
    result = CliRunner().invoke(main, [*WRITERS[command], "-o", str(folder), "--json"])
    for name, data in USERS.items():
        assert (folder / name).read_bytes() == data
    if sums == "right":
        assert result.exit_code == 0, result.output
        assert f"kitgen: kept 2 files in {folder} that its {MARKER} lists but this build" in result.stderr
        assert "notes.txt, photos/cat.jpg" in result.stderr
    else:
        assert result.exit_code == 2
        assert "holds files kitgen did not write: notes.txt" in result.output and "photos/" in result.output
        assert snapshot(folder) == before
        code, out = write(command, folder, "--force", "--json")
        assert code == 0, out
    marker = read_marker(folder)
    assert marker is not None and set(snapshot(folder)) == {MARKER, *marker.files, *USERS}
    # ... and the next build still deletes nothing.
    assert write(command, folder, "--force", "--json")[0] == 0
    assert all((folder / name).read_bytes() == data for name, data in USERS.items())
    assert leftovers(folder) == []


def test_a_marker_that_is_a_link_is_not_written_over(tmp_path: Path) -> None:
    """A .kitgen-kit that links to a marker elsewhere proves nothing, and even a forced build
    does not replace the link (or write through it)."""
    elsewhere = tmp_path / "elsewhere"
    assert write("view", elsewhere)[0] == 0
    theirs = snapshot(elsewhere)
    folder = tmp_path / "mine"
    folder.mkdir()
    users_folder(folder, None)
    (folder / MARKER).symlink_to(elsewhere / MARKER)
    code, out = write("view", folder)
    assert code == 2 and f"did not write: {MARKER}, notes.txt, photos/;" in out
    code, out = write("view", folder, "--force")
    assert code == 2 and f"where it would write its own: {MARKER};" in out
    assert (folder / MARKER).is_symlink() and snapshot(elsewhere) == theirs
    assert {p: b for p, b in snapshot(folder).items() if p != MARKER} == USERS


def test_links_in_the_folder_to_files_outside_it_are_never_followed(tmp_path: Path) -> None:
    """previews/ a link to a folder of someone else's holding a file with the name and content
    a forged marker gives: not proven, refused, and forced the build stops (it would need to
    write a folder where the link is); the files outside are untouched."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "booklet-p001.png").write_bytes(b"their picture")
    folder = tmp_path / "kit"
    folder.mkdir()
    (folder / "previews").symlink_to(outside)
    picture = hashlib.sha256(b"their picture").hexdigest()
    marker = {
        "written_by": "kitgen",
        "files": ["previews/booklet-p001.png"],
        "sha256": {"previews/booklet-p001.png": picture},
    }
    (folder / MARKER).write_text(json.dumps(marker))
    code, out = cli("booklet", "six-card-and", "-o", str(folder))
    assert code == 2 and "did not write: previews;" in out
    code, out = cli("booklet", "six-card-and", "-o", str(folder), "--force", "--json")
    assert code == 2 and "its own: previews (a symbolic link where kitgen needs a folder);" in out
    assert (outside / "booklet-p001.png").read_bytes() == b"their picture"
    assert sorted(p.name for p in outside.iterdir()) == ["booklet-p001.png"]


def test_a_record_in_a_kit_folder_stays(tmp_path: Path) -> None:
    """kitgen play --record into a kit folder: the record is the user's there (kitgen did not
    write it as part of the kit), so the next build refuses the folder or, forced, keeps it."""
    folder = tmp_path / "kit"
    assert write("view", folder)[0] == 0
    record = folder / "game.json"
    assert cli("play", "uno", "--virtual", "2", "--level", "rule", "--record", str(record))[0] == 0
    kept = record.read_bytes()
    code, out = write("view", folder)
    assert code == 2 and "did not write: game.json;" in out
    assert write("view", folder, "--force")[0] == 0 and record.read_bytes() == kept
