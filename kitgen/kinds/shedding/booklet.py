"""The booklet of a shedding game's kit: a real moment of a seeded game as the worked example."""

from __future__ import annotations

from typing import Any

from reference_engine.api import Library, PlaySettings, RuleSet, Shedding, Strategy, Symbol, find_kind

from ...booklet import Booklet, Example, booklet_style, sections
from ...kitcost import plan_cost
from ..kind import BookletInput
from ..virtual import deck_face


def game_example(
    rules: RuleSet,
    library: Library,
    players: int,
    virtual: int,
    discard_owner: bool,
    wild4: str,
    owners: list[str],
    strategy: Strategy | None = None,
) -> Example:
    """A real moment of a seeded game: Virtual 1's first turn holding 4-6 cards, some valid, some
    not (with a weighted ``strategy``, the weighted selection protocol's weights and w)."""
    kind = find_kind(rules.kind)
    assert isinstance(kind, Shedding)
    moment = kind.example_moment(
        rules,
        library,
        PlaySettings(players, virtual, options={"discard_owner": discard_owner, "wild4": wild4}),
    )
    table = moment.owners
    sizes = tuple(len(t) for t in table)
    cards: list[Symbol] = [c for t in table for c in t]
    top, color = moment.public["top"], moment.public["color"]
    hand = table[0]
    n_valid = sum(1 for c in hand if moment.valid(c))
    record = {
        "game": rules.name,
        "game_seed": moment.seed,
        "players": players,
        "virtual": virtual,
        "discard_owner": discard_owner,
        "top": top.name,
        "color": color,
        "params": {"sizes": list(sizes)},
        "inputs": {"cards": [c.name for c in cards]},
        "seed": 1,
    }
    who = ", ".join(f"{o}: {n}" for o, n in zip(owners, sizes))
    text = (
        f"Worked example: a real moment of a seeded game (game seed {moment.seed}). It is "
        f"{owners[0]}'s turn; the top card of the discard pile is {top.glyph} and the colour "
        f"in force is {color}. Cards in play: {len(cards)} ({who}). {owners[0]} holds "
        f"{', '.join(c.glyph for c in hand)}: {n_valid} of them may be played. The pictures "
        "show the table as everyone sees it; the shuffles fall as a seeded random draw made them (seed 1)."
    )
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
            + ", ".join(f"{c.glyph} weighs {weight(c)}" for c in hand if moment.valid(c))
            + "."
        )
    return Example(params, {"cards": cards}, 1, record, text, context=context)


def game_booklet(given: BookletInput, front: object) -> Booklet:
    """The booklet of a game kit: kit, setup, rules, a virtual player's turn, every protocol."""
    rules = given.rules
    assert isinstance(rules, RuleSet)
    plan, bom, library = given.plan, given.bom, given.library
    style = booklet_style()
    wild4 = "bluff" if rules.hand_dependent else "strict"
    discard_owner = plan.own.switch("discard_owner")
    example = game_example(
        rules, library, plan.players, plan.virtual, discard_owner, wild4, bom.seats, plan.strategy
    )
    booklet = Booklet(
        given.name,
        f"{rules.title}",
        f"A kit for {plan.players} players, {plan.virtual} of them virtual: everything to print, set up "
        "and play, and every protocol step by step.",
        "game",
        [],
        given.validation,
        given.statistical,
        rules,
        bom,
        bom.seats,
        plan.players,
        plan.virtual,
        example=example.record,
        deck=lambda n: deck_face(rules, n) if n in rules.cards else None,
        front=front,
    )
    booklet.sections = sections(
        library,
        library.protocol(plan.protocol),
        example,
        given.capacity,
        style,
        given.reveals,
        people=plan.people,
        owners=bom.seats,
    )
    options: dict[str, Any] = {"wild4": wild4, "discard_owner": discard_owner}
    strategy = plan.strategy
    if strategy is not None and strategy.weights is not None:  # games and runs with the weights
        options.update(strategy="weighted", weights=strategy.weights.text())
    booklet.cost = plan_cost(library, rules, plan, options)
    return booklet
