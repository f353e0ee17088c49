"""``kitgen list``: every protocol spec and rule set with one line about it."""

from __future__ import annotations

import json

import click

from reference_engine.api import Library, UsageError

from ...cost.timemodel import using_model
from ...kit.figures import summaries, time_lines
from ...lang.catalogue import language_lines
from .. import runspec
from ..console import catalogue_lines
from . import options


@click.command("list")
@options.declared_all(runspec.LIST)
def list_cmd(times: bool, table_time: str | None, langs: bool, as_json: bool) -> None:
    """Show every protocol spec and rule set with a one-line description."""
    if langs:
        if times or as_json:
            raise UsageError("--langs lists the languages alone: give it without --times and --json")
        for line in language_lines():
            click.echo(line)
        return
    if as_json and not times:
        raise UsageError("--json prints the figures of --times: give both")
    library = Library()  # one library: each spec is loaded once
    if not as_json:
        for line in catalogue_lines(library):
            click.echo(line)
    if times:
        with using_model(table_time):
            rows = summaries(library)
        if as_json:
            click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
            return
        for line in time_lines(rows):
            click.echo(line)
