"""Single runs of a protocol on both engines, for the differential tests of the compiled path.

:func:`single` runs one seeded single run (as card-level play does: no trace, nobody's hands
followed) and returns everything a run decides: the final table (its regions and empty places,
not the display labels only the interpreter draws), the cards, helper cards out, variables,
counters, the view (expanded), the outputs (a compiled run's read as a game reads them), the
random generator's state afterwards and the table space the run needed; or, when the run
cannot be carried out, the error's type and message (and the random state when it stopped).
Both engines must give the same, run for run.
"""

from __future__ import annotations

import random
from typing import Any

from reference_engine.compiled import Program, program_for
from reference_engine.compiled import evaluate as compiled_evaluate
from reference_engine.compiled.program import outputs_evaluator
from reference_engine.errors import KitgenError
from reference_engine.kept import exact
from reference_engine.machine import ONE, Runner, read_outputs
from reference_engine.machine.frontier import OverBudget, budget
from reference_engine.registry import Library
from reference_engine.spec import Protocol


def single(
    library: Library,
    proto: Protocol,
    params: dict[str, Any],
    values: dict[str, Any],
    seed: int,
    engine: str,
    context: dict[str, Any] | None = None,
) -> tuple[Any, ...]:
    runner = Runner(library, "sample", rng=random.Random(seed), context=context)
    frame = runner.frame(proto, params)
    runner.limits = frame.helpers
    state = frame.initial_state(values)
    checked = compiled_evaluate.CHECKED
    compiled_evaluate.CHECKED = True  # every fast value and plan checked against the interpreter's
    try:
        if engine == "compiled":
            program = program_for(library, proto)
            assert isinstance(program, Program), program
            final = program.run(runner, frame, state)
            # Its outputs read as a game reads them (the compiled path's fast functions).
            outputs = read_outputs(runner, frame, final, ev=outputs_evaluator(runner, frame, final))
        else:
            (final,) = runner.run(frame, {state: ONE})
            outputs = read_outputs(runner, frame, final)
    except compiled_evaluate.Mismatch:
        raise
    except KitgenError as exc:
        return ("error", type(exc).__name__, str(exc), runner.rng.getstate())
    except Exception as exc:  # an engine's crash is compared too (both must crash alike)
        return ("crash", type(exc).__name__, str(exc), runner.rng.getstate())
    finally:
        compiled_evaluate.CHECKED = checked
    return (
        "ran",
        *decided(runner, final),
        outputs,
        runner.rng.getstate(),
        runner.shared.extent,
    )


def decided(runner: Runner, final: Any) -> tuple[Any, ...]:
    """What a finished run decided of its table, as both engines must give it: the regions and
    empty places (not the display labels only the interpreter draws), the cards, the helper cards
    out, the variables, the counters and the view (expanded)."""
    layout = final.layout
    return (
        [(r.name, r.rows, r.cols, r.unit, r.hand, r.sleeve) for r in layout.regions],
        sorted(layout.holes),
        tuple(final.cells),
        final.out,
        tuple((name, exact(v)) for name, v in final.env),  # type-exact: True == 1 would hide a wrong run
        final.meters,
        runner.views.expanded(final.view),
    )


_FRAMES: dict[tuple[int, str, int], Any] = {}


def lottery_run(
    library: Library, proto: Protocol, m: int, codes: Any, seed: int, engine: str, units: int | None = None
) -> tuple[Any, ...]:
    """A single run of a lottery (``m`` candidates) without limits, as a call runs its callee
    inline, from the given cards; the frame kept per library, protocol and ``m``, as a call keeps
    its callee's frames. ``engine``: "interpreter", "compiled" or "compiled-checked"; ``units``:
    an exploration budget around the run."""
    runner = Runner(library, "sample", rng=random.Random(seed))
    key = (id(library), proto.name, m)
    frame = _FRAMES.get(key)
    if frame is None or frame.proto is not proto:  # kept, as a call keeps its callee's frames
        frame = _FRAMES[key] = runner.frame(proto, proto.resolve_params({"m": m, "shuffled": 1}))
    state = frame.state_from_codes(codes)
    checked = compiled_evaluate.CHECKED
    compiled_evaluate.CHECKED = engine == "compiled-checked"
    try:
        with budget(units if units is not None else 10**9):
            if engine.startswith("compiled"):
                program = program_for(library, proto)
                assert isinstance(program, Program), program
                final = program.run(runner, frame, state)
            else:
                (final,) = runner.run(frame, {state: ONE})
    except (KitgenError, OverBudget) as exc:
        return ("error", type(exc).__name__, str(exc), runner.rng.getstate(), runner.shared.states_processed)
    finally:
        compiled_evaluate.CHECKED = checked
    return (
        "ran",
        *decided(runner, final),
        runner.rng.getstate(),
        runner.shared.extent,
        runner.shared.states_processed,
    )


def differences(
    library: Library,
    proto: Protocol,
    params: dict[str, Any],
    assignments: list[dict[str, Any]],
    seeds: range,
    context: dict[str, Any] | None = None,
    kinds: set[str] | None = None,
) -> list[str]:
    """Where the engines differ: one line per input and seed (none when they agree). ``kinds``
    collects how the runs ended (ran, error, crash)."""
    out = []
    for values in assignments:
        for seed in seeds:
            a = single(library, proto, params, values, seed, "interpreter", context)
            b = single(library, proto, params, values, seed, "compiled", context)
            if kinds is not None:
                kinds.add(str(a[0]) if a[0] != "error" else f"error {a[1]}")
            if a != b:
                field = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
                out.append(
                    f"{proto.name} {values} seed {seed}: field {field}: interpreter "
                    f"{str(a[field] if field < len(a) else None)[:300]} | compiled "
                    f"{str(b[field] if field < len(b) else None)[:300]}"
                )
    return out


def not_yet_compiled(reason: str | None) -> bool:
    """Whether the compiler refused a protocol for a step kind it does not handle yet
    (:data:`reference_engine.compiled.ops.NOT_YET_COMPILED`): then the protocol is checked to run
    on the interpreter under ``auto`` and to report why, instead of compared run for run."""
    from reference_engine.compiled.ops import NOT_YET_COMPILED

    if reason is None:
        return False
    return any(f"step kind {kind!r} is not compiled" in reason for kind in NOT_YET_COMPILED)
