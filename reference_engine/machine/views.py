"""The players' views, interned: every view is its parent view plus one observation."""

from __future__ import annotations

from typing import Any

Observation = tuple[Any, ...]
"""One thing the players see: ``("turn", codes)``, ``("if", result)``, ``("call", name, ...)``..."""


class ViewTable:
    """Interns views: a view is its parent view plus one observation.

    ``weight(v)`` is how many distinct views the players could tell apart that ``v`` stands
    for: 1, unless ``v`` descends from views merged by :func:`~.frontier.forget` (a merged
    view stands for all its members, and so does everything that follows it).
    """

    def __init__(self) -> None:
        self._index: dict[tuple[int, Observation], int] = {}
        self.entries: list[tuple[int, Observation | None]] = [(-1, None)]
        self.weights: list[int] = [1]

    def extend(self, view: int, obs: Observation) -> int:
        key = (view, obs)
        vid = self._index.get(key)
        if vid is None:
            vid = len(self.entries)
            self.entries.append(key)
            self.weights.append(self.weights[view] if view >= 0 else 1)
            self._index[key] = vid
        return vid

    def merged(self, members: list[int], obs: Observation) -> int:
        """A fresh view standing for all ``members`` (see :func:`~.frontier.forget`)."""
        vid = self.extend(0, obs)
        self.weights[vid] = sum(self.weights[v] for v in members)
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

    def __len__(self) -> int:
        return len(self.entries)
