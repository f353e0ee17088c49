"""Kitgen's own words in Japanese beyond the booklet's chapters (issue 41, lane w41-web): the kit's
index.html, the step-through viewer (its page and its script's words), the handout, the console
lines of `kitgen build`, and each kind's rules chapter and virtual turn.

The Japanese kit here is the session's ``japanese_font_kit`` (six-card AND, built once, as
tests/kitgen/lang/test_checks.py uses it); the chapters are made from each shipped rule set
without building a kit, so the file stays in the fast tier. Words that other parts of kitgen make
(the bill of materials' names, the verification sentences, the seat names) are not checked here:
each test looks only at the places these modules fill."""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from kitgen.booklet.book import Booklet
from kitgen.booklet.frontmatter import Box, FrontSection, Grid, Text
from kitgen.booklet.parts import Section
from kitgen.lang.catalogue import using_language
from kitgen.lang.marked import MARK, fill_marked, marked_ids
from kitgen.web.viewer import PageData, html_page
from tests.kitgen.lang.poppler import poppler

ROOT = Path(__file__).resolve().parents[3]
VIEWER = ROOT / "templates" / "viewer"
ENGLISH_WORD = re.compile(r"\b[A-Za-z]{4,}\b")
# What stays as it is in every language: file and option names, the program, checksums, the
# kit's name, a label stock's product name.
KEPT = re.compile(
    r"[\w-]+\.(?:pdf|html|json|txt|png)\b|\b\w+/|--[a-z][a-z-]*|\bkitgen\b|SHA-256|six-card-and[\w-]*|Avery"
)
SEATS = ("Virtual 1", "Human 1", "Human 2", "Human 3", "Draw pile")  # the seat names' lane's words


def english(text: str) -> list[str]:
    """The English words of a Japanese text, besides names that stay as they are."""
    return ENGLISH_WORD.findall(KEPT.sub("", text))


# ----------------------------------------------------------------------------- the viewer


def test_english_viewer_is_its_template_byte_for_byte() -> None:
    for name in ("viewer.html", "viewer.js"):
        text = (VIEWER / name).read_text(encoding="utf-8")
        assert list(marked_ids(text)), f"{name} marks no words"
        filled = fill_marked(text, js=name.endswith(".js"))
        assert "{{" not in filled and "}}" not in filled
        assert filled == MARK.sub(lambda m: m.group(1), text)


def test_a_marked_sentence_may_wrap_over_lines() -> None:
    assert list(marked_ids("<p>{{Keys: next,\n      previous.}}</p> {{ more}}")) == [
        "Keys: next, previous.",
        " more",
    ]


def _page(lang: str) -> str:
    data = {
        "title": "T",
        "subtitle": "",
        "sections": [],
        "frames": [{"section": None, "protocol": None, "step": "end"}],
        "faces": {},
        "card_back": "",
        "verdicts": [],
        "back": "",
    }
    with using_language(lang):
        return html_page(cast(PageData, data))


class _Visible(HTMLParser):
    """The text a reader sees (not scripts or styles) and every attribute a reader hears."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.hidden += 1
        self.parts += [v for k, v in attrs if k in ("title", "aria-label", "alt") and v]

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self.hidden and data.strip():
            self.parts.append(data)


def visible(page: str) -> list[str]:
    parser = _Visible()
    parser.feed(page)
    return parser.parts


def test_a_japanese_viewer_page_has_no_english_sentence() -> None:
    page = _page("ja")
    assert '<html lang="ja">' in page
    found = {part.strip(): english(part) for part in visible(page) if english(part)}
    assert not found, found
    # The script's words: no English literal of the template is left.
    script = page[page.index("kitgen step-through viewer") :]
    js = (VIEWER / "viewer.js").read_text(encoding="utf-8")
    left = [m for m in marked_ids(js) if ENGLISH_WORD.search(m) and f'"{m}"' in script]
    assert not left, left


def test_every_viewer_word_goes_through_the_catalogue() -> None:
    page = _page("qps")
    unwrapped = [p for p in visible(page) if english(re.sub(r"⟦[^⟧]*⟧", "", p))]
    assert not unwrapped, unwrapped


def test_a_translation_cannot_leave_its_string_or_the_script(monkeypatch: pytest.MonkeyPatch) -> None:
    from kitgen.lang import marked

    monkeypatch.setattr(marked, "_", lambda text: 'say "hi"</script><script>alert(1)</script>\\')
    with using_language("ja"):
        out = marked.fill_marked('var a = "{{Next}}";', js=True)
    assert "</script>" not in out and "<" not in out
    body = out[len("var a = ") : -1]
    assert json.loads(body) == 'say "hi"</script><script>alert(1)</script>\\'


def test_a_translation_is_text_in_a_page_never_markup(monkeypatch: pytest.MonkeyPatch) -> None:
    from kitgen.lang import marked

    monkeypatch.setattr(marked, "_", lambda text: "前へ（&larr;）<img src=x onerror=alert(1)>")
    with using_language("ja"):
        out = marked.fill_marked("<button>{{Previous step (&larr;)}}</button>")
    assert out == "<button>前へ（&larr;）&lt;img src=x onerror=alert(1)&gt;</button>"


# ----------------------------------------------------------------------------- index.html


class _Index(HTMLParser):
    """index.html's text by the element it is in (h1, h2, th, li, figcaption, p, td)."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.found: list[tuple[tuple[str, ...], str]] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("style", "script"):
            self.hidden += 1
        if tag not in ("br", "img", "meta", "a", "code", "span"):
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("style", "script"):
            self.hidden -= 1
        if self.stack and self.stack[-1] == tag:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if not self.hidden and data.strip():
            self.found.append((tuple(self.stack), html.unescape(data).strip()))


def index_texts(folder: Path) -> list[tuple[tuple[str, ...], str]]:
    parser = _Index()
    parser.feed((folder / "index.html").read_text(encoding="utf-8"))
    return parser.found


def test_the_japanese_index_page(japanese_font_kit: Path) -> None:
    page = (japanese_font_kit / "index.html").read_text(encoding="utf-8")
    assert '<html lang="ja">' in page
    texts = index_texts(japanese_font_kit)
    headings = [t for where, t in texts if where and where[-1] in ("h1", "h2", "th", "figcaption", "title")]
    assert {"印刷するファイル", "どのページに何があるか", "印刷のしかた", "すべてのページの一覧"} <= set(
        headings
    )
    assert not [t for t in headings if english(t)], headings
    # How to print (its list) and what each file holds (the files table's last column).
    # (labels.pdf's line names the label stock in the printing guide's words: not these modules')
    printing = [t for where, t in texts if where[-2:] == ("ul", "li") and t.endswith("。")]
    assert len(printing) >= 3
    assert not [t for t in printing if english(t) and not t.startswith("labels.pdf")], printing
    described = [t for where, t in texts if where[-2:] == ("tr", "td") and "：" in t and "ラベル" in t]
    assert described and not [t for t in described if english(t.split(" (")[0])]
    muted = [t for where, t in texts if where[-1:] == ("p",)]
    kit_facts = [t for t in muted if "kitgen" in t]
    assert kit_facts and not english(kit_facts[0].split("出典：")[0]), kit_facts


def test_the_label_stock_is_named_in_japanese(japanese_font_kit: Path) -> None:
    """The label sheet's name (templates/layout.yaml) on the label pages' calibration heading and
    footers and in the index's files table is the catalogue's: it stood in English on the
    Japanese Gakmoro kit ("ラベルの位置合わせ：Plain paper, small sleeve labels, cut out (A4)")."""
    from pypdf import PdfReader

    name = "エイブリー L7160（A4、ラベル 21 面）"
    pages = [p.extract_text() or "" for p in PdfReader(str(japanese_font_kit / "labels.pdf")).pages]
    assert f"ラベルの位置合わせ：{name}\n" in pages[0]
    assert all(name in page and "labels)" not in page for page in pages)
    described = [
        t for where, t in index_texts(japanese_font_kit) if where[-2:] == ("tr", "td") and "ラベル" in t
    ]
    assert any(name in t for t in described) and not [t for t in described if "labels)" in t], described


def test_the_japanese_viewer_page_of_a_kit(japanese_font_kit: Path) -> None:
    pages = sorted((japanese_font_kit / "view").glob("*.html"))
    assert pages
    page = pages[0].read_text(encoding="utf-8")
    assert '<html lang="ja">' in page
    found = [p for p in visible(page) if english(p)]
    assert not found, found


@pytest.mark.slow  # a real headless browser (tests/kitgen/test_browser.py's)
def test_a_japanese_viewer_page_steps_through_in_a_browser(japanese_font_kit: Path) -> None:
    from tests.kitgen.test_browser import ARGS, chromium, open_page
    from tests.kitgen.viewer_pages import page_data

    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    exe = chromium()
    if exe is None:
        pytest.skip("no Chromium found (apt-get install chromium, or set KITGEN_CHROMIUM)")
    path = sorted((japanese_font_kit / "view").glob("*.html"))[0]
    frames = page_data(path)["frames"]
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, args=ARGS)
        page, errors, _ = open_page(browser, path.as_uri())
        assert page.inner_text("#first").endswith("最初") and page.inner_text("#next").startswith("次へ")
        for frame in frames:
            if frame["step"] == "end":
                assert "検証済み" in page.inner_text("#verdicts")
                assert "この回のおわり" in page.inner_text("#end")
            else:
                assert page.inner_text("#step-number").startswith(f"手順{frame['step']}")
                for spares in ("#spares", "#if-wrong"):
                    assert not english(page.inner_text(spares).split("：")[0]), page.inner_text(spares)
            page.keyboard.press("ArrowRight")
        browser.close()
    assert errors == []


# ----------------------------------------------------------------------------- the handout


def test_the_japanese_handout(japanese_font_kit: Path) -> None:
    text = poppler("pdftotext", "-layout", str(japanese_font_kit / "handout.pdf"), "-")
    assert "授業用" in text and "答えのある場所" in text
    for english_words in ("of the", "lesson", "more step", "Places", "Place "):
        assert english_words not in text, english_words
    assert "列の3番目と4番目" in re.sub(r"\s+", "", text) or "の3番目と4番目" in text


# ----------------------------------------------------------------------------- kitgen build


def test_the_console_lines_of_a_japanese_build(japanese_font_kit: Path) -> None:
    from kitgen.cli.console import kit_lines
    from kitgen.core.manifest import from_json

    manifest = from_json(json.loads((japanese_font_kit / "manifest.json").read_text(encoding="utf-8")))
    with using_language("ja"):
        lines = [line.replace("None/", "") for line in kit_lines(manifest)]  # no folder: read back
    head = lines[: lines.index("材料一覧：")]
    assert not [line for line in head if english(line)], head
    verified = lines[lines.index("印刷前に検証済み：") + 1 :][:1]
    assert verified and "厳密" in verified[0] and not english(verified[0].split("：", 1)[1])


# ----------------------------------------------------------------------------- the kinds' chapters

KINDS = (
    "uno",
    "uno-small",
    "uno-official",
    "crazy-eights",
    "sevens",
    "hearts",
    "dominoes",
    "daifugo",
    "gakmoro",
)


def _texts(section: FrontSection) -> list[str]:
    out = [section.title]
    blocks = [row for block in section.blocks for row in (block.rows if isinstance(block, Box) else [block])]
    for block in blocks:
        if isinstance(block, Text) and not block.text.startswith("出典："):  # the source, as cited
            out.append(f"{block.lead or ''} {block.text}")
        elif isinstance(block, Grid):
            out += [cell for row in block.rows for cell in row if isinstance(cell, str)]
    return out


def _booklet(name: str) -> tuple[Booklet, Any]:
    from kitgen.kinds import kit_kind
    from reference_engine.api import load_game

    rules = load_game(name)
    kind = kit_kind(rules)
    top = SimpleNamespace(title="カード選択プロトコル", protocol="card-selection", overview="", time=None)
    booklet = Booklet(
        name,
        "",
        "",
        "game",
        [cast(Section, top)],
        [],
        rules=rules,
        players=4,
        virtual=1,
        owners=list(SEATS),
        deck=lambda card: kind.deck_face(rules, card),
        # A weighted virtual player's weights (the shedding kinds' "stronger virtual player" box).
        example={"params": {"sizes": [3, 3, 3, 3, 10]}, "weights": {"wild": 3, "action": 2}},
    )
    return booklet, kind


@pytest.mark.parametrize("name", KINDS)
def test_the_japanese_rules_chapter_and_virtual_turn(name: str) -> None:
    from kitgen.kinds.sealed_bid import front as sealed

    with using_language("ja"):
        booklet, kind = _booklet(name)
        if name == "gakmoro":
            chapters = [sealed.sealed_rules(booklet), sealed.bundles(booklet), sealed.round_overview(booklet)]
        else:
            chapters = [kind.rules_page(booklet), kind.turn_page(booklet)]
        for chapter in chapters:
            for line in _texts(chapter):
                for seat in SEATS:
                    line = line.replace(seat, "")
                assert not english(line), (name, chapter.title, line)


def test_the_rules_chapter_is_english_in_english() -> None:
    booklet, kind = _booklet("crazy-eights")
    text = " ".join(_texts(kind.rules_page(booklet)) + _texts(kind.turn_page(booklet)))
    assert "If the first card turned over is an eight (wild): put it back into the draw pile" in text
    assert "at most 3 cards; if it may be played, the player may play it at once." in text
    assert "If it is an eight, shuffle the suit choice cards" in text
