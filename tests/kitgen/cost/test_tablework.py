"""The memos of kitgen.cost.tablework (a slot's text parsed once, a snapshot's regions by name
found once) give what the plain search gives, on hostile snapshots and slots too."""

from __future__ import annotations

import gc
from typing import Any

from kitgen.cost import tablework
from kitgen.cost.tablework import SLOT, _columns, _where, run_work
from reference_engine.api import Event, Snapshot


def plain_where(snap: Snapshot, slot: str) -> tuple[str, int, int, str]:
    """_where as it was before the memos: the regular expression and a search in order."""
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


def plain_columns(slots: list[str], e: Any) -> int:
    """_columns as it was before the memos: the rows of both snapshots in one dict."""
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


def region(name: str, rows: int, cols: int, sleeve: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name, "rows": rows, "cols": cols, "unit": "", "hand": None, "cells": []}
    if sleeve is not None:
        out["sleeve"] = sleeve
    return out


SLEEVE = {"kind": "sleeve", "rows": [1, 2], "keeps": [1], "side": "front", "front": [2]}
# Hostile: a name twice in one snapshot (the search finds the first, the rows dict keeps the
# last), a region only in one of the two snapshots, the same name with and without a sleeve.
BEFORE = Snapshot([region("M", 2, 5, SLEEVE), region("M", 1, 5), region("hand1", 1, 4)], [], {})
AFTER = Snapshot([region("M", 3, 5), region("T", 1, 2, SLEEVE), region("M", 1, 5, SLEEVE)], [], {})
SLOTS = [
    "M[1, 2]",
    "M[2,2]",
    " M[2, 3] ",
    "M[3, 1]",
    "M[4]",
    "T[1, 1]",
    "T[2]",
    "hand1[3]",
    "nowhere[1, 1]",
    "M",
    "",
    "new:x",
    "M[1, 2",
    "M[01, 2]",
]


def event(before: Snapshot, after: Snapshot) -> Any:
    return Event(0, "p", [], "1", "", "place", {}, before, after, {})


def test_where_and_columns_give_what_the_plain_search_gives() -> None:
    for _ in range(2):  # the second time from the memos
        for snap in (BEFORE, AFTER):
            for slot in SLOTS:
                assert _where(snap, slot) == plain_where(snap, slot), slot
        for e in (event(BEFORE, AFTER), event(AFTER, BEFORE), event(BEFORE, BEFORE)):
            for n in range(len(SLOTS)):
                assert _columns(SLOTS[n:], e) == plain_columns(SLOTS[n:], e), SLOTS[n:]


def test_a_snapshot_made_where_a_freed_one_was_is_read_afresh() -> None:
    """The memo holds its snapshots: a new one never takes the id of one it still knows, and a
    run's work starts with an empty memo."""
    for sleeve in (SLEEVE, None, {**SLEEVE, "keeps": []}):
        snap = Snapshot([region("M", 2, 5, sleeve)], [], {})
        assert _where(snap, "M[1, 1]") == plain_where(snap, "M[1, 1]")
        assert _columns(["M[1, 1]", "M[2, 1]"], event(snap, snap)) == 1
        del snap
        gc.collect()
    run_work([event(BEFORE, AFTER)])
    assert not tablework._SNAP_MEMO


def test_the_memos_start_afresh_at_their_bound(monkeypatch: Any) -> None:
    monkeypatch.setattr(tablework, "_MEMO_BOUND", 3)
    for memo in (tablework._SLOT_MEMO, tablework._PLACE_MEMO):
        memo.clear()  # what earlier runs in this process left would be found, never added again
    fresh = [f"M[{r}, {c}]" for r in range(1, 4) for c in range(1, 7)]  # never asked before
    for _ in range(3):
        for slot in SLOTS + fresh:
            assert _where(BEFORE, slot) == plain_where(BEFORE, slot)
    assert len(tablework._SLOT_MEMO) <= 3 and len(tablework._PLACE_MEMO) <= 3
