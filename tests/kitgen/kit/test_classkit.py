"""Protocol kits for a class: ``kitgen build PROTOCOL`` (shipped, with --param, or a user's spec
file) makes the cards its verified setting needs, labels, the booklet, the viewer, the guides and a
one-page handout; every shipped protocol gets one, and what a protocol kit cannot take is refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from kitgen.booklet.jargon import check_kit
from kitgen.cli.main import main
from kitgen.core.manifest import KitManifest
from kitgen.kit.build import KitOptions, build
from kitgen.kit.classkit import is_protocol
from reference_engine.api import Library
from reference_engine.registry import rulesets_dir

PROTOCOLS = sorted(p.stem for p in (rulesets_dir() / "protocols").glob("*.yaml"))
# Too large to verify exactly by design (about 10^16 inputs); its kit is the Gakmoro rule set's.
UNVERIFIABLE = {"gakmoro-game"}


def _kit(tmp_path: Path, name: str, **kw: Any) -> tuple[Path, dict[str, Any]]:
    folder = tmp_path / "kit"
    manifest = build(KitOptions(ruleset=name, output=str(folder), previews=False, **kw)).to_json()
    return folder, manifest


def _pages(path: Path) -> int:
    return len(PdfReader(str(path)).pages)


def _cards_by_symbol(manifest: dict[str, Any]) -> dict[str, int]:
    top = manifest["verification"][0]
    assert top["protocol"] == manifest["protocol"]["name"]
    return dict(top["resources"]["cards_by_symbol"])


# Fast tier: the six-card AND, the five-card trick and the modified covert lottery (a protocol
# that calls another); every other shipped protocol's class kit is the slow tier.
FAST_PROTOCOLS = {"six-card-and", "five-card-trick", "covert-lottery-modified"}


@pytest.mark.parametrize(
    "name",
    [
        p if p in FAST_PROTOCOLS else pytest.param(p, marks=pytest.mark.slow)
        for p in PROTOCOLS
        if p not in UNVERIFIABLE
    ],
)
def test_every_shipped_protocol_gets_a_kit_for_a_class(
    tmp_path: Path, name: str, manifest_round_trips: Any
) -> None:
    folder, manifest = _kit(tmp_path, name)
    assert manifest_round_trips(folder) is KitManifest
    for f in ("cards.pdf", "labels.pdf", "booklet.pdf", "booklet.json", "handout.pdf", "index.html"):
        assert (folder / f).is_file(), f
    assert any(f["path"].startswith("view/") for f in manifest["files"])
    assert _pages(folder / "handout.pdf") == 1
    assert manifest["handout"] == {"file": "handout.pdf", "pages": 1}
    # The handout names where every output ends up (issue 39): a class with only the handout can
    # read its answer off the table.
    from kitgen.booklet.handout import answers

    handout = " ".join(PdfReader(str(folder / "handout.pdf")).pages[0].extract_text().split())
    proto = Library().protocol(name)
    found = answers(proto)
    assert len(found) == len(proto.outputs) and "Where the answer is" in handout
    for where, what in found:
        assert " ".join(where.split()) in handout and " ".join(what.split())[:30] in handout, (where, what)
    # Every card the verified setting lays out is printed, with spares.
    printed = {i["key"]: i for i in manifest["bom"]["items"] if i["kind"] == "card"}
    for symbol, n in _cards_by_symbol(manifest).items():
        assert printed[symbol]["needed"] == n
        assert printed[symbol]["count"] >= n
    assert manifest["bom"]["printed_cards"] == sum(i["count"] for i in printed.values())
    # Player pages speak the players' words (the identifier check, derived from the specs).
    assert check_kit(folder) == []
    assert "game" not in manifest and manifest["protocol"]["name"] == name


def test_a_protocol_with_parameters_and_a_users_spec(tmp_path: Path) -> None:
    folder, manifest = _kit(tmp_path, "covert-lottery-modified", params=("m=4",))
    assert manifest["protocol"]["params"] == {"m": 4}
    assert manifest["verification"][0]["params"] == {"m": 4}
    assert manifest["kit"].startswith("covert-lottery-modified-m4-kit")
    # Four lottery cards, #1 to #4, are printed: the verified size, not the spec's example size.
    lottery = [i for i in manifest["bom"]["items"] if i["key"].startswith("c")]
    assert [i["key"] for i in lottery] == ["c1", "c2", "c3", "c4"]
    handout = PdfReader(str(folder / "handout.pdf")).pages[0].extract_text()
    assert "1 × #4 cards" in handout and "What to watch for" in handout

    spec = (rulesets_dir() / "protocols" / "six-card-and.yaml").read_text(encoding="utf-8")
    mine = tmp_path / "specs" / "class-and.yaml"
    mine.parent.mkdir()
    mine.write_text(
        spec.replace("protocol: six-card-and", "protocol: class-and").replace(
            "title: Six-card AND (Mizuki-Sone)", "title: Our class's AND"
        ),
        encoding="utf-8",
    )
    other = tmp_path / "other"
    manifest = build(KitOptions(ruleset=str(mine), output=str(other), previews=False)).to_json()
    assert manifest["protocol"]["title"] == "Our class's AND"
    assert {i["key"] for i in manifest["bom"]["items"] if i["kind"] == "card"} == {"alpha", "beta"}
    assert (other / "handout.pdf").is_file() and check_kit(other) == []


def test_sets_for_groups_multiply_everything_a_group_needs(tmp_path: Path) -> None:
    _, one = _kit(tmp_path / "one", "six-card-and")
    folder, three = _kit(tmp_path / "three", "six-card-and", sets=3)
    items1 = {i["key"]: i for i in one["bom"]["items"]}
    items3 = {i["key"]: i for i in three["bom"]["items"]}
    assert items1.keys() == items3.keys()
    for key, item in items1.items():
        assert items3[key]["needed"] == 3 * item["needed"], key
    assert items1["envelope"]["needed"] == 2  # the AND's shuffle: two piles of three
    # A label for each group's set, then one per card type.
    labels = three["sheets"]["labels"]["labels"]
    assert labels == 3 + sum(1 for i in three["bom"]["items"] if i["kind"] == "card")
    assert three["options"]["sets"] == 3 and "sets" not in one["options"]
    assert "3 groups" in (folder / "printing-guide.txt").read_text(encoding="utf-8")
    # The note names what the kit holds (issue 39): the AND needs envelopes and no sleeves.
    kinds = {i["kind"] for i in three["bom"]["items"]}
    (note,) = [n for n in three["bom"]["notes"] if "3 groups" in n]
    assert "envelope" in kinds and "sleeve" not in kinds
    assert note.startswith("Cards and envelopes for 3 groups") and "sleeve" not in note


def test_a_failing_spec_writes_no_kit(tmp_path: Path) -> None:
    spec = (rulesets_dir() / "protocols" / "six-card-and.yaml").read_text(encoding="utf-8")
    broken = tmp_path / "broken-and.yaml"
    # Step 4 no longer undoes Step 2: the outputs are wrong for some inputs.
    old = "    rearrange:\n      s: [1, 4, 2, 3, 5, 6]"
    assert old in spec
    broken.write_text(
        spec.replace("protocol: six-card-and", "protocol: broken-and").replace(
            old, "    rearrange:\n      s: [1, 2, 3, 4, 5, 6]"
        ),
        encoding="utf-8",
    )
    out = tmp_path / "kit"
    result = CliRunner().invoke(main, ["build", str(broken), "-o", str(out), "--no-previews"])
    assert result.exit_code == 1, result.output
    assert "fails verification" in result.output and "Traceback" not in result.output
    assert not out.exists()


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["six-card-and", "--players", "3"], "--players does not apply to six-card-and"),
        (["six-card-and", "--virtual", "1"], "--virtual does not apply to six-card-and"),
        (["uno", "--param", "m=3"], "--param does not apply to uno"),
        (["uno", "--sets", "2"], "--sets does not apply to uno"),
        (["six-card-and", "--param", "m=3"], "six-card-and has no parameter 'm'"),
        (["covert-lottery-modified", "--param", "m=99"], "puts 303 cards on the table"),
        (["six-card-and", "--sets", "0"], "--sets"),
        (["six-card-and", "--sets", "41"], "--sets"),
        (["no-such-thing"], "unknown rule set or protocol 'no-such-thing'"),
        (["gakmoro-game"], "too many to verify exactly"),
        (["six-card-and", "--card-size", "10x10mm"], "too small"),
    ],
)
def test_what_a_protocol_kit_refuses(tmp_path: Path, args: list[str], said: str) -> None:
    out = tmp_path / "kit"
    result = CliRunner().invoke(main, ["build", *args, "-o", str(out), "--no-previews"])
    assert result.exit_code == 2, result.output
    assert said in result.output, result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) <= 2
    assert not out.exists()


@pytest.mark.slow  # a whole game kit from a file; the fast tier builds game kits by name
def test_a_rule_set_file_is_still_a_game_kit(tmp_path: Path) -> None:
    games = rulesets_dir() / "games"
    copy = tmp_path / "my-small-uno.yaml"
    copy.write_text((games / "uno-small.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    manifest = build(
        KitOptions(ruleset=str(copy), runs=0, previews=False, output=str(tmp_path / "k"))
    ).to_json()
    assert manifest["game"]["name"] == "uno-small" and "protocol" not in manifest
    assert not is_protocol("uno") and not is_protocol(str(games / "uno.yaml"))
    assert is_protocol("six-card-and") and is_protocol(
        str(rulesets_dir() / "protocols" / "six-card-and.yaml")
    )
    assert is_protocol("no-such-thing")  # refused by the protocol kit, naming both lists


def test_the_cli_prints_what_a_protocol_kit_holds(tmp_path: Path) -> None:
    out = tmp_path / "kit"
    result = CliRunner().invoke(main, ["build", "six-card-and", "-o", str(out), "--no-previews"])
    assert result.exit_code == 0, result.output
    assert "handout.pdf 1 page for a lesson" in result.output
    assert "set-up, rules" not in result.output  # a protocol kit has no game chapters
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "kit for a class" in index and "handout.pdf" in index
    assert "handout.pdf" in (out / "printing-guide.txt").read_text(encoding="utf-8")
    assert [f["path"] for f in manifest["files"] if f["path"].endswith(".pdf")] == [
        "booklet.pdf",
        "cards.pdf",
        "handout.pdf",
        "labels.pdf",
    ]


def test_a_protocol_kit_is_reproducible(tmp_path: Path) -> None:
    _, a = _kit(tmp_path / "a", "covert-lottery-modified", params=("m=4",))
    _, b = _kit(tmp_path / "b", "covert-lottery-modified", params=("m=4",))
    assert [(f["path"], f["sha256"]) for f in a["files"]] == [(f["path"], f["sha256"]) for f in b["files"]]


def test_library_resolves_a_family_members_glyph_before_any_run() -> None:
    # The booklet's example text named the lottery's cards c1, c2 when the verification came
    # from the cache (nothing had run to make them) and #1, #2 otherwise: not reproducible.
    import subprocess
    import sys

    code = (
        "from reference_engine.api import Library, glyph\n"
        "Library().protocol('covert-lottery-modified')\n"
        "print(glyph('c2'), glyph('alpha'), glyph('nothing7'))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["#2", "α", "nothing7"]
    assert Library().protocol("covert-lottery-modified").symbols["c"].glyph == "#{}"


def test_a_folder_of_someone_elses_files_is_refused_before_verifying(tmp_path: Path) -> None:
    out = tmp_path / "kit"
    out.mkdir()
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    result = CliRunner().invoke(main, ["build", "six-card-and", "-o", str(out), "--no-previews"])
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert "verif" not in result.output.lower()  # refused before anything ran
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]
