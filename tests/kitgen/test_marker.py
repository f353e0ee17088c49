"""The folder marker: which files in a folder kitgen wrote, and what else is there."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from kitgen.marker import MARKER, Marker, claimed, describe, foreign, read_marker, written_files


def kit(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)


def test_a_marker_lists_exactly_the_files_written(tmp_path: Path) -> None:
    kit(tmp_path, {"cards.pdf": "x", "previews/cards-p001.png": "y", "view/a.html": "z"})
    marker = Marker("kit", "uno", written_files(tmp_path))
    marker.write(tmp_path)
    assert marker.files == ("cards.pdf", "previews/cards-p001.png", "view/a.html")
    assert read_marker(tmp_path) == marker
    assert written_files(tmp_path) == marker.files  # the marker is not one of the kit's files
    assert claimed(tmp_path) == {*marker.files, MARKER}
    assert foreign(tmp_path, claimed(tmp_path)) == []


def test_anything_not_listed_is_foreign(tmp_path: Path) -> None:
    kit(tmp_path, {"cards.pdf": "x", "previews/cards-p001.png": "y"})
    Marker("kit", "uno", written_files(tmp_path)).write(tmp_path)
    kit(tmp_path, {"previews/mine.png": "m", "photos/cat.jpg": "c"})
    (tmp_path / "empty").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "cards.pdf")
    os.mkfifo(tmp_path / "pipe")
    own = claimed(tmp_path)
    assert foreign(tmp_path, own, limit=100) == ["empty/", "link", "photos/", "pipe", "previews/mine.png"]
    assert foreign(tmp_path, own, limit=2) == ["empty/", "link"]


def test_a_listed_name_that_is_a_link_or_a_folder_is_foreign(tmp_path: Path) -> None:
    kit(tmp_path, {"cards.pdf": "x", "labels.pdf": "y"})
    Marker("kit", "uno", written_files(tmp_path)).write(tmp_path)
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


def test_a_folder_of_an_older_kitgen(tmp_path: Path) -> None:
    manifest = {"kit": "uno", "kitgen": "0.1", "files": [{"path": "cards.pdf"}, {"path": "previews/p1.png"}]}
    kit(tmp_path, {"cards.pdf": "x", "previews/p1.png": "y", "manifest.json": json.dumps(manifest)})
    assert claimed(tmp_path) == {"cards.pdf", "previews/p1.png", "manifest.json"}
    hostile = {**manifest, "files": [{"path": "../../etc/passwd"}]}
    (tmp_path / "manifest.json").write_text(json.dumps(hostile))
    assert claimed(tmp_path) == frozenset()
    (tmp_path / "manifest.json").write_text(json.dumps({"name": "a web app", "files": ["cards.pdf"]}))
    assert claimed(tmp_path) == frozenset()


def test_describe_names_a_few() -> None:
    assert describe(["a", "b/"]) == "a, b/"
    assert describe([str(i) for i in range(6)]) == "0, 1, 2, 3, 4 and more"
