"""Options shared by several commands, as decorators (one definition, one help text)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from reference_engine.api import MAX_CARDS

from ..templates import load_templates

F = TypeVar("F", bound=Callable[..., Any])

# The choices come from templates/layout.yaml: a paper or label sheet added there is an option.
PAPERS = list(load_templates().papers)
PARAM_HELP = "A protocol parameter as NAME=NUMBER, e.g. --param m=5 (repeatable)."
FORCE_HELP = (
    "Run even past the size limits: a protocol that puts more than {simulate:,} cards on the table "
    "(inputs plus declared spare cards) is refused by simulate, more than {verify:,} by verify, "
    "unless forced. The exact verifier's limit of input combinations always holds."
).format(**MAX_CARDS)
FOLDER_HELP = (
    "Write into a folder that holds files kitgen did not write: the new files go beside them. "
    "Without it such a folder is refused. kitgen never deletes or overwrites a file it did not "
    "write, even forced."
)
CACHE_HELP = (
    "Verify every protocol again instead of reusing reports of identical specs "
    "(kept in $KITGEN_CACHE_DIR, default ~/.cache/kitgen/verification)."
)


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
        click.option("--players", type=int, default=None, help=players_help),
        click.option("--virtual", type=int, default=1, show_default=True, help=virtual_help),
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
    return click.option("--runs", type=click.IntRange(min=0), default=100, show_default=True, help=help)


def writing(output_help: str, previews_help: str) -> Callable[[F], F]:
    """-o/--output, --no-previews, --no-cache and --workers: where a kit or booklet goes and how
    it is made."""
    return _stack(
        click.option("-o", "--output", default=None, metavar="DIR", help=output_help),
        click.option("--no-previews", is_flag=True, help=previews_help),
        click.option("--no-cache", is_flag=True, help=CACHE_HELP),
        click.option(
            "--workers",
            type=click.IntRange(min=1, max=256),
            default=None,
            metavar="N",
            help="Processes for each exact verification the build runs (default: the number of "
            "cores). The files are the same whatever N.",
        ),
    )
