"""Everything a spec author can write is documented where users look: the README and the pages
of ``docs/`` it links to (the spec reference, the command line)."""

from __future__ import annotations

from pathlib import Path

import pytest

from reference_engine.functions import BUILTINS, OUTPUT_DECODERS
from reference_engine.spec import EXPECT_KEYS, TOP_KEYS
from reference_engine.steps import ACTIONS, SHUFFLE_KINDS

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
# What a user reads: the README and every page of docs/ (each linked from the README).
DOCS = "\n".join([README] + [p.read_text(encoding="utf-8") for p in sorted((ROOT / "docs").glob("*.md"))])


@pytest.mark.parametrize("word", sorted(set(ACTIONS) | set(SHUFFLE_KINDS)))
def test_every_action_is_documented(word: str) -> None:
    assert f"`{word}" in DOCS


@pytest.mark.parametrize("name", sorted(BUILTINS))
def test_every_function_is_documented(name: str) -> None:
    assert f"`{name}" in DOCS


@pytest.mark.parametrize("key", sorted(set(TOP_KEYS) | set(EXPECT_KEYS) | set(OUTPUT_DECODERS)))
def test_every_key_is_documented(key: str) -> None:
    assert f"`{key}`" in DOCS


def test_readme_test_command_is_what_ci_runs() -> None:
    ci = (Path(__file__).resolve().parents[1] / ".ci" / "run").read_text(encoding="utf-8")
    assert ".venv/bin/python -m pytest" in README and "pytest -m slow" in README
    # README's command (the fast tier), then the slow tier, as the last two lines.
    assert ci.strip().splitlines()[-2:] == [
        ".venv/bin/python -m pytest",
        ".venv/bin/python -m pytest -m slow",
    ]


def test_every_command_line_option_is_in_the_readme() -> None:
    import click

    from kitgen.cli.main import main

    for name, command in main.commands.items():
        assert f"kitgen {name}" in DOCS, name
        for param in command.params:
            if isinstance(param, click.Option):
                assert any(opt in DOCS for opt in param.opts if opt.startswith("--")), (name, param.opts)


def test_every_docs_page_is_linked_from_the_readme() -> None:
    for page in sorted((ROOT / "docs").glob("*.md")):
        assert f"](docs/{page.name})" in README, page.name


def test_the_readme_stays_short() -> None:
    assert len(README.splitlines()) <= 300


def test_every_documented_exact_hands_build_is_one_the_check_takes() -> None:
    """README said `kitgen build uno --exact-hands 7` after the UNO kits moved to
    card-selection-arrow, which the whole-deck check then refused (a weighted output): the
    command failed with exit 2. Every `kitgen build GAME [--protocol P] ... --exact-hands N` a
    page shows must name a kit whose protocol the check takes; since stop 57 it takes UNO's
    default (weighted outputs whose weights read only classes, the draw's first sleeve)."""
    import re

    from kitgen.core.verification import whole_deck_offered
    from reference_engine.api import load_game

    commands = re.findall(r"`kitgen build ([a-z0-9-]+)((?: --[a-z-]+(?: [^`\s-][^`\s]*)?)*)`", DOCS)
    shown = [(game, opts) for game, opts in commands if "--exact-hands" in opts]
    assert len(shown) >= 3, shown
    for game, opts in shown:
        given = re.search(r"--protocol ([a-z0-9-]+)", opts)
        protocol = given.group(1) if given else load_game(game).protocol
        assert whole_deck_offered(protocol, game, 4), (game, opts, protocol)
    uno = load_game("uno").protocol
    assert uno == "card-selection-arrow" and whole_deck_offered(uno, "uno", 4)
    assert ("uno", " --exact-hands 7") in shown
