"""Decks of cards for the games of several kinds: colours (or suits), card types, small decks.

A rule set writes its deck under ``deck:`` (README, "Writing a rule set"), or names a shared
deck in ``rulesets/decks/`` (``deck: standard-52``). Card names are generated (``red7``,
``red_skip``, ``hearts_queen``), glyphs come from a template (``{letter}{face}`` -> ``R7``,
``{face}{symbol}`` -> ``Q♥``), and every card type may give its ``rank`` in its suit for
games that order cards (Sevens, Hearts).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..cards import NAME_RE, SYMBOLS, Symbol
from ..errors import EvalError
from ..expressions import Scope, plain
from ..functions import BUILTINS
from ..registry import rulesets_dir
from ..schema import Checker
from ..source import KeyPath, load_file


@dataclass
class CardType:
    name: str
    glyph: str
    color: str
    kind: str
    face: str
    value: int | None
    points: int
    copies: int
    rank: int | None = None  # the card's place in its suit (2..14 with aces high), when a game orders them

    def attrs(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "color": self.color,
            "kind": self.kind,
            "face": self.face,
            "value": self.value,
            "points": self.points,
        }
        if self.rank is not None:
            out["rank"] = self.rank
        return out


@dataclass
class Deck:
    """The colours, the card types by name, and named smaller decks (for exact verification)."""

    colors: dict[str, dict[str, Any]]
    cards: dict[str, CardType]
    decks: dict[str, list[str]]
    word: str = "colour"  # what the deck calls the attribute of ``card.color`` in sentences (suit)
    _symbols: dict[str, Symbol] = field(default_factory=dict, repr=False)

    def symbol(self, name: str) -> Symbol:
        sym = self._symbols.get(name)
        if sym is None:
            ct = self.cards[name]
            sym = self._symbols[name] = SYMBOLS.intern(ct.name, ct.glyph, ct.attrs())
        return sym

    def full(self) -> list[Symbol]:
        """Every card with its copies, in the order the types list them."""
        return [self.symbol(ct.name) for ct in self.cards.values() for _ in range(ct.copies)]


def hand_size(ck: Checker, raw: Any) -> tuple[int, dict[int, int]]:
    """``7``, or ``{default: 5, 2: 7}``: cards dealt to each player, by number of players."""
    if not isinstance(raw, dict):
        return ck.integer(raw, ("hand_size",), minimum=1) or 7, {}
    default = ck.integer(raw.get("default", 7), ("hand_size", "default"), minimum=1) or 7
    by_players: dict[int, int] = {}
    for key, value in raw.items():
        if key == "default":
            continue
        if not isinstance(key, int) or isinstance(key, bool):
            ck.error(("hand_size", str(key)), "a number of players (like 2) or default")
            continue
        n = ck.integer(value, ("hand_size", key), minimum=1)
        if n is not None:
            by_players[key] = n
    return default, by_players


def players(ck: Checker, raw: Any) -> tuple[int, int, int]:
    spec = ck.mapping(raw, ("players",), optional=("min", "max", "default")) or {}
    lo = ck.integer(spec.get("min", 2), ("players", "min"), minimum=2) or 2
    hi = ck.integer(spec.get("max", 10), ("players", "max"), minimum=2) or 10
    default = ck.integer(spec.get("default", 4), ("players", "default"), minimum=2) or 4
    if not lo <= default <= hi:
        ck.error(("players",), f"default {default} is not between min {lo} and max {hi}")
    return lo, hi, default


def hands_fit(ck: Checker, hand: int, seats: int, available: int, what: str) -> None:
    """``seats`` hands of ``hand`` cards must fit in the ``available`` cards (``what``, in words)."""
    if hand * seats > available:
        ck.error(("hand_size",), f"{seats} hands of {hand} need more than {what}")


_TEMPLATE = re.compile(r"\{(\w+)\}")


def parse_deck(ck: Checker, raw: Any) -> Deck:
    """A rule set's ``deck:`` (see README, "Writing a rule set"), or the name of a shared deck
    in ``rulesets/decks/`` (``deck: standard-52``), whose problems are reported in its own file."""
    if isinstance(raw, str):
        return _shared_deck(ck, raw)
    spec = ck.mapping(raw, ("deck",), required=("colors", "types"), optional=("decks", "doc", "word")) or {}
    colors: dict[str, dict[str, Any]] = {}
    for cname, cspec in ck.table(spec.get("colors", {}), ("deck", "colors")).items():
        cp = ("deck", "colors", str(cname))
        cs = ck.mapping(cspec, cp, required=("letter",), optional=("rgb", "name", "symbol"))
        if cs is None or "letter" not in cs:
            continue
        colors[str(cname)] = {
            "letter": str(cs["letter"]),
            "rgb": str(cs.get("rgb", "#777777")),
            "name": str(cs.get("name", cname)),
            "symbol": str(cs.get("symbol", cs["letter"])),
        }
    cards: dict[str, CardType] = {}
    for i, tspec in enumerate(
        ck.listing(spec.get("types", []), ("deck", "types"), "a list of card types") or []
    ):
        tp = ("deck", "types", i)
        t = ck.mapping(
            tspec,
            tp,
            required=("kind", "copies", "points"),
            optional=("per_color", "values", "face", "glyph", "doc", "rank"),
        )
        if t is None or any(k not in t for k in ("kind", "copies", "points")):
            continue
        kind = str(t["kind"])
        values: list[int | None] = [None]
        if "values" in t:
            ve = ck.expr(t["values"], tp + ("values",))
            try:
                values = [int(v) for v in plain(ve(Scope(functions=BUILTINS)))] if ve else []
            except (EvalError, TypeError, ValueError):
                ck.error(tp + ("values",), "values must be a list of numbers, e.g. 0..9")
                values = []
        per_color = t.get("per_color", False)
        for cname in list(colors) if per_color else ["black"]:
            for value in values:
                scope = Scope({"value": value, "color": cname}, functions=BUILTINS)
                copies = int_expr(ck, t["copies"], tp + ("copies",), scope)
                points = int_expr(ck, t["points"], tp + ("points",), scope)
                rank = int_expr(ck, t["rank"], tp + ("rank",), scope) if "rank" in t else None
                face = str(value) if value is not None else str(t.get("face", kind))
                letter = colors.get(cname, {}).get("letter", "")
                name = f"{cname}{value}" if value is not None else (f"{cname}_{kind}" if per_color else kind)
                glyph = str(t.get("glyph", "{letter}{face}" if per_color else "{face}"))
                symbol = colors.get(cname, {}).get("symbol", "")
                fields = {
                    "letter": letter,
                    "face": face,
                    "value": str(value),
                    "color": cname,
                    "symbol": symbol,
                }
                glyph = fill(glyph, fields)
                if not NAME_RE.match(name):
                    ck.error(tp, f"card name {name!r} is not a valid name")
                    continue
                if name in cards:
                    ck.error(tp, f"card {name!r} is defined twice")
                    continue
                ct = CardType(name, glyph, cname, kind, face, value, points, copies, rank)
                known = SYMBOLS.get(name)
                if (
                    known is not None
                    and known.attrs
                    and (
                        known.glyph != glyph or any(known.attrs.get(k, v) != v for k, v in ct.attrs().items())
                    )
                ):
                    ck.error(
                        tp,
                        f"card {name!r} is already defined differently ({known.glyph}, {known.attrs}) by "
                        "another rule set or deck: give it another name, or share one deck (deck: NAME)",
                    )
                    continue
                cards[name] = ct
    decks: dict[str, list[str]] = {}
    for dname, dlist in ck.table(spec.get("decks", {}), ("deck", "decks")).items():
        dp = ("deck", "decks", str(dname))
        names = [str(n) for n in ck.listing(dlist, dp, "a list of card names") or []]
        for n in names:
            if n not in cards:
                ck.error(dp, f"unknown card {n!r}")
        decks[str(dname)] = names
    return Deck(colors, cards, decks, str(spec.get("word", "colour")))


def _shared_deck(ck: Checker, name: str) -> Deck:
    path = rulesets_dir() / "decks" / f"{name}.yaml"
    if not NAME_RE.match(name.replace("-", "_")) or not path.is_file():
        known = ", ".join(sorted(p.stem for p in (rulesets_dir() / "decks").glob("*.yaml"))) or "none"
        ck.error(("deck",), f"no shared deck {name!r} (decks: {known})")
        return Deck({}, {}, {})
    src = load_file(path)
    sub = Checker(src)
    doc = sub.mapping(src.data, (), required=("deck",), optional=("doc",), what="a shared deck") or {}
    deck = parse_deck(sub, doc["deck"]) if "deck" in doc else Deck({}, {}, {})
    ck.problems.extend(sub.problems)
    return deck


def fill(template: str, fields: dict[str, str]) -> str:
    """``{letter}{face}`` -> ``R7``: fill a glyph template from a card's fields."""
    return _TEMPLATE.sub(lambda m: fields.get(m.group(1), m.group(0)), template)


def int_expr(ck: Checker, value: Any, path: KeyPath, scope: Scope) -> int:
    e = ck.expr(value, path)
    if e is None:
        return 0
    try:
        v = plain(e(scope))
    except EvalError as exc:
        ck.error(path, str(exc))
        return 0
    if not isinstance(v, int):
        ck.error(path, f"expected a number, got {v!r}")
        return 0
    return v


BOOKLET_TEXTS = ("how_to_play", "setup_steps", "virtual_steps")


def booklet_texts(ck: Checker, raw: Any) -> dict[str, list[str]]:
    """A rule set's ``booklet:`` paragraphs: ``how_to_play`` (the rules), ``setup_steps`` and
    ``virtual_steps`` (the numbered steps of setting up and of a virtual player's turn)."""
    spec = ck.mapping(raw, ("booklet",), optional=BOOKLET_TEXTS) or {}
    return {
        key: [str(x) for x in ck.listing(spec.get(key, []), ("booklet", key), "a list of paragraphs") or []]
        for key in BOOKLET_TEXTS
    }
