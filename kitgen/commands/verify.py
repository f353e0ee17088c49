"""``kitgen verify``: exact (or statistical) verification of one protocol."""

from __future__ import annotations

import json
import sys

import click
import yaml

from reference_engine.api import MAX_RUNS, JSONObject, Report, UsageError, parse_whole

from ..console import deck_lines, forecast_lines, report_lines
from ..verification import default_workers, forecast_named, verify_named, verify_whole_deck
from . import options
from .progress import progress_line


class HandRange(click.ParamType):  # type: ignore[type-arg]
    """``7`` or ``1..10``: P_1's hand sizes."""

    name = "hand"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> list[int]:
        if isinstance(value, list):
            return value
        text = str(value).strip()
        lo, sep, hi = text.partition("..")
        try:  # strict whole numbers: not 1_0, ٣ or a number of thousands of digits
            a = parse_whole(lo.strip())
            b = parse_whole(hi.strip()) if sep else a
        except UsageError:
            self.fail(f"{text!r} is not a hand size or a range like 1..10", param, ctx)
        if a < 1 or b < a or b - a >= 100:
            self.fail(f"{text!r}: hand sizes from 1 up, a range of at most 100", param, ctx)
        return list(range(a, b + 1))


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
) -> None:
    with progress_line(as_json) as bar:

        def each(hand: int, report: Report) -> None:
            if not as_json:
                if bar is not None:
                    bar.close()
                for line in report_lines(report):
                    click.echo(line)

        reports, claim = verify_whole_deck(name, hands, game, players, state, workers, each)
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

With --deck SCENARIO a game protocol (card selection) is verified exactly on the
spec's reduced deck, dealt in every possible way. With --hand N (or --hand 1..10) it is
verified exactly on the game's whole deck: every deal of the cards in play, through
their validity classes (docs/verification.md); --game, --players and --state choose
the table. With --runs N it is verified statistically on the full deck instead (every
run checked; chi-square tests of the played card and of features of the view).

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
    "--hand",
    "hands",
    type=HandRange(),
    default=None,
    metavar="N|A..B",
    help="For a game protocol: verify exactly on the game's whole deck with P_1 holding N cards "
    "(or each of A..B in turn), by validity classes; the other hands as the game deals them, the "
    "draw pile last.",
)
@click.option(
    "--game",
    default=None,
    metavar="GAME",
    help="With --hand: the game (default: the protocol's first scenario's).",
)
@click.option(
    "--players",
    type=options.Whole(min=2, max=100),
    default=None,
    metavar="N",
    help="With --hand: players at the table (default: the game's).",
)
@click.option(
    "--state",
    default=None,
    metavar="YAML",
    help="With --hand: the public state, e.g. '{top: red5, color: red}' (default: the protocol's "
    "scenario for the game).",
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
    hands: list[int] | None,
    game: str | None,
    players: int | None,
    state: str | None,
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
        _verify_hands(name, hands, game, players, _state(state), workers or default_workers(), as_json)
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
        )
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        for line in report_lines(report):
            click.echo(line)
    sys.exit(0 if report.ok else 1)
