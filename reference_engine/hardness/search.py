"""The exact search for SOLITAIRE UNO: a Hamiltonian path of the UNO-1 graph, found as a trail.

The UNO-1 graph (cards, joined where they match) is the line graph of the card graph G whose
vertices are the colours and the numbers and whose edges are the cards (Observation 1). Its
Hamiltonian paths - the chains of every card - are exactly the *dominating trails* of G: trails
whose colours and numbers touch every card (proof in :mod:`.trails`). So the search walks G
instead of ordering cards: from a colour or number it follows an unused card to the card's
other end, and stops as soon as every card touches a visited colour or number. The cards it
did not walk along are then played at a visit (:mod:`.chains`); their order, which a
card-by-card search would try over and over, never has to be searched.

Memoisation: the rest of the search depends only on where the trail is and which cards it has
used (the visited colours and numbers follow from those), one integer per position; a position
that failed is never searched again. Pruning, at every position, over the cards not used yet:

* every card not yet touched needs an end that the trail can still reach;
* the trail crosses a bridge of the unused cards at most once (it cannot come back), so the
  2-edge-connected pieces it still has to visit must lie on one path of the bridge tree, going
  away from where the trail is.

Moves are tried towards the colour or number that touches most cards not yet touched first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .cards import Budget, Card
from .chains import Vertex, chain_from_trail, ends


class TrailSearch:
    """One search over the trails of the card graph of ``cards``."""

    def __init__(self, cards: Sequence[Card], budget: Budget):
        self.cards = list(cards)
        self.budget = budget
        count = Counter(cards)
        self.kinds = sorted(count)
        vertices = sorted({v for c in self.kinds for v in ends(c)})
        self.vertex: list[Vertex] = vertices
        index = {v: i for i, v in enumerate(vertices)}
        self.ends = [(index[ends(c)[0]], index[ends(c)[1]]) for c in self.kinds]
        self.mult = [count[c] for c in self.kinds]
        self.used = [0] * len(self.kinds)
        self.incident: list[list[tuple[int, int]]] = [[] for _ in vertices]
        self.touches = [0] * len(vertices)  # the kinds of card at each vertex, as a bit mask
        for k, (a, b) in enumerate(self.ends):
            self.incident[a].append((k, b))
            self.incident[b].append((k, a))
            self.touches[a] |= 1 << k
            self.touches[b] |= 1 << k
        self.full = (1 << len(self.kinds)) - 1
        self.weight: list[int] = []
        w = 1
        for m in self.mult:
            self.weight.append(w)
            w *= m + 1
        self.failed: set[int] = set()

    # ------------------------------------------------------------------ the search

    def run(self) -> list[Card] | None:
        if not self.cards:
            return []
        order = sorted(range(len(self.vertex)), key=lambda v: (-bin(self.touches[v]).count("1"), v))
        for start in order:
            steps = self._from(start)
            if steps is not None:
                vertices = [start]
                for k in steps:
                    a, b = self.ends[k]
                    vertices.append(b if vertices[-1] == a else a)
                return chain_from_trail(
                    [self.vertex[v] for v in vertices], [self.kinds[k] for k in steps], self.cards
                )
        return None

    def _from(self, start: int) -> list[int] | None:
        """The cards of a dominating trail from ``start`` (iteratively), or None."""
        covered = self.touches[start]
        if covered == self.full:
            return []
        steps: list[int] = []
        code = 0
        frames: list[tuple[int, int, list[tuple[int, int]]]] = [
            (start, covered, self._moves(start, covered, 0))
        ]
        while frames:
            v, covered, moves = frames[-1]
            if not moves:
                frames.pop()
                self.failed.add(code * len(self.vertex) + v)
                if steps:
                    k = steps.pop()
                    self.used[k] -= 1
                    code -= self.weight[k]
                continue
            k, w = moves.pop()
            self.used[k] += 1
            code += self.weight[k]
            steps.append(k)
            now = covered | self.touches[w]
            if now == self.full:
                result = list(steps)
                self._reset(steps)
                return result
            frames.append((w, now, self._moves(w, now, code)))
        return None

    def _reset(self, steps: list[int]) -> None:
        for k in steps:
            self.used[k] -= 1

    def _moves(self, v: int, covered: int, code: int) -> list[tuple[int, int]]:
        """The unused cards at ``v`` to walk along, in reverse order of trying; [] when pruned."""
        key = code * len(self.vertex) + v
        if key in self.failed:
            return []
        self.budget.tick("solitaire search")
        if not self._promising(v, covered):
            self.failed.add(key)
            return []
        moves = [(k, w) for k, w in self.incident[v] if self.used[k] < self.mult[k]]
        moves.sort(key=lambda kw: (bin(self.touches[kw[1]] & ~covered).count("1"), -kw[0]))
        return moves

    # ------------------------------------------------------------------ pruning

    def _promising(self, v: int, covered: int) -> bool:
        """Whether the cards not yet touched can all still be touched (reach and bridge tree)."""
        comp, parent, depth = self._bridge_tree(v)
        need: set[int] = set()
        rest = self.full & ~covered
        k = 0
        while rest:
            if rest & 1:
                a, b = self.ends[k]
                ca, cb = comp[a], comp[b]
                if ca < 0 and cb < 0:
                    return False  # neither end can be reached
                if ca < 0 or (cb >= 0 and depth[cb] < depth[ca]):
                    need.add(cb)
                else:
                    need.add(ca)
            rest >>= 1
            k += 1
        if not need:
            return True
        node: int | None = max(need, key=lambda c: depth[c])
        on_path: set[int] = set()
        while node is not None:
            on_path.add(node)
            node = parent[node]
        return need <= on_path

    def _bridge_tree(self, root: int) -> tuple[list[int], dict[int, int | None], dict[int, int]]:
        """The 2-edge-connected pieces of the unused cards reachable from ``root`` (-1: not
        reachable), and the tree of pieces joined by bridges, rooted at ``root``'s piece
        (Tarjan's bridge algorithm, iteratively)."""
        n = len(self.vertex)
        disc = [-1] * n
        low = [0] * n
        comp = [-1] * n
        pieces = 0
        stack: list[int] = []
        tick = 0
        frames: list[tuple[int, int, int]] = [(root, -1, 0)]  # vertex, card kind used to come, next
        disc[root] = low[root] = 0
        stack.append(root)
        tick = 1
        bridges: list[tuple[int, int]] = []
        while frames:
            x, via, i = frames[-1]
            incident = self.incident[x]
            if i < len(incident):
                frames[-1] = (x, via, i + 1)
                k, y = incident[i]
                if self.used[k] >= self.mult[k] or (k == via and self.mult[k] - self.used[k] == 1):
                    continue
                if disc[y] < 0:
                    disc[y] = low[y] = tick
                    tick += 1
                    stack.append(y)
                    frames.append((y, k, 0))
                else:
                    low[x] = min(low[x], disc[y])
                continue
            frames.pop()
            if frames:
                px = frames[-1][0]
                low[px] = min(low[px], low[x])
                if low[x] > disc[px]:
                    bridges.append((px, x))
            if low[x] == disc[x]:
                while True:
                    z = stack.pop()
                    comp[z] = pieces
                    if z == x:
                        break
                pieces += 1
        top = comp[root]
        parent: dict[int, int | None] = {top: None}
        depth = {top: 0}
        children: dict[int, list[int]] = {}
        for px, x in bridges:
            children.setdefault(comp[px], []).append(comp[x])
        queue = [top]
        for c in queue:
            for d in children.get(c, []):
                parent[d] = c
                depth[d] = depth[c] + 1
                queue.append(d)
        return comp, parent, depth


def trail_chain(cards: Sequence[Card], budget: Budget | None = None) -> list[Card] | None:
    """A chain using every card, found by the trail search, or None (exact)."""
    return TrailSearch(cards, budget or Budget()).run()


__all__ = ["TrailSearch", "trail_chain"]
