"""How ``kitgen play`` reports a sealed-bid game."""

from __future__ import annotations

from reference_engine.api import SealedBidResult, glyph


def sealed_bid_lines(result: SealedBidResult, title: str) -> list[str]:
    """A readable log of a Gakmoro game (``kitgen play gakmoro``)."""
    names = result.players
    level = (
        "card level (every round runs the dealerless protocol)"
        if result.level == "card"
        else f"rule level ({result.variant})"
    )
    strategies = ", ".join(f"{n}: {s}" for n, s in result.strategies.items())
    lines = [f"{title}: {' vs '.join(names)}, {level}, seed {result.seed} ({strategies})"]
    for r in result.rounds:
        secret = "; ".join(
            f"{n} {'+'.join(str(v) for v in r['submitted'][n])} = {r['totals'][n]}" for n in names
        )
        line = f"  round {r['round']}: {r['announced']}   (secret: {secret})"
        if r["checks"]:
            calls = ", ".join(f"{k} {v}" for k, v in r["calls"].items())
            line += (
                f"\n      {r['checks']} checks passed; {r['shuffles']} shuffles; cards per call: {calls}; "
                + (f"table {r['table'][0]} x {r['table'][1]}")
            )
        lines.append(line)
    wins = ", ".join(f"{n} {w}" for n, w in result.round_wins.items())
    outcome = "a draw" if result.winner == "draw" else f"{result.winner} wins the game"
    lines.append(f"Round wins: {wins}; {outcome}.")
    if result.level == "card":
        loose = ", ".join(f"{n} {glyph(k)}" for k, n in result.loose_cards_needed.items())
        lines.append(
            f"{result.protocol_runs} protocol runs, {result.checks_passed} checks passed; loose cards "
            f"needed besides the bundles: {loose} (later rounds reuse the opened cards)."
        )
    return lines
