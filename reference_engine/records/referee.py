"""What every kind's referee shares: findings, cards counted as multisets, protocol runs checked.

A kind's referee (``kinds/<kind>/referee.py``) checks a game record as an independent referee
would: it knows the rules from their written sources (the papers, the official rules), keeps
its own account of every hand and pile from the record's hidden section, and checks every event
against it. It shares no code with how the engine plays (the kind's ``play.py``, ``rules.py``,
the deck loader, the validity expressions, the virtual players): a bug there shows up as a
finding here. The first finding ends the check (:class:`Illegal`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import RecordError
from ..registry import rulesets_dir
from ..schema import Checker
from ..source import load_file


@dataclass(frozen=True)
class Finding:
    """Where a record breaks a rule, and what is wrong."""

    event: int  # the event's number ``n`` (0: the record's header)
    where: str  # e.g. "turn 23 (Human 2)"
    message: str

    def __str__(self) -> str:
        return f"event {self.event}, {self.where}: {self.message}" if self.event else self.message


class Illegal(Exception):
    """The first rule a record breaks (a :class:`Finding`)."""

    def __init__(self, finding: Finding):
        super().__init__(str(finding))
        self.finding = finding


@dataclass
class Verdict:
    """What the referee found: how many actions it checked and in what unit, the first finding
    (None: every action legal), and whether it knew the rules (``rules``: False when it has no
    rule book for the record's rule set, and checked only that cards were accounted for)."""

    actions: int
    unit: str  # turns | rounds
    finding: Finding | None = None
    rules: bool = True
    note: str = ""


Cards = Counter[str]


def cards(names: Iterable[str]) -> Cards:
    return Counter(names)


def show(names: Iterable[str]) -> str:
    return ", ".join(sorted(names)) or "nothing"


class Walk:
    """Steps through a record's events with a referee: the current event, its number and place
    in words, and findings raised at it."""

    def __init__(self, record: Mapping[str, Any]):
        self.record = record
        self.events: list[dict[str, Any]] = list(record["events"])
        self.seats: list[dict[str, Any]] = list(record["seats"])
        self.i = -1
        self.where = "the start"

    @property
    def event(self) -> dict[str, Any]:
        return self.events[self.i]

    def next(self) -> dict[str, Any] | None:
        """The next event (None at the end); checks that the events are numbered 1, 2, 3, ..."""
        self.i += 1
        if self.i >= len(self.events):
            self.where = "the end"
            return None
        ev = self.events[self.i]
        self.where = self.describe(ev)
        if ev["n"] != self.i + 1:
            self.fail(f"events are numbered {self.i} then {ev['n']}: an event is missing or out of place")
        return ev

    def peek(self) -> dict[str, Any] | None:
        return self.events[self.i + 1] if self.i + 1 < len(self.events) else None

    def describe(self, ev: Mapping[str, Any]) -> str:
        where = str(ev["type"])
        if "turn" in ev:
            where = f"turn {ev['turn']}"
        if "seat" in ev and 1 <= ev["seat"] <= len(self.seats):
            where += f" ({self.seats[ev['seat'] - 1]['name']})"
        return where

    def fail(self, message: str) -> None:
        n = self.events[self.i]["n"] if 0 <= self.i < len(self.events) else 0
        raise Illegal(Finding(n, self.where, message))

    def expect(self, condition: bool, message: str) -> None:
        if not condition:
            self.fail(message)

    def expect_next(
        self, kinds: str | tuple[str, ...], message: str, seat: int | None = None
    ) -> dict[str, Any]:
        """The next event, which must be of the type ``kinds`` (or one of them) and, with ``seat``,
        that seat's (seats count from 1): else the finding ``message``."""
        ev = self.next()
        types = (kinds,) if isinstance(kinds, str) else kinds
        self.expect(ev is not None and ev["type"] in types and (seat is None or ev["seat"] == seat), message)
        assert ev is not None
        return ev

    def take(self, pile: Cards, names: Iterable[str], what: str) -> None:
        """Remove ``names`` from ``pile`` (a multiset); a finding names the first not there."""
        for name in names:
            self.expect(pile[name] > 0, f"{name} is not in {what}")
            pile[name] -= 1
            if not pile[name]:
                del pile[name]

    def name(self, seat: int) -> str:
        """A seat's name (seats count from 1)."""
        name: str = self.seats[seat - 1]["name"]
        return name

    def virtual(self, seat: int) -> bool:
        return bool(self.seats[seat - 1]["virtual"])

    # -- what the seats saw -----------------------------------------------------------
    def check_seen(self, ev: Mapping[str, Any], expected: Mapping[int, Mapping[str, Any]]) -> None:
        """``seen`` must be exactly ``expected`` (by seat: what a person looked at); nobody looks
        at a virtual player's cards."""
        for key in ev["seen"]:
            seat = int(key)
            self.expect(1 <= seat <= len(self.seats), f"seen names seat {seat}, which is not at the table")
            self.expect(not self.virtual(seat), f"{self.name(seat)} is virtual: nobody may look at its cards")
        want = {str(s): dict(v) for s, v in expected.items() if v and not self.virtual(s)}
        got = {k: dict(v) for k, v in ev["seen"].items()}
        for key in sorted(set(want) | set(got)):
            a, b = got.get(key, {}), want.get(key, {})
            for field in sorted(set(a) | set(b)):
                va, vb = a.get(field), b.get(field)
                same = sorted(va) == sorted(vb) if isinstance(va, list) and isinstance(vb, list) else va == vb
                self.expect(
                    same, f"{self.name(int(key))} saw {field} {va!r}, but the hidden cards say {vb!r}"
                )


def checked(record: Mapping[str, Any], referee: Any, unit: str = "turns") -> Verdict:
    """Run ``referee(walk)`` (it returns how many actions it checked) and turn its first finding,
    or a record missing what the referee reads, into a :class:`Verdict`."""
    walk = Walk(record)
    try:
        actions = referee(walk)
    except Illegal as exc:
        return Verdict(0, unit, exc.finding)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        n = walk.events[walk.i]["n"] if 0 <= walk.i < len(walk.events) else 0
        raise RecordError(
            f"event {n} ({walk.where}): the record is missing or garbles what the referee "
            f"reads ({type(exc).__name__}: {exc})"
        ) from None
    return Verdict(int(actions), unit)


Book = tuple[Checker, dict[str, Any]]
"""A rule book as :func:`load_book` gives it: a checker for its problems and its data."""


class TableReferee:
    """The bookkeeping every kind's referee starts from; a kind's ``Referee`` subclasses it and
    states only its rules. It holds the record's walk, the number of seats, the level and the
    protocol the game was played with and each seat's hand as a multiset, and checks the seats
    against the rule book and a deal against the deck."""

    cards: dict[str, Card]  # the book's cards by name (set by :meth:`ranked_book`)
    deck: Cards
    order: list[str]  # the faces, lowest rank first

    def __init__(self, walk: Walk):
        self.walk = walk
        self.n = len(walk.seats)
        self.card_level = walk.record["result"]["level"] == "card"
        self.protocol = walk.record["result"]["protocol"]
        self.hands: list[Cards] = []

    def run(self) -> int:
        """Follow the whole game; the number of actions checked (turns, rounds)."""
        raise NotImplementedError

    def ranked_book(self, found: Book) -> dict[str, Any]:
        """Read a rule book whose cards have ranks: its cards, deck and order of the ranks, and
        the seats it allows (:meth:`seats_within`). Returns the book's data, for the rest."""
        ck, data = found
        _, self.cards, self.deck = book_deck(ck, data["deck"])
        self.order = [str(f) for f in data["order"]]
        self.seats_within(data["players"])
        return data

    def seats_within(self, players: Sequence[int]) -> None:
        """The game is played by as many seats as the rule book allows (``[lowest, highest]``)."""
        lo, hi = players
        self.walk.expect(lo <= self.n <= hi, f"{self.n} players; the game is for {lo} to {hi}")

    def dealt(self, ev: Mapping[str, Any], deck: Cards | None, what: str = "the whole deck") -> Cards:
        """The hands of the deal event ``ev``: one per seat, holding ``deck`` between them (None:
        the referee knows no deck to check them against). Returns every card dealt."""
        w = self.walk
        self.hands = [Counter(h) for h in ev["hidden"]["hands"]]
        w.expect(len(self.hands) == self.n, f"{len(self.hands)} hands for {self.n} players")
        total: Cards = sum(self.hands, Counter())
        if deck is not None:
            w.expect(total == deck, f"the deal is not {what}: {show((deck - total).elements())} missing")
        return total

    def dealt_around(self, ev: Mapping[str, Any], deck: Cards | None) -> int:
        """A deal of every card, one at a time from the dealer's left (:meth:`dealt`): the hands'
        sizes, their public counts and what each seat saw; no protocol run. Returns the dealer's
        seat (from 0)."""
        w = self.walk
        total = self.dealt(ev, deck)
        dealer = int(ev["public"]["dealer"]) - 1
        w.expect(0 <= dealer < self.n, f"the dealer is seat {dealer + 1}, who is not at the table")
        k = sum(total.values())
        sizes = [sum(h.values()) for h in self.hands]
        want = [k // self.n + (1 if (s - dealer - 1) % self.n < k % self.n else 0) for s in range(self.n)]
        w.expect(sizes == want, f"hands of {sizes} cards; one at a time from the dealer's left gives {want}")
        w.expect(ev["public"]["sizes"] == sizes, "the public counts of the deal differ from the cards dealt")
        w.check_seen(ev, {s + 1: {"hand": list(h.elements())} for s, h in enumerate(self.hands)})
        w.expect(not ev["runs"], "a protocol run at the deal")
        return dealer


def book_check(
    record: Mapping[str, Any],
    kind: str,
    keys: Iterable[str],
    referee: Callable[[Walk, Book], TableReferee],
    unit: str = "turns",
) -> Verdict:
    """The check of a kind whose referee cannot follow a game without its rule book: the
    verdict :func:`without_book` when there is none, else ``referee(walk, book).run()``."""
    name = str(record["game"]["rule_set"])
    found = load_book(name, kind, keys)
    if found is None:
        return without_book(name, unit)
    return checked(record, lambda walk: referee(walk, found).run(), unit)


def without_book(name: str, unit: str = "turns") -> Verdict:
    """The verdict of a referee that cannot follow a game of ``name`` without its rule book."""
    note = f"the referee has no rule book for {name!r}: nothing was checked but the record's form"
    return Verdict(0, unit, rules=False, note=note)


def cards_only(verdict: Verdict, name: str) -> Verdict:
    """``verdict`` of a referee that followed a game of ``name`` without its rule book: unless it
    found something, it says it knew no rules."""
    if verdict.finding is None:
        verdict.rules = False
        verdict.note = (
            f"the referee has no rule book for {name!r}: it checked every card and count, "
            "not which cards may be played"
        )
    return verdict


# --------------------------------------------------------------------------- rule books
# A referee's rule book is YAML in ``rulesets/referee/<rule set>.yaml``: the rules of one game as
# the referee reads them from its written source, independently of the rule set file the engine
# plays (docs/records.md, "Rule books").


def books_dir() -> Path:
    return rulesets_dir() / "referee"


def load_book(name: str, kind: str, keys: Iterable[str]) -> tuple[Checker, dict[str, Any]] | None:
    """The rule book of the rule set ``name`` (None when the referee has none): a checker for its
    problems (the caller raises them) and its data, whose top-level keys must be ``keys``."""
    path = books_dir() / f"{name}.yaml"
    if not path.is_file():
        return None
    src = load_file(path)
    ck = Checker(src)
    if isinstance(src.data, dict) and src.data.get("kind") not in (None, kind):
        raise RecordError(f"the record says {name} is a {kind} game; it is a {src.data['kind']} game")
    data = ck.mapping(src.data, (), required=("game", "kind", "source"), optional=tuple(keys)) or {}
    if data.get("game") != name:
        ck.error(("game",), f"the book is for {data.get('game')!r}; its file name says {name!r}")
    if data.get("kind") != kind:
        ck.error(("kind",), f"a rule book says its game's kind: {kind}")
    ck.raise_if_any()
    return ck, data


@dataclass(frozen=True)
class Card:
    """A card as a rule book knows it: its colour (suit; None for a card of no colour) and face."""

    colour: str | None
    face: str


def book_deck(ck: Checker, raw: Any) -> tuple[tuple[str, ...], dict[str, Card], Counter[str]]:
    """A book's ``deck``: its colours, every card by name, the copies of each. A card of a colour
    is named colour + face when the face is a number (``red7``), colour_face otherwise
    (``red_skip``); a card of no colour by its face (``wild``)."""
    spec = ck.mapping(raw, ("deck",), required=("colours",), optional=("per_colour", "plain")) or {}
    colours = tuple(str(c) for c in ck.listing(spec.get("colours", []), ("deck", "colours")) or [])
    cards: dict[str, Card] = {}
    copies: Counter[str] = Counter()
    for group in ("per_colour", "plain"):
        for i, row in enumerate(ck.listing(spec.get(group, []), ("deck", group)) or []):
            r = ck.mapping(row, ("deck", group, i), required=("faces", "copies")) or {}
            n = ck.integer(r.get("copies", 1), ("deck", group, i, "copies"), minimum=1) or 1
            for face in (str(f) for f in ck.listing(r.get("faces", []), ("deck", group, i, "faces")) or []):
                for colour in colours if group == "per_colour" else (None,):
                    name = face if colour is None else colour + (face if face.isdigit() else f"_{face}")
                    cards[name] = Card(colour, face)
                    copies[name] = n
    return colours, cards, copies


# --------------------------------------------------------------------------- protocol runs

# The paper's counts of the card selection protocol for a table of k cards, P_1 holding k1 (UNO
# paper, Section 4, as stated there; the original covert lottery's own counts from Section 2.5).
SELECTION_COUNTS = {
    "card-selection": lambda k, k1: {"shuffles": k1 + 4, "helper_cards": 3 * k + 4},
    "card-selection-v2": lambda k, k1: {"shuffles": k1 + 5, "helper_cards": 3 * k + 4},
    "card-selection-original": lambda k, k1: {
        "shuffles": k1 + 3,
        "helper_cards": 3 * k + (4 if k1 > 1 else 2),
    },
    # The quick versions the kits teach: the same cards, the lottery's first shuffle left out.
    "card-selection-fast": lambda k, k1: {"shuffles": k1 + 3, "helper_cards": 3 * k + 4},
    "card-selection-original-fast": lambda k, k1: {
        "shuffles": k1 + 2,
        "helper_cards": 3 * k + (4 if k1 > 1 else 2),
    },
}


def check_selection_run(
    walk: Walk,
    run: Mapping[str, Any],
    protocol: str,
    table: Sequence[Cards],
    selected: str | None,
) -> None:
    """One card selection run: the protocol the game names, the table the referee holds (cards
    per owner, P_1 first), the card it selected, its counts (the paper's, for the protocols
    the referee knows) and its view: Step 5 turns every card of the table face up (shuffled
    with their θ cards), then the θ cards, one θ_i per card owner i holds."""
    walk.expect(run["protocol"] == protocol, f"a run of {run['protocol']!r}, but the game runs {protocol!r}")
    sizes = [sum(t.values()) for t in table]
    walk.expect(
        list(run["table"]) == sizes,
        f"the protocol laid out {run['table']} cards per owner, but the hands and piles hold {sizes}",
    )
    walk.expect(
        run["selected"] == selected,
        f"the protocol selected {run['selected'] or 'no card'}, but the game says {selected or 'no card'}",
    )
    counts = run["counts"]
    known = SELECTION_COUNTS.get(protocol)
    paper = known(sum(sizes), sizes[0]) if known else run["paper"]
    for key, value in paper.items():
        walk.expect(
            counts.get(key) == value,
            f"the run used {counts.get(key)} {key.replace('_', ' ')}, the paper says {value}",
        )
    if known is None:
        return
    view = run["view"]
    everything = sum(table, Counter())
    walk.expect(
        len(view) >= 2 and view[0][0] == "turn" and Counter(view[0][1]) == everything,
        "the run's view does not turn up exactly the cards of the table at Step 5",
    )
    thetas = Counter(view[1][1]) if view[1][0] == "turn" else Counter()
    owners = [thetas.get(f"theta{i + 1}", 0) for i in range(len(sizes))]
    walk.expect(owners == sizes, f"the run's θ cards say the owners held {owners}, the table {sizes}")


def check_hands_run(
    walk: Walk,
    ev: Mapping[str, Any],
    protocol: str | None,
    hands: Sequence[Cards],
    seat: int,
    selected: str | None,
) -> None:
    """A decision on every hand (``seat``'s first): one run of ``protocol`` when the seat is
    virtual and the game at card level (``protocol`` None: at rule level), else no run."""
    runs = ev["runs"]
    if protocol is None or not walk.virtual(seat + 1):
        walk.expect(not runs, "a protocol run where nobody runs the protocol")
        return
    walk.expect(len(runs) == 1, f"{len(runs)} protocol runs for one decision")
    n = len(hands)
    check_selection_run(walk, runs[0], protocol, [Counter(hands[(seat + k) % n]) for k in range(n)], selected)
