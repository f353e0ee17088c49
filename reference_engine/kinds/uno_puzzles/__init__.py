"""Puzzle kits from "UNO is hard" (``kind: uno-puzzles``): made and checked, never played.

A rule set of this kind names the deck the puzzles are drawn from (colours with our deck's
designs, numbers, copies) and how puzzles are made (``puzzles:``: defaults for ``--count``,
``--difficulty`` and ``--seed``, the share of each kind of puzzle, and each level's cards and
search effort). :meth:`PuzzleKind.puzzles` makes them with :mod:`reference_engine.hardness`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from ...errors import SpecError, UsageError
from ...hardness.puzzles import DIFFICULTIES, LEVELS, Level, Puzzle, PuzzleSpec, make_puzzles
from ...registry import Library
from ...schema import Checker
from ...source import load_file
from ..kind import GAME_KEYS, GameKind, GameRules, PlaySettings, check_name, game_fields, register
from ..result import PlayResult

KIND = "uno-puzzles"
REASONS = ("split", "ends")


@dataclass(kw_only=True)
class PuzzleRules(GameRules):
    """A puzzle kit's rule set: the deck, and how its puzzles are made."""

    kind: ClassVar[str] = KIND
    colour_names: list[str]
    spec: PuzzleSpec
    count: int
    difficulty: str
    seed: int

    @property
    def protocol(self) -> str:
        return ""  # puzzles teach no protocol


@register
class PuzzleKind(GameKind):
    name = KIND
    summary = "printable puzzles from 'UNO is hard', each checked by the solvers (not played)"

    def load(self, path: Path, expected_name: str | None) -> GameRules:
        return load_puzzle_rules(path, expected_name)

    def play(self, rules: GameRules, library: Library, settings: PlaySettings) -> PlayResult:
        raise UsageError(
            f"{rules.name} is a puzzle kit, not a game to play: `kitgen build {rules.name}` prints the "
            "puzzles and `kitgen solve` solves any position"
        )

    def puzzles(self, rules: PuzzleRules, count: int, difficulty: str, seed: int) -> list[Puzzle]:
        return make_puzzles(rules.spec, count, difficulty, seed)


def _range(
    ck: Checker, value: Any, path: tuple[str | int, ...], open_end: bool = False
) -> tuple[int, int | None]:
    """``"3..5"`` -> (3, 5); ``"151.."`` -> (151, None) where an open end is allowed."""
    text = str(value)
    lo, sep, hi = text.partition("..")
    try:
        low = int(lo)
        high = int(hi) if hi else None
    except ValueError:
        low, high, sep = 0, 0, ""
    if not sep or (high is None and not open_end) or low < 0 or (high is not None and high < low):
        ck.error(
            path, f"{text!r}: write a range like 3..5" + (" or 151.. (no upper end)" if open_end else "")
        )
        return 0, 0
    return low, high


def _closed(ck: Checker, value: Any, path: tuple[str | int, ...]) -> tuple[int, int]:
    low, high = _range(ck, value, path)
    return low, high if high is not None else low


def _level(ck: Checker, raw: Any, path: tuple[str | int, ...]) -> Level:
    doc = ck.mapping(raw, path, required=("chain", "who_wins")) or {}
    keys = ("cards", "colours", "numbers", "effort")
    chain = ck.mapping(doc.get("chain", {}), path + ("chain",), required=keys, optional=("no_chain",)) or {}
    duel = ck.mapping(doc.get("who_wins", {}), path + ("who_wins",), required=keys) or {}
    reasons = tuple(
        str(r) for r in ck.listing(chain.get("no_chain", list(REASONS)), path + ("chain", "no_chain")) or []
    )
    for r in reasons:
        if r not in REASONS:
            ck.error(path + ("chain", "no_chain"), f"{r!r}: the reasons are {', '.join(REASONS)}")
    c, d = path + ("chain",), path + ("who_wins",)
    return Level(
        _closed(ck, chain.get("cards", "1..1"), c + ("cards",)),
        _closed(ck, chain.get("colours", "1..1"), c + ("colours",)),
        _closed(ck, chain.get("numbers", "1..1"), c + ("numbers",)),
        _range(ck, chain.get("effort", "0.."), c + ("effort",), open_end=True),
        _closed(ck, duel.get("cards", "1..1"), d + ("cards",)),
        _closed(ck, duel.get("colours", "1..1"), d + ("colours",)),
        _closed(ck, duel.get("numbers", "1..1"), d + ("numbers",)),
        _range(ck, duel.get("effort", "0.."), d + ("effort",), open_end=True),
        reasons or REASONS,
    )


def load_puzzle_rules(path: Path, expected_name: str | None = None) -> PuzzleRules:
    src = load_file(path)
    ck = Checker(src)
    keys = (*GAME_KEYS, "deck", "puzzles", "kit")
    doc = ck.mapping(src.data, (), required=("game", "kind", "title", "deck", "puzzles"), optional=keys)
    if doc is None:
        raise SpecError(ck.problems)
    name = ck.string(doc.get("game"), ("game",), "a rule set name") or "?"
    deck = (
        ck.mapping(doc.get("deck", {}), ("deck",), required=("colours", "numbers"), optional=("copies",))
        or {}
    )
    colours = [str(c) for c in ck.listing(deck.get("colours", []), ("deck", "colours")) or []]
    if not colours:
        ck.error(("deck", "colours"), "at least one colour")
    low, high = _closed(ck, deck.get("numbers", "0..0"), ("deck", "numbers"))
    numbers = tuple(range(low, high + 1))
    copies_raw = ck.table(deck.get("copies", {}), ("deck", "copies"))
    default = copies_raw.get("default", 1)
    copies: dict[int, int] = {}
    for n in numbers:
        value = copies_raw.get(n, default)
        if not isinstance(value, int) or value < 1:
            ck.error(("deck", "copies"), f"copies must be whole numbers of at least 1, not {value!r}")
            value = 1
        copies[n] = value
    pz = (
        ck.mapping(
            doc.get("puzzles", {}),
            ("puzzles",),
            required=("levels",),
            optional=("count", "difficulty", "seed", "chain_share", "impossible_every", "levels"),
        )
        or {}
    )
    levels_raw = ck.mapping(pz.get("levels", {}), ("puzzles", "levels"), required=LEVELS) or {}
    levels = {lv: _level(ck, levels_raw.get(lv, {}), ("puzzles", "levels", lv)) for lv in LEVELS}
    count = ck.integer(pz.get("count", 12), ("puzzles", "count"), 1) or 12
    difficulty = str(pz.get("difficulty", "mixed"))
    if difficulty not in DIFFICULTIES:
        ck.error(("puzzles", "difficulty"), f"{difficulty!r}: one of {', '.join(DIFFICULTIES)}")
    seed = ck.integer(pz.get("seed", 1), ("puzzles", "seed"), 0)
    share = ck.integer(pz.get("chain_share", 2), ("puzzles", "chain_share"), 0) or 0
    every = ck.integer(pz.get("impossible_every", 3), ("puzzles", "impossible_every"), 1) or 3
    fields = game_fields(ck, doc, name, src.file)
    check_name(ck, name, expected_name)
    spec = PuzzleSpec(len(colours), numbers, copies, levels, share, every)
    return PuzzleRules(
        colour_names=colours,
        spec=spec,
        count=count,
        difficulty=difficulty,
        seed=seed if seed is not None else 1,
        **fields,
    )


__all__ = ["KIND", "PuzzleKind", "PuzzleRules", "load_puzzle_rules"]
