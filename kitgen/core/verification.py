"""Verifying what a kit or booklet teaches, before anything is printed.

A kit or booklet is only written when every protocol in it passes exact verification;
otherwise :class:`VerificationFailed` names the protocol and the failing check, and the
command exits 1 without writing a file.

Reports are kept in a :class:`~kitgen.cache.VerificationCache` so that rebuilding a kit
(another paper, another label sheet) does not verify the same specs again; an entry is used
only after it has been checked (see :mod:`kitgen.core.cache`). A fresh report is also passed
through the same JSON form, so kits built with and without the cache are identical.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import TypedDict

from reference_engine.api import (
    DaskBackend,
    DeckClaim,
    Forecast,
    JSONObject,
    Library,
    Params,
    Protocol,
    ReductionRefused,
    Report,
    ReportSummary,
    Reveal,
    UsageError,
    VerificationFailed,
    Weights,
    check_protocol,
    deck_claim,
    deck_refusal,
    forecast,
    is_game,
    parse_params,
    reveals_from,
    verify,
    verify_hands,
    verify_runs,
)
from reference_engine.api import report as report_progress

from .cache import CACHE_ENV as CACHE_ENV  # (re-exported: where the cache was)
from .cache import Record, Request, from_record, record
from .cache import VerificationCache as VerificationCache
from .cache import default_cache_dir as default_cache_dir


class KitHand(TypedDict):
    """A hand size of a kit's whole-deck claim: as the engine's, without the seconds (which
    are not the same from one run to the next), the deals as text (JSON readers keep big
    integers only as text)."""

    hand: int | None
    sizes: list[int]
    verified: bool
    failed: list[str]
    deals: str
    class_deals: int | None
    cards: int | None


class WholeDeckClaim(TypedDict):
    """A kit's claim "exact on the whole deck for hands up to N", at its game and table."""

    protocol: str | None
    table: str
    method: str
    exact_hands_up_to: int
    hands: list[KitHand]
    game: str
    players: int


def protocols_to_verify(library: Library, name: str) -> list[str]:
    """The protocol and everything it calls, callees first. A callee that seats people and that
    its caller maps (``hands:`` or ``players:`` on the call) is verified in the caller's context
    only: the caller's exact run follows each of those people into it (docs/verification.md);
    alone, its people would be nobody in particular."""
    seen: list[str] = []

    def visit(n: str) -> None:
        proto = library.protocol(n)
        for call in proto.calls():
            if (call.hands or call.players) and library.protocol(call.protocol).people():
                continue
            if call.protocol not in seen:
                visit(call.protocol)
        if n not in seen:
            seen.append(n)

    visit(name)
    return seen


def _refuse(name: str, report: Report, what: str) -> VerificationFailed:
    failing = report.check(report.failed()[0]) if report.failed() else None
    figure = f": {failing.figure}" if failing else ""
    return VerificationFailed(
        f"the spec {name} fails verification (check {', '.join(report.failed()) or '?'}{figure}); "
        f"no {what} is written. Run `kitgen verify {name}` for details."
    )


def _reported(
    library: Library, request: Request, cache: VerificationCache | None, make: Callable[[], Report]
) -> Report:
    """A cached report for ``request``, or ``make()``'s report in the same JSON form."""
    key = cache.key(library, request) if cache is not None else ""
    if cache is not None:
        found = cache.load(key, request)
        if found is not None:
            return found
    # The report as an entry keeps it, read back as a stored one would be (tuples as lists).
    fresh: Record = json.loads(json.dumps(record(make()), ensure_ascii=False))
    if cache is not None and from_record(fresh).ok:
        cache.store(key, fresh)
    return from_record(fresh)


def report_for(
    library: Library,
    proto: Protocol,
    params: Params | None,
    scenario: str | None,
    record_reveals: bool,
    cache: VerificationCache | None,
    workers: int = 1,
) -> Report:
    """The exact verification report of ``proto`` (from the cache when it holds one), passed or
    not; with ``record_reveals`` it keeps every possible reveal (for the booklet's checks)."""
    request: Request = {
        "method": "exact",
        "protocol": proto.name,
        "reveals": record_reveals,
        "scenario": scenario,
    }
    if params:
        request["params"] = {k: list(v) if isinstance(v, tuple) else v for k, v in sorted(params.items())}
    return _reported(
        library,
        request,
        cache,
        lambda: verify(
            library, proto, params, scenario=scenario, record_reveals=record_reveals, workers=workers
        ),
    )


def verify_protocols(
    library: Library,
    names: list[str],
    what: str = "kit",
    reveals_of: str | None = None,
    cache: VerificationCache | None = None,
    game: str | None = None,
    workers: int = 1,
) -> list[Report]:
    """Exact verification of each protocol; the first failure stops everything.

    The run of ``reveals_of`` also records every possible reveal (for the booklet's checks). A
    game protocol is verified in its first scenario of ``game`` (the kit's game), or its first.
    """
    reports = []
    for name in names:
        proto = library.protocol(name)
        scenario = next((s.name for s in proto.scenarios.values() if s.game == game), None)
        report = report_for(library, proto, None, scenario, name == reveals_of, cache, workers)
        if not report.ok:
            raise _refuse(name, report, what)
        reports.append(report)
    return reports


def verify_statistically(
    library: Library,
    name: str,
    runs: int,
    seed: int,
    what: str = "kit",
    cache: VerificationCache | None = None,
    game: str | None = None,
    weights: Weights | None = None,
) -> Report:
    """Statistical verification of a game protocol on the full deck of ``game`` (default: the
    game of the protocol's first scenario; see ``kitgen verify --runs``); ``weights``: a weighted
    virtual player's (the weighted selection protocol's), default its scenario's."""
    proto = library.protocol(name)
    request: Request = {
        "method": "statistical",
        "protocol": name,
        "runs": runs,
        "seed": seed,
        "game": game,
    }
    if weights is not None:
        request["weights"] = weights.text()
    report = _reported(
        library, request, cache, lambda: verify_runs(library, proto, runs, seed, game, weights=weights)
    )
    if not report.ok:
        raise _refuse(name, report, what)
    return report


def summary(report: Report) -> ReportSummary:
    """A report as kits and booklets keep it: everything but the timings (outputs must not change)."""
    return report.summary()


def forecast_named(
    name: str, params: tuple[str, ...] | list[str] = (), deck: str | None = None, force: bool = False
) -> Forecast:
    """What `kitgen verify --estimate` does: measure smaller sizes, extrapolate to this one
    (each measured size within verify's limits)."""
    library = Library()
    proto = library.protocol(name)
    return forecast(
        library,
        proto,
        parse_params(params),
        deck,
        allowed=lambda given: check_protocol(proto, given, force, "verify", deck, library),
    )


def default_workers() -> int:
    """The cores this process may use (``--workers``' default)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def verify_named(
    name: str,
    params: tuple[str, ...] | list[str] = (),
    *,
    deck: str | None = None,
    runs: int | None = None,
    seed: int = 0,
    force: bool = False,
    workers: int = 1,
    scheduler: str | None = None,
    max_memory: int | None = None,
) -> Report:
    """What `kitgen verify` does: exact verification of a protocol by name or path (in a
    scenario of its game with ``deck``), or statistical on the full deck with ``runs``.
    An exact verification runs in ``workers`` processes, or on the Dask ``scheduler``, in at
    most ``max_memory`` bytes (default: what the machine has)."""
    library = Library()
    proto = library.protocol(name)
    if runs is not None:
        if deck is not None or params:
            raise UsageError("--runs verifies on the full deck: it cannot be combined with --deck or --param")
        if not proto.context:
            raise UsageError(f"--runs is for game protocols (card selection); verify {proto.name} exactly")
        return verify_runs(library, proto, runs, seed)
    given = parse_params(params)
    check_protocol(proto, given, force, "verify", deck, library)
    if scheduler is not None:
        backend = DaskBackend.connect(scheduler)
        return verify(
            library, proto, given, deck, workers=backend.threads(), backend=backend, max_memory=max_memory
        )
    return verify(library, proto, given, deck, workers=workers, max_memory=max_memory)


def check_kit_sizes(library: Library, names: list[str], game: str | None) -> None:
    """A kit verifies its protocols in a scenario of its game: refuse sizes past verify's limits
    before anything runs (a kit has no --force: its protocols are the game's)."""
    for name in names:
        proto = library.protocol(name)
        scenario = next((s.name for s in proto.scenarios.values() if s.game == game), None)
        check_protocol(proto, None, False, "verify", scenario, library)


def verify_whole_deck(
    name: str,
    hands: list[int],
    game: str | None = None,
    players: int | None = None,
    state: JSONObject | None = None,
    workers: int = 1,
    each: Callable[[int, Report], None] | None = None,
    cache: VerificationCache | None = None,
    max_memory: int | None = None,
) -> tuple[list[Report], DeckClaim]:
    """What `kitgen verify NAME --hand ...` does: exact verification on the game's whole deck,
    one report per hand size, and the claim they support (see ``deck_claim``). With ``cache``,
    a hand verified before with the same engine, specs and table is read from it (what a kit's
    cover and validation page can use: "exact for hands up to N", as measured)."""
    library = Library()
    proto = library.protocol(name)
    reports = []
    for i, hand in enumerate(hands):
        report_progress(f"verifying {proto.name} on the whole deck", i, len(hands), f"hand {hand}")
        request: Request = {
            "method": "exact-whole-deck",
            "protocol": proto.name,
            "game": game,
            "players": players,
            "hand": hand,
            "state": state,
        }

        def make(hand: int = hand) -> Report:
            return verify_hands(library, proto, [hand], game, players, state, workers, max_memory=max_memory)[
                0
            ]

        report = _reported(library, request, cache, make)
        reports.append(report)
        if each is not None:
            each(hand, report)
    return reports, deck_claim(reports)


def whole_deck_claim(
    protocol: str,
    game: str,
    players: int,
    hands: int,
    workers: int = 1,
    cache: VerificationCache | None = None,
) -> WholeDeckClaim:
    """A kit's claim "exact on the whole deck for hands up to ``hands``": ``protocol`` verified
    exactly on ``game``'s whole deck with ``players`` players, P_1 holding 1, 2, ..., ``hands``
    cards (:func:`verify_whole_deck`, reports cached). A hand that fails refuses the kit, like
    any failed verification. The claim as data (``deck_claim``), without the seconds, which are
    not the same from one run to the next (the pages print the same bytes for the same inputs)."""
    try:
        reports, claim = verify_whole_deck(
            protocol, list(range(1, hands + 1)), game=game, players=players, workers=workers, cache=cache
        )
    except ReductionRefused as exc:
        raise UsageError(
            f"--exact-hands: the kit teaches {protocol}, which the whole-deck verification cannot "
            f"take: {exc.message}"
        ) from exc
    for r in reports:
        if not r.ok:
            raise _refuse(protocol, r, "kit")
    rows: list[KitHand] = [
        {
            "hand": row["hand"],
            "sizes": row["sizes"],
            "verified": row["verified"],
            "failed": row["failed"],
            "deals": str(row["deals"]),
            "class_deals": row["class_deals"],
            "cards": row["cards"],
        }
        for row in claim["hands"]
    ]
    return {
        "protocol": claim["protocol"],
        "table": claim["table"],
        "method": claim["method"],
        "exact_hands_up_to": claim["exact_hands_up_to"],
        "hands": rows,
        "game": game,
        "players": players,
    }


def whole_deck_offered(protocol: str, game: str, players: int) -> bool:
    """Whether ``kitgen build --exact-hands N`` could verify this kit's protocol on the whole deck
    (its static preconditions hold and the game deals a whole table): then a kit built without
    it says where the exact check is. Cheap (no verification runs)."""
    library = Library()
    return deck_refusal(library, library.protocol(protocol), game, players) is None


def check_booklet_sizes(name: str, force: bool) -> None:
    """A protocol booklet verifies the protocol and what it calls with their spec's parameters,
    and runs its worked example: refuse sizes past the limits before anything runs."""
    if is_game(name):
        return  # a rule set: its protocols are the built-in ones
    library = Library()
    proto = library.protocol(name)
    for each in protocols_to_verify(library, proto.name):
        check_protocol(library.protocol(each), None, force, "verify", None, library)
    example = proto.booklet
    check_protocol(
        proto, example.example_params or None, force, "simulate", example.example_scenario, library
    )


def booklet_reveals(library: Library, reports: list[Report]) -> dict[tuple[str, str], Reveal] | None:
    """The possible reveals the verification of the taught protocol recorded, characterised (what
    the booklet's checks at every reveal are made from)."""
    recorded = next((r.reveals for r in reports if r.reveals is not None), None)
    return reveals_from(library, recorded) if recorded is not None else None
