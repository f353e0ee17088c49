"""The identifier check: derived from the specs themselves, it passes on every page for players of
the shipped kits and fails on a booklet made to fail it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from kitgen.booklet.jargon import Vocabulary
from kitgen.core.optionspec import KindValues
from kitgen.kit.build import BookletOptions, KitOptions, build, build_booklet
from reference_engine.api import Library
from reference_engine.registry import rulesets_dir

# --------------------------------------------------------------------------- the vocabulary


def test_the_vocabulary_comes_from_the_spec() -> None:
    proto = Library().protocol("card-selection")
    v = Vocabulary.of([proto])
    assert {"M", "L", "T", "sizes"} & v.code == {"M", "L", "T"}
    assert {"played", "found", "hands", "sizes", "valid"} <= v.words
    assert "theta" in v.families and {"ncols", "part", "columns"} <= v.functions
    assert "3 * sum(sizes) + 4" in v.expressions
    assert {"P_1", "P1", "k", "k_1", "θ_i"} <= set(v.notation)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Taken from the spares: 6 theta1.", "'theta1' (a spec name)"),
        ("The matrix M is shuffled.", "'M' (a spec name)"),
        ("It holds 2 * m + 1 cards.", "'m' (a spec name)"),
        ("Who wins (1: Alice, -1: Bob): found = yes", "'found' used as code"),
        ("the place E_[-m,m](a - b)", "an underscore"),
        ("cards in play (k = 92)", "'k' (the paper's notation)"),
        ("put the pair at s[3..4]", "(indexing)"),
        ("see templates/table_time.yaml", "(a YAML file)"),
        ("if ncols(L) == 0", "ncols( (a spec function)"),
        ("the candidates c (4) are shuffled", "'c' (a spec name)"),  # not a sub-step's letter
    ],
)
def test_what_is_flagged(text: str, found: str) -> None:
    library = Library()
    names = ("card-selection", "gakmoro-subtraction", "knockout-lottery")
    v = Vocabulary.of([library.protocol(n) for n in names])
    assert any(found in f for f in v.findings(text)), v.findings(text)


@pytest.mark.parametrize(
    "text",
    [
        "Every card of Virtual 1's hand is played (the cards already taken out stay).",
        "A4 card stock of 250-300 g/m², 41 × 63 mm cards; T. Mizuki and H. Sone.",
        "Turn over the two leftmost cards: α β means 0, β α means 1 (= 0).",
        "The θ1 cards are Virtual 1's; a tie, a card, a pile.",
        "Extend the bundle to 14 cards, found at the left.",
        "On a pair of 7s: a pair of 8s or higher.",
        "Step 4(c). Turn over each arrow card between two sleeves.",  # a sub-step's letter
    ],
)
def test_plain_words_pass(text: str) -> None:
    library = Library()
    v = Vocabulary.of([library.protocol(n) for n in library.names()])
    assert v.findings(text) == []


USER_SPEC = """\
protocol: my-flip
title: Flip a bit
source: {cite: "a class exercise"}
symbols: {alpha: {glyph: "α"}, beta: {glyph: "β"}}
encodings: {bit: {values: {0: [alpha, beta], 1: [beta, alpha]}}}
inputs: {zq7: {encoding: bit}}
steps:
  - step: 1
    say: Swap the two cards of the pair.
    rearrange: {zq7: [2, 1]}
outputs:
  flipped: {cards: zq7, encoding: bit, equals: "1 - zq7"}
"""


def test_a_user_spec_gets_its_own_vocabulary(tmp_path: Path) -> None:
    """Nothing is hard-wired: a spec's own names are what the check looks for."""
    spec = tmp_path / "my-flip.yaml"
    spec.write_text(USER_SPEC, encoding="utf-8")
    proto = Library([tmp_path]).protocol(str(spec))
    v = Vocabulary.of([proto])
    assert "zq7" in v.code and "1 - zq7" in v.expressions
    assert v.findings("the pair zq7 is swapped") == ["'zq7' (a spec name)"]
    assert v.findings("the pair is swapped") == []


# --------------------------------------------------------------------------- booklets and kits


def _broken_spec(tmp_path: Path) -> Path:
    """The six-card AND with its player's words replaced by the spec's and the paper's."""
    text = (rulesets_dir() / "protocols" / "six-card-and.yaml").read_text(encoding="utf-8")
    text = text.replace(
        'say: "Move the fourth card back to the second place."',
        "say: Rearrange s so that s[4] moves to place 2, as P_1 does with theta1.",
    )
    text = text.replace('"s[3..4]": "both"', '"s[3..4]": "x AND y"')
    assert "P_1 does with theta1" in text and '"x AND y"' in text
    path = tmp_path / "six-card-and.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_booklet_made_to_fail_fails(tmp_path: Path, plain_words: Callable[[Path], list[str]]) -> None:
    spec = _broken_spec(tmp_path)
    out = tmp_path / "bad"
    build_booklet(BookletOptions(name=str(spec), output=str(out), previews=False))
    found = plain_words(out)
    text = "\n".join(found)
    for wanted in ("'s' (a spec name)", "'s[4' (indexing)", "P'1' set as a subscript", "'x' (a spec name)"):
        assert wanted in text, (wanted, found)
    # Only the broken step's page and the diagrams' labels: the rest of the booklet is clean.
    assert all("booklet.pdf" in f for f in found)


def test_the_check_from_the_command_line_reads_a_booklet_of_a_spec_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``python -m kitgen.booklet.jargon`` on the booklet of a user's spec file, given by its path
    (kitgen booklet my-flip.yaml): the check named the protocol before loading its file and
    ended in a traceback ("unknown protocol 'my-flip'"); so did --help and a folder with no kit."""
    from kitgen.booklet.jargon import main

    monkeypatch.chdir(tmp_path)
    Path("my-flip.yaml").write_text(USER_SPEC, encoding="utf-8")
    build_booklet(BookletOptions(name="my-flip.yaml", output="flip", previews=False))
    assert main(["flip"]) == 1  # the spec's own names: its input, named nowhere in player's words
    assert "'zq7' (a spec name)\n1 problem(s)\n" in capsys.readouterr().out
    monkeypatch.chdir(tmp_path / "flip")  # the spec's path as given no longer reaches its file
    assert main(["."]) == 2
    assert "unknown protocol 'my-flip'" in capsys.readouterr().err
    assert main(["--help"]) == 0 and "KIT_FOLDER" in capsys.readouterr().out
    assert main(["no-such-folder"]) == 2
    assert "not a kit or booklet folder" in capsys.readouterr().err


def test_the_validation_pages_may_use_the_paper(
    tmp_path: Path, plain_words: Callable[[Path], list[str]]
) -> None:
    """The Validation appendix prints formulas (``and = x and y``) and the paper's wording; the
    check leaves it alone, and finds nothing anywhere else."""
    out = tmp_path / "and"
    build_booklet(BookletOptions(name="six-card-and", output=str(out), previews=False))
    assert plain_words(out) == []
    from pypdf import PdfReader

    text = "\n".join(p.extract_text() or "" for p in PdfReader(str(out / "booklet.pdf")).pages)
    assert "and = x and y" in text and "in the paper's words" in text


def _outlined(path: Path, heading_at: float | None) -> None:
    """A page with a spec's indexing above and below where a Validation heading is, its outline
    entry at that height (``None``: an entry that names no height, the whole page)."""
    from reportlab.pdfgen.canvas import Canvas

    c = Canvas(str(path), pagesize=(400, 600))
    c.drawString(40, 550, "Above: s[4] moves")
    c.drawString(40, 300, "Validation")
    c.drawString(40, 250, "Below: s[3] == 1")
    if heading_at is None:
        c.bookmarkPage("v")
    else:
        c.bookmarkHorizontalAbsolute("v", heading_at)
    c.addOutlineEntry("Validation", "v", 0)
    c.showPage()
    c.save()


def test_the_validation_is_exempt_from_its_heading_down(tmp_path: Path) -> None:
    """A Validation that opens mid-page (below a protocol's end) leaves out only what lies below
    its heading: what stands above is checked as every page for players is; an outline entry
    without a height leaves the page out whole, as before."""
    from kitgen.booklet.jargon import exempt_pages, pdf_findings

    path = tmp_path / "mid.pdf"
    _outlined(path, 312)
    skip = exempt_pages(path)
    assert skip == {1: pytest.approx(600 - 312)}
    found = [str(f) for f in pdf_findings(path, Vocabulary.of([]), skip)]
    assert found == ["mid.pdf p. 1: 's[4' (indexing)"]
    assert len(pdf_findings(path, Vocabulary.of([]), {})) == 3  # both indexings and the comparison
    _outlined(path, None)
    assert exempt_pages(path) == {1: 0.0} and pdf_findings(path, Vocabulary.of([]), exempt_pages(path)) == []
    assert pdf_findings(path, Vocabulary.of([]), [1]) == []  # pages as before: whole


def test_the_validation_opens_below_the_last_part(tmp_path: Path) -> None:
    """The six-card AND's last "for the curious" box ran over onto a page of its own (a sixth
    full) because the Validation always began a page: it now opens below it, and its outline entry
    points at its heading."""
    from pypdf import PdfReader

    from kitgen.booklet.jargon import exempt_pages

    out = tmp_path / "and"
    build_booklet(BookletOptions(name="six-card-and", output=str(out), previews=False))
    path = out / "booklet.pdf"
    skip = exempt_pages(path)
    first = min(skip)
    assert skip[first] > 100  # points below the page's top
    text = PdfReader(str(path)).pages[first - 1].extract_text() or ""
    assert "For the curious" in text.split("Validation")[0]


@pytest.mark.parametrize(
    "ruleset",
    # Each a whole build of its own: the slow tier's. The fast tier checks the same pages of the
    # UNO kit (tests/kitgen/kit/test_kit.py, the shedding kind, uno-small's rules on the whole deck)
    # and the Gakmoro kit (tests/kitgen/kinds/test_sealed_bid.py) with the same check.
    [
        pytest.param(r, marks=pytest.mark.slow)
        for r in ("uno-small", "dominoes", "crazy-eights", "sevens", "hearts", "uno-official")
    ],
)
def test_every_shipped_game_kit_speaks_plain_words(
    ruleset: str, tmp_path: Path, plain_words: Callable[[Path], list[str]]
) -> None:
    """Every page for players: booklet (but its Validation pages), card and label sheets, the kit's
    index and viewer pages (uno and gakmoro are checked with their own kit tests)."""
    # --wild4 is uno-official's own option (another kind refuses it): its bluffing virtual players.
    own = KindValues.of(wild4="bluff") if ruleset == "uno-official" else KindValues()
    out = tmp_path / ruleset
    build(KitOptions(ruleset=ruleset, output=str(out), previews=False, runs=20, own=own))
    assert plain_words(out) == []


def test_a_picture_inlined_as_a_data_uri_is_not_text(tmp_path: Path) -> None:
    """The ink-saver kit's pages carry their pictures as base64 data URIs: their padding ('==')
    is not a comparison a family reads (issue 39)."""
    import json

    from kitgen.booklet.jargon import html_findings

    data = {"faces": {"x": {"text": "Red 7"}}, "steps": [{"image": "data:image/png;base64,iVBORw0KG=="}]}
    page = tmp_path / "view.html"
    page.write_text(f"<html><body><p>Hello</p><script>{json.dumps(data)}</script></body></html>")
    assert html_findings(page, Vocabulary.of([])) == []
    data["steps"][0]["image"] = "if x == 1"  # real text with a comparison is still found
    page.write_text(f"<html><body><p>Hello</p><script>{json.dumps(data)}</script></body></html>")
    assert "a comparison" in str(html_findings(page, Vocabulary.of([])))
