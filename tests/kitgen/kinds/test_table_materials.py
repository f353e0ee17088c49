"""A table game's kit counts the materials of the protocol it is built with
(:meth:`kitgen.kinds.table.TableKit.materials`): with ``--protocol card-selection-arrow`` a Sevens
or Dominoes kit printed α/β bit markers and listed envelopes, which that protocol never uses, and
no arrow cards or mats, which it does."""

from __future__ import annotations

import pytest

from kitgen.core.templates import load_templates
from kitgen.kinds.kind import kit_kind
from kitgen.kit.build import KitOptions
from reference_engine.api import load_game
from reference_engine.registry import Library


def materials(game: str, protocol: str) -> dict[str, int]:
    library, rules = Library(), load_game(game)
    kind = kit_kind(rules)
    plan = kind.plan(KitOptions(ruleset=game, protocol=protocol, virtual=1), rules, load_templates())
    return {i.key: i.needed for i in kind.materials(library, rules, plan, []).items}


@pytest.mark.parametrize("game", ["sevens", "dominoes"])
def test_an_arrow_kit_prints_arrows_and_buys_no_envelopes(game: str) -> None:
    arrow = materials(game, "card-selection-arrow")
    assert "arrow" in arrow and "sleeve" in arrow
    assert not {"alpha", "beta", "envelope"} & set(arrow)
    fast = materials(game, "card-selection-fast")  # the rule sets' own: α/β pairs and envelopes
    assert {"alpha", "beta", "envelope"} <= set(fast) and "arrow" not in fast
    assert arrow["deck"] == fast["deck"]
