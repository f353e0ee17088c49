"""Hostile mutants of Step 11's drawn case for the tail that starts at the drawn sleeve's owner
card (:meth:`reference_engine.compiled.tails.Tail.drawn`), with tails on (the found case's
attacks in test_fused_tail_attacks.py switch them off): the owner card turned face up, turned
round or slid out of its sleeve in the branch, a card put back in the sleeve's empty place, the
discard after the ``if`` naming a row that is not there or taken twice. Every run is the
interpreter's, run for run, unchecked and with ``evaluate.CHECKED`` (the plan against the
three built one after the other)."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
for folder in (HERE, HERE.parent):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from test_fused import _compare, _library  # noqa: E402
from test_fused_tail import AFTER, ARROW  # noqa: E402

from reference_engine.compiled import evaluate, tails  # noqa: E402

END = '              - discard: "D[3, *]"\n          - discard: "D[2, *]"'
"""The drawn case's last step (its arrow out) and the discard of the owner card after the ``if``."""


def _before_end(step: str) -> tuple[str, str]:
    return END, f"              - {step}\n" + END


# name -> (text replaced, its replacement, whether some tail starts at the owner card)
MUTANTS: dict[str, tuple[str, str, bool]] = {
    "as-written": (END, END, True),
    "owner-card-face-up": (*_before_end('turn: "D[2, *]"'), True),
    "owner-card-turned-round": (*_before_end('rotate: "D[2, *]"'), True),
    "owner-card-out-of-its-sleeve": (*_before_end("sleeve: {D: {out: [2]}}"), True),
    "a-card-back-in-the-empty-place": (*_before_end('place: {"D[1, 1]": "new(down)"}'), False),
    "a-row-not-there": (AFTER, AFTER.replace("D[2, *]", "D[4, *]", 1), False),
    # the owner card's discard twice (the second finds no region): no tail links
    "taken-twice": (
        AFTER,
        AFTER.replace('          - discard: "D[2, *]"\n', '          - discard: "D[2, *]"\n' * 2, 1),
        False,
    ),
    # a step between the ``if`` and the owner card's discard: its table is seen
    "a-step-before-the-owner-card": (AFTER, '          - let: {seen: "len(D)"}\n' + AFTER, False),
}


def _drawn_starts(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    made: Counter[str] = Counter()
    drawn = tails.Tail.drawn

    def counted(self: tails.Tail, run: Any, what: Any) -> bool:
        done = drawn(self, run, what)
        made[str(done)] += 1
        return done

    monkeypatch.setattr(tails.Tail, "drawn", counted)
    return made


@pytest.mark.parametrize("checked", [False, True])
@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_hostile_drawn_cases_run_as_their_steps(
    tmp_path: Path, mutant: str, checked: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    old, new, starts = MUTANTS[mutant]
    assert old in ARROW, "the default protocol changed; update the mutants"
    name = f"arrow-drawn-attack-{mutant}"
    text = ARROW.replace(old, new, 1).replace("protocol: card-selection-arrow", f"protocol: {name}")
    monkeypatch.setattr(evaluate, "CHECKED", checked)
    made = _drawn_starts(monkeypatch)
    _compare(_library(tmp_path, name, text), name, seeds=6)
    assert bool(made["True"]) == starts, (mutant, made)


def _random_layout(rng: Any, n: int) -> Any:
    """A random table: regions with and without sleeves (rows slid out of them, rows kept in
    them, envelopes), hands, regions without slots, and empty places anywhere."""
    from reference_engine.sleeves import SleeveFrame
    from reference_engine.table import Layout

    shapes: list[tuple[Any, ...]] = []
    for i in range(rng.randint(1, 5)):
        name = f"w54kr{n}_{i}"
        kind = rng.choice(["plain", "hand", "sleeved", "sleeved", "empty"])
        if kind == "hand":
            shapes.append((name, 1, rng.randint(1, 5), 1, name))
            continue
        rows, cols = rng.randint(1, 4), rng.randint(1, 4)
        if kind == "empty":
            shapes.append((name, rng.choice([0, rows]), 0 if rng.random() < 0.5 else cols, 1, None))
            continue
        if kind == "plain":
            shapes.append((name, rows, cols, 1, None))
            continue
        declared = list(range(1, rows + rng.randint(0, 2) + 1))
        rng.shuffle(declared)
        inside = tuple(r for r in declared if rng.random() < 0.8) or (declared[0],)
        keeps = frozenset(r for r in declared if rng.random() < 0.4)
        front = frozenset(r for r in declared if rng.random() < 0.5)
        frame = SleeveFrame(tuple(declared), inside, front, keeps, "back", rng.choice(["sleeve", "envelope"]))
        shapes.append((name, rows, cols, 1, None, frame))
    layout = Layout.make(shapes, (), ())
    holes = frozenset(f for f in range(layout.size) if rng.random() < 0.15)
    return Layout.make(shapes, holes, ()) if holes else layout


@pytest.mark.parametrize("seed", range(6))
def test_kept_row_is_kept_whole_on_random_tables(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Attack: on random tables (sleeves keeping random rows, rows slid out, envelopes, hands,
    regions without slots, empty places), kept_row is True exactly for a whole row, as a tuple
    in order, of a region whose sleeves keep no card in that row, and never where kept_whole is
    False; every other stretch, list or reversed row it is handed says False (the general
    check then decides)."""
    import random

    from reference_engine.compiled.plans import kept_whole

    monkeypatch.setattr(evaluate, "CHECKED", True)  # kept_row's own check against kept_whole
    rng = random.Random(5400 + seed)
    for n in range(40):
        layout = _random_layout(rng, n)
        wholes = set()
        for reg in layout.regions:
            for r in range(1, reg.rows + 1):
                a = reg.offset + (r - 1) * reg.cols
                row = tuple(range(a, a + reg.cols))
                if not row:
                    continue
                wholes.add(row)
                kept = reg.sleeve is not None and r in reg.sleeve.keeps
                assert tails.kept_row(layout, row) is (not kept), (layout.regions, row)
                if len(row) > 1:
                    assert not tails.kept_row(layout, row[::-1])
                assert not tails.kept_row(layout, list(row))
        for a in range(-1, layout.size + 1):
            for m in range(0, layout.size - a + 2):
                flats = tuple(range(a, a + m))
                got = tails.kept_row(layout, flats)
                if got:
                    assert flats in wholes and kept_whole(layout, flats), (layout.regions, flats)
