"""The static half of the symmetry reduction (:mod:`.symmetry`): which scrambles of whole
columns start a segment, which turns inside one may be recorded as multisets, which calls are
given scrambled columns, checked on the spec before anything runs (:func:`plan_segments`) and
refused with the step's place when the precondition fails (the precondition is written in
:mod:`.symmetry`'s docs)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import steps as st
from ..errors import ReductionRefused
from ..expressions import (
    Call,
    Comprehension,
    Index,
    Name,
    Node,
    RangeNode,
    Star,
)
from ..registry import Library
from ..spec import Protocol
from .columns import children, column_comprehension, first_column, is_const, is_name, same

SHAPE_FUNCTIONS = ("ncols", "nrows", "len")


@dataclass
class SegmentPlan:
    """What the static check found: the segment scrambles, the turns inside segments (with the
    groups of aligned regions each may reveal in) and the calls given scrambled columns."""

    scrambles: dict[int, str] = field(default_factory=dict)  # id(step) -> region
    turns: dict[int, list[list[str]]] = field(default_factory=dict)  # id(step) -> groups
    calls: dict[int, str] = field(default_factory=dict)  # id(step) -> callee
    # id(call step) -> the positions (among the callee's card outputs) of results the caller only
    # uses whole: returned to a hand, discarded, tested with exists (their order is never seen)
    bags: dict[int, tuple[int, ...]] = field(default_factory=dict)
    steps: list[str] = field(default_factory=list)  # the segment scrambles' step numbers
    # id(call step) -> the regions of the group whose columns it gets, for a callee that relies
    # on its caller's scramble (its input is given to it lazily scrambled, Symmetry.under_scramble)
    scrambled: dict[int, tuple[str, ...]] = field(default_factory=dict)
    # id(call step) -> the call's step number and callee, for every call outside ``calls``
    # (checked at run time: such a call may not be given dealt cards in an order of its own)
    plain: dict[int, tuple[str, str]] = field(default_factory=dict)
    # id(take step) -> the scrambled region it takes the first column of that satisfies a
    # condition on that column alone (``first``, Symmetry.take_first)
    firsts: dict[int, tuple[str, ...]] = field(default_factory=dict)  # the region first, then its group


@dataclass
class _Group:
    regions: list[str]  # aligned by column; the first is the one the others were made from
    revealed: bool = False
    # since the reveal, some of the group's cards left the table (discard, return, a call) or
    # were turned back: what the players saw of each column is no longer all on the table
    lost: bool = False


class _Walker:
    def __init__(self, library: Library, proto: Protocol):
        self.library = library
        self.proto = proto
        self.groups: dict[str, _Group] = {}
        self.poisoned: set[str] = set()
        self.plan = SegmentPlan()

    # -- refusals -------------------------------------------------------------------
    def refuse(self, step: st.Step, message: str) -> ReductionRefused:
        where = f"step {step.number}: " if step.number else ""
        problem = self.proto.src.problem(step.path, where + message)
        return ReductionRefused(message, problem)

    def segs(self) -> set[str]:
        return set(self.groups) | self.poisoned

    def mentioned(self, node: Node | None) -> set[str]:
        return set() if node is None else node.names() & self.segs()

    def shape_only(self, node: Node | None) -> bool:
        """Whether ``node`` uses scrambled regions only through their shape."""
        if node is None:
            return True
        segs = self.segs()
        bad: list[str] = []

        def visit(n: Node) -> None:
            if isinstance(n, Call) and n.func in SHAPE_FUNCTIONS and len(n.args) == 1:
                a = n.args[0]
                if isinstance(a, Name) and a.name in segs:
                    return
            if isinstance(n, Name) and n.name in segs:
                bad.append(n.name)
                return
            for c in children(n):
                visit(c)

        visit(node)
        return not bad

    # -- the walk -------------------------------------------------------------------
    def block(self, steps: list[st.Step], in_loop: bool = False) -> None:
        for step in steps:
            self.step(step, in_loop)

    def step(self, step: st.Step, in_loop: bool) -> None:
        segs = self.segs()
        if in_loop and _step_names(step) & segs:
            raise self.refuse(step, "a loop uses scrambled columns one by one, in their order")
        if isinstance(step, st.Shuffle):
            self.shuffle(step, in_loop)
        elif isinstance(step, st.Turn):
            self.turn(step)
        elif isinstance(step, st.Place):
            self.place(step)
        elif isinstance(step, st.Take):
            self.take(step)
        elif isinstance(step, st.Move):
            self.move(step)
        elif isinstance(step, st.Call):
            self.call(step)
        elif isinstance(step, st.Return):
            self.ret(step)
        elif isinstance(step, st.Discard):
            self.discard(step)
        elif isinstance(step, st.If):
            self.branch(step)
        elif isinstance(step, st.For):
            if not self.shape_only(step.values.node if step.values else None):
                raise self.refuse(step, "a loop's values read scrambled columns")
            self.block(step.body, in_loop=True)
        elif isinstance(step, st.Let):
            for e in step.values.values():
                if not self.shape_only(e.node):
                    raise self.refuse(step, "a remembered value reads scrambled columns in their order")
        elif isinstance(step, (st.Note, st.Sleeve)):
            pass  # a sleeve action moves no card and treats every column of a region alike
        elif _step_names(step) & segs:
            raise self.refuse(step, f"a {step.kind} of scrambled columns depends on their order")
        else:
            for block in step.children():  # a 'do' block
                self.block(block, in_loop)

    def shuffle(self, step: st.Shuffle, in_loop: bool) -> None:
        node = step.piles.node if step.piles is not None else None
        region = _columns_arg(node)
        whole = isinstance(node, Call) and isinstance(node.args[0], Name)
        if step.how == "scramble" and region is not None and whole and not in_loop:
            if region in self.poisoned:
                raise self.refuse(step, f"{region} is scrambled in some branches only")
            old = self.groups.get(region)
            if old is not None:  # the region leaves its group: the others keep theirs
                old.regions.remove(region)
            self.groups[region] = _Group([region])
            self.plan.scrambles[id(step)] = region
            self.plan.steps.append(step.number or "?")
            return
        if self.mentioned(node):
            raise self.refuse(step, "a shuffle of scrambled columns other than a scramble of all of them")

    def turn(self, step: st.Turn) -> None:
        node = step.what.node if step.what is not None else None
        if isinstance(node, Call) and node.func in ("up", "down") and not node.args:
            groups = [g for g in self._distinct_groups()] if node.func == "down" else []
            if node.func == "up":  # revealed cards turned back: no longer on the table to compare
                for g in self._distinct_groups():
                    g.lost = g.lost or g.revealed
        else:
            region = _whole_rows(node, self.segs())
            if region is None:
                if self.mentioned(node):
                    raise self.refuse(step, "a turn of some scrambled cards, not whole rows: its place tells")
                return
            self._usable(step, region)
            groups = [self.groups[region]]
        for g in groups:
            if g.revealed:
                raise self.refuse(
                    step,
                    "a second reveal in the same scrambled columns before they are scrambled again "
                    "(the players could line up the two sequences; a multiset forgets that)",
                )
            g.revealed = True
        self.plan.turns[id(step)] = [list(g.regions) for g in groups]

    def _distinct_groups(self) -> list[_Group]:
        out: list[_Group] = []
        for g in self.groups.values():
            if not any(g is h for h in out):
                out.append(g)
        return out

    def _usable(self, step: st.Step, region: str) -> None:
        if region in self.poisoned:
            raise self.refuse(step, f"{region} is scrambled in some branches only")

    def place(self, step: st.Place) -> None:
        for target, form, items in step.targets:
            tnode = target.expr.node if target.expr is not None else None
            region = _whole_rows(tnode, self.segs()) if tnode is not None else None
            if region is not None:
                self._usable(step, region)
                if form != "columns" or not column_comprehension(items.node, region, self.segs(), filt=False):
                    raise self.refuse(
                        step,
                        f"cards placed in scrambled columns of {region} must be given column by column, "
                        f"each from its own column only: {{columns: '[... {region}[r, j] ... for j in "
                        f"1..ncols({region})]'}}",
                    )
                continue
            if (target.name or "") in self.segs() or self.mentioned(tnode) or not self.shape_only(items.node):
                raise self.refuse(step, "a place reads or fills scrambled columns in their order")

    def take(self, step: st.Take) -> None:
        src = step.source
        node = step.columns.node if step.columns is not None else None
        if src not in self.segs():
            if self.mentioned(node):
                raise self.refuse(step, "a take chooses columns by reading scrambled columns in their order")
            return
        self._usable(step, src)
        old = self.groups[src]
        if first_column(node, src, self.segs()):
            if old.lost:
                raise self.refuse(
                    step,
                    f"the first column of scrambled {src} with a property is taken after some of its "
                    "cards left the table or were turned back since they were seen: what the players "
                    "know of each column is no longer on the table, so the column taken may not be "
                    "a uniformly random one of them",
                )
            self.plan.firsts[id(step)] = (src, *(r for r in old.regions if r != src))
            self.groups.pop(step.into, None)  # one column, in no order: a region like any other
            return
        if not column_comprehension(node, src, self.segs(), filt=True):
            raise self.refuse(
                step,
                f"columns taken from scrambled {src} must be chosen by what each column shows: "
                f"'[j for j in 1..ncols({src}) if ... {src}[r, j] ...]'",
            )
        self.groups[step.into] = _Group([step.into], old.revealed, old.lost)

    def move(self, step: st.Move) -> None:
        for target, expr in step.pairs:
            region = _whole_rows(expr.node, self.segs())
            if region is None and isinstance(expr.node, Name) and expr.node.name in self.groups:
                region = expr.node.name
            if region is None:
                if self.mentioned(expr.node):
                    raise self.refuse(step, "a move of some scrambled cards, not whole rows")
                if target.name in self.segs() or (
                    target.expr is not None and self.mentioned(target.expr.node)
                ):
                    raise self.refuse(step, "a move into scrambled columns")
                continue
            self._usable(step, region)
            if target.name is None or target.name in self.segs():
                raise self.refuse(step, "whole rows of scrambled columns may only move to a new region")
            group = self.groups[region]
            group.regions.append(target.name)
            self.groups[target.name] = group

    def call(self, step: st.Call) -> None:
        used: set[str] = set()
        for e in step.params.values():
            if not self.shape_only(e.node):
                raise self.refuse(step, "a call's parameter reads scrambled columns in their order")
        for name, e in step.args.items():
            region = _whole_rows(e.node, self.segs()) or _columns_arg(e.node)
            if region is not None and region in self.segs():
                self._usable(step, region)
                used.add(region)
            elif self.mentioned(e.node):
                raise self.refuse(
                    step, f"argument {name} gives some scrambled cards, not whole rows or columns"
                )
        for t in step.results.values():
            if t.name in self.segs() or (t.expr is not None and self.mentioned(t.expr.node)):
                raise self.refuse(step, "a call's result goes into scrambled columns")
        reason = callee_invariance(self.library, step.protocol)
        if not used:
            if reason is not None:  # checked at run time: no dealt card in an order of its own
                self.plan.plain[id(step)] = (step.number or "?", reason)
            return
        groups = {id(self.groups[r]) for r in used}
        if len(groups) != 1:
            raise self.refuse(step, "a call gets scrambled columns of two regions that are not aligned")
        group = self.groups[next(iter(used))]
        if reason is not None:
            if group.lost:
                raise self.refuse(
                    step,
                    f"{step.protocol} gets scrambled columns but may depend on their order ({reason}), "
                    "so it relies on the caller's scramble; but after the players saw cards of these "
                    "columns, some of their cards left the table or were turned face down before the "
                    "call, so the verifier cannot check that what the players saw does not tell the "
                    "columns apart",
                )
            self.plan.scrambled[id(step)] = tuple(group.regions)
        self.plan.calls[id(step)] = step.protocol
        if group.revealed:  # the call takes cards of the group off the table
            group.lost = True

    def ret(self, step: st.Return) -> None:
        cnode = step.cards.node if step.cards is not None else None
        tnode = step.to.node if step.to is not None else None
        region = _whole_rows(cnode, self.segs())
        if region is None:
            if self.mentioned(cnode) or not self.shape_only(tnode):
                raise self.refuse(step, "a return of some scrambled cards, or to owners read in their order")
            return
        self._usable(step, region)
        self._leaves(region)
        if tnode is None or self.shape_only(tnode):
            return
        if not _per_item(tnode, self.groups[region].regions, self.segs()):
            raise self.refuse(
                step,
                f"cards of scrambled {region} may go back to owners read column by column only: "
                f"'[f(t) for t in {region}[r, *]]'",
            )

    def discard(self, step: st.Discard) -> None:
        node = step.what.node if step.what is not None else None
        if isinstance(node, Name) and node.name in self.segs():
            self._usable(step, node.name)
            self._leaves(node.name)
            return
        region = _whole_rows(node, self.segs())
        if region is None and self.mentioned(node):
            raise self.refuse(step, "a discard of some scrambled cards, not whole rows")
        if region is not None:
            self._usable(step, region)
            self._leaves(region)

    def _leaves(self, region: str) -> None:
        """Cards of ``region`` leave the table: after a reveal, what was seen may go with them."""
        group = self.groups.get(region)
        if group is not None and group.revealed:
            group.lost = True

    def branch(self, step: st.If) -> None:
        if not self.shape_only(step.cond.node if step.cond else None):
            raise self.refuse(step, "a decision reads scrambled columns in their order")
        before = _snapshot(self.groups)
        self.block(step.then)
        after_then = _snapshot(self.groups)
        self.groups = _restore(before)
        self.block(step.other)
        after_else = _snapshot(self.groups)
        self.groups = _merge(after_then, after_else, self.poisoned)


_Snap = dict[str, tuple[tuple[str, ...], bool, bool]]


def _snapshot(groups: dict[str, _Group]) -> _Snap:
    return {r: (tuple(g.regions), g.revealed, g.lost) for r, g in groups.items()}


def _restore(snap: _Snap) -> dict[str, _Group]:
    made: dict[tuple[str, ...], _Group] = {}
    out: dict[str, _Group] = {}
    for r, (regions, revealed, lost) in snap.items():
        g = made.setdefault(regions, _Group(list(regions), revealed, lost))
        g.revealed = g.revealed or revealed
        g.lost = g.lost or lost
        out[r] = g
    return out


def _merge(a: _Snap, b: _Snap, poisoned: set[str]) -> dict[str, _Group]:
    """After an ``if``: a region scrambled alike in both branches stays so (revealed if either
    revealed, lost if either lost); one that differs can no longer be used at all (its place
    would depend on the branch)."""
    keep: _Snap = {}
    for r in set(a) | set(b):
        if r in a and r in b and a[r][0] == b[r][0]:
            keep[r] = (a[r][0], a[r][1] or b[r][1], a[r][2] or b[r][2])
        elif r in a or r in b:
            poisoned.add(r)
    return _restore(keep)


# --------------------------------------------------------------------------- patterns


def _step_names(step: st.Step) -> set[str]:
    """Every name a step's own expressions (not its sub-steps') mention, its targets included."""
    out: set[str] = set()
    for value in vars(step).values():
        for item in value if isinstance(value, (list, tuple, dict)) else [value]:
            for x in (
                item if isinstance(item, tuple) else (item.values() if isinstance(item, dict) else [item])
            ):
                if hasattr(x, "node") and hasattr(x, "names"):
                    out |= x.names()
                elif isinstance(x, st.Target):
                    if x.name:
                        out.add(x.name)
                    if x.expr is not None:
                        out |= x.expr.names()
    if isinstance(step, st.Take):
        out.add(step.source)
    return out


def _whole_rows(node: Node | None, segs: set[str]) -> str | None:
    """``R[rows, *]`` of a scrambled region (rows not reading any scrambled region): ``R``."""
    if (
        isinstance(node, Index)
        and isinstance(node.obj, Name)
        and node.obj.name in segs
        and len(node.args) == 2
        and isinstance(node.args[1], Star)
        and not (node.args[0].names() & segs)
    ):
        return node.obj.name
    return None


def _columns_arg(node: Node | None) -> str | None:
    """``columns(R)`` or ``columns(R[rows, *])``: ``R``."""
    if isinstance(node, Call) and node.func == "columns" and len(node.args) == 1:
        a = node.args[0]
        if isinstance(a, Name):
            return a.name
        if (
            isinstance(a, Index)
            and isinstance(a.obj, Name)
            and len(a.args) == 2
            and isinstance(a.args[1], Star)
        ):
            return a.obj.name
    return None


def _per_item(node: Node, group: list[str], segs: set[str]) -> bool:
    """``[f(t) for t in R[r, *]]`` with ``R`` in ``group`` and ``f`` reading nothing scrambled."""
    if not isinstance(node, Comprehension) or len(node.clauses) != 1 or node.clauses[0][0] != "for":
        return False
    src = _whole_rows(node.clauses[0][1], segs)
    return src in group and not (node.element.names() & segs)


# --------------------------------------------------------------------------- callees


def callee_invariance(library: Library, name: str) -> str | None:
    """Why ``name`` may depend on the order of the items of its inputs (None: it cannot).

    It cannot when, before its first shuffle, it only places its inputs item by item, the
    items of one index together (``P: {columns: "[[c[i], x[i]] for i in 1..m]"}``, every input
    whole), places new cards that read no input, and its first shuffle scrambles the columns of
    the region holding every input's items: a permutation of the items is then a permutation of
    those piles, which the scramble forgets.
    """
    proto = library.protocol(name)
    inputs = set(proto.inputs)
    piles: set[str] = set()
    for step in proto.steps:
        if isinstance(step, st.Note):
            continue
        if isinstance(step, st.Place):
            for target, form, items in step.targets:
                used = items.names() & inputs
                if not used:
                    if target.expr is not None and target.expr.names() & inputs:
                        return f"step {step.number} places cards among its inputs"
                    continue
                if (
                    target.name is None
                    or form != "columns"
                    or not _item_comprehension(proto, items.node, inputs)
                ):
                    return f"step {step.number} reads its inputs other than item by item"
                if used != inputs:
                    return f"step {step.number} places some of its inputs item by item, not all"
                piles.add(target.name)
            continue
        if isinstance(step, st.Shuffle):
            node = step.piles.node if step.piles is not None else None
            region = _columns_arg(node)
            if (
                step.how == "scramble"
                and isinstance(node, Call)
                and isinstance(node.args[0], Name)
                and region in piles
            ):
                return None
            return f"its first shuffle (step {step.number}) is not a scramble of the piles of its inputs"
        return f"step {step.number} comes before any scramble of its inputs"
    return "it never scrambles its inputs"


def _item_comprehension(proto: Protocol, node: Node, inputs: set[str]) -> bool:
    """``[e for i in 1..m]`` (``m`` each input's count) where ``e`` reads inputs only as ``x[i]``."""
    if not isinstance(node, Comprehension) or len(node.clauses) != 1 or node.clauses[0][0] != "for":
        return False
    i = node.variables[0]
    rng = node.clauses[0][1]
    if not (isinstance(rng, RangeNode) and is_const(rng.lo, 1)):
        return False
    for name in inputs:
        count = proto.inputs[name].count
        if count is None or not same(count.node, rng.hi):
            return False

    def local(n: Node) -> bool:
        if isinstance(n, Index) and isinstance(n.obj, Name) and n.obj.name in inputs:
            return len(n.args) == 1 and is_name(n.args[0], i)
        if isinstance(n, Name):
            return n.name not in inputs and n.name != i
        if isinstance(n, Comprehension) and i in n.variables:
            return False
        return all(local(c) for c in children(n))

    return local(node.element)


def plan_segments(library: Library, proto: Protocol) -> SegmentPlan:
    """Check the spec's use of scrambled columns (module docs); the plan, or ReductionRefused."""
    walker = _Walker(library, proto)
    walker.block(proto.steps)
    _find_bags(library, proto, walker.plan)
    if not walker.plan.scrambles:
        why = (
            f"{proto.name} never scrambles all the columns of a region, so nothing hides the order "
            "of the dealt cards: the reduction by classes does not apply"
        )
        raise ReductionRefused(why, proto.src.problem(("steps",), why))
    return walker.plan


def _find_bags(library: Library, proto: Protocol, plan: SegmentPlan) -> None:
    """The call results whose order nothing ever reads (see ``SegmentPlan.bags``): every mention
    of the region is ``return: {cards: R}``, ``discard: R`` or an output reading it unordered."""
    every = st.walk(proto.steps)
    for call in every:
        if not isinstance(call, st.Call):
            continue
        callee = library.protocol(call.protocol)
        outs = [o for o in callee.outputs.values() if o.cards is not None]
        keep = []
        for k, o in enumerate(outs):
            target = call.results.get(o.name)
            if target is None or target.name is None:
                continue
            if all(_whole_use(s, target.name) for s in every if s is not call) and _output_use(
                proto, target.name
            ):
                keep.append(k)
        if keep:
            plan.bags[id(call)] = tuple(keep)


def _whole_use(step: st.Step, region: str) -> bool:
    if region not in _step_names(step):
        return True
    if isinstance(step, st.Return) and step.cards is not None and is_name(step.cards.node, region):
        return step.to is None or region not in step.to.names()
    return isinstance(step, st.Discard) and step.what is not None and is_name(step.what.node, region)


def _output_use(proto: Protocol, region: str) -> bool:
    for out in proto.outputs.values():
        if out.value is not None and region in out.value.names():
            return False
        target = out.cards
        if target is None:
            continue
        if target.name == region:
            if out.decode != "cards":
                return False
        elif target.expr is not None and region in target.expr.names():
            return False
    return True
