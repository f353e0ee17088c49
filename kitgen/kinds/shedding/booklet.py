"""The worked example of a shedding game's booklet: a real moment of a seeded game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from reference_engine.api import Library, PlaySettings, RuleSet, Shedding, Strategy, Symbol, find_kind

from ...booklet import Example
from ..kind import KitPlan

if TYPE_CHECKING:
    from ..table import TableKit


def wild4(rules: RuleSet) -> str:
    """How the booklet's games play a wild draw four: bluffed where the rules let it be."""
    return "bluff" if rules.hand_dependent else "strict"


def discard_owner(plan: KitPlan) -> bool:
    return bool(plan.extra.get("discard_owner", False))


def game_example(
    kit: TableKit,
    rules: RuleSet,
    library: Library,
    plan: KitPlan,
    owners: list[str],
    strategy: Strategy | None = None,
) -> Example:
    """A real moment of a seeded game: Virtual 1's first turn holding 4-6 cards, some valid, some
    not (with a weighted ``strategy``, the weighted selection protocol's weights and w)."""
    kind = find_kind(rules.kind)
    assert isinstance(kind, Shedding)
    settings = PlaySettings(
        plan.players,
        plan.virtual,
        options={"discard_owner": discard_owner(plan), "wild4": wild4(rules)},
    )
    moment = kind.example_moment(rules, library, settings)
    table = moment.owners
    sizes = tuple(len(t) for t in table)
    cards: list[Symbol] = [c for t in table for c in t]
    record = {
        "game": rules.name,
        "game_seed": moment.seed,
        "players": plan.players,
        "virtual": plan.virtual,
        "discard_owner": discard_owner(plan),
        "top": moment.public["top"].name,
        "color": moment.public["color"],
        "params": {"sizes": list(sizes)},
        "inputs": {"cards": [c.name for c in cards]},
        "seed": 1,
    }
    text = kit.moment_text(rules, moment, owners)
    params: dict[str, Any] = {"sizes": sizes}
    context: dict[str, Any] = {"valid": moment.valid}
    weights = strategy.weights if strategy is not None else None
    if weights is not None:
        weight = kind.weight_function(rules, weights)
        params["w"] = record["params"]["w"] = weights.largest
        context["weight"] = weight
        record["weights"] = dict(weights.by_name)
        text += (
            " The virtual players weigh the cards by kind ("
            + ", ".join(f"{name} {w}" for name, w in weights.by_name)
            + "): "
            + ", ".join(f"{c.glyph} weighs {weight(c)}" for c in table[0] if moment.valid(c))
            + "."
        )
    return Example(params, {"cards": cards}, 1, record, text, context=context)
