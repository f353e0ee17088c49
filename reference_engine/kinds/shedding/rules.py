"""Game rule sets: the deck, which card may be played, what each card does.

A rule set is YAML in ``rulesets/games/<name>.yaml`` (see README, "Writing a rule set").
Validity is an expression of our own language over the names ``card`` (the card to
play), ``top`` (the card on the discard pile), ``color`` (the colour in force) and, for
rules that need it, ``hand`` (the player's other cards). Effects are data: a list of
primitives per card kind (``skip``, ``reverse``, ``{draw: 2}``, ``choose_color``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from ...cards import SYMBOLS, Symbol
from ...compiled import evaluate
from ...compiled.arrows import fixed
from ...errors import SpecError, UsageError
from ...expressions import EvalError, Expression, Scope, truthy
from ...functions import BUILTINS
from ...schema import Checker
from ...source import KeyPath, load_file
from ..deck import CardType, parse_deck
from ..deck import hand_size as parse_hand_size
from ..deck import players as parse_players
from ..kind import game_fields
from ..ruleset import kind_name, rules_path
from ..table import TableRules, table_keys
from ..virtual import one_card
from .terms import Terms, split

KIND = "shedding"

GAME_KEYS = table_keys("deck", "rules", "virtual_players", hand_size=True)
RULE_KEYS = (
    "valid",
    "effects",
    "first_card",
    "draw",
    "two_player_reverse",
    "empty_piles",
    "scoring",
    "challenge",
    "doc",
)
EFFECTS = ("skip", "reverse", "choose_color", "draw")
FIRST_CARD = ("skip", "reverse", "choose_color", "draw", "redraw")
VALID_NAMES = {"card", "top", "color", "hand"}


@dataclass
class Effect:
    kind: str  # skip | reverse | choose_color | draw | redraw
    count: int = 0


@dataclass(kw_only=True)
class RuleSet(TableRules):
    """A shedding game (UNO and its relatives): a deck, a validity rule and card effects."""

    kind: ClassVar[str] = KIND
    hand_size: int  # cards dealt to each player (see hand_size_for)
    colors: dict[str, dict[str, Any]]
    cards: dict[str, CardType]
    decks: dict[str, list[str]]
    valid: Expression
    valid_doc: str
    effects: dict[str, list[Effect]]
    first_card: dict[str, list[Effect]]
    draw_count: int
    play_drawn: str  # if_valid | never
    two_player_reverse: str  # reverse | skip
    empty_piles: str  # reshuffle
    target_score: int | None
    challenge: bool
    bluff_valid: Expression | None
    virtual_doc: str
    card_names: dict[str, str] = field(default_factory=dict)  # card kind -> name in sentences
    # Cards dealt by number of players where it differs from hand_size (``hand_size: {default: 5, 2: 7}``).
    hand_sizes: dict[int, int] = field(default_factory=dict)
    # Draw up to this many cards, one at a time, until one may be played (1: draw once).
    draw_until: int = 1
    # What a virtual player does with a card it drew when the rules let it play it: "play" it if
    # valid (a second run of the protocol, the UNO paper's Section 3.2) or "keep" it (the rules say
    # it *may* be played; keeping it saves the second run).
    virtual_draw: str = "play"
    word: str = "colour"  # what the deck calls the attribute of ``card.color`` in sentences (suit)
    choosing: str = "a wild card"  # what a booklet calls a card that names the colour in force
    _answers: dict[tuple[int, str, str], dict[str, bool]] = field(default_factory=dict, repr=False)
    _decks: dict[str, list[Symbol]] = field(default_factory=dict, repr=False)
    _distinct: list[Symbol] | None = field(default=None, repr=False)
    _validity: dict[tuple[int, str, str], Callable[[Any], bool]] = field(default_factory=dict, repr=False)
    # Per public state (top card id, colour, bluff), for rules that do not read the hand: what
    # Game.validity hands out, kept from game to game (see there).
    by_state: dict[tuple[int, str, bool], Callable[[Any], bool]] = field(default_factory=dict, repr=False)
    # Per public state, as by_state: the ids of the cards its rule allows (quickhand.py).
    allowed_by_state: dict[tuple[int, str, bool], frozenset[int]] = field(default_factory=dict, repr=False)
    # Per card id: its kind, its colour and the effects of playing it (see played_as).
    _played: dict[int, tuple[str, str, list[Effect]]] = field(default_factory=dict, repr=False)
    # The ids of the cards each per-card validity function allows (see allowed_ids).
    _allowed: dict[int, tuple[Callable[[Any], bool], frozenset[int]]] = field(
        default_factory=dict, repr=False
    )
    # Per per-card validity function: its rule and public state (for allowed_ids' terms).
    _states: dict[int, tuple[Callable[[Any], bool], Expression, Symbol, str]] = field(
        default_factory=dict, repr=False
    )
    # Per rule (by id, with the rule): its terms (terms.py), or None where it cannot be split.
    _terms: dict[int, tuple[Expression, Terms | None]] = field(default_factory=dict, repr=False)

    # -- the deck ----------------------------------------------------------------
    def symbol(self, name: str) -> Symbol:
        ct = self.cards[name]
        return SYMBOLS.intern(ct.name, ct.glyph, ct.attrs())

    def hand_size_for(self, players: int) -> int:
        return self.hand_sizes.get(players, self.hand_size)

    def cards_by_name(self) -> dict[str, Symbol]:
        return {n: self.symbol(n) for n in self.cards}

    def deck(self, name: str = "full") -> list[Symbol]:
        """Every card of a deck (``full``: the standard deck with its copies)."""
        cached = self._decks.get(name)
        if cached is None:
            if name == "full":
                cached = [self.symbol(ct.name) for ct in self.cards.values() for _ in range(ct.copies)]
            elif name in self.decks:
                cached = [self.symbol(n) for n in self.decks[name]]
            else:
                raise UsageError(f"{self.name} has no deck {name!r} (decks: full, {', '.join(self.decks)})")
            self._decks[name] = cached
        return list(cached)

    # -- validity ----------------------------------------------------------------
    @property
    def hand_dependent(self) -> bool:
        """Whether validity looks at the rest of the hand (then no per-card protocol can run it)."""
        return self.valid.uses("hand")

    def validity(
        self, top: Symbol, color: str, hand: list[Symbol] | None = None, bluff: bool = False
    ) -> Callable[[Any], bool]:
        """``valid(card)`` for the public state; accepts a Symbol or a face-up selection."""
        expr = self.bluff_valid if bluff and self.bluff_valid is not None else self.valid
        per_card = not expr.uses("hand")
        if per_card:
            made = self._validity.get((id(expr), top.name, color))
            if made is not None:
                return made
        base = {"top": top, "color": color, "hand": hand or []}
        scope = Scope(base, functions=BUILTINS)
        if expr.uses("hand"):
            known: dict[str, bool] = {}  # depends on the hand: remember answers for this call only
        else:
            # A per-card rule depends only on (card, top, colour): answers hold for the whole game.
            known = self._answers.setdefault((id(expr), top.name, color), {})

        def valid(card: Any) -> bool:
            if type(card) is Symbol:  # the common case, from the game engine
                answer = known.get(card.name)
                if answer is not None:
                    return answer
                value = card
            else:
                value = one_card(card)
                answer = known.get(value.name)
            if answer is None:
                try:
                    answer = known[value.name] = truthy(expr(scope.child({"card": value})))
                except EvalError as exc:
                    raise EvalError(f"{self.name}: validity rule: {exc}") from None
            return answer

        if per_card:  # its public state is frozen in it: the compiled path may keep its answers
            self._validity[(id(expr), top.name, color)] = fixed(valid)
            self._states[id(valid)] = (valid, expr, top, color)

        return valid

    def played_as(self, card: Symbol) -> tuple[str, str, list[Effect]]:
        """A card's kind, its colour, and what playing it does (read once per card)."""
        hit = self._played.get(card.id)
        if hit is None:
            kind = str(card.attrs["kind"])
            hit = self._played[card.id] = (kind, str(card.attrs["color"]), self.effects.get(kind, []))
        return hit

    def distinct_cards(self) -> list[Symbol]:
        """Every card of the full deck once, in the deck's order (kept: the deck never changes)."""
        if self._distinct is None:
            self._distinct = list({c.id: c for c in self.deck()}.values())
        return self._distinct

    def allowed_ids(self, valid: Callable[[Any], bool]) -> frozenset[int]:
        """The ids of the deck's cards that a per-card ``valid`` allows (asked once per function:
        a hand is then filtered with one set lookup per card)."""
        hit = self._allowed.get(id(valid))
        if hit is None or hit[0] is not valid:
            ids = self._by_terms(valid)
            if ids is None or evaluate.CHECKED:
                every = frozenset(c.id for c in self.distinct_cards() if valid(c))
                if ids is not None and ids != every:
                    raise evaluate.Mismatch(
                        f"{self.name}: the terms allow {sorted(ids)}, the rule {sorted(every)}"
                    )
                ids = every
            hit = self._allowed[id(valid)] = (valid, ids)
        return hit[1]

    def _by_terms(self, valid: Callable[[Any], bool]) -> frozenset[int] | None:
        """:meth:`allowed_ids` of a function :meth:`validity` made, its rule's terms at its state
        (:mod:`.terms`), or None: the rule card by card. Found, it is also what that function
        keeps for each card, as the rule card by card leaves it (then a protocol run asking the
        function about a card finds its answer), and an answer it kept before stands, as that way
        reads it. Under ``evaluate.CHECKED`` nothing is kept here: the caller's rule card by card
        keeps its own answers, and the sets are compared."""
        made = self._states.get(id(valid))
        if made is None or made[0] is not valid:
            return None
        _, expr, top, color = made
        kept = self._terms.get(id(expr))
        if kept is None or kept[0] is not expr:
            kept = self._terms[id(expr)] = (expr, split(expr))
        terms = kept[1]
        cards = self.distinct_cards()
        ids = None if terms is None else terms.allowed(cards, top, color)
        if ids is None:
            return None
        # An answer ``valid`` kept already stands for its card, as the rule card by card reads it
        # (kept for the whole game, whatever the card's attributes are declared as since).
        known = self._answers.setdefault((id(expr), top.name, color), {})
        if evaluate.CHECKED:  # the caller asks the rule itself: leave ``known`` to it
            return frozenset(c.id for c in cards if known.get(c.name, c.id in ids))
        out = set(ids)
        for c in cards:
            was = known.get(c.name)
            if was is None:  # the answers the rule card by card keeps for ``valid`` (see validity)
                known[c.name] = c.id in ids
            elif was:
                out.add(c.id)
            else:
                out.discard(c.id)
        return frozenset(out)

    # -- a virtual player's strategy (issue 28) ------------------------------------
    def card_class(self, kind: str) -> str:
        """The class of a card kind that ``--weights`` may name: ``wild`` (it names the colour in
        force), ``action`` (it has another effect: skip, reverse, draw) or ``number``."""
        effects = self.effects.get(kind, [])
        if any(e.kind == "choose_color" for e in effects):
            return "wild"
        return "action" if effects else "number"

    def classify(self, card: Symbol) -> tuple[str, str]:
        kind = str(card.attrs.get("kind", ""))
        return kind, self.card_class(kind)

    def weight_names(self) -> list[str]:
        """What ``--weights`` may name: the classes and every card kind of the deck."""
        kinds = sorted({str(ct.kind) for ct in self.cards.values()})
        return ["action", "number", "wild", *kinds]

    def points(self, cards: list[Symbol]) -> int:
        total = 0
        for c in cards:  # read at every call: a card's attributes are those last declared
            p = c.attrs.get("points", 0)
            total += p if type(p) is int else int(p)
        return total


# --------------------------------------------------------------------------- loading


def load_rules(name_or_path: str) -> RuleSet:
    """A shedding rule set by name (``uno``) or path; SpecError lists every problem."""
    path = rules_path(name_or_path)
    kind = kind_name(name_or_path)
    if kind != KIND:
        raise UsageError(
            f"{path.stem} is a {kind} game, not a game with a draw pile and virtual "
            "players: this command does not take it"
        )
    expected = None if name_or_path.endswith((".yaml", ".yml")) else name_or_path
    return load_path(path, expected)


def load_path(path: Path, expected: str | None) -> RuleSet:
    """Load and check the shedding rule set in ``path`` (its name must be ``expected``)."""
    src = load_file(path)
    ck = Checker(src)
    rules = _build(ck, src.data)
    if ck.problems or rules is None:
        raise SpecError(ck.problems)
    if expected is not None and rules.name != expected:
        raise SpecError(
            [
                src.problem(
                    ("game",),
                    f"the file {path.name} declares game {rules.name!r}; the name must match the file name",
                )
            ]
        )
    return rules


def _build(ck: Checker, data: Any) -> RuleSet | None:
    doc = ck.mapping(
        data, (), required=("game", "title", "deck", "rules"), optional=GAME_KEYS, what="a game rule set"
    )
    if doc is None or any(k not in doc for k in ("game", "title", "deck", "rules")):
        return None
    name = ck.string(doc["game"], ("game",), "a rule set name") or "?"
    players = parse_players(ck, doc.get("players", {}))
    hand_size, hand_sizes = parse_hand_size(ck, doc.get("hand_size", 7))
    deck = parse_deck(ck, doc["deck"])
    rules = ck.mapping(doc["rules"], ("rules",), required=("valid",), optional=RULE_KEYS)
    if rules is None or "valid" not in rules:
        return None
    valid = _valid(ck, rules["valid"], ("rules", "valid"))
    kinds = {ct.kind for ct in deck.cards.values()}
    effects = _effects(ck, rules.get("effects", {}), ("rules", "effects"), kinds, EFFECTS)
    first = _effects(ck, rules.get("first_card", {}), ("rules", "first_card"), kinds, FIRST_CARD)
    draw = _draw(ck, rules.get("draw", {}))
    reverse2 = _choice(
        ck, rules.get("two_player_reverse", "reverse"), ("rules", "two_player_reverse"), ("reverse", "skip")
    )
    empty = _choice(ck, rules.get("empty_piles", "reshuffle"), ("rules", "empty_piles"), ("reshuffle",))
    scoring = ck.mapping(rules.get("scoring", {}), ("rules", "scoring"), optional=("target",)) or {}
    target = (
        ck.integer(scoring["target"], ("rules", "scoring", "target"), minimum=1)
        if "target" in scoring
        else None
    )
    challenge = rules.get("challenge", False)
    if not isinstance(challenge, bool):
        ck.error(("rules", "challenge"), "challenge must be true or false")
        challenge = False
    vp = (
        ck.mapping(doc.get("virtual_players", {}), ("virtual_players",), optional=("bluff_valid", "doc"))
        or {}
    )
    bluff = _valid(ck, vp["bluff_valid"], ("virtual_players", "bluff_valid")) if "bluff_valid" in vp else None
    if bluff is not None and "hand" in bluff.names():
        ck.error(("virtual_players", "bluff_valid"), "the bluff rule must not look at the hand")
    fields = game_fields(ck, doc, name, ck.source.file)
    booklet = _booklet(ck, doc.get("booklet", {}))
    if valid is None:
        return None
    return RuleSet(
        players=players,
        hand_size=hand_size,
        hand_sizes=hand_sizes,
        virtual_protocol=str(doc.get("virtual_protocol", "card-selection")),
        notes=str(doc.get("notes", "")),
        colors=deck.colors,
        cards=deck.cards,
        decks=deck.decks,
        word=deck.word,
        valid=valid,
        valid_doc=str(rules.get("doc", "")),
        effects=effects,
        first_card=first,
        two_player_reverse=reverse2,
        empty_piles=empty,
        target_score=target,
        virtual_doc=str(vp.get("doc", "")),
        bluff_valid=bluff,
        challenge=challenge,
        **draw,
        **booklet,
        **fields,
    )


def _draw(ck: Checker, raw: Any) -> dict[str, Any]:
    """The fields of ``rules: draw:``: how many cards a draw takes, and whether a drawn card may
    be played (by a virtual player too)."""
    draw = ck.mapping(raw, ("rules", "draw"), optional=("count", "play_drawn", "until_playable", "virtual"))
    draw = draw or {}
    draw_count = ck.integer(draw.get("count", 1), ("rules", "draw", "count"), minimum=1) or 1
    draw_until = (
        ck.integer(draw.get("until_playable", 1), ("rules", "draw", "until_playable"), minimum=1) or 1
    )
    if draw_until > 1 and draw_count != 1:
        ck.error(("rules", "draw"), "until_playable draws one card at a time: give count: 1")
    play_drawn = _choice(
        ck, draw.get("play_drawn", "if_valid"), ("rules", "draw", "play_drawn"), ("if_valid", "never")
    )
    virtual_draw = _choice(ck, draw.get("virtual", "play"), ("rules", "draw", "virtual"), ("play", "keep"))
    if virtual_draw == "keep" and (play_drawn != "if_valid" or draw_until > 1):
        ck.error(
            ("rules", "draw", "virtual"),
            "keep only makes sense where a drawn card may be played (play_drawn: if_valid) and one card "
            "is drawn (no until_playable)",
        )
    return {
        "draw_count": draw_count,
        "draw_until": draw_until,
        "play_drawn": play_drawn,
        "virtual_draw": virtual_draw,
    }


def _booklet(ck: Checker, raw: Any) -> dict[str, Any]:
    """The fields of ``booklet:``: the paragraphs on how to play, the card kinds' names in
    sentences, and what names the colour in force."""
    bk = ck.mapping(raw, ("booklet",), optional=("how_to_play", "card_names", "choosing")) or {}
    how_to_play = [
        str(x)
        for x in ck.listing(bk.get("how_to_play", []), ("booklet", "how_to_play"), "a list of paragraphs")
        or []
    ]
    card_names = {
        str(k): str(v) for k, v in ck.table(bk.get("card_names", {}), ("booklet", "card_names")).items()
    }
    return {
        "how_to_play": how_to_play,
        "card_names": card_names,
        "choosing": str(bk.get("choosing", "a wild card")),
    }


def _choice(ck: Checker, value: Any, path: KeyPath, options: tuple[str, ...]) -> str:
    if value not in options:
        ck.error(path, f"expected one of {', '.join(options)}, got {value!r}")
        return options[0]
    return str(value)


def _valid(ck: Checker, value: Any, path: KeyPath) -> Expression | None:
    e = ck.expr(value, path)
    if e is None:
        return None
    for n in sorted(e.names() - VALID_NAMES):
        ck.error(path, f"unknown name {n!r} in the validity rule (names: card, top, color, hand)")
    for f in sorted(e.calls() - set(BUILTINS)):
        ck.error(path, f"unknown function {f!r} in the validity rule")
    return e


def _effects(
    ck: Checker, raw: Any, path: KeyPath, kinds: set[str], allowed: tuple[str, ...]
) -> dict[str, list[Effect]]:
    out: dict[str, list[Effect]] = {}
    for kind, items in ck.table(raw, path).items():
        kp = path + (str(kind),)
        if kind not in kinds:
            ck.error(kp, f"no card of kind {kind!r} in the deck (kinds: {', '.join(sorted(kinds))})")
            continue
        effects = []
        for i, item in enumerate(ck.listing(items, kp, "a list of effects") or []):
            ip = kp + (i,)
            if isinstance(item, str) and item in allowed and item != "draw":
                effects.append(Effect(item))
            elif isinstance(item, dict) and list(item) == ["draw"] and "draw" in allowed:
                n = ck.integer(item["draw"], ip + ("draw",), minimum=1)
                if n is not None:
                    effects.append(Effect("draw", n))
            else:
                choices = ", ".join(a if a != "draw" else "{draw: N}" for a in allowed)
                ck.error(ip, f"unknown effect {item!r} (effects: {choices})")
        out[str(kind)] = effects
    return out


def hand_dependence_message(rules: RuleSet) -> str:
    """Why virtual players cannot run a hand-dependent validity rule, and what to do instead."""
    lines = [
        f"{rules.name}: whether a card may be played depends on the rest of the player's hand "
        f"(the validity rule uses 'hand': {rules.valid.text!r}).",
        "The card selection protocol decides validity one revealed card at a time, from public "
        "information only, so it cannot apply this rule without showing the virtual player's hand.",
        "Options:",
        "  - play the 'uno' rule set, where wild draw four may always be played;",
    ]
    if rules.bluff_valid is not None:
        lines.append(
            "  - add «wild4» bluff: virtual players treat wild draw four as always playable "
            "(a bluff when they hold the colour in force); the challenge rule can catch it."
        )
    return "\n".join(lines)
