"""``kitgen build``: a printable kit for a rule set, or a protocol kit for a class."""

from __future__ import annotations

import click
from click.core import ParameterSource

from reference_engine.api import PUZZLE_DIFFICULTIES, STRATEGIES, UsageError

from ..console import kit_lines
from ..kit import KitOptions, build
from ..tabletime import using_model
from ..templates import load_templates
from ..verification import default_workers
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
only when it is complete, and only when the kit folder holds nothing but files kitgen wrote
(listed in its .kitgen-kit file); --force writes beside other files, never over them.

A puzzle kit (uno-puzzles: puzzles from "UNO is hard", every one checked by the solvers of
`kitgen solve`) has puzzles.pdf (a puzzle on each half page), solutions.pdf, booklet.pdf (the
ideas of the paper) and puzzles.json; it takes --count, --difficulty and --seed, and refuses
the options of card kits.

Every card in a protocol kit has the same back, or face-down cards could be told apart.
Backs: --duplex long/short prints them on the back of the same sheet (two calibration
pages come first; measure with them and pass --back-offset), none puts all backs on
separate pages after the fronts, fold prints front and back side by side to fold.
"""

LABEL_SHEETS = list(load_templates().labels)  # templates/layout.yaml


@click.command("build", help=BUILD_HELP)
@click.argument("ruleset", default="uno", metavar="[NAME]")
@options.seats("Number of players (default: the rule set's).", "How many of them are virtual.")
@options.paper
@click.option(
    "--card-size",
    default=None,
    metavar="SIZE",
    help="uno (56x87mm, default), poker, bridge, standard, euro, mini-usa, or WxH like 60x90mm "
    "(at least 41x62mm, either way round, and small enough for the paper).",
)
@click.option(
    "--duplex",
    type=click.Choice(["long", "short", "none", "fold"]),
    default="long",
    show_default=True,
    help="How the backs are printed (see above).",
)
@click.option(
    "--back-offset",
    default="0mm,0mm",
    show_default=True,
    metavar="X,Y",
    help="Shift the backs to correct the printer, as measured on the calibration pages.",
)
@click.option(
    "--profile",
    type=click.Choice(["home", "print-shop"]),
    default="home",
    show_default=True,
    help="home: neighbouring cards share cut lines (8 cuts for a 3 x 3 sheet), 1 mm bleed around the "
    "block; print-shop: 3 mm bleed around every card and a 2 mm gutter (each card cut on its own).",
)
@click.option(
    "--ink-saver",
    is_flag=True,
    help="For a home printer: light card backs and no full-bleed fills on the faces (game colours as "
    "borders and outlines); the kit folder gets -ink-saver in its name.",
)
@click.option(
    "--export",
    "export",
    type=click.Choice(["cards-png"]),
    multiple=True,
    help="Also write cards-png: one PNG per card face and the back at 300 dpi with 3 mm bleed, in the "
    "kit's card size and 63 x 88 mm, for print-on-demand services, and Tabletop Simulator deck sheets "
    "(export/ in the kit; see docs/printing.md).",
)
@click.option(
    "--deck",
    type=click.Choice(["print", "store"]),
    default="print",
    show_default=True,
    help="Print our own deck, or use a store-bought one (then every card needs the same opaque sleeve).",
)
@click.option(
    "--discard-owner", is_flag=True, help="Also print θ cards for the discard pile as an extra owner."
)
@click.option(
    "--protocol", default=None, metavar="NAME", help="The card selection spec (default: the rule set's)."
)
@click.option(
    "--labels",
    "label_sheet",
    default=None,
    type=click.Choice(LABEL_SHEETS),
    help="Label sheet (default: L7160 on A4, 5160 on Letter).",
)
@click.option(
    "--label-start",
    type=options.Whole(min=1, max=1_000),
    default=1,
    show_default=True,
    help="First free label on a partly used sheet (1 = top left).",
)
@options.wild4
@click.option(
    "--strategy",
    type=click.Choice(list(STRATEGIES)),
    default=None,
    help="Shedding games: how the virtual players choose among their valid cards: uniform (the paper, "
    "the default) or weighted, a stronger virtual player (by --weights, with the weighted selection "
    "protocol: more bit markers and λ ticket cards).",
)
@click.option(
    "--weights",
    default=None,
    metavar="NAME=W,...",
    help="With --strategy weighted: public weights by class (action, number, wild) or card kind, whole "
    "numbers 1-9, e.g. action=3,number=1,wild=1; a class not named weighs 1.",
)
@options.writing("The kit folder (default: output/<kit>).", "Skip the PNG previews (faster).")
@options.runs(
    "Statistical check of the card selection protocol on the full deck for the booklet's "
    "validation pages (runs per deal, seed 1); 0 skips it."
)
@click.option(
    "--exact-hands",
    type=options.Whole(min=0, max=20),
    default=0,
    show_default=True,
    metavar="N",
    help="Also verify the card selection protocol exactly on the game's whole deck with the kit's "
    'players, for a hand of 1, 2, ..., N cards; the cover and validation pages then say "exact '
    'for hands up to N" (UNO, 4 players, N = 10: a few minutes; reports are cached). 0 skips it.',
)
@click.option(
    "--count",
    type=options.Whole(min=1, max=200),
    default=None,
    help="Puzzle kits (uno-puzzles) only: how many puzzles (default: the rule set's, 12).",
)
@click.option(
    "--difficulty",
    type=click.Choice(list(PUZZLE_DIFFICULTIES)),
    default=None,
    help="Puzzle kits (uno-puzzles) only: easy, medium, hard, or mixed (easy to hard; the default), "
    "rated by the solver's search effort.",
)
@click.option(
    "--seed",
    type=options.Whole(min=0),
    default=None,
    help="Puzzle kits (uno-puzzles) only: another seed, another set of puzzles (default: the rule set's).",
)
@click.option(
    "--only",
    "only",
    default=None,
    metavar="TYPES",
    help="Reprint some card types only (comma-separated keys from the printing guide, e.g. "
    "alpha,beta): cards.pdf keeps just the pages of the sheets that hold them, with the same "
    "page ids and backs, in output/<kit>-only-<types>/ (or -o DIR).",
)
@options.param
@click.option(
    "--sets",
    type=options.Whole(min=1, max=40),
    default=1,
    show_default=True,
    metavar="N",
    help="A protocol kit only: card sets for N groups of a class (cards, envelopes, sleeves and "
    "storage labels for each group).",
)
@options.table_time
@options.as_json("Print the manifest as JSON.")
@options.force(options.FOLDER_HELP)
def build_cmd(
    ruleset: str,
    players: int | None,
    virtual: int,
    paper: str,
    card_size: str | None,
    duplex: str,
    back_offset: str,
    profile: str,
    ink_saver: bool,
    export: tuple[str, ...],
    deck: str,
    discard_owner: bool,
    protocol: str | None,
    label_sheet: str | None,
    label_start: int,
    wild4: str,
    strategy: str | None,
    weights: str | None,
    output: str | None,
    no_previews: bool,
    no_cache: bool,
    workers: int | None,
    runs: int,
    exact_hands: int,
    count: int | None,
    difficulty: str | None,
    seed: int | None,
    only: str | None,
    params: tuple[str, ...],
    sets: int,
    table_time: str | None,
    as_json: bool,
    force: bool,
) -> None:
    ctx = click.get_current_context()
    given = frozenset(  # the options typed on the command line, as their long names
        next(o for o in p.opts if o.startswith("--"))
        for p in ctx.command.params
        if isinstance(p, click.Option)
        and p.name is not None
        and ctx.get_parameter_source(p.name) is ParameterSource.COMMANDLINE
    )
    types = tuple(t.strip() for t in only.split(",") if t.strip()) if only is not None else ()
    if only is not None and not types:
        raise UsageError(f"--only takes card types, comma-separated (e.g. alpha,beta), got {only!r}")
    # A kind's own options, when given: the puzzles' count, difficulty, seed; a shedding game's strategy.
    own = {"count": count, "difficulty": difficulty, "seed": seed, "strategy": strategy, "weights": weights}
    opts = KitOptions(
        ruleset=ruleset,
        players=players,
        virtual=virtual,
        paper=paper,
        card_size=card_size,
        duplex=duplex,
        profile=profile,
        ink_saver=ink_saver,
        export=tuple(export),
        deck=deck,
        discard_owner=discard_owner,
        protocol=protocol,
        labels=label_sheet,
        label_start=label_start,
        back_offset=back_offset,
        wild4=wild4,
        output=output,
        previews=not no_previews,
        runs=runs,
        exact_hands=exact_hands,
        extra={k: v for k, v in own.items() if v is not None},
        cache=not no_cache,
        workers=workers or default_workers(),
        given=given,
        only=types,
        force=force,
        params=tuple(params),
        sets=sets,
    )
    with using_model(table_time):
        write_with_progress(lambda bar: build(opts, progress=bar), kit_lines, as_json)
