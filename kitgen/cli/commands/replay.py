"""``kitgen replay``: check a game record with the referee and by playing it again."""

from __future__ import annotations

import json
from pathlib import Path

import click

from reference_engine.api import Library, ReplayReport, RulesGone, UsageError, read_record, replay_record

from .. import runspec
from . import options

REPLAY_HELP = """Check a game record written by `kitgen play GAME --record FILE` (docs/records.md).

Two checks. The game's independent referee steps through the record with the rules as
written (its rule book in rulesets/referee/, sharing no code with the engine) and its own
account of every hand and pile: every card played may be played, every card drawn came from
the pile, turn order, effects, points, every protocol run's table, counts and view. Then the
engine plays the game again from the record's rule set, settings and seed, and the record is
compared with that game event by event.

Prints "replayed: N turns, all legal" and exits 0, or names the first divergence (the event,
the turn and what differs) and exits 1. A file that is not a game record (not JSON, or not of
the record schema) exits 2 with the file, line and key path at fault.
"""


@click.command("replay", help=REPLAY_HELP)
@click.argument("record", type=click.Path(path_type=Path))
@options.declared_all(runspec.REPLAY)
def replay_cmd(record: Path, referee_only: bool, as_json: bool) -> None:
    data = read_record(record)
    try:
        report = replay_record(data, Library(), rerun=not referee_only)
    except RulesGone as exc:
        raise UsageError(f"{exc.message} (--referee-only checks the record without it)") from None
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        for line in lines(report):
            click.echo(line)
    if not report.ok:
        raise SystemExit(1)


def lines(report: ReplayReport) -> list[str]:
    """The report in words: the first divergence, or how many actions replayed legally."""
    verdict = report.verdict
    out = []
    for i, found in enumerate(report.findings):
        who = "the referee" if found is verdict.finding else "the game played again"
        head = "divergence" if i == 0 else "also"
        out.append(f"{head} at event {found.event}, {found.where}: {who}: {found.message}")
    if not report.findings and verdict.rules:
        out.append(f"replayed: {verdict.actions} {verdict.unit}, all legal")
    elif not report.findings:
        out.append(f"replayed: {verdict.actions} {verdict.unit}, every card accounted for")
    out += [f"note: {n}" for n in ([verdict.note] if verdict.note else []) + report.notes]
    if not report.reran and report.ok:
        out.append("note: checked by the referee alone (--referee-only): the game was not played again")
    return out
