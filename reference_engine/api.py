"""The engine's one door: everything kitgen (or any other program) may use.

The flow is rulesets -> engine -> reports and traces -> kitgen -> output. Through this
module a caller loads a library of protocol specs, a protocol or a game's rule set (of any
kind); verifies a protocol exactly or statistically; simulates one seeded run with its
trace; plays a whole game; gets a booklet's example inputs and the facts of every possible
reveal; solves the models of "UNO is hard" (solitaire, cooperative and uncooperative UNO-2).
The engine returns data (reports, traces, results) and never prints. A game protocol is
verified exactly on a game's whole deck by validity classes (:func:`verify_deck`,
:func:`verify_hands`), and :func:`deck_claim` says what kits may claim: "exact for hands up
to N".
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from .budget import CEILING_CARDS, CEILING_WORK, MAX_CARDS, MAX_RUNS, MAX_WORK, check_protocol
from .cards import SYMBOLS, CardJSON, Symbol
from .errors import (
    CheckFailure,
    EvalError,
    ExprSyntaxError,
    Interrupted,
    KitgenError,
    LoadError,
    MemoryRefused,
    Problem,
    RecordError,
    ReductionRefused,
    RenderError,
    RunError,
    SimulationError,
    SpecError,
    Terminated,
    UsageError,
    VerificationError,
    VerificationFailed,
    name_settings,
)
from .exploration import explore
from .files import file_kind, open_regular, read_head, read_regular, read_text
from .games import play, record_game
from .hardness import METHODS as SOLITAIRE_METHODS
from .hardness import Card, OutOfTime, SolitaireResult, parse_cards, solve_solitaire
from .hardness.cooperative import CooperativeResult, solve_cooperative
from .hardness.puzzles import DIFFICULTIES as PUZZLE_DIFFICULTIES
from .hardness.puzzles import Puzzle
from .hardness.reasons import Reason
from .hardness.uncooperative import METHODS as UNCOOPERATIVE_METHODS
from .hardness.uncooperative import UncooperativeResult, solve_uncooperative
from .jsontypes import JSONObject, JSONValue
from .kinds import (
    Deal,
    GameKind,
    GameRules,
    PlayOption,
    PlaySettings,
    TableCounts,
    catalogue,
    find_kind,
    games_dir,
    is_game,
    kind_of,
    kinds,
    load_game,
)
from .kinds.climbing.rules import ClimbingRules
from .kinds.climbing.rules import Play as ClimbingPlay
from .kinds.deck import CardType, Deck
from .kinds.result import PlayResult, RankedResult, TableResult
from .kinds.sealed_bid import SealedBidRules
from .kinds.sealed_bid.play import SealedBidResult
from .kinds.shedding import RuleSet, Shedding
from .kinds.shedding.play import SheddingResult
from .kinds.shedding.rules import Effect as SheddingEffect
from .kinds.shedding.rules import hand_dependence_message
from .kinds.strategy import (
    MAX_WEIGHT,
    STRATEGIES,
    WEIGHTED_PROTOCOL,
    Strategy,
    Weights,
    strategy_from_options,
)
from .kinds.uno_puzzles import PuzzleKind, PuzzleRules
from .kinds.virtual import Moment
from .machine.lawcache import caching as law_caching
from .machine.runner import MAX_RUN_STEPS
from .names import declared_names, expression_texts
from .progress import Progress as ProgressReport
from .progress import report, reporting
from .records import FORMAT as RECORD_FORMAT
from .records import HEADER as RECORD_HEADER
from .records import VERSION as RECORD_VERSION
from .records.document import SCHEMA_FILE as RECORD_SCHEMA
from .registry import Entry, Library, rulesets_dir
from .replay import Report as ReplayReport
from .replay import RulesGone
from .report import (
    CheckDetail,
    CheckJSON,
    Count,
    Counterexample,
    Distinguished,
    Expectation,
    Reduction,
    ReportJSON,
    ReportParams,
    ReportSummary,
    Resources,
    Scenario,
    Stats,
)
from .reveals import Fact, Reveal, possible_reveals, reveals_from
from .schema import Checker, unknown_key_message
from .selection import check_fallback, draw_pile
from .simulate import Simulation, parse_params, parse_whole, simulate
from .source import Source, load_file
from .spec import Param, Params, ParamValue, Protocol, Words
from .statistics import TestJSON
from .steps import walk as walk_steps
from .trace import Event, LabelJSON, RegionJSON, SleeveJSON, Snapshot, Trace, inside_cells, shown_cells
from .verify import (
    VERSION,
    Check,
    DaskBackend,
    Forecast,
    Report,
    Table,
    count_text,
    deck_claim,
    deck_refusal,
    empty_stats,
    forecast,
    verify,
    verify_deck,
    verify_hands,
    verify_runs,
    views_phrase,
    whole_table,
)
from .verify.deck import DeckClaim, HandClaim
from .verify.memory import parse_size


def glyph(name: str) -> str:
    """How a card is printed in text (``α``, ``θ3``, ``R7``, a family's ``#2`` for ``c2``); the name
    itself when unknown. A family's member is printed by its family's glyph even before a run has
    made it (a booklet read from the verification cache names ``c2`` before anything ran), so the
    text never depends on what ran first in this process."""
    sym = SYMBOLS.get(name)
    if sym is not None:
        return sym.glyph
    found = _MEMBER.match(name)
    family = SYMBOLS.get(found.group(1)) if found else None
    if found and family is not None and "{}" in family.glyph:
        return family.glyph.replace("{}", str(int(found.group(2))))
    return name


_MEMBER = re.compile(r"^([A-Za-z_]+?)(\d+)$")


def symbol(name: str) -> Symbol | None:
    """A card face by name, once a spec or rule set has declared it."""
    return SYMBOLS.get(name)


def example_inputs(library: Library, proto: Protocol, params: Params | None = None) -> list[str]:
    """The inputs of a protocol's worked example (``--input`` texts): the spec's
    ``booklet: example``, and for an input it does not give a middle value (arrays: each
    element's values in turn, 0, 1, 0, ... for bits). With other ``params`` than the example's,
    an input of the spec's example that no longer has the right number of values is replaced."""
    from .machine import Runner

    bt = proto.booklet
    given = dict(bt.example_inputs)
    if bt.example_scenario or proto.context:
        return [f"{k}={v}" for k, v in given.items()]
    frame = Runner(library, "sample").frame(proto, proto.resolve_params(params or dict(bt.example_params)))
    if params:
        for name in list(given):
            count = frame.input_count(name) if name in proto.inputs else None
            if len(given[name].split(",")) != (count if count is not None else 1):
                del given[name]
    inputs = [f"{k}={v}" for k, v in given.items()]
    for name in proto.inputs:
        if name in given:
            continue
        count = frame.input_count(name)
        bound = frame.bound(proto.inputs[name].encoding)
        if count is None:
            domain = bound.domain()
            picked = [domain[len(domain) // 2]]
        else:
            picked = []
            for i in range(1, count + 1):
                domain = bound.domain(i)
                picked.append(domain[(i - 1) % len(domain)])
        inputs.append(f"{name}={','.join(str(getattr(v, 'name', v)) for v in picked)}")
    return inputs


def expected_counts(library: Library, proto: Protocol, params: Params) -> dict[str, int]:
    """The paper's counts a spec's ``expect`` block gives for these parameters (shuffles,
    helper cards, ...; the plain numbers only)."""
    from .expressions import as_int
    from .machine import Runner

    frame = Runner(library, "sample").frame(proto, proto.resolve_params(params))
    out: dict[str, int] = {}
    for name, exp in proto.expect.items():
        if exp.value is not None and name not in ("calls", "table", "cards_by_symbol"):
            out[name] = as_int(exp.value(frame.globals))
    return out


def engine_dir() -> Path:
    """The engine's own source folder (for fingerprints of the engine in caches)."""
    return Path(__file__).resolve().parent


def compiled_reason(library: Library, protocol: str) -> str | None:
    """Why single runs of ``protocol`` (card-level play) cannot take the compiled path (None when
    they can): a step kind or a step's field the compiler does not know, in it or a callee."""
    from .compiled import program_for

    made = program_for(library, library.protocol(protocol))
    return made if isinstance(made, str) else None


def read_record(path: Path) -> dict[str, Any]:
    """A game record from its file, checked against the record schema (RecordError, exit code 2,
    names the file, the line and the key path of the first problems)."""
    from .records import document

    return document.read(path)


def is_record(head: bytes) -> bool:
    """Whether a file that begins with ``head`` is a game record kitgen wrote (its first lines)."""
    from .records import document

    return document.is_record(head)


def record_text(record: dict[str, Any]) -> str:
    """A game record as the text of its file (one event per line)."""
    from .records import document

    return document.dumps(record)


def replay_record(record: dict[str, Any], library: Library | None = None, rerun: bool = True) -> ReplayReport:
    """Check a game record: its kind's independent referee and, with ``rerun``, the engine playing
    the same game again; the first divergence, if any (see docs/records.md)."""
    from .replay import replay

    return replay(record, library, rerun)


__all__ = [
    "CEILING_CARDS",
    "CEILING_WORK",
    "MAX_CARDS",
    "MAX_RUNS",
    "MAX_RUN_STEPS",
    "MAX_WEIGHT",
    "MAX_WORK",
    "PUZZLE_DIFFICULTIES",
    "RECORD_FORMAT",
    "RECORD_HEADER",
    "RECORD_SCHEMA",
    "RECORD_VERSION",
    "SOLITAIRE_METHODS",
    "STRATEGIES",
    "SYMBOLS",
    "UNCOOPERATIVE_METHODS",
    "VERSION",
    "WEIGHTED_PROTOCOL",
    "Card",
    "CardJSON",
    "CardType",
    "Check",
    "CheckDetail",
    "CheckFailure",
    "CheckJSON",
    "Checker",
    "ClimbingPlay",
    "ClimbingRules",
    "CooperativeResult",
    "Count",
    "Counterexample",
    "DaskBackend",
    "Deal",
    "Deck",
    "DeckClaim",
    "Distinguished",
    "Entry",
    "EvalError",
    "Event",
    "Expectation",
    "ExprSyntaxError",
    "Fact",
    "Forecast",
    "GameKind",
    "GameRules",
    "HandClaim",
    "Interrupted",
    "JSONObject",
    "JSONValue",
    "KitgenError",
    "LabelJSON",
    "Library",
    "LoadError",
    "MemoryRefused",
    "Moment",
    "OutOfTime",
    "Param",
    "ParamValue",
    "Params",
    "PlayOption",
    "PlayResult",
    "PlaySettings",
    "Problem",
    "ProgressReport",
    "Protocol",
    "Puzzle",
    "PuzzleKind",
    "PuzzleRules",
    "RankedResult",
    "Reason",
    "RecordError",
    "Reduction",
    "ReductionRefused",
    "RegionJSON",
    "RenderError",
    "ReplayReport",
    "Report",
    "ReportJSON",
    "ReportParams",
    "ReportSummary",
    "Resources",
    "Reveal",
    "RuleSet",
    "RulesGone",
    "RunError",
    "Scenario",
    "SealedBidResult",
    "SealedBidRules",
    "Shedding",
    "SheddingEffect",
    "SheddingResult",
    "Simulation",
    "SimulationError",
    "SleeveJSON",
    "Snapshot",
    "SolitaireResult",
    "Source",
    "SpecError",
    "Stats",
    "Strategy",
    "Symbol",
    "Table",
    "TableCounts",
    "TableResult",
    "Terminated",
    "TestJSON",
    "Trace",
    "UncooperativeResult",
    "UsageError",
    "VerificationError",
    "VerificationFailed",
    "Weights",
    "Words",
    "catalogue",
    "check_fallback",
    "check_protocol",
    "compiled_reason",
    "count_text",
    "deck_claim",
    "deck_refusal",
    "declared_names",
    "draw_pile",
    "empty_stats",
    "engine_dir",
    "example_inputs",
    "expected_counts",
    "explore",
    "expression_texts",
    "file_kind",
    "find_kind",
    "forecast",
    "games_dir",
    "glyph",
    "hand_dependence_message",
    "inside_cells",
    "is_game",
    "is_record",
    "kind_of",
    "kinds",
    "law_caching",
    "load_file",
    "load_game",
    "name_settings",
    "open_regular",
    "parse_cards",
    "parse_params",
    "parse_size",
    "parse_whole",
    "play",
    "possible_reveals",
    "read_head",
    "read_record",
    "read_regular",
    "read_text",
    "record_game",
    "record_text",
    "replay_record",
    "report",
    "reporting",
    "reveals_from",
    "rulesets_dir",
    "shown_cells",
    "simulate",
    "solve_cooperative",
    "solve_solitaire",
    "solve_uncooperative",
    "strategy_from_options",
    "symbol",
    "unknown_key_message",
    "verify",
    "verify_deck",
    "verify_hands",
    "verify_runs",
    "views_phrase",
    "walk_steps",
    "whole_table",
]
