"""``kitgen verify``: exact (or statistical) verification of one protocol."""

from __future__ import annotations

import json
import sys

import click
import yaml

from reference_engine.api import JSONObject, Report, parse_size

from ...core.verification import default_workers, forecast_named, verify_named, verify_whole_deck
from .. import runspec
from ..console import deck_lines, forecast_lines, report_lines
from . import options
from .progress import progress_line


def _state(text: str | None) -> JSONObject | None:
    if text is None:
        return None
    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise click.BadParameter(f"not YAML: {exc}", param_hint="--state") from None
    if not isinstance(value, dict):
        raise click.BadParameter("a mapping, e.g. '{top: red5, color: red}'", param_hint="--state")
    return value


def _verify_hands(
    name: str,
    hands: list[int],
    game: str | None,
    players: int | None,
    state: JSONObject | None,
    workers: int,
    as_json: bool,
    max_memory: int | None,
) -> None:
    with progress_line(as_json) as bar:

        def each(hand: int, report: Report) -> None:
            if not as_json:
                if bar is not None:
                    bar.close()
                for line in report_lines(report):
                    click.echo(line)

        reports, claim = verify_whole_deck(
            name, hands, game, players, state, workers, each, max_memory=max_memory
        )
    if as_json:
        data = (
            reports[0].to_json()
            if len(reports) == 1
            else {
                "claim": claim,
                "reports": [r.to_json() for r in reports],
            }
        )
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    elif len(reports) > 1:
        for line in deck_lines(claim):
            click.echo(line)
    sys.exit(0 if all(r.ok for r in reports) else 1)


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

With --deck SCENARIO a game protocol (card selection) is verified exactly on the
spec's reduced deck, dealt in every possible way. With --hand N (or --hand 1..10) it is
verified exactly on the game's whole deck: every deal of the cards in play, through
their validity classes (docs/verification.md); --game, --players and --state choose
the table. With --runs N it is verified statistically on the full deck instead (every
run checked; chi-square tests of the played card and of features of the table's view; a
spec that seats people, players:, is refused there: verify it exactly).

Exit code 0 when every check holds, 1 when one fails, 2 for a spec or option error.
"""


@click.command("verify", help=VERIFY_HELP)
@click.argument("name")
@options.declared_all(runspec.VERIFY)
def verify_cmd(
    name: str,
    params: tuple[str, ...],
    deck: str | None,
    runs: int | None,
    hands: list[int] | None,
    game: str | None,
    players: int | None,
    state: str | None,
    seed: int,
    workers: int | None,
    scheduler: str | None,
    max_memory: str | None,
    estimate: bool,
    as_json: bool,
    force: bool,
) -> None:
    limit = parse_size(max_memory) if max_memory is not None else None
    if estimate:
        if runs is not None:
            raise click.UsageError("--estimate forecasts an exact verification: drop --runs")
        with progress_line(as_json):
            forecast = forecast_named(name, params, deck, force)
        if as_json:
            click.echo(json.dumps(forecast.to_json(), indent=2))
        else:
            for line in forecast_lines(forecast):
                click.echo(line)
        return
    if workers is not None and scheduler is not None:
        raise click.UsageError("--workers and --scheduler do not go together: a cluster uses all its threads")
    table_only = {"--game": game, "--players": players, "--state": state}
    if hands is None:
        given = [k for k, v in table_only.items() if v is not None]
        if given:
            raise click.UsageError(f"{given[0]} chooses the table of --hand: give --hand N")
    else:
        for flag, value in (("--deck", deck), ("--runs", runs), ("--scheduler", scheduler)):
            if value is not None:
                raise click.UsageError(
                    f"--hand verifies on the whole deck: it cannot be combined with {flag}"
                )
        if params or estimate:
            raise click.UsageError("--hand sets the hands itself: drop --param and --estimate")
        _verify_hands(name, hands, game, players, _state(state), workers or default_workers(), as_json, limit)
        return
    with progress_line(as_json):
        report = verify_named(
            name,
            params,
            deck=deck,
            runs=runs,
            seed=seed,
            force=force,
            workers=workers if workers is not None else default_workers(),
            scheduler=scheduler,
            max_memory=limit,
        )
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        for line in report_lines(report):
            click.echo(line)
    sys.exit(0 if report.ok else 1)
