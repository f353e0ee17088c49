"""``kitgen simulate``: one seeded run of a protocol, step by step."""

from __future__ import annotations

import json
import sys

import click

from reference_engine.api import Library, check_protocol, explore, parse_params, simulate

from .. import runspec
from ..console import simulation_lines
from . import options


@click.command("simulate")
@click.argument("name")
@options.declared_all(runspec.SIMULATE)
def simulate_cmd(
    name: str,
    inputs: tuple[str, ...],
    params: tuple[str, ...],
    seed: int | None,
    deck: str | None,
    as_json: bool,
    pause: bool,
    show_hidden: bool,
    force: bool,
) -> None:
    """Run a protocol once and print it step by step.

    Step numbers and sentences are the spec's (the booklet prints the same ones). The
    table is shown as everyone at the table sees it: `?` for a face-down card, the face
    for a face-up card, `·` for an empty place; rows of a matrix on separate lines.
    """
    library = Library()
    proto = library.protocol(name)
    given = parse_params(params)
    check_protocol(proto, given, force, "simulate", deck, library)
    result = simulate(library, proto, given, inputs, seed, scenario=deck)
    # Every shuffle outcome of these inputs (and a few others) can be carried out, or exit 2.
    explore(library, proto, given, deck, [result.values])
    if as_json:
        click.echo(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
        sys.exit(1 if result.wrong else 0)
    for line in simulation_lines(proto, result, show_hidden):
        if line is None:  # the end of a step
            if pause:
                click.prompt(
                    "Press Enter for the next step",
                    default="",
                    show_default=False,
                    prompt_suffix="",
                    err=True,
                )
            continue
        click.echo(line)
    for problem in result.wrong:
        click.echo(f"NOT AS THE SPEC SAYS: {problem}")
    if result.wrong:
        click.echo(f"This run of {proto.name} breaks its spec; `kitgen verify {name}` checks every run.")
        sys.exit(1)
