"""``kitgen list``: every protocol spec and rule set with one line about it."""

from __future__ import annotations

import click

from ..console import catalogue_lines, time_lines
from ..tabletime import using_model
from . import options


@click.command("list")
@click.option(
    "--times",
    is_flag=True,
    help="Also say what a virtual player costs at the table in each game with virtual players "
    "(minutes per virtual turn and per game, 4 players of whom 1 virtual; simulates games, a few "
    "seconds per rule set).",
)
@options.table_time
def list_cmd(times: bool, table_time: str | None) -> None:
    """Show every protocol spec and rule set with a one-line description."""
    for line in catalogue_lines():
        click.echo(line)
    if times:
        with using_model(table_time):
            for line in time_lines():
                click.echo(line)
