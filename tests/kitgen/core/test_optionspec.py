"""The options of ``kitgen build`` are declared once (kitgen.core.optionspec): the command line is
made from the declarations, one validator checks every value (for the command line and for a
caller of ``build``), and a kind takes the options it declares and refuses the others."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from kitgen.cli.commands import options
from kitgen.cli.main import main
from kitgen.core.optionspec import (
    BUILD,
    CARD_KIT,
    COMMON,
    DECK,
    LABEL_START,
    PAPER,
    RUNS,
    SEED,
    KindValues,
    check,
)
from kitgen.core.templates import load_templates
from kitgen.kit.build import KitOptions, build
from reference_engine.api import MAX_RUNS, UsageError


def _as_cli(exc: UsageError) -> str:
    """The message as the command line shows it: fields named by their flags."""
    exc.name_settings(options.flag)
    return exc.format_message()


@pytest.mark.parametrize(
    ("option", "value", "says"),
    [
        (LABEL_START, 0, "--label-start is 1 to 1,000, not 0"),
        (RUNS, -1, f"--runs is 0 to {MAX_RUNS:,}, not -1"),
        (SEED, -5, "--seed is at least 0, not -5"),
        (DECK, "borrowed", "--deck is print or store, not 'borrowed'"),
        (PAPER, "a5", "--paper is a4, letter, a3 or tabloid, not 'a5'"),
        (LABEL_START, "3", "--label-start is a whole number, not '3'"),
        (LABEL_START, True, "--label-start is a whole number, not True"),
    ],
)
def test_the_validator_names_the_flag_and_what_it_takes(option: object, value: object, says: str) -> None:
    with pytest.raises(UsageError) as info:
        check(option, value)  # type: ignore[arg-type]
    assert _as_cli(info.value) == says
    # Read bare (an API caller's str()), the option is named by its field.
    assert str(info.value).startswith(option.name + " is")  # type: ignore[attr-defined]


def test_values_in_range_pass() -> None:
    check(LABEL_START, 1_000)
    check(DECK, "store")
    check(SEED, 10**9)


def test_a_kinds_own_values_are_checked_when_made() -> None:
    assert KindValues.of(deck="store", count=None).given == (("deck", "store"),)
    with pytest.raises(UsageError, match="deck is print or store, not 'shop'"):
        KindValues.of(deck="shop")
    with pytest.raises(UsageError, match="count is 1 to 200, not 0"):
        KindValues.of(count=0)
    with pytest.raises(UsageError, match="players is not an option of a kit"):
        KindValues(given=(("players", 3),))
    own = KindValues.of(discard_owner=True)
    assert own.switch("discard_owner") and own.text("deck") == "print"  # the declared default
    assert own.optional_text("strategy") is None and own.optional_whole("count") is None


def test_build_checks_its_options_before_any_work(tmp_path: Path) -> None:
    """A caller of build() gets the command line's checks (the values click would refuse)."""
    for opts, says in [
        (KitOptions(duplex="sideways"), "duplex is long, short, none or fold, not 'sideways'"),
        (KitOptions(ruleset="six-card-and", sets=41), "sets is 1 to 40, not 41"),
        (KitOptions(players=0), "players is 1 to 100, not 0"),
    ]:
        folder = tmp_path / "k"
        with pytest.raises(UsageError, match=re.escape(says)):
            build(replace(opts, output=str(folder), previews=False))
        assert not folder.exists()


def _help() -> str:
    result = CliRunner().invoke(main, ["build", "--help"])
    assert result.exit_code == 0
    return " ".join(result.output.split())


def test_build_help_lists_every_declared_option_and_choice() -> None:
    text = _help()
    for option in BUILD:
        assert option.long in text, option.long
        assert " ".join(option.help.split())[:40] in text, option.name
        if option.choices:
            assert "[" + "|".join(option.choices) + "]" in text, option.name
    # Papers and label sheets are templates/layout.yaml's.
    t = load_templates()
    assert PAPER.choices == tuple(t.papers)
    assert "[" + "|".join(t.papers) + "]" in text


def test_a_declared_choice_becomes_a_choice_of_the_command() -> None:
    """The click option is made from the declaration: a choice added there is offered and taken."""
    more = replace(DECK, choices=(*DECK.choices, "borrowed"))

    @click.command()
    @options.declared(more)
    def cmd(deck: str) -> None:
        click.echo(f"deck={deck}")

    runner = CliRunner()
    assert "[print|store|borrowed]" in runner.invoke(cmd, ["--help"]).output
    assert runner.invoke(cmd, ["--deck", "borrowed"]).output == "deck=borrowed\n"
    refused = runner.invoke(cmd, ["--deck", "shop"])
    assert refused.exit_code == 2 and "'shop' is not one of 'print', 'store', 'borrowed'" in refused.output


def test_fields_map_to_their_flags() -> None:
    assert options.flag("label_start") == "--label-start"
    assert options.flag("params") == "--param"
    assert options.flag("as_json") == "--json"
    assert options.flag("time_limit") == "--time-limit"  # an engine setting no build option declares


def test_a_kind_refuses_an_option_it_does_not_declare(tmp_path: Path) -> None:
    """By the API too: hearts declares no --discard-owner; a puzzle kit only the common options
    and its own."""
    folder = tmp_path / "k"
    with pytest.raises(UsageError) as info:
        build(KitOptions(ruleset="hearts", own=KindValues.of(discard_owner=True), output=str(folder)))
    message = _as_cli(info.value)
    assert message.startswith(
        "--discard-owner does not apply to hearts: it has no discard pile to treat as an owner. "
        "Its kit takes --allow-missing, --back-offset, --card-size, --deck"
    )
    with pytest.raises(UsageError) as info:
        build(KitOptions(ruleset="uno-puzzles", given=frozenset({"players"}), output=str(folder)))
    message = _as_cli(info.value)
    takes = ", ".join(sorted(o.long for o in COMMON) + ["--count", "--difficulty", "--seed"])
    assert "--players does not apply to uno-puzzles" in message
    assert sorted(message.split("Its kit takes ")[1].split(", ")) == sorted(takes.split(", "))
    assert not folder.exists()


def test_the_groups_are_declarations() -> None:
    names = [o.name for o in BUILD]
    assert len(names) == len(set(names))
    assert set(CARD_KIT) <= set(BUILD) and set(COMMON) <= set(CARD_KIT)


def test_the_play_command_makes_every_kind_option_from_its_declaration() -> None:
    """``kitgen play``'s options come from the engine kinds' declarations (PlayOption) through
    the same path as ``kitgen build``'s: a switch is a flag, choices are a click choice, and a
    value outside them is refused by click before any game is dealt."""
    from kitgen.cli.commands.play import play_cmd
    from kitgen.core.optionspec import of_play
    from reference_engine.api import PlayOption, kinds

    assert of_play(PlayOption.switch("pass_three", "x")).type == "switch"
    picked = of_play(PlayOption("strategy", "x", "random", ("random", "greedy")))
    assert picked.type == "text" and picked.choices == ("random", "greedy")
    assert of_play(PlayOption("rounds", "x", 3, kind=int)).range == (1, 10_000)
    by_name = {p.name: p for p in play_cmd.params}
    declared = [o.name for k in kinds().values() for o in k.play_options]
    for kind in kinds().values():
        for opt in kind.play_options:
            param = by_name[opt.name]
            assert isinstance(param, click.Option)
            assert param.is_flag == opt.flag, opt.name
            if opt.flag:
                continue
            if opt.choices and declared.count(opt.name) == 1:
                assert isinstance(param.type, click.Choice) and tuple(param.type.choices) == opt.choices
    result = CliRunner().invoke(main, ["play", "hearts", "--pass-three", "--rounds", "0"])
    assert result.exit_code == 2 and "--rounds" in result.output
