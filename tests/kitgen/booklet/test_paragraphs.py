"""Spec text never becomes reportlab markup: every paragraph of every PDF prints its text literally."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from pypdf import PdfReader
from reportlab.lib.styles import ParagraphStyle

from kitgen.booklet.paragraphs import Styled, markup, paragraph
from kitgen.cli.main import main
from kitgen.kit.build import KitOptions, build
from reference_engine.registry import rulesets_dir
from tests.kitgen.pdftext import page_texts

KITGEN = Path(__file__).resolve().parents[3] / "kitgen"
# What a hostile spec author (or a careless one) writes: reportlab's own tags, an image with an
# event handler, a drawing callback, entities, bold, and tags left open or closed twice.
HOSTILE = (
    '<img onerror=alert(1) src="x.png"/> <onDraw name=x label="y"/> & <b>bold &amp; &lt; </i> <para <br/'
)
STYLE = ParagraphStyle("test")


def pdf_text(path: Path) -> str:
    """The text of every page in drawing order (a table cell's lines stay together), white
    space collapsed."""
    return " ".join(" ".join(text.split()) for text in page_texts(path))


@pytest.mark.parametrize(
    "text", [HOSTILE, "<onDraw name=x/>", "&", "&amp;", "<b>", "</b>", "<", "a <b>b", "]]>", "&#0;", "&nbsp;"]
)
def test_markup_prints_text_literally(text: str) -> None:
    assert paragraph(STYLE, text).getPlainText() == text
    assert paragraph(STYLE, "lead", Styled(text, "b"), " ", text).getPlainText() == f"lead{text} {text}"


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=60))
def test_any_text_is_printed_as_it_is(text: str) -> None:
    assert paragraph(STYLE, text).getPlainText() == " ".join(text.split())


SUB = '<sub rise="2" size="75%">'  # a real subscript: three quarters of the size, lowered 2 pt


def test_subscripts_never_cut_an_escaped_character() -> None:
    assert markup("P_1 x_{i} &_lt; a_(<b>) <_x>", subscripts=True) == (
        "P<sub>1</sub> x<sub>i</sub> &amp;<sub>lt</sub>; a<sub>(&lt;b&gt;)</sub> &lt;<sub>x</sub>&gt;"
    ).replace("<sub>", SUB)
    # E_[-m,m] (the Gakmoro paper's range) is a subscript too.
    assert markup("E_[-m,m](a)", subscripts=True) == f"E{SUB}[-m,m]</sub>(a)"
    assert paragraph(STYLE, "a_(<b>)", subscripts=True).getPlainText() == "a(<b>)"


MAKERS = ("Paragraph", "XPreformatted", "Preformatted", "ParaLines")


def _offences(tree: ast.AST, where: str) -> list[str]:
    """What in ``tree`` makes reportlab paragraphs or escapes text for them: each maker's calls
    (by name or attribute), in the order of :data:`MAKERS`, then the other offences. One walk of
    the tree (a walk per maker: 1.3-1.7 s of CPU for the whole check, one walk 0.85 s)."""
    calls: dict[str, list[str]] = {name: [] for name in MAKERS}
    other = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = (
                func.id
                if isinstance(func, ast.Name)
                else func.attr
                if isinstance(func, ast.Attribute)
                else None
            )
            if name in calls:
                calls[name].append(f"{where}:{node.lineno} {name}(...)")
        elif isinstance(node, ast.ImportFrom) and node.module == "xml.sax.saxutils":
            other.append(f"{where}:{node.lineno} escapes for reportlab itself")
        elif isinstance(node, ast.ClassDef) and any(
            isinstance(b, ast.Name) and b.id == "Paragraph" for b in node.bases
        ):
            other.append(f"{where}:{node.lineno} subclasses Paragraph")
    return [line for name in MAKERS for line in calls[name]] + other


def test_paragraphs_are_made_in_one_place() -> None:
    """Only kitgen.booklet.paragraphs makes reportlab paragraphs (and escapes text for them), so no text
    can reach reportlab's markup parser unescaped."""
    offenders = []
    for path in sorted(KITGEN.rglob("*.py")):
        if path.relative_to(KITGEN).as_posix() == "booklet/paragraphs.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        offenders += _offences(tree, str(path.relative_to(KITGEN)))
    assert offenders == []


def test_the_paragraph_check_sees_every_offence() -> None:
    """The check is not blind: a maker called by name or as an attribute, saxutils' escaping and a
    subclass of Paragraph are each found, with their lines, in the order the check reports them."""
    tree = ast.parse(
        "from xml.sax.saxutils import escape\n"
        "x = platypus.ParaLines(1)\n"
        "class Mine(Paragraph):\n"
        "    pass\n"
        "y = Paragraph(escape(t), style)\n"
        "z = XPreformatted(t, style)\n"
    )
    assert _offences(tree, "m.py") == [
        "m.py:5 Paragraph(...)",
        "m.py:6 XPreformatted(...)",
        "m.py:2 ParaLines(...)",
        "m.py:1 escapes for reportlab itself",
        "m.py:3 subclasses Paragraph",
    ]


# --------------------------------------------------------------------------- whole booklets


def hostile_protocol(folder: Path) -> Path:
    """six-card-and with hostile text in every text field of the spec, each with its own tag.
    Its cards are new ones (glyphs are kept per card for the whole process: alpha is α)."""
    text = (rulesets_dir() / "protocols" / "six-card-and.yaml").read_text(encoding="utf-8")
    text = re.sub(r"\b(alpha|beta)\b", r"hostile_\1", text)
    d = yaml.safe_load(text)
    d["title"] = f"T1 {HOSTILE}"
    d["summary"] = f"S1 {HOSTILE}"
    d["source"] = {"cite": f"C1 {HOSTILE}", "as_used_in": f"U1 {HOSTILE}"}
    d["symbols"]["hostile_alpha"] = {"glyph": "<b>", "doc": f"D1 {HOSTILE}"}
    d["symbols"]["hostile_beta"] = {"glyph": "&", "doc": f"D2 {HOSTILE}"}
    d["encodings"]["bit"]["doc"] = f"E1 {HOSTILE}"
    d["inputs"]["x"]["doc"] = f"I1 {HOSTILE}"
    for n, step in enumerate(d["steps"], 1):
        step["brief"] = f"B{n} {HOSTILE}"
        step["say"] = f"Y{n} {HOSTILE}"
    d["steps"][2]["shuffle"]["how"] = f"W1 {HOSTILE}"
    d["steps"][4]["labels"] = {"s[3..4]": f"L1 {HOSTILE}", "s[5..6]": "<onDraw/>"}
    d["outputs"]["and"]["doc"] = f"O0 {HOSTILE}"  # the engine's doc; pages print the player's name:
    d["booklet"]["names"]["and"] = {"name": f"O1 {HOSTILE}", "values": {0: "0", 1: "1"}}
    d["booklet"]["overview"] = f"V1 {HOSTILE}"
    d["booklet"]["if_wrong"] = f"F1 {HOSTILE}"
    for n, expect in enumerate(d["expect"].values(), 1):
        expect["cite"] = f"X{n} {HOSTILE}"
    path = folder / "six-card-and.yaml"
    path.write_text(yaml.safe_dump(d, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def hostile_game(folder: Path) -> Path:
    """uno-small with hostile text in every text field of the rule set."""
    d = yaml.safe_load((rulesets_dir() / "games" / "uno-small.yaml").read_text(encoding="utf-8"))
    d["title"] = f"G1 {HOSTILE}"
    d["summary"] = f"G2 {HOSTILE}"
    d["source"]["cite"] = f"G3 {HOSTILE}"
    d["deck"]["doc"] = f"G4 {HOSTILE}"
    d["rules"]["doc"] = f"G5 {HOSTILE}"
    d["notes"] = f"G6 {HOSTILE}"
    d["booklet"]["how_to_play"] = [f"G7 {HOSTILE}", f"G8 {HOSTILE}"]
    d["booklet"]["card_names"] = {k: f"G9 {k} {HOSTILE}" for k in d["booklet"]["card_names"]}
    path = folder / "uno-small.yaml"
    path.write_text(yaml.safe_dump(d, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def tags_in(text: str, prefix: str) -> tuple[set[str], list[str]]:
    """The tags (``T1``, ``B3``...) whose hostile text is printed whole, and those printed mangled."""
    whole = set(re.findall(rf"\b({prefix}\d+(?: \w+)?) {re.escape(HOSTILE)}", text))
    started = re.findall(rf"\b({prefix}\d+(?: \w+)?) <img", text)
    return whole, [t for t in started if t not in whole]


@pytest.fixture(scope="module")
def protocol_booklet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("hostile-protocol")
    spec = hostile_protocol(folder)
    result = CliRunner().invoke(main, ["booklet", str(spec), "-o", str(folder / "b"), "--no-previews"])
    assert result.exit_code == 0, result.output
    return folder / "b" / "booklet.pdf"


def test_a_protocol_booklet_prints_hostile_text_literally(protocol_booklet: Path) -> None:
    text = pdf_text(protocol_booklet)
    whole: set[str] = set()
    mangled: list[str] = []
    for prefix in "TSCBYWLOVFX":
        w, m = tags_in(text, prefix)
        whole |= w
        mangled += m
    assert mangled == []
    steps = {f"{k}{n}" for k in "BY" for n in range(1, 6)}
    assert whole >= {"T1", "S1", "C1", "W1", "L1", "O1", "V1", "F1", "X1", "X2", "X3", *steps}
    assert "<onDraw/>" in text and " <b> " in text  # a label and a glyph, on the diagrams
    # The contents and the PDF outline (bookmarks) have the title as it is.
    # (The contents name a section by its title alone: no engine id on a player's page.)
    contents = " ".join((PdfReader(protocol_booklet).pages[1].extract_text() or "").split())
    assert " ".join(f"T1 {HOSTILE}".split()) in contents.split("Contents", 1)[1]
    assert "(six-card-and)" not in text
    outline = [item.title for item in PdfReader(protocol_booklet).outline if not isinstance(item, list)]
    assert f"T1 {HOSTILE}" in outline


def test_a_game_booklet_prints_hostile_text_literally(tmp_path: Path) -> None:
    rules = hostile_game(tmp_path)
    manifest: dict[str, Any] = build(
        KitOptions(ruleset=str(rules), runs=0, previews=False, output=str(tmp_path / "kit"))
    ).to_json()
    text = pdf_text(tmp_path / "kit" / "booklet.pdf")
    whole, mangled = tags_in(text, "G")
    assert mangled == []
    assert whole >= {"G1", "G2", "G3", "G5", "G6", "G7", "G8", "G9 skip"}
    assert manifest["game"]["title"] == f"G1 {HOSTILE}"


def test_validation_resources_say_one_shuffle_not_one_shuffles() -> None:
    """Validation pages said "1 shuffles, 1 turns" (issue 39): singular and plural follow the count."""
    from kitgen.core.words import resources_sentence

    one = {"cards": 4, "input_cards": 4, "helper_cards": 0, "shuffles": 1, "turns": 1, "steps": 1}
    assert resources_sentence(one) == "Resources: 4 cards (4 input, 0 helper), 1 shuffle, 1 turn, 1 step."
    two = dict(one, shuffles=2, turns=[3, 4], steps=5)
    assert "2 shuffles, [3, 4] turns, 5 steps." in resources_sentence(two)
