"""A kept law's factoring mapped into a game's view table (machine/relabel.py ``_rebuilt``, by the
nodes its chains end at) is the factoring of the law with each chain interned as the table interns
it: the same conditional laws, keys and order, and the same inlined outcomes; and renaming result
cards through a map of table codes is renaming their faces."""

from __future__ import annotations

from reference_engine.kinds.shedding import Game, load_rules
from reference_engine.machine import relabel as rl
from reference_engine.machine.plans import SubResult
from reference_engine.machine.views import ViewTable
from reference_engine.meters import Meters
from reference_engine.registry import Library
from reference_engine.selection import ENGINE


def _interned(views: ViewTable, chain: tuple[object, ...]) -> int:
    v = 0
    for obs in chain:
        v = views.extend(v, obs)  # type: ignore[arg-type]
    return v


def test_a_rebuilt_factoring_is_the_laws_with_its_chains_interned(relabel_fresh: None) -> None:
    rules = load_rules("uno")
    token = ENGINE.set("compiled")
    try:
        Game(rules, Library(), players=4, virtual=4, level="card", seed=3).play()
    finally:
        ENGINE.reset(token)
    laws = [(key, law) for key, (law, _, _) in rl._KEPT.items() if not isinstance(law, str)]
    assert laws  # the game's small lotteries kept some
    for key, law in laws:
        prep = rl._Prepared(law, "knockout-lottery")
        views = ViewTable()
        views.extend(0, ("turn", (4, 6)))  # a table that already holds views of its own
        got = rl._rebuilt(views, key, prep)
        reference = ViewTable()
        reference.extend(0, ("turn", (4, 6)))
        for chain, _, _ in law:  # the law's chains, in its order
            _interned(reference, chain)
        f = prep.factoring
        cond = {o: {_interned(reference, c): p for c, p in dist.items()} for o, dist in f.cond.items()}
        inlined = [
            (p, ("call", "knockout-lottery", _interned(reference, obs[2])), res)
            for p, obs, res in f.inlined
            if obs is not None
        ]
        assert [(o, list(d.items())) for o, d in got.cond.items()] == [
            (o, list(d.items())) for o, d in cond.items()
        ]
        assert got.inlined == inlined and got.factored == f.factored and got.ok == f.ok
        assert views.entries == reference.entries  # the same views, interned in the same order


def test_renaming_codes_is_renaming_faces() -> None:
    res = SubResult((((1, 3), (4, 7, -1)), ((1, 1), (10,))), (1,), (), Meters(), ())
    got = rl.relabel(res, {2: 5, 5: 2})
    assert got.cards == (((1, 3), (10, 7, -1)), ((1, 1), (4,)))  # 4: 2 down, 7: 3 up, 10: 5 down
    assert rl.relabel_codes(res, rl.code_map({2: 5, 5: 2})) == got
    assert got.values == res.values and got.meters == res.meters
