"""Sleeves and envelopes: the sleeved specs verify; every way a sleeve could show more than the
protocol's cards (or hide what a decision reads) is refused with the step and the reason.

Each broken variant is one edit of a shipped sleeved spec (docs/specs.md, "Sleeves and
envelopes", lists the rules these break).
"""

from __future__ import annotations

import copy
import os
import pickle
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from reference_engine.api import Library, SimulationError, SpecError, simulate, verify
from reference_engine.sleeves import SIDES, SleeveFrame, sleeve_slots
from reference_engine.table import Region

CS = "card-selection-fast"


def _refused(lib: Library, name: str, scenario: str | None = "mini") -> str:
    """The one-line reason a broken sleeved spec is refused (it must be)."""
    with pytest.raises(SimulationError) as caught:
        verify(lib, lib.protocol(name), scenario=scenario)
    return str(caught.value)


def test_a_sleeved_run_keeps_the_owner_cards_in_their_sleeves(library: Library) -> None:
    run = simulate(library, library.protocol(CS), seed=1, scenario="mini")
    sleeves = [e for e in run.trace.events if e.action == "sleeve" and not e.call_path]
    assert [op["side"] for e in sleeves for op in e.detail["ops"] if "side" in op] == ["front", "back"]
    slid = [op for e in sleeves for op in e.detail["ops"] if "out" in op or "in" in op]
    assert [("out" in op, op.get("out", op.get("in"))) for op in slid] == [(True, [2]), (False, [2])]
    m = next(r for r in run.trace.events[0].after.regions if r["name"] == "M")
    assert m["sleeve"]["rows"] == [2, 1, 4, 3] and m["sleeve"]["keeps"] == [2]
    # Step 12 slides each owner card back in before its card goes home; every sleeve leaves whole.
    last = run.trace.events[-1].after
    assert not any(r["name"] in ("M", "T", "L") for r in last.regions)


@pytest.mark.parametrize("scenario", ["mini", "crazy-eights-mini", "sevens-mini", "dominoes-mini"])
def test_the_sleeved_card_selection_verifies_on_every_scenario(library: Library, scenario: str) -> None:
    report = verify(library, library.protocol(CS), scenario=scenario)
    assert report.ok, report.to_json()["checks"]


def test_a_sleeve_showing_its_owner_card_at_the_front_is_refused(variant: Callable[..., Library]) -> None:
    # The owner card sleeved in front of the card, facing the clear front: lying front up at
    # Step 5, every sleeve shows whose card it is.
    lib = variant(
        CS,
        ("rows: [2, 1, 4, 3]   #", "rows: [1, 2, 4, 3]   #"),
        ("front: [1, 3, 4]     #", "front: [1, 2, 3, 4]  #"),
    )
    reason = _refused(lib, CS)
    assert "step 5" in reason and "lies front up" in reason and "face down" in reason


def test_a_card_read_through_a_sleeve_lying_back_up_is_refused(variant: Callable[..., Library]) -> None:
    # Step 5 without turning the sleeves front up: Step 6 would have to read the cards through
    # their solid backs.
    lib = variant(CS, ('      - turn: "M[1, *]"\n      - sleeve: {M: front}', '      - turn: "M[1, *]"'))
    reason = _refused(lib, CS)
    assert "step 6" in reason and "in a sleeve lying back up" in reason


def test_hiding_the_cards_before_turning_the_sleeves_back_is_refused(variant: Callable[..., Library]) -> None:
    # Step 7 the other way round: for a moment the front-up sleeves show the pairs' first cards,
    # which the protocol has already turned face down.
    lib = variant(
        CS,
        (
            '      - sleeve: {M: back}\n      - turn: "up()"',
            '      - turn: "up()"\n      - sleeve: {M: back}',
        ),
    )
    reason = _refused(lib, CS)
    assert "step 7" in reason and "the table sees it" in reason


def test_a_pair_facing_the_solid_back_would_come_out_face_up(variant: Callable[..., Library]) -> None:
    # The booklet's old wording ("slide β α face down into the front"): the pair faces the solid
    # back, so slid out of a sleeve lying back up, for the lottery, it lands face up.
    lib = variant(
        CS,
        ("front: [1, 3, 4]     #", "front: [1]           #"),
        ("    face: up\n\n  - step: 7", "\n  - step: 7"),
    )
    reason = _refused(lib, CS)
    assert "step 10" in reason and "would come out of its sleeve face up" in reason


def test_an_owner_card_slid_out_must_land_as_it_faced(variant: Callable[..., Library]) -> None:
    # Slid out without the protocol turning it up: it lands face up, the protocol has it face down.
    slide = "      - sleeve: {M: {out: [2]}}"
    lib = variant(CS, ('      - turn: "M[2, *]"\n' + slide, slide))
    reason = _refused(lib, CS)
    assert "step 9" in reason and "lands face up" in reason


def test_an_owner_card_leaves_only_with_its_sleeve(variant: Callable[..., Library]) -> None:
    # Step 12 putting the owner cards away before their cards: the sleeve would stay behind
    # with its card inside and no owner card.
    lib = variant(
        CS,
        (
            '      - return: {cards: "M[1, *]", to: "[family_index(t) for t in M[2, *]]"}\n'
            "      - sleeve: {M: {in: [2]}}\n"
            '      - discard: "M[2, *]"',
            "      - sleeve: {M: {in: [2]}}\n"
            '      - discard: "M[2, *]"\n'
            '      - return: {cards: "M[1, *]", to: 1}',
        ),
    )
    reason = _refused(lib, CS)
    assert "step 12" in reason and "lives in its sleeve" in reason


def test_a_shuffle_mixes_whole_sleeves(variant: Callable[..., Library]) -> None:
    # The second wash with the owner cards already slid out: the loose owner cards cannot be
    # mixed with their sleeves.
    lib = variant(
        CS,
        (
            '    do:\n      - turn: "M[2, *]"\n      - sleeve: {M: {out: [2]}}',
            "    note: done before the wash",
        ),
        (
            "  - step: 8\n",
            '  - step: 7(b)\n    say: "Slide out."\n    do:\n      - turn: "M[2, *]"\n'
            "      - sleeve: {M: {out: [2]}}\n\n  - step: 8\n",
        ),
    )
    reason = _refused(lib, CS)
    assert "step 8" in reason and "whole sleeves" in reason


def test_a_lottery_pair_read_inside_its_sleeve_is_refused(variant: Callable[..., Library]) -> None:
    # The lottery's last step reading the pairs without sliding them out of their sleeves.
    lib = variant(
        "covert-lottery-fast",
        ("      - sleeve: {P: {out: [2, 3]}}\n      - turn", "      - turn"),
    )
    with pytest.raises(SimulationError) as caught:
        verify(lib, lib.protocol("covert-lottery-fast"))
    assert "step 7" in str(caught.value) and "in a sleeve lying back up" in str(caught.value)


def test_envelopes_never_show_what_is_inside(variant: Callable[..., Library]) -> None:
    # The same sleeves made envelopes: turned "front up", an envelope still shows nothing, so
    # Step 6 cannot read the cards.
    lib = variant(CS, ("    keeps: [2]           #", "    keeps: [2]\n    kind: envelope       #"))
    reason = _refused(lib, CS)
    assert "step 6" in reason and "in an envelope" in reason


@pytest.mark.parametrize(
    ("declared", "message"),
    [
        ("{rows: [1, 1]}", "a row lies in its sleeve once"),
        ("{rows: [1], front: [2]}", "row 2 is not one of the sleeve's rows"),
        ("{rows: [1], side: up}", "front or back"),
        ("{rows: [1], kind: bag}", "sleeve or envelope"),
        ("{rows: one}", "a list of row numbers"),
        ("{rows: [1], inside: [1]}", "inside"),
    ],
)
def test_a_bad_sleeves_declaration_is_a_spec_error(
    variant: Callable[..., Library], declared: str, message: str
) -> None:
    lib = variant(CS, ("sleeves:\n  cards:", f"sleeves:\n  X: {declared}\n  cards:"))
    with pytest.raises(SpecError) as caught:
        lib.protocol(CS)
    assert message in str(caught.value) and "sleeves.X" in str(caught.value)


def test_a_bad_sleeve_action_is_a_spec_error(variant: Callable[..., Library]) -> None:
    lib = variant(CS, ("      - sleeve: {M: front}", "      - sleeve: {M: sideways}"))
    with pytest.raises(SpecError) as caught:
        lib.protocol(CS)
    assert "front or back" in str(caught.value)


def test_a_sleeve_action_on_a_region_without_sleeves_is_refused(variant: Callable[..., Library]) -> None:
    move = '      - move: {T: "L[2, *]"}'
    lib = variant(CS, (move, move + "\n      - sleeve: {T: back}"))
    reason = _refused(lib, CS)
    assert "step 10" in reason and "T does not lie in sleeves" in reason


# --------------------------------------------------------------------------- the layout's slots


def _slots_by_definition(regions: list[Region], holes: frozenset[int]) -> tuple[set[int], set[int]]:
    """(inside, shown) straight from the definition: every slot of a row inside is inside; a
    sleeve lying front up shows its frontmost card if that card faces the front."""
    inside: set[int] = set()
    shown: set[int] = set()
    for reg in regions:
        frame = reg.sleeve
        if frame is None:
            continue
        rows = [r for r in frame.rows if r <= reg.rows]
        for c in range(1, reg.cols + 1):
            cards = [(r, reg.slot(r, c)) for r in rows]
            inside.update(f for _, f in cards)
            there = [(r, f) for r, f in cards if f not in holes]
            if there and frame.kind == "sleeve" and frame.side == "front" and there[-1][0] in frame.front:
                shown.add(there[-1][1])
    return inside, shown


def test_the_slots_inside_and_shown_match_their_definition_on_hostile_tables() -> None:
    """Kept per region, patched for empty places: every mix of sleeves, envelopes, sides, rows
    beyond the region, rows not inside, and empty places (none, a few, every one) agrees with
    the definition, for the same region met again with other empty places too."""
    rng = random.Random(37)
    for _ in range(3000):
        regions: list[Region] = []
        offset = 0
        for k in range(rng.randint(0, 4)):
            rows, cols = rng.randint(1, 4), rng.randint(1, 6)
            frame = None
            if rng.random() < 0.75:
                declared = tuple(rng.sample(range(1, 6), rng.randint(1, 5)))
                frame = SleeveFrame(
                    declared,
                    tuple(r for r in declared if rng.random() < 0.7),
                    frozenset(r for r in declared if rng.random() < 0.5),
                    side=rng.choice(SIDES),
                    kind=rng.choice(("sleeve", "sleeve", "envelope")),
                )
            regions.append(Region(f"r{k}", rows, cols, offset, 1, None, frame))
            offset += rows * cols
        for density in (0.0, 0.1, 0.5, 1.0):
            holes = frozenset(f for f in range(offset) if rng.random() < density)
            inside, shown = sleeve_slots(regions, holes)
            assert (set(inside), set(shown)) == _slots_by_definition(regions, holes)


def test_a_region_and_its_sleeves_hash_alike_after_a_pickle_in_another_process(tmp_path: Path) -> None:
    """Regions and frames hash once and keep it; a pickle (machine/store.py writes them to disk)
    carries the fields, never that hash: a string hashes differently in another process."""
    frame = SleeveFrame((1, 2), (1, 2), frozenset({2}), frozenset({1}), "front")
    reg = Region("M", 2, 3, 0, 1, None, frame)
    assert hash(reg) == hash(("M", 2, 3, 0, 1, None, frame)) and hash(copy.deepcopy(reg)) == hash(reg)
    dumped = tmp_path / "region.pickle"
    dumped.write_bytes(pickle.dumps({reg: "kept"}))
    code = (
        "import pickle, sys\n"
        "from reference_engine.sleeves import SleeveFrame\n"
        "from reference_engine.table import Region\n"
        "kept = pickle.loads(open(sys.argv[1], 'rb').read())\n"
        "frame = SleeveFrame((1, 2), (1, 2), frozenset({2}), frozenset({1}), 'front')\n"
        "print(kept[Region('M', 2, 3, 0, 1, None, frame)], {frame: 1}[kept.popitem()[0].sleeve])\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    done = subprocess.run([sys.executable, "-c", code, str(dumped)], capture_output=True, text=True, env=env)
    assert done.stdout.split() == ["kept", "1"], done.stderr


def test_kept_sets_of_slots_stay_bounded_and_right_after_starting_afresh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The rows' slots and their unions are kept by offset, width and rows (regions whose
    sleeves lie otherwise share them) and by the sets joined: with the bound made tiny, the
    table starts afresh all the time and every answer still agrees with the definition."""
    from reference_engine import sleeves

    monkeypatch.setattr(sleeves, "SETS_KEPT", 3)
    monkeypatch.setattr(sleeves, "_SETS", {})
    rng = random.Random(48)
    front = SleeveFrame((1, 2, 3), (1, 2, 3), frozenset({3}), side="front")
    for _ in range(400):
        regions = []
        offset = 0
        for k in range(rng.randint(1, 4)):
            rows, cols = rng.randint(1, 3), rng.randint(1, 5)
            frame = front if rng.random() < 0.5 else front.turned("back").with_rows(rng.sample((1, 2, 3), 2))
            regions.append(Region(f"w48r{k}", rows, cols, offset, 1, None, frame))
            offset += rows * cols
        holes = frozenset(f for f in range(offset) if rng.random() < 0.2)
        inside, shown = sleeve_slots(regions, holes)
        assert (set(inside), set(shown)) == _slots_by_definition(regions, holes)
        assert len(sleeves._SETS) <= 3
    # A region turned over (another frame, the same rows inside) shares its set of slots.
    monkeypatch.setattr(sleeves, "SETS_KEPT", 4096)
    a = Region("w48share", 3, 4, 2, 1, None, front)
    b = Region("w48share", 3, 4, 2, 1, None, front.turned("back"))
    assert sleeve_slots([a], frozenset())[0] is sleeve_slots([b], frozenset())[0]


# --- w48-attack2: a region's kept sleeve slots (Region.sleeve_slots), attacked -----------------


def test_a_regions_kept_slots_never_follow_it_into_a_copy_with_other_fields() -> None:
    """The slots kept on a region are worked out from its fields: a region made from it with
    another frame, offset or shape (dataclasses.replace), a copy, a deep copy and a pickle each
    answer by the definition, and equality and hashing ignore what was kept."""
    import dataclasses

    front = SleeveFrame((1, 2, 3), (1, 2, 3), frozenset({1, 3}), frozenset({2}), side="front")
    reg = Region("w48kept", 3, 4, 5, 1, None, front)
    fresh = Region("w48kept", 3, 4, 5, 1, None, front)
    sleeve_slots([reg], frozenset())
    assert reg.sleeve_slots is not None and fresh.sleeve_slots is None
    assert reg == fresh and hash(reg) == hash(fresh)
    others = [
        dataclasses.replace(reg, sleeve=front.turned("back")),
        dataclasses.replace(reg, sleeve=front.with_rows((1, 3))),
        dataclasses.replace(reg, sleeve=dataclasses.replace(front, front=frozenset({1}))),
        dataclasses.replace(reg, offset=0),
        dataclasses.replace(reg, rows=2),
        dataclasses.replace(reg, cols=2),
        copy.copy(reg),
        copy.deepcopy(reg),
        pickle.loads(pickle.dumps(reg)),
    ]
    for other in others:
        for holes in (frozenset(), frozenset({5, 6}), frozenset(range(13, 17))):
            inside, shown = sleeve_slots([other], holes)
            assert (set(inside), set(shown)) == _slots_by_definition([other], holes), other
        assert (other == reg) == (hash(other) == hash(reg) and other.sleeve_slots == reg.sleeve_slots)


def test_regions_alike_but_for_their_sleeves_share_nothing_wrong() -> None:
    """Regions of equal offset, width and rows whose sleeves differ (front or back up, which rows
    face the front, which are inside, what they keep), met in every order and alongside each
    other: each answer is the definition's."""
    frames = [
        SleeveFrame((2, 1, 3), (2, 1, 3), frozenset({1, 3}), frozenset({2}), side=side)
        for side in ("front", "back")
    ]
    frames += [f.with_rows((2, 1)) for f in frames] + [f.with_rows((1,)) for f in frames]
    frames.append(SleeveFrame((2, 1, 3), (2, 1, 3), frozenset(), side="front"))
    frames.append(SleeveFrame((2, 1, 3), (2, 1, 3), frozenset({1, 3}), side="front", kind="envelope"))
    rng = random.Random(4802)
    for _ in range(300):
        picked = rng.sample(frames, rng.randint(1, 3))
        regions, offset = [], 0
        for k, frame in enumerate(picked):
            regions.append(Region(f"w48alike{k}", 3, 3, offset, 1, None, frame))
            offset += 9
        # The same offsets again, each region alone, in another order.
        for regs in (regions, *([r] for r in reversed(regions))):
            holes = frozenset(f for f in range(offset) if rng.random() < 0.3)
            inside, shown = sleeve_slots(regs, holes)
            assert (set(inside), set(shown)) == _slots_by_definition(regs, holes)
