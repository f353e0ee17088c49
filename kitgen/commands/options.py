"""Options shared by several commands, as decorators (one definition, one help text)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar

import click

from reference_engine.api import (
    CEILING_CARDS,
    CEILING_WORK,
    MAX_CARDS,
    MAX_RUNS,
    MAX_WORK,
    UsageError,
    parse_whole,
)

from ..templates import load_templates

F = TypeVar("F", bound=Callable[..., Any])

# The choices come from templates/layout.yaml: a paper or label sheet added there is an option.
PAPERS = list(load_templates().papers)
PARAM_HELP = (
    "A protocol parameter as NAME=NUMBER (digits, with - for a negative one; NAME=N,N,... for a "
    "list), e.g. --param m=5 (repeatable)."
)
FORCE_HELP = (
    "Run even past the size limits: a protocol that puts more than {simulate:,} cards on the table "
    "(inputs plus declared spare cards, its callees' included) is refused by simulate, more than "
    "{verify:,} by verify, and one whose run takes more than {work:,} card-steps (its steps times "
    "its cards) by both, unless forced; forced, at most {ceiling:,} cards and {ceiling_work:,} "
    "card-steps. The exact verifier's limit of input combinations always holds."
).format(
    simulate=MAX_CARDS["simulate"],
    verify=MAX_CARDS["verify"],
    work=MAX_WORK["simulate"],
    ceiling=CEILING_CARDS,
    ceiling_work=CEILING_WORK,
)
FOLDER_HELP = (
    "Write into a folder that holds files kitgen did not write: the new files go beside them. "
    "Without it such a folder is refused. kitgen never deletes or overwrites a file it did not "
    "write, even forced."
)
CACHE_HELP = (
    "Verify every protocol again instead of reusing reports of identical specs "
    "(kept in $KITGEN_CACHE_DIR, default ~/.cache/kitgen/verification)."
)


class Whole(click.IntRange):
    """A whole-number option: digits with an optional sign only (click's int() would also take
    ``1_0`` as 10 and `` 5``), at most 10^15 in size, and within ``min``/``max``."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str):
            try:
                value = parse_whole(value)
            except UsageError as exc:
                self.fail(exc.format_message(), param, ctx)
        return super().convert(value, param, ctx)


class Seconds(click.FloatRange):
    """A time limit in seconds: a finite number within ``min``/``max`` (click's float() would
    take nan, which passes every range check, and inf)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super(click.FloatRange, self).convert(value, param, ctx)  # float(), no range yet
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        return super().convert(number, param, ctx)


SEED = Whole()


def _stack(*decorators: Callable[[F], F]) -> Callable[[F], F]:
    def apply(f: F) -> F:
        for d in reversed(decorators):
            f = d(f)
        return f

    return apply


TABLE_TIME_HELP = (
    "A table-time model file with your own seconds per action (the same keys as kitgen's "
    "templates/table_time.yaml); every minute figure then uses it."
)


def table_time(f: F) -> F:
    return click.option(
        "--table-time",
        "table_time",
        type=click.Path(dir_okay=False, exists=True),
        default=None,
        metavar="FILE",
        help=TABLE_TIME_HELP,
    )(f)


def paper(f: F) -> F:
    return click.option(
        "--paper",
        type=click.Choice(PAPERS, case_sensitive=False),
        default="a4",
        show_default=True,
        help="Paper size (A4 and a4 are the same).",
    )(f)


def param(f: F) -> F:
    return click.option("--param", "params", multiple=True, metavar="NAME=N", help=PARAM_HELP)(f)


def as_json(help: str) -> Callable[[F], F]:
    return click.option("--json", "as_json", is_flag=True, help=help)


def force(help: str = FORCE_HELP) -> Callable[[F], F]:
    """--force: past the size limits (where a command has them) and, for a command that writes
    a folder, into a folder that holds files kitgen did not write (add :data:`FOLDER_HELP`)."""
    return click.option("--force", is_flag=True, help=help)


def seats(players_help: str, virtual_help: str) -> Callable[[F], F]:
    """--players and --virtual."""
    return _stack(
        click.option("--players", type=Whole(min=1, max=100), default=None, help=players_help),
        click.option(
            "--virtual", type=Whole(min=0, max=100), default=1, show_default=True, help=virtual_help
        ),
    )


def wild4(f: F) -> F:
    return click.option(
        "--wild4",
        type=click.Choice(["strict", "bluff"]),
        default="strict",
        show_default=True,
        help="uno-official only: virtual players may play wild draw four as a bluff.",
    )(f)


def runs(help: str) -> Callable[[F], F]:
    return click.option(
        "--runs",
        type=Whole(min=0, max=MAX_RUNS),
        default=100,
        show_default=True,
        help=help + f" At most {MAX_RUNS:,}.",
    )


def writing(output_help: str, previews_help: str) -> Callable[[F], F]:
    """-o/--output, --no-previews, --no-cache and --workers: where a kit or booklet goes and how
    it is made."""
    return _stack(
        click.option("-o", "--output", default=None, metavar="DIR", help=output_help),
        click.option("--no-previews", is_flag=True, help=previews_help),
        click.option("--no-cache", is_flag=True, help=CACHE_HELP),
        click.option(
            "--workers",
            type=Whole(min=1, max=256),
            default=None,
            metavar="N",
            help="Processes for each exact verification the build runs (default: the number of "
            "cores). The files are the same whatever N.",
        ),
    )


def flag(setting: str) -> str:
    """The flag of a setting an engine message names by its field (``time_limit``: ``--time-limit``)."""
    return "--" + setting.replace("_", "-")
