"""The viewer and the kit index in a real headless browser (Chromium driven by Playwright).

Skipped, with the reason, when Playwright or a Chromium cannot be found (`.ci/run` installs
both). Screenshots of the first and the last frame of each page are kept as test artefacts in
``output/test-artefacts/browser/`` (or ``$KITGEN_TEST_ARTEFACTS``).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.kitgen.viewer_pages import cards_in, page_data, view

# A real browser is the slow tier (`pytest -m slow`, run by .ci/run); the fast tier checks the
# same pages' data and markup (tests/kitgen/web/test_viewer.py, test_kitindex in test_viewer.py).
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PAGES = {
    "six-card-and": ("six-card-and",),
    "card-selection-mini": ("card-selection", "--deck", "mini"),
    "gakmoro-round": ("gakmoro-round",),
}


def chromium() -> str | None:
    for candidate in (os.environ.get("KITGEN_CHROMIUM"), shutil.which("chromium"), "/usr/bin/chromium"):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


def artefacts() -> Path:
    folder = Path(os.environ.get("KITGEN_TEST_ARTEFACTS", ROOT / "output" / "test-artefacts")) / "browser"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright is not installed (pip install -e '.[dev]')"
    )
    exe = chromium()
    if exe is None:
        pytest.skip("no Chromium found (apt-get install chromium, or set KITGEN_CHROMIUM)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("browser-views")
    return {key: view(root / key, *args) for key, args in PAGES.items()}


def open_page(browser: Any, url: str) -> tuple[Any, list[str], list[str]]:
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    errors: list[str] = []
    requests: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("request", lambda r: requests.append(r.url))
    page.goto(url)
    return page, errors, requests


@pytest.mark.parametrize("key", list(PAGES))
def test_step_through_with_the_keyboard(browser: Any, pages: dict[str, Path], key: str) -> None:
    path = pages[key]
    data = page_data(path)
    frames = data["frames"]
    page, errors, requests = open_page(browser, path.as_uri())
    shots = artefacts()
    page.screenshot(path=str(shots / f"{key}-first.png"), full_page=True)
    for i, frame in enumerate(frames):
        assert page.inner_text("#position") == f"{i + 1} / {len(frames)}"
        if frame["step"] == "end":
            assert page.is_visible("#end")
            verdicts = page.inner_text("#verdicts")
            for v in data["verdicts"]:
                assert v["title"] in verdicts
            assert ("NOT VERIFIED" in verdicts) == (not all(v["verified"] for v in data["verdicts"]))
        else:
            assert page.inner_text("#step-number").startswith(f"Step {frame['step']}")
            assert page.inner_text("#step-say") == frame["say"]
            drawn, down = cards_in(frame)
            assert page.locator("#table .card").count() == drawn
            assert page.locator("#table .card.down").count() == down
            # Hidden faces only after the teacher's toggle (H), and gone again after it.
            visible = page.locator("#table .hidden-face:visible")
            assert visible.count() == 0
            if down:
                page.keyboard.press("h")
                assert visible.count() == down
                page.keyboard.press("h")
                assert visible.count() == 0
            checks = page.locator("#check-list li:visible")
            assert checks.count() == len(frame["checks"])
            # Names as players read them: a spec's P_1 is P with a subscript, never "P_1".
            assert "_" not in page.inner_text("#frame")
            # Every card is a picture (the printed design or the back), with words for a screen reader.
            assert page.locator("#table .card img").count() == drawn
            assert all(page.locator("#table .card img").evaluate_all("l => l.map(i => i.alt.length > 0)"))
        page.keyboard.press("ArrowRight")
    page.screenshot(path=str(shots / f"{key}-last.png"), full_page=True)
    # Home and End, and the buttons.
    page.keyboard.press("Home")
    assert page.inner_text("#position").startswith("1 /")
    page.keyboard.press("End")
    assert page.inner_text("#position") == f"{len(frames)} / {len(frames)}"
    page.click("#prev")
    assert page.inner_text("#position") == f"{len(frames) - 1} / {len(frames)}"
    page.click("#first")
    assert page.is_disabled("#prev") and not page.is_disabled("#next")
    assert errors == []
    assert all(url.startswith("file:") for url in requests), requests
    page.close()


def test_the_teachers_toggle_by_mouse(browser: Any, pages: dict[str, Path]) -> None:
    page, errors, _ = open_page(browser, pages["six-card-and"].as_uri())
    assert page.locator("#table .hidden-face:visible").count() == 0
    page.check("#hidden-toggle")
    assert page.locator("#table .hidden-face:visible").count() == 6
    assert sorted(page.locator("#table .hidden-face").all_inner_texts()) == sorted("ααβββα")  # x=1, 0, y=1
    assert errors == []
    page.close()


def test_hostile_spec_runs_no_script(browser: Any, tmp_path: Path) -> None:
    from tests.kitgen.web.test_viewer import HOSTILE, hostile_spec

    path = view(tmp_path / "out", str(hostile_spec(tmp_path)))
    page, errors, _ = open_page(browser, path.as_uri())
    assert page.evaluate("window.pwned === undefined")
    assert page.inner_text("#title") == HOSTILE
    assert errors == []
    page.close()


@pytest.fixture(scope="module")
def index_kit(built_kit: Any) -> Path:
    """The default kit, built once per test session (tests/conftest.py)."""
    folder, _ = built_kit()
    assert isinstance(folder, Path)
    return folder


def test_kit_index_in_the_browser(browser: Any, index_kit: Path) -> None:
    kit = index_kit
    page, errors, requests = open_page(browser, (kit / "index.html").as_uri())
    images = page.locator(".sheet img")
    assert images.count() == len(list((kit / "previews").glob("*.png")))
    # Every preview really loaded (natural width > 0).
    assert page.evaluate("Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)")
    page.screenshot(path=str(artefacts() / "uno-kit-index.png"), full_page=False)
    links = page.locator("a[href^='view/']")
    assert links.count() >= 1
    links.first.click()
    page.wait_for_selector("#position")
    assert page.inner_text("#position").startswith("1 /")
    assert errors == []
    assert all(url.startswith("file:") for url in requests), requests
    page.close()


AXE = ROOT / "third_party" / "axe-core" / "axe.min.js"
SERIOUS = ("serious", "critical")


def axe_violations(browser: Any, url: str, frames: list[int] | None = None) -> list[str]:
    """axe-core's serious and critical violations on the page (at each frame of a viewer page).
    The page's Content-Security-Policy forbids injected scripts, so the check's own page bypasses it."""
    context = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    found: list[str] = []
    for frame in frames or [0]:
        page.goto(url + (f"#{frame}" if frames else ""))
        page.reload()
        page.add_script_tag(path=str(AXE))
        result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
        for v in result["violations"]:
            if v["impact"] in SERIOUS:
                targets = [" ".join(n["target"]) for n in v["nodes"][:3]]
                found.append(f"frame {frame}: {v['id']} ({v['impact']}): {v['help']} at {targets}")
    context.close()
    return found


@pytest.mark.parametrize("key", list(PAGES))
def test_the_viewer_passes_axe(browser: Any, pages: dict[str, Path], key: str) -> None:
    """axe-core (WCAG 2 A and AA rules, colour contrast among them) finds nothing serious or critical
    on the first frame, a frame with a picture and the last frame, nor with the hidden faces shown."""
    path = pages[key]
    frames = page_data(path)["frames"]
    pictured = next(i for i, f in enumerate(frames, 1) if f.get("diagram"))
    assert axe_violations(browser, path.as_uri(), [1, pictured, len(frames)]) == []


def test_the_kit_index_passes_axe(browser: Any, index_kit: Path) -> None:
    assert axe_violations(browser, (index_kit / "index.html").as_uri()) == []
    viewer = sorted((index_kit / "view").glob("card-selection*.html"))[0]  # the kit's own protocol
    assert axe_violations(browser, viewer.as_uri(), [1, 5]) == []
