"""A game protocol verified exactly on a game's whole deck, hand size by hand size.

The table is the kind's (:meth:`~reference_engine.kinds.GameKind.full_deal`): every card in
play at a public state (the top card, the layout, the led suit, the open ends), P_1's hand of
the asked size, the other hands as the game deals them and the draw pile last. The verification
runs by validity classes (:mod:`.classes`) with one table per orbit of scrambled columns
(:mod:`.symmetry`); it is exact (every deal of the physical cards, every shuffle outcome) or
refused with the precondition that fails. :func:`deck_claim` sums the reports up as kits state
them: "exact for hands up to N".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypedDict

from .. import progress
from ..errors import UsageError
from ..registry import Library
from ..report import Report
from ..spec import Protocol
from .classes import Table, freeze_state
from .exact import verify
from .memory import deals_within, machine_limit, per_deal_card, resident
from .partition import Backend
from .setting import table_setting


def default_game(proto: Protocol) -> str:
    """The game of the protocol's first scenario (the game its kits are for)."""
    game = next((s.game for s in proto.scenarios.values()), None)
    if game is None:
        raise UsageError(f"{proto.name} names no game (its scenarios name none): give «game»")
    return game


def default_state(proto: Protocol, game: str) -> dict[str, Any]:
    """The public state of the protocol's scenario for ``game`` (its top card, layout, ...)."""
    for sc in proto.scenarios.values():
        if sc.game == game:
            return dict(sc.state)
    raise UsageError(f"{proto.name} has no scenario for {game} to take a public state from: give «state»")


def whole_table(
    proto: Protocol,
    game: str | None = None,
    players: int | None = None,
    hand: int | None = None,
    state: dict[str, Any] | None = None,
) -> Table:
    """The table of ``game`` (default: the protocol's) with P_1 holding ``hand`` cards (default:
    the game's hand size) among ``players`` (default: the game's)."""
    from ..kinds import find_kind, kind_name, load_game

    game = game or default_game(proto)
    rules = load_game(game)
    lo, hi, usual = getattr(rules, "players", (2, 10, 4))
    n = usual if players is None else players
    if not lo <= n <= hi:
        raise UsageError(f"{game} is played by {lo} to {hi} players, not {n}")
    kind = find_kind(kind_name(game))
    state = state if state is not None else default_state(proto, game)
    size = hand if hand is not None else _usual_hand(rules, n)
    deal = kind.full_deal(rules, n, size, state)
    return Table(game, freeze_state(deal.state), tuple(deal.deck), tuple(deal.sizes), deal.text)


def _usual_hand(rules: Any, players: int) -> int:
    size = getattr(rules, "hand_size_for", None)
    if callable(size):
        return int(size(players))
    if hasattr(rules, "hand_size"):
        return int(rules.hand_size)
    return max(1, len(rules.deck()) // players)


def verify_deck(
    library: Library,
    proto: Protocol,
    game: str | None = None,
    players: int | None = None,
    hand: int | None = None,
    state: dict[str, Any] | None = None,
    workers: int = 1,
    backend: Backend | None = None,
    max_memory: int | None = None,
) -> Report:
    """Exact verification of ``proto`` on a whole table (see the module docs), in at most
    ``max_memory`` bytes (default: what the machine can give; see :mod:`.memory`): a table whose
    forecast is over it is refused before anything is dealt, saying which hands would fit."""
    table = whole_table(proto, game, players, hand, state)

    def advice() -> str:
        return _what_fits(proto, table, game, players, state, max_memory)

    return verify(
        library,
        proto,
        None,
        workers=workers,
        backend=backend,
        table=table,
        max_memory=max_memory,
        advice=advice,
    )


def _what_fits(
    proto: Protocol,
    table: Table,
    game: str | None,
    players: int | None,
    state: dict[str, Any] | None,
    max_memory: int | None,
) -> str:
    """The options that would fit: the largest hand of P_1 whose forecast fits, the statistical
    check, a bigger limit."""
    limit = max_memory if max_memory is not None else machine_limit()
    fits = 0
    for hand in range(table.sizes[0] - 1, 0, -1):
        classes = table_setting(proto, whole_table(proto, game, players, hand, state)).classes
        assert classes is not None
        cap = deals_within(limit, sum(classes.sizes), resident(), per_deal_card(proto.name, hand))
        if classes.count(cap) <= cap:
            fits = hand
            break
    smaller = (
        f"P_1's hand up to {fits} fits («hands» 1..{fits}); " if fits else "No smaller hand of P_1 fits; "
    )
    return (
        smaller + "«runs» N checks the protocol statistically on the whole deck in little memory; "
        "«max_memory» raises the limit (up to what the machine has), or verify it on a bigger machine."
    )


def verify_hands(
    library: Library,
    proto: Protocol,
    hands: Sequence[int],
    game: str | None = None,
    players: int | None = None,
    state: dict[str, Any] | None = None,
    workers: int = 1,
    each: Callable[[int, Report], None] | None = None,
    max_memory: int | None = None,
) -> list[Report]:
    """:func:`verify_deck` for each hand size in turn (``each(hand, report)`` after each)."""
    out = []
    for i, h in enumerate(hands):
        progress.report(f"verifying {proto.name} on the whole deck", i, len(hands), f"hand {h}")
        report = verify_deck(library, proto, game, players, h, state, workers, max_memory=max_memory)
        out.append(report)
        if each is not None:
            each(h, report)
    return out


def deck_refusal(
    library: Library, proto: Protocol, game: str | None = None, players: int | None = None
) -> str | None:
    """Why :func:`verify_deck` cannot take ``proto`` on ``game``'s whole deck, found without
    running it (None: the game deals a whole table for it and the spec passes the static half
    of the reductions' preconditions; the run-time half is checked when it runs). Cheap: what a
    kit uses to say that the exact check on the whole deck is there to be run."""
    from ..errors import ReductionRefused, SpecError
    from .discipline import check_outputs
    from .segments import plan_segments

    try:
        whole_table(proto, game, players, 1)
        check_outputs(proto)
        plan_segments(library, proto)
    except (UsageError, ReductionRefused, SpecError) as exc:
        return exc.format_message()
    return None


class HandClaim(TypedDict):
    """One hand size verified on the whole deck: its verdict, deals and class deals."""

    hand: int | None
    sizes: list[int]
    verified: bool
    failed: list[str]
    deals: int
    class_deals: int | None
    cards: int | None
    seconds: float | None


class DeckClaim(TypedDict):
    """What reports on the whole deck let a kit say (see :func:`deck_claim`)."""

    protocol: str | None
    table: str
    method: str
    exact_hands_up_to: int
    hands: list[HandClaim]


def deck_claim(reports: Sequence[Report]) -> DeckClaim:
    """What the reports let a kit say: the hand sizes verified exactly on the whole deck, and
    ``exact_hands_up_to``, the largest N such that every hand of 1..N was (0 when hand 1 was not
    among them or failed). Per hand: the verdict, the deals, the class deals and the seconds."""
    rows: list[HandClaim] = []
    for r in reports:
        red = r.reduction
        raw = (red["sizes"] if red else None) or r.params.get("sizes", [])
        sizes = list(raw) if isinstance(raw, (list, tuple)) else []
        rows.append(
            {
                "hand": sizes[0] if sizes else None,
                "sizes": sizes,
                "verified": r.ok,
                "failed": r.failed(),
                "deals": red["deals"] if red else r.inputs,
                "class_deals": red["class_deals"] if red else None,
                "cards": red["cards"] if red else None,
                "seconds": r.stats.get("seconds"),
            }
        )
    ok = {row["hand"] for row in rows if row["verified"]}
    n = 0
    while n + 1 in ok:
        n += 1
    table = reports[0].reduction["table"] if reports and reports[0].reduction else ""
    return {
        "protocol": reports[0].protocol if reports else None,
        "table": table,
        "method": "exact",
        "exact_hands_up_to": n,
        "hands": rows,
    }
