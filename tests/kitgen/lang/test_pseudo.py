"""The pseudo-locale test (issue 41 part 3): a shipped kit built with ``--lang qps`` has every
player-facing string in ``⟦ ⟧``; a word on its pages outside every ``⟦ ⟧`` did not pass through
the catalogue or a spec overlay.

Not every string is routed yet (docs/languages.md, "What is translated"): :data:`CEILING` is how
many distinct unwrapped words each file may still have. A change that adds player-facing text
without ``_()`` raises a count past its ceiling and fails; wrapping more strings lowers it (lower
the ceiling then). The strict xfail turns into a failure the day every file is clean."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from kitgen.lang.pseudo import outside, unwrapped_words

# Distinct unwrapped words per file of the six-card AND protocol kit in qps.
CEILING = {
    "booklet.pdf": 199,
    "cards.pdf": 70,
    "labels.pdf": 1,
    "handout.pdf": 14,
    "printing-guide.txt": 51,
    "shopping-list.txt": 35,
}
# What stays as it is in every language: the program's and the kit's names, file names.
ALLOWED = frozenset({"kitgen", "six-card-and-kit-a", "pdf", "txt", "html"})
ROUTED = ("Contents", "Validation", "Anything", "Worked", "Moves", "Quick", "Card")  # wrapped by now


def page_text(path: Path) -> str:
    if path.suffix == ".pdf":
        return subprocess.run(
            ["pdftotext", str(path), "-"], capture_output=True, text=True, check=True
        ).stdout
    return path.read_text(encoding="utf-8")


def unwrapped(folder: Path, name: str) -> set[str]:
    return set(unwrapped_words(page_text(folder / name), ALLOWED))


def test_outside_brackets() -> None:
    assert outside("⟦Shuffle⟧ the ⟦cards ⟦α⟧⟧.") == " the ."
    found = unwrapped_words("⟦Step 1.⟧ Lay out α β (x AND y) in six-card-and-kit-a.pdf", ALLOWED)
    assert found == ["Lay", "out", "AND", "in"]  # one letter (x) is no word; names and files stay


@pytest.mark.parametrize("name", sorted(CEILING))
def test_no_new_unwrapped_text(pseudo_protocol_kit: Path, name: str) -> None:
    found = unwrapped(pseudo_protocol_kit, name)
    assert len(found) <= CEILING[name], f"{name}: {len(found)} words outside ⟦ ⟧: {sorted(found)[:40]}"


def test_the_booklet_headings_and_steps_are_routed(pseudo_protocol_kit: Path) -> None:
    text = page_text(pseudo_protocol_kit / "booklet.pdf")
    found = unwrapped(pseudo_protocol_kit, "booklet.pdf")
    assert not [w for w in ROUTED if w in found]
    assert "⟦Contents⟧" in text and re.search(r"⟦Step 1\.⟧", text)
    assert "⟦Six-card AND (Mizuki-Sone)⟧" in text  # the spec's title, through the overlay lookup


def test_the_manifest_records_the_language(pseudo_protocol_kit: Path) -> None:
    manifest = json.loads((pseudo_protocol_kit / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["language"] == "qps"
    assert list(manifest)[-2:] == ["language", "files"]


@pytest.mark.xfail(strict=True, reason="not every player-facing string is routed yet (CEILING)")
def test_every_player_facing_word_is_wrapped(pseudo_protocol_kit: Path) -> None:
    assert all(not unwrapped(pseudo_protocol_kit, name) for name in CEILING)
