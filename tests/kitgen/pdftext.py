"""The text of a PDF's pages as pypdf extracts it, extracted once per test session.

The session's shared kits and booklets (tests/conftest.py's ``built_kit``) are read by tests of
several files, on both xdist workers, and extracting a booklet's text costs 1.5-4 s of CPU: a text
is kept, in this process and in the session folder (for the other worker), keyed by the SHA-256 of
the file's bytes. The same bytes read by the same pypdf give the same text, so a kept text is the
one extraction would give; a file written again with other bytes is read again. The session folder
is removed at the end of the session (tests/conftest.py), so no text outlives the pypdf that read it.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import tempfile
from pathlib import Path

from pypdf import PdfReader

SESSION_CACHE_ENV = "KITGEN_TEST_SESSION_CACHE"  # tests/conftest.py's session folder

_KEPT: dict[str, tuple[str, ...]] = {}


def page_texts(path: Path | str) -> tuple[str, ...]:
    """Each page's ``extract_text() or ""``, in page order."""
    data = Path(path).read_bytes()
    key = hashlib.sha256(data).hexdigest()
    found = _KEPT.get(key)
    if found is None:
        found = _stored(key)
        if found is None:
            found = tuple(page.extract_text() or "" for page in PdfReader(io.BytesIO(data)).pages)
            _store(key, found)
        _KEPT[key] = found
    return found


def _folder() -> Path | None:
    session = os.environ.get(SESSION_CACHE_ENV)
    return Path(session) / "pdf-text" if session else None


def _stored(key: str) -> tuple[str, ...] | None:
    folder = _folder()
    if folder is None:
        return None
    try:
        texts = json.loads((folder / f"{key}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
        return None
    return tuple(texts)


def _store(key: str, texts: tuple[str, ...]) -> None:
    """Written whole or not at all (a temporary file renamed): the other worker never reads half."""
    folder = _folder()
    if folder is None:
        return
    folder.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(dir=folder, suffix=".tmp")
    with os.fdopen(handle, "w", encoding="utf-8") as out:
        json.dump(list(texts), out, ensure_ascii=False)
    os.replace(name, folder / f"{key}.json")
