"""``kitgen solve``: the models of "UNO is hard" (Demaine et al.), solved exactly."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import TypeVar

import click

from reference_engine.api import (
    parse_cards,
    solve_cooperative,
    solve_solitaire,
    solve_uncooperative,
)

from .. import runspec
from . import options

F = TypeVar("F", bound=Callable[..., object])


def _emit(data: Mapping[str, object], lines: list[str], as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    for line in lines:
        click.echo(line)


@click.group("solve")
def solve_cmd() -> None:
    """Solve the card games of "UNO is hard, even for a single player" (Demaine et al., TCS 2014).

    A card is a colour and a number, written colour/number (1/3); two cards match when they agree
    in colour or in number. `solitaire`: can one player play every card, each matching the one
    before? `cooperative`: can two players together make player 1 empty their hand first?
    `uncooperative`: who loses when both play to win?
    """


@solve_cmd.command("solitaire")
@options.declared_all(runspec.SOLITAIRE)
def solitaire_cmd(cards_text: str, method: str, time_limit: float, as_json: bool) -> None:
    """SOLITAIRE UNO (UNO-1): can every card be played in one chain, each card matching the one
    before it in colour or number? Exact (NP-complete in general, Theorem 4; polynomial for few
    colours or few numbers, Theorem 5); prints a chain when there is one."""
    cards = parse_cards(cards_text, "--cards")
    result = solve_solitaire(cards, method, time_limit)
    colours = len({c.colour for c in cards})
    numbers = len({c.number for c in cards})
    size = (
        f"{len(cards)} cards, {colours} colour{'s' * (colours != 1)}, {numbers} number{'s' * (numbers != 1)}"
    )
    head = (
        f"{size}: "
        f"{'playable' if result.playable else 'NOT playable'} "
        f"({result.method}, {result.seconds:.3f} s, effort {result.effort:,})"
    )
    lines = [head]
    if result.sequence is not None:
        lines.append("chain: " + " ".join(str(c) for c in result.sequence))
    elif result.reason is not None:
        lines.append("why: " + result.reason.text())
    else:
        lines.append("why: no short reason; the exhaustive search found no chain")
    _emit(result.to_json(), lines, as_json)


@solve_cmd.command("cooperative")
@options.declared_all(runspec.COOPERATIVE)
def cooperative_cmd(hand1: str, hand2: str, time_limit: float, as_json: bool) -> None:
    """COOPERATIVE UNO-2 (Theorem 1): can both players together make player 1 empty their hand
    first? Player 1 plays any card first, then they alternate; each card matches the previous
    one; a player who cannot play skips (and must play when they can)."""
    result = solve_cooperative(parse_cards(hand1, "--hand1"), parse_cards(hand2, "--hand2"), time_limit)
    lines = [
        f"player 1 {'can' if result.player1_can_win else 'cannot'} win "
        f"(search, {result.seconds:.3f} s, effort {result.effort:,})"
    ]
    if result.sequence is not None:
        moves = [f"P{p}:{c if c is not None else 'skip'}" for p, c in result.sequence]
        lines.append("moves: " + " ".join(moves))
    _emit(result.to_json(), lines, as_json)


@solve_cmd.command("uncooperative")
@options.declared_all(runspec.UNCOOPERATIVE)
def uncooperative_cmd(hand1: str, hand2: str, method: str, time_limit: float, as_json: bool) -> None:
    """UNCOOPERATIVE UNO-2 (Theorem 7): who loses when both play to win? Player 1 plays any card
    first, then they alternate, each card matching the previous one; the player to move who
    cannot play (an empty hand included) loses."""
    result = solve_uncooperative(
        parse_cards(hand1, "--hand1"), parse_cards(hand2, "--hand2"), method, time_limit
    )
    lines = [f"player {result.loser} loses ({result.method}, {result.seconds:.3f} s)"]
    if result.first_card is not None:
        others = [str(c) for c in result.winning_first_cards]
        lines.append(
            f"player 1 wins by starting with {result.first_card} (winning first cards: {' '.join(others)})"
        )
    if result.strategy:
        who = "player 1 answers" if result.loser == 2 else "player 2 answers"
        pairs = ", ".join(
            f"{b} with {a}" if result.loser == 2 else f"{a} with {b}" for a, b in result.strategy
        )
        lines.append(f"strategy: {who} {pairs}")
    _emit(result.to_json(), lines, as_json)
