"""PNG previews of every page, rendered from the PDF itself with pdfium (no system program).

pypdfium2 ships PDFium inside its wheel, so a preview shows exactly what the PDF prints.
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium


def render_previews(pdf: Path, folder: Path, stem: str, dpi: int = 60) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    doc = pdfium.PdfDocument(str(pdf))
    try:
        for i in range(len(doc)):
            page = doc[i]
            image = page.render(scale=dpi / 72).to_pil()
            path = folder / f"{stem}-p{i + 1:03d}.png"
            image.save(path, format="PNG")
            out.append(path)
            page.close()
    finally:
        doc.close()
    return out
