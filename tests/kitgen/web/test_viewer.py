"""kitgen view and the kit index: the pages' data, what they load, hostile text, bad input."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from kitgen.booklet.prose import plain_text
from kitgen.cli.main import main
from reference_engine.api import Library
from tests.kitgen.viewer_pages import cards_in, page_data, view

# Anything a page could load from elsewhere: a URL with a scheme or protocol-relative, CSS
# imports and url() with a remote target.
REMOTE = re.compile(r"(?:src|href)\s*=\s*[\"']?\s*(?:[a-z]+:)?//|@import|url\(\s*[\"']?(?:[a-z]+:)?//", re.I)
ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def and_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return view(tmp_path_factory.mktemp("view-and"), "six-card-and")


def test_six_card_and_steps_and_sentences(and_page: Path) -> None:
    data = page_data(and_page)
    proto = Library().protocol("six-card-and")
    steps = [s for s in proto.numbered_steps()]
    first_pictures = [f for f in data["frames"] if f["section"] == 0 and f["picture"] == 1]
    assert [f["step"] for f in first_pictures] == [s.number for s in steps] == ["1", "2", "3", "4", "5"]
    for frame, step in zip(first_pictures, steps):
        assert step.say is not None
        assert frame["say"] == plain_text(step.say.text)
    # Step 1 lays out six face-down cards; Step 5's first picture shows the two turned cards.
    assert cards_in(first_pictures[0]) == (6, 6)
    five = first_pictures[4]
    assert cards_in(five)[1] == 4 and five["checks"], five
    assert data["frames"][-1]["step"] == "end"
    assert data["verdicts"] and all(v["verified"] for v in data["verdicts"])


def test_nothing_is_loaded_from_the_network(and_page: Path) -> None:
    text = and_page.read_text(encoding="utf-8")
    assert not REMOTE.search(text), REMOTE.search(text)
    assert "default-src 'none'" in text  # and the page forbids it anyway


def test_same_inputs_same_page(and_page: Path, tmp_path: Path) -> None:
    again = view(tmp_path, "six-card-and")
    assert again.read_bytes() == and_page.read_bytes()
    other = view(tmp_path / "seed", "six-card-and", "--seed", "7", "--input", "x=0")
    data = page_data(other)
    assert "seed 7" in data["sections"][0]["example"] and "first bit: 0" in data["sections"][0]["example"]
    # y was not given: it keeps the worked example's value and the run still happened.
    assert all(f["ran"] for f in data["frames"] if f["section"] == 0)


def test_card_selection_on_the_mini_deck(tmp_path: Path) -> None:
    data = page_data(view(tmp_path, "card-selection", "--deck", "mini", "--seed", "3"))
    top = [f for f in data["frames"] if f["section"] == 0]
    proto = Library().protocol("card-selection")
    assert {f["step"] for f in top} == {s.number for s in proto.numbered_steps()}
    assert any(cards_in(f)[0] for f in top)
    assert data["sections"][0]["protocol"] == "card-selection"
    assert "a 5-card test deal of uno (R1 G2 B7 Y5 W)" in data["sections"][0]["example"]
    assert {s["protocol"] for s in data["sections"]} >= {"covert-lottery-modified", "six-card-and"}


HOSTILE = '</script><script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">'


def hostile_spec(folder: Path) -> Path:
    data = yaml.safe_load((ROOT / "rulesets" / "protocols" / "six-card-and.yaml").read_text(encoding="utf-8"))
    data["title"] = HOSTILE
    data["steps"][0]["say"] = HOSTILE + " " + data["steps"][0]["say"]
    path = folder / "six-card-and.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def test_a_users_spec_cannot_inject_html(tmp_path: Path) -> None:
    spec = hostile_spec(tmp_path)
    page = view(tmp_path / "out", str(spec))
    text = page.read_text(encoding="utf-8")
    assert "<script>window.pwned" not in text and "<img src=x" not in text
    assert text.count("</script>") == 2  # the data block and the viewer's own script
    data = page_data(page)
    assert data["title"] == HOSTILE  # kept as text, shown with textContent
    assert data["frames"][0]["say"].startswith(HOSTILE)


def test_bad_input(tmp_path: Path) -> None:
    runner = CliRunner()
    r = runner.invoke(main, ["view", "no-such-protocol", "-o", str(tmp_path)])
    assert r.exit_code == 2 and "no-such-protocol" in r.output and "Traceback" not in r.output
    blocker = tmp_path / "file"
    blocker.write_text("x")
    r = runner.invoke(main, ["view", "six-card-and", "-o", str(blocker)])
    assert r.exit_code == 2 and "exists and is not a folder" in r.output
    r = runner.invoke(main, ["view", "card-selection", "--deck", "nope", "-o", str(tmp_path / "d")])
    assert r.exit_code == 2 and "nope" in r.output
    assert not (tmp_path / "d" / "index.html").exists()


def test_a_failing_spec_is_shown_failing(tmp_path: Path) -> None:
    # Not shuffling at all: the outputs are right, but the turned cards reveal x.
    text = (ROOT / "rulesets" / "protocols" / "six-card-and.yaml").read_text(encoding="utf-8")
    broken = re.sub(
        r"\n    shuffle:.*?(?=\n\n  - step)",
        "\n    rearrange:\n      s: [1, 2, 3, 4, 5, 6]",
        text,
        count=1,
        flags=re.S,
    )
    assert broken != text
    spec = tmp_path / "six-card-and.yaml"
    spec.write_text(broken, encoding="utf-8")
    r = CliRunner().invoke(main, ["view", str(spec), "-o", str(tmp_path / "out")])
    assert r.exit_code == 0, r.output
    assert "NOT VERIFIED" in r.output
    data = page_data(tmp_path / "out" / "index.html")
    top = data["verdicts"][0]
    assert top["protocol"] == "six-card-and" and not top["verified"]
    assert any(not c["ok"] and c["name"] == "secure" for c in top["checks"])


# --------------------------------------------------------------------------- kit index


@pytest.fixture(scope="module")
def uno_kit(built_kit: Any) -> Path:
    """The default kit, built once per test session (tests/conftest.py)."""
    folder, _ = built_kit()
    assert isinstance(folder, Path)
    return folder


def test_every_kit_has_an_index(uno_kit: Path) -> None:
    import json

    index = (uno_kit / "index.html").read_text(encoding="utf-8")
    manifest: dict[str, Any] = json.loads((uno_kit / "manifest.json").read_text(encoding="utf-8"))
    listed = {f["path"] for f in manifest["files"]}
    assert {"index.html", "view/card-selection-arrow.html", "view/knockout-lottery.html"} <= listed
    assert not REMOTE.search(index)
    from pypdf import PdfReader

    for pdf in ("cards", "labels", "booklet"):
        pages = len(PdfReader(str(uno_kit / f"{pdf}.pdf")).pages)
        assert re.search(rf'href="{pdf}\.pdf">{pdf}\.pdf</a></td><td class="n">{pages}</td>', index), pdf
    previews = sorted(p for p in listed if p.startswith("previews/"))
    assert previews and all(f'src="{p}"' in index for p in previews)
    for link in re.findall(r'href="(view/[^"]+)"', index):
        assert (uno_kit / link).is_file()
        assert page_data(uno_kit / link)["back"] == "../index.html"
    for report in manifest["verification"]:
        assert html.escape(report["title"]) in index
    # Every href points inside the kit.
    for href in re.findall(r'href="([^"]+)"', index):
        assert (uno_kit / href).resolve().is_relative_to(uno_kit.resolve()), href


def test_kit_viewer_pages_are_the_booklets_pictures(uno_kit: Path) -> None:
    import json

    booklet = json.loads((uno_kit / "booklet.json").read_text(encoding="utf-8"))
    for section in booklet["sections"]:
        data = page_data(uno_kit / "view" / f"{section['protocol']}.html")
        shown = [f["diagram"] for f in data["frames"] if f.get("diagram")]
        printed = [d for s in section["steps"] for d in s["diagrams"]]
        assert shown == printed


def test_cards_are_the_printed_pictures_with_names_in_words(tmp_path: Path) -> None:
    """Every card on the page is a picture of the printed design (the same drawing the card sheets
    use), with the back, and a name a player would say; none of them is a code with a colour."""
    import base64
    import io

    from PIL import Image

    from kitgen.paper.cardimages import render
    from kitgen.paper.facenames import face_name
    from kitgen.paper.faces import Face
    from kitgen.web.viewer import PICTURE

    data = page_data(view(tmp_path, "card-selection", "--deck", "mini"))
    faces = data["faces"]
    assert {"alpha", "beta", "red1", "wild", "theta1"} <= set(faces)
    assert faces["red1"]["name"] == "Red 1" and faces["wild"]["name"] == "Wild"
    assert faces["alpha"]["name"] == "α marker (alpha)"

    def picture(uri: str) -> Image.Image:
        assert uri.startswith("data:image/png;base64,")
        return Image.open(io.BytesIO(base64.b64decode(uri.split(",", 1)[1]))).convert("RGB")

    # The red 1's picture is the printed card's drawing, and the back is the kit's back.
    red1 = render([Face("deck", "red1", "R1", ("red", "number", "1")), None], PICTURE)
    assert picture(faces["red1"]["src"]).tobytes() == red1[0].tobytes()
    assert picture(data["card_back"]).tobytes() == red1[1].tobytes()
    assert face_name(Face("deck", "hq", "QH", ("hearts", "queen", "Q"))) == "queen of hearts"
    assert face_name(Face("theta", "theta2", "θ2", ("Human 1",))) == "θ2 · Human 1"


def test_card_pictures_drawn_before_are_the_same_pictures() -> None:
    """A card's picture does not depend on the cards drawn with it, nor on whether this process
    drew it before (kitgen.web.viewer keeps the pictures it drew)."""
    from kitgen.paper.faces import Face
    from kitgen.web import viewer

    alpha, beta, theta = (
        Face("marker", "alpha", "α"),
        Face("marker", "beta", "β"),
        Face("theta", "theta1", "θ1"),
    )
    viewer._PICTURES.clear()
    pair, back = viewer.card_pictures({"alpha": alpha, "beta": beta})
    kept = len(viewer._PICTURES)
    viewer._PICTURES.clear()
    trio, back2 = viewer.card_pictures({"theta1": theta, "beta": beta, "alpha": alpha})
    assert kept == 3 and back == back2 and {k: trio[k] for k in pair} == pair
    again, _ = viewer.card_pictures({"beta": beta})  # from the kept pictures
    assert again == {"beta": pair["beta"]} and len(viewer._PICTURES) == 4
    _, saver_back = viewer.card_pictures({"alpha": alpha}, ink_saver=True)
    assert saver_back != back and len(viewer._PICTURES) == 6  # the ink saver's pictures are their own


def test_a_card_picture_drawn_in_one_language_is_not_reused_in_another() -> None:
    """A θ card shows its seat in the active language: a picture the process drew for a kit in the
    pseudo-locale is not the English kit's (the English index.html kept its golden bytes only when
    no other language was built first in the same process)."""
    from kitgen.lang.catalogue import using_language
    from kitgen.paper.faces import Face
    from kitgen.web.viewer import card_pictures

    face = {"theta1": Face("theta", "theta1", "θ1 (Human 1)", ("Human 1",))}
    with using_language("qps"):
        pseudo = card_pictures(face)[0]["theta1"]
    english = card_pictures(face)[0]["theta1"]
    assert english != pseudo
    with using_language("qps"):
        assert card_pictures(face)[0]["theta1"] == pseudo
