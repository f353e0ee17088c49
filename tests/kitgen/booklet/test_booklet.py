"""Booklets, read back: steps and sentences, diagrams against a fresh simulation, validation."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from kitgen.booklet.counts import count_text
from kitgen.booklet.figures import said
from kitgen.booklet.prose import plain_text
from kitgen.booklet.validation import names_of
from kitgen.cli.main import main
from kitgen.core.manifest import BookletManifest
from kitgen.core.optionspec import KindValues
from kitgen.kit.build import BookletOptions, build_booklet
from kitgen.paper.imposition import saddle_order
from reference_engine.kinds.shedding import load_rules
from reference_engine.registry import Library, rulesets_dir
from reference_engine.simulate import simulate
from reference_engine.trace import Event, shown_cells
from tests.kitgen.pdftext import page_texts


def squash(text: str) -> str:
    """Text without any white space: PDF extraction breaks lines and sets subscripts apart."""
    return re.sub(r"\s+", "", text)


def pdf_text(path: Path) -> list[str]:
    """Each page's text. The booklets read here are built once and read by several tests: each is
    extracted once a session (tests/kitgen/pdftext.py), the caller gets its own list."""
    return list(page_texts(path))


@pytest.fixture(scope="module")
def and_booklet(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    folder = tmp_path_factory.mktemp("booklets") / "and"
    manifest = build_booklet(BookletOptions(name="six-card-and", output=str(folder))).to_json()
    return folder, manifest


@pytest.fixture(scope="module")
def uno_booklet(built_booklet: Callable[..., tuple[Path, dict[str, Any]]]) -> tuple[Path, dict[str, Any]]:
    """The quick α/β protocol's UNO booklet (20 runs, no previews; still selectable with
    --protocol; the default's, card-selection-arrow, is read by test_captions.py), built once
    per session (read only)."""
    return built_booklet(
        name="uno", runs=20, previews=False, protocol="card-selection-fast", own=KindValues.of(wild4="strict")
    )


def test_the_typed_booklet_manifest_writes_the_same_bytes(
    and_booklet: tuple[Path, dict[str, Any]], manifest_round_trips: Any
) -> None:
    assert manifest_round_trips(and_booklet[0]) is BookletManifest


def section_steps(pages: list[str], title: str) -> str:
    """The text of one protocol's section (from its heading to the next page break heading)."""
    joined = "\n".join(pages)
    start = joined.index(title + "\n", joined.index("How to read the step pictures") + 10)
    end = joined.index("Validation\n", start)
    return joined[start:end]


@pytest.mark.parametrize("which", ["and_booklet", "uno_booklet"])
def test_steps_and_sentences_are_the_specs(which: str, request: pytest.FixtureRequest) -> None:
    folder, _ = request.getfixturevalue(which)
    data = json.loads((folder / "booklet.json").read_text())
    library = Library()
    pages = pdf_text(folder / "booklet.pdf")
    text = squash("\n".join(pages))
    for sec in data["sections"]:
        proto = library.protocol(sec["protocol"])
        numbered = [s for s in proto.numbered_steps()]
        assert [s["number"] for s in sec["steps"]] == [s.number for s in numbered]
        assert [s["say"] for s in sec["steps"]] == [s.say.text if s.say else "" for s in numbered]
        # Every sentence is printed, in order, after its step number.
        pos = 0
        for step in numbered:
            assert step.say is not None
            wanted = squash(f"Step {step.number}. {plain_text(step.say.text)}")
            found = text.find(wanted, pos)
            assert found >= 0, f"{proto.name} step {step.number} is not printed as the spec says"
            pos = found + len(wanted)


def _simulate_again(example: dict[str, Any], game: dict[str, Any], protocol: str) -> list[Event]:
    """The worked example, simulated afresh from what booklet.json says it was."""
    library = Library()
    proto = library.protocol(protocol)
    params = {k: tuple(v) if isinstance(v, list) else v for k, v in example["params"].items()}
    if "game" in example:
        rules = load_rules(example["game"])
        cards = [rules.symbol(n) for n in example["inputs"]["cards"]]
        valid = rules.validity(rules.symbol(example["top"]), example["color"])
        sim = simulate(library, proto, params, {"cards": cards}, example["seed"], context={"valid": valid})
    else:
        inputs = [f"{k}={v}" for k, v in example["inputs"].items()]
        sim = simulate(library, proto, params, inputs, example["seed"], scenario=example["scenario"])
    return sim.trace.events


@pytest.mark.parametrize("which", ["and_booklet", "uno_booklet"])
def test_every_diagram_is_the_trace_state_of_its_step(which: str, request: pytest.FixtureRequest) -> None:
    """Every picture is the table the trace recorded at its step: the top protocol's run simulated
    afresh, and a called protocol's pictures are its first call inside that same run (one story,
    the same cards throughout)."""
    folder, _ = request.getfixturevalue(which)
    data = json.loads((folder / "booklet.json").read_text())
    drawn = 0
    top = data["sections"][0]
    top_events = _simulate_again(top["example"], data["game_example"], top["protocol"])
    for sec in data["sections"]:
        if "within" in sec["example"]:
            assert sec["example"]["within"] == top["protocol"]
            events = top_events
            call = events[sec["example"]["call_event"]]
            assert call.action == "call" and call.detail["protocol"] == sec["protocol"]
            depth = call.depth + 1
        else:
            events, depth = _simulate_again(sec["example"], data["game_example"], sec["protocol"]), 0
        for step in sec["steps"]:
            for d in step["diagrams"]:
                first, last = (events[i] for i in d["events"])
                # The diagram belongs to its step, at the protocol's own level.
                assert first.step == last.step == step["number"]
                assert first.depth == last.depth == depth
                assert first.protocol == last.protocol == sec["protocol"]
                table = {r["name"]: r for r in last.after.regions}
                shown = {r["name"] for r in d["regions"]}
                occupied = {n for n, r in table.items() if any(c for row in r["cells"] for c in row)}
                assert shown == occupied
                before = {r["name"]: r for r in first.before.regions}
                # Places a rearrangement moved a card into: changed even when the face is the same.
                moved = {
                    (e.detail["region"], e.detail["axis"], b)
                    for e in events[d["events"][0] : d["events"][1] + 1]
                    if e.action == "rearrange" and e.depth == 0
                    for _, b in e.detail.get("moves", [])
                }
                for reg in d["regions"]:
                    truth = table[reg["name"]]
                    assert (reg["rows"], reg["cols"]) == (truth["rows"], truth["cols"])
                    kept = [c for c in reg["shown"] if c is not None]
                    assert kept == sorted(kept) and len(set(kept)) == len(kept)
                    # A sleeved region draws its rows inside the sleeves first, loose rows below,
                    # and each card as the table sees it (a card a sleeve hides shows its back).
                    sleeve = truth.get("sleeve")
                    inside = [
                        i for i in range(truth["rows"]) if sleeve is not None and i + 1 in sleeve["rows"]
                    ]
                    order = inside + [i for i in range(truth["rows"]) if i not in inside]
                    seen = shown_cells(truth)
                    for i, row in enumerate(reg["cells"]):
                        r = order[i]
                        for col, cell in zip(reg["shown"], row):
                            if col is None:
                                assert cell is None
                                continue
                            real = truth["cells"][r][col - 1]
                            if real is None:
                                assert cell["symbol"] is None
                            else:
                                up = real["up"] and (r + 1, col) in seen
                                assert (cell["symbol"], cell["up"]) == (real["symbol"], up)
                            old = before.get(reg["name"])
                            if d["action"] != "shuffle" and old is not None and old["cols"] == truth["cols"]:
                                was = old["cells"][r][col - 1] if r < old["rows"] else None
                                old_seen = shown_cells(old)
                                key = None if real is None else (real["symbol"], up)
                                prior = (
                                    None
                                    if was is None
                                    else (was["symbol"], was["up"] and (r + 1, col) in old_seen)
                                )
                                given = (reg["name"], "rows", r + 1) in moved or any(
                                    (reg["name"], axis, col) in moved for axis in ("cards", "columns")
                                )
                                assert cell["changed"] == (key != prior or (given and real is not None))
                            drawn += 1
    assert drawn > 30


def test_validation_equals_verify_json(uno_booklet: tuple[Path, dict[str, Any]]) -> None:
    folder, _ = uno_booklet
    data = json.loads((folder / "booklet.json").read_text())
    pages = pdf_text(folder / "booklet.pdf")
    validation_text = squash("\n".join(p for p in pages if "Validation" in p or "Paper's" in p))
    assert [v["protocol"] for v in data["validation"]] == [
        "card-selection-fast",
        "covert-lottery-fast",
        "six-card-and-direct",
    ]
    for v in data["validation"]:
        result = CliRunner().invoke(main, ["verify", v["protocol"], "--json"])
        assert result.exit_code == 0
        fresh = json.loads(result.output)
        fresh.pop("stats")
        assert v == fresh
        names = names_of(Library(), v["protocol"])
        titles = {sec["protocol"]: sec["title"] for sec in data["sections"]}
        for check in fresh["checks"]:  # in a reader's words, and the engine's expressions apart
            figure = said(check["figure"], names, titles)
            assert squash(figure.words) in validation_text, check["name"]
            assert squash(figure.spec) in validation_text, check["name"]
        for e in fresh["expect"]:
            row = squash(
                f"{e['formula']}{count_text(e['expected'])}{count_text(e['measured'])}"
                f"{'yes' if e['match'] else 'NO'}"
            )
            assert row in validation_text, e["name"]
        assert squash(fresh["engine"]) in validation_text
    assert data["statistical"]["method"] == "statistical"
    assert squash(data["statistical"]["checks"][0]["figure"]) in validation_text


def test_a_spec_given_by_path_speaks_its_own_words_in_the_validation(tmp_path: Path) -> None:
    """A spec file the shipped library does not know (a user's, given by its path) has its
    checks' figures said with its own booklet names, as a built-in spec's are (they fell back to
    the engine's names: "Always right: and and nand")."""
    spec = tmp_path / "my-and.yaml"
    text = (rulesets_dir() / "protocols" / "six-card-and.yaml").read_text(encoding="utf-8")
    spec.write_text(text.replace("protocol: six-card-and\n", "protocol: my-and\n"), encoding="utf-8")
    out = tmp_path / "booklet"
    build_booklet(BookletOptions(name=str(spec), output=str(out), previews=False))
    validation = squash("\n".join(pdf_text(out / "booklet.pdf")).split("Validation")[-1])
    assert squash('Always right: "both" (first AND second) and "2nd only"') in validation
    assert squash("In the spec: and = x and y") in validation
    assert squash("Always right: and and nand") not in validation


def test_reveal_checks_are_printed_with_a_remedy(uno_booklet: tuple[Path, dict[str, Any]]) -> None:
    folder, _ = uno_booklet
    data = json.loads((folder / "booklet.json").read_text())
    text = squash("\n".join(pdf_text(folder / "booklet.pdf")))
    lottery = next(s for s in data["sections"] if s["protocol"] == "covert-lottery-fast")
    step7 = next(s for s in lottery["steps"] if s["number"] == "7")
    assert "At most one pair shows β α." in step7["checks"]
    assert squash("At most one pair shows β α.") in text
    # Inside a virtual turn the remedy is the card selection protocol's.
    card_selection = Library().protocol("card-selection-fast")
    # (its step references say whose steps they are: "Step 8 of the Card selection protocol")
    named = f" of the {card_selection.title}"
    assert named in step7["if_wrong"]
    assert step7["if_wrong"].replace(named, "") == card_selection.booklet.if_wrong
    steps_with_checks = {
        (s["protocol"], s["number"]) for sec in data["sections"] for s in sec["steps"] if s["checks"]
    }
    assert steps_with_checks == {
        ("card-selection-fast", "5"),
        ("card-selection-fast", "9"),
        ("covert-lottery-fast", "7"),
        ("six-card-and-direct", "3"),
    }


def test_uno_booklet_has_every_part(uno_booklet: tuple[Path, dict[str, Any]]) -> None:
    folder, manifest = uno_booklet
    pages = pdf_text(folder / "booklet.pdf")
    text = "\n".join(pages)
    for heading in (
        "Contents",
        "What is in the kit",
        "Setting up the table",
        "The rules:",
        "A virtual player's turn",
        "How to read the step pictures",
        "Validation",
        "Quick reference: Card selection protocol",
        "Quick reference: Modified covert lottery",
        "Quick reference: Six-card AND",
    ):
        assert heading in text, heading
    assert manifest["pages"] == len(pages)
    assert re.search(rf"page\s*{len(pages)}", pages[-1])
    # A wide table is elided with a count of the columns left out, not shrunk.
    data = json.loads((folder / "booklet.json").read_text())
    k = sum(data["game_example"]["params"]["sizes"])
    # (the first step with a picture: the quick protocol's first steps are done by the sleeves)
    pictured = next(s for s in data["sections"][0]["steps"] if s["diagrams"])
    first = pictured["diagrams"][0]["regions"][0]
    assert first["cols"] == k > len(first["shown"]) and None in first["shown"]
    assert f"{k - (len(first['shown']) - 1)}morecolumns" in squash(text)
    kept = [s for s in data["sections"][0]["steps"] if not s["diagrams"] and s["say"].startswith("Nothing")]
    # Steps 5 and 7 turn the sleeves over: the table sees the cards appear and go.
    assert [s["number"] for s in kept] == ["2", "3"]


def test_same_inputs_same_booklet(and_booklet: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    folder, _ = and_booklet
    again = build_booklet(BookletOptions(name="six-card-and", output=str(tmp_path / "again"))).to_json()
    assert (folder / "booklet.pdf").read_bytes() == (Path(again["folder"]) / "booklet.pdf").read_bytes()


def test_broken_spec_writes_nothing(tmp_path: Path) -> None:
    text = (rulesets_dir() / "protocols" / "six-card-and.yaml").read_text()
    broken = tmp_path / "six-card-and.yaml"
    broken.write_text(
        text.replace("rearrange:\n      s: [1, 4, 2, 3, 5, 6]", "rearrange:\n      s: [1, 2, 4, 3, 5, 6]")
    )
    assert broken.read_text() != text
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["booklet", str(broken), "-o", str(out)])
    assert result.exit_code == 1, result.output
    assert "fails verification" in result.output and "correct" in result.output
    assert "Traceback" not in result.output
    assert not out.exists()
    assert list(tmp_path.iterdir()) == [broken]


def test_saddle_order() -> None:
    assert saddle_order(8) == [(8, 1), (2, 7), (6, 3), (4, 5)]
    # 6 pages are padded to 8 with blanks at the end.
    assert saddle_order(6) == [(None, 1), (2, None), (6, 3), (4, 5)]
    for n in range(1, 30):
        sides = saddle_order(n)
        pages = [p for side in sides for p in side if p is not None]
        assert sorted(pages) == list(range(1, n + 1))
        assert len(sides) % 2 == 0


def test_a5_saddle_booklet(tmp_path: Path, plain_words: Callable[[Path], list[str]]) -> None:
    """The imposed booklet: two A5 pages a side in folding order, its outline pointing at the
    side, the half and the height where each part lands (it had none: the identifier check could
    not find the Validation and reported its formulas, 13 findings on the AND booklet's pages)."""
    result = CliRunner().invoke(
        main, ["booklet", "six-card-and", "--imposition", "a5-saddle", "-o", str(tmp_path / "a5"), "--json"]
    )
    assert result.exit_code == 0, result.output
    manifest = json.loads(result.output)
    reader = PdfReader(str(tmp_path / "a5" / "booklet.pdf"))
    assert len(reader.pages) == manifest["printed_sides"] == (manifest["pages"] + 3) // 4 * 2
    w, h = (float(x) for x in reader.pages[0].mediabox.upper_right)
    assert (round(w), round(h)) == (842, 595)  # A4 landscape: two A5 pages
    # The first side carries the last page on the left and the cover on the right.
    first = reader.pages[0].extract_text() or ""
    assert "Six-card AND" in first
    import pdfplumber

    entries = [e for e in reader.outline if not isinstance(e, list)]
    titles = [str(e.title) for e in entries]
    assert titles[-2:] == ["Validation", "Quick reference: Six-card AND (Mizuki-Sone)"]
    with pdfplumber.open(str(tmp_path / "a5" / "booklet.pdf")) as pdf:
        for e in entries:
            side = pdf.pages[reader.get_destination_page_number(e)]
            x0, top = float(e["/Left"]), h - float(e["/Top"])
            heading = side.within_bbox((x0, top, x0 + w / 2, top + 20)).extract_text()  # its first line
            assert heading and str(e.title).startswith(heading), (e.title, heading)
    assert plain_words(tmp_path / "a5") == []


def test_the_output_is_the_golden_one(and_booklet: tuple[Path, dict[str, Any]], matches_golden: Any) -> None:
    """Byte for byte what the code made before the architecture change (issue 11)."""
    folder, _ = and_booklet
    assert matches_golden(folder, "and") == []


def test_the_booklets_pass_the_page_check(
    and_booklet: tuple[Path, dict[str, Any]], uno_booklet: tuple[Path, dict[str, Any]]
) -> None:
    """No text over text, off the page, or in a font that is not embedded (kitgen.paper.pagecheck).
    The checks that render a page (contrast, covered: about 0.15 s of CPU a page) on every page of
    the AND booklet; on the quick UNO booklet's text only, since the default kit's page check
    (tests/kitgen/kit/test_kit.py) renders every page of the same kind of booklet in the fast tier
    (every page rendered: the slow test below)."""
    from kitgen.paper.pagecheck import check_pdf

    assert [str(f) for f in check_pdf(and_booklet[0] / "booklet.pdf")] == []
    assert [str(f) for f in check_pdf(uno_booklet[0] / "booklet.pdf", pixels=False)] == []


@pytest.mark.slow  # renders every page; the fast tier checks this booklet's text and the kit's pixels
def test_the_quick_uno_booklet_passes_the_rendered_page_checks(
    uno_booklet: tuple[Path, dict[str, Any]],
) -> None:
    from kitgen.paper.pagecheck import check_pdf

    assert [str(f) for f in check_pdf(uno_booklet[0] / "booklet.pdf")] == []


def test_recovery_text_names_the_protocol_of_its_steps(uno_booklet: tuple[Path, dict[str, Any]]) -> None:
    """The recovery text is the top protocol's; on a called protocol's pages its "Step 8" must
    say whose Step 8 it is."""
    folder, _ = uno_booklet
    data = json.loads((folder / "booklet.json").read_text())
    top, *called = data["sections"]
    top_wrong = {s["if_wrong"] for s in top["steps"] if s["if_wrong"]}
    assert top_wrong and all("Step 8," in t and " of the " not in t for t in top_wrong)
    for sec in called:
        for s in sec["steps"]:
            if s["if_wrong"]:
                assert f"Step 8 of the {top['title']}" in s["if_wrong"], s["if_wrong"]


def test_workers_do_not_change_a_byte(tmp_path: Path) -> None:
    """The verifications split over two processes give the same booklet, byte for byte."""
    made = {}
    for workers in (1, 2):
        out = tmp_path / f"w{workers}"
        build_booklet(
            BookletOptions(
                name="covert-lottery-modified", output=str(out), previews=False, cache=False, workers=workers
            )
        )
        made[workers] = {
            p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()
        }
    assert made[1].keys() == made[2].keys() and "booklet.pdf" in made[1]
    assert [k for k in made[1] if made[1][k] != made[2][k]] == []


def test_the_first_card_rule_is_stated_once(uno_booklet: tuple[Path, dict[str, Any]]) -> None:
    """The rules chapter prints one sentence per first-card rule of the rule set; the rule set's
    notes do not say it again (a copy-paste slip the issue found in UNO and Crazy Eights)."""
    folder, _ = uno_booklet
    text = " ".join(" ".join(page_texts(folder / "booklet.pdf")).split())
    said = re.findall(r"[^.]*\bfirst card (?:turned|is)[^.]*\.", text)
    assert len(said) == len(load_rules("uno").first_card) == 2, said
    for name in ("uno", "uno-small", "crazy-eights"):
        assert "first card" not in load_rules(name).notes, name


SOUNDNESS = Path(__file__).resolve().parents[2] / "reference_engine" / "verify" / "soundness"


@pytest.mark.parametrize(
    ("spec", "protocol", "sentence"),
    [
        ("shown-order/shown-after-cut", "shown-after-cut", "turn these cards over where they lie, keeping"),
        ("shown-order/shown-mixed", "shown-mixed", "mix these cards face down first, then turn them over"),
        ("hand-order/order-free", "give-back", "their holder mixes them face down: nobody knows the order"),
    ],
)
def test_the_booklet_says_how_cards_are_shown_and_given_back(
    spec: str, protocol: str, sentence: str, tmp_path: Path
) -> None:
    """The table does what the verifier checked: cards shown in order keep it, cards shown mixed
    are mixed first, a hand a called protocol gives back is mixed by its holder."""
    result = CliRunner().invoke(
        main, ["booklet", str(SOUNDNESS / f"{spec}.yaml"), "-o", str(tmp_path), "--no-previews"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "booklet.json").read_text())
    sections = [s for s in data["sections"] if s["protocol"] == protocol]
    notes = [n for s in sections for st in s["steps"] for n in st["notes"]]
    assert any(sentence in n for n in notes), notes


def test_a_sub_protocol_run_several_times_with_the_same_sizes_says_how_often() -> None:
    from kitgen.booklet.steps import repeated

    assert repeated(["8 → 14", "3 → 8", "8 → 14", "1 → 8"]) == ["8 → 14, twice", "3 → 8", "1 → 8"]
    assert repeated(["a", "a", "a"]) == ["a, three times"] and repeated(["a"]) == ["a"]


def test_the_cover_carries_the_time_figure_and_where_to_start(
    uno_booklet: tuple[Path, dict[str, Any]],
) -> None:
    """Issue 39: the cover's lower half was empty and had no time figure. It now says what a turn
    and a game take at the table (the kit's figures), the space, and where to start, with pages;
    and the contents page keeps every page number inside the text frame."""
    import pdfplumber

    folder, _ = uno_booklet
    reader = PdfReader(str(folder / "booklet.pdf"))
    cover = " ".join((reader.pages[0].extract_text() or "").split())
    data = json.loads((folder / "booklet.json").read_text(encoding="utf-8"))
    sentence = " ".join(data["table_time"]["text"][0].split())
    assert "At the table." in cover and sentence[:60] in cover
    assert "Where to start." in cover and "What is in the kit: page 3" in cover
    # The key to the step pictures shares its page with the first protocol (it was a page of
    # five lines of its own).
    key = next(p for p in reader.pages if "How to read the step pictures" in (p.extract_text() or "")[:200])
    assert data["sections"][0]["title"].split(" (")[0] in (key.extract_text() or "")
    with pdfplumber.open(folder / "booklet.pdf") as pdf:
        page = pdf.pages[1]
        body = [c for c in page.chars if c["top"] < page.height - 60]
        right = page.width - min(c["x0"] for c in body)  # the margins are the same on both sides
        digits = [c for c in body if c["text"].isdigit()]
        assert digits and max(c["x1"] for c in digits) <= right + 0.5


def test_every_picture_the_text_points_to_is_there(uno_booklet: tuple[Path, dict[str, Any]]) -> None:
    """Issue 36, part 2: no step's words point to a picture the step does not have, and the
    set-up chapter of a sleeved kit shows a sleeve being filled (not loose cards)."""
    folder, _ = uno_booklet
    data = json.loads((folder / "booklet.json").read_text())
    steps = [s for sec in data["sections"] for s in sec["steps"]]
    for s in steps:
        words = " ".join([s["say"], *s["notes"]]).lower()
        if "picture" in words:
            assert s["diagrams"], (s["protocol"], s["number"], words)
    text = squash("\n".join(pdf_text(folder / "booklet.pdf")))
    # "Picture (shown for ...)" is printed under a step's pictures only.
    looped = [s for s in steps if s["loop"] and s["diagrams"]]
    assert text.count(squash("Picture (shown for")) <= len(looped)
    setup = next(c for c in data["front"] if c["title"] == "Setting up the table")
    pictures = [b for b in setup["blocks"] if b["type"] == "picture"]
    assert [p["kind"] for p in pictures] == ["sleeve"] and len(pictures[0]["cards"]) == 2
    assert squash("slid in first, its face toward the solid back") in text
    # An elided sleeved grid says how many sleeves it holds, not "4 × 92" of loose cards.
    k = sum(data["game_example"]["params"]["sizes"])
    grid = max(
        (r for s in steps for d in s["diagrams"] for r in d["regions"] if r["cols"] == k),
        key=lambda r: r["rows"],
    )
    assert grid["rows"] > 1 and "sleeves" in grid
    assert f"{k}sleeves" in text and not re.search(rf"(?<![\d.]){grid['rows']}×{k}(?!mm)", text)
