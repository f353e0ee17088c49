"""The ``kitgen`` command line. Commands are thin: they parse options and call library code."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from reference_engine.registry import Library
from reference_engine.simulate import parse_params, simulate
from reference_engine.verify import verify as verify_protocol

from . import console

PARAM_HELP = "A protocol parameter as NAME=NUMBER, e.g. --param m=5 (repeatable)."


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="kitgen")
def main() -> None:
    """Printable kits and booklets for card games played with card-based cryptography.

    Every protocol a booklet teaches is a YAML spec that the reference engine runs and
    verifies. Start with `kitgen list`.
    """


@main.command("list")
def list_cmd() -> None:
    """Show every protocol spec and rule set with a one-line description."""
    library = Library()
    entries = library.catalogue()
    width = max((len(e.name) for e in entries), default=0)
    click.echo("Protocols (kitgen verify NAME, kitgen simulate NAME):")
    for e in entries:
        text = e.summary if not e.problem else f"INVALID SPEC: {e.problem} (run kitgen verify {e.name})"
        click.echo(f"  {e.name.ljust(width)}  {text}")


VERIFY_HELP = """Verify a protocol spec exactly and compare its resource counts with its paper.

NAME is a built-in protocol (see `kitgen list`) or a path to a spec file.

The engine runs the protocol for every possible secret input and every outcome of
every shuffle, with exact fractions, and checks:

\b
  correct   every run produces the output the spec promises (for a lottery:
            the chosen card is always valid and every valid card is chosen
            with exactly the same probability; "none" exactly when no card is valid)
  secure    what the players see (cards turned face up, public decisions, cards
            returned to the spares) is equally likely whatever the secret
            inputs are, once the public result is known: watching reveals nothing more
  tidy      at the end every card is part of an output or back with the spares
  expect    cards, helper cards, shuffles and turns equal the numbers quoted
            from the paper in the spec's `expect` block

Exit code 0 when every check holds, 1 when one fails, 2 for a spec or option error.
"""


@main.command("verify", help=VERIFY_HELP)
@click.argument("name")
@click.option("--param", "params", multiple=True, metavar="NAME=N", help=PARAM_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
def verify_cmd(name: str, params: tuple[str, ...], as_json: bool) -> None:
    library = Library()
    proto = library.protocol(name)
    report = verify_protocol(library, proto, parse_params(params))
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        for line in report.lines():
            click.echo(line)
    sys.exit(0 if report.ok else 1)


@main.command("simulate")
@click.argument("name")
@click.option(
    "--input",
    "inputs",
    multiple=True,
    metavar="NAME=VALUE",
    help="A secret input, e.g. --input x=1; arrays are comma-separated (--input x=1,0,1).",
)
@click.option("--param", "params", multiple=True, metavar="NAME=N", help=PARAM_HELP)
@click.option(
    "--seed", type=int, default=None, help="Seed for the shuffles (default 0). Same seed, same run."
)
@click.option("--json", "as_json", is_flag=True, help="Print the whole trace as JSON.")
@click.option("--pause", is_flag=True, help="Wait for Enter after each step, so a table can follow along.")
@click.option("--show-hidden", is_flag=True, help="Also print the face of every face-down card, in brackets.")
def simulate_cmd(
    name: str,
    inputs: tuple[str, ...],
    params: tuple[str, ...],
    seed: int | None,
    as_json: bool,
    pause: bool,
    show_hidden: bool,
) -> None:
    """Run a protocol once and print it step by step.

    Step numbers and sentences are the spec's (the booklet prints the same ones). The
    table is shown as everyone at the table sees it: `?` for a face-down card, the face
    for a face-up card, `·` for an empty place; rows of a matrix on separate lines.
    """
    library = Library()
    proto = library.protocol(name)
    result = simulate(library, proto, parse_params(params), inputs, seed)
    if as_json:
        click.echo(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
        return
    tr = result.trace
    shown = ", ".join(f"{k}={_plain(v)}" for k, v in tr.inputs.items())
    click.echo(f"{proto.title}  [{proto.name}]")
    if tr.params:
        click.echo("parameters: " + ", ".join(f"{k}={v}" for k, v in tr.params.items()))
    click.echo(f"inputs: {shown}   seed: {tr.seed if tr.seed is not None else 0}")
    for first, block in console.step_blocks(tr.events):
        indent = "  " * first.depth
        where = f" [{' > '.join(first.call_path)}]" if first.call_path else ""
        loop = "".join(f" ({k}={v})" for k, v in first.loop.items())
        click.echo("")
        click.echo(f"{indent}Step {first.step or '-'}{loop}{where}. {first.say}")
        for e in block:
            note = console.describe_event(e)
            if note:
                click.echo(f"{indent}  - {note}")
        for line in console.table_lines(block[-1].after, show_hidden, indent + "    "):
            click.echo(line)
        if pause:
            click.prompt(
                "Press Enter for the next step", default="", show_default=False, prompt_suffix="", err=True
            )
    click.echo("")
    click.echo("Outputs:")
    for k, v in tr.outputs.items():
        out = proto.outputs[k]
        where = "public" if out.public else "face down"
        click.echo(f"  {k} = {v}  ({where}{': ' + out.doc if out.doc else ''})")


def _plain(v: Any) -> str:
    if isinstance(v, list):
        return ",".join(_plain(x) for x in v)
    return str(v)
