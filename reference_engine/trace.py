"""The trace of one run: every action with the table before and after it.

The trace is the contract with the booklet renderer. Each :class:`Event` carries the
spec's step number and sentence, the protocol call path, the action and its details
(which slots moved where, which piles were shuffled, which cards were turned), and two
:class:`Snapshot` s of the table with its grouping (regions as rows x columns, items,
hands, labels). A diagram can be drawn from it without knowing protocol semantics.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict

from .cards import EMPTY, CardJSON
from .jsontypes import JSONValue
from .table import State

Params = dict[str, Any]


class SleeveJSON(TypedDict):
    """How a region's cards lie in sleeves: every column is one sleeve (see sleeves.py)."""

    kind: str  # sleeve or envelope
    side: str  # which side of the sleeves lies up: front or back
    rows: list[int]  # the rows inside, from the solid back to the clear front
    declared: list[int]  # every row a sleeve may hold, in that order (the others lie just below it)
    front: list[int]  # rows whose card faces the clear front
    keeps: list[int]  # rows whose card lives in the sleeve between runs


class RegionJSON(TypedDict):
    """A region of the table at one moment: its shape and its cards (None: an empty place)."""

    name: str
    rows: int
    cols: int
    unit: int
    hand: str | None
    cells: list[list[CardJSON | None]]
    sleeve: NotRequired[SleeveJSON]


class LabelJSON(TypedDict):
    """A label on the table and the places under it, each (region, row, column)."""

    text: str
    slots: list[tuple[str, int, int]]


def inside_cells(reg: RegionJSON) -> set[tuple[int, int]]:
    """(row, column) of every occupied place inside a sleeve of the region."""
    sleeve = reg.get("sleeve")
    if sleeve is None:
        return set()
    cells = reg["cells"]
    return {
        (r, c)
        for r in sleeve["rows"]
        if r <= reg["rows"]
        for c in range(1, reg["cols"] + 1)
        if cells[r - 1][c - 1]
    }


def shown_cells(reg: RegionJSON) -> set[tuple[int, int]]:
    """(row, column) of every place whose card the table could see if face up: a loose place,
    or the frontmost card of a sleeve lying front up that faces the clear front."""
    everything = {(r, c) for r in range(1, reg["rows"] + 1) for c in range(1, reg["cols"] + 1)}
    sleeve = reg.get("sleeve")
    if sleeve is None:
        return everything
    out = everything - inside_cells(reg)
    if sleeve["kind"] != "sleeve" or sleeve["side"] != "front":
        return out
    for c in range(1, reg["cols"] + 1):
        rows = [r for r in sleeve["rows"] if r <= reg["rows"] and reg["cells"][r - 1][c - 1]]
        if rows and rows[-1] in sleeve["front"]:
            out.add((rows[-1], c))
    return out


@dataclass
class Snapshot:
    """The table at one moment, in plain data."""

    regions: list[RegionJSON]
    labels: list[LabelJSON]
    supply_out: dict[str, int]

    @classmethod
    def of(cls, state: State, rows: dict[tuple[int, ...], list[CardJSON | None]] | None = None) -> Snapshot:
        """The table of ``state``. ``rows``: the rows written so far in this run, by their cards'
        codes (a row the same as an earlier one is the same list: nothing changes a snapshot)."""
        from .cards import SYMBOLS

        # Each card as ``Card.from_code(code).to_json()`` writes it, without the Card: a traced
        # run snapshots the table twice per action (most of a table-time figure's work).
        by_id = SYMBOLS.by_id
        table = state.cells
        written = rows if rows is not None else {}
        regions: list[RegionJSON] = []
        for reg in state.layout.regions:
            cells: list[list[CardJSON | None]] = []
            cols = reg.cols
            for r in range(reg.rows):
                start = reg.offset + r * cols
                codes = table[start : start + cols]
                row = written.get(codes)
                if row is None:
                    row = []
                    for code in codes:
                        if code == EMPTY:
                            row.append(None)
                        else:
                            sym = by_id(code >> 1)
                            up = code >= 0 and bool(code & 1)
                            row.append({"symbol": sym.name, "glyph": sym.glyph, "up": up})
                    written[codes] = row
                cells.append(row)
            region: RegionJSON = {
                "name": reg.name,
                "rows": reg.rows,
                "cols": reg.cols,
                "unit": reg.unit,
                "hand": reg.hand,
                "cells": cells,
            }
            if reg.sleeve is not None:
                region["sleeve"] = reg.sleeve.to_json()  # type: ignore[typeddict-item]
            regions.append(region)
        labels: list[LabelJSON] = []
        for lab in state.layout.labels:
            where: list[tuple[str, int, int]] = []
            for f in lab.slots:
                reg = state.layout.owner(f)
                r, c = reg.address(f)
                where.append((reg.name, r, c))
            labels.append({"text": lab.text, "slots": where})
        supply = {SYMBOLS.by_id(sid).name: n for sid, n in state.out if n}
        return cls(regions, labels, supply)

    def to_json(self) -> dict[str, Any]:
        return {"regions": self.regions, "labels": self.labels, "supply_out": self.supply_out}

    def visible_rows(self) -> dict[str, list[list[str]]]:
        """What everyone at the table sees: glyphs of face-up cards, ``?`` for face-down; a card
        a sleeve hides shows ``?`` too (behind another card, or in a sleeve lying back up)."""
        out: dict[str, list[list[str]]] = {}
        for reg in self.regions:
            seen = shown_cells(reg)
            out[reg["name"]] = [
                [
                    "" if c is None else (c["glyph"] if c["up"] and (r, k) in seen else "?")
                    for k, c in enumerate(row, 1)
                ]
                for r, row in enumerate(reg["cells"], 1)
            ]
        return out


@dataclass
class Event:
    index: int
    protocol: str
    call_path: list[str]
    step: str | None
    say: str
    action: str
    detail: dict[str, Any]
    before: Snapshot
    after: Snapshot
    loop: dict[str, JSONValue] = field(default_factory=dict)  # the loop variables (as JSON)

    @property
    def depth(self) -> int:
        return len(self.call_path)

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "protocol": self.protocol,
            "call_path": self.call_path,
            "depth": self.depth,
            "step": self.step,
            "say": self.say,
            "action": self.action,
            "loop": self.loop,
            "detail": self.detail,
            "before": self.before.to_json(),
            "after": self.after.to_json(),
            "visible": self.after.visible_rows(),
        }


@dataclass
class Trace:
    protocol: str
    params: Params
    inputs: dict[str, Any]
    seed: int | None
    events: list[Event] = field(default_factory=list)
    outputs: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "protocol": self.protocol,
            "params": self.params,
            "inputs": self.inputs,
            "seed": self.seed,
            "events": [e.to_json() for e in self.events],
            "outputs": self.outputs,
        }
