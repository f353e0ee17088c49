"""A spec's worked example, and the words of its scenario."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from reference_engine.api import (
    Library,
    Params,
    Protocol,
    Simulation,
    example_inputs,
    glyph,
    simulate,
)

from ..core.words import clauses
from ..lang.catalogue import _
from .glossary import Glossary

# --------------------------------------------------------------------------- examples


@dataclass
class Example:
    """A worked example: how to run the protocol once, and how to say what it is."""

    params: Params
    inputs: dict[str, object] | list[str]
    seed: int
    record: dict[str, object]
    text: str
    scenario: str | None = None
    context: dict[str, Callable[..., object]] | None = None  # game functions (``valid``)

    def run(self, library: Library, proto: Protocol) -> Simulation:
        return simulate(
            library, proto, self.params, self.inputs, self.seed, scenario=self.scenario, context=self.context
        )


def spec_example(proto: Protocol, library: Library | None = None, params: Params | None = None) -> Example:
    """The spec's ``booklet: example`` (with ``params`` instead of its own, when given); an
    input it does not give takes a middle value."""
    bt = proto.booklet
    use = dict(params) if params else dict(bt.example_params)
    if library is not None:
        inputs = example_inputs(library, proto, dict(params) if params else None)
    else:
        inputs = [f"{k}={v}" for k, v in bt.example_inputs.items()]
    given = dict(i.split("=", 1) for i in inputs)
    record: dict[str, object] = {
        "params": {k: list(v) if isinstance(v, tuple) else v for k, v in use.items()},
        "inputs": given,
        "seed": bt.example_seed,
        "scenario": bt.example_scenario,
    }
    words = Glossary(proto)
    parts = [words.quantity(k, v) for k, v in given.items()]
    parts += [words.quantity(k, v) for k, v in use.items() if not bt.example_scenario]
    given_words = [clauses(parts)] if parts else []
    if bt.example_scenario:
        given_words.append(scenario_words(proto, bt.example_scenario))
    text = _("Worked example: ") + (_("; ").join(given_words) or _("the spec's own inputs"))
    text += _(". The shuffles fall as a seeded random draw made them (seed {seed}).").format(
        seed=bt.example_seed
    )
    return Example(use, inputs, bt.example_seed, record, text, scenario=bt.example_scenario)


def scenario_words(proto: Protocol, name: str) -> str:
    """A scenario as a player reads it: ``a test deal of UNO (R1 G2 B7 Y5 W), dealt at random``."""
    sc = proto.scenarios[name]
    cards = " ".join(glyph(c) for c in sc.deal)
    return f"a {len(sc.deal)}-card test deal of {sc.game} ({cards}), dealt at random"
