"""The booklet's first chapters as data (kitgen.booklet.frontmatter) and as HTML (kitgen.web.fronthtml)."""

from __future__ import annotations

from kitgen.booklet.frontmatter import (
    Box,
    Checklist,
    FrontSection,
    Gap,
    Grid,
    Picture,
    Text,
    numbered,
    without_pages,
)
from kitgen.paper.faces import Face
from kitgen.web.fronthtml import front_html


def test_a_chapter_is_json_without_page_references() -> None:
    card = Face("theta", "theta1", "θ1")
    chapter = FrontSection(
        "Setting up",
        (
            Text("Sit <down>", lead="First."),
            Grid((("θ card", "Owner"), (Picture("cards", (card,), 9), "θ1: Virtual 1")), (14,)),
            Gap(2),
            Box((Text("Shuffle.", style="small"),), "warning"),
            Checklist(("Set up (page {page:title:Setting up}).", "Step 1 (Lottery: page {page:title:L}).")),
        ),
    )
    data = chapter.to_json()
    assert data["title"] == "Setting up"
    assert [b["type"] for b in data["blocks"]] == ["text", "table", "gap", "box", "checklist"]
    assert data["blocks"][1]["rows"][1][0] == {"type": "picture", "kind": "cards", "cards": ["θ1"]}
    assert data["blocks"][4]["items"] == ["Set up.", "Step 1 (Lottery)."]


def test_page_references_are_left_out_where_there_are_no_pages() -> None:
    assert without_pages("Read it (page {page:title:A turn}).") == "Read it."
    assert without_pages("Step 2 (The lottery: page {page:title:The lottery}) (page {page:step:x:2})") == (
        "Step 2 (The lottery)"
    )


def test_numbered_paragraphs_are_the_steps_of_a_chapter() -> None:
    assert [t.text for t in numbered(["Deal.", "Play."])] == ["1. Deal.", "2. Play."]


def test_the_html_escapes_text_and_draws_cards_as_pictures() -> None:
    card = Face("theta", "theta1", "θ1")
    chapter = FrontSection(
        "Rules <b>",
        (
            Text("a < b", lead="Note."),
            Grid((("", "x"), (Picture("cards", (card,), 9), "P_1")), (14,), spec=True),
        ),
    )
    page = front_html([chapter], None)
    assert "<h3>Rules &lt;b&gt;</h3>" in page
    assert "<p><b>Note.</b> a &lt; b</p>" in page
    assert page.count('<img class="card" src="data:image/png;base64,') == 1
    assert "<td>P1</td>" in page  # a spec's subscripts as plain text
