"""PNG previews of every page, rendered from the PDF itself with pdfium (no system program).

pypdfium2 ships PDFium inside its wheel, so a preview shows exactly what the PDF prints.

Rendering and compressing the previews is a third of a warm build, and a rebuild with the same
inputs writes the same PDF bytes, so the previews of a PDF are kept in a cache
(:class:`PreviewCache`, ``$KITGEN_CACHE_DIR/previews``): an entry is found only for the same PDF
bytes, page, resolution, format and versions of pypdfium2 (and its PDFium) and Pillow, and it is
used only when its SHA-256 matches its contents, so a kit gets exactly the bytes a fresh render
gives. A damaged entry is removed and the page rendered again; a cache that cannot be written
is simply not used.
"""

from __future__ import annotations

import hashlib
import io
from functools import lru_cache
from importlib.metadata import version
from pathlib import Path

import pypdfium2 as pdfium

from ..core.cache import default_cache_dir
from ..core.files import read_regular, write_atomic

FORMAT = 2  # of an entry and of its PNG's encoding; part of every key
# zlib level of the PNGs: 3 encodes a page in about two thirds of the default (6)'s time and, for
# these flat-coloured pages, as small or smaller (a UNO kit's 246 card pages: 4.3 -> 2.9 s, 12.9 ->
# 12.0 MB; its booklet pages 4 % smaller).
COMPRESS_LEVEL = 3
MAX_ENTRY = 16 << 20  # bytes: a 60 dpi page preview is well under 1 MB
_HEADER = b"kitgen preview "  # then the PNG's SHA-256 in hex and a newline, then the PNG


@lru_cache(maxsize=1)
def _renderer() -> str:
    """What decides the pixels and the PNG bytes besides the PDF: the libraries' versions."""
    return f"pypdfium2 {version('pypdfium2')} pdfium {pdfium.PDFIUM_INFO} pillow {version('pillow')}"


class PreviewCache:
    """Rendered page previews on disk, by the PDF's bytes, the page and the resolution."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory if directory is not None else default_cache_dir() / "previews"
        self.hits = 0
        self.misses = 0

    def key(self, pdf_digest: str, page: int, dpi: int) -> str:
        text = f"kitgen preview cache {FORMAT}\0{_renderer()}\0{pdf_digest}\0{page}\0{dpi}"
        return hashlib.sha256(text.encode()).hexdigest()

    def path(self, key: str) -> Path:
        return self.directory / f"{key}.png-entry"

    def load(self, key: str) -> bytes | None:
        """The PNG filed under ``key`` when its checksum holds; None otherwise (a damaged entry
        is removed)."""
        path = self.path(key)
        try:
            raw = read_regular(path, MAX_ENTRY)
        except FileNotFoundError:
            self.misses += 1
            return None
        except OSError:
            self.misses += 1
            self._remove(path)
            return None
        head, _, png = raw.partition(b"\n")
        if head != _HEADER + hashlib.sha256(png).hexdigest().encode():
            self.misses += 1
            self._remove(path)
            return None
        self.hits += 1
        return png

    def store(self, key: str, png: bytes) -> None:
        entry = _HEADER + hashlib.sha256(png).hexdigest().encode() + b"\n" + png
        if len(entry) > MAX_ENTRY:
            return
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            write_atomic(self.path(key), entry)
        except OSError:
            pass

    @staticmethod
    def _remove(path: Path) -> None:
        try:
            if not path.is_dir() or path.is_symlink():
                path.unlink()
        except OSError:
            pass


def _render(doc: pdfium.PdfDocument, index: int, dpi: int) -> bytes:
    page = doc[index]
    try:
        image = page.render(scale=dpi / 72).to_pil()
    finally:
        page.close()
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=COMPRESS_LEVEL)
    return buffer.getvalue()


def render_previews(
    pdf: Path, folder: Path, stem: str, dpi: int = 60, cache: PreviewCache | None = None
) -> list[Path]:
    """``folder/<stem>-pNNN.png`` for every page of ``pdf``; pages found in ``cache`` are not
    rendered again."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    digest = hashlib.sha256(pdf.read_bytes()).hexdigest() if cache is not None else ""
    doc = pdfium.PdfDocument(str(pdf))
    try:
        for i in range(len(doc)):
            key = cache.key(digest, i, dpi) if cache is not None else ""
            png = cache.load(key) if cache is not None else None
            if png is None:
                png = _render(doc, i, dpi)
                if cache is not None:
                    cache.store(key, png)
            path = folder / f"{stem}-p{i + 1:03d}.png"
            path.write_bytes(png)
            out.append(path)
    finally:
        doc.close()
    return out


def preview_cache(enabled: bool) -> PreviewCache | None:
    """The preview cache, unless the build was asked for no cache (``--no-cache``)."""
    return PreviewCache() if enabled else None
