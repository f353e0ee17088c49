"""Shared helpers for the viewer tests: build pages once, read their data block back."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from kitgen.cli.main import main

DATA = re.compile(r'<script type="application/json" id="data">(.*?)</script>', re.S)


def view(folder: Path, *args: str) -> Path:
    """Run ``kitgen view ARGS -o folder``; the page written."""
    result = CliRunner().invoke(main, ["view", *args, "-o", str(folder)])
    assert result.exit_code == 0, result.output
    page = folder / "index.html"
    assert page.is_file()
    return page


def page_data(page: Path) -> dict[str, Any]:
    """The JSON data block of a viewer page, as the page's script reads it."""
    m = DATA.search(page.read_text(encoding="utf-8"))
    assert m is not None, "no data block"
    data: dict[str, Any] = json.loads(m.group(1))
    return data


def cards_in(frame: dict[str, Any]) -> tuple[int, int]:
    """(cards drawn, of which face down) in a frame's diagram."""
    d = frame.get("diagram")
    if not d:
        return 0, 0
    cells = [c for r in d["regions"] for row in r["cells"] for c in row if c is not None and c["symbol"]]
    return len(cells), sum(1 for c in cells if not c["up"])
