"""Actions that lay cards out or move them, compiled to plans (:meth:`Runner._planned`):
place, rearrange, swap, move, take, discard, return; and note, which only says something."""

from __future__ import annotations

from typing import Any

from ... import steps as st
from ...cards import ROTATIONS, SYMBOLS
from ...expressions import EvalError, as_int
from ...functions import hand_name
from ...spec import Params
from ...table import NEW, Draft, Layout, Slots, State
from ..frame import Evaluator, Frame, _checked
from ..frontier import Frontier, sort_hands
from ..plans import Plan, Resolved, _flats, _res, _target_coords
from ..runner import Ctx, Runner, handles
from .sleeving import check_kept

# --------------------------------------------------------------------------- place


def _item_tokens(
    d: Draft, item: Resolved, up: bool, delta: dict[int, int], what: str
) -> tuple[list[int], str]:
    if item[0] == "S":
        label = item[2] if item[2] and item[2].isidentifier() else ""
        return d.take_tokens(item[1]), label
    if item[0] == "N":
        toks = []
        face = up or item[2]
        for sid in item[1]:
            toks.append(d.new_token(sid << 1 | int(face)))
            card = ROTATIONS.physical(sid)  # an up-down card's two faces are one card of the supply
            delta[card] = delta.get(card, 0) + 1
        return toks, item[3]
    toks = []
    for sub in item[1]:
        t, _ = _item_tokens(d, sub, up, delta, what)
        toks.extend(t)
    return toks, ""


def _items(res: Resolved) -> list[Resolved]:
    return list(res[1]) if res[0] == "L" else [res]


def _place_resolve(run: Runner, frame: Frame, step: st.Place, state: State, ev: Evaluator) -> Resolved:
    out = []
    exact = run.mode == "exact"
    for target, form, items in step.targets:
        tres = run.resolve_target(frame, target, state, ev)
        value = ev.public(items, state)
        out.append((tres, form, _res_kept(run, value, target.text) if exact else _res(value, target.text)))
    return tuple(out)


def _res_kept(run: Runner, value: Any, what: str) -> Resolved:
    """``_res(value, what)``, kept in an exact run per value object: the evaluator hands back the
    very object it remembered for every table that shows what the value read
    (:meth:`~..frame.Evaluator.public`), and ``_res`` depends on the value alone, so the tables
    of a frontier describe the cards placed once. The entry holds the value (its id cannot be
    reused while it is kept) and serves only that same object; a refusal is never kept. Under
    the compiled path's checks every kept answer is computed again and compared."""
    key = ("res", id(value), what)
    plans = run.shared.plans
    hit = plans.get(key)
    if hit is not None and hit[0] is value:
        if _checked():
            assert hit[1] == _res(value, what), (what, hit[1])
        kept: Resolved = hit[1]
        return kept
    res = _res(value, what)
    plans[key] = (value, res)
    return res


def _place_build(run: Runner, frame: Frame, step: st.Place, layout: Layout, res: Resolved) -> Plan:
    d = Draft.of(layout)
    delta: dict[int, int] = {}
    moves = []
    for tres, form, ires in res:
        what = f"place {tres[1] if tres[0] == 'name' else 'cards'}"
        lines: list[list[int]] = []
        spans: list[tuple[str, list[tuple[int, int]]]] = []
        groups = [_items(ires)] if form == "row" else [_items(x) for x in _items(ires)]
        for gi, group in enumerate(groups):
            line: list[int] = []
            for item in group:
                toks, label = _item_tokens(d, item, step.up, delta, what)
                if label:
                    pos = [(gi, len(line) + k) for k in range(len(toks))]
                    spans.append((label, pos))
                line.extend(toks)
            lines.append(line)
        if form == "columns":
            heights = {len(c) for c in lines}
            if len(heights) != 1:
                raise EvalError(f"{what}: columns of different heights {sorted(heights)}")
            h = heights.pop()
            grid = [[lines[c][r] for c in range(len(lines))] for r in range(h)]
            spans = [(t, [(r, c) for c, r in pos]) for t, pos in spans]
        else:
            widths = {len(r) for r in lines}
            if len(widths) != 1:
                raise EvalError(f"{what}: rows of different lengths {sorted(widths)}")
            grid = lines
        if not grid or not grid[0]:
            raise EvalError(f"{what}: nothing to place")
        flat_tokens = [t for row in grid for t in row]
        shape = (len(grid), len(grid[0]))
        coords = _target_coords(d, tres, len(flat_tokens), shape, flat_tokens, what)
        width = shape[1]
        for text, pos in spans:
            d.label(text, [coords[r * width + c] for r, c in pos])
        moves.append({"to": [f"{n}[{r}, {c}]" for n, r, c in coords]})
    layout2, src, consts = d.finish()

    def describe() -> dict[str, object]:
        for move in moves:  # where each card came from: a place on the table, or the spares
            move["from"] = [_origin(layout, layout2, src, consts, slot) for slot in move["to"]]
        return {"targets": moves, "new": _delta_names(delta)}

    return Plan(layout2, src, consts, delta, describe=describe)


def _origin(before: Layout, after: Layout, src: tuple[int, ...], consts: tuple[int, ...], slot: str) -> str:
    """``M[1, 3]`` (the card came from there) or ``new:alpha`` (from the spares)."""
    name, _, rest = slot.partition("[")
    r, c = (int(x) for x in rest.rstrip("]").split(","))
    t = src[after.by_name[name].slot(r, c)]
    return before.describe(t) if t >= 0 else "new:" + SYMBOLS.by_id(consts[NEW - t] >> 1).name


def _delta_names(delta: dict[int, int]) -> Params:
    return dict(sorted((SYMBOLS.by_id(s).name, n) for s, n in delta.items() if n))


@handles(st.Place)
def h_place(run: Runner, frame: Frame, step: st.Place, frontier: Frontier, ctx: Ctx) -> Frontier:
    return run._planned(frame, step, frontier, ctx, _place_resolve, _place_build, "place")


# --------------------------------------------------------------------------- rearrange, swap


def _rearrange_resolve(
    run: Runner, frame: Frame, step: st.Rearrange, state: State, ev: Evaluator
) -> Resolved:
    assert step.order is not None
    order = ev.value(step.order, state)
    if not isinstance(order, list):
        raise EvalError(f"the new order must be a list of positions, got {order!r}")
    if _INTS.issuperset(map(type, order)):  # whole numbers only: as_int gives each as it is
        return (step.region, step.axis, tuple(order))
    return (step.region, step.axis, tuple(as_int(v) for v in order))


_INTS = frozenset((int,))


def _rearrange_build(run: Runner, frame: Frame, step: st.Rearrange, layout: Layout, res: Resolved) -> Plan:
    name, axis, order = res
    reg = layout.region(name)
    d = Draft.of(layout)
    grid = d.grids[name]
    if axis == "cards":
        if reg.rows != 1:
            raise EvalError(f"{name} has {reg.rows} rows: rearrange its columns or rows")
        n = reg.cols
    else:
        n = reg.cols if axis == "columns" else reg.rows
    if sorted(order) != list(range(1, n + 1)):
        raise EvalError(f"{list(order)} is not a permutation of 1..{n} (the {axis} of {name})")
    if axis == "rows":
        if reg.sleeve is not None:
            raise EvalError(f"{name} lies in sleeves: slide cards out and in instead of rearranging its rows")
        d.grids[name] = [list(grid[i - 1]) for i in order]
    else:
        d.grids[name] = [[row[i - 1] for i in order] for row in grid]
    layout2, src, consts = d.finish(keep_empty=[name])
    moves = [[i, k + 1] for k, i in enumerate(order) if i != k + 1]
    return Plan(
        layout2,
        src,
        consts,
        {},
        describe=lambda: {"region": name, "axis": axis, "order": list(order), "moves": moves},
    )


@handles(st.Rearrange)
def h_rearrange(run: Runner, frame: Frame, step: st.Rearrange, frontier: Frontier, ctx: Ctx) -> Frontier:
    return run._planned(frame, step, frontier, ctx, _rearrange_resolve, _rearrange_build, "rearrange")


def _swap_resolve(run: Runner, frame: Frame, step: st.Swap, state: State, ev: Evaluator) -> Resolved:
    assert step.a is not None and step.b is not None
    a = _flats(_res(ev.public(step.a, state), "swap"), "swap")
    b = _flats(_res(ev.public(step.b, state), "swap"), "swap")
    return (a, b)


def _swap_build(run: Runner, frame: Frame, step: st.Swap, layout: Layout, res: Resolved) -> Plan:
    a, b = res
    if len(a) != len(b):
        raise EvalError(f"swap needs two groups of the same size, got {len(a)} and {len(b)}")
    if set(a) & set(b):
        raise EvalError("swap: the two groups overlap")
    if layout.holes & (set(a) | set(b)):
        return _swap_with_holes(layout, a, b)
    src = list(range(layout.size))
    for x, y in zip(a, b):
        src[x], src[y] = y, x
    return Plan(
        layout,
        tuple(src),
        (),
        {},
        describe=lambda: {"a": [layout.describe(f) for f in a], "b": [layout.describe(f) for f in b]},
    )


def _swap_with_holes(layout: Layout, a: tuple[int, ...], b: tuple[int, ...]) -> Plan:
    """A swap that exchanges empty places too: the layout changes (a region may empty out)."""
    d = Draft.of(layout)
    where_a = [d.locate(f) for f in a]
    where_b = [d.locate(f) for f in b]
    tokens_a = [d.token_at(*w) for w in where_a]
    tokens_b = [d.token_at(*w) for w in where_b]
    for w, tok in zip(where_a, tokens_b):
        d.set_token(*w, tok)
    for w, tok in zip(where_b, tokens_a):
        d.set_token(*w, tok)
    layout2, src, consts = d.finish()
    return Plan(
        layout2,
        src,
        consts,
        {},
        describe=lambda: {"a": [layout.describe(f) for f in a], "b": [layout.describe(f) for f in b]},
    )


@handles(st.Swap)
def h_swap(run: Runner, frame: Frame, step: st.Swap, frontier: Frontier, ctx: Ctx) -> Frontier:
    return run._planned(frame, step, frontier, ctx, _swap_resolve, _swap_build, "swap")


# --------------------------------------------------------------------------- move, take


def _move_resolve(run: Runner, frame: Frame, step: st.Move, state: State, ev: Evaluator) -> Resolved:
    out = []
    for target, src in step.pairs:
        value = ev.public(src, state)
        shape = value.shape if isinstance(value, Slots) else None
        out.append(
            (
                run.resolve_target(frame, target, state, ev),
                _flats(_res(value, target.text), target.text),
                shape,
            )
        )
    return tuple(out)


def _move_build(run: Runner, frame: Frame, step: st.Move, layout: Layout, res: Resolved) -> Plan:
    d = Draft.of(layout)
    moves = []
    for tres, flats, shape in res:
        what = f"move to {tres[1] if tres[0] == 'name' else 'places'}"
        tokens = d.take_tokens(flats)
        coords = _target_coords(d, tres, len(tokens), shape, tokens, what)
        moves.append(
            {"from": [layout.describe(f) for f in flats], "to": [f"{n}[{r}, {c}]" for n, r, c in coords]}
        )
    layout2, src, consts = d.finish()
    return Plan(layout2, src, consts, {}, describe=lambda: {"moves": moves})


@handles(st.Move)
def h_move(run: Runner, frame: Frame, step: st.Move, frontier: Frontier, ctx: Ctx) -> Frontier:
    out = run._planned(frame, step, frontier, ctx, _move_resolve, _move_build, "move")
    return sort_hands(out) if run.mode == "exact" and run.shared.hands else out


def _take_resolve(run: Runner, frame: Frame, step: st.Take, state: State, ev: Evaluator) -> Resolved:
    assert step.columns is not None
    cols = ev.value(step.columns, state)
    cols = cols if isinstance(cols, list) else [cols]
    return (step.source, tuple(as_int(c) for c in cols), step.into)


def _take_build(run: Runner, frame: Frame, step: st.Take, layout: Layout, res: Resolved) -> Plan:
    source, cols, into = res
    reg = layout.region(source)
    bad = [c for c in cols if not 1 <= c <= reg.cols]
    if bad or len(set(cols)) != len(cols):
        raise EvalError(f"take: columns {list(cols)} are not distinct columns of {source} (1..{reg.cols})")
    d = Draft.of(layout)
    grid = d.grids[source]
    taken = [[row[c - 1] for c in cols] for row in grid]
    keep = [c for c in range(1, reg.cols + 1) if c not in cols]
    d.grids[source] = [[row[c - 1] for c in keep] for row in grid]
    if cols:
        d.add_region(into, taken, before=None, sleeve=reg.sleeve)  # the columns' sleeves go along
    if not keep:
        d.remove_region(source)
    layout2, src, consts = d.finish()
    return Plan(
        layout2, src, consts, {}, describe=lambda: {"from": source, "columns": list(cols), "into": into}
    )


@handles(st.Take)
def h_take(run: Runner, frame: Frame, step: st.Take, frontier: Frontier, ctx: Ctx) -> Frontier:
    sym = run.shared.symmetry
    if sym is not None and not run.call_path and sym.takes_first(step):
        # A verification by classes: which of the scrambled columns comes first is drawn here
        # (see reference_engine.verify.symmetry, Symmetry.take_first).
        ev = run.evaluator(frame)
        frontier = sym.take_first(step, frontier, lambda state: _take_resolve(run, frame, step, state, ev)[1])
    return run._planned(frame, step, frontier, ctx, _take_resolve, _take_build, "take")


# --------------------------------------------------------------------------- discard, return


def _discard_resolve(run: Runner, frame: Frame, step: st.Discard, state: State, ev: Evaluator) -> Resolved:
    assert step.what is not None
    return _flats(_res(ev.public(step.what, state), "discard"), "discard")


def _discard_build(run: Runner, frame: Frame, step: st.Discard, layout: Layout, res: Resolved) -> Plan:
    if layout.inside:
        check_kept(layout, res)
    d = Draft.of(layout)
    d.take_tokens(res)
    layout2, src, consts = d.finish()
    return Plan(
        layout2,
        src,
        consts,
        {},
        returned=tuple(res),
        describe=lambda: {"cards": [layout.describe(f) for f in res]},
    )


@handles(st.Discard)
def h_discard(run: Runner, frame: Frame, step: st.Discard, frontier: Frontier, ctx: Ctx) -> Frontier:
    return run._planned(frame, step, frontier, ctx, _discard_resolve, _discard_build, "discard")


def _return_resolve(run: Runner, frame: Frame, step: st.Return, state: State, ev: Evaluator) -> Resolved:
    assert step.cards is not None and step.to is not None
    flats = _flats(_res(ev.public(step.cards, state), "return"), "return")
    to = ev.value(step.to, state)
    owners = list(to) if isinstance(to, (list, tuple)) else [to] * len(flats)
    if len(owners) != len(flats):
        raise EvalError(f"return: {len(flats)} cards but {len(owners)} owners")
    names, distinct = _hand_names(owners)
    for name in distinct:
        unheld = run.seats.check(name)  # a called protocol's hand its call gave no holder
        if unheld is not None:
            raise EvalError(unheld)
    return (flats, names)


_PLAIN_OWNERS = frozenset((int, str))
_HANDS: dict[tuple[int | str, ...], tuple[tuple[str, ...], tuple[str, ...]]] = {}
HANDS_KEPT = 4096
"""Owner lists whose hands :func:`_hand_names` keeps (it starts afresh beyond)."""


def _hand_names(owners: list[Any]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The hands ``owners`` name, in order and sorted without repeats. Kept by the owners where
    each is an int or a text of exactly that type (owners equal only to owners of the same types:
    a truth, which hand_name refuses, is not kept with its number); an exact verification returns
    cards to the same owners in state after state (play-selection-fast's pair scenario: 90,000
    returns, 475,000 owners named)."""
    if not _PLAIN_OWNERS.issuperset(map(type, owners)):
        names = tuple(hand_name(o) for o in owners)
        return names, tuple(sorted(set(names)))
    key = tuple(owners)
    hit = _HANDS.get(key)
    if hit is None:
        names = tuple(hand_name(o) for o in owners)
        hit = (names, tuple(sorted(set(names))))
        if len(_HANDS) >= HANDS_KEPT:
            _HANDS.clear()
        _HANDS[key] = hit
    elif _checked():  # compiled.evaluate.CHECKED: the kept hands are the ones named now
        names = tuple(hand_name(o) for o in owners)
        assert hit == (names, tuple(sorted(set(names)))), (owners, hit)
    return hit


def _return_build(run: Runner, frame: Frame, step: st.Return, layout: Layout, res: Resolved) -> Plan:
    flats, names = res
    d = Draft.of(layout)
    tokens = d.take_tokens(flats)
    for tok, name in zip(tokens, names):
        if name not in d.grids:
            d.add_region(name, [[]], hand=name)
        elif d.meta[name][1] is None:
            raise EvalError(f"return: {name!r} is on the table but is not a hand")
        d.grids[name][0].append(tok)
    layout2, src, consts = d.finish()
    return Plan(
        layout2,
        src,
        consts,
        {},
        describe=lambda: {"moves": [{"from": [layout.describe(f)], "to": [n]} for f, n in zip(flats, names)]},
    )


@handles(st.Return)
def h_return(run: Runner, frame: Frame, step: st.Return, frontier: Frontier, ctx: Ctx) -> Frontier:
    out = run._planned(frame, step, frontier, ctx, _return_resolve, _return_build, "return")
    return sort_hands(out) if run.mode == "exact" else out


# --------------------------------------------------------------------------- note


@handles(st.Note)
def h_note(run: Runner, frame: Frame, step: st.Note, frontier: Frontier, ctx: Ctx) -> Frontier:
    if run.events is not None:
        for state in frontier:
            run.record(frame, ctx, "note", {}, state, state)
    return frontier
