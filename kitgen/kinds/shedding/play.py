"""How ``kitgen play`` reports a shedding game."""

from __future__ import annotations

from reference_engine.api import SheddingResult

from ..table import outcome_lines


def game_lines(result: SheddingResult, names: list[str], title: str) -> list[str]:
    """A readable log of a played game (``kitgen play``)."""
    seats = ", ".join(names)
    level = "card level (every virtual turn runs the protocol)" if result.level == "card" else "rule level"
    lines = [f"{title}: {result.players} players ({seats}), {level}, seed {result.seed}"]
    for h, (summary, log) in enumerate(zip(result.hand_results, result.log), 1):
        lines.append("")
        lines.append(f"Hand {h}")
        for t in log:
            who = names[t["seat"] - 1]
            action = t.get("action", "play")
            if action == "skipped":
                text = f"is skipped ({t.get('note', '')})"
            elif action == "pass":
                text = "cannot play or draw, passes"
            elif action == "draw":
                text = f"draws {t.get('drew', 1)}"
            else:
                text = ("draws and plays " if action == "draw-play" else "plays ") + str(t.get("card"))
                if t.get("color"):
                    text += f", names {t['color']}"
            if t.get("runs"):
                text += f"   [protocol runs: {t['runs']}, checks passed]"
            if t.get("note") and action != "skipped":
                text += f"   ({t['note']})"
            lines.append(f"  {t['index']:>3}. {who}: {text}")
        lines.append(
            f"  {names[summary['winner'] - 1]} wins the hand ({summary['reason']}, "
            f"{summary['points']} points in the other hands)."
        )
    lines.append("")
    if result.scores:
        lines.append("Scores: " + ", ".join(f"{n} {s}" for n, s in zip(names, result.scores)))
    return lines + outcome_lines(result)
