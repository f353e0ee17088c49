"""A protocol run's table work, counted from the engine's trace (every depth: a called
protocol's actions count too): cards laid out, moved, turned over, moved by a
rearrangement, envelopes filled, shuffles and cards put back (:func:`action_counts`), and
each event's work with how many people can share it (:class:`Work`, :func:`event_work`).
A step's ``table:`` hint (cards kept in sleeves, slid into or out of a sleeve, sleeves
mixed like a deck; :func:`spec_hints`) changes which action a card costs, never how many
cards there are.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from reference_engine.api import Event, Protocol, RegionJSON, Snapshot

from .timemodel import ACTIONS

SLOT = re.compile(r"^(\w+)\[(\d+)(?:,\s*(\d+))?\]$")


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


# A traced run names the same few hundred slots thousands of times and shares one snapshot
# between consecutive events: what :func:`_columns` and :func:`_where` read of a slot's text
# and of a snapshot's regions is worked out once (a table-time figure counts the work of every
# event of hundreds of runs). Both tables are plain memos of pure functions of their keys.
_SLOT_MEMO: dict[str, tuple[str, str, str | None] | None] = {}
_PLACE_MEMO: dict[str, tuple[str, int, int] | None] = {}
# A snapshot's regions by name (the first of a name, as a search in order finds it) and their
# rows (the last of a name, as a dict built in order keeps it), by the snapshot's id. An entry
# holds its snapshot, so no other object takes that id while the entry lives; snapshots are
# plain data nothing changes (reference_engine.trace), and run_work starts each run afresh.
_SNAP_MEMO: dict[int, tuple[Snapshot, dict[str, RegionJSON], dict[str, int]]] = {}
_MEMO_BOUND = 1 << 14  # entries of each memo before it starts afresh


def _slot_groups(slot: str) -> tuple[str, str, str | None] | None:
    """``SLOT.match(slot.strip()).groups()``, or None where it does not match."""
    try:
        return _SLOT_MEMO[slot]
    except KeyError:
        pass
    m = SLOT.match(slot.strip())
    found = None if m is None else (m.group(1), m.group(2), m.group(3))
    if len(_SLOT_MEMO) >= _MEMO_BOUND:
        _SLOT_MEMO.clear()
    _SLOT_MEMO[slot] = found
    return found


def _regions(snap: Snapshot) -> tuple[Snapshot, dict[str, RegionJSON], dict[str, int]]:
    """``snap``'s regions by name (the first of each name) and rows by name (the last's)."""
    hit = _SNAP_MEMO.get(id(snap))
    if hit is not None and hit[0] is snap:
        return hit
    first: dict[str, RegionJSON] = {}
    rows: dict[str, int] = {}
    for r in snap.regions:
        first.setdefault(r["name"], r)
        rows[r["name"]] = r["rows"]
    if len(_SNAP_MEMO) >= _MEMO_BOUND:
        _SNAP_MEMO.clear()
    made = (snap, first, rows)
    _SNAP_MEMO[id(snap)] = made
    return made


def _columns(slots: Iterable[str], e: Event) -> int:
    """How many independent places ``slots`` lie in: the columns of a matrix; a place of one row
    (a row of six cards for an AND, a token) is one pile, handled by one person."""
    before, after = _regions(e.before)[2], _regions(e.after)[2]  # the after's rows where both
    cols: set[tuple[str, str]] = set()
    for s in slots:
        g = _slot_groups(s)
        if g is None:
            cols.add((s, ""))
            continue
        region, _, col = g
        one_pile = col is None or after.get(region, before.get(region, 1)) <= 1
        cols.add((region, "" if one_pile or col is None else col))
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
    try:
        place = _PLACE_MEMO[slot]
    except KeyError:
        g = _slot_groups(slot)
        place = None if g is None else (g[0], 1, int(g[1])) if g[2] is None else (g[0], int(g[1]), int(g[2]))
        if len(_PLACE_MEMO) >= _MEMO_BOUND:
            _PLACE_MEMO.clear()
        _PLACE_MEMO[slot] = place
    if place is None:
        return slot, 0, 0, "loose"
    name, r, c = place
    reg = _regions(snap)[1].get(name)
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


@dataclass(frozen=True)
class RunWork:
    """A traced run's table work, counted once: every event with its step's hint and its work.
    :func:`~kitgen.cost.tabletime.schedule` (under each time model) and :func:`action_counts`
    read it as they read the events, so a run costed under several models counts its work once."""

    events: tuple[tuple[Event, dict[str, str], tuple[Work, ...]], ...]


def run_work(events: Iterable[Event] | RunWork, hints: Hints = no_hints) -> RunWork:
    """The table work of each event of a run's trace (``hints``: the steps' ``table:`` hints)."""
    if isinstance(events, RunWork):
        return events
    events = list(events)
    _SNAP_MEMO.clear()  # the snapshots of this run only (each run's are new objects)
    try:
        carried = carried_inputs(events)
        out = []
        for e in events:
            hint = hints(e.protocol, e.step)
            out.append((e, hint, tuple(event_work(e, hint, carried))))
    finally:
        _SNAP_MEMO.clear()
    return RunWork(tuple(out))


def action_counts(events: Iterable[Event] | RunWork, hints: Hints = no_hints) -> Counter[str]:
    """How many of each table action a run's trace holds (see the module docs); ``events`` may be
    its :class:`RunWork` (counted with its own hints)."""
    counts: Counter[str] = Counter({a: 0 for a in ACTIONS})
    for _, _, works in run_work(events, hints).events:
        for w in works:
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


__all__ = [
    "RunWork",
    "Work",
    "action_counts",
    "carried_inputs",
    "event_work",
    "no_hints",
    "spec_hints",
]
