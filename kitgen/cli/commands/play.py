"""``kitgen play``: a whole game of a rule set of any kind."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click
from click.core import ParameterSource

from reference_engine.api import (
    Library,
    PlayOption,
    PlaySettings,
    check_protocol,
    explore,
    kinds,
    load_game,
    name_settings,
    play,
    record_game,
    record_text,
)

from ...core.optionspec import of_play
from ...cost.playedcost import played_cost
from ...cost.timemodel import load_time_models, using_model
from ...kinds import kit_kind
from .. import runspec
from ..records import check_record_path, write_record
from . import options
from .progress import progress_line

F = TypeVar("F", bound=Callable[..., Any])

PLAY_HELP = """Play a whole game of any rule set `kitgen list` shows: shedding games such as UNO with
virtual players, the layout, trick-taking and tile games of the UNO paper's Section 5 (Sevens,
Hearts, Dominoes), or Gakmoro without a dealer.

Human seats are played by a simple fixed policy (they stand in for the people at the
table). At --level card every virtual turn runs the rule set's card selection protocol
spec on the simulated table (all hands, the draw pile as the last owner) and the engine
checks after each run: the played card was valid (or no card was), every other card went
back to its owner, no card was created or lost, every helper card went back to the
supply, and the run used the shuffles and helper cards the paper states. Any failure
stops the game with exit code 1. At --level rule a virtual player simply picks a valid
card uniformly at random.

Gakmoro (a sealed-bid game): both players follow simple strategies (--strategy). At
--level card every round runs the dealerless round protocol on the simulated table and
the engine checks the announced winner against the plain rules, that every card went back
to the supply, the paper's card counts (28 and 38 per addition, 74 for the comparison)
and the 2 x 37 table. --variant dealer plays the rules with a human dealer (rule level).

--record FILE writes the game's record, the referee's copy (docs/records.md): the rule set
and options, the seed, the deal, every action with what each seat saw and what was hidden
(every card drawn or passed), every protocol run's public view and counts. `kitgen replay
FILE` checks it. The file is replaced only once the game is over.
"""


def _merged(options: list[PlayOption]) -> PlayOption:
    """One option that several kinds declare (``--strategy``: Gakmoro's players, a shedding
    game's virtual players): the helps joined, each with its kind's default, and no default of
    the option's own (each kind applies its default when the option is not given)."""
    if len(options) == 1:
        return options[0]
    helps = []
    for opt in options:
        said = f" (default: {opt.default})" if opt.default is not None else ""
        helps.append(opt.help.rstrip(".") + said + ".")
    first = options[0]
    return PlayOption(first.name, " ".join(helps), None, (), first.kind, first.flag)


def _kind_options(f: F) -> F:
    """Every game kind's own options (each says which games it is for)."""
    declared: dict[str, list[PlayOption]] = {}
    for kind in kinds().values():
        for opt in kind.play_options:
            declared.setdefault(opt.name, []).append(opt)
    merged = [_merged(opts) for opts in declared.values()]
    return options.stack(
        *(options.declared(of_play(o), name_settings(o.help, options.flag)) for o in merged)
    )(f)


@click.command("play", help=PLAY_HELP)
@click.argument("ruleset")
@options.declared_all(runspec.PLAY)
@_kind_options
@options.declared_all(runspec.PLAY_AFTER)
def play_cmd(
    ruleset: str,
    players: int | None,
    virtual: int,
    level: str | None,
    seed: int,
    protocol: str | None,
    engine: str | None,
    table_time: str | None,
    as_json: bool,
    record_path: Path | None,
    force: bool,
    **kind_options: Any,
) -> None:
    if table_time:
        load_time_models(Path(table_time))  # a bad model file is refused before the game
    if record_path is not None:
        check_record_path(record_path, force)
    ctx = click.get_current_context()
    given = frozenset(
        name
        for name in ("players", "virtual")
        if ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE
    )
    settings = PlaySettings(
        players, virtual, level, seed, protocol, kind_options, engine or "auto", given=given
    )
    library = Library()
    if protocol is not None and level != "rule":
        # A spec of the user's: within the size limits, and every run of it can be carried out
        # (a broken branch would otherwise show only when a game happens to take it).
        proto = library.protocol(protocol)
        check_protocol(proto, None, False, "simulate", None, library)
        explore(library, proto)
    with progress_line(as_json):
        if record_path is None:
            result = play(ruleset, library, settings)
        else:
            result, record = record_game(ruleset, library, settings)
            write_record(record_path, record_text(record).encode("utf-8"), force)
    rules = load_game(ruleset)
    with using_model(table_time):
        cost = played_cost(library, rules, result)
    if as_json:
        data = result.to_json()
        if cost is not None:
            data["table_time"] = cost
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    for line in kit_kind(rules).play_lines(result, rules):
        click.echo(line)
    if cost is not None:
        click.echo(cost["text"])
