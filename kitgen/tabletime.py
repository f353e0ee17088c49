"""How long a protocol run takes at a real table: counted actions times assumed seconds.

The counts come from the engine's trace of a real run (every depth: a called protocol's
actions count too): cards laid out, cards moved, cards turned over, cards moved by a
rearrangement, envelopes filled (one per pile of a pile-scramble or pile-shifting shuffle),
shuffles, and cards put back. The seconds per action are an estimate kept in
``templates/table_time.yaml`` (stated as such wherever the figure is printed).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from reference_engine.api import Checker, Event, load_file

from .templates import templates_dir

ACTIONS = ("place", "move", "turn", "rearrange", "envelope", "shuffle", "return")


@dataclass(frozen=True)
class TimeModel:
    seconds: dict[str, float]
    source: str


@lru_cache(maxsize=1)
def time_model() -> TimeModel:
    """The seconds per action of ``templates/table_time.yaml``."""
    return load_time_model(templates_dir() / "table_time.yaml")


def load_time_model(path: Path) -> TimeModel:
    """A table-time model file; a missing or bad number is a spec error naming file, line and key."""
    src = load_file(path)
    ck = Checker(src)
    doc = ck.mapping(src.data, (), required=("seconds", "source")) or {}
    table = ck.table(doc.get("seconds", {}), ("seconds",))
    seconds: dict[str, float] = {}
    for key in ACTIONS:
        value = table.get(key)
        if not isinstance(value, int | float) or isinstance(value, bool) or value < 0:
            ck.error(
                ("seconds", key), f"a number of seconds (0 or more) for every action: {', '.join(ACTIONS)}"
            )
        else:
            seconds[key] = float(value)
    for key in table:
        if key not in ACTIONS:
            ck.error(("seconds", key), f"unknown action {key!r}; the actions are {', '.join(ACTIONS)}")
    ck.raise_if_any()
    return TimeModel(seconds, str(doc.get("source", "")))


def _slots(detail: dict[str, Any], key: str) -> int:
    value = detail.get(key, [])
    return len(value) if isinstance(value, list) else 0


def action_counts(events: Iterable[Event]) -> Counter[str]:
    """How many of each table action a run's trace holds (see the module docs)."""
    counts: Counter[str] = Counter({a: 0 for a in ACTIONS})
    for e in events:
        d = e.detail
        if e.action == "place":
            counts["place"] += sum(_slots(t, "to") for t in d.get("targets", []))
        elif e.action in ("move", "swap"):
            counts["move"] += sum(_slots(m, "from") for m in d.get("moves", [])) or 2
        elif e.action == "take":
            rows = max((r["rows"] for r in e.before.regions if r["name"] == d.get("from")), default=1)
            counts["move"] += rows * len(d.get("columns", []))
        elif e.action == "turn":
            counts["turn"] += _slots(d, "cards")
        elif e.action == "rearrange":
            counts["rearrange"] += len(d.get("moves", []))
        elif e.action == "shuffle":
            counts["shuffle"] += 1
            piles = d.get("piles", [])
            if any(len(p) > 1 for p in piles):
                counts["envelope"] += len(piles)
        elif e.action == "discard":
            counts["return"] += _slots(d, "cards")
        elif e.action == "return" and e.depth == 0:
            counts["return"] += sum(_slots(m, "from") for m in d.get("moves", []))
    return counts


@dataclass(frozen=True)
class TableTime:
    counts: dict[str, int]
    seconds: float
    source: str

    @property
    def minutes(self) -> int:
        """Whole minutes, rounded up (never promise less than the model says)."""
        return max(1, -(-int(self.seconds) // 60))

    def sentence(self) -> str:
        c = self.counts
        return (
            f"{c['place']} cards laid out, {c['move']} moved, {c['turn']} turned over, "
            f"{c['envelope']} envelopes filled, {c['shuffle']} shuffles"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "counts": dict(self.counts),
            "seconds": round(self.seconds, 1),
            "minutes": self.minutes,
            "source": self.source,
        }


def table_time(events: Iterable[Event]) -> TableTime:
    """The estimated time of the run whose trace is ``events``."""
    model = time_model()
    counts = action_counts(events)
    seconds = sum(counts[a] * model.seconds[a] for a in ACTIONS)
    return TableTime(dict(counts), seconds, model.source)


def cards_in_play(example_params: dict[str, Any]) -> int:
    """k: the cards on the table in a card selection run (the sum of the owners' sizes)."""
    sizes = example_params.get("sizes", ())
    return sum(int(n) for n in sizes) if isinstance(sizes, tuple | list) else int(sizes)


def minutes_text(minutes: int) -> str:
    return "about 1 minute" if minutes == 1 else f"about {minutes} minutes"


def run_sentence(time: TableTime) -> str:
    """What one run of the worked example costs at the table, for a protocol's section."""
    return (
        f"At the table, the worked example's run takes {minutes_text(time.minutes)}: {time.sentence()} "
        "(counted from the engine's trace; the seconds per action are an estimate, "
        "templates/table_time.yaml)."
    )


def turn_sentences(turn_times: list[tuple[str, int, TableTime]]) -> list[str]:
    """How long a virtual turn takes, this game first, then the games it is compared with."""
    if not turn_times:
        return []
    _, k, own = turn_times[0]
    out = [
        f"A virtual turn takes {minutes_text(own.minutes)} at this table: one run of the protocol in the "
        f"worked example, with k = {k} cards in play, is {own.sentence()}. A turn in which the virtual "
        "player must draw runs the protocol a second time; later in a game, with fewer cards in play "
        "(k smaller), a run is shorter."
    ]
    for other, k2, t in turn_times[1:]:
        out.append(f"For comparison, {other}: {minutes_text(t.minutes)} (k = {k2} cards in play).")
    out.append(
        "These minutes are kitgen's estimate: the actions are counted from the engine's trace, the "
        "seconds per action are assumed (templates/table_time.yaml), not measured at a table."
    )
    return out
