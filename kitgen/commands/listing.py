"""``kitgen list``: every protocol spec and rule set with one line about it."""

from __future__ import annotations

import click

from ..console import catalogue_lines


@click.command("list")
def list_cmd() -> None:
    """Show every protocol spec and rule set with a one-line description."""
    for line in catalogue_lines():
        click.echo(line)
