"""How long a protocol run takes at a real table: a schedule of counted actions.

The counts come from the engine's trace of a real run (every depth: a called protocol's
actions count too): cards laid out, moved, turned over, moved by a rearrangement, envelopes
filled (one per pile of a shuffle of piles), shuffles, and cards put back. A step's ``table:``
hint says how the table does its card work (cards kept in sleeves, slid into or out of a
sleeve, sleeves mixed like a deck) and changes which action a card costs, never how many cards
there are.

Wall-clock time is a schedule, not a sum: the people at the table (the human players; a virtual
player does nothing) share each step's card work, one column or pile each at a time, and a
shuffle stops everyone while the piles are mixed. Mixing more piles takes longer. A step marked
``during: N`` is done by whoever is free while step N runs. The seconds per action and the
mixing figures are estimates kept in ``templates/table_time.yaml`` (said wherever a figure is
printed, in words, not as a file name on a player's page).

The estimates are :mod:`kitgen.cost.timemodel`; counting a run's actions from its trace is
:mod:`kitgen.cost.tablework`; this module schedules the counted work and says it in words.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from reference_engine.api import Event

from ..core.durations import about_range
from ..lang.catalogue import N_, _, number
from .tablework import Hints, RunWork, action_counts, no_hints, run_work
from .timemodel import TimeModel, time_model, time_models
from .timewords import counts_sentence, run_words

# --------------------------------------------------------------------------- the schedule


@dataclass
class StepTime:
    """One step of a run (a loop round of a called protocol counts as its own step)."""

    label: str
    work: float  # person-seconds of card work
    lanes: int  # the most people who share it
    mixing: float  # seconds everyone spends mixing
    seconds: float = 0.0  # wall-clock
    during: str | None = None  # the top-level step this one runs beside
    depth: int = 0  # 0: a step of the protocol itself; more: of a protocol it calls
    top: str | None = None  # the top-level step it belongs to


def _step_label(e: Event) -> str:
    where = "/".join(e.call_path[1:] + [e.protocol]) if e.call_path else e.protocol
    loop = ",".join(f"{k}={v}" for k, v in sorted(e.loop.items()))
    return f"{where} step {e.step}" + (f" [{loop}]" if loop else "")


def schedule(
    events: Iterable[Event] | RunWork,
    people: int,
    model: TimeModel | None = None,
    hints: Hints = no_hints,
    raw: bool = False,
) -> list[StepTime]:
    """Every step's wall-clock seconds with ``people`` sharing the work (see the module docs);
    ``raw``: before the steps marked ``during`` are fitted beside the step they name. ``events``
    may be the run's :class:`~kitgen.cost.tablework.RunWork` (its work counted once, with its own
    hints, for several models)."""
    model = model or time_model()
    people = max(1, people)
    steps: list[StepTime] = []
    top = None
    for e, hint, works in run_work(events, hints).events:
        label = _step_label(e)
        if e.depth == 0:
            top = e.step
        if not steps or steps[-1].label != label:
            during = hint.get("during") if e.depth == 0 else None
            steps.append(StepTime(label, 0.0, 1, 0.0, during=during, depth=e.depth, top=top))
        st = steps[-1]
        for w in works:
            if w.piles:
                st.mixing += model.mix_seconds(w.piles, people)
            else:
                share = min(people, w.lanes)
                st.work += w.count * model.seconds[w.action]
                st.seconds += w.count * model.seconds[w.action] / model.speedup(share)
                st.lanes = max(st.lanes, share)
    for st in steps:
        st.seconds += st.mixing
    return steps if raw else absorb(steps, people, model)


def absorb(steps: list[StepTime], people: int, model: TimeModel | None = None) -> list[StepTime]:
    """Fit each step marked ``during: N`` into the idle hands while step N (and what it calls)
    runs: everyone not working on it, outside the mixing that stops the whole table (idle hands
    work at the model's parallel efficiency when more than one of them shares the work)."""
    model = model or time_model()
    people = max(1, people)
    out = []
    for st in steps:
        if st.during is None:
            out.append(st)
            continue
        beside = [s for s in steps if s.top == st.during and s.during is None]
        idle = sum(
            model.speedup(people - s.lanes) * (s.seconds - s.mixing) for s in beside if people > s.lanes
        )
        left = max(0.0, st.work - idle)
        seconds = left / model.speedup(min(people, max(1, st.lanes))) + st.mixing
        out.append(StepTime(st.label, st.work, st.lanes, st.mixing, seconds, st.during, st.depth, st.top))
    return out


@dataclass(frozen=True)
class TableTime:
    counts: dict[str, int]
    seconds: float  # wall-clock with ``people`` at work
    work: float  # person-seconds of card work (everything but mixing), shared by the people
    mixing: float  # seconds the whole table spends mixing
    people: int
    source: str
    cautious: float | None = None  # wall-clock under the cautious profile (None: the model in force)

    @property
    def minutes(self) -> int:
        """Whole minutes, rounded up (never promise less than the model says)."""
        return max(1, -(-int(self.seconds) // 60))

    def sentence(self) -> str:
        return counts_sentence(self.counts)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "counts": dict(self.counts),
            "seconds": round(self.seconds, 1),
            "minutes": self.minutes,
            "work_seconds": round(self.work, 1),
            "mixing_seconds": round(self.mixing, 1),
            "people": self.people,
            "source": self.source,
        }
        if self.cautious is not None:
            out["seconds_cautious"] = round(self.cautious, 1)
        return out


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def table_time(
    events: Iterable[Event] | RunWork,
    people: int = 1,
    hints: Hints = no_hints,
    model: TimeModel | None = None,
) -> TableTime:
    """The estimated time of the run whose trace is ``events``, ``people`` sharing the work, under
    ``model`` (default: the one in force, and beside it the cautious profile of its file)."""
    work = run_work(events, hints)  # counted once for both profiles and the counts
    cautious = None
    if model is None:
        model = time_model()
        other = next((m for m in time_models() if m.profile == "cautious" and m != model), None)
        if other is not None:
            cautious = sum(s.seconds for s in schedule(work, people, other))
    counts = action_counts(work)
    steps = schedule(work, people, model)
    return TableTime(
        dict(counts),
        sum(s.seconds for s in steps),
        sum(s.work for s in steps),
        sum(s.mixing for s in steps),
        max(1, people),
        model.source,
        cautious,
    )


def cards_in_play(example_params: Mapping[str, int | Sequence[int]]) -> int:
    """k: the cards on the table in a card selection run (the sum of the owners' sizes)."""
    sizes = example_params.get("sizes", ())
    return sizes if isinstance(sizes, int) else sum(int(n) for n in sizes)


def minutes_text(minutes: int | float, cautious: float | None = None) -> str:
    """ "about 8 minutes", or with the cautious figure "about 8-11 minutes" (hours over 90)."""
    return about_range(minutes, cautious)


def people_text(people: int) -> str:
    return _("one person") if people == 1 else _("{n} people sharing the work").format(n=number(people))


ESTIMATE = N_(
    "These minutes are kitgen's estimate: the actions are counted from the engine's run of the "
    "protocol; the seconds each action takes are our own round figures, not measured at a table "
    "(the printing guide lists them). A range goes from quick shuffles and perfect teamwork to "
    "slower shuffles, unshared mixing and people at 70 % of perfect speed."
)


def run_sentence(time: TableTime) -> str:
    """What one run of the worked example costs at the table, for a protocol's section."""
    cautious = None if time.cautious is None else time.cautious / 60
    when = minutes_text(time.seconds / 60, cautious)
    return run_words(when, people_text(time.people), time.sentence(), _(ESTIMATE))


__all__ = [
    "ESTIMATE",
    "StepTime",
    "TableTime",
    "absorb",
    "cards_in_play",
    "minutes_text",
    "run_sentence",
    "schedule",
    "table_time",
]
