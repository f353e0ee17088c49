"""``kitgen verify``: exact (or statistical) verification of one protocol."""

from __future__ import annotations

import json
import sys

import click

from reference_engine.api import MAX_RUNS

from ..console import forecast_lines, report_lines
from ..verification import default_workers, forecast_named, verify_named
from . import options

VERIFY_HELP = """Verify a protocol spec exactly and compare its resource counts with its paper.

NAME is a built-in protocol (see `kitgen list`) or a path to a spec file.

The engine runs the protocol for every possible secret input and every outcome of
every shuffle, with exact fractions, and checks:

With --deck SCENARIO a game protocol (card selection) is verified exactly on the
spec's reduced deck, dealt in every possible way. With --runs N it is verified
statistically on the full deck instead (every run checked; chi-square tests of the
played card and of features of the view, p-values listed).

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


@click.command("verify", help=VERIFY_HELP)
@click.argument("name")
@options.param
@click.option(
    "--deck",
    default=None,
    metavar="SCENARIO",
    help="For a game protocol (card selection): the spec's scenario to verify exactly, "
    "e.g. --deck mini (a reduced deck dealt in every possible way). Default: the first.",
)
@click.option(
    "--runs",
    type=options.Whole(min=10, max=MAX_RUNS),
    default=None,
    metavar="N",
    help="For a game protocol: statistical verification on the full deck instead, with N seeded "
    "runs on each of two deals with the same public information (chi-square tests); "
    f"N is 10 to {MAX_RUNS:,}.",
)
@click.option(
    "--seed", type=options.SEED, default=0, show_default=True, help="Seed of the deals and runs of --runs."
)
@click.option(
    "--workers",
    type=options.Whole(min=1, max=256),
    default=None,
    metavar="N",
    help="Split an exact verification's secret inputs over N processes (default: the "
    "number of cores, at most one per input). The report is the same whatever N, except "
    "the work statistics; --workers 1 runs in this process.",
)
@click.option(
    "--scheduler",
    default=None,
    metavar="ADDRESS",
    help="Run an exact verification on a Dask cluster (tcp://host:8786), one partition per "
    "worker thread. Needs the cluster extra: pip install 'kitgen[cluster]'.",
)
@click.option(
    "--estimate",
    is_flag=True,
    help="Do not verify: measure the protocol at up to four smaller sizes of its first "
    "whole-number parameter (m = 4 to 7 for --param m=8, each under a minute) and forecast "
    "the states, memory and time the asked size will take, to choose a machine or --workers.",
)
@options.as_json("Print one JSON object instead of text.")
@options.force()
def verify_cmd(
    name: str,
    params: tuple[str, ...],
    deck: str | None,
    runs: int | None,
    seed: int,
    workers: int | None,
    scheduler: str | None,
    estimate: bool,
    as_json: bool,
    force: bool,
) -> None:
    if estimate:
        if runs is not None:
            raise click.UsageError("--estimate forecasts an exact verification: drop --runs")
        forecast = forecast_named(name, params, deck, force)
        if as_json:
            click.echo(json.dumps(forecast.to_json(), indent=2))
        else:
            for line in forecast_lines(forecast):
                click.echo(line)
        return
    if workers is not None and scheduler is not None:
        raise click.UsageError("--workers and --scheduler do not go together: a cluster uses all its threads")
    report = verify_named(
        name,
        params,
        deck=deck,
        runs=runs,
        seed=seed,
        force=force,
        workers=workers if workers is not None else default_workers(),
        scheduler=scheduler,
    )
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        for line in report_lines(report):
            click.echo(line)
    sys.exit(0 if report.ok else 1)
