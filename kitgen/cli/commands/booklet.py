"""``kitgen booklet``: the step-by-step booklet of a rule set or of one protocol."""

from __future__ import annotations

import click

from ...core.optionspec import KindValues
from ...core.verification import check_booklet_sizes, default_workers
from ...cost.timemodel import using_model
from ...kit.build import BookletOptions, build_booklet
from ...lang.catalogue import say_missing, using_language
from ...lang.overlay import say_missed
from .. import runspec
from ..console import booklet_lines
from . import options
from .progress import write_with_progress

BOOKLET_HELP = """Write the step-by-step booklet of a rule set or of one protocol.

NAME is a rule set (uno: the booklet of a game kit, as `kitgen build` includes it) or a
protocol (six-card-and: that protocol and everything it calls, e.g. for a class). The
booklet has a cover, contents, what you need, for a game the set-up, the rules and a
virtual player's turn, then every protocol step by step: each step's sentence as the
spec says it, a picture of the table from a seeded worked example, and at every reveal
what a correct table can show (derived from every possible run) and what to do if it
shows anything else. Then the validation pages (the verification reports) and a quick
reference page per protocol.

Every protocol is verified first; if one fails, nothing is written and the command exits
1 naming the failing check. --imposition a5-saddle prints two A5 pages (half-letter on
Letter) on each side of a landscape sheet in folding order: print double-sided, flipping
on the short edge, fold the stack in the middle and staple on the fold.
"""


@click.command("booklet", help=BOOKLET_HELP)
@click.argument("name")
@options.declared_all(runspec.BOOKLET)
def booklet_cmd(
    name: str,
    paper: str,
    imposition: str,
    players: int | None,
    virtual: int,
    operator: bool,
    discard_owner: bool,
    wild4: str,
    runs: int,
    output: str | None,
    no_previews: bool,
    no_cache: bool,
    workers: int | None,
    table_time: str | None,
    lang: str,
    allow_missing: bool,
    as_json: bool,
    force: bool,
) -> None:
    check_booklet_sizes(name, force)
    opts = BookletOptions(
        name=name,
        paper=paper,
        imposition=imposition,
        players=players,
        virtual=virtual,
        own=KindValues.of(
            discard_owner=discard_owner, wild4=wild4, **({"operator": True} if operator else {})
        ),
        runs=runs,
        output=output,
        previews=not no_previews,
        cache=not no_cache,
        workers=workers or default_workers(),
        force=force,
    )
    with using_model(table_time), using_language(lang, allow_missing):
        say_missing(lang)
        write_with_progress(lambda bar: build_booklet(opts, progress=bar), booklet_lines, as_json)
        say_missed(lang)
