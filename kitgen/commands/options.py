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

from .. import optionspec
from ..optionspec import Option

F = TypeVar("F", bound=Callable[..., Any])

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
FOLDER_HELP = optionspec.FORCE.help
CACHE_HELP = optionspec.NO_CACHE.help


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


def stack(*decorators: Callable[[F], F]) -> Callable[[F], F]:
    def apply(f: F) -> F:
        for d in reversed(decorators):
            f = d(f)
        return f

    return apply


def declared(option: Option, help: str | None = None) -> Callable[[F], F]:
    """The click option of a declared option (:mod:`kitgen.optionspec`), with another help text
    where a command says it its own way."""
    kwargs: dict[str, Any] = {"help": option.help if help is None else help}
    if option.type == "switch":
        kwargs["is_flag"] = True
    else:
        kwargs["default"] = option.default
    if option.type == "whole" and option.range is not None:
        kwargs["type"] = Whole(min=option.range[0], max=option.range[1])
    elif option.choices:
        kwargs["type"] = click.Choice(option.choices, case_sensitive=option.case_sensitive)
    elif option.existing_file:
        kwargs["type"] = click.Path(dir_okay=False, exists=True)
    if option.multiple:
        kwargs["multiple"] = True
    if option.show_default:
        kwargs["show_default"] = True
    if option.metavar is not None:
        kwargs["metavar"] = option.metavar
    names = [n for n in (option.short, option.long) if n]
    return click.option(*names, option.name, **kwargs)


def declared_all(options: tuple[Option, ...]) -> Callable[[F], F]:
    """Every option of ``options``, in their order (the first on top of --help)."""
    return stack(*(declared(o) for o in options))


table_time = declared(optionspec.TABLE_TIME)
paper = declared(optionspec.PAPER)
param = declared(optionspec.PARAMS)
wild4 = declared(optionspec.WILD4)


def as_json(help: str) -> Callable[[F], F]:
    return declared(optionspec.AS_JSON, help)


def force(help: str = FORCE_HELP) -> Callable[[F], F]:
    """--force: past the size limits (where a command has them) and, for a command that writes
    a folder, into a folder that holds files kitgen did not write (add :data:`FOLDER_HELP`)."""
    return declared(optionspec.FORCE, help)


def seats(players_help: str, virtual_help: str) -> Callable[[F], F]:
    """--players and --virtual."""
    return stack(declared(optionspec.PLAYERS, players_help), declared(optionspec.VIRTUAL, virtual_help))


def runs(help: str) -> Callable[[F], F]:
    return declared(optionspec.RUNS, help + f" At most {MAX_RUNS:,}.")


def writing(output_help: str, previews_help: str) -> Callable[[F], F]:
    """-o/--output, --no-previews, --no-cache and --workers: where a kit or booklet goes and how
    it is made."""
    return stack(
        declared(optionspec.OUTPUT, output_help),
        declared(optionspec.NO_PREVIEWS, previews_help),
        declared(optionspec.NO_CACHE),
        declared(optionspec.WORKERS),
    )


def flag(setting: str) -> str:
    """The flag of a setting a message names by its field (``time_limit``: ``--time-limit``;
    ``params``: ``--param``, as declared in :mod:`kitgen.optionspec`)."""
    return optionspec.flag_of(setting)
