"""The worked example of a shedding game's booklet: a real moment of a seeded game, with the
weights of a weighted virtual player."""

from __future__ import annotations

from reference_engine.api import RuleSet, Shedding, Strategy, find_kind

from ...booklet.examples import Example
from ..kind import KitPlan


def wild4(rules: RuleSet) -> str:
    """How the booklet's games play a wild draw four: bluffed where the rules let it be."""
    return "bluff" if rules.hand_dependent else "strict"


def discard_owner(plan: KitPlan) -> bool:
    return plan.own.switch("discard_owner")


def weighted(example: Example, rules: RuleSet, strategy: Strategy | None) -> Example:
    """The example of a weighted ``strategy``: the weighted selection protocol's weights and w."""
    weights = strategy.weights if strategy is not None else None
    if weights is None:
        return example
    kind = find_kind(rules.kind)
    assert isinstance(kind, Shedding) and isinstance(example.params, dict)
    assert isinstance(example.inputs, dict) and example.context is not None
    weight = kind.weight_function(rules, weights)
    recorded, cards = example.record["params"], example.inputs["cards"]
    assert isinstance(recorded, dict) and isinstance(cards, list)
    hand = cards[: recorded["sizes"][0]]
    valid = example.context["valid"]
    example.params["w"] = recorded["w"] = weights.largest
    example.context["weight"] = weight
    example.record["weights"] = dict(weights.by_name)
    example.text += (
        " The virtual players weigh the cards by kind ("
        + ", ".join(f"{name} {w}" for name, w in weights.by_name)
        + "): "
        + ", ".join(f"{c.glyph} weighs {weight(c)}" for c in hand if valid(c))
        + "."
    )
    return example
