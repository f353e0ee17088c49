"""The folder marker: which files in a folder kitgen can prove it wrote (by their checksums), and
what else is there."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from kitgen.core.marker import MARKER, MAX_MARKER, Marker, proof, read_marker, written_files
from kitgen.core.output import claimed, describe, foreign, why


def kit(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)


def test_a_marker_lists_exactly_the_files_written(tmp_path: Path) -> None:
    kit(tmp_path, {"cards.pdf": "x", "previews/cards-p001.png": "y", "view/a.html": "z"})
    marker = Marker.of(tmp_path, "kit", "uno")
    marker.write(tmp_path)
    assert marker.files == ("cards.pdf", "previews/cards-p001.png", "view/a.html")
    assert read_marker(tmp_path) == marker
    data = json.loads((tmp_path / MARKER).read_text())
    assert data["sha256"]["cards.pdf"] == hashlib.sha256(b"x").hexdigest()
    assert written_files(tmp_path) == marker.files  # the marker is not one of the kit's files
    assert claimed(tmp_path) == {*marker.files, MARKER}
    assert foreign(tmp_path, claimed(tmp_path)) == []


def test_anything_not_listed_is_foreign(tmp_path: Path) -> None:
    kit(tmp_path, {"cards.pdf": "x", "previews/cards-p001.png": "y"})
    Marker.of(tmp_path, "kit", "uno").write(tmp_path)
    kit(tmp_path, {"previews/mine.png": "m", "photos/cat.jpg": "c"})
    (tmp_path / "empty").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "cards.pdf")
    os.mkfifo(tmp_path / "pipe")
    own = claimed(tmp_path)
    assert foreign(tmp_path, own, limit=100) == ["empty/", "link", "photos/", "pipe", "previews/mine.png"]
    assert foreign(tmp_path, own, limit=2) == ["empty/", "link"]


def test_a_listed_name_that_is_a_link_or_a_folder_is_foreign(tmp_path: Path) -> None:
    kit(tmp_path, {"cards.pdf": "x", "labels.pdf": "y"})
    Marker.of(tmp_path, "kit", "uno").write(tmp_path)
    (tmp_path / "cards.pdf").unlink()
    (tmp_path / "cards.pdf").symlink_to("/etc/passwd")
    (tmp_path / "labels.pdf").unlink()
    (tmp_path / "labels.pdf").mkdir()
    assert foreign(tmp_path, claimed(tmp_path)) == ["cards.pdf", "labels.pdf/"]


@pytest.mark.parametrize(
    "files",
    [["../outside.txt"], ["/etc/passwd"], ["a/./b"], ["a//b"], [""], [3], "cards.pdf", ["a\\b"]],
)
def test_a_marker_with_unusable_paths_proves_nothing(tmp_path: Path, files: object) -> None:
    kit(tmp_path, {"cards.pdf": "x"})
    (tmp_path / MARKER).write_text(json.dumps({"written_by": "kitgen", "files": files}))
    assert read_marker(tmp_path) is None
    assert foreign(tmp_path, claimed(tmp_path)) == [MARKER, "cards.pdf"]


@pytest.mark.parametrize(
    "text", ["", "not json", "[]", '{"files": ["cards.pdf"]}', "[" * 100_000 + "]" * 100_000]
)
def test_a_damaged_marker_proves_nothing(tmp_path: Path, text: str) -> None:
    kit(tmp_path, {"cards.pdf": "x"})
    (tmp_path / MARKER).write_text(text)
    assert read_marker(tmp_path) is None and claimed(tmp_path) == frozenset()


def test_a_marker_that_is_a_fifo_is_not_read(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / MARKER)  # opening it for reading would wait for a writer
    assert read_marker(tmp_path) is None


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_a_folder_of_an_older_kitgen(tmp_path: Path) -> None:
    files = [{"path": "cards.pdf", "sha256": sha("x")}, {"path": "previews/p1.png", "sha256": sha("y")}]
    manifest = {"kit": "uno", "kitgen": "0.1", "files": files}
    kit(tmp_path, {"cards.pdf": "x", "previews/p1.png": "y", "manifest.json": json.dumps(manifest)})
    assert claimed(tmp_path) == {"cards.pdf", "previews/p1.png", "manifest.json"}
    (tmp_path / "cards.pdf").write_text("my own cards")  # changed since: no longer proven
    assert claimed(tmp_path) == {"previews/p1.png", "manifest.json"}
    no_sums = {**manifest, "files": [{"path": "cards.pdf"}, {"path": "previews/p1.png"}]}
    (tmp_path / "manifest.json").write_text(json.dumps(no_sums))
    assert claimed(tmp_path) == {"manifest.json"}  # a manifest without checksums proves only itself
    hostile = {**manifest, "files": [{"path": "../../etc/passwd"}]}
    (tmp_path / "manifest.json").write_text(json.dumps(hostile))
    assert claimed(tmp_path) == frozenset()
    (tmp_path / "manifest.json").write_text(json.dumps({"name": "a web app", "files": ["cards.pdf"]}))
    assert claimed(tmp_path) == frozenset()


def test_describe_names_a_few() -> None:
    assert describe(["a", "b/"]) == "a, b/"
    assert describe([str(i) for i in range(6)]) == "0, 1, 2, 3, 4 and more"


def test_a_file_changed_since_kitgen_wrote_it_is_not_kitgens(tmp_path: Path) -> None:
    kit(tmp_path, {"cards.pdf": "x", "printing-guide.txt": "print it"})
    Marker.of(tmp_path, "kit", "uno").write(tmp_path)
    (tmp_path / "printing-guide.txt").write_text("print it, with my notes")
    own = claimed(tmp_path)
    assert own == {MARKER, "cards.pdf"}
    assert why(foreign(tmp_path, own), proof(tmp_path)) == [
        "printing-guide.txt (changed since kitgen wrote it)"
    ]


def test_a_marker_without_checksums_proves_nothing_it_lists(tmp_path: Path) -> None:
    """A marker of an older kitgen (or a forged one) lists files without checksums: kitgen
    trusts none of them; the marker itself is replaced."""
    kit(tmp_path, {"notes.txt": "precious", "photos/cat.jpg": "a cat"})
    old = {"written_by": "kitgen", "what": "kit", "name": "uno", "files": ["notes.txt", "photos/cat.jpg"]}
    (tmp_path / MARKER).write_text(json.dumps(old))
    marker = read_marker(tmp_path)
    assert marker is not None and marker.files == ("notes.txt", "photos/cat.jpg") and not marker.sums
    own = claimed(tmp_path)
    assert own == {MARKER}
    assert why(foreign(tmp_path, own), proof(tmp_path)) == [
        "notes.txt (listed in .kitgen-kit without a checksum)",
        "photos/",
    ]


def test_a_forged_marker_with_wrong_checksums_proves_nothing(tmp_path: Path) -> None:
    kit(tmp_path, {"notes.txt": "precious", "photos/cat.jpg": "a cat"})
    forged = {
        "written_by": "kitgen",
        "files": ["notes.txt", "photos/cat.jpg"],
        "sha256": {"notes.txt": "0" * 64, "photos/cat.jpg": ["1" * 64, "2" * 64]},
    }
    (tmp_path / MARKER).write_text(json.dumps(forged))
    assert claimed(tmp_path) == {MARKER}
    assert foreign(tmp_path, claimed(tmp_path)) == ["notes.txt", "photos/"]


@pytest.mark.parametrize(
    "sums",
    [
        {"cards.pdf": "not a checksum"},
        {"cards.pdf": "A" * 64},  # (checksums are written in lower case)
        {"cards.pdf": []},
        {"cards.pdf": 3},
        {"other.pdf": "0" * 64},  # a checksum of a file the marker does not list
        ["0" * 64],
        "0" * 64,
    ],
)
def test_a_marker_with_unusable_checksums_proves_nothing(tmp_path: Path, sums: object) -> None:
    kit(tmp_path, {"cards.pdf": "x"})
    data = {"written_by": "kitgen", "files": ["cards.pdf"], "sha256": sums}
    (tmp_path / MARKER).write_text(json.dumps(data))
    assert read_marker(tmp_path) is None and claimed(tmp_path) == frozenset()


def test_a_marker_that_is_a_link_or_huge_proves_nothing(tmp_path: Path) -> None:
    kit(tmp_path, {"cards.pdf": "x"})
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    Marker.of(tmp_path, "kit", "uno").write(elsewhere)  # a good marker, but not this folder's own file
    (tmp_path / MARKER).symlink_to(elsewhere / MARKER)
    assert read_marker(tmp_path) is None and claimed(tmp_path) == frozenset()
    (tmp_path / MARKER).unlink()
    with (tmp_path / MARKER).open("wb") as fh:
        fh.truncate(MAX_MARKER + 1)  # (sparse: no disk used)
    assert read_marker(tmp_path) is None and claimed(tmp_path) == frozenset()


def test_a_listed_file_behind_a_linked_folder_is_not_proven(tmp_path: Path) -> None:
    """previews/ replaced by a link to a folder of someone else's that happens to hold a file
    with the right name and content: kitgen's file is the one in its own folder, not that."""
    kit(tmp_path, {"previews/p1.png": "y"})
    Marker.of(tmp_path, "kit", "uno").write(tmp_path)
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    kit(outside, {"p1.png": "y"})
    (tmp_path / "previews" / "p1.png").unlink()
    (tmp_path / "previews").rmdir()
    (tmp_path / "previews").symlink_to(outside)
    assert claimed(tmp_path) == {MARKER}
    assert foreign(tmp_path, claimed(tmp_path)) == ["previews"]
