"""Solitaire UNO with few colours or few numbers: a dynamic programme on trails (Theorem 5).

The paper's geometric view (Section 3.3) draws each card (x, y) as a point; Observation 1
says the UNO-1 graph is the line graph of the bipartite *card graph* G whose vertices are
the colours and the numbers and whose edges are the cards (a repeated card is a repeated
edge). A chain using every card is a Hamiltonian path of that line graph, and:

    the cards can be played in one chain  <=>  G has a trail T (possibly a single vertex)
                                                such that every card touches a vertex of T.

(=>) In a chain f_1 ... f_n, pick a shared colour or number w_i of f_i and f_(i+1). Where
w_i != w_(i+1), both are ends of f_(i+1), so the w's walk through G using each card at most
once: a trail, and every card f_i touches w_(i-1) or w_i. (<=) Play the trail's cards in
order; every other card is played at a visit of a colour or number it has, where it matches
the cards before and after it. By Euler, a multiset S of edges is a trail iff S is connected
and at most two vertices have odd degree in S.

So the question is whether some U (the colours and numbers the trail visits) is a vertex
cover of G and some S inside U spans U, is connected, and has at most two odd vertices. The
programme fixes the smaller side A (colours or numbers, a = |A|) and goes through the larger
side B one vertex at a time. For each b in B it decides whether b is on the trail and, if so,
for each card (a', b) whether the trail uses it 0 times, an odd or an even number of times
(even needs two copies). Its state after a prefix of B is: which vertices of A the trail has
touched and how they are joined (a partition), the parity of their degrees, the vertices of
A that must still be touched (a card (a', b) with b off the trail needs a' on it), and how
many vertices of B have odd degree (at most 2). That is at most Bell(a) * 2^a * 2^a * 3
states, so the time is linear in |B| and in the number of cards for a fixed a: polynomial
for a constant number of colours or of numbers, as Theorem 5 states, and much faster than
the paper's n^O(c^2) count of subpath families.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product

from ..errors import UsageError
from .cards import Budget, Card
from .chains import Vertex, chain_from_trail, ends

# The largest smaller side the programme takes (Bell(a) * 4^a * 3 states at most).
MAX_SIDE = 8

# A state: (block label of each vertex of A, 0 = not touched; parity mask; must-touch mask;
# odd vertices of B so far).
State = tuple[tuple[int, ...], int, int, int]
Choice = tuple[int, ...] | None  # uses per card of b (0, 1 = odd, 2 = even), None: b is off the trail


@dataclass(frozen=True)
class Sides:
    """The card graph split into its smaller side A and larger side B."""

    swap: bool  # A is the numbers (there are fewer numbers than colours)
    small: tuple[int, ...]  # the values of A
    large: tuple[int, ...]  # the values of B
    mult: dict[tuple[int, int], int]  # (index in A, value of B) -> how many such cards

    @classmethod
    def of(cls, cards: Sequence[Card]) -> Sides:
        colours = sorted({c.colour for c in cards})
        numbers = sorted({c.number for c in cards})
        swap = len(numbers) < len(colours)
        small, large = (numbers, colours) if swap else (colours, numbers)
        index = {v: i for i, v in enumerate(small)}
        mult: dict[tuple[int, int], int] = Counter(
            (index[c.number], c.colour) if swap else (index[c.colour], c.number) for c in cards
        )
        return cls(swap, tuple(small), tuple(large), dict(mult))

    def card(self, i: int, b: int) -> Card:
        return Card(b, self.small[i]) if self.swap else Card(self.small[i], b)


def smaller_side(cards: Sequence[Card]) -> int:
    """min(colours, numbers): what the programme's size depends on."""
    return min(len({c.colour for c in cards}), len({c.number for c in cards}))


def _canonical(labels: list[int]) -> tuple[int, ...]:
    """Relabel blocks 1, 2, ... in order of first appearance (0 stays 0)."""
    seen: dict[int, int] = {}
    out = []
    for x in labels:
        if x == 0:
            out.append(0)
        else:
            out.append(seen.setdefault(x, len(seen) + 1))
    return tuple(out)


def _options(edges: list[tuple[int, int]]) -> list[tuple[tuple[int, ...], int, int, int]]:
    """Every way b can lie on the trail: (uses per edge, touched mask, odd mask, b's parity)."""
    out = []
    for uses in product(*[(0, 1, 2) if m >= 2 else (0, 1) for _, m in edges]):
        touched = odd = 0
        for (i, _), u in zip(edges, uses):
            if u:
                touched |= 1 << i
            if u == 1:
                odd |= 1 << i
        if touched:
            out.append((uses, touched, odd, bin(odd).count("1") & 1))
    return out


def _merge(labels: tuple[int, ...], touched: int, a: int) -> tuple[tuple[int, ...], int]:
    """The blocks after a vertex of B joins the vertices ``touched``, and the touched mask."""
    merged = {x for i, x in enumerate(labels) if touched >> i & 1 and x}
    new = list(labels)
    target = max(labels, default=0) + 1
    for i in range(a):
        if touched >> i & 1 or (new[i] and new[i] in merged):
            new[i] = target
    return _canonical(new), sum(1 << i for i in range(a) if new[i])


def _accepts(state: State) -> bool:
    labels, parity, missing, odd_b = state
    one_piece = any(labels) and all(x == 1 for x in labels if x)
    return missing == 0 and one_piece and bin(parity).count("1") + odd_b <= 2


def dp_chain(cards: Sequence[Card], budget: Budget | None = None) -> list[Card] | None:
    """A chain using every card, or None when there is none (exact). Refuses (UsageError) when
    both colours and numbers are more than :data:`MAX_SIDE`."""
    if not cards:
        return []
    budget = budget or Budget()
    sides = Sides.of(cards)
    a = len(sides.small)
    if a > MAX_SIDE:
        raise UsageError(
            f"the dynamic programme takes at most {MAX_SIDE} colours or at most {MAX_SIDE} numbers; "
            f"these cards have {a} of both (use «method» search)"
        )
    edges_of: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for (i, b), m in sorted(sides.mult.items()):
        edges_of[b].append((i, m))
    start: State = (tuple([0] * a), 0, 0, 0)
    layers: list[dict[State, tuple[State, Choice]]] = []
    frontier: dict[State, tuple[State, Choice]] = {start: (start, None)}
    for b in sides.large:
        edges = edges_of[b]
        all_mask = sum(1 << i for i, _ in edges)
        options = _options(edges)
        nxt: dict[State, tuple[State, Choice]] = {}
        merges: dict[tuple[tuple[int, ...], int], tuple[tuple[int, ...], int]] = {}
        for state in frontier:
            budget.tick("the dynamic programme")
            labels, parity, missing, odd_b = state
            touched_now = sum(1 << i for i in range(a) if labels[i])
            # b off the trail: each of its cards needs its other end on the trail.
            off = (labels, parity, (missing | all_mask) & ~touched_now, odd_b)
            nxt.setdefault(off, (state, None))
            for uses, touched, odd, parity_b in options:
                if odd_b + parity_b > 2:
                    continue
                key = (labels, touched)
                if key not in merges:
                    merges[key] = _merge(labels, touched, a)
                new_labels, now = merges[key]
                new = (new_labels, parity ^ odd, missing & ~now, odd_b + parity_b)
                if new not in nxt:
                    nxt[new] = (state, uses)
        # Of two states that differ only in how many vertices of B have odd degree, the one with
        # fewer is never worse: keep it alone.
        best: dict[tuple[tuple[int, ...], int, int], int] = {}
        for labels, parity, missing, odd_b in nxt:
            k = (labels, parity, missing)
            best[k] = min(best.get(k, 3), odd_b)
        nxt = {st: back for st, back in nxt.items() if best[(st[0], st[1], st[2])] == st[3]}
        layers.append(nxt)
        frontier = nxt
    final = next((s for s in sorted(frontier) if _accepts(s)), None)
    if final is None:
        return None
    used: Counter[tuple[int, int]] = Counter()
    state = final
    for b, layer in zip(reversed(sides.large), reversed(layers)):
        prev, choice = layer[state]
        if choice is not None:
            for (i, _), u in zip(edges_of[b], choice):
                if u:
                    used[(i, b)] += u
        state = prev
    return _chain(sides, used)


def _chain(sides: Sides, used: Counter[tuple[int, int]]) -> list[Card]:
    """The chain from the trail's cards ``used`` (an Euler trail of them) and every other card."""
    adjacency: dict[Vertex, list[tuple[Vertex, int]]] = defaultdict(list)
    steps: list[Card] = []
    for (i, b), u in sorted(used.items()):
        card = sides.card(i, b)
        colour, number = ends(card)
        for _ in range(u):
            adjacency[colour].append((number, len(steps)))
            adjacency[number].append((colour, len(steps)))
            steps.append(card)
    odd = [v for v in sorted(adjacency) if len(adjacency[v]) % 2]
    vertices, trail = _euler(adjacency, odd[0] if odd else min(adjacency), len(steps))
    cards = [sides.card(i, b) for (i, b), m in sorted(sides.mult.items()) for _ in range(m)]
    return chain_from_trail(vertices, [steps[k] for k in trail], cards)


def _euler(
    adjacency: dict[Vertex, list[tuple[Vertex, int]]], begin: Vertex, edges: int
) -> tuple[list[Vertex], list[int]]:
    """Hierholzer: the vertices and edge numbers of a trail using every edge once from ``begin``."""
    done = [False] * edges
    pointer: dict[Vertex, int] = defaultdict(int)
    stack: list[tuple[Vertex, int | None]] = [(begin, None)]
    vertices: list[Vertex] = []
    trail: list[int] = []
    while stack:
        v, via = stack[-1]
        nbrs = adjacency[v]
        while pointer[v] < len(nbrs) and done[nbrs[pointer[v]][1]]:
            pointer[v] += 1
        if pointer[v] < len(nbrs):
            w, k = nbrs[pointer[v]]
            done[k] = True
            stack.append((w, k))
        else:
            stack.pop()
            vertices.append(v)
            if via is not None:
                trail.append(via)
    vertices.reverse()
    trail.reverse()
    return vertices, trail


__all__ = ["MAX_SIDE", "dp_chain", "smaller_side"]
