"""The marker that proves an output folder is kitgen's, and what in a folder kitgen did not write.

Every folder kitgen writes (a kit, a booklet, a viewer page) holds a small JSON file,
:data:`MARKER` (``.kitgen-kit``), with what the folder is, its name and the exact list of
files kitgen wrote into it. kitgen replaces a folder only when everything in it is on that
list (see :mod:`kitgen.output`): a file of anyone else's, in the folder or in a subfolder, is
never deleted or overwritten.

Folders written before there were markers are recognised by what they hold: a kit or booklet
by its ``manifest.json`` (a JSON object with ``kitgen`` and ``files`` keys; its listed files and
the manifest itself are kitgen's), a viewer folder by an ``index.html`` that is kitgen's
viewer page (it starts with the page's own Content-Security-Policy line).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from .files import read_head, read_regular, write_atomic

MARKER = ".kitgen-kit"
MAX_MARKER = 4 << 20  # bytes; a marker lists a few hundred files at most
MAX_PATH = 1024  # characters of one listed path
SHOWN = 5  # foreign entries named in a refusal
# The start of every viewer page kitgen writes (kitgen.viewer.html_page), for folders of older
# versions: a page without it is not ours.
VIEWER_SIGNATURE = b'<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '


@dataclass(frozen=True)
class Marker:
    """What kitgen wrote into a folder: ``what`` (kit, booklet, view), its ``name`` and ``files``
    (paths relative to the folder, with ``/``, sorted; the marker itself not included)."""

    what: str
    name: str
    files: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "written_by": "kitgen",
            "what": self.what,
            "name": self.name,
            "files": list(self.files),
            "note": "The files kitgen wrote into this folder. kitgen replaces the folder only while "
            "it holds nothing else; keep this file.",
        }

    def write(self, folder: Path) -> None:
        text = json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n"
        write_atomic(folder / MARKER, text.encode("utf-8"))


def usable_path(path: object) -> bool:
    """A listed path is relative, plain (no ``.``, ``..`` or empty parts) and short."""
    if not isinstance(path, str) or not path or len(path) > MAX_PATH or "\\" in path or "\0" in path:
        return False
    parts = path.split("/")
    return not path.startswith("/") and all(p not in ("", ".", "..") for p in parts)


def written_files(folder: Path) -> tuple[str, ...]:
    """The regular files under ``folder`` (a folder kitgen just filled), relative and sorted."""
    out = []
    for root, _dirs, files in os.walk(folder):
        for f in files:
            path = Path(root) / f
            if path.is_file() and not path.is_symlink():
                rel = path.relative_to(folder).as_posix()
                if rel != MARKER:
                    out.append(rel)
    return tuple(sorted(out))


def _json(path: Path) -> object:
    """The file's JSON (None when it cannot be read): what a marker is is checked next."""
    try:
        return json.loads(read_regular(path, MAX_MARKER).decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return None


def read_marker(folder: Path) -> Marker | None:
    """The folder's marker, or None when it has none or the file is not a usable marker."""
    data = _json(folder / MARKER)
    if not isinstance(data, dict) or data.get("written_by") != "kitgen":
        return None
    files = data.get("files")
    if not isinstance(files, list) or not all(usable_path(f) for f in files):
        return None
    return Marker(str(data.get("what", "")), str(data.get("name", "")), tuple(sorted(set(files))))


def _legacy(folder: Path) -> frozenset[str]:
    """What an older kitgen (before markers) wrote into ``folder``, as far as it can be proved."""
    manifest = _json(folder / "manifest.json")
    if isinstance(manifest, dict) and "kitgen" in manifest and isinstance(manifest.get("files"), list):
        listed = [f.get("path") for f in manifest["files"] if isinstance(f, dict)]
        if listed and all(usable_path(p) for p in listed):
            return frozenset([*listed, "manifest.json"])  # type: ignore[list-item]
    try:
        head = read_head(folder / "index.html", 400)
    except OSError:
        return frozenset()
    return frozenset(["index.html"]) if VIEWER_SIGNATURE in head else frozenset()


def claimed(folder: Path) -> frozenset[str]:
    """The files in ``folder`` kitgen wrote (its marker included): from the marker, or for an
    older folder from its manifest or viewer page; empty when nothing proves any."""
    marker = read_marker(folder)
    if marker is not None:
        return frozenset([*marker.files, MARKER])
    return _legacy(folder)


def foreign(folder: Path, own: frozenset[str], limit: int = SHOWN + 1) -> list[str]:
    """Up to ``limit`` entries under ``folder`` that are not in ``own`` (folders end in ``/``):
    anything not a regular file or a folder on the way to one, symbolic links included. Only
    the folders on the way to kitgen's files are entered, so a big folder costs one listing."""
    on_the_way = {str(a) for p in own for a in PurePosixPath(p).parents}
    found: list[str] = []

    def scan(path: Path, rel: str) -> None:
        try:
            entries = sorted(os.scandir(path), key=lambda e: e.name)
        except FileNotFoundError:
            if not rel:
                return  # the folder itself has just gone (another build set it aside): nothing there
            found.append(f"{rel}/ (unreadable: gone while it was read)")
            return
        except OSError as exc:
            found.append(f"{rel or '.'}/ (unreadable: {exc.strerror or exc})")
            return
        for entry in entries:
            if len(found) >= limit:
                return
            name = f"{rel}/{entry.name}" if rel else entry.name
            if entry.is_symlink():
                found.append(name)
            elif entry.is_dir(follow_symlinks=False):
                if name in on_the_way:
                    scan(Path(entry.path), name)
                else:
                    found.append(f"{name}/")
            elif not (entry.is_file(follow_symlinks=False) and name in own):
                found.append(name)

    scan(folder, "")
    return found


def describe(entries: list[str], limit: int = SHOWN) -> str:
    """``a, b, c`` (and ``and N more`` past ``limit``; ``N`` is a lower bound when cut short)."""
    shown = ", ".join(entries[:limit])
    more = len(entries) - limit
    return f"{shown} and more" if more > 0 else shown


__all__ = ["MARKER", "Marker", "claimed", "describe", "foreign", "read_marker", "written_files"]
