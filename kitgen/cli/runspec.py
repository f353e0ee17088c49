"""The options of the commands that run protocols and games (``verify``, ``simulate``, ``view``,
``booklet``'s own, ``play``, ``replay``, ``list`` and ``solve``), declared once as data like
``kitgen build``'s (:mod:`kitgen.core.optionspec`, whose :class:`~kitgen.optionspec.Option` they
are). Each command's tuple lists its options in the order of its ``--help``; the command line
makes them with ``options.declared_all`` (``kitgen/cli/commands/options.py``). An option two
commands share is declared once; where a command says it its own way, :func:`saying` gives it
another help text (and default), the same field and flag."""

from __future__ import annotations

from dataclasses import replace

from reference_engine.api import (
    CEILING_CARDS,
    CEILING_WORK,
    MAX_CARDS,
    MAX_RUNS,
    MAX_WORK,
    SOLITAIRE_METHODS,
    UNCOOPERATIVE_METHODS,
)

from ..core import optionspec
from ..core.optionspec import AS_JSON, FORCE, PARAMS, PLAYERS, TABLE_TIME, VIRTUAL, Option, Value

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
FOLDER_HELP = FORCE.help
CARDS_HELP = "Cards as colour/number separated by commas, e.g. 1/3,2/2,2/3 (a card may repeat)."

_NO_DEFAULT = object()


def saying(option: Option, help: str, default: Value | object = _NO_DEFAULT, **more: object) -> Option:
    """``option`` with another help text (and default, and ``show_default``...): one option as a
    command says it."""
    changed: dict[str, object] = {"help": help, **more}
    if default is not _NO_DEFAULT:
        changed["default"] = default
    return replace(option, **changed)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- shared by commands

SEED = Option("seed", "whole", None, "Seed for the shuffles (default 0). Same seed, same run.")
INPUTS = Option(
    "inputs",
    "text",
    (),
    "A secret input, e.g. --input x=1; arrays are comma-separated (--input x=1,0,1).",
    flag="--input",
    metavar="NAME=VALUE",
    multiple=True,
)
SCENARIO = Option(
    "deck",
    "text",
    None,
    "For a game protocol: the scenario (deck, table sizes, top card) to run in; default: its first. "
    "Without --input for the table, the scenario's deck is dealt at random with the seed.",
    metavar="SCENARIO",
)
PROTOCOL_FORCE = saying(FORCE, FORCE_HELP)

# --------------------------------------------------------------------------- kitgen verify

VERIFY: tuple[Option, ...] = (
    PARAMS,
    saying(
        SCENARIO,
        "For a game protocol (card selection): the spec's scenario to verify exactly, "
        "e.g. --deck mini (a reduced deck dealt in every possible way). Default: the first.",
    ),
    Option(
        "runs",
        "whole",
        None,
        "For a game protocol: statistical verification on the full deck instead, with N seeded "
        "runs on each of two deals with the same public information (chi-square tests); "
        f"N is 10 to {MAX_RUNS:,}.",
        range=(10, MAX_RUNS),
        metavar="N",
    ),
    saying(SEED, "Seed of the deals and runs of --runs.", 0, show_default=True),
    Option(
        "hands",
        "hands",
        None,
        "For a game protocol: verify exactly on the game's whole deck with P_1 holding N cards "
        "(or each of A..B in turn), by validity classes; the other hands as the game deals them, the "
        "draw pile last.",
        flag="--hand",
        metavar="N|A..B",
    ),
    Option(
        "game",
        "text",
        None,
        "With --hand: the game (default: the protocol's first scenario's).",
        metavar="GAME",
    ),
    saying(PLAYERS, "With --hand: players at the table (default: the game's).", range=(2, 100), metavar="N"),
    Option(
        "state",
        "text",
        None,
        "With --hand: the public state, e.g. '{top: red5, color: red}' (default: the protocol's "
        "scenario for the game).",
        metavar="YAML",
    ),
    saying(
        optionspec.WORKERS,
        "Split an exact verification's secret inputs over N processes (default: the "
        "number of cores, at most one per input). The report is the same whatever N, except "
        "the work statistics; --workers 1 runs in this process.",
    ),
    Option(
        "scheduler",
        "text",
        None,
        "Run an exact verification on a Dask cluster (tcp://host:8786), one partition per "
        "worker thread. Needs the cluster extra: pip install 'kitgen[cluster]'.",
        metavar="ADDRESS",
    ),
    Option(
        "max_memory",
        "text",
        None,
        "The most memory an exact verification may use, e.g. 4G or 500M (default: what this machine "
        "has available, less a tenth). A whole-deck check (--hand) forecast over it is refused before "
        "it starts, saying which hands fit; any exact verification that passes it is stopped. Either "
        "way exit code 2, never an out-of-memory crash.",
        metavar="SIZE",
    ),
    Option(
        "estimate",
        "switch",
        False,
        "Do not verify: measure the protocol at up to four smaller sizes of its first "
        "whole-number parameter (m = 4 to 7 for --param m=8, each under a minute) and forecast "
        "the states, memory and time the asked size will take, to choose a machine or --workers.",
    ),
    saying(AS_JSON, "Print one JSON object instead of text."),
    PROTOCOL_FORCE,
)

# --------------------------------------------------------------------------- kitgen simulate

SIMULATE: tuple[Option, ...] = (
    INPUTS,
    PARAMS,
    SEED,
    saying(AS_JSON, "Print the whole trace as JSON."),
    Option("pause", "switch", False, "Wait for Enter after each step, so a table can follow along."),
    Option("show_hidden", "switch", False, "Also print the face of every face-down card, in brackets."),
    SCENARIO,
    PROTOCOL_FORCE,
)

# --------------------------------------------------------------------------- kitgen view

VIEW: tuple[Option, ...] = (
    saying(optionspec.OUTPUT, "The folder for index.html."),
    saying(SEED, "Seed of the shuffles (default: the spec's example seed)."),
    saying(INPUTS, "A secret input (--input x=1); inputs not given keep the spec's worked example."),
    PARAMS,
    saying(
        SCENARIO,
        "For a game protocol: the scenario to run in (e.g. --deck mini); dealt at random with the seed.",
    ),
    saying(optionspec.NO_CACHE, "Verify again instead of reusing a cached report."),
    saying(AS_JSON, "Print what was written as JSON."),
    saying(FORCE, FORCE_HELP + " " + FOLDER_HELP),
)

# --------------------------------------------------------------------------- kitgen booklet

BOOKLET: tuple[Option, ...] = (
    optionspec.PAPER,
    Option(
        "imposition",
        "text",
        "none",
        "none: one page per sheet side; a5-saddle: half-size pages two-up for a folded booklet.",
        choices=("none", "a5-saddle"),
        show_default=True,
    ),
    saying(PLAYERS, "For a rule set: number of players."),
    saying(VIRTUAL, "For a rule set: virtual players."),
    optionspec.OPERATOR,
    saying(optionspec.DISCARD_OWNER, "For a rule set: the discard pile is an extra owner."),
    optionspec.WILD4,
    saying(
        optionspec.RUNS,
        "For a rule set: statistical runs per deal on the full deck for the validation pages; 0 skips. "
        f"At most {MAX_RUNS:,}.",
    ),
    saying(optionspec.OUTPUT, "The booklet folder (default: output/<booklet>)."),
    saying(optionspec.NO_PREVIEWS, "Skip the PNG previews."),
    optionspec.NO_CACHE,
    optionspec.WORKERS,
    TABLE_TIME,
    optionspec.LANG,
    optionspec.ALLOW_MISSING,
    AS_JSON,
    saying(
        FORCE,
        "For a protocol: make the booklet even when its spec's own parameters are past the size "
        "limits of verify and simulate (see `kitgen verify --help`). " + FOLDER_HELP,
    ),
)

# --------------------------------------------------------------------------- kitgen play

# Before the game kinds' own options (optionspec.of_play) ...
PLAY: tuple[Option, ...] = (
    PLAYERS,
    VIRTUAL,
    Option(
        "level",
        "text",
        None,
        "card (default): run the protocol on the simulated table; rule: choose directly "
        "(the default with a Gakmoro dealer).",
        choices=("card", "rule"),
    ),
    saying(SEED, "Seed of the deal and every shuffle.", 0, show_default=True),
    saying(
        optionspec.PROTOCOL,
        "The protocol spec to run (default: the rule set's), e.g. card-selection-v2 or a path.",
    ),
    Option(
        "engine",
        "text",
        None,
        "Card level: compiled runs the protocol spec compiled for single runs (the same draws, "
        "views and results as the interpreter, many times faster); interpreter reads the spec "
        "step by step. Asked for by name, compiled refuses (exit 2, with the reason) a spec it "
        "cannot compile (a step kind it does not know). Default: compiled where the spec "
        "compiles, else the interpreter; --json says which ran (engine_used) and why "
        "(fallback_reason).",
        choices=("compiled", "interpreter"),
    ),
)
# ... and after them.
PLAY_AFTER: tuple[Option, ...] = (
    TABLE_TIME,
    saying(
        AS_JSON,
        "Print one JSON object (winner, turns, protocol_runs, ..., and table_time: what the game "
        "would take at a real table).",
    ),
    Option(
        "record_path",
        "path",
        None,
        "Also write the game's record (one JSON document: the deal, every action, what each seat saw "
        "and what was hidden, every protocol run's view and counts) to FILE; check it with "
        "`kitgen replay FILE`. FILE is a new file, an empty one or an earlier record (kitgen "
        "writes over nothing else without --force); it is replaced only once the game is over.",
        flag="--record",
        metavar="FILE",
    ),
    saying(
        FORCE,
        "With --record: write the record over a regular file that is not a kitgen game record. "
        "A folder, a link, a FIFO or a device is never written over, even forced.",
    ),
)

# --------------------------------------------------------------------------- kitgen replay, list

REPLAY: tuple[Option, ...] = (
    Option(
        "referee_only",
        "switch",
        False,
        "Check with the referee alone: do not play the game again (the engine plays no part).",
    ),
    saying(
        AS_JSON,
        "Print one JSON object: ok, actions, unit, rules_checked, reran, divergence, referee, rerun, notes.",
    ),
)
LIST: tuple[Option, ...] = (
    Option(
        "times",
        "switch",
        False,
        "Also say what each game kit costs at the table: minutes per turn and per game (optimistic-"
        "cautious), the table it needs, at the seating `kitgen build NAME` makes; the same figures as "
        "the kits. Simulates games the first time (minutes), then reads them from the cache.",
    ),
    TABLE_TIME,
    Option(
        "langs",
        "switch",
        False,
        "List the languages kits can be built in (--lang), with how complete each is.",
    ),
    saying(
        AS_JSON,
        "With --times: print the figures as one JSON object, by rule set (turn_minutes, "
        "turn_minutes_cautious, first_turn_minutes, game_minutes_mean, table_width_cm, ...).",
    ),
)

# --------------------------------------------------------------------------- kitgen solve

TIME_LIMIT = Option(
    "time_limit",
    "seconds",
    60.0,
    "Give up (exit 2) after this many seconds of searching: the problem is NP-complete.",
    range=(0.01, 86_400),
    show_default=True,
    metavar="S",
)
HANDS_OF_TWO: tuple[Option, ...] = (
    Option("hand1", "text", None, "Player 1's cards (they play first).", metavar="CARDS", required=True),
    Option("hand2", "text", None, "Player 2's cards. " + CARDS_HELP, metavar="CARDS", required=True),
)
SOLITAIRE: tuple[Option, ...] = (
    Option("cards_text", "text", None, CARDS_HELP, flag="--cards", metavar="CARDS", required=True),
    Option(
        "method",
        "text",
        "auto",
        "search: trails of the colour-number graph; dp: the programme for few colours or numbers; "
        "cards: card by card; auto: the search, then the programme if it takes long.",
        choices=tuple(SOLITAIRE_METHODS),
        show_default=True,
    ),
    TIME_LIMIT,
    saying(
        AS_JSON, "Print one JSON object: playable, sequence, method, seconds (and cards, effort, reason)."
    ),
)
COOPERATIVE: tuple[Option, ...] = (
    *HANDS_OF_TWO,
    TIME_LIMIT,
    saying(AS_JSON, "Print one JSON object: player1_can_win, sequence (each move's player and card)."),
)
UNCOOPERATIVE: tuple[Option, ...] = (
    *HANDS_OF_TWO,
    Option(
        "method",
        "text",
        "matching",
        "matching: vertex geography by maximum matchings (polynomial, Theorem 7); "
        "search: the whole game tree (for checking).",
        choices=tuple(UNCOOPERATIVE_METHODS),
        show_default=True,
    ),
    TIME_LIMIT,
    saying(AS_JSON, "Print one JSON object: loser, first_card, method (and winning_first_cards, strategy)."),
)

# Every command's options, for the tests that hold them to their declarations.
COMMANDS: dict[str, tuple[Option, ...]] = {
    "verify": VERIFY,
    "simulate": SIMULATE,
    "view": VIEW,
    "booklet": BOOKLET,
    "play": PLAY + PLAY_AFTER,
    "replay": REPLAY,
    "list": LIST,
    "solve solitaire": SOLITAIRE,
    "solve cooperative": COOPERATIVE,
    "solve uncooperative": UNCOOPERATIVE,
}
