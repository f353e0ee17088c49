"""Sealed-bid games (Gakmoro): both players submit cards face down, only the winner is told.

Without a dealer, every round runs the rule set's protocol (bundles in sleeves, secure
additions and a comparison) on the simulated table; a new game of this kind is YAML only.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ...errors import UsageError
from ...records.referee import Verdict
from ...registry import Library
from ..kind import GameKind, GameRules, PlayOption, PlaySettings, register
from .play import STRATEGIES, SealedBidGame, SealedBidResult, choose, plain_winner, submissions
from .rules import KIND, SealedBidRules, load_sealed_bid


@register
class SealedBid(GameKind):
    name = KIND
    summary = "two players bid cards face down; only the winner of each round is announced (Gakmoro)"
    records = True
    play_options = (
        PlayOption(
            "variant",
            "Gakmoro only: without a dealer (bundles and protocols) or with a human dealer.",
            "dealerless",
            ("dealerless", "dealer"),
        ),
        PlayOption(
            "strategy",
            "Gakmoro only: each player's strategy: balanced (an even share of what is left), random, "
            "greedy (the highest total).",
            "balanced,random",
        ),
    )

    def load(self, path: Path, expected_name: str | None) -> GameRules:
        return load_sealed_bid(path, expected_name)

    def play(self, rules: GameRules, library: Library, settings: PlaySettings) -> SealedBidResult:
        if not isinstance(rules, SealedBidRules):
            raise UsageError(f"{rules.name} is not a {KIND} game")
        if "virtual" in settings.given:
            raise UsageError(
                f"«virtual» makes no sense for {rules.name}: it has no virtual players (both players "
                "follow «strategy», and the dealerless variant replaces the dealer with the protocol)"
            )
        if settings.players is not None and settings.players != 2:
            raise UsageError(f"{rules.name} is a game for 2 players, not {settings.players} («players»)")
        opts = settings.options
        variant = str(opts.get("variant") or "dealerless")
        strategies = str(opts.get("strategy") or "balanced,random")
        pair = [s.strip() for s in strategies.split(",")]
        if len(pair) != 2:
            raise UsageError(
                f"«strategy» takes two strategies, one per player, e.g. balanced,random; got {strategies!r}"
            )
        game = SealedBidGame(
            rules,
            library,
            level=settings.level or ("rule" if variant == "dealer" else self.default_level),
            variant=variant,
            seed=settings.seed,
            strategies=(pair[0], pair[1]),
            protocol=settings.protocol,
            recorder=settings.recorder,
        )
        return game.play()

    def referee(self, record: Mapping[str, Any]) -> Verdict:
        from .referee import check

        return check(record)


__all__ = [
    "KIND",
    "STRATEGIES",
    "SealedBid",
    "SealedBidGame",
    "SealedBidRules",
    "choose",
    "load_sealed_bid",
    "plain_winner",
    "submissions",
]
