"""Sealed-bid rule sets (Gakmoro): two players, values, submissions, rounds and variants.

A sealed-bid rule set (``kind: sealed-bid`` in ``rulesets/games/``) describes Gakmoro:
two players, cards 1..7, one to three cards submitted per round, the higher total wins
the round and only the winner is announced, the first to two round wins takes the game.
Its ``dealerless`` variant gives each hand two 0-value dummies so that exactly three
bundles are submitted per round, and names the protocol spec that replaces the dealer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from ...errors import SpecError
from ...schema import Checker
from ...source import load_file
from ..kind import GAME_KEYS, GameRules, check_name, game_fields

KIND = "sealed-bid"
DECIDE = ("more_wins_else_draw",)


@dataclass(kw_only=True)
class SealedBidRules(GameRules):
    """A sealed-bid game: the dealer's job is done by the protocol ``protocol`` (dealerless)."""

    kind: ClassVar[str] = KIND
    players: tuple[int, int, int]
    names: list[str]
    values: list[int]
    submit: tuple[int, int]
    rounds: int
    to_win: int
    after_last_round: str
    dealer_doc: str
    dummies: int
    per_round: int
    round_protocol: str
    bundle: int
    dealerless_doc: str
    how_to_play: list[str] = field(default_factory=list)

    @property
    def protocol(self) -> str:
        return self.round_protocol

    def hand(self, variant: str) -> list[int]:
        """The values a player holds at the start (with the dealerless variant's dummies)."""
        dummies = [0] * self.dummies if variant == "dealerless" else []
        return dummies + list(self.values)


def load_sealed_bid(path: Path, expected_name: str | None = None) -> SealedBidRules:
    src = load_file(path)
    ck = Checker(src)
    keys = (
        *GAME_KEYS,
        "players",
        "names",
        "values",
        "submit",
        "rounds",
        "to_win",
        "after_last_round",
        "variants",
        "kit",
        "booklet",
    )
    doc = ck.mapping(src.data, (), required=("game", "kind", "title", "values", "variants"), optional=keys)
    if doc is None:
        raise SpecError(ck.problems)
    name = ck.string(doc.get("game"), ("game",), "a rule set name") or "?"
    values: list[int] = []
    raw = doc.get("values")
    if isinstance(raw, str) and ".." in raw:
        lo, _, hi = raw.partition("..")
        try:
            values = list(range(int(lo), int(hi) + 1))
        except ValueError:
            ck.error(("values",), f"{raw!r}: write a range like 1..7 or a list")
    else:
        values = [
            v for v in (ck.listing(raw, ("values",), "a list of card values") or []) if isinstance(v, int)
        ]
    if not values or min(values, default=1) < 1:
        ck.error(("values",), "card values must be whole numbers of at least 1")
    pl = ck.mapping(doc.get("players", {}), ("players",), optional=("min", "max", "default")) or {}
    if any(pl.get(k, 2) != 2 for k in ("min", "max", "default")):
        ck.error(("players",), "a sealed-bid game is played by exactly 2 players")
    names = [str(n) for n in (ck.listing(doc.get("names", ["Alice", "Bob"]), ("names",)) or [])]
    if len(names) != 2:
        ck.error(("names",), "two player names")
        names = ["Alice", "Bob"]
    sub = ck.mapping(doc.get("submit", {}), ("submit",), optional=("min", "max")) or {}
    smin = ck.integer(sub.get("min", 1), ("submit", "min"), 1) or 1
    smax = ck.integer(sub.get("max", 3), ("submit", "max"), 1) or 3
    rounds = ck.integer(doc.get("rounds", 3), ("rounds",), 1) or 3
    to_win = ck.integer(doc.get("to_win", 2), ("to_win",), 1) or 2
    decide = str(doc.get("after_last_round", DECIDE[0]))
    if decide not in DECIDE:
        ck.error(("after_last_round",), f"{decide!r}: one of {', '.join(DECIDE)}")
    variants = ck.mapping(doc["variants"], ("variants",), required=("dealer", "dealerless")) or {}
    dealer = ck.mapping(variants.get("dealer", {}), ("variants", "dealer"), optional=("doc",)) or {}
    p = ("variants", "dealerless")
    dl = (
        ck.mapping(
            variants.get("dealerless", {}),
            p,
            required=("dummies", "per_round", "protocol", "bundle"),
            optional=("doc",),
        )
        or {}
    )
    dummies = ck.integer(dl.get("dummies", 2), p + ("dummies",), 0) or 0
    per_round = ck.integer(dl.get("per_round", 3), p + ("per_round",), 1) or 3
    bundle = ck.integer(dl.get("bundle", 8), p + ("bundle",), 2) or 8
    if values and bundle <= max(values):
        ck.error(p + ("bundle",), f"a bundle of {bundle} cards cannot hold the value {max(values)}")
    if (dummies + len(values)) < per_round * rounds:
        ck.error(p + ("per_round",), "a hand runs out before the last round")
    bk = ck.mapping(doc.get("booklet", {}), ("booklet",), optional=("how_to_play",)) or {}
    how = [str(x) for x in ck.listing(bk.get("how_to_play", []), ("booklet", "how_to_play")) or []]
    fields = game_fields(ck, doc, name, src.file)
    check_name(ck, name, expected_name)
    return SealedBidRules(
        players=(2, 2, 2),
        names=names,
        values=values,
        submit=(smin, smax),
        rounds=rounds,
        to_win=to_win,
        after_last_round=decide,
        dealer_doc=str(dealer.get("doc", "")),
        dealerless_doc=str(dl.get("doc", "")),
        dummies=dummies,
        per_round=per_round,
        round_protocol=str(dl.get("protocol", "")),
        bundle=bundle,
        how_to_play=how,
        **fields,
    )
