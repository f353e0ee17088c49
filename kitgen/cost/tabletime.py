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
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TypedDict

from reference_engine.api import Checker, Event, Protocol, Snapshot, UsageError, load_file

from ..core.durations import about_range
from ..core.templates import templates_dir
from ..lang.catalogue import N_, _, number
from .timewords import counts_sentence, run_words

ACTIONS = ("place", "move", "turn", "rearrange", "envelope", "shuffle", "return")
SLOT = re.compile(r"^(\w+)\[(\d+)(?:,\s*(\d+))?\]$")


PROFILES = ("optimistic", "cautious")


@dataclass(frozen=True)
class TimeModel:
    """Seconds per action, how mixing grows with the piles, how well people share work, and a
    person's ordinary turn. ``profile`` names the set of figures (``optimistic``: the shipped
    round figures; ``cautious``: slower shuffles, mixing not shared, imperfect teamwork)."""

    seconds: dict[str, float]
    source: str
    mix_piles: int = 8  # one person mixes this many piles in ``seconds["shuffle"]``
    mix_per_pile: float = 1.0  # each further pile adds this much mixing
    ordinary_turn: float = 10.0  # a person's own turn in a game (look, play or draw)
    mix_shared: bool = True  # the per-pile mixing is divided among the people mixing
    parallel: float = 1.0  # people sharing card work reach this fraction of perfect speed-up
    profile: str = "optimistic"

    def mix_seconds(self, piles: int, people: int) -> float:
        """Mixing ``piles`` envelopes or sleeves thoroughly, everyone at the table mixing."""
        share = max(1, people) if self.mix_shared else 1
        extra = max(0, piles - self.mix_piles) * self.mix_per_pile / share
        return self.seconds["shuffle"] + extra

    def speedup(self, sharing: int) -> float:
        """How much faster ``sharing`` people do some card work than one person alone: ``sharing``
        times the parallel efficiency, and never slower than one person."""
        return max(1.0, sharing * self.parallel) if sharing > 1 else 1.0


_MODEL: ContextVar[TimeModel | None] = ContextVar("kitgen_time_model", default=None)


def time_model(profile: str | None = None) -> TimeModel:
    """The estimates in force: a user's file (``--table-time``, see :func:`using_model`), else
    those of ``templates/table_time.yaml``; ``profile`` picks one of the file's profiles
    (default: the one in force, first of all the file's base figures, ``optimistic``)."""
    if profile is None:
        return _MODEL.get() or _shipped_models()[0]
    models = _MODELS.get() or _shipped_models()
    for model in models:
        if model.profile == profile:
            return model
    raise KeyError(profile)


def time_models() -> tuple[TimeModel, ...]:
    """Every profile of the model file in force: the optimistic base first, then each of its
    ``profiles:`` (``cautious`` in ours)."""
    return _MODELS.get() or _shipped_models()


_MODELS: ContextVar[tuple[TimeModel, ...] | None] = ContextVar("kitgen_time_models", default=None)


@lru_cache(maxsize=1)
def _shipped_models() -> tuple[TimeModel, ...]:
    return load_time_models(templates_dir() / "table_time.yaml")


@contextmanager
def using_model(path: str | Path | None, profile: str | None = None) -> Iterator[TimeModel]:
    """Within the block, every figure uses the seconds of the model file ``path`` (none: ours),
    the profile ``profile`` of it (none: its base figures)."""
    models = load_time_models(Path(path)) if path else _shipped_models()
    chosen = models[0] if profile is None else next((m for m in models if m.profile == profile), None)
    if chosen is None:
        known = ", ".join(m.profile for m in models)
        raise UsageError(f"{path or 'table_time.yaml'}: no profile {profile!r}; it has {known}")
    token = _MODEL.set(chosen)
    tokens = _MODELS.set(models)
    try:
        yield chosen
    finally:
        _MODELS.reset(tokens)
        _MODEL.reset(token)


def load_time_model(path: Path) -> TimeModel:
    """The base (optimistic) figures of a table-time model file (see :func:`load_time_models`)."""
    return load_time_models(path)[0]


_KEYS = ("seconds", "mixing", "ordinary_turn", "parallel")


def load_time_models(path: Path) -> tuple[TimeModel, ...]:
    """A table-time model file: its base figures, then each profile of ``profiles:`` (a profile
    gives only what differs from the base). A missing or bad number is a spec error naming file,
    line and key."""
    src = load_file(path)
    ck = Checker(src)
    doc = ck.mapping(src.data, (), required=("seconds", "source"), optional=(*_KEYS[1:], "profiles")) or {}
    base = _model(ck, doc, (), str(doc.get("source", "")), None)
    models = [base]
    profiles = ck.table(doc.get("profiles", {}), ("profiles",))
    for name, body in profiles.items():
        if name not in PROFILES:
            ck.error(
                ("profiles", name), f"unknown profile {name!r}; the profiles are {', '.join(PROFILES[1:])}"
            )
            continue
        part = ck.mapping(body, ("profiles", name), optional=("source", *_KEYS)) or {}
        if base is not None:
            models.append(_model(ck, part, ("profiles", name), str(part.get("source", base.source)), base))
    ck.raise_if_any()
    assert all(m is not None for m in models)
    return tuple(m for m in models if m is not None)


def _model(
    ck: Checker, doc: Mapping[str, object], at: tuple[str, ...], source: str, base: TimeModel | None
) -> TimeModel | None:
    """One profile's figures; ``base`` gives every figure the profile leaves out."""
    table = ck.table(doc.get("seconds", {}), (*at, "seconds"))
    seconds: dict[str, float] = dict(base.seconds) if base else {}
    for key in ACTIONS:
        if base is not None and key not in table:
            continue
        what = f"every action: {', '.join(ACTIONS)}"
        value = _number(ck, table.get(key), (*at, "seconds", key), what)
        if value is not None:
            seconds[key] = value
    for key in table:
        if key not in ACTIONS:
            ck.error((*at, "seconds", key), f"unknown action {key!r}; the actions are {', '.join(ACTIONS)}")
    mixing = (
        ck.mapping(doc.get("mixing", {}), (*at, "mixing"), optional=("piles", "per_pile", "shared")) or {}
    )
    piles = _number(
        ck,
        mixing.get("piles", base.mix_piles if base else 8),
        (*at, "mixing", "piles"),
        "the piles one person mixes",
    )
    per_pile = _number(
        ck,
        mixing.get("per_pile", base.mix_per_pile if base else 1.0),
        (*at, "mixing", "per_pile"),
        "seconds per further pile",
    )
    shared = mixing.get("shared", base.mix_shared if base else True)
    if not isinstance(shared, bool):
        ck.error(
            (*at, "mixing", "shared"),
            "true or false: whether the per-pile mixing is divided among the people",
        )
        shared = True
    turn = _number(
        ck,
        doc.get("ordinary_turn", base.ordinary_turn if base else 10.0),
        (*at, "ordinary_turn"),
        "seconds of a person's own turn",
    )
    parallel = doc.get("parallel", base.parallel if base else 1.0)
    if not (isinstance(parallel, int | float) and not isinstance(parallel, bool) and 0 < parallel <= 1):
        ck.error(
            (*at, "parallel"),
            "a fraction above 0 and at most 1: how close people sharing work come to perfect speed-up",
        )
        parallel = 1.0
    if piles is None or per_pile is None or turn is None or len(seconds) < len(ACTIONS):
        return None
    profile = at[-1] if at else "optimistic"
    return TimeModel(seconds, source, int(piles), per_pile, turn, shared, float(parallel), profile)


def _number(ck: Checker, value: object, path: tuple[str, ...], what: str) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value < 1e6:
        return float(value)
    ck.error(path, f"a number of seconds (0 or more) for {what}")
    return None


# --------------------------------------------------------------------------- counting


@dataclass(frozen=True)
class Work:
    """Some of a step's table work: ``count`` actions spread over ``lanes`` columns or piles
    (people can share it up to one per lane), or mixing ``piles`` piles (everyone at once)."""

    action: str
    count: int
    lanes: int = 1
    piles: int = 0  # > 0: mixing this many piles (the whole table)


Hints = Callable[[str, str | None], dict[str, str]]


def no_hints(protocol: str, step: str | None) -> dict[str, str]:
    return {}


def _columns(slots: Iterable[str], e: Event) -> int:
    """How many independent places ``slots`` lie in: the columns of a matrix; a place of one row
    (a row of six cards for an AND, a token) is one pile, handled by one person."""
    rows = {r["name"]: r["rows"] for snap in (e.before, e.after) for r in snap.regions}
    cols: set[tuple[str, str]] = set()
    for s in slots:
        m = SLOT.match(s.strip())
        if m is None:
            cols.add((s, ""))
            continue
        region, _, col = m.groups()
        one_pile = col is None or rows.get(region, 1) <= 1
        cols.add((region, "" if one_pile else col))
    return max(1, len(cols))


def _slots(detail: Mapping[str, object], key: str) -> list[str]:
    value = detail.get(key, [])
    return [str(v) for v in value] if isinstance(value, list) else []


def event_work(e: Event, hint: dict[str, str], carried: frozenset[str] = frozenset()) -> list[Work]:
    """What one traced action asks of the table. A step's ``table:`` hint, where it names the
    action, says how; otherwise the sleeves in the trace do (sleeves.py): a sleeve turned over is
    one turn, a card slid into or out of a sleeve one move, a whole sleeve laid down or handed back
    one place or return, a card turned inside its sleeve nothing (its sleeve shows it), a wash of
    sleeves only the mixing (they stay spread where they lie), an owner card that lives in its
    sleeve nothing. ``carried``: the regions of called protocols whose cards lie in the caller's
    sleeves (see :func:`carried_inputs`)."""
    how = hint.get(e.action, hint.get("all", ""))
    if how == "kept":
        return []
    if how:
        return _hinted(e, how)
    return _sleeved(e, carried)


def _hinted(e: Event, how: str) -> list[Work]:
    """The work of an action under a ``table:`` hint (specs written before sleeves were known)."""
    d, act = e.detail, e.action
    if act == "place":
        slots = [s for t in d.get("targets", []) for s in _slots(t, "to")]
        return [Work("move" if how == "slide" else "place", len(slots), _columns(slots, e))]
    if act == "take":
        columns = len(d.get("columns", []))
        rows = max((r["rows"] for r in e.before.regions if r["name"] == d.get("from")), default=1)
        return [Work("move", columns if how == "sleeves" else rows * columns, max(1, columns))]
    if act in ("turn", "rotate"):
        # Slid out of a sleeve and laid face up (or turned round and slid back): one move instead
        # of a turn. A half turn of a card where it lies costs what turning it over does.
        slots = _slots(d, "cards")
        return [Work("move" if how == "slide" else "turn", len(slots), _columns(slots, e))]
    if act == "shuffle":
        piles = d.get("piles", [])
        out = [Work("shuffle", 1, piles=len(piles))]
        if d.get("kind") == "spin":
            return out  # mats turned round where they lie: nothing to put in envelopes or deal
        if how == "sleeves":
            out.append(Work("place", len(piles), len(piles)))  # deal the mixed sleeves out again
        elif any(len(p) > 1 for p in piles):
            out.append(Work("envelope", len(piles), len(piles)))
        return out
    if act == "discard":
        slots = _slots(d, "cards")
        return [Work("move" if how == "slide" else "return", len(slots), _columns(slots, e))]
    return _sleeved(e, frozenset())


def _where(snap: Snapshot, slot: str) -> tuple[str, int, int, str]:
    """(region, row, column, how it lies): ``in`` a sleeve, ``kept`` in a sleeve that keeps it
    (an owner card), or ``loose``."""
    m = SLOT.match(slot.strip())
    if m is None:
        return slot, 0, 0, "loose"
    name, a, b = m.groups()
    r, c = (1, int(a)) if b is None else (int(a), int(b))
    reg = next((x for x in snap.regions if x["name"] == name), None)
    sleeve = reg.get("sleeve") if reg is not None else None
    if sleeve is None or r not in sleeve["rows"]:
        return name, r, c, "loose"
    return name, r, c, "kept" if r in sleeve["keeps"] else "in"


def _sleeved(e: Event, carried: frozenset[str]) -> list[Work]:
    """The work of an action from the sleeves the trace carries."""
    d, act = e.detail, e.action
    inner = f"{len(e.call_path)}:"  # a called protocol's own regions, by depth

    def lies(snap: Snapshot, slot: str) -> tuple[str, int, int, str]:
        name, r, c, how = _where(snap, slot)
        if how == "loose" and inner + name in carried:
            how = "carried"  # a called protocol's input, still in the caller's sleeve
        return name, r, c, how

    if act == "sleeve":
        out = []
        for op in d.get("ops", []):
            if op.get("turned"):
                out.append(Work("turn", int(op["turned"]), int(op["turned"])))
            if op.get("cards"):
                out.append(Work("move", len(op["cards"]), int(op.get("sleeves", 1))))
        return out
    if act in ("place", "move"):
        pairs: list[tuple[str, str]] = []
        for t in d.get("targets" if act == "place" else "moves", []):
            pairs.extend(zip(_slots(t, "from") or [""] * len(_slots(t, "to")), _slots(t, "to")))
        return _moves(e, pairs, lies, "place" if act == "place" else "move")
    if act == "swap":
        slots = _slots(d, "a") + _slots(d, "b")
        return [Work("move", len(slots) or 2, _columns(slots, e))]
    if act == "take":
        columns = len(d.get("columns", []))
        reg = next((r for r in e.before.regions if r["name"] == d.get("from")), None)
        if reg is not None and reg.get("sleeve") is not None:
            return [Work("move", columns, max(1, columns))]  # whole sleeves taken out
        rows = reg["rows"] if reg is not None else 1
        return [Work("move", rows * columns, max(1, columns))]
    if act == "turn":
        slots = [s for s in _slots(d, "cards") if lies(e.before, s)[3] == "loose"]
        return [Work("turn", len(slots), _columns(slots, e))] if slots else []
    if act == "rotate":  # a half turn of a card where it lies costs what turning it over does
        slots = _slots(d, "cards")
        return [Work("turn", len(slots), _columns(slots, e))] if slots else []
    if act == "rearrange":
        return [Work("rearrange", len(d.get("moves", [])))]
    if act == "shuffle":
        piles = d.get("piles", [])
        n = len(piles)
        out = [Work("shuffle", 1, piles=n)]
        if d.get("kind") == "spin":
            return out  # mats turned round where they lie: nothing to put in envelopes or deal
        sleeved = piles and all(lies(e.before, p[0])[3] != "loose" for p in piles if p)
        if not sleeved and any(len(p) > 1 for p in piles):
            out.append(Work("envelope", n, n))
        return out  # a wash of sleeves leaves them spread where they lie: nothing to deal out
    if act == "discard":
        where = [(s, lies(e.before, s)[3]) for s in _slots(d, "cards")]
        slid = [s for s, how in where if how in ("in", "carried")]
        loose = [s for s, how in where if how == "loose"]
        out = []
        if slid:
            out.append(Work("move", len(slid), _columns(slid, e)))  # slid out onto the spares
        if loose:
            out.append(Work("return", len(loose), _columns(loose, e)))
        return out  # an owner card kept in its sleeve goes home with it: nothing to do
    if act == "return" and e.depth == 0:
        slots = [s for m in d.get("moves", []) for s in _slots(m, "from")]
        return [Work("return", len(slots), _columns(slots, e))]
    return []


def _moves(
    e: Event,
    pairs: list[tuple[str, str]],
    lies: Callable[[Snapshot, str], tuple[str, int, int, str]],
    loose: str,
) -> list[Work]:
    """Cards placed or moved: a whole sleeve laid down is one place; a card slid into or out of a
    sleeve one move; a card laid from place to place ``loose`` (a place, or a move)."""
    sleeves: dict[tuple[str, int], set[tuple[str, int]]] = {}
    work: Counter[str] = Counter()
    slots: dict[str, list[str]] = {}
    for src, dst in pairs:
        to = lies(e.after, dst)
        if src.startswith("new:") or not src:
            kind = "move" if to[3] != "loose" else "place"
        else:
            frm = lies(e.before, src)
            if frm[3] == "carried" and to[3] != "loose":
                continue  # the caller's sleeve is this protocol's pile: nothing to do
            if frm[3] != "loose" and to[3] != "loose":
                sleeves.setdefault((frm[0], frm[2]), set()).add((to[0], to[2]))
                continue
            kind = loose if frm[3] == to[3] == "loose" else "move"
        work[kind] += 1
        slots.setdefault(kind, []).append(dst)
    out = [Work(k, n, _columns(slots[k], e)) for k, n in work.items()]
    whole = [s for s, dest in sleeves.items() if len(dest) == 1]
    split = sum(1 for s, dest in sleeves.items() if len(dest) > 1)
    if whole:
        out.append(Work("place", len(whole), len(whole)))  # a sleeve laid down where it goes
    if split:
        out.append(Work("move", split, split))
    return out


def carried_inputs(events: Iterable[Event]) -> frozenset[str]:
    """The input regions of called protocols whose cards all came from inside the caller's
    sleeves (``depth:region``): their cards are still in those sleeves, the callee's piles."""
    out: set[str] = set()
    for e in events:
        if e.action != "call":
            continue
        for name, slots in e.detail.get("args", {}).items():
            if slots and all(_where(e.before, s)[3] != "loose" for s in slots):
                out.add(f"{len(e.call_path) + 1}:{name}")
    return frozenset(out)


def action_counts(events: Iterable[Event], hints: Hints = no_hints) -> Counter[str]:
    """How many of each table action a run's trace holds (see the module docs)."""
    events = list(events)
    carried = carried_inputs(events)
    counts: Counter[str] = Counter({a: 0 for a in ACTIONS})
    for e in events:
        for w in event_work(e, hints(e.protocol, e.step), carried):
            counts[w.action] += w.count
    return counts


def spec_hints(protocols: Callable[[str], Protocol]) -> Hints:
    """The ``table:`` hints of every step, looked up by protocol name and step number."""
    cache: dict[str, dict[str, dict[str, str]]] = {}

    def hints(protocol: str, step: str | None) -> dict[str, str]:
        if protocol not in cache:
            from reference_engine.api import walk_steps

            proto = protocols(protocol)
            cache[protocol] = {s.number: s.table for s in walk_steps(proto.steps) if s.number is not None}
        return cache[protocol].get(step or "", {})

    return hints


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
    events: Iterable[Event],
    people: int,
    model: TimeModel | None = None,
    hints: Hints = no_hints,
    raw: bool = False,
) -> list[StepTime]:
    """Every step's wall-clock seconds with ``people`` sharing the work (see the module docs);
    ``raw``: before the steps marked ``during`` are fitted beside the step they name."""
    model = model or time_model()
    people = max(1, people)
    steps: list[StepTime] = []
    top = None
    events = list(events)
    carried = carried_inputs(events)
    for e in events:
        label = _step_label(e)
        hint = hints(e.protocol, e.step)
        if e.depth == 0:
            top = e.step
        if not steps or steps[-1].label != label:
            during = hint.get("during") if e.depth == 0 else None
            steps.append(StepTime(label, 0.0, 1, 0.0, during=during, depth=e.depth, top=top))
        st = steps[-1]
        for w in event_work(e, hint, carried):
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
    events: Iterable[Event], people: int = 1, hints: Hints = no_hints, model: TimeModel | None = None
) -> TableTime:
    """The estimated time of the run whose trace is ``events``, ``people`` sharing the work, under
    ``model`` (default: the one in force, and beside it the cautious profile of its file)."""
    events = list(events)
    cautious = None
    if model is None:
        model = time_model()
        other = next((m for m in time_models() if m.profile == "cautious" and m != model), None)
        if other is not None:
            cautious = sum(s.seconds for s in schedule(events, people, other, hints))
    counts = action_counts(events, hints)
    steps = schedule(events, people, model, hints)
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


class MixingJSON(TypedDict):
    piles: int
    per_pile: float
    shared: bool


class TimeModelJSON(TypedDict):
    """The estimates as a manifest or a printing guide keeps them."""

    profile: str
    seconds: dict[str, float]
    mixing: MixingJSON
    ordinary_turn: float
    parallel: float
    source: str


def model_json(model: TimeModel | None = None) -> TimeModelJSON:
    """The estimates themselves, for a manifest or a printing guide."""
    model = model or time_model()
    return {
        "profile": model.profile,
        "seconds": dict(model.seconds),
        "mixing": {"piles": model.mix_piles, "per_pile": model.mix_per_pile, "shared": model.mix_shared},
        "ordinary_turn": model.ordinary_turn,
        "parallel": model.parallel,
        "source": model.source,
    }


__all__ = [
    "ACTIONS",
    "ESTIMATE",
    "PROFILES",
    "StepTime",
    "TableTime",
    "TimeModel",
    "Work",
    "absorb",
    "action_counts",
    "cards_in_play",
    "carried_inputs",
    "event_work",
    "load_time_model",
    "load_time_models",
    "minutes_text",
    "model_json",
    "no_hints",
    "run_sentence",
    "schedule",
    "spec_hints",
    "table_time",
    "time_model",
    "time_models",
    "using_model",
]
