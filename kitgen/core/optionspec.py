"""The options of ``kitgen build`` (the other commands': :mod:`kitgen.cli.runspec`), declared once as
data (like OpenSpiel's parameter specification): each :class:`Option` says its field name, type,
default, range or choices and help. From the declarations

* the command line builds its options and their choices (``kitgen/cli/commands/options.py``;
  papers and label sheets come from ``templates/layout.yaml``),
* each kind says which options its kit takes (:data:`CARD_KIT`, :data:`COMMON`, ... picked by
  ``KitKind.build_options``), and one given that it does not take is refused,
* :func:`check` validates a value, in one place, for the command line and for a caller of
  :func:`kitgen.kit.build.build` alike.

Messages name an option by its field in guillemets (``«deck» is print or store, not 'x'``), as
the engine's do: the command line names it by its flag (``--deck``, :func:`flag_of`)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from reference_engine.api import MAX_RUNS, PUZZLE_DIFFICULTIES, STRATEGIES, PlayOption, UsageError

from .templates import load_templates

Value = str | int | float | bool | tuple[str, ...] | None
# seconds: a finite number; hands: ``7`` or ``1..10``; path: a file name, to read or to write.
Type = Literal["text", "whole", "switch", "seconds", "hands", "path"]


@dataclass(frozen=True)
class Option:
    """One option: ``name`` is its field (``label_start``), ``flag`` its long flag when not
    ``--`` and the name with dashes (``--label-start``). A ``whole`` option lies in ``range``
    (``None``: no upper bound), a ``seconds`` option too; a ``text`` option with ``choices`` is one
    of them (each of them, when ``multiple``). ``kind_value``: a kind's own option, carried in
    :class:`KindValues` rather than as a field of ``KitOptions``. ``required``: the command
    cannot run without it."""

    name: str
    type: Type
    default: Value
    help: str
    choices: tuple[str, ...] = ()
    range: tuple[float, float | None] | None = None
    flag: str = ""
    short: str = ""  # -o
    metavar: str | None = None
    multiple: bool = False
    show_default: bool = False
    case_sensitive: bool = True
    existing_file: bool = False  # a path to a file that exists (--table-time)
    kind_value: bool = False
    required: bool = False

    @property
    def long(self) -> str:
        return self.flag or "--" + self.name.replace("_", "-")


def _either(choices: Iterable[str]) -> str:
    items = list(choices)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _within(option: Option, value: float, unit: str = "") -> None:
    if option.range is not None:
        lo, hi = option.range
        if value < lo or (hi is not None and value > hi):
            limits = f"at least {lo:,}" if hi is None else f"{lo:,} to {hi:,}"
            raise UsageError(f"«{option.name}» is {limits}{unit}, not {value:,}")


def check(option: Option, value: Value) -> None:
    """Refuse a value that is not of ``option``'s type, range or choices (a UsageError that
    names the option's field and what it takes)."""
    name = f"«{option.name}»"
    if value is None and option.default is None:
        return
    if option.multiple:
        if not isinstance(value, tuple):
            raise UsageError(f"{name} takes a list, not {value!r}")
        for each in value:
            check(Option(option.name, option.type, None, "", option.choices, option.range), each)
        return
    if option.type == "switch":
        if not isinstance(value, bool):
            raise UsageError(f"{name} is on or off (True or False), not {value!r}")
    elif option.type == "seconds":
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
            raise UsageError(f"{name} is a number of seconds, not {value!r}")
        _within(option, value, " seconds")
    elif option.type in ("hands", "path"):
        return  # made by the command line (a list of hand sizes, a file name)
    elif option.type == "whole":
        if not isinstance(value, int) or isinstance(value, bool):
            raise UsageError(f"{name} is a whole number, not {value!r}")
        _within(option, value)
    elif not isinstance(value, str):
        raise UsageError(f"{name} is text, not {value!r}")
    elif option.choices and value not in option.choices:
        raise UsageError(f"{name} is {_either(option.choices)}, not {value!r}")


_templates = load_templates()

PLAYERS = Option("players", "whole", None, "Number of players (default: the rule set's).", range=(1, 100))
VIRTUAL = Option("virtual", "whole", 1, "How many of them are virtual.", range=(0, 100), show_default=True)
OPERATOR = Option(
    "operator",
    "switch",
    False,
    "Every player virtual: one person who does not play runs the table (the operator). A kit "
    "needs at least one person, so --virtual equal to --players is refused without it.",
    kind_value=True,
)
PAPER = Option(
    "paper",
    "text",
    "a4",
    "Paper size (A4 and a4 are the same).",
    choices=tuple(_templates.papers),  # templates/layout.yaml: a paper added there is a choice
    show_default=True,
    case_sensitive=False,
)
CARD_SIZE = Option(
    "card_size",
    "text",
    None,
    "uno (56x87mm, default), poker, bridge, standard, euro, mini-usa, or WxH like 60x90mm "
    "(at least 41x62mm, either way round, and small enough for the paper).",
    metavar="SIZE",
)
DUPLEX = Option(
    "duplex",
    "text",
    "long",
    "How the backs are printed (see above).",
    choices=("long", "short", "none", "fold"),
    show_default=True,
)
BACK_OFFSET = Option(
    "back_offset",
    "text",
    "0mm,0mm",
    "Shift the backs to correct the printer, as measured on the calibration pages.",
    metavar="X,Y",
    show_default=True,
)
PROFILE = Option(
    "profile",
    "text",
    "home",
    "home: neighbouring cards share cut lines (8 cuts for a 3 x 3 sheet), 1 mm bleed around the "
    "block; print-shop: 3 mm bleed around every card and a 2 mm gutter (each card cut on its own).",
    choices=("home", "print-shop"),
    show_default=True,
)
INK_SAVER = Option(
    "ink_saver",
    "switch",
    False,
    "For a home printer: light card backs and no full-bleed fills on the faces (game colours as "
    "borders and outlines); the kit folder gets -ink-saver in its name.",
)
EXPORT = Option(
    "export",
    "text",
    (),
    "Also write cards-png: one PNG per card face and the back at 300 dpi with 3 mm bleed, in the "
    "kit's card size and 63 x 88 mm, for print-on-demand services, and Tabletop Simulator deck sheets "
    "(export/ in the kit; see docs/printing.md).",
    choices=("cards-png",),
    multiple=True,
)
DECK = Option(
    "deck",
    "text",
    "print",
    "Print our own deck, or use a store-bought one (then every card needs the same opaque sleeve).",
    choices=("print", "store"),
    show_default=True,
    kind_value=True,
)
DISCARD_OWNER = Option(
    "discard_owner",
    "switch",
    False,
    "Also print θ cards for the discard pile as an extra owner.",
    kind_value=True,
)
PROTOCOL = Option(
    "protocol", "text", None, "The card selection spec (default: the rule set's).", metavar="NAME"
)
LABELS = Option(
    "labels",
    "text",
    None,
    "Label sheet (default: L7160 on A4, 5160 on Letter).",
    choices=tuple(_templates.labels),  # templates/layout.yaml
)
LABEL_START = Option(
    "label_start",
    "whole",
    1,
    "First free label on a partly used sheet (1 = top left).",
    range=(1, 1_000),
    show_default=True,
)
WILD4 = Option(
    "wild4",
    "text",
    "strict",
    "uno-official only: virtual players may play wild draw four as a bluff.",
    choices=("strict", "bluff"),
    show_default=True,
    kind_value=True,
)
STRATEGY = Option(
    "strategy",
    "text",
    None,
    "Shedding games: how the virtual players choose among their valid cards: uniform (the paper, "
    "the default) or weighted, a stronger virtual player (by --weights, with the weighted selection "
    "protocol: more bit markers and λ ticket cards).",
    choices=tuple(STRATEGIES),
    kind_value=True,
)
WEIGHTS = Option(
    "weights",
    "text",
    None,
    "With --strategy weighted: public weights by class (action, number, wild) or card kind, whole "
    "numbers 1-9, e.g. action=3,number=1,wild=1; a class not named weighs 1.",
    metavar="NAME=W,...",
    kind_value=True,
)
OUTPUT = Option("output", "text", None, "The kit folder (default: output/<kit>).", short="-o", metavar="DIR")
NO_PREVIEWS = Option("no_previews", "switch", False, "Skip the PNG previews (faster).")
NO_CACHE = Option(
    "no_cache",
    "switch",
    False,
    "Verify every protocol again instead of reusing reports of identical specs "
    "(kept in $KITGEN_CACHE_DIR, default ~/.cache/kitgen/verification).",
)
WORKERS = Option(
    "workers",
    "whole",
    None,
    "Processes for each exact verification the build runs (default: the number of "
    "cores). The files are the same whatever N.",
    range=(1, 256),
    metavar="N",
)
RUNS = Option(
    "runs",
    "whole",
    100,
    "Statistical check of the card selection protocol on the full deck for the booklet's "
    f"validation pages (runs per deal, seed 1); 0 skips it. At most {MAX_RUNS:,}.",
    range=(0, MAX_RUNS),
    show_default=True,
)
EXACT_HANDS = Option(
    "exact_hands",
    "whole",
    0,
    "Also verify the card selection protocol exactly on the game's whole deck with the kit's "
    'players, for a hand of 1, 2, ..., N cards; the cover and validation pages then say "exact '
    'for hands up to N" (UNO, 4 players, N = 10: a few minutes; reports are cached). 0 skips it.',
    range=(0, 20),
    show_default=True,
    metavar="N",
)
COUNT = Option(
    "count",
    "whole",
    None,
    "Puzzle kits (uno-puzzles) only: how many puzzles (default: the rule set's, 12).",
    range=(1, 200),
    kind_value=True,
)
DIFFICULTY = Option(
    "difficulty",
    "text",
    None,
    "Puzzle kits (uno-puzzles) only: easy, medium, hard, or mixed (easy to hard; the default), "
    "rated by the solver's search effort.",
    choices=tuple(PUZZLE_DIFFICULTIES),
    kind_value=True,
)
SEED = Option(
    "seed",
    "whole",
    None,
    "Puzzle kits (uno-puzzles) only: another seed, another set of puzzles (default: the rule set's).",
    range=(0, None),
    kind_value=True,
)
ONLY = Option(
    "only",
    "text",
    None,
    "Reprint some card types only (comma-separated keys from the printing guide, e.g. "
    "alpha,beta): cards.pdf keeps just the pages of the sheets that hold them, with the same "
    "page ids and backs, in output/<kit>-only-<types>/ (or -o DIR).",
    metavar="TYPES",
)
PARAMS = Option(
    "params",
    "text",
    (),
    "A protocol parameter as NAME=NUMBER (digits, with - for a negative one; NAME=N,N,... for a "
    "list), e.g. --param m=5 (repeatable).",
    flag="--param",
    metavar="NAME=N",
    multiple=True,
)
SETS = Option(
    "sets",
    "whole",
    1,
    "A protocol kit only: card sets for N groups of a class (cards, envelopes, sleeves and "
    "storage labels for each group).",
    range=(1, 40),  # a class of 120 in threes; more is a print shop's job, one kit per 40 groups
    show_default=True,
    metavar="N",
)
TABLE_TIME = Option(
    "table_time",
    "text",
    None,
    "A table-time model file with your own seconds per action (the same keys as kitgen's "
    "templates/table_time.yaml); every minute figure then uses it.",
    metavar="FILE",
    existing_file=True,
)
AS_JSON = Option("as_json", "switch", False, "Print the manifest as JSON.", flag="--json")
LANG = Option(
    "lang",
    "text",
    "en",
    "The language of every word players read: en, ja, ... (`kitgen list --langs`); qps is the "
    "pseudo-locale, every string in ⟦ ⟧ (docs/languages.md).",
    metavar="LANG",
    show_default=True,
)
ALLOW_MISSING = Option(
    "allow_missing",
    "switch",
    False,
    "Build in a language whose translations lack some strings: those stay English, and the "
    "command says how many. Without it such a language is refused.",
)
FORCE = Option(
    "force",
    "switch",
    False,
    "Write into a folder that holds files kitgen did not write: the new files go beside them. "
    "Without it such a folder is refused. kitgen never deletes or overwrites a file it did not "
    "write, even forced.",
)

# Every option of `kitgen build`, in the order of its --help.
BUILD: tuple[Option, ...] = (
    PLAYERS,
    VIRTUAL,
    OPERATOR,
    PAPER,
    CARD_SIZE,
    DUPLEX,
    BACK_OFFSET,
    PROFILE,
    INK_SAVER,
    EXPORT,
    DECK,
    DISCARD_OWNER,
    PROTOCOL,
    LABELS,
    LABEL_START,
    WILD4,
    STRATEGY,
    WEIGHTS,
    OUTPUT,
    NO_PREVIEWS,
    NO_CACHE,
    WORKERS,
    RUNS,
    EXACT_HANDS,
    COUNT,
    DIFFICULTY,
    SEED,
    ONLY,
    PARAMS,
    SETS,
    TABLE_TIME,
    LANG,
    ALLOW_MISSING,
    AS_JSON,
    FORCE,
)
BY_NAME = {o.name: o for o in BUILD}

# The options every kit takes, those of a kit of cards, labels and booklet, and a protocol kit's.
COMMON: tuple[Option, ...] = (
    PAPER,
    OUTPUT,
    NO_PREVIEWS,
    NO_CACHE,
    WORKERS,
    LANG,
    ALLOW_MISSING,
    AS_JSON,
    FORCE,
)
SHEETS: tuple[Option, ...] = (CARD_SIZE, DUPLEX, BACK_OFFSET, PROFILE, INK_SAVER, EXPORT, LABELS, LABEL_START)
CARD_KIT: tuple[Option, ...] = (
    *COMMON,
    PLAYERS,
    VIRTUAL,
    OPERATOR,
    *SHEETS,
    DECK,
    DISCARD_OWNER,
    PROTOCOL,
    WILD4,
    RUNS,
    EXACT_HANDS,
    ONLY,
    TABLE_TIME,
)
PROTOCOL_KIT: tuple[Option, ...] = (*COMMON, PARAMS, SETS, *SHEETS, ONLY, TABLE_TIME)


def of_play(option: PlayOption) -> Option:
    """A game kind's own option of ``kitgen play`` (the engine declares it, :class:`PlayOption`)
    as a declared option: a switch, one of its choices, a whole number of at least 1, or text
    (``A,B``), so that ``kitgen play`` makes its click options as ``kitgen build`` does."""
    if option.flag:
        return Option(option.name, "switch", False, option.help)
    if option.choices:
        return Option(
            option.name, "text", option.default, option.help, choices=option.choices, show_default=True
        )
    if option.kind is int:
        return Option(option.name, "whole", option.default, option.help, range=(1, 10_000))
    return Option(option.name, "text", option.default, option.help, metavar="A,B", show_default=True)


def without(options: tuple[Option, ...], *names: str) -> tuple[Option, ...]:
    """``options`` less those named (a kind that takes the card kit's options but a few)."""
    unknown = set(names) - {o.name for o in options}
    assert not unknown, unknown
    return tuple(o for o in options if o.name not in names)


def flag_of(name: str) -> str:
    """The flag of the option (or setting) named by its field: ``label_start``: ``--label-start``."""
    option = BY_NAME.get(name)
    return option.long if option is not None else "--" + name.replace("_", "-")


@dataclass(frozen=True)
class KindValues:
    """A kind's own options (:attr:`Option.kind_value`: ``--deck``, ``--count``, ...) as given,
    each checked against its declaration when made; read with the typed getters, which give the
    declared default for an option not given."""

    given: tuple[tuple[str, str | int | bool], ...] = ()

    def __post_init__(self) -> None:
        for name, value in self.given:
            option = BY_NAME.get(name)
            if option is None or not option.kind_value:
                raise UsageError(f"«{name}» is not an option of a kit")
            check(option, value)

    @classmethod
    def of(cls, **values: str | int | bool | None) -> KindValues:
        """The values given (``None``: not given), in declaration order."""
        return cls(tuple((o.name, v) for o in BUILD if (v := values.get(o.name)) is not None))

    def _value(self, name: str) -> Value:
        option = BY_NAME[name]
        return dict(self.given).get(name, option.default)

    def text(self, name: str) -> str:
        """A text option that always has a value (given, or its default: ``deck``)."""
        value = self.optional_text(name)
        assert value is not None, name
        return value

    def optional_text(self, name: str) -> str | None:
        """A text option with no default (``strategy``): None when not given."""
        value = self._value(name)
        assert value is None or isinstance(value, str), name
        return value

    def optional_whole(self, name: str) -> int | None:
        """A whole-number option with no default (``count``): None when not given."""
        value = self._value(name)
        assert value is None or (isinstance(value, int) and not isinstance(value, bool)), name
        return value

    def switch(self, name: str) -> bool:
        value = self._value(name)
        assert isinstance(value, bool), name
        return value

    def names(self) -> frozenset[str]:
        return frozenset(name for name, _ in self.given)

    def record(self) -> dict[str, str | int | bool]:
        """The values given, as a manifest records them."""
        return dict(self.given)
