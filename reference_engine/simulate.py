"""One seeded run of a protocol, with its trace (``kitgen simulate``)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from .cards import SYMBOLS, Symbol
from .errors import SimulationError, UsageError
from .expressions import EvalError
from .machine import ONE, Frame, Runner, read_outputs
from .registry import Library
from .spec import Params, Protocol
from .table import State
from .trace import Trace
from .verify import describe_value


@dataclass
class Simulation:
    trace: Trace
    final: State
    outputs: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        data = self.trace.to_json()
        data["outputs"] = {k: _json_value(v) for k, v in self.outputs.items()}
        return data


def _json_value(v: Any) -> Any:
    if isinstance(v, Symbol):
        return v.name
    if isinstance(v, (list, tuple)):
        return [_json_value(x) for x in v]
    if v is None or isinstance(v, (int, str, bool)):
        return v
    return str(v)


def parse_params(raw: tuple[str, ...] | list[str]) -> Params:
    """``["m=5", "sizes=7,7,79"]`` -> ``{"m": 5, "sizes": (7, 7, 79)}``, or a clear error."""
    out: Params = {}
    for item in raw:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"--param takes NAME=NUMBER (or NAME=N,N,...), got {item!r}")
        try:
            parts = [int(v) for v in value.split(",")]
        except ValueError:
            raise UsageError(f"--param {name}: {value!r} is not a whole number (or a list of them)") from None
        out[name.strip()] = tuple(parts) if "," in value else parts[0]
    return out


def parse_inputs(frame: Frame, raw: tuple[str, ...] | list[str]) -> dict[str, Any]:
    """``["x=1", "c=..."]`` -> input values; arrays are comma-separated."""
    given: dict[str, str] = {}
    for item in raw:
        name, sep, value = item.partition("=")
        if not sep:
            raise UsageError(f"--input takes NAME=VALUE, got {item!r}")
        if name not in frame.proto.inputs:
            raise UsageError(
                f"{frame.proto.name} has no input {name!r} (inputs: {', '.join(frame.proto.inputs)})"
            )
        given[name] = value
    domains = frame.domains()
    values: dict[str, Any] = {}
    for name, decl in frame.proto.inputs.items():
        count = frame.input_count(name)
        domain = domains[name]
        if name not in given:
            if len(domain) == 1:
                values[name] = domain[0]
                continue
            raise UsageError(f"give --input {name}=... ({_domain_hint(frame, name, count)})")
        parts = given[name].split(",") if count is not None else [given[name]]
        if count is not None and len(parts) != count:
            raise UsageError(f"--input {name} needs {count} comma-separated values, got {len(parts)}")
        b = frame.bound(decl.encoding)
        parsed = []
        for i, text in enumerate(parts, 1):
            options = b.domain(i if count is not None else None)
            match = [v for v in options if _text(v) == text.strip()]
            if not match:
                raise UsageError(
                    f"--input {name}: {text!r} is not one of {', '.join(_text(v) for v in options)}"
                )
            parsed.append(match[0])
        values[name] = parsed if count is not None else parsed[0]
    return values


def _text(v: Any) -> str:
    return v.name if isinstance(v, Symbol) else str(v)


def _domain_hint(frame: Frame, name: str, count: int | None) -> str:
    b = frame.bound(frame.proto.inputs[name].encoding)
    options = ", ".join(_text(v) for v in b.domain(1 if count is not None else None))
    if count is not None:
        return f"{count} comma-separated values, each one of {options}"
    return f"one of {options}"


def simulate(
    library: Library,
    proto: Protocol,
    params: Params | None = None,
    inputs: tuple[str, ...] | list[str] | dict[str, Any] = (),
    seed: int | None = None,
    rng: random.Random | None = None,
) -> Simulation:
    """Run ``proto`` once with a seeded RNG and return its trace and outputs."""
    params = proto.resolve_params(params)
    rng = rng or random.Random(seed if seed is not None else 0)
    events: list[Any] = []
    runner = Runner(library, "sample", rng=rng, events=events)
    frame = runner.frame(proto, params)
    runner.limits = frame.helpers
    values = inputs if isinstance(inputs, dict) else parse_inputs(frame, inputs)
    try:
        state = frame.initial_state(values)
    except EvalError as exc:
        raise UsageError(str(exc)) from None
    final = runner.run(frame, {state: ONE})
    (end,) = final
    outputs = read_outputs(runner, frame, end)
    trace = Trace(proto.name, params, {k: _json_value(v) for k, v in values.items()}, seed, events)
    trace.outputs = {k: describe_value(v) for k, v in outputs.items()}
    return Simulation(trace, end, outputs)


def glyph(name: str) -> str:
    sym = SYMBOLS.get(name)
    return sym.glyph if sym else name


__all__ = ["Simulation", "SimulationError", "parse_inputs", "parse_params", "simulate"]
