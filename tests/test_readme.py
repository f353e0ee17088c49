"""README's commands work as written after its set-up (issue 39): every shell command in its code
blocks runs the project's own kitgen or Python (.venv/bin/..., which the set-up creates; a bare
``kitgen`` is "command not found" until someone activates the venv), and names a command and
options that exist."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import click
import pytest

from kitgen.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
VENV_TOOLS = (".venv/bin/kitgen", ".venv/bin/python", ".venv/bin/pip", ".venv/bin/ruff", ".venv/bin/mypy")


def _commands() -> list[str]:
    """Every command of README's ```sh blocks (comments dropped, ``&&`` chains split)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    out = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.splitlines():
            line = line.split("  #")[0].strip()
            out += [part.strip() for part in line.split("&&") if part.strip()]
    return out


COMMANDS = _commands()


def test_readme_has_commands() -> None:
    assert len(COMMANDS) > 20 and any(c.startswith(".venv/bin/kitgen play") for c in COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_readme_command_runs_what_the_setup_installs(command: str) -> None:
    words = shlex.split(command)
    tool = words[0]
    assert tool in VENV_TOOLS or tool == "python3", f"{tool!r} is not on the PATH after the set-up: {command}"
    if tool != ".venv/bin/kitgen":
        if tool == ".venv/bin/python" and words[1:2] != ["-m"]:
            assert (ROOT / words[1]).is_file(), command
        return
    group = main
    assert isinstance(group, click.Group)
    sub = group.commands.get(words[1])
    assert sub is not None, f"kitgen has no command {words[1]!r}: {command}"
    if isinstance(sub, click.Group):  # kitgen solve solitaire ...
        sub = sub.commands.get(words[2])
        assert sub is not None, command
    flags = {f for p in sub.params if isinstance(p, click.Option) for f in (*p.opts, *p.secondary_opts)}
    for word in words[2:]:
        if word.startswith("-"):
            assert word.split("=")[0] in flags, f"kitgen {words[1]} has no option {word}: {command}"


def test_the_sleeve_sentence_names_exactly_the_kits_whose_protocol_uses_sleeves() -> None:
    """README's sentence about sleeves, from the kits' materials: a kit prints sleeves exactly when
    its virtual players' protocol keeps each column in a sleeve (kitgen.cost.kitcost.sleeved); every
    game that is not in the sentence says what it uses instead."""
    from kitgen.cost.kitcost import sleeved
    from reference_engine.api import Library, games_dir
    from reference_engine.kinds import load_game

    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    sentence = text[text.index("The kits of ") : text.index("teach the quick version")]
    named = set(re.findall(r"`([a-z0-9-]+)`", sentence))
    library = Library()
    for path in sorted(games_dir().glob("*.yaml")):
        rules = load_game(path.stem)
        if rules.kind == "uno-puzzles":
            continue
        uses = rules.kind != "sealed-bid" and sleeved(library.protocol(rules.protocol))
        assert (rules.name in named) == uses, rules.name
        if not uses:
            assert rules.title.split(" (")[0] in text.split("teach the quick version")[1][:600], rules.name
