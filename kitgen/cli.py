"""The ``kitgen`` command line. Commands are thin: they parse options and call library code."""

from __future__ import annotations

import json
import signal
import sys
from collections.abc import Callable
from typing import Any

import click

from reference_engine.budget import MAX_CARDS, check_protocol
from reference_engine.errors import KitgenError, UsageError
from reference_engine.game import Game
from reference_engine.registry import Library
from reference_engine.rules import game_kind, load_any, load_rules
from reference_engine.simulate import parse_params, simulate
from reference_engine.statistics import verify_runs
from reference_engine.verify import verify as verify_protocol

from . import console

PARAM_HELP = "A protocol parameter as NAME=NUMBER, e.g. --param m=5 (repeatable)."
FORCE_HELP = (
    "Run even past the size limits: a protocol that puts more than {simulate:,} cards on the table "
    "(inputs plus declared spare cards) is refused by simulate, more than {verify:,} by verify, "
    "unless forced. The exact verifier's limit of input combinations always holds."
).format(**MAX_CARDS)


class Interrupted(KitgenError):
    """Ctrl-C: one line, no traceback, exit code 130 (128 + SIGINT)."""

    exit_code = 130

    def __init__(self, message: str = "interrupted"):
        super().__init__(message)

    def show(self, file: Any = None) -> None:
        click.echo(f"kitgen: {self.format_message()}", err=True)


class Terminated(Interrupted):
    """SIGTERM during a build: exit code 143 (128 + SIGTERM)."""

    exit_code = 143

    def __init__(self) -> None:
        super().__init__("terminated")


class _Main(click.Group):
    """The command group: an interrupt ends a command with one line, never a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as exc:
            raise (
                Terminated() if getattr(exc, "signum", None) == signal.SIGTERM else Interrupted()
            ) from None
        except click.Abort as exc:
            if isinstance(exc.__context__, KeyboardInterrupt):  # Ctrl-C at a prompt (--pause)
                raise Interrupted() from None
            raise


@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="kitgen")
def main() -> None:
    """Printable kits and booklets for card games played with card-based cryptography.

    Every protocol a booklet teaches is a YAML spec that the reference engine runs and
    verifies. Start with `kitgen list`.
    """


@main.command("list")
def list_cmd() -> None:
    """Show every protocol spec and rule set with a one-line description."""
    library = Library()
    entries = library.catalogue()
    width = max((len(e.name) for e in entries), default=0)
    games = game_catalogue()
    width = max([width] + [len(g[0]) for g in games])
    click.echo("Protocols (kitgen verify NAME, kitgen simulate NAME):")
    for e in entries:
        text = e.summary if not e.problem else f"INVALID SPEC: {e.problem} (run kitgen verify {e.name})"
        click.echo(f"  {e.name.ljust(width)}  {text}")
    click.echo("Rule sets (kitgen play NAME):")
    for gname, text in games:
        click.echo(f"  {gname.ljust(width)}  {text}")


VERIFY_HELP = """Verify a protocol spec exactly and compare its resource counts with its paper.

NAME is a built-in protocol (see `kitgen list`) or a path to a spec file.

The engine runs the protocol for every possible secret input and every outcome of
every shuffle, with exact fractions, and checks:

With --deck SCENARIO a game protocol (card selection) is verified exactly on the
spec's reduced deck, dealt in every possible way. With --runs N it is verified
statistically on the full deck instead (every run checked; chi-square tests of the
played card and of features of the view, p-values listed).

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


@main.command("verify", help=VERIFY_HELP)
@click.argument("name")
@click.option("--param", "params", multiple=True, metavar="NAME=N", help=PARAM_HELP)
@click.option(
    "--deck",
    default=None,
    metavar="SCENARIO",
    help="For a game protocol (card selection): the spec's scenario to verify exactly, "
    "e.g. --deck mini (a reduced deck dealt in every possible way). Default: the first.",
)
@click.option(
    "--runs",
    type=click.IntRange(min=10),
    default=None,
    metavar="N",
    help="For a game protocol: statistical verification on the full deck instead, with N seeded "
    "runs on each of two deals with the same public information (chi-square tests).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the deals and runs of --runs.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
@click.option("--force", is_flag=True, help=FORCE_HELP)
def verify_cmd(
    name: str,
    params: tuple[str, ...],
    deck: str | None,
    runs: int | None,
    seed: int,
    as_json: bool,
    force: bool,
) -> None:
    library = Library()
    proto = library.protocol(name)
    if runs is not None:
        if deck is not None or params:
            raise UsageError("--runs verifies on the full deck: it cannot be combined with --deck or --param")
        if not proto.context:
            raise UsageError(f"--runs is for game protocols (card selection); verify {proto.name} exactly")
        report = verify_runs(library, proto, runs, seed)
    else:
        given = parse_params(params)
        check_protocol(proto, given, force, "verify", deck)
        report = verify_protocol(library, proto, given, deck)
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        for line in report.lines():
            click.echo(line)
    sys.exit(0 if report.ok else 1)


@main.command("simulate")
@click.argument("name")
@click.option(
    "--input",
    "inputs",
    multiple=True,
    metavar="NAME=VALUE",
    help="A secret input, e.g. --input x=1; arrays are comma-separated (--input x=1,0,1).",
)
@click.option("--param", "params", multiple=True, metavar="NAME=N", help=PARAM_HELP)
@click.option(
    "--seed", type=int, default=None, help="Seed for the shuffles (default 0). Same seed, same run."
)
@click.option("--json", "as_json", is_flag=True, help="Print the whole trace as JSON.")
@click.option("--pause", is_flag=True, help="Wait for Enter after each step, so a table can follow along.")
@click.option("--show-hidden", is_flag=True, help="Also print the face of every face-down card, in brackets.")
@click.option(
    "--deck",
    metavar="SCENARIO",
    default=None,
    help="For a game protocol: the scenario (deck, table sizes, top card) to run in; default: its first. "
    "Without --input for the table, the scenario's deck is dealt at random with the seed.",
)
@click.option("--force", is_flag=True, help=FORCE_HELP)
def simulate_cmd(
    name: str,
    inputs: tuple[str, ...],
    params: tuple[str, ...],
    seed: int | None,
    deck: str | None,
    as_json: bool,
    pause: bool,
    show_hidden: bool,
    force: bool,
) -> None:
    """Run a protocol once and print it step by step.

    Step numbers and sentences are the spec's (the booklet prints the same ones). The
    table is shown as everyone at the table sees it: `?` for a face-down card, the face
    for a face-up card, `·` for an empty place; rows of a matrix on separate lines.
    """
    library = Library()
    proto = library.protocol(name)
    given = parse_params(params)
    check_protocol(proto, given, force, "simulate", deck)
    result = simulate(library, proto, given, inputs, seed, scenario=deck)
    if as_json:
        click.echo(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
        return
    tr = result.trace
    shown = ", ".join(f"{k}={_plain(v)}" for k, v in tr.inputs.items())
    click.echo(f"{proto.title}  [{proto.name}]")
    if tr.params:
        click.echo("parameters: " + ", ".join(f"{k}={v}" for k, v in tr.params.items()))
    click.echo(f"inputs: {shown}   seed: {tr.seed if tr.seed is not None else 0}")
    for first, block in console.step_blocks(tr.events):
        indent = "  " * first.depth
        where = f" [{' > '.join(first.call_path)}]" if first.call_path else ""
        loop = "".join(f" ({k}={v})" for k, v in first.loop.items())
        click.echo("")
        click.echo(f"{indent}Step {first.step or '-'}{loop}{where}. {first.say}")
        for e in block:
            note = console.describe_event(e)
            if note:
                click.echo(f"{indent}  - {note}")
        for line in console.table_lines(block[-1].after, show_hidden, indent + "    "):
            click.echo(line)
        if pause:
            click.prompt(
                "Press Enter for the next step", default="", show_default=False, prompt_suffix="", err=True
            )
    click.echo("")
    click.echo("Outputs:")
    for k, v in tr.outputs.items():
        out = proto.outputs[k]
        where = "public" if out.public else "face down"
        click.echo(f"  {k} = {v}  ({where}{': ' + out.doc if out.doc else ''})")


BUILD_HELP = """Build a printable kit for a rule set into output/<kit>/ (or -o DIR).

The kit has the card sheets (cards.pdf), the label sheets (labels.pdf), a PNG preview of
every page (previews/) and manifest.json: the options, the bill of materials, every
file's checksum and the verification summary of every protocol the kit uses. Protocols
are verified first; if one fails, nothing is written. The build goes to a temporary
folder and replaces the kit only when it is complete.

Every card in a protocol kit has the same back, or face-down cards could be told apart.
Backs: --duplex long/short prints them on the back of the same sheet (two calibration
pages come first; measure with them and pass --back-offset), none puts all backs on
separate pages after the fronts, fold prints front and back side by side to fold.
"""


@main.command("build", help=BUILD_HELP)
@click.argument("ruleset", default="uno")
@click.option("--players", type=int, default=None, help="Number of players (default: the rule set's).")
@click.option("--virtual", type=int, default=1, show_default=True, help="How many of them are virtual.")
@click.option(
    "--paper", type=click.Choice(["a4", "letter", "a3", "tabloid"]), default="a4", show_default=True
)
@click.option(
    "--card-size",
    default=None,
    metavar="SIZE",
    help="uno (56x87mm, default), poker, bridge, standard, euro, mini-usa, or WxH like 60x90mm.",
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
    help="home: 1 mm bleed, shared cut lines; print-shop: 3 mm bleed and a gutter.",
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
    type=click.Choice(
        [
            "L7160",
            "L7163",
            "5160",
            "5163",
            "cutout-a4",
            "cutout-letter",
            "cutout-sleeve-a4",
            "cutout-sleeve-letter",
        ]
    ),
    help="Label sheet (default: L7160 on A4, 5160 on Letter).",
)
@click.option(
    "--label-start",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="First free label on a partly used sheet (1 = top left).",
)
@click.option(
    "--wild4",
    type=click.Choice(["strict", "bluff"]),
    default="strict",
    show_default=True,
    help="uno-official only: virtual players may play wild draw four as a bluff.",
)
@click.option("-o", "--output", default=None, metavar="DIR", help="The kit folder (default: output/<kit>).")
@click.option("--no-previews", is_flag=True, help="Skip the PNG previews (faster).")
@click.option(
    "--no-cache",
    is_flag=True,
    help="Verify every protocol again instead of reusing reports of identical specs "
    "(kept in $KITGEN_CACHE_DIR, default ~/.cache/kitgen/verification).",
)
@click.option(
    "--runs",
    type=click.IntRange(min=0),
    default=100,
    show_default=True,
    help="Statistical check of the card selection protocol on the full deck for the booklet's "
    "validation pages (runs per deal, seed 1); 0 skips it.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the manifest as JSON.")
def build_cmd(
    ruleset: str,
    players: int | None,
    virtual: int,
    paper: str,
    card_size: str | None,
    duplex: str,
    back_offset: str,
    profile: str,
    deck: str,
    discard_owner: bool,
    protocol: str | None,
    label_sheet: str | None,
    label_start: int,
    wild4: str,
    output: str | None,
    no_previews: bool,
    no_cache: bool,
    runs: int,
    as_json: bool,
) -> None:
    from kitgen.kit import KitOptions, build

    opts = KitOptions(
        ruleset,
        players,
        virtual,
        paper,
        card_size,
        duplex,
        profile,
        deck,
        discard_owner,
        protocol,
        label_sheet,
        label_start,
        back_offset,
        wild4,
        output,
        not no_previews,
        runs,
        cache=not no_cache,
    )
    _write_with_progress(lambda bar: build(opts, progress=bar), console.kit_lines, as_json)


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


@main.command("booklet", help=BOOKLET_HELP)
@click.argument("name")
@click.option(
    "--paper", type=click.Choice(["a4", "letter", "a3", "tabloid"]), default="a4", show_default=True
)
@click.option(
    "--imposition",
    type=click.Choice(["none", "a5-saddle"]),
    default="none",
    show_default=True,
    help="none: one page per sheet side; a5-saddle: half-size pages two-up for a folded booklet.",
)
@click.option("--players", type=int, default=None, help="For a rule set: number of players.")
@click.option("--virtual", type=int, default=1, show_default=True, help="For a rule set: virtual players.")
@click.option("--discard-owner", is_flag=True, help="For a rule set: the discard pile is an extra owner.")
@click.option(
    "--wild4",
    type=click.Choice(["strict", "bluff"]),
    default="strict",
    show_default=True,
    help="uno-official only: virtual players may play wild draw four as a bluff.",
)
@click.option(
    "--runs",
    type=click.IntRange(min=0),
    default=100,
    show_default=True,
    help="For a rule set: statistical runs per deal on the full deck for the validation pages; 0 skips.",
)
@click.option(
    "-o", "--output", default=None, metavar="DIR", help="The booklet folder (default: output/<booklet>)."
)
@click.option("--no-previews", is_flag=True, help="Skip the PNG previews.")
@click.option(
    "--no-cache",
    is_flag=True,
    help="Verify every protocol again instead of reusing reports of identical specs "
    "(kept in $KITGEN_CACHE_DIR, default ~/.cache/kitgen/verification).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the manifest as JSON.")
@click.option(
    "--force",
    is_flag=True,
    help="For a protocol: make the booklet even when its spec's own parameters are past the size "
    "limits of verify and simulate (see `kitgen verify --help`).",
)
def booklet_cmd(
    name: str,
    paper: str,
    imposition: str,
    players: int | None,
    virtual: int,
    discard_owner: bool,
    wild4: str,
    runs: int,
    output: str | None,
    no_previews: bool,
    no_cache: bool,
    as_json: bool,
    force: bool,
) -> None:
    from kitgen.kit import BookletOptions, build_booklet

    _check_booklet_budget(name, force)

    opts = BookletOptions(
        name=name,
        paper=paper,
        imposition=imposition,
        players=players,
        virtual=virtual,
        discard_owner=discard_owner,
        wild4=wild4,
        runs=runs,
        output=output,
        previews=not no_previews,
        cache=not no_cache,
    )
    _write_with_progress(lambda bar: build_booklet(opts, progress=bar), console.booklet_lines, as_json)


def _check_booklet_budget(name: str, force: bool) -> None:
    """A protocol booklet verifies the protocol and what it calls with their spec's parameters,
    and runs its worked example: refuse sizes past the limits before anything runs."""
    from kitgen.verification import protocols_to_verify
    from reference_engine.rules import games_dir

    if not name.endswith((".yaml", ".yml")) and (games_dir() / f"{name}.yaml").is_file():
        return  # a rule set: its protocols are the built-in ones
    library = Library()
    proto = library.protocol(name)
    for each in protocols_to_verify(library, proto.name):
        check_protocol(library.protocol(each), None, force, "verify")
    example = proto.booklet
    check_protocol(proto, example.example_params or None, force, "simulate", example.example_scenario)


def _write_with_progress(
    make: Callable[[_Progress | None], dict[str, Any]],
    lines: Callable[[dict[str, Any]], list[str]],
    as_json: bool,
) -> None:
    """Run a build with a progress line on stderr (not with --json), then print its manifest.

    SIGTERM ends it like Ctrl-C (temporary folders are removed); a file that cannot be written
    is reported in one line."""
    from kitgen.output import terminate_as_interrupt

    bar = None if as_json else _Progress()
    try:
        with terminate_as_interrupt():
            manifest = make(bar)
    except OSError as exc:
        where = f" {exc.filename}" if exc.filename else ""
        raise UsageError(f"cannot write{where}: {exc.strerror or exc}") from None
    finally:
        if bar is not None:
            bar.close()
    if as_json:
        click.echo(json.dumps(manifest, indent=2, ensure_ascii=False))
        return
    for line in lines(manifest):
        click.echo(line)


class _Progress:
    """A progress bar for the slow part of a build (drawing the sheets), on stderr."""

    def __init__(self) -> None:
        self.phase = ""
        self.done = 0

    def __call__(self, phase: str, n: int) -> None:
        if phase != self.phase:
            if self.phase:
                click.echo("", err=True)
            self.phase, self.done = phase, 0
            click.echo(f"  {phase}", err=True, nl=False)
        self.done += n
        if n and self.done % 5 == 0:
            click.echo(".", err=True, nl=False)

    def close(self) -> None:
        """End the line (after the last phase, or before an error message)."""
        if self.phase:
            click.echo("", err=True)
            self.phase = ""


def game_catalogue() -> list[tuple[str, str]]:
    from reference_engine.errors import SpecError
    from reference_engine.rules import games_dir

    out = []
    for path in sorted(games_dir().glob("*.yaml")):
        try:
            rules = load_any(path.stem)
            out.append((rules.name, rules.summary or rules.title))
        except SpecError as exc:
            out.append((path.stem, f"INVALID RULE SET: {len(exc.problems)} problem(s)"))
    return out


PLAY_HELP = """Play a whole game of a rule set: UNO with virtual players, or Gakmoro without a dealer.

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
"""


@main.command("play", help=PLAY_HELP)
@click.argument("ruleset")
@click.option("--players", type=int, default=None, help="Number of players (default: the rule set's).")
@click.option("--virtual", type=int, default=1, show_default=True, help="How many of them are virtual.")
@click.option(
    "--level",
    type=click.Choice(["card", "rule"]),
    default=None,
    help="card (default): run the protocol on the simulated table; rule: choose directly "
    "(the default with a Gakmoro dealer).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the deal and every shuffle.")
@click.option(
    "--protocol",
    default=None,
    metavar="NAME",
    help="The protocol spec to run (default: the rule set's), e.g. card-selection-v2 or a path.",
)
@click.option(
    "--discard-owner",
    is_flag=True,
    help="Treat the discard pile (without its top card) as an extra owner, so the remaining cards "
    "stay hidden.",
)
@click.option(
    "--wild4",
    type=click.Choice(["strict", "bluff"]),
    default="strict",
    show_default=True,
    help="uno-official only: 'bluff' lets virtual players play wild draw four as a bluff under the "
    "challenge rule.",
)
@click.option(
    "--hands",
    type=click.IntRange(min=1),
    default=None,
    help="With scoring (uno-official): stop after this many hands even if nobody reached the target.",
)
@click.option(
    "--variant",
    type=click.Choice(["dealerless", "dealer"]),
    default="dealerless",
    show_default=True,
    help="Gakmoro only: without a dealer (bundles and protocols) or with a human dealer.",
)
@click.option(
    "--strategy",
    "strategies",
    default="balanced,random",
    show_default=True,
    metavar="A,B",
    help="Gakmoro only: each player's strategy: balanced (an even share of what is left), random, "
    "greedy (the highest total).",
)
@click.option(
    "--json", "as_json", is_flag=True, help="Print one JSON object (winner, turns, protocol_runs, ...)."
)
def play_cmd(
    ruleset: str,
    players: int | None,
    virtual: int,
    level: str | None,
    seed: int,
    protocol: str | None,
    discard_owner: bool,
    wild4: str,
    hands: int | None,
    variant: str,
    strategies: str,
    as_json: bool,
) -> None:
    if game_kind(ruleset) == "sealed-bid":
        from reference_engine.gakmoro import SealedBidGame

        pair = [s.strip() for s in strategies.split(",")]
        if len(pair) != 2:
            raise UsageError(
                f"--strategy takes two strategies, one per player, e.g. balanced,random; got {strategies!r}"
            )
        bid = SealedBidGame(
            load_any(ruleset),
            Library(),
            level=level or ("rule" if variant == "dealer" else "card"),
            variant=variant,
            seed=seed,
            strategies=(pair[0], pair[1]),
            protocol=protocol,
        )
        result = bid.play()
        if as_json:
            click.echo(json.dumps(result, indent=2, ensure_ascii=False))
            return
        for line in console.sealed_bid_lines(result, bid.rules.title):
            click.echo(line)
        return
    rules = load_rules(ruleset)
    game = Game(
        rules,
        Library(),
        players=players,
        virtual=virtual,
        level=level or "card",
        seed=seed,
        wild4=wild4,
        discard_owner=discard_owner,
        protocol=protocol,
        hands=hands,
    )
    result = game.play()
    if as_json:
        click.echo(json.dumps(result, indent=2, ensure_ascii=False))
        return
    for line in console.game_lines(result, [s.name for s in game.seats], rules.title):
        click.echo(line)


def _plain(v: Any) -> str:
    if isinstance(v, list):
        return ",".join(_plain(x) for x in v)
    return str(v)
