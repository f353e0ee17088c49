"""``kitgen build``: a printable kit for a rule set, or a protocol kit for a class."""

from __future__ import annotations

from typing import Any

import click
from click.core import ParameterSource

from reference_engine.api import UsageError

from ...core import optionspec
from ...core.optionspec import KindValues
from ...core.verification import default_workers
from ...cost.timemodel import using_model
from ...kit.build import KitOptions, build
from ...lang.catalogue import say_missing, using_language
from ...lang.overlay import say_missed
from ..console import kit_lines
from . import options
from .progress import write_with_progress

BUILD_HELP = """Build a printable kit for a rule set (or one protocol) into output/<kit>/ (or -o DIR).

NAME is a rule set (uno, the default: a game's kit) or a protocol, shipped or a spec file
(six-card-and, covert-lottery-modified --param m=4, path/to/spec.yaml: a kit to teach that
protocol in a class, with --sets N card sets for N groups). A protocol kit has the cards its
verified setting lays out (with spares), storage labels, the protocol's booklet, a viewer
page per protocol, the printing guide and shopping list (envelopes and sleeves for its
shuffles) and handout.pdf: one page for the lesson (what it does, who sits where, the
steps, what to watch for at each reveal, what was verified). `kitgen list` names them all.

The kit has the card sheets (cards.pdf), the label sheets (labels.pdf), for a game with
virtual players (or without a dealer) the step-by-step booklet (booklet.pdf, with
booklet.json: the same as data), for Gakmoro the bundle preparation sheet (bundles.pdf),
a PNG preview of every page (previews/), manifest.json (the options, the bill of
materials, every file's checksum and the verification summary of every protocol the kit
uses) and index.html: the kit in a browser (each PDF with its pages, how to print, what to
buy, the verification summary, every page's preview) with a step-through page of each
protocol it teaches (view/<protocol>.html, as `kitgen view`). Protocols are verified first;
if one fails, nothing is written. The build goes to a temporary folder and replaces the kit
only when it is complete, and only when the kit folder holds nothing but files kitgen can
prove it wrote (listed in its .kitgen-kit file with the checksum they still have); --force
writes beside other files, never over them (docs/output-folders.md).

A puzzle kit (uno-puzzles: puzzles from "UNO is hard", every one checked by the solvers of
`kitgen solve`) has puzzles.pdf (a puzzle on each half page), solutions.pdf, booklet.pdf (the
ideas of the paper) and puzzles.json; it takes --count, --difficulty and --seed, and refuses
the options of card kits.

Every card in a protocol kit has the same back, or face-down cards could be told apart.
Backs: --duplex long/short prints them on the back of the same sheet (two calibration
pages come first; measure with them and pass --back-offset), none puts all backs on
separate pages after the fronts, fold prints front and back side by side to fold.
"""


@click.command("build", help=BUILD_HELP)
@click.argument("ruleset", default="uno", metavar="[NAME]")
@options.declared_all(optionspec.BUILD)
def build_cmd(ruleset: str, **values: Any) -> None:
    ctx = click.get_current_context()
    given = frozenset(  # the options typed on the command line, by their field names
        p.name
        for p in ctx.command.params
        if isinstance(p, click.Option)
        and p.name is not None
        and ctx.get_parameter_source(p.name) is ParameterSource.COMMANDLINE
    )
    only: str | None = values.pop("only")
    types = tuple(t.strip() for t in only.split(",") if t.strip()) if only is not None else ()
    if only is not None and not types:
        raise UsageError(f"--only takes card types, comma-separated (e.g. alpha,beta), got {only!r}")
    # A kind's own options, those typed (a kind refuses one it does not take).
    own = {o.name: values.pop(o.name) for o in optionspec.BUILD if o.kind_value}
    own = {k: v for k, v in own.items() if k in given}
    table_time: str | None = values.pop("table_time")
    lang: str = values.pop("lang")
    allow_missing: bool = values.pop("allow_missing")
    as_json: bool = values.pop("as_json")
    workers: int | None = values.pop("workers")
    opts = KitOptions(
        ruleset=ruleset,
        previews=not values.pop("no_previews"),
        cache=not values.pop("no_cache"),
        workers=workers or default_workers(),
        own=KindValues.of(**own),
        given=given,
        only=types,
        **values,
    )
    with using_model(table_time), using_language(lang, allow_missing):
        say_missing(lang)
        write_with_progress(lambda bar: build(opts, progress=bar), kit_lines, as_json)
        say_missed(lang)
