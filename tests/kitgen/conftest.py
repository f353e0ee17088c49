"""Fixtures for kit tests: comparing a built kit with its golden fingerprint, and reading its
manifest back as a typed manifest."""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

GOLDEN = Path(__file__).resolve().parent / "golden"


def _fingerprint_module() -> Any:
    spec = importlib.util.spec_from_file_location("kit_fingerprint", GOLDEN / "fingerprint.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def matches_golden() -> Callable[[Path, str], list[str]]:
    """``matches_golden(folder, name)``: what differs between a built kit and the golden
    ``name`` in golden/kits.json (data always; page text and bytes when this machine has the
    golden's PDF library versions). The goldens were made before the architecture change
    (issue 11), which left them byte for byte unchanged, and regenerated after the deliberate
    changes of issues 13 and 14 (shared cut lines, page-check fixes, player sentences, printing
    guide, index.html and viewer pages), each checked by hand as PNG; regenerate an entry with
    ``python tests/kitgen/golden/fingerprint.py KIT NAME`` after checking a deliberate change."""
    fp = _fingerprint_module()
    golden = json.loads((GOLDEN / "kits.json").read_text(encoding="utf-8"))

    def compare(folder: Path, name: str) -> list[str]:
        return list(fp.differences(fp.fingerprint(folder, golden[name]), golden[name]))

    return compare


@pytest.fixture(scope="session")
def plain_words() -> Callable[..., list[str]]:
    """``plain_words(folder)``: what the identifier check (kitgen.booklet.jargon) finds on the pages for
    players of a built kit or booklet. ``plain_words(folder, sample_cards=True)``: the same, but of
    the card sheets only the calibration pages and the first front and back page of each card type
    (as the fast page check reads them: the other pages of a type repeat its words); every other
    PDF page and web page as before."""
    from kitgen.booklet.jargon import check_kit, exempt_pages, html_findings, kit_vocabulary, pdf_findings
    from kitgen.core.manifest import from_json

    def check(folder: Path, sample_cards: bool = False) -> list[str]:
        if not sample_cards:
            return [str(f) for f in check_kit(folder)]
        data = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        vocabulary = kit_vocabulary(from_json(data))
        found: list[Any] = []
        for entry in data["files"]:
            rel, path = str(entry["path"]), folder / str(entry["path"])
            if rel == "cards.pdf":
                sheets = data["sheets"]["cards"]
                sample = set(range(1, sheets["calibration_pages"] + 1))
                sample |= {n for p in data["card_pages"] for n in p["fronts"][:1] + p["backs"][:1]}
                every = set(range(1, sheets["pages"] + 1))
                found += pdf_findings(path, vocabulary, every - sample)
            elif rel.endswith(".pdf"):
                imposed = data.get("imposition") == "a5-saddle"
                skip = exempt_pages(path, imposed) if Path(rel).name == "booklet.pdf" else {}
                found += pdf_findings(path, vocabulary, skip)
            elif rel.endswith(".html"):
                found += html_findings(path, vocabulary, rel)
        return [str(f) for f in found]

    return check


# The rule sets whose booklet is read from their kit (built_kit with these options, the kit
# tests' own, so the build is shared): the kit's booklet is the booklet `kitgen booklet` makes for
# the same seats, and a booklet built on its own costs nearly a kit (Daifugō's: about a minute of
# CPU; UNO's, Sevens', Hearts' and Dominoes' 10-16 s each).
# kinds/test_games.py's kits of Sevens, Hearts and Dominoes.
GAME_KIT_OPTIONS: dict[str, Any] = {"players": 4, "virtual": 2, "previews": False, "runs": 10}
# kinds/test_climbing.py's Daifugō kit.
DAIFUGO_KIT: dict[str, Any] = {
    "ruleset": "daifugo",
    "players": 4,
    "virtual": 1,
    "previews": False,
    "runs": 20,
}
# kinds/test_shedding.py's Crazy Eights kit, which kit/test_kit.py's --exact-hands test reads too:
# one build shows both (the claim costs it about 2 s of CPU; a kit of its own cost 9-11 s).
CRAZY_EIGHTS_KIT: dict[str, Any] = {
    "ruleset": "crazy-eights",
    "players": 4,
    "virtual": 2,
    "previews": False,
    "runs": 20,
    "exact_hands": 1,
}
KIT_BOOKLETS: dict[str, dict[str, Any]] = {
    "uno": {},  # the default kit (`kitgen build`: built_kit()), read by kit/test_kit.py and others
    "daifugo": DAIFUGO_KIT,
    # kinds/test_sealed_bid.py's Gakmoro kit: its booklet.json is `kitgen booklet gakmoro --runs 20
    # --no-previews`'s but for the booklet's name (both verify the round exactly; compared at stop 52).
    "gakmoro": {"ruleset": "gakmoro"},
    **{game: {"ruleset": game, **GAME_KIT_OPTIONS} for game in ("sevens", "hearts", "dominoes")},
}


@pytest.fixture(scope="session")
def game_booklet(
    built_booklet: Callable[..., tuple[Path, Any]], built_kit: Callable[..., tuple[Path, Any]]
) -> Callable[[str], Path]:
    """``game_booklet(ruleset)``: the folder of ``kitgen booklet RULESET`` (20 statistical runs,
    no previews), built once per session for every worker (tests/conftest.py's built_booklet),
    or for a rule set of KIT_BOOKLETS the folder of its kit, whose booklet is the same."""
    from kitgen.core.optionspec import KindValues

    def get(ruleset: str) -> Path:
        if ruleset in KIT_BOOKLETS:
            return built_kit(**KIT_BOOKLETS[ruleset])[0]
        wild4 = "bluff" if ruleset == "uno-official" else "strict"
        folder, _ = built_booklet(name=ruleset, runs=20, previews=False, own=KindValues.of(wild4=wild4))
        return folder

    return get


@pytest.fixture(scope="session")
def manifest_round_trips() -> Callable[[Path], type]:
    """``manifest_round_trips(folder)``: the kit's manifest.json read back as a typed manifest
    (:func:`kitgen.core.manifest.from_json`) and written again gives the same bytes; its class."""
    from kitgen.core.manifest import from_json

    def check(folder: Path) -> type:
        text = (folder / "manifest.json").read_text(encoding="utf-8")
        manifest = from_json(json.loads(text))
        assert json.dumps(manifest.to_json(), indent=2, ensure_ascii=False) + "\n" == text
        return type(manifest)

    return check


# A kit manifest's table_time key for each figure of the README's table (docs/kit-figures.json);
# Gakmoro's turn is a round, its game the mean of a whole game.
_SAME = {
    "turn_minutes": ("virtual_turn_minutes", "round_minutes"),
    "first_turn_minutes": ("first_turn_minutes", "round_minutes"),
    "game_minutes_mean": ("game_minutes_mean", "game_minutes"),
    "table_width_cm": ("table_width_cm",),
    "table_depth_cm": ("table_depth_cm",),
}


@pytest.fixture(scope="session")
def committed_figures() -> Callable[[dict[str, Any], str], list[str]]:
    """``committed_figures(manifest, name)``: where a built kit's table_time differs from the
    figures the README's table was generated from (issue 39: one source for every figure)."""
    root = Path(__file__).resolve().parent.parent.parent
    rows = json.loads((root / "docs" / "kit-figures.json").read_text(encoding="utf-8"))["kits"]

    def compare(manifest: dict[str, Any], name: str) -> list[str]:
        cost, row = manifest["table_time"], rows[name]
        out = []
        for key, theirs in _SAME.items():
            for suffix in ("", "_cautious") if "minutes" in key else ("",):
                mine = next((cost[k + suffix] for k in theirs if k + suffix in cost), None)
                if mine != row[key + suffix]:
                    out.append(f"{key}{suffix}: kit {mine}, README {row[key + suffix]}")
        return out

    return compare
