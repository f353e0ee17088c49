"""The click options of declared options (:mod:`kitgen.core.optionspec`, :mod:`kitgen.cli.runspec`): one
generator, :func:`declared`, for every command's options, and the click types it uses."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from reference_engine.api import UsageError, parse_whole

from ...core import optionspec
from ...core.optionspec import Option

F = TypeVar("F", bound=Callable[..., Any])


class Whole(click.IntRange):
    """A whole-number option: digits with an optional sign only (click's int() would also take
    ``1_0`` as 10 and `` 5``), at most 10^15 in size, and within ``min``/``max``. Without a
    bound its --help says INTEGER and no range (click's would say "INTEGER RANGE ... x<=None")."""

    def __init__(self, min: int | None = None, max: int | None = None) -> None:
        super().__init__(min=min, max=max)
        if min is None and max is None:
            self.name = "integer"

    def _describe_range(self) -> str:
        return "" if self.min is None and self.max is None else super()._describe_range()

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


def stack(*decorators: Callable[[F], F]) -> Callable[[F], F]:
    def apply(f: F) -> F:
        for d in reversed(decorators):
            f = d(f)
        return f

    return apply


def _whole(bound: float | None) -> int | None:
    return None if bound is None else int(bound)


def declared(option: Option, help: str | None = None) -> Callable[[F], F]:
    """The click option of a declared option (:mod:`kitgen.core.optionspec`), with another help text
    where a command says it its own way."""
    kwargs: dict[str, Any] = {"help": option.help if help is None else help}
    if option.type == "switch":
        kwargs["is_flag"] = True
    elif not option.required:  # a default given, even None, would satisfy click's required
        kwargs["default"] = option.default
    low, high = option.range or (None, None)
    if option.type == "whole":
        kwargs["type"] = Whole(min=_whole(low), max=_whole(high))
    elif option.type == "seconds":
        kwargs["type"] = Seconds(min=low, max=high)
    elif option.type == "hands":
        kwargs["type"] = HandRange()
    elif option.type == "path":
        kwargs["type"] = click.Path(path_type=Path)
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
    if option.required:
        kwargs["required"] = True
    names = [n for n in (option.short, option.long) if n]
    return click.option(*names, option.name, **kwargs)


def declared_all(options: tuple[Option, ...]) -> Callable[[F], F]:
    """Every option of ``options``, in their order (the first on top of --help)."""
    return stack(*(declared(o) for o in options))


def flag(setting: str) -> str:
    """The flag of a setting a message names by its field (``time_limit``: ``--time-limit``;
    ``params``: ``--param``, as declared in :mod:`kitgen.core.optionspec`)."""
    return optionspec.flag_of(setting)
