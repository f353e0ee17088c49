"""The players' views, interned: every view is its parent view plus one observation."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from ..cards import DEALT, SYMBOLS, Symbol
from ..errors import ReductionRefused

Observation = tuple[Any, ...]
"""One thing the players see: ``("turn", codes)``, ``("if", result)``, ``("call", name, ...)``...

``("unordered", step, dealt, patterns, orders)`` is a reveal in scrambled columns recorded as
a multiset (see :mod:`reference_engine.verify.symmetry`): ``patterns`` the sorted (pattern,
count) pairs of what each column showed, ``dealt`` how many columns showed a dealt card alone
(by its class: their faces are the deck's, whatever the deal), ``orders`` how many sequences
the players could have seen, all equally likely: the view stands for that many views."""


def _refuse_dealt(obs: Observation) -> None:
    """A view may not show a dealt card's face in a verification by validity classes."""
    kind = obs[0]
    if kind in ("turn", "shuffle"):
        shown = [c for c in obs[1] if c >= 0 and c >> 1 in DEALT.ids]
    elif kind == "discard":
        shown = [s for s in obs[1] if s in DEALT.ids]
    elif kind in ("hand", "shown"):  # symbol ids: cards come into a watched hand, an output shown
        shown = [s for s in obs[2] if s in DEALT.ids]
    elif kind in ("merged", "unordered") or (kind == "call" and isinstance(obs[2], int)):
        return
    else:
        shown = [v for v in _symbols(obs[1:]) if v.id in DEALT.ids]
    if shown:
        what = {
            "turn": "turns",
            "shuffle": "shuffles face up",
            "discard": "returns to the spares",
            "hand": "shows the person holding a hand (players)",
            "shown": "shows at the end, where it lies among a public output's cards,",
        }
        raise ReductionRefused(
            f"the protocol {what.get(kind, 'makes public')} a dealt card other than in a reveal of "
            "every dealt card in scrambled columns: the players would see a face, not only a "
            "validity class, so the reduction by classes does not apply"
        )


def _symbols(value: Any) -> list[Symbol]:
    if isinstance(value, Symbol):
        return [value]
    if isinstance(value, (tuple, list)):
        return [s for v in value for s in _symbols(v)]
    return []


class ViewTable:
    """Interns views: a view is its parent view plus one observation.

    ``weight(v)`` is how many distinct views the players could tell apart that ``v`` stands
    for: 1, unless ``v`` descends from views merged by :func:`~.forgetting.forget` (a merged
    view stands for all its members, and so does everything that follows it).
    """

    def __init__(self) -> None:
        self._index: dict[tuple[int, Observation], int] = {}
        self.entries: list[tuple[int, Observation | None]] = [(-1, None)]
        self.weights: list[int] = [1]
        self._digests: dict[int, str] = {0: ""}

    def extend(self, view: int, obs: Observation) -> int:
        key = (view, obs)
        index = self._index
        if DEALT.ids:  # a view checked before it is interned (a refused one is not kept)
            vid = index.get(key)
            if vid is None:
                _refuse_dealt(obs)
                vid = self._add(key)
                index[key] = vid
            return vid
        # Looked up and interned at once: the key (an observation of up to a few dozen codes)
        # hashed once, not once to look it up and again to add it (most of a game's views are new).
        entries = self.entries
        vid = len(entries)
        hit = index.setdefault(key, vid)
        if hit != vid:
            return hit
        weights = self.weights
        try:
            weight = weights[view] if view >= 0 else 1
            if obs[0] == "unordered":
                weight *= obs[-1]  # it stands for that many orders of what was seen
        except BaseException:  # no such parent view: nothing interned, as before
            del index[key]
            raise
        entries.append(key)
        weights.append(weight)
        return vid

    def extend_tree(self, nodes: list[tuple[int, Observation]]) -> list[int]:
        """The views of a tree of observations (``nodes``: (parent node, observation), node
        ``k + 1`` the ``k``-th, its parent an earlier node, 0 the root view), each interned as
        :meth:`extend` interns it, in order: ``out[k + 1]`` is node ``k + 1``'s view, ``out[0]``
        is 0. One loop here, not a call per node: a kept law's ~60 nodes are interned in each
        game's table that meets it (:func:`.relabel._rebuilt`)."""
        ids = [0]
        if DEALT.ids:  # each view checked: as extend does
            for parent, obs in nodes:
                ids.append(self.extend(ids[parent], obs))
            return ids
        index = self._index
        entries = self.entries
        weights = self.weights
        setdefault = index.setdefault
        add = ids.append
        for parent, obs in nodes:
            view = ids[parent]  # a view of this table (>= 0)
            key = (view, obs)
            vid = len(entries)
            hit = setdefault(key, vid)
            if hit == vid:
                try:
                    weight = weights[view]
                    if obs[0] == "unordered":
                        weight *= obs[-1]  # it stands for that many orders of what was seen
                except BaseException:  # nothing interned, as extend
                    del index[key]
                    raise
                entries.append(key)
                weights.append(weight)
            add(hit)
        return ids

    def _add(self, key: tuple[int, Observation]) -> int:
        """A new view's entry and weight (``key``: its parent and observation); its id."""
        view, obs = key
        weights = self.weights
        weight = weights[view] if view >= 0 else 1
        if obs[0] == "unordered":
            weight *= obs[-1]  # it stands for that many orders of what was seen
        entries = self.entries
        vid = len(entries)
        entries.append(key)
        weights.append(weight)
        return vid

    def merged(self, obs: Observation) -> int:
        """A fresh view standing for several (see :func:`~.forgetting.forget`): ``obs`` is
        ``("merged", step, digest, weight)``, the weight being the members' together."""
        vid = self.extend(0, obs)
        self.weights[vid] = obs[3]
        return vid

    def weight(self, view: int) -> int:
        return self.weights[view]

    def observations(self, view: int) -> list[Observation]:
        out = []
        while view > 0:
            parent, obs = self.entries[view]
            assert obs is not None  # only the root view (0) has no observation
            out.append(obs)
            view = parent
        return out[::-1]

    def expanded(self, view: int) -> list[Any]:
        """The observations, with each inlined call's own view expanded into a list."""
        out: list[Any] = []
        for obs in self.observations(view):
            if obs[0] == "call" and isinstance(obs[2], int):
                out.append(("call", obs[1], self.expanded(obs[2])))
            else:
                out.append(obs)
        return out

    # -- the same view in every process ------------------------------------------------
    # View ids are interned per process; a verification split over processes (see
    # :mod:`reference_engine.verify.partition`) names views by a digest of their observations
    # instead, and carries a view from one process to another as its exported chain.

    def digest(self, view: int) -> str:
        """A name of ``view`` that is the same in every process: a hash of its observations
        (an inlined call's view by its own digest; a merged view by the digest it was given)."""
        hit = self._digests.get(view)
        if hit is None:
            parent, obs = self.entries[view]
            assert obs is not None
            text = repr(self._portable(obs))
            hit = hashlib.blake2b(f"{self.digest(parent)}|{text}".encode(), digest_size=16).hexdigest()
            self._digests[view] = hit
        return hit

    def _portable(self, obs: Observation) -> Observation:
        kind = obs[0]
        if kind == "call" and isinstance(obs[2], int):
            return ("call", obs[1], ("view", self.digest(obs[2])))
        if kind in ("turn", "shuffle"):
            return (kind, tuple(portable_code(c) for c in obs[1]))
        if kind == "discard":
            return (kind, tuple(sorted((portable(SYMBOLS.by_id(s)) for s in obs[1]), key=repr)))
        if kind in ("hand", "shown"):
            return (kind, obs[1], tuple(portable(SYMBOLS.by_id(s)) for s in obs[2]))
        out: Observation = portable(obs)
        return out

    def export(self, view: int) -> tuple[Any, ...]:
        """``view`` as a chain of observations another process can :meth:`adopt`."""
        out = []
        while view > 0:
            parent, obs = self.entries[view]
            assert obs is not None
            if obs[0] == "call" and isinstance(obs[2], int):
                out.append(("call", obs[1], ("view", self.export(obs[2]))))
            else:
                out.append(self._portable(obs))
            view = parent
        return tuple(out[::-1])

    def adopt(self, chain: tuple[Any, ...]) -> int:
        """The id in this table of a view exported by :meth:`export` (interned as usual)."""
        view = 0
        for obs in chain:
            kind = obs[0]
            if kind == "call" and isinstance(obs[2], tuple) and obs[2][:1] == ("view",):
                view = self.extend(view, ("call", obs[1], self.adopt(obs[2][1])))
            elif kind == "merged":
                assert view == 0, "a merged view starts from the root"
                view = self.extend(0, obs)
                self.weights[view] = obs[3]
            elif kind in ("turn", "shuffle"):
                view = self.extend(view, (kind, tuple(_local_code(c) for c in obs[1])))
            elif kind == "discard":
                view = self.extend(view, (kind, tuple(sorted(local(s).id for s in obs[1]))))
            elif kind in ("hand", "shown"):
                view = self.extend(view, (kind, obs[1], tuple(local(s).id for s in obs[2])))
            else:
                view = self.extend(view, local(obs))
        return view

    def __len__(self) -> int:
        return len(self.entries)


# --------------------------------------------------------------------------- portable values
# Card codes are symbol ids, numbered in the order a process first meets each symbol; two
# processes may meet family cards (c3, θ2...) in different orders. Between processes a
# symbol travels by name (and glyph), and is numbered again on arrival.


@dataclass(frozen=True)
class PortableSymbol:
    name: str
    glyph: str


def portable(value: Any) -> Any:
    """``value`` with every symbol replaced by its name (see :func:`local`)."""
    if isinstance(value, Symbol):
        return PortableSymbol(value.name, value.glyph)
    if isinstance(value, tuple):
        return tuple(portable(v) for v in value)
    if isinstance(value, list):
        return [portable(v) for v in value]
    return value


def local(value: Any) -> Any:
    """A :func:`portable` value with this process's symbols."""
    if isinstance(value, PortableSymbol):
        return SYMBOLS.intern(value.name, value.glyph)
    if isinstance(value, tuple):
        return tuple(local(v) for v in value)
    if isinstance(value, list):
        return [local(v) for v in value]
    return value


def portable_code(c: int) -> Any:
    """A card code (see :mod:`reference_engine.cards`) by its symbol's name."""
    return c if c < 0 else (portable(SYMBOLS.by_id(c >> 1)), c & 1)


def _local_code(c: Any) -> int:
    if isinstance(c, int):
        return c
    sym, up = c
    sid: int = local(sym).id
    return sid << 1 | int(up)
