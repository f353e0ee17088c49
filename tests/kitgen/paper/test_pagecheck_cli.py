"""``python -m kitgen.paper.pagecheck`` (:func:`kitgen.paper.pagecheck.main`) as a user runs it:
on a kit folder or on one PDF; a path that is neither, a file that is no PDF, a folder whose
manifest is missing or hostile: exit code 2 and one line naming the path, never a traceback."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from reportlab.pdfgen.canvas import Canvas

from kitgen.paper.pagecheck import READERS, main


def _pdf(path: Path, text: str, x: float) -> Path:
    c = Canvas(str(path), pagesize=(200, 200), invariant=1)
    c.setFont("Courier", 10)  # a standard font: the check names it as not embedded
    c.drawString(x, 100, text)
    c.save()
    return path


def test_one_pdf_is_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(_pdf(tmp_path / "off.pdf", "off the page", 180))]) == 1
    out = capsys.readouterr().out
    assert "off.pdf p. 1: outside:" in out and "not embedded" in out and out.endswith("problem(s)\n")


@pytest.mark.parametrize(
    "make,says",
    [
        (lambda d: d / "nowhere", "no such folder or file"),
        (lambda d: (d / "a.pdf").write_text("not a pdf") and d / "a.pdf", "cannot be read as a PDF"),
        (lambda d: d, "cannot be read as a kit folder (manifest.json): FileNotFoundError"),
        (
            lambda d: (d / "manifest.json").write_text(json.dumps({"kit": 1})) and d,
            "cannot be read as a kit folder (manifest.json): KeyError",
        ),
        (
            lambda d: (d / "manifest.json").write_text("{not json") and d,
            "cannot be read as a kit folder (manifest.json): JSONDecodeError",
        ),
        (
            lambda d: (d / "manifest.json").write_text(json.dumps([1, 2])) and d,
            "(manifest.json): ValueError: its manifest.json is not a JSON object",
        ),
        (
            lambda d: (
                (d / "manifest.json").write_text(
                    json.dumps({"kit": "k", "kitgen": 1, "game": "g", "paper": 1, "files": 7, "folder": 1})
                )
                and d
            ),
            "cannot be read as a kit folder (manifest.json): ",
        ),
    ],
)
def test_what_is_no_kit_and_no_pdf_is_said_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make: object, says: str
) -> None:
    target = make(tmp_path)  # type: ignore[operator]
    assert main([str(target)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"pagecheck: {target}: ") and says in err and "Traceback" not in err


def _bad_box(path: Path) -> Path:
    """A PDF pypdf reads whole whose MediaBox holds a name: pdfplumber's own errors (not pdfminer's)."""
    data = _pdf(path, "x", 20).read_bytes()
    path.write_bytes(data.replace(b"/MediaBox [ 0 0 200 200 ]", b"/MediaBox [ 0 0 200 /XY ]"))
    return path


def _short_box(path: Path) -> Path:
    """A PDF pypdf reads whole whose MediaBox has three numbers: pdfplumber's IndexError."""
    data = _pdf(path, "x", 20).read_bytes()
    path.write_bytes(data.replace(b"/MediaBox [ 0 0 200 200 ]", b"/MediaBox [ 0 0 200     ]"))
    return path


@pytest.mark.parametrize(
    "make,says",
    [
        (_bad_box, "cannot be read as a PDF: PdfminerException: "),
        (_short_box, "cannot be read as a PDF: IndexError: "),
        (
            lambda d: (d / "manifest.json").write_text("[" * 100_000 + "]" * 100_000) and d,
            "cannot be read as a kit folder (manifest.json): RecursionError: ",
        ),
    ],
)
def test_what_the_readers_raise_beyond_their_own_errors_is_said_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make: object, says: str
) -> None:
    target = make(tmp_path / "box.pdf" if make in (_bad_box, _short_box) else tmp_path)  # type: ignore[operator]
    assert main([str(target)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"pagecheck: {target}: ") and says in err and err.count("\n") == 1


def test_the_readers_own_log_lines_are_quiet_and_their_loggers_set_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    """A file that is no PDF: pypdf logs "invalid pdf header" and "EOF marker not found" on its own
    logger, which reached stderr beside the check's line; now nothing is logged, one line is said,
    and each reader's logger has the level it had before."""
    target = tmp_path / "junk.pdf"
    target.write_bytes(b"no PDF at all\n" * 40)
    caplog.set_level(logging.DEBUG)
    levels = [logging.getLogger(name).level for name in READERS]
    assert main([str(target)]) == 2
    assert [r.getMessage() for r in caplog.records if r.name.split(".")[0] in READERS] == []
    err = capsys.readouterr().err
    assert err.startswith(f"pagecheck: {target}: cannot be read as a PDF: ") and err.count("\n") == 1
    assert [logging.getLogger(name).level for name in READERS] == levels


def test_a_path_not_looked_up_is_said_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / ("a" * 5000)  # longer than any file name: stat says ENAMETOOLONG
    assert main([str(target)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"pagecheck: {target}: cannot be looked up: OSError: ") and err.count("\n") == 1


def test_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2 and "KIT_FOLDER | FILE.pdf" in capsys.readouterr().err


def test_a_manifests_pages_past_the_pdf_are_none_of_its_pages(
    built_kit: Callable[..., tuple[Path, Any]], tmp_path: Path
) -> None:
    """Hostile: the default kit's card sheets with ``calibration_pages`` a billion (a set of a
    billion pages before) and a card type's first front past the last page: only the PDF's own
    pages are checked, and the findings are the kit's own numbers' (none). The sheets are cut to
    their first four pages (the two calibration pages, the deck's first front and back): a billion
    calibration pages are every page of the PDF, each read and rendered (the whole 104 pages:
    31 s of CPU, the slow tier's whole-sheet check's work)."""
    from pypdf import PdfReader, PdfWriter

    from kitgen.paper.pagecheck import check_kit

    folder, _ = built_kit()
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    manifest["files"] = [f for f in manifest["files"] if f["path"] == "cards.pdf"]
    manifest["card_pages"] = manifest["card_pages"][:1]  # one card type: a few pages rendered
    assert manifest["card_pages"][0]["fronts"][0] == 3 and manifest["card_pages"][0]["backs"][0] == 4
    manifest["sheets"]["cards"]["calibration_pages"] = 1
    writer = PdfWriter()
    for page in PdfReader(folder / "cards.pdf").pages[:4]:
        writer.add_page(page)
    own, hostile = tmp_path / "own", tmp_path / "hostile"
    for where in (own, hostile):
        where.mkdir()
        writer.write(where / "cards.pdf")
    (own / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    manifest["sheets"]["cards"]["calibration_pages"] = 10**9
    manifest["card_pages"][0]["fronts"] = [10**9] + manifest["card_pages"][0]["fronts"]
    (hostile / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    want = [str(f) for f in check_kit(own, sample_pixels=True)]
    assert want == [] and [str(f) for f in check_kit(hostile, sample_pixels=True)] == want


def test_a_page_too_large_to_render_is_said_unchecked(tmp_path: Path) -> None:
    """Hostile: a page 5 m square (900 million pixels at the check's 150 dpi: gigabytes of memory
    before) is not rendered; the check says its pixels are unchecked, and still reads its text."""
    from kitgen.paper.pagecheck import check_pdf

    path = tmp_path / "huge.pdf"
    c = Canvas(str(path), pagesize=(14400, 14400), invariant=1)
    c.setFont("Courier", 10)
    c.drawString(100, 100, "on a huge page")
    c.save()
    found = [str(f) for f in check_pdf(path)]
    assert any("unchecked" in f and "(5080 x 5080 mm) is too large to render" in f for f in found), found
    assert any("not embedded" in f for f in found)
