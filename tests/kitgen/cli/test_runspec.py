"""Every command's options are declared as data (kitgen.cli.runspec, kitgen.core.optionspec): the click
options each command has are exactly its declarations, in order, with their flags, defaults and
types; a declaration changed reaches the command line."""

from __future__ import annotations

import math
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from kitgen.cli import runspec
from kitgen.cli.commands import options
from kitgen.cli.main import main
from kitgen.core.optionspec import BUILD, Option, check
from reference_engine.api import UsageError


def _command(path: str) -> click.Command:
    command: click.Command = main
    for word in path.split():
        assert isinstance(command, click.Group)
        found = command.get_command(click.Context(command), word)
        assert found is not None, path
        command = found
    return command


def _options(command: click.Command) -> list[click.Option]:
    return [p for p in command.params if isinstance(p, click.Option) and p.name != "help"]


@pytest.mark.parametrize("path", [*runspec.COMMANDS, "build"])
def test_each_command_has_exactly_its_declared_options(path: str) -> None:
    declared = BUILD if path == "build" else runspec.COMMANDS[path]
    made = _options(_command(path))
    if path == "play":  # the game kinds' own options sit between the two declared groups
        made = [p for p in made if p.name in {o.name for o in declared}]
    assert [p.name for p in made] == [o.name for o in declared]
    for param, option in zip(made, declared, strict=True):
        assert option.long in param.opts, (path, option.name)
        assert param.required == option.required, (path, option.name)
        assert param.multiple == option.multiple, (path, option.name)
        assert param.help == option.help, (path, option.name)
        if option.type != "switch" and not option.required:
            assert param.default == (list(option.default) if option.multiple else option.default) or (
                option.multiple and param.default in ((), None)
            ), (path, option.name, param.default)
        if option.choices:
            assert isinstance(param.type, click.Choice)
            assert tuple(param.type.choices) == option.choices


def test_an_option_changed_in_its_declaration_reaches_the_command_line() -> None:
    changed = runspec.saying(runspec.TIME_LIMIT, "A new help text.", 5.0, range=(1, 9))

    @click.command()
    @options.declared_all((changed,))
    def cmd(time_limit: float) -> None:
        click.echo(repr(time_limit))

    assert CliRunner().invoke(cmd, []).output == "5.0\n"
    assert "A new help text." in CliRunner().invoke(cmd, ["--help"]).output
    refused = CliRunner().invoke(cmd, ["--time-limit", "10"])
    assert refused.exit_code == 2 and "1<=x<=9" in refused.output
    nan = CliRunner().invoke(cmd, ["--time-limit", "nan"])
    assert nan.exit_code == 2 and "'nan' is not a number of seconds" in nan.output


def test_the_types_of_the_run_commands(tmp_path: Path) -> None:
    """The click types made from the declared types: a hand range, a path, whole numbers with
    their ranges, required options."""
    verify = {p.name: p for p in _options(_command("verify"))}
    assert verify["hands"].type.convert("2..4", None, None) == [2, 3, 4]
    assert isinstance(verify["players"].type, click.IntRange) and verify["players"].type.min == 2
    record = next(p for p in _options(_command("play")) if p.name == "record_path")
    assert record.type.convert(str(tmp_path / "r.json"), None, None) == tmp_path / "r.json"
    out = CliRunner().invoke(main, ["solve", "cooperative", "--hand1", "1/1"])
    assert out.exit_code == 2 and "Missing option '--hand2'" in out.output
    out = CliRunner().invoke(main, ["verify", "six-card-and", "--hand", "0"])
    assert out.exit_code == 2 and "hand sizes from 1 up" in out.output


@pytest.mark.parametrize(
    ("value", "says"),
    [
        (math.nan, "--time-limit is a number of seconds, not nan"),
        (math.inf, "--time-limit is a number of seconds, not inf"),
        ("60", "--time-limit is a number of seconds, not '60'"),
        (0.001, "--time-limit is 0.01 to 86,400 seconds, not 0.001"),
    ],
)
def test_check_refuses_a_number_of_seconds_out_of_its_declaration(value: float | str, says: str) -> None:
    with pytest.raises(UsageError) as caught:
        check(runspec.TIME_LIMIT, value)
    caught.value.name_settings(options.flag)
    assert caught.value.format_message() == says
    check(runspec.TIME_LIMIT, 0.5)


def test_an_option_shared_by_commands_is_declared_once() -> None:
    """--input, --deck and --seed of simulate and view are one declaration each, said their own
    way: the same field and flag, only the help (and default) differ."""
    by_command = {c: {o.name: o for o in opts} for c, opts in runspec.COMMANDS.items()}
    for name in ("inputs", "deck", "seed"):
        one, other = by_command["simulate"][name], by_command["view"][name]
        assert (one.long, one.type, one.metavar, one.multiple) == (
            other.long,
            other.type,
            other.metavar,
            other.multiple,
        )
    assert isinstance(runspec.SEED, Option) and runspec.SEED.range is None
