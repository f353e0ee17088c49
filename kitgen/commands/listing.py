"""``kitgen list``: every protocol spec and rule set with one line about it."""

from __future__ import annotations

import click

from .. import runspec
from ..console import catalogue_lines, time_lines
from ..tabletime import using_model
from . import options


@click.command("list")
@options.declared_all(runspec.LIST)
def list_cmd(times: bool, table_time: str | None) -> None:
    """Show every protocol spec and rule set with a one-line description."""
    for line in catalogue_lines():
        click.echo(line)
    if times:
        with using_model(table_time):
            for line in time_lines():
                click.echo(line)
