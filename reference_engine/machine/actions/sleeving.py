"""Sleeves at work: the ``sleeve:`` action, and the checks that keep a sleeved table honest.

A sleeve shows at most its frontmost card, and only lying front up (see
:mod:`reference_engine.sleeves`). The protocol's cards are the truth the verifier checks; the
sleeves must never show more than they do. So after every action:

* every card the sleeves show is face up in the protocol (:func:`~..plans.check_shown`);
* a card slid out of a sleeve lands the way it faced: face up if it faced the side lying up,
  and the protocol has it so (:func:`~..plans.check_landings`);
* a decision reads only cards the table can see (``Reader.face`` in :mod:`reference_engine.table`);
* a shuffle mixes whole sleeves (:func:`check_piles`), a card handed to a called protocol
  comes out of its sleeve face down (:func:`check_arguments`), and a card that lives in its
  sleeve (``keeps``) leaves the table only with its sleeve (:func:`check_kept`).

Then the sleeved table's view is a function of the protocol's view, and every verdict holds
for it (docs/specs.md, "Sleeves and envelopes").
"""

from __future__ import annotations

from collections.abc import Sequence

from ... import steps as st
from ...expressions import EvalError
from ...sleeves import SleeveOp, sleeve_cards
from ...table import Layout, State
from ..frame import Evaluator, Frame, _checked
from ..frontier import Frontier
from ..lazypiles import settle
from ..plans import Plan, Resolved
from ..runner import Ctx, Runner, handles


def _sleeve_resolve(run: Runner, frame: Frame, step: st.Sleeve, state: State, ev: Evaluator) -> Resolved:
    return tuple(step.ops)


def _sleeve_build(run: Runner, frame: Frame, step: st.Sleeve, layout: Layout, res: Resolved) -> Plan:
    shapes = []
    done: list[dict[str, object]] = []
    for reg in layout.regions:
        sleeve = reg.sleeve
        for op in res:
            assert isinstance(op, SleeveOp)
            if op.region != reg.name:
                continue
            if sleeve is None:
                raise EvalError(f"{reg.name} does not lie in sleeves (declare it under 'sleeves:')")
            what: dict[str, object] = {"region": reg.name, "sleeves": reg.cols, "kind": sleeve.kind}
            if op.side is not None:
                what["side"] = op.side
                what["turned"] = 0 if op.side == sleeve.side else reg.cols
                sleeve = sleeve.turned(op.side)
            rows = op.out or op.into
            for r in rows:
                if r not in sleeve.declared:
                    raise EvalError(
                        f"row {r} of {reg.name} is not one of its sleeves' rows {list(sleeve.declared)}"
                    )
                if (r in sleeve.rows) == bool(op.into):
                    where = "inside" if op.into else "outside"
                    raise EvalError(f"row {r} of {reg.name} is already {where} its sleeves")
            if op.out:
                what["out"] = list(op.out)
                sleeve = sleeve.with_rows(r for r in sleeve.rows if r not in op.out)
            if op.into:
                what["in"] = list(op.into)
                sleeve = sleeve.with_rows([*sleeve.rows, *op.into])
            if rows:
                what["cards"] = [
                    layout.describe(reg.slot(r, c))
                    for r in rows
                    if r <= reg.rows
                    for c in range(1, reg.cols + 1)
                    if reg.slot(r, c) not in layout.holes
                ]
            done.append(what)
        shapes.append((reg.name, reg.rows, reg.cols, reg.unit, reg.hand, sleeve))
    missing = [op.region for op in res if op.region not in layout.by_name]
    if missing:
        raise EvalError(f"there is no {missing[0]!r} on the table")
    layout2 = Layout.make(shapes, layout.holes, layout.labels)
    return Plan(layout2, tuple(range(layout.size)), (), {}, describe=lambda: {"ops": done})


@handles(st.Sleeve)
def h_sleeve(run: Runner, frame: Frame, step: st.Sleeve, frontier: Frontier, ctx: Ctx) -> Frontier:
    # A card slid out may land face up: the scrambled piles it lies in are drawn first.
    frontier = settle(frontier, lambda state: _sliding(state.layout, step), run.shared.deferred)
    return run._planned(frame, step, frontier, ctx, _sleeve_resolve, _sleeve_build, "sleeve")


def _sliding(layout: Layout, step: st.Sleeve) -> frozenset[int]:
    out: set[int] = set()
    for op in step.ops:
        reg = layout.by_name.get(op.region)
        if reg is None or not op.out:
            continue
        out.update(reg.slot(r, c) for r in op.out if r <= reg.rows for c in range(1, reg.cols + 1))
    return frozenset(out)


# --------------------------------------------------------------------------- checks


def check_piles(layout: Layout, piles: Sequence[tuple[int, ...]]) -> None:
    """A shuffle of sleeved cards mixes whole sleeves: each pile is one sleeve's cards, and no
    card of it lies loose outside the sleeve.

    The common case (a shuffle of a sleeved matrix's columns, on every new layout of a game) is
    settled first by :func:`_whole_columns` with arithmetic alone; it says yes only where the
    pile-by-pile check below passes too (under the compiled path's checks both run)."""
    if _whole_columns(layout, piles) and not _checked():
        return
    inside = layout.inside
    for pile in piles:
        if pile and pile[0] in inside and _one_whole_sleeve(layout, pile):
            continue  # the common case, checked at once: the pile is one sleeve, every card inside
        touched = {layout.owner(f).address(f)[1]: layout.owner(f) for f in pile if f in inside}
        if not touched:
            continue
        if len(touched) > 1:
            raise EvalError(
                f"a pile of the shuffle holds cards of {len(touched)} sleeves: a sleeve is mixed whole"
            )
        ((col, reg),) = touched.items()
        whole = [reg.slot(r, col) for r in range(1, reg.rows + 1) if reg.slot(r, col) not in layout.holes]
        if sorted(pile) != sorted(whole) or sorted(sleeve_cards(reg, col, layout.holes)) != sorted(whole):
            raise EvalError(
                f"a pile of the shuffle is part of the sleeve of {reg.name} column {col}: a shuffle mixes "
                "whole sleeves, with every card of the column inside (slide loose rows back in first)"
            )


def _whole_columns(layout: Layout, piles: Sequence[tuple[int, ...]]) -> bool:
    """Whether every pile is one whole column of the same sleeved region, its top row first, the
    region with every row inside its sleeves and no empty place: then each pile is one sleeve
    with every card inside, and :func:`check_piles` passes (no set, no owner per pile)."""
    if not piles or not piles[0]:
        return False
    reg = layout.owner(piles[0][0])
    frame = reg.sleeve
    rows = reg.rows
    if frame is None or any(r not in frame.rows for r in range(1, rows + 1)):
        return False  # no sleeves, or a row of them lies loose
    holes = layout.holes
    if holes and not holes.isdisjoint(reg.slots):
        return False
    lo = reg.offset
    cols = reg.cols
    hi = lo + cols  # the slots of the first row
    span = rows * cols
    for pile in piles:
        if not pile or type(pile) is not tuple:
            return False
        f = pile[0]
        if not lo <= f < hi or pile != tuple(range(f, f + span, cols)):
            return False
    return True


def _one_whole_sleeve(layout: Layout, pile: tuple[int, ...]) -> bool:
    """Whether ``pile`` is every card of one sleeve's column, each of them inside (any order)."""
    reg = layout.owner(pile[0])
    sleeve = reg.sleeve
    if sleeve is None:
        return False
    col = reg.address(pile[0])[1]
    holes = layout.holes
    rows = sleeve.rows
    whole = set()
    for r in range(1, reg.rows + 1):
        f = reg.slot(r, col)
        if f in holes:
            continue
        if r not in rows:
            return False  # a card of the column lies loose
        whole.add(f)
    return len(pile) == len(whole) and whole.issuperset(pile)


def check_arguments(layout: Layout, flats: Sequence[int], name: str) -> None:
    """A card handed to a called protocol from inside a sleeve comes out face down."""
    for f in flats:
        if f in layout.inside:
            reg = layout.owner(f)
            assert reg.sleeve is not None
            if reg.sleeve.lands_up(reg.address(f)[0]):
                raise EvalError(
                    f"argument {name}: {layout.describe(f)} would come out of its sleeve face up "
                    f"(it faces the side lying up); a called protocol gets its cards face down"
                )


def check_kept(layout: Layout, flats: Sequence[int]) -> None:
    """A card that lives in its sleeve (``keeps``) leaves the table only with its sleeve: when it
    goes, no other card may stay in that sleeve."""
    going = set(flats)
    checked: set[tuple[str, int]] = set()  # the sleeves already found to go whole
    for f in flats:
        if f not in layout.inside:
            continue
        reg = layout.owner(f)
        assert reg.sleeve is not None
        row, col = reg.address(f)
        if row not in reg.sleeve.keeps or (reg.name, col) in checked:
            continue
        checked.add((reg.name, col))
        left = [g for g in sleeve_cards(reg, col, layout.holes) if g not in going]
        if left:
            raise EvalError(
                f"{layout.describe(f)} lives in its sleeve (keeps), so it goes only with the sleeve, "
                f"but {layout.describe(left[0])} is still inside it"
            )
