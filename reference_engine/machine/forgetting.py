"""Forgetting views that make no difference (:func:`forget`): views whose distributions over
the tables are proportional under every input are merged into one, and the decision on which
(:class:`MergeDecider`) can be taken on every input at once when the inputs are split over
processes. Split from :mod:`.frontier`, which holds the states and their probabilities."""

from __future__ import annotations

import hashlib
import math
from collections import defaultdict
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol

from .. import steps as st
from ..kept import exact_env
from ..table import State
from .frontier import Frontier, Vec, add_vec, with_view

if TYPE_CHECKING:
    from .views import ViewTable


ViewInfo = dict[str, tuple[int, int, int, int]]
"""What one partition of the inputs knows about the views of its frontier, by view digest:
(its local class: views with proportional distributions share one, the constant as a reduced
fraction numerator and denominator, the view's weight)."""
Merge = tuple[str, list[str], int]
"""Views merged into one: (the new view's digest, the members' digests, its weight)."""
Sizes = dict[str, tuple[int, int, int]]
"""By view digest: how many states have the view, how many (state, input) entries, and its
local support class (views of one partition share one exactly when the same tables have them:
a necessary condition for proportional distributions)."""


class MergeDecider(Protocol):
    """Decides which views to merge, on every input of the verification (see :func:`forget`)."""

    def candidates(self, label: str, sizes: Sizes) -> list[str]:
        """The views that may be merged: those sharing their sizes with another view."""

    def merges(self, label: str, info: ViewInfo) -> list[Merge]:
        """The merges, from the candidates' classes and constants."""


class LocalDecider:
    """The decision when this process holds every input; the notes go to ``notes``."""

    def __init__(self, notes: list[str]):
        self.notes = notes
        self.views = 0

    def candidates(self, label: str, sizes: Sizes) -> list[str]:
        self.views = len(sizes)
        return decide_candidates([sizes])

    def merges(self, label: str, info: ViewInfo) -> list[Merge]:
        merges, note = decide_merges(label, [info], self.views)
        if note:
            self.notes.append(note)
        return merges


def forget(
    views_of: ViewTable,
    merge_views: MergeDecider | None,
    forgotten: list[str],
    frontier: Frontier,
    step: st.Step,
) -> Frontier:
    """Merge views that make no difference: a pure speed-up with the same verdicts. ``views_of``:
    the run's views; ``merge_views``, ``forgotten``: its shared decider and notes.

    Let D_v(S, u) be the probability of reaching table S with view v under input u. When
    D_v = c * D_w for all S and u (one constant c), everything that can follow v is c times
    as likely as what follows w, under every input. Then for every continuation x,
    P(vx | u) = c * P(wx | u), so the security condition holds for vx exactly when it holds
    for wx, and merging v and w into one view changes no verdict. Only top-level exact runs
    do this: the decision needs every input of the verification. When the inputs are split
    over processes, ``merge_views`` takes the decision on all parts together:
    first on the views' sizes (views that may be proportional, :func:`decide_candidates`),
    then, when there are any, on their classes and constants (:func:`decide_merges`), so
    every process merges the same views.
    """
    decider: MergeDecider = merge_views or LocalDecider(forgotten)
    by_view: dict[int, list[tuple[State, Vec]]] = {}
    for state, vec in frontier.items():
        have = by_view.get(state.view)
        if have is None:
            by_view[state.view] = [(state, vec)]
        else:
            have.append((state, vec))
    by_digest = {views_of.digest(v): v for v in by_view}
    label = str(step.number or "?")
    wanted = decider.candidates(label, view_sizes({d: by_view[v] for d, v in by_digest.items()}))
    if not wanted:
        return frontier
    mine = {by_digest[d] for d in wanted if d in by_digest}
    envs: dict[int, Any] = {}  # the frontier holds every state's variables meanwhile
    views = {v: {_table_key(state, envs): vec for state, vec in by_view[v]} for v in mine}
    info = view_info(
        {d: views[v] for d, v in by_digest.items() if v in mine},
        {d: views_of.weight(v) for d, v in by_digest.items() if v in mine},
    )
    merges = decider.merges(label, info)
    if not merges:
        return frontier
    renamed: dict[int, int] = {}
    for digest, members, weight in merges:
        if members[0] not in by_digest:
            continue  # views of other inputs (a merge takes views present in the same parts)
        local_members = [by_digest[m] for m in members]
        fresh = views_of.merged(("merged", step.number, digest, weight))
        renamed.update((v, fresh) for v in local_members)
    out: Frontier = {}
    owned: set[int] = set()
    for state, vec in frontier.items():
        new_view = renamed.get(state.view)
        add_vec(out, state if new_view is None else with_view(state, new_view), vec, owned)
    return out


def _table_key(state: State, envs: dict[int, Any] | None = None) -> tuple[Any, ...]:
    """A state without its view: the table a view's distribution is over (its variables by
    value and type: a view where ``x`` is true is never proportional to one where it is 1).
    ``envs``: the variables' keys already made, by the id of the variables (alive meanwhile)."""
    env = state.env
    if envs is None:
        key = exact_env(env)
    else:
        key = envs.get(id(env))
        if key is None:
            key = envs[id(env)] = exact_env(env)
    return (id(state.layout), state.cells, state.out, key, state.meters, state.lazy)


def view_sizes(views: dict[str, list[tuple[State, Vec]]]) -> Sizes:
    """The :data:`Sizes` of one partition's views (their states with probabilities).

    The support class (which tables a view has) is worked out only for views that share their
    counts with another view here: a view with counts of its own gets a class of its own,
    since no other view of this partition can be proportional to it (nor one absent here, as
    proportional views have the same inputs). That keeps the common case linear in the
    states, not in the (state, input) entries.
    """
    counts = {d: (len(members), sum(len(vec[1]) for _, vec in members)) for d, members in views.items()}
    shared: dict[tuple[int, int], int] = defaultdict(int)
    for c in counts.values():
        shared[c] += 1
    classes: dict[frozenset[tuple[Any, ...]], int] = {}
    out: Sizes = {}
    envs: dict[int, Any] = {}  # the states (and so their variables) are alive meanwhile
    for d in sorted(views):
        c = counts[d]
        if shared[c] > 1:
            support = frozenset(_table_key(s, envs) for s, vec in views[d] if any(vec[1].values()))
            cls = classes.setdefault(support, len(classes))
        else:
            cls = -1 - len(out)  # a class of its own
        out[d] = (c[0], c[1], cls)
    return out


def decide_candidates(sizes: list[Sizes]) -> list[str]:
    """Views that may be proportional to another over all inputs: the same sizes and support
    class in every partition (proportional distributions have the same entries on the same
    tables). Sorted; empty when no view shares them."""
    groups: dict[tuple[Any, ...], list[str]] = defaultdict(list)
    every: set[str] = set().union(*sizes)
    for d in every:
        groups[tuple(part.get(d) for part in sizes)].append(d)
    return sorted(d for members in groups.values() if len(members) > 1 for d in members)


def view_info(dists: dict[str, dict[Any, Vec]], weights: dict[str, int]) -> ViewInfo:
    """Describe views for :func:`decide_merges`: views whose distributions (state -> per-input
    probabilities) are proportional get one local class; each gets its constant."""
    local: dict[frozenset[tuple[Any, ...]], int] = {}
    info: ViewInfo = {}
    for d, dist in dists.items():
        direction, (num, den) = _direction(dist)
        info[d] = (local.setdefault(direction, len(local)), num, den, weights[d])
    return info


def decide_merges(label: str, infos: list[ViewInfo], views: int = 0) -> tuple[list[Merge], str | None]:
    """Which views to merge, from every partition's :data:`ViewInfo` (in partition order).

    Views v and w are proportional over all inputs exactly when, in every partition, both are
    absent or both present in the same local class, and the ratio of their constants is the
    same in every partition where they are present. With one partition this is the local
    classes. Returns the merges (in a canonical order) and the note for the report, which
    counts ``views`` views before merging (default: those in ``infos``).
    """
    every: dict[str, None] = {}
    for info in infos:
        every.update(dict.fromkeys(info))
    groups: dict[tuple[Any, ...], list[str]] = defaultdict(list)
    for d in sorted(every):
        classes = tuple(info[d][0] if d in info else None for info in infos)
        scales = [Fraction(info[d][1], info[d][2]) for info in infos if d in info]
        norm = tuple(s / scales[0] for s in scales) if scales[0] else tuple(scales)
        groups[(classes, norm)].append(d)
    merges: list[Merge] = []
    for members in groups.values():
        if len(members) > 1:
            weight = sum(next(info[m][3] for info in infos if m in info) for m in members)
            digest = hashlib.blake2b(
                ("merged|" + label + "|" + ",".join(members)).encode(), digest_size=16
            ).hexdigest()
            merges.append((digest, members, weight))
    if not merges:
        return [], None
    total = max(views, len(every))
    left = total - sum(len(m) for _, m, _ in merges) + len(merges)
    return sorted(merges), f"{label} ({total} views into {left})"


def _direction(dist: dict[tuple[Any, ...], Vec]) -> tuple[frozenset[tuple[Any, ...]], tuple[int, int]]:
    """The distribution up to a constant factor, in integers, and that factor: two views'
    distributions are proportional exactly when their directions are equal.

    Every probability is brought to one common denominator and the numerators divided by their
    greatest common divisor, leaving the unique primitive integer vector on the distribution's
    ray (zero entries are left out: a missing entry and a zero are the same probability).
    """
    dens = {den for den, _ in dist.values()}
    common = dens.pop() if len(dens) == 1 else math.lcm(*dens)
    g = 0
    scaled: list[tuple[tuple[Any, ...], int, int]] = []
    for key, (den, nums) in dist.items():
        f = common // den
        for u, num in nums.items():
            if num:
                v = num * f
                g = math.gcd(g, v)
                scaled.append((key, u, v))
    r = math.gcd(g, common)
    scale = (g // r, common // r)
    if g > 1:
        return frozenset((key, u, v // g) for key, u, v in scaled), scale
    return frozenset(scaled), scale
