"""``kitgen simulate`` runs the protocol the exact verifier judges: for generated specs (hands,
calls, every shuffle kind, players, shown outputs) and the soundness specs, the outcomes of
single seeded runs (everything the table saw, and the outputs) follow the exact law, input by
input: every outcome is one the exact mode gives (checked run by run), and the counts fit its
probabilities (chi-square). bench/fuzz_verify.py --simulate N runs the same for longer."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import assume, event, given

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import differential  # noqa: E402
import specgen  # noqa: E402
from test_fuzz import fuzz_settings  # noqa: E402

from reference_engine.registry import Library  # noqa: E402

EXAMPLES = int(os.environ.get("KITGEN_SIMULATE_EXAMPLES", "20"))
RUNS = 120  # single runs per input
SOUNDNESS = HERE / "verify" / "soundness"


@fuzz_settings(EXAMPLES)
@given(specgen.libraries())
def test_single_runs_follow_the_exact_law(generated: specgen.GeneratedLibrary) -> None:
    with tempfile.TemporaryDirectory(prefix="kitgen-simlaw-") as tmp:
        generated.write(Path(tmp))
        result = differential.compare_simulation(Library([Path(tmp)]), generated.main, RUNS)
    assume(not result.skipped)
    event(f"outcomes: {min(result.outcomes, 10)}{'+' if result.outcomes >= 10 else ''}")
    assert result.agree, f"{result.differences}\n\n{generated.text()}"


# Specs every path refuses (exit 2): no admissible input; a call that leaves its callee's hand
# without a holder (refused when it loads, or when a run puts a card there).
REFUSED = {("admissible-none", "reveal-x"), ("calls-hands", "unsaid"), ("calls-hands", "unmapped")}


def _soundness_specs() -> list[tuple[Path, str]]:
    return [
        (f.parent, f.stem)
        for f in sorted(SOUNDNESS.glob("*/*.yaml"))
        if (f.parent.name, f.stem) not in REFUSED
    ]


@pytest.mark.parametrize(
    ("folder", "spec"), _soundness_specs(), ids=lambda v: v if isinstance(v, str) else v.name
)
def test_soundness_specs_run_as_judged(folder: Path, spec: str) -> None:
    result = differential.compare_simulation(Library([folder]), spec, 300)
    assert not result.skipped and result.agree, result.differences


@pytest.mark.parametrize(("folder", "spec"), sorted(REFUSED))
def test_specs_every_path_refuses_are_refused_by_simulate(folder: str, spec: str) -> None:
    from reference_engine.errors import KitgenError
    from reference_engine.machine import Frame
    from reference_engine.simulate import simulate
    from reference_engine.verify import input_assignments

    with pytest.raises(KitgenError) as caught:
        lib = Library([SOUNDNESS / folder])
        proto = lib.protocol(spec)
        values = input_assignments(Frame(proto, proto.resolve_params()))[0]
        simulate(lib, proto, inputs=values, seed=1)
    assert caught.value.exit_code == 2
