"""The printable kit, read back from its PDFs."""

from __future__ import annotations

import json
from collections import Counter
from html import escape
from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from pypdf import PdfReader

from kitgen.core.manifest import KitManifest
from kitgen.core.optionspec import KindValues
from kitgen.core.output import sha256
from kitgen.kit.build import KitOptions, _recorded, build
from reference_engine.errors import UsageError
from reference_engine.kinds.shedding import load_rules
from tests.kitgen.pdfgeometry import geometry
from tests.kitgen.pdftext import page_texts

MM = 72 / 25.4


@pytest.fixture(scope="module")
def default_kit(built_kit: Any) -> tuple[Path, dict[str, Any]]:
    """The default kit (`kitgen build`), built once per test session (tests/conftest.py)."""
    folder, manifest = built_kit()
    return folder, manifest


def card_rects(page: Any, w_mm: float, h_mm: float) -> list[dict[str, Any]]:
    """Rectangles the size of a card with its bleed (every card's background), either way up."""
    out = []
    for r in page.rects:
        size = sorted((r["width"] / MM, r["height"] / MM))
        if abs(size[0] - min(w_mm, h_mm)) < 0.1 and abs(size[1] - max(w_mm, h_mm)) < 0.1:
            out.append(r)
    return out


def test_default_kit_files(default_kit: tuple[Path, dict[str, Any]]) -> None:
    folder, manifest = default_kit
    for f in manifest["files"]:
        assert sha256(folder / f["path"]) == f["sha256"]
    stored = json.loads((folder / "manifest.json").read_text())
    assert stored["kit"] == "uno-4p1v-a4" and stored["options"]["players"] == 4
    pngs = [f for f in manifest["files"] if f["path"].endswith(".png")]
    pages = manifest["sheets"]["cards"]["pages"] + manifest["sheets"]["labels"]["pages"]
    assert len(pngs) == pages + manifest["booklet"]["pages"]
    assert (folder / "booklet.pdf").is_file() and (folder / "booklet.json").is_file()
    assert manifest["statistical_verification"]["verified"]
    assert all(v["verified"] for v in manifest["verification"])
    assert {v["protocol"] for v in manifest["verification"]} == {"card-selection-arrow", "knockout-lottery"}


def test_the_typed_manifest_writes_the_same_bytes(
    default_kit: tuple[Path, dict[str, Any]], manifest_round_trips: Any
) -> None:
    """manifest.json read back as a :class:`KitManifest` and written again is the same file; the
    engine kind the build knew stays in memory, out of the file."""
    folder, manifest = default_kit
    assert manifest_round_trips(folder) is KitManifest
    assert "kind" not in manifest and "kind" not in json.loads((folder / "manifest.json").read_text())


def _black_lines(page: Any) -> list[dict[str, Any]]:
    """pdfplumber's lines of a page drawn in black (the crop marks)."""
    return [ln for ln in page.lines if tuple(ln.get("stroking_color") or ()) in ((0,), (0, 0, 0))]


def _boxes(items: list[Any]) -> list[tuple[float, ...]]:
    return sorted((b["x0"], b["x1"], b["top"], b["bottom"]) for b in items)


def test_pages_cards_and_trim(default_kit: tuple[Path, dict[str, Any]]) -> None:
    """Every front page: A4, at most 9 cards of 56 x 87 mm with 1 mm of bleed, crop marks outside
    every card, and as many cards in all as the kit prints. The pages' rectangles and lines are
    read by PDFium (tests/kitgen/pdfgeometry.py: 1 s of CPU for the 51 pages, where pdfplumber's
    parser took 11 s), the first front page's by pdfplumber too, which must read the same."""
    folder, manifest = default_kit
    info = manifest["sheets"]["cards"]
    pages = geometry(folder / "cards.pdf", info["front_pages"])
    first = pages[info["front_pages"][0]]
    with pdfplumber.open(folder / "cards.pdf") as pdf:
        plumbed = pdf.pages[info["front_pages"][0] - 1]
        assert (first.width, first.height) == (pytest.approx(plumbed.width), pytest.approx(plumbed.height))
        for mine, theirs in (
            (card_rects(first, 58, 89), card_rects(plumbed, 58, 89)),
            (first.black_lines, _black_lines(plumbed)),
        ):
            assert len(_boxes(mine)) == len(_boxes(theirs)) > 0
            assert all(a == pytest.approx(b, abs=0.001) for a, b in zip(_boxes(mine), _boxes(theirs)))
    total = 0
    for number in info["front_pages"]:
        page = pages[number]
        assert (page.width, page.height) == (
            pytest.approx(595.28, abs=0.01),
            pytest.approx(841.89, abs=0.01),
        )
        cards = card_rects(page, 58, 89)  # 56 x 87 mm and 1 mm bleed on each side
        assert len(cards) <= 9
        total += len(cards)
        # Trim = bleed box less 1 mm: 56.0 x 87.0 mm to 0.1 mm.
        for r in cards:
            assert r["width"] / MM - 2 == pytest.approx(56, abs=0.1)
            assert r["height"] / MM - 2 == pytest.approx(87, abs=0.1)
        # Crop marks (the black hairlines) lie outside every card.
        marks = page.black_lines
        assert marks
        for line in marks:
            for r in cards:
                inside_x = (
                    min(line["x0"], line["x1"]) < r["x1"] - 0.01
                    and max(line["x0"], line["x1"]) > r["x0"] + 0.01
                )
                inside_y = (
                    min(line["top"], line["bottom"]) < r["bottom"] - 0.01
                    and max(line["top"], line["bottom"]) > r["top"] + 0.01
                )
                assert not (inside_x and inside_y)
    assert total == manifest["bom"]["printed_cards"]
    assert len(card_rects(first, 58, 89)) == 9 and len(first.black_lines) > 0


def _tenths(point: tuple[float, float]) -> tuple[float, float]:
    """A point to a tenth of a point (a sort key: PDFium's single precision does not reorder
    cards that lie in one column or row)."""
    return (round(point[0], 1), round(point[1], 1))


def test_backs_are_mirrored_long_edge(default_kit: tuple[Path, dict[str, Any]]) -> None:
    """The first three pairs of sheets: each back card lies where its front card lies, mirrored
    about the page's long edge. The cards' rectangles are read by PDFium (tests/kitgen/pdfgeometry.py:
    0.03 s of CPU for the six pages, pdfplumber's parser took 0.3 s; test_pages_cards_and_trim
    compares the two on a front page); both sides' positions to a hundredth of a point."""
    folder, manifest = default_kit
    info = manifest["sheets"]["cards"]
    pairs = list(zip(info["front_pages"], info["back_pages"]))[:3]
    pages = geometry(folder / "cards.pdf", [n for pair in pairs for n in pair])
    for front_no, back_no in pairs:
        front, back = pages[front_no], pages[back_no]
        fronts = sorted(((r["x0"], r["top"]) for r in card_rects(front, 58, 89)), key=_tenths)
        backs = sorted(((front.width - r["x1"], r["top"]) for r in card_rects(back, 58, 89)), key=_tenths)
        assert len(fronts) == len(backs) > 0
        assert all(a == pytest.approx(b, abs=0.005) for a, b in zip(fronts, backs)), (front_no, back_no)


def test_fonts_embedded_and_boxes_set(default_kit: tuple[Path, dict[str, Any]]) -> None:
    folder, _ = default_kit
    for name in ("cards.pdf", "labels.pdf"):
        reader = PdfReader(folder / name)
        for page in reader.pages[:6]:
            assert "/TrimBox" in page and "/BleedBox" in page if name == "cards.pdf" else True
            fonts = page["/Resources"].get("/Font", {})
            for ref in fonts.values():
                font = ref.get_object()
                desc = font.get("/FontDescriptor")
                if desc is None and "/DescendantFonts" in font:
                    desc = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
                assert desc is not None, f"{font.get('/BaseFont')} has no descriptor"
                desc = desc.get_object()
                assert "/FontFile2" in desc, f"{font.get('/BaseFont')} is not embedded"
                assert "DejaVu" in str(font.get("/BaseFont"))


def test_trim_box_is_the_card_area(default_kit: tuple[Path, dict[str, Any]]) -> None:
    folder, manifest = default_kit
    reader = PdfReader(folder / "cards.pdf")
    page = reader.pages[manifest["sheets"]["cards"]["front_pages"][0] - 1]
    trim = page.trimbox
    # Three cards that share their cut lines (the home profile): no bleed strips between them.
    assert float(trim.width) / MM == pytest.approx(3 * 56, abs=0.1)
    assert float(trim.height) / MM == pytest.approx(3 * 87, abs=0.1)


def test_bom_matches_an_independent_count(default_kit: tuple[Path, dict[str, Any]]) -> None:
    _, manifest = default_kit
    items = {i["key"]: i for i in manifest["bom"]["items"]}
    # The official deck: 4 colours x (one 0, two each of 1-9, skip, reverse, draw two) + 4 + 4 wild.
    assert items["deck"]["count"] == 4 * (1 + 2 * 9 + 3 * 2) + 8 == 108
    k = 108 - 1  # every card but the top of the discard pile
    # One arrow card per card on the table and a fresh one per match of the knockout lottery's
    # first round (the virtual player held at most k1 cards), no α/β pairs.
    assert "alpha" not in items and "beta" not in items
    assert k < items["arrow"]["needed"] <= k + 10
    assert "sleeve" in items["arrow"]["why"] and "knockout" in items["arrow"]["why"]
    # The kit's protocol keeps every card in a sleeve and washes sleeves; the lottery's matches
    # are played on mats: no envelopes, a sleeve for every game card (room for 3 cards).
    assert "envelope" not in items
    assert items["sleeve"]["needed"] == 108 and "room for 3 cards" in items["sleeve"]["name"]
    # The shuffles' piles are those very sleeves (92 at the worked example's largest shuffle):
    # no second line of sleeves for the shuffles.
    assert "shuffle_sleeve" not in items
    assert max(h["count"] for h in manifest["bom"]["shuffle_holders"] if h["holder"] == "sleeve") <= 108
    # The arrow protocol's helper cards: an owner card and an arrow per card.
    assert f"needs {k + items['arrow']['needed']} helper cards" in " ".join(manifest["bom"]["notes"])
    # At the first turn the draw pile holds 108 - 4 x 7 - 1 = 79 cards: at least that many θ5.
    assert items["theta5"]["needed"] >= 79
    assert all(items[f"theta{i}"]["needed"] >= 7 for i in range(1, 5))
    assert items["choice"]["count"] == 4 and items["seat"]["count"] == 5
    assert sum(i["count"] for i in items.values() if i["kind"] == "card") == manifest["bom"]["printed_cards"]


@pytest.mark.slow  # a second whole build; the fast tier compares the kit's bytes with the golden ones
def test_same_inputs_same_bytes(default_kit: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    folder, _ = default_kit
    again = build(KitOptions(output=str(tmp_path / "again"))).to_json()
    for name in ("cards.pdf", "labels.pdf", "manifest.json", "previews/cards-p003.png"):
        assert (folder / name).read_bytes() == (tmp_path / "again" / name).read_bytes(), name
    assert again["files"] == json.loads((folder / "manifest.json").read_text())["files"]


@pytest.mark.parametrize("duplex", ["short", "none", "fold"])
def test_other_ways_to_print_backs(tmp_path: Path, duplex: str) -> None:
    manifest = build(
        KitOptions(virtual=0, duplex=duplex, output=str(tmp_path / duplex), previews=False)
    ).to_json()
    info = manifest["sheets"]["cards"]
    with pdfplumber.open(tmp_path / duplex / "cards.pdf") as pdf:
        if duplex == "short":
            front, back = pdf.pages[info["front_pages"][0] - 1], pdf.pages[info["back_pages"][0] - 1]
            fronts = {(round(r["x0"], 2), round(r["top"], 2)) for r in card_rects(front, 58, 89)}
            backs = {
                (round(r["x0"], 2), round(back.height - r["bottom"], 2)) for r in card_rects(back, 58, 89)
            }
            assert fronts == backs and info["calibration_pages"] == 2
        elif duplex == "none":
            assert info["back_pages"][0] > info["front_pages"][-1] and info["calibration_pages"] == 0
            assert len(info["back_pages"]) == len(info["front_pages"])
        else:
            page = pdf.pages[0]
            cards = card_rects(page, 58, 89)
            top = [r for r in cards if r["bottom"] < page.height / 2]
            bottom = {
                (round(r["x0"], 2), round(page.height - r["bottom"], 2))
                for r in cards
                if r["top"] > page.height / 2
            }
            assert top and {(round(r["x0"], 2), round(r["top"], 2)) for r in top} == bottom


@pytest.mark.slow  # a whole build verifying the paper's protocol; the fast tier builds the default kit
def test_store_bought_deck_needs_sleeves(tmp_path: Path) -> None:
    # The paper's protocol lays markers and game cards face down side by side: every card needs
    # the same sleeve, or the different backs give the protocol away.
    manifest = build(
        KitOptions(
            own=KindValues.of(deck="store"),
            protocol="card-selection",
            output=str(tmp_path / "store"),
            previews=False,
        )
    ).to_json()
    items = {i["key"]: i for i in manifest["bom"]["items"]}
    assert "deck" not in items
    printed = manifest["bom"]["printed_cards"] - items["seat"]["count"]
    assert items["sleeve"]["needed"] == 108 + printed
    assert "different backs" in items["sleeve"]["why"]
    # The quick protocol keeps every game card in an opaque-backed sleeve anyway: the printed
    # markers only ever meet each other face down, or hide inside a sleeve.
    quick = build(
        KitOptions(own=KindValues.of(deck="store"), output=str(tmp_path / "quick"), previews=False)
    ).to_json()
    sleeves = {i["key"]: i for i in quick["bom"]["items"]}["sleeve"]
    assert sleeves["needed"] == 108 and "store-bought" in sleeves["why"]


def test_bad_options(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="unknown card size"):
        build(KitOptions(card_size="huge", output=str(tmp_path / "a")))
    with pytest.raises(UsageError, match="wild4 bluff"):
        build(KitOptions(ruleset="uno-official", output=str(tmp_path / "b")))
    home = tmp_path / "not-a-kit"
    home.mkdir()
    (home / "thesis.txt").write_text("precious")
    with pytest.raises(UsageError, match=r"holds files kitgen did not write: thesis\.txt;"):
        build(KitOptions(output=str(home)))
    assert (home / "thesis.txt").read_text() == "precious"


def test_failed_verification_leaves_the_old_kit(tmp_path: Path, variant: Any) -> None:
    folder = tmp_path / "kit"
    build(KitOptions(virtual=0, output=str(folder), previews=False))
    before = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
    lib = variant(
        "card-selection-arrow",
        (
            '"[arrow(1) if valid(M[1, j]) else arrow(0) for j in 1..ncols(M)]"',
            '"[arrow(0) if valid(M[1, j]) else arrow(1) for j in 1..ncols(M)]"',
        ),
    )
    from kitgen.core.verification import VerificationFailed

    with pytest.raises(VerificationFailed, match="card-selection-arrow fails verification"):
        build(KitOptions(output=str(folder), previews=False), library=lib)
    after = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
    assert before == after
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_deck_contents_in_the_sheets() -> None:
    rules = load_rules("uno")
    kinds = Counter(str(c.attrs["kind"]) for c in rules.deck())
    assert kinds["number"] == 76


def test_the_kit_is_the_golden_one(default_kit: tuple[Path, dict[str, Any]], matches_golden: Any) -> None:
    """Byte for byte the kit the code made before the architecture change (issue 11)."""
    folder, _ = default_kit
    assert matches_golden(folder, "uno") == []


def test_a_golden_comparison_reads_the_text_of_a_pdf_whose_bytes_differ(tmp_path: Path) -> None:
    """The golden comparison takes a PDF's text from the golden only when the PDF's bytes are the
    golden's and pypdf is the golden's version; a PDF whose bytes differ, or a golden of another
    pypdf, has its text read, so a changed text is still found."""
    from reportlab.pdfgen.canvas import Canvas

    from .. import conftest

    fp = conftest._fingerprint_module()
    canvas = Canvas(str(tmp_path / "cards.pdf"), invariant=True)
    canvas.drawString(72, 72, "Draw two")
    canvas.save()
    read = fp.fingerprint(tmp_path)
    assert read["text"]["cards.pdf"] == fp._text(tmp_path / "cards.pdf")
    lying = {**read, "text": {"cards.pdf": "not the text"}}  # the same bytes: the golden's text is taken
    assert fp.fingerprint(tmp_path, lying)["text"] == lying["text"]
    other_bytes = {**lying, "bytes": {"cards.pdf": "0" * 64}}
    assert fp.fingerprint(tmp_path, other_bytes)["text"] == read["text"]
    assert fp.differences(fp.fingerprint(tmp_path, other_bytes), other_bytes) == [
        "text cards.pdf",
        "bytes cards.pdf",
    ]
    other_reader = {**lying, "versions": {**read["versions"], "pypdf": "0.0"}}
    assert fp.fingerprint(tmp_path, other_reader)["text"] == read["text"]


def test_a_kept_pdf_text_is_read_again_when_the_bytes_change_or_the_entry_is_damaged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """tests/kitgen/pdftext.py keeps a PDF's text by the SHA-256 of its bytes: a file written again
    with other words is read again; a damaged entry in the session folder is not taken, a whole one
    for the same bytes (what the other worker stored) is."""
    from pypdf import PdfReader
    from reportlab.pdfgen.canvas import Canvas

    from tests.kitgen import pdftext

    monkeypatch.setenv(pdftext.SESSION_CACHE_ENV, str(tmp_path / "session"))
    monkeypatch.setattr(pdftext, "_KEPT", {})
    path = tmp_path / "booklet.pdf"

    def write(words: str) -> list[str]:
        canvas = Canvas(str(path), invariant=True)
        canvas.drawString(72, 72, words)
        canvas.save()
        return [p.extract_text() or "" for p in PdfReader(path).pages]

    first = write("Draw two")
    assert list(pdftext.page_texts(path)) == first and "Draw two" in first[0]
    assert list(pdftext.page_texts(path)) == first  # kept
    second = write("Skip a turn")
    assert list(pdftext.page_texts(path)) == second != first
    [entry] = [e for e in (tmp_path / "session" / "pdf-text").iterdir() if e.read_text().find("Skip") >= 0]
    for damage in ("[not json", '{"not": "a list"}', "[1, 2]"):
        entry.write_text(damage, encoding="utf-8")
        monkeypatch.setattr(pdftext, "_KEPT", {})
        assert list(pdftext.page_texts(path)) == second
    entry.write_text('["a text the other worker kept"]', encoding="utf-8")
    monkeypatch.setattr(pdftext, "_KEPT", {})
    assert pdftext.page_texts(path) == ("a text the other worker kept",)  # the same bytes: taken


def test_a_pdf_text_is_pypdfs_own_without_the_pages_paths(
    default_kit: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    """tests/kitgen/pdftext.py reads a page without its numeric-only non-text operations (paths,
    line style, colours): the text is pypdf's own, character for character, on the default
    booklet's three pages with the most drawing and on a page whose strings look like paths; only
    numbers and those operators are taken out; a stream with a nested string or an inline image is
    read as it is."""
    import io

    from pypdf import PdfReader
    from reportlab.pdfgen.canvas import Canvas

    from tests.kitgen import pdftext

    def both(data: bytes, numbers: list[int]) -> None:
        for n in numbers:
            theirs = PdfReader(io.BytesIO(data)).pages[n].extract_text() or ""
            assert pdftext.page_text(PdfReader(io.BytesIO(data)).pages[n]) == theirs, n

    booklet = (default_kit[0] / "booklet.pdf").read_bytes()
    streams = [page.get_contents().get_data() for page in PdfReader(io.BytesIO(booklet)).pages]
    left_out = [len(s) - len(pdftext.text_operations(s) or s) for s in streams]
    drawn = sorted(range(len(streams)), key=lambda i: -left_out[i])[:3]
    assert all(left_out[i] > len(streams[i]) / 2 for i in drawn)  # most of those pages is drawing
    both(booklet, drawn)

    canvas = Canvas(str(tmp_path / "hostile.pdf"), invariant=True)
    canvas.setFillColorRGB(0.2, 0.4, 0.6)
    canvas.rect(50, 50, 100, 60, fill=1)
    canvas.drawString(72, 700, "0 0 m 1 2 l f S (h) W n re 3 g <0041> % c")
    canvas.setDash([3, 2], 0)
    canvas.line(72, 690, 300, 690)
    text = canvas.beginText(72, 650)
    text.textLines("two\nlines b* B* f* rg RG")
    canvas.drawText(text)
    canvas.save()
    hostile = (tmp_path / "hostile.pdf").read_bytes()
    stream = PdfReader(io.BytesIO(hostile)).pages[0].get_contents().get_data()
    assert b" re" in stream and len(pdftext.text_operations(stream) or stream) < len(
        stream
    )  # read without them
    both(hostile, [0])
    assert "0 0 m 1 2 l f S (h) W n re 3 g <0041> % c" in pdftext.page_text(
        PdfReader(io.BytesIO(hostile)).pages[0]
    )

    kept = pdftext.text_operations(
        b"q 1 0 0 1 5 5 cm 10 20 m 30 40 l S /F1 gs [3 2] 0 d BT (0 0 m f) Tj ET Q"
    )
    assert (
        kept is not None and kept.split() == b"q 1 0 0 1 5 5 cm /F1 gs [3 2] 0 d BT (0 0 m f) Tj ET Q".split()
    )
    assert pdftext.text_operations(b"BT (a (nested) string) Tj ET") is None
    assert pdftext.text_operations(b"q BI /W 1 /H 1 /BPC 8 /CS /G ID \x00 EI Q") is None


def test_the_kit_passes_the_page_check(default_kit: tuple[Path, dict[str, Any]]) -> None:
    """Every page of every PDF: fonts embedded, no text over text or off the page, no text within
    the profile's safe margin of a card's cut line or 2.5 mm of a label's edge, no crop mark or cut
    line through text, no frame within the safe margin, text at 4.5:1 against what lies under it and
    nothing drawn over it (kitgen.paper.pagecheck)."""
    from kitgen.paper.pagecheck import check_kit

    folder, _ = default_kit
    # Every page of the booklet and the labels; of the 104 card pages (their text alone about 9 s of
    # CPU) the calibration pages and the first front and back page of each card type, whose layout
    # the other pages of the type repeat (every card page: the slow test below).
    assert [str(f) for f in check_kit(folder)] == []


@pytest.mark.slow  # the text of every card page; the fast tier checks each card type's first pages
def test_every_card_page_of_the_kit_passes_the_page_check(default_kit: tuple[Path, dict[str, Any]]) -> None:
    from kitgen.paper.pagecheck import check_kit

    folder, _ = default_kit
    # The checks that render a page on the sampled card pages (every one: bench/pagecheck_all.py).
    assert [str(f) for f in check_kit(folder, every_card_page=True, sample_pixels=True)] == []


def test_the_kit_speaks_plain_words(default_kit: tuple[Path, dict[str, Any]], plain_words: Any) -> None:
    """The identifier check (kitgen.booklet.jargon) on the pages for players of the UNO kit: every
    page of the booklet, the labels and the web pages; of the 128 card pages the calibration pages
    and the first front and back page of each card type, whose words the other pages of the type
    repeat (every card page: the slow test below)."""
    folder, _ = default_kit
    assert plain_words(folder, sample_cards=True) == []


@pytest.mark.slow  # the text of every card page; the fast tier reads each card type's first pages
def test_every_page_of_the_kit_speaks_plain_words(
    default_kit: tuple[Path, dict[str, Any]], plain_words: Any
) -> None:
    folder, _ = default_kit
    assert plain_words(folder) == []


def test_exact_hands_puts_the_whole_deck_claim_on_the_cover_and_validation_pages(built_kit: Any) -> None:
    """--exact-hands N: the kit's card selection protocol (the quick one, by default) verified
    exactly on the game's whole deck for hands of 1..N; the claim (as measured, no seconds: same
    bytes for the same inputs) goes into the manifest, booklet.json, the cover and the
    validation pages. The kit is kinds/test_shedding.py's Crazy Eights kit (4 players, 2 virtual),
    built once per session with ``--exact-hands 1`` for both files (a kit of its own, 2 players
    without the cache, cost 9-11 s of CPU, 70 % of it its table-time figures)."""
    from tests.kitgen.conftest import CRAZY_EIGHTS_KIT

    folder, manifest = built_kit(**CRAZY_EIGHTS_KIT)
    claim = manifest["whole_deck_verification"]
    assert claim["exact_hands_up_to"] == 1 and claim["players"] == 4 and claim["game"] == "crazy-eights"
    assert claim["protocol"] == "card-selection-fast"
    [row] = claim["hands"]
    # P_1 holds 1 of the 51 cards in play, P_2 to P_4 5 each, the draw pile 35: 51!/(1! 5!^3 35!) deals.
    assert row["verified"] and row["sizes"] == [1, 5, 5, 5, 35] and int(row["deals"]) == 86869768083425046720
    assert "seconds" not in row and manifest["options"]["exact_hands"] == 1
    assert json.loads((folder / "booklet.json").read_text())["whole_deck"] == claim
    text = " ".join(" ".join(page_texts(folder / "booklet.pdf")).split())  # read by test_shedding too
    assert "with the whole deck and 4 players: checked the same way for every possible deal" in text
    assert "on the full deck (exact)" in text and "Exact for hands up to 1." in text


def test_exact_hands_refuses_a_protocol_the_whole_deck_verification_cannot_take(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A weighted virtual player's protocol (its tickets are numbered by their column's place
    among scrambled columns) is outside the reduction's precondition: refused with the reason
    before the kit's protocols are verified (its static checks fail), nothing written."""
    import kitgen.kit.build as kit

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the protocols were verified before --exact-hands was refused")

    monkeypatch.setattr(kit, "verify_protocols", never)
    folder = tmp_path / "kit"
    opts = KitOptions(
        ruleset="uno",
        players=2,
        output=str(folder),
        previews=False,
        runs=0,
        exact_hands=1,
        own=KindValues.of(strategy="weighted", weights="action=3,number=1,wild=1"),
    )
    with pytest.raises(UsageError, match="--exact-hands: the kit teaches weighted-selection") as info:
        build(opts)
    assert "scrambled columns in their order" in str(info.value)
    assert not folder.exists()


def test_a_kit_without_exact_hands_says_where_the_exact_check_is(
    default_kit: tuple[Path, dict[str, Any]],
) -> None:
    """The default kit's protocol (card-selection-arrow) can be verified exactly on the whole deck
    (its weighted outputs and its draw pass the reductions' static checks), but the check is
    opt-in (hands 1..7 of UNO cost minutes, docs/verification.md): the cover says where it is
    and claims no more; the protocol is verified exactly on the reduced deck and statistically
    on the whole one."""

    from kitgen.core.verification import whole_deck_offered

    folder, manifest = default_kit
    pages = [" ".join(text.split()) for text in page_texts(folder / "booklet.pdf")]
    assert whole_deck_offered("card-selection-arrow", "uno", 4)
    assert whole_deck_offered("card-selection-fast", "uno", 4)
    assert "Every possible deal of the whole deck can also be checked exactly" in pages[0]
    assert manifest["statistical_verification"]["verified"]
    assert "whole_deck_verification" not in manifest


def test_a_kit_without_exact_hands_records_no_claim(tmp_path: Path) -> None:
    assert "exact_hands" not in _recorded(KitOptions())
    assert _recorded(KitOptions(exact_hands=3))["exact_hands"] == 3


def test_the_first_chapters_are_data_that_the_pdf_and_the_index_draw(
    default_kit: tuple[Path, dict[str, Any]],
) -> None:
    """The booklet's chapters before the protocols (kitgen.booklet.frontmatter) are in booklet.json, drawn
    on the booklet's pages with the same headings, and on the kit's index.html."""
    folder, _ = default_kit
    data = json.loads((folder / "booklet.json").read_text(encoding="utf-8"))
    titles = [chapter["title"] for chapter in data["front"]]
    assert titles[:2] == ["What is in the kit", "Setting up the table"]
    assert "A virtual player's turn" in titles and titles[-1].startswith("Your first virtual turn")
    setup = data["front"][1]["blocks"]
    owners = next(b for b in setup if b["type"] == "table")["rows"]
    assert owners[1][0] == {"type": "picture", "kind": "cards", "cards": ["θ1"]}
    pages = " ".join(page_texts(folder / "booklet.pdf"))
    flat = " ".join(pages.split())
    for title in titles:
        assert " ".join(title.split()) in flat, title
    index = (folder / "index.html").read_text(encoding="utf-8")
    for title in titles:
        assert f"<h3>{escape(title)}</h3>" in index, title
    assert 'class="checklist"' in index and "{page:" not in index and "<svg" in index


def test_the_default_kit_states_the_readmes_figures(
    default_kit: tuple[Path, dict[str, Any]], committed_figures: Any
) -> None:
    _, manifest = default_kit
    assert committed_figures(manifest, "uno") == []
    cost = manifest["table_time"]
    assert cost["virtual_turn_minutes_cautious"] > cost["virtual_turn_minutes"]
    assert cost["text"][0].startswith("A virtual turn takes about ") and "-" in cost["text"][0].split(",")[0]
    assert manifest.get("warnings") is None  # the default kit asks nothing unreasonable
