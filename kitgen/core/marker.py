"""The marker of an output folder, and which files in a folder kitgen can prove it wrote.

Every folder kitgen writes (a kit, a booklet, a viewer page) holds a small JSON file,
:data:`MARKER` (``.kitgen-kit``), with what the folder is, its name, the list of files kitgen
wrote into it and each file's SHA-256. A marker is a claim anyone could write (or copy from
another folder), so it proves nothing on its word: a file listed in it is kitgen's only while
its content has the checksum the marker gives (:func:`proven`). A file that has changed since,
or that a marker lists without a checksum (written by an older kitgen, before there were
checksums), is not proven, and kitgen treats it as anyone else's (see :mod:`kitgen.core.output`:
never deleted or overwritten). Whether a file may be written over is decided in one place,
:func:`kitgen.core.files.replaceable`; this module reads the proof, and :mod:`kitgen.core.output` (the
one module of folder safety) decides with it.

Folders written before there were markers, or whose marker has no checksums, are recognised by
what they hold: a kit or booklet by its ``manifest.json`` (a JSON object with ``kitgen`` and
``files`` keys; each listed file with the ``sha256`` the manifest gives it is kitgen's while it
has that checksum, and so is the manifest), a viewer folder by an ``index.html`` that is
kitgen's viewer page (it starts with the page's own Content-Security-Policy line).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from reference_engine.api import open_regular

from .files import read_head, read_regular, write_atomic

MARKER = ".kitgen-kit"
MAX_MARKER = 4 << 20  # bytes; a marker lists a few hundred files at most
MAX_PATH = 1024  # characters of one listed path
SHA256 = re.compile(r"^[0-9a-f]{64}$")
# The start of every viewer page kitgen writes (kitgen.web.viewer.html_page), for folders of older
# versions: a page without it is not ours.
VIEWER_SIGNATURE = b'<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '

Sums = Mapping[str, frozenset[str]]
"""Every path a folder's proof covers, with the checksums its content may have."""


@dataclass(frozen=True)
class Marker:
    """What kitgen wrote into a folder: ``what`` (kit, booklet, view), its ``name``, ``files``
    (paths relative to the folder, with ``/``, sorted; the marker itself not included) and
    ``sums``: each file's SHA-256 (while several builds' files are being moved in, a file may
    have either of two; a marker of an older kitgen has none)."""

    what: str
    name: str
    files: tuple[str, ...]
    sums: Mapping[str, frozenset[str]] = field(default_factory=dict, compare=False)

    @classmethod
    def of(cls, folder: Path, what: str, name: str, files: tuple[str, ...] | None = None) -> Marker:
        """The marker of ``files`` (default: every file) in ``folder``, with their checksums."""
        listed = written_files(folder) if files is None else tuple(sorted(set(files)))
        return cls(what, name, listed, {f: frozenset([sha256(folder / f)]) for f in listed})

    def to_json(self) -> dict[str, object]:
        sums = {f: sorted(self.sums[f]) for f in self.files if f in self.sums}
        return {
            "written_by": "kitgen",
            "what": self.what,
            "name": self.name,
            "files": list(self.files),
            "sha256": {f: s[0] if len(s) == 1 else s for f, s in sums.items()},
            "note": "The files kitgen wrote into this folder, with their SHA-256. kitgen replaces a "
            "file only while it has this checksum, and the folder only while it holds nothing else; "
            "keep this file.",
        }

    def write(self, folder: Path) -> None:
        text = json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n"
        write_atomic(folder / MARKER, text.encode("utf-8"))


def sha256(path: Path) -> str:
    """The SHA-256 of the regular file ``path`` (a link, a FIFO...: :class:`OSError`)."""
    fd = open_regular(path, follow_links=False)
    try:
        return digest(fd)
    finally:
        os.close(fd)


def digest(fd: int) -> str:
    h = hashlib.sha256()
    offset = 0
    while block := os.pread(fd, 1 << 20, offset):
        h.update(block)
        offset += len(block)
    return h.hexdigest()


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


def _sums(raw: object, files: list[str]) -> dict[str, frozenset[str]] | None:
    """A marker's ``sha256`` (None when it is not a mapping of listed files to checksums)."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        return None
    out: dict[str, frozenset[str]] = {}
    listed = set(files)
    for path, value in raw.items():
        values = value if isinstance(value, list) else [value]
        checksums = values and all(isinstance(v, str) and SHA256.match(v) for v in values)
        if path not in listed or not checksums:
            return None
        out[path] = frozenset(values)
    return out


def read_marker(folder: Path) -> Marker | None:
    """The folder's marker, or None when it has none or the file is not a usable marker (a
    link, a FIFO, too big, not JSON, a path that is not plain, a checksum that is not one)."""
    data = _json(folder / MARKER)
    if not isinstance(data, dict) or data.get("written_by") != "kitgen":
        return None
    files = data.get("files")
    if not isinstance(files, list) or not all(usable_path(f) for f in files):
        return None
    sums = _sums(data.get("sha256"), files)
    if sums is None:
        return None
    return Marker(str(data.get("what", "")), str(data.get("name", "")), tuple(sorted(set(files))), sums)


@dataclass(frozen=True)
class Proof:
    """What proves which files of a folder are kitgen's: ``sums`` (path: its possible
    checksums), whether the folder's :data:`MARKER` is a marker kitgen may replace, and the
    paths a marker lists that nothing proves (an older kitgen's marker has no checksums)."""

    sums: Sums
    marker: bool = False
    unproven: frozenset[str] = frozenset()


def _legacy(folder: Path) -> dict[str, frozenset[str]]:
    """What an older kitgen wrote into ``folder``, with the checksums that prove it: a kit's or a
    booklet's manifest lists its files' SHA-256 (the manifest itself is proved by being one); a
    viewer page by its first line."""
    manifest_path = folder / "manifest.json"
    try:
        raw = read_regular(manifest_path, MAX_MARKER)
        manifest = json.loads(raw.decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        manifest = None
    if isinstance(manifest, dict) and "kitgen" in manifest and isinstance(manifest.get("files"), list):
        entries = [f for f in manifest["files"] if isinstance(f, dict)]
        listed = {f.get("path"): f.get("sha256") for f in entries}
        if listed and all(usable_path(p) for p in listed):
            out = {
                str(p): frozenset([s]) for p, s in listed.items() if isinstance(s, str) and SHA256.match(s)
            }
            out["manifest.json"] = frozenset([hashlib.sha256(raw).hexdigest()])
            return out
    try:
        page = folder / "index.html"
        if VIEWER_SIGNATURE in read_head(page, 400):
            return {"index.html": frozenset([sha256(page)])}
    except OSError:
        pass
    return {}


def proof(folder: Path) -> Proof:
    """Which files of ``folder`` kitgen can prove it wrote: by its marker's checksums; for a
    folder without a marker, or whose marker has none (an older kitgen's), by its manifest or
    viewer page (see the module)."""
    marker = read_marker(folder)
    if marker is not None and marker.sums:
        return Proof(dict(marker.sums), True, frozenset(set(marker.files) - set(marker.sums)))
    legacy = _legacy(folder)
    if marker is None:
        return Proof(legacy)
    return Proof(legacy, True, frozenset(set(marker.files) - set(legacy)))


__all__ = ["MARKER", "Marker", "Proof", "digest", "proof", "read_marker", "sha256", "written_files"]
