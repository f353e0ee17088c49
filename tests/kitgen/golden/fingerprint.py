"""Fingerprints of built kits, to compare a build with a golden (a checked earlier build).

A kit's bytes depend on the versions of the PDF libraries (reportlab writes the PDFs, pypdfium2
renders the previews), so a fingerprint has three layers: the data files (booklet.json, and
manifest.json without the file checksums), which depend on kitgen alone; the text of every PDF
page (as pypdf reads it); and every file's SHA-256. A comparison checks the data always, the text
when pypdf is the golden's version, and the bytes when all three libraries are.

``python tests/kitgen/golden/fingerprint.py KIT_FOLDER NAME`` prints the entry for a golden file.
"""

from __future__ import annotations

import hashlib
import json
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

LIBRARIES = ("reportlab", "pypdfium2", "pypdf")


def versions() -> dict[str, str]:
    return {name: version(name) for name in LIBRARIES}


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _data(path: Path) -> str:
    data = json.loads(path.read_text(encoding="utf-8"))
    if path.name == "manifest.json":
        data.pop("files", None)
        data.pop("folder", None)
    return _sha(json.dumps(data, sort_keys=True, ensure_ascii=False).encode("utf-8"))


def _text(path: Path) -> str:
    from pypdf import PdfReader

    pages = [page.extract_text() or "" for page in PdfReader(path).pages]
    return _sha("\f".join(pages).encode("utf-8"))


def fingerprint(folder: Path, golden: dict[str, Any] | None = None) -> dict[str, Any]:
    """The folder's fingerprint. Given the ``golden`` it is compared with, a PDF whose bytes are the
    golden's, read by the golden's pypdf, has the golden's text (the text is read from those bytes
    by that code): its text is taken from the golden instead of read again (most of the time of a
    comparison, about 10 s for the default kit). Any other PDF's text is read."""
    # Not the folder's marker (.kitgen-kit): it says which files kitgen wrote, it is not the kit.
    files = sorted(p for p in folder.rglob("*") if p.is_file() and p.name != ".kitgen-kit")
    found = versions()
    hashes = {str(p.relative_to(folder)): _sha(p.read_bytes()) for p in files}
    same_reader = golden is not None and golden["versions"]["pypdf"] == found["pypdf"]

    def text(path: Path) -> str:
        rel = str(path.relative_to(folder))
        if (
            golden is not None
            and same_reader
            and path.name in golden["text"]
            and golden["bytes"].get(rel) == hashes[rel]
        ):
            return str(golden["text"][path.name])
        return _text(path)

    return {
        "versions": found,
        "data": {p.name: _data(p) for p in files if p.suffix == ".json"},
        "text": {p.name: text(p) for p in files if p.suffix == ".pdf"},
        "bytes": hashes,
    }


def differences(built: dict[str, Any], golden: dict[str, Any]) -> list[str]:
    """What differs, layer by layer, in the layers this machine's libraries can compare."""
    out = [
        f"data {k}"
        for k in sorted(set(built["data"]) | set(golden["data"]))
        if built["data"].get(k) != golden["data"].get(k)
    ]
    same = {name: built["versions"][name] == golden["versions"][name] for name in LIBRARIES}
    if same["pypdf"] and same["reportlab"]:
        out += [
            f"text {k}"
            for k in sorted(set(built["text"]) | set(golden["text"]))
            if built["text"].get(k) != golden["text"].get(k)
        ]
    if all(same.values()):
        out += [
            f"bytes {k}"
            for k in sorted(set(built["bytes"]) | set(golden["bytes"]))
            if built["bytes"].get(k) != golden["bytes"].get(k)
        ]
    return out


if __name__ == "__main__":
    print(json.dumps({sys.argv[2]: fingerprint(Path(sys.argv[1]))}, indent=1, sort_keys=True))
