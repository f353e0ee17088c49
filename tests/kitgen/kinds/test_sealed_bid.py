"""The Gakmoro kit, read back: cards, sleeve labels, the bundle sheet and the booklet."""

from __future__ import annotations

import itertools
import json
import math
import re
from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from pypdf import PdfReader

from kitgen.booklet.prose import plain_text
from reference_engine.registry import Library
from reference_engine.simulate import simulate
from tests.kitgen.pdftext import page_texts


@pytest.fixture(scope="module")
def kit(built_kit: Any) -> tuple[Path, dict[str, Any]]:
    """The Gakmoro kit (`kitgen build gakmoro`), built once per test session (tests/conftest.py)."""
    folder, manifest = built_kit(ruleset="gakmoro")
    return folder, manifest


def test_the_round_is_verified_exactly_with_the_papers_counts(kit: tuple[Path, dict[str, Any]]) -> None:
    """The kit's validation report of the round: what `kitgen verify gakmoro-round --json`
    prints, without the timings (one exact verification of the round for the whole suite)."""
    folder, _ = kit
    data = json.loads((folder / "booklet.json").read_text(encoding="utf-8"))["validation"][0]
    assert data["protocol"] == "gakmoro-round"
    assert data["method"] == "exact" and data["correct"] and data["secure"]
    # Every legal pair of submissions: 357 ordered triples from 0, 0, 1..7 per player
    # (8 x 7 x 6 with distinct values, and 3 x 7 with both zeros).
    assert data["inputs"] == 357 * 357
    assert data["resources"]["calls"]["ruangwises-itoh-addition"] == [28, 38, 28, 38]
    assert data["resources"]["calls"]["gakmoro-comparison"] == [74]
    assert data["resources"]["table"] == [2, 37]
    assert {e["name"] for e in data["expect"]} == {"calls", "table"}
    assert all(e["match"] for e in data["expect"])


def test_bill_of_materials_from_the_engine(kit: tuple[Path, dict[str, Any]]) -> None:
    _, manifest = kit
    items = {i["key"]: i for i in manifest["bom"]["items"]}
    round_report = next(v for v in manifest["verification"] if v["protocol"] == "gakmoro-round")
    loose = round_report["resources"]["helpers_by_symbol"]["club"]
    # 2 players x 9 bundles (0, 0, 1..7) x 7 clubs, plus what one round has out at once.
    assert items["club"]["needed"] == 2 * 9 * 7 + loose
    assert items["heart"]["needed"] == 2 * 9
    for key in ("club", "heart"):
        n = items[key]["needed"]
        assert items[key]["spares"] == max(2, math.ceil(n * 0.1))
    assert items["sleeve"]["needed"] == 18 and items["label"]["needed"] == 18
    assert manifest["bom"]["printed_cards"] == items["club"]["count"] + items["heart"]["count"]
    assert manifest["sheets"]["cards"]["front_pages"]
    assert manifest["card"]["width_mm"] == 41.0
    assert round_report["resources"]["table"] == [2, 37]


def test_the_shuffles_have_their_envelopes_and_sleeves(kit: tuple[Path, dict[str, Any]]) -> None:
    """The worked round's shuffles, counted independently from the paper's sizes (Section 5.2,
    m = 18): the comparison mixes its 2m single cards in envelopes in one step; the subtraction
    shifts 2m + 1 columns of two cards in sleeves."""
    folder, manifest = kit
    m = 18
    items = {i["key"]: i for i in manifest["bom"]["items"]}
    assert items["envelope"]["needed"] == 2 * m and items["envelope"]["kind"] == "envelope"
    assert items["shuffle_sleeve"]["needed"] == 2 * m + 1 and items["shuffle_sleeve"]["kind"] == "sleeve"
    holders = {h["holder"]: h for h in manifest["bom"]["shuffle_holders"]}
    assert (
        holders["envelope"]["protocol"] == "gakmoro-comparison" and holders["envelope"]["cards_per_pile"] == 1
    )
    assert holders["sleeve"]["protocol"] == "gakmoro-subtraction" and holders["sleeve"]["cards_per_pile"] == 2
    shopping = (folder / "shopping-list.txt").read_text(encoding="utf-8")
    for key, name in (
        ("envelope", "identical opaque envelopes"),
        ("shuffle_sleeve", "identical opaque card sleeves"),
    ):
        item = items[
            key
        ]  # the count bought, then what the table uses and the spares (the booklet's 36 and 37)
        assert f"{item['count']} ({item['needed']} + {item['spares']} spare) {name}" in shopping
    # Products a shop sells, never a template's or the bill's own ids.
    for internal in ("cutout-sleeve-a4", "cutout", "shuffle_sleeve", "label sheets"):
        assert internal not in shopping, internal
    assert "plain A4 paper" in shopping and "clear tape" in shopping


def test_label_words_match_the_paper_they_are_printed_on(
    kit: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    """The default labels are cut from plain paper: nothing says to stick or peel them."""
    from kitgen.core.templates import load_templates
    from kitgen.kinds.sealed_bid.bundles import render_bundle_sheet
    from reference_engine.api import load_game

    folder, manifest = kit
    for name in ("booklet.pdf", "bundles.pdf", "shopping-list.txt", "printing-guide.txt"):
        path = folder / name
        text = "\n".join(page_texts(path)) if name.endswith(".pdf") else path.read_text(encoding="utf-8")
        assert not re.search(r"\b(stick|peel)", text, re.I), name
    assert "taken out unseen" in {i["key"]: i for i in manifest["bom"]["items"]}["label"]["why"]
    sticker = tmp_path / "bundles.pdf"
    render_bundle_sheet(sticker, load_game("gakmoro"), load_templates().paper("a4"), "t", cutout=False)
    text = " ".join((p.extract_text() or "") for p in PdfReader(str(sticker)).pages)
    assert "stick the value label" in " ".join(text.split()) and "peel the label off" in " ".join(
        text.split()
    )


def test_cards_are_clubs_and_hearts_in_the_bom_numbers(kit: tuple[Path, dict[str, Any]]) -> None:
    folder, manifest = kit
    items = {i["key"]: i for i in manifest["bom"]["items"]}
    counts = {"club": 0, "heart": 0}
    with pdfplumber.open(folder / "cards.pdf") as pdf:
        for n in manifest["sheets"]["cards"]["front_pages"]:
            words = [w["text"] for w in pdf.pages[n - 1].extract_words()]
            for key in counts:
                counts[key] += words.count(key)
    # Each face names its suit upright once (and once upside down, which reads differently).
    assert counts == {"club": items["club"]["count"], "heart": items["heart"]["count"]}


def test_sleeve_labels(kit: tuple[Path, dict[str, Any]]) -> None:
    folder, manifest = kit
    assert manifest["sheets"]["labels"]["labels"] == 18
    text = "\n".join(p.extract_text() or "" for p in PdfReader(str(folder / "labels.pdf")).pages[1:])
    for who in ("Alice", "Bob"):
        places = re.findall(rf"{who} · ♥ at place (\d)", text)
        assert sorted(int(p) for p in places) == [1, 1, 2, 3, 4, 5, 6, 7, 8]


def test_bundle_sheet_puts_the_heart_at_place_v_plus_1(kit: tuple[Path, dict[str, Any]]) -> None:
    folder, _ = kit
    with pdfplumber.open(folder / "bundles.pdf") as pdf:
        assert len(pdf.pages) == 2
        for page in pdf.pages:
            chars = page.chars
            header = {
                c["text"]: c["x0"] + c["width"] / 2
                for c in chars
                if c["text"] in "12345678" and abs(c["size"] - 8) < 0.01
            }
            values = sorted(
                (c for c in chars if abs(c["size"] - 16) < 0.01 and c["text"].isdigit()),
                key=lambda c: c["top"],
            )
            assert [v["text"] for v in values] == ["0", "0", "1", "2", "3", "4", "5", "6", "7"]
            for v in values:
                row = [c for c in chars if abs(c["top"] - v["top"]) < 8 and c["text"] in "♣♥"]
                hearts = [c for c in row if c["text"] == "♥"]
                assert len(row) == 8 and len(hearts) == 1
                place = min(header, key=lambda k: abs(header[k] - (hearts[0]["x0"] + hearts[0]["width"] / 2)))
                assert int(place) == int(v["text"]) + 1


def test_bundles_and_the_booklet_speak_words(kit: tuple[Path, dict[str, Any]]) -> None:
    """Issue 39: bundles.pdf said "(the ♥ at place v + 1)"; the round's step said "runs the
    Extending ... 4 times" and listed three sizes without saying that one came twice."""
    folder, _ = kit
    sheet = " ".join(page_texts(folder / "bundles.pdf"))
    assert "v + 1" not in sheet and "as many ♣ as the bundle's value, then the ♥" in " ".join(sheet.split())
    data = json.loads((folder / "booklet.json").read_text())
    notes = [n for s in data["sections"][0]["steps"] for n in s["notes"] if "4 times" in n]
    assert notes, "the round runs one sub-protocol 4 times"
    for note in notes:
        sizes = note[note.index("(") + 1 : note.rindex(")")].split("; ")
        assert len(sizes) < 4 and any(s.endswith(", twice") for s in sizes), note


def test_the_booklet_has_a_whole_table_picture(kit: tuple[Path, dict[str, Any]]) -> None:
    """Issue 39: Gakmoro's booklet shows the whole table during a round, to scale: the two
    players' places, the round's rows (its largest table: 2 rows of 37 cards) and the spares."""
    folder, _ = kit
    data = json.loads((folder / "booklet.json").read_text())
    assert "The table during a round" in [c["title"] for c in data["front"]]
    plan = data["table_plan"]
    seats = [b["text"] for b in plan["boxes"] if b["what"] == "seat"]
    assert seats == ["Alice", "Bob"] and any(b["what"] == "spare" for b in plan["boxes"])
    assert sum(1 for b in plan["boxes"] if b["what"] == "column") == 37


def test_booklet_round_steps_and_diagrams(kit: tuple[Path, dict[str, Any]]) -> None:
    folder, _ = kit
    data = json.loads((folder / "booklet.json").read_text())
    library = Library()
    assert [s["protocol"] for s in data["sections"]] == [
        "gakmoro-round",
        "gakmoro-extension",
        "ruangwises-itoh-addition",
        "gakmoro-comparison",
        "gakmoro-subtraction",
    ]
    text = re.sub(r"\s+", "", "\n".join(page_texts(folder / "booklet.pdf")))
    for heading in ("Makingthebundles", "Therules:Gakmoro", "Aroundwithoutadealer", "Validation"):
        assert heading in text
    top = data["sections"][0]["example"]
    round_ = library.protocol("gakmoro-round")
    inputs = [f"{k}={v}" for k, v in top["inputs"].items()]
    round_events = simulate(library, round_, {}, inputs, top["seed"]).trace.events
    for sec in data["sections"]:
        proto = library.protocol(sec["protocol"])
        for step in proto.numbered_steps():
            assert step.say is not None
            assert re.sub(r"\s+", "", f"Step {step.number}. {plain_text(step.say.text)}") in text
        # One story: every called protocol shows its first call inside the worked round.
        ex = sec["example"]
        assert sec is data["sections"][0] or ex["within"] == "gakmoro-round"
        events = round_events
        for step in sec["steps"]:
            for d in step["diagrams"]:
                last = events[d["events"][1]]
                truth = {r["name"]: r for r in last.after.regions}
                for reg in d["regions"]:
                    for r, row in enumerate(reg["cells"]):
                        for col, cell in zip(reg["shown"], row):
                            if col is not None:
                                real = truth[reg["name"]]["cells"][r][col - 1]
                                assert cell["symbol"] == (real["symbol"] if real else None)
    # At the comparison's reveal: exactly one ♥, and the remedy of the round.
    comparison = next(s for s in data["sections"] if s["protocol"] == "gakmoro-comparison")
    step3 = next(s for s in comparison["steps"] if s["number"] == "3")
    assert "Exactly one ♥ appears." in step3["checks"]
    assert step3["if_wrong"] == library.protocol("gakmoro-round").booklet.if_wrong


def test_the_output_is_the_golden_one(kit: tuple[Path, dict[str, Any]], matches_golden: Any) -> None:
    """Byte for byte what the code made before the architecture change (issue 11)."""
    folder, _ = kit
    assert matches_golden(folder, "gakmoro") == []


@pytest.mark.slow  # renders every page; the fast tier checks the default kit (tests/kitgen/kit/test_kit.py)
def test_the_kit_passes_the_page_check(kit: tuple[Path, dict[str, Any]]) -> None:
    """The Gakmoro kit, bundle sheets and booklet included (kitgen.paper.pagecheck)."""
    from kitgen.paper.pagecheck import check_kit

    folder, _ = kit
    assert [str(f) for f in check_kit(folder, every_card_page=True)] == []


def test_the_kit_speaks_plain_words(kit: tuple[Path, dict[str, Any]], plain_words: Any) -> None:
    """No spec name, expression or paper notation on a page for players (kitgen.booklet.jargon)."""
    folder, _ = kit
    assert plain_words(folder) == []


def test_a_round_and_a_whole_game_for_two_people(
    kit: tuple[Path, dict[str, Any]], committed_figures: Any
) -> None:
    """Gakmoro's figures (issue 39, part 2): a round and a whole game with its 18 bundles made,
    both profiles, for the two players; every sub-protocol costed with both of them."""
    folder, manifest = kit
    cost = manifest["table_time"]
    for key in ("round_minutes", "game_minutes", "bundle_minutes"):
        assert cost[f"{key}_cautious"] > cost[key] > 0, key
    assert cost["people"] == 2 and cost["bundles"] == 18
    assert cost["game_minutes"] > 2 * cost["round_minutes"] + cost["bundle_minutes"] - 0.1
    assert committed_figures(manifest, "gakmoro") == []
    booklet = json.loads((folder / "booklet.json").read_text(encoding="utf-8"))
    for section in booklet["sections"]:
        assert section["table_time"]["people"] == 2, section["protocol"]
    words = " ".join(str(t) for t in booklet["front"])
    assert "with one person" not in words and cost["text"][0].split(";")[0] in words
    index = (folder / "index.html").read_text(encoding="utf-8")
    assert "A round takes about" in index


def test_the_rounds_actions_do_not_depend_on_the_bundles() -> None:
    """What the round costs is one traced run: the same actions whatever is submitted."""
    from kitgen.cost.tablework import action_counts, spec_hints

    library = Library()
    proto = library.protocol("gakmoro-round")
    hints = spec_hints(library.protocol)
    counts = [
        action_counts(simulate(library, proto, {}, inputs, seed).trace.events, hints)
        for inputs, seed in (
            (["a1=7", "a2=6", "a3=5", "b1=0", "b2=0", "b3=1"], 3),
            (["a1=0", "a2=0", "a3=1", "b1=7", "b2=6", "b3=5"], 8),
            (["a1=2", "a2=3", "a3=4", "b1=2", "b2=3", "b3=4"], 1),
        )
    ]
    assert counts[0] == counts[1] == counts[2]


def test_the_quick_references_share_pages(kit: tuple[Path, dict[str, Any]]) -> None:
    """Each of the five quick references had a page of its own (four of them a sixth to a third
    full); each after the first now opens below the one before when it fits whole, and none is
    split from its steps. The Validation opens below the last protocol's "for the curious" box."""
    folder, _ = kit
    data = json.loads((folder / "booklet.json").read_text(encoding="utf-8"))
    pages = [re.sub(r"\s+", " ", p) for p in page_texts(folder / "booklet.pdf")]
    holding = [i for i, p in enumerate(pages) if i > 1 and "Quick reference:" in p]
    assert len(holding) < len(data["sections"]) - 1, holding
    for sec in data["sections"]:
        title = f"Quick reference: {' '.join(sec['title'].split())}"
        (page,) = [p for p in pages[holding[0] :] if title in p]  # (not the contents)
        first = " ".join(sec["steps"][0]["brief"].split())
        assert first in page.split(title, 1)[1], (title, first)
    opens = next(p for p in pages if "Before this booklet was made, the reference engine" in p)
    assert "For the curious." in opens.split("Validation")[0]


def test_the_bundle_sheets_check_columns_keep_their_headings_apart(tmp_path: Path) -> None:
    """Each check column's heading fits its 17 mm column: the Japanese "sleeved ✓" ran into
    "Bob ✓" beside it. The players are named as the protocols' Japanese texts name them (アリス,
    the glossary's word; the sheets said Alice)."""
    from kitgen.core.templates import load_templates
    from kitgen.kinds.sealed_bid.bundles import render_bundle_sheet
    from kitgen.lang.catalogue import using_language
    from reference_engine.api import load_game

    path = tmp_path / "bundles.pdf"
    with using_language("ja"):
        render_bundle_sheet(path, load_game("gakmoro"), load_templates().paper("a4"), "t")
    with pdfplumber.open(path) as pdf:
        assert [p.extract_text().split("\n")[0] for p in pdf.pages] == [
            "アリスの束を、2人いっしょに見えるところで作る",
            "ボブの束を、2人いっしょに見えるところで作る",
        ]
        for page in pdf.pages:
            ticks = sorted((c for c in page.chars if c["text"] == "✓"), key=lambda c: float(c["x0"]))
            assert len(ticks) == 3
            line = [c for c in page.chars if abs(float(c["bottom"]) - float(ticks[0]["bottom"])) < 1]
            for left, right in itertools.pairwise(ticks):  # the next heading starts after this one's tick
                after = [c for c in line if float(left["x1"]) < float(c["x0"]) <= float(right["x0"])]
                assert float(min(after, key=lambda c: float(c["x0"]))["x0"]) - float(left["x1"]) > 8, after
