"""Page previews and their cache: a cached preview is the bytes a fresh render gives, a damaged
entry is never used, and another PDF, page or resolution is another entry."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from reportlab.pdfgen.canvas import Canvas

from kitgen.paper.previews import PreviewCache, preview_cache, render_previews

pytestmark = pytest.mark.fresh_cache  # it counts, damages or expects cold cache entries


def pdf(path: Path, words: list[str]) -> Path:
    """A small PDF with one page per word."""
    c = Canvas(str(path), pagesize=(200, 120), invariant=1)
    for word in words:
        c.drawString(20, 60, word)
        c.showPage()
    c.save()
    return path


def fresh(source: Path, out: Path) -> list[bytes]:
    return [p.read_bytes() for p in render_previews(source, out, "doc")]


def test_cached_previews_are_the_bytes_of_a_fresh_render(tmp_path: Path) -> None:
    source = pdf(tmp_path / "doc.pdf", ["one", "two", "three"])
    expected = fresh(source, tmp_path / "plain")
    cache = PreviewCache(tmp_path / "cache")
    first = render_previews(source, tmp_path / "a", "doc", cache=cache)
    assert (cache.hits, cache.misses) == (0, 3) and [p.read_bytes() for p in first] == expected
    second = render_previews(source, tmp_path / "b", "doc", cache=cache)
    assert (cache.hits, cache.misses) == (3, 3)
    assert [p.name for p in second] == ["doc-p001.png", "doc-p002.png", "doc-p003.png"]
    assert [p.read_bytes() for p in second] == expected


def test_another_pdf_page_or_resolution_is_another_entry(tmp_path: Path) -> None:
    cache = PreviewCache(tmp_path / "cache")
    render_previews(pdf(tmp_path / "a.pdf", ["same", "one"]), tmp_path / "a", "a", cache=cache)
    other = pdf(tmp_path / "b.pdf", ["same", "two"])  # another PDF: nothing reused, page 1 included
    got = render_previews(other, tmp_path / "b", "b", cache=cache)
    assert cache.hits == 0 and [p.read_bytes() for p in got] == fresh(other, tmp_path / "b-plain")
    render_previews(other, tmp_path / "c", "b", dpi=30, cache=cache)
    assert cache.hits == 0 and len({cache.key("x", 0, 60), cache.key("x", 1, 60), cache.key("x", 0, 30)}) == 3


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[:-10] + b"0123456789",  # the PNG changed: its checksum no longer holds
        lambda data: data.replace(b"kitgen preview ", b"kitgen previeW ", 1),  # not an entry
        lambda data: data.split(b"\n", 1)[1],  # no header
        lambda data: b"",
    ],
)
def test_a_damaged_entry_is_removed_and_the_page_rendered_again(tmp_path: Path, damage: object) -> None:
    source = pdf(tmp_path / "doc.pdf", ["only"])
    expected = fresh(source, tmp_path / "plain")
    cache = PreviewCache(tmp_path / "cache")
    render_previews(source, tmp_path / "a", "doc", cache=cache)
    (entry,) = (tmp_path / "cache").iterdir()
    assert callable(damage)
    entry.write_bytes(damage(entry.read_bytes()))
    again = PreviewCache(tmp_path / "cache")
    got = render_previews(source, tmp_path / "b", "doc", cache=again)
    assert (again.hits, again.misses) == (0, 1) and [p.read_bytes() for p in got] == expected
    assert PreviewCache(tmp_path / "cache").load(again.key(*_key_parts(source))) is not None  # stored again


def _key_parts(source: Path) -> tuple[str, int, int]:
    import hashlib

    return hashlib.sha256(source.read_bytes()).hexdigest(), 0, 60


def test_an_entry_that_is_not_a_regular_file_is_not_read(tmp_path: Path) -> None:
    source = pdf(tmp_path / "doc.pdf", ["only"])
    cache = PreviewCache(tmp_path / "cache")
    (tmp_path / "cache").mkdir()
    key = cache.key(*_key_parts(source))
    os.mkfifo(cache.path(key))  # reading a FIFO would block the build
    got = render_previews(source, tmp_path / "a", "doc", cache=cache)
    assert cache.misses == 1 and [p.read_bytes() for p in got] == fresh(source, tmp_path / "plain")


def test_an_unwritable_cache_is_simply_not_used(tmp_path: Path) -> None:
    source = pdf(tmp_path / "doc.pdf", ["only"])
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder would be", encoding="utf-8")
    cache = PreviewCache(blocker / "previews")
    got = render_previews(source, tmp_path / "a", "doc", cache=cache)
    assert [p.read_bytes() for p in got] == fresh(source, tmp_path / "plain")


def test_no_cache_means_no_preview_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KITGEN_CACHE_DIR", str(tmp_path))
    assert preview_cache(False) is None
    cache = preview_cache(True)
    assert cache is not None and cache.directory == tmp_path / "previews"
