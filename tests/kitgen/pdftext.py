"""The text of a PDF's pages as pypdf extracts it, extracted once per test session.

The session's shared kits and booklets (tests/conftest.py's ``built_kit``) are read by tests of
several files, on both xdist workers, and extracting a booklet's text costs 1.5-4 s of CPU: a text
is kept, in this process and in the session folder (for the other worker), keyed by the SHA-256 of
the file's bytes. The same bytes read by the same pypdf give the same text, so a kept text is the
one extraction would give; a file written again with other bytes is read again. The session folder
is removed at the end of the session (tests/conftest.py), so no text outlives the pypdf that read it.

pypdf parses every operation of a page's content stream into objects, and most of a kit's are
paths (a booklet's diagrams and table picture, the card faces): 60-70 % of an extraction. Its text
extractor acts on the text operators, the graphics state's ``q``, ``Q`` and ``cm`` and ``Do``
only (pypdf/_page.py's ``_extract_text``, pypdf/_text_extraction/_text_extractor.py's
``operation_handlers``); every other operator, with its operands, is passed over. So the page is
read with its path construction and painting, line style and colour operators left out
(:func:`text_operations`): operators whose operands are numbers only, taken out with exactly those
numbers, so every other operator keeps its own operands. Strings, hex strings and comments are
matched whole first, so nothing inside them is taken out; a stream with a string that holds an
unescaped parenthesis (a nested string the pattern cannot match whole) or an inline image (binary
data) is read as it is. The text is the same, character for character: tests/kitgen/kit/test_kit.py
compares the two on the session's booklet and on hostile streams.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import tempfile
from pathlib import Path

from pypdf import PdfReader
from pypdf._page import PageObject
from pypdf.generic import DecodedStreamObject, NameObject

from kitgen.paper.textstream import without_paths

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
            found = tuple(page_text(page) for page in PdfReader(io.BytesIO(data)).pages)
            _store(key, found)
        _KEPT[key] = found
    return found


def text_operations(content: bytes) -> bytes | None:
    """The content stream without its numeric-only non-text operations (see the module docs):
    paths, line style and colours (kitgen.paper.textstream); None for a stream read as it is."""
    return without_paths(content, colours=False)


def page_text(page: PageObject) -> str:
    """``page.extract_text() or ""``, the page read with :func:`text_operations`' stream."""
    contents = page.get_contents()
    kept = text_operations(contents.get_data()) if contents is not None else None
    if kept is not None:
        stream = DecodedStreamObject()
        stream.set_data(kept)
        page[NameObject("/Contents")] = stream
    return page.extract_text() or ""


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
