"""A kept law's tree of observations (:class:`reference_engine.machine.relabel._Prepared`) is
keyed by the observations' values, whatever objects hold them."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from reference_engine.machine import relabel as rl
from reference_engine.machine.plans import SubResult
from reference_engine.meters import Meters


def _res(codes: tuple[int, ...]) -> SubResult:
    return SubResult((((1, len(codes)), codes),), (True,), ((0, -1),), Meters(1, 2, (), (), ()), ())


def _reference_tree(law: Any) -> tuple[list[Any], list[int]]:
    """A law's tree of observations keyed by each observation's value (the reference)."""
    index: dict[Any, int] = {}
    nodes: list[Any] = []
    ends = []
    for chain, _, _ in law:
        node = 0
        for obs in chain:
            got = index.get((node, obs))
            if got is None:
                nodes.append((node, obs))
                got = index[(node, obs)] = len(nodes)
            node = got
        ends.append(node)
    return nodes, ends


def test_a_prepared_law_s_tree_is_keyed_by_its_observations_values() -> None:
    """Equal observations as other objects (as an enumeration's chains hold them) are one node
    under one parent; the same object under other parents, other nodes."""
    rng = random.Random(2)

    def obs(k: int) -> Any:
        return ("let", (("h", (k, k + 1)),)) if k % 2 else ("if", bool(k % 4))

    shared = [obs(k) for k in range(6)]
    law = []
    for i in range(12):
        chain = tuple(
            shared[rng.randrange(6)] if rng.random() < 0.5 else obs(rng.randrange(6)) for _ in range(4)
        )
        law.append((chain, _res((i << 1,)), Fraction(1, 12)))
    prep = rl._Prepared(tuple(law), "x")  # type: ignore[arg-type]
    nodes, ends = _reference_tree(law)
    assert prep.nodes == nodes and prep.ends == ends
    assert len(nodes) < sum(len(c) for c, _, _ in law)  # prefixes shared
