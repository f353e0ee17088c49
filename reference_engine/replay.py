"""Replaying a game record: the kind's independent referee, and the engine playing it again.

:func:`replay` checks a record two ways. The kind's referee (``kinds/<kind>/referee.py``)
steps through the events with the rules as written and its own account of every card, and
reports the first rule broken: it catches a wrong engine as well as a changed record. Then,
unless told not to, the engine plays the game again from the record's rule set, settings and
seed, and the record is compared with that game event by event: the first difference is
reported (a card changed, an event dropped, a hidden card swapped all show there). The earlier
of the two findings is the first divergence.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import RecordError, UsageError
from .kinds import PlaySettings, find_kind, is_game
from .records.referee import Finding, Verdict, Walk
from .registry import Library


class RulesGone(UsageError):
    """The rule set file a record names is gone: the game cannot be played again (the referee
    alone can still check the record)."""


@dataclass
class Report:
    """What a replay found: the referee's verdict, the re-run's first difference (None: none,
    or not re-run), and notes (a changed rule set file)."""

    verdict: Verdict
    rerun: Finding | None = None
    reran: bool = False
    notes: list[str] = field(default_factory=list)

    @property
    def findings(self) -> list[Finding]:
        """Every finding, the first divergence first (by event; the referee's first on a tie)."""
        found = [f for f in (self.verdict.finding, self.rerun) if f is not None]
        return sorted(found, key=lambda f: f.event)

    @property
    def ok(self) -> bool:
        return not self.findings

    def to_json(self) -> dict[str, Any]:
        first = self.findings[0] if self.findings else None
        return {
            "ok": self.ok,
            "actions": self.verdict.actions,
            "unit": self.verdict.unit,
            "rules_checked": self.verdict.rules,
            "reran": self.reran,
            "divergence": None if first is None else _finding(first),
            "referee": None if self.verdict.finding is None else _finding(self.verdict.finding),
            "rerun": None if self.rerun is None else _finding(self.rerun),
            "notes": ([self.verdict.note] if self.verdict.note else []) + self.notes,
        }


def _finding(f: Finding) -> dict[str, Any]:
    return {"event": f.event, "where": f.where, "message": f.message}


def replay(record: Mapping[str, Any], library: Library | None = None, rerun: bool = True) -> Report:
    """Check ``record`` (already read and checked against the schema) with its kind's referee
    and, with ``rerun``, against the engine playing the same game again."""
    kind = find_kind(str(record["game"]["kind"]))
    if not kind.records:
        raise RecordError(f"games of the {kind.name} kind write no record")
    report = Report(kind.referee(record))
    if rerun:
        report.reran = True
        report.rerun = _rerun(record, library or Library(), report.notes)
    return report


def _rerun(record: Mapping[str, Any], library: Library, notes: list[str]) -> Finding | None:
    from .games import record_game
    from .records.document import digest

    game = record["game"]
    source = str(game["source"])
    if not is_game(source):
        path = Path(source)
        if not path.is_file():
            raise RulesGone(f"cannot play the game again: its rule set file {source} is gone")
        path_now = path
    else:
        from .kinds import rules_path

        path_now = rules_path(source)
    if digest(path_now) != game["sha256"]:
        notes.append(f"the rule set {source} has changed since the record was written")
    s = record["settings"]
    settings = PlaySettings(
        players=s["players"],
        virtual=s["virtual"],
        level=s["level"],
        seed=s["seed"],
        protocol=s["protocol"],
        options=dict(s["options"]),
        engine=s["engine"],
    )
    _, fresh = record_game(source, library, settings)
    return difference(record, fresh)


HOW = ("engine_used", "fallback_reason")  # a result's keys about how its runs were computed


def difference(record: Mapping[str, Any], fresh: Mapping[str, Any]) -> Finding | None:
    """The first place where ``record`` differs from ``fresh`` (the engine's own record of the
    same game): the header, then event by event, then the cards named and the result."""
    for key in ("game", "settings", "seats"):
        a, b = record.get(key), fresh.get(key)
        if key == "game" and isinstance(a, dict) and isinstance(b, dict):  # a changed file is a note
            a, b = ({k: v for k, v in d.items() if k != "sha256"} for d in (a, b))
        found = _diff(a, b, key)
        if found is not None:
            return Finding(0, "the header", found)
    events, again = list(record["events"]), list(fresh["events"])
    walk = Walk(fresh)
    for i in range(max(len(events), len(again))):
        if i >= len(events):
            where = walk.describe(again[i])
            return Finding(
                len(events), "the end", f"the record ends here; the game goes on with event {i + 1}, {where}"
            )
        if i >= len(again):
            return Finding(events[i]["n"], walk.describe(events[i]), "the game has ended before this event")
        found = _diff(events[i], again[i], "")
        if found is not None:
            return Finding(events[i]["n"], walk.describe(again[i]), found)
    for key in ("cards", "result"):
        a, b = record.get(key), fresh.get(key)
        if key == "result" and isinstance(a, dict) and isinstance(b, dict):
            # Which engine computed the runs says how, not what: the game is the same either way.
            a, b = ({k: v for k, v in d.items() if k not in HOW} for d in (a, b))
        found = _diff(a, b, key)
        if found is not None:
            return Finding(len(events), "the end", found)
    return None


def _diff(a: Any, b: Any, path: str) -> str | None:
    """The first difference between two JSON values, as ``path: the record has A, the game B``."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            sub = f"{path}.{k}" if path else str(k)
            if k not in b:
                return f"{sub}: the record has {_short(a[k])}, the game has no such entry"
            if k not in a:
                return f"{sub}: the record has no such entry, the game has {_short(b[k])}"
            found = _diff(a[k], b[k], sub)
            if found is not None:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            found = _diff(x, y, f"{path}[{i}]")
            if found is not None:
                return found
        if len(a) != len(b):
            return f"{path}: the record has {len(a)} entries, the game {len(b)}"
        return None
    if a != b or type(a) is not type(b):
        return f"{path}: the record has {_short(a)}, the game {_short(b)}"
    return None


def _short(value: Any) -> str:
    import json

    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else text[:77] + "..."
