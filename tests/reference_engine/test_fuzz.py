"""Differential fuzzing: the exact verifier against a deliberately naive enumerator.

Random small protocol libraries (specgen.py) are verified by the engine (verify() and
outcome_distribution()) and by enumerator.py, which runs every input through every
permutation of every shuffle as a separate path. The verdicts (correct, secure, tidy), the
output distributions and "some run cannot be carried out" must agree.

120 examples by default (the suite ran 300 before; the rest went to the benchmark below),
derandomized so CI is reproducible; KITGEN_FUZZ_EXAMPLES raises it.
bench/fuzz_verify.py runs the same comparison for longer (``--examples 300`` or more) and
saves what it finds.

Every disagreement found so far is a spec folder in fuzz_regressions/ with a comment
saying what the engine gets wrong; they are expected to fail (strict xfail) until the
engine is fixed, so a fix shows up as an XPASS to remove the mark.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, given, settings

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import differential  # noqa: E402
import specgen  # noqa: E402

EXAMPLES = int(os.environ.get("KITGEN_FUZZ_EXAMPLES", "120"))
REGRESSIONS = HERE / "fuzz_regressions"

# Regression folder -> what the engine still gets wrong (remove an entry when it is fixed).
KNOWN: dict[str, str] = {}

# The generator keeps clear of the constructs of open issues, and draws them once fixed.
specgen.avoid_known(KNOWN)


def fuzz_settings(examples: int) -> settings:
    """Reproducible in CI (derandomized, no example database), slow generated specs allowed."""
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    )


@fuzz_settings(EXAMPLES)
@given(specgen.libraries())
def test_engine_agrees_with_the_enumerator(generated: specgen.GeneratedLibrary) -> None:
    with tempfile.TemporaryDirectory(prefix="kitgen-fuzz-") as tmp:
        generated.write(Path(tmp))
        result = differential.compare_folder(Path(tmp), generated.main)
    assume(not result.skipped)
    event(f"enumerator: {result.mine.label()}")
    for feature in sorted(generated.features):
        event(f"feature: {feature}")
    assert result.agree, f"{result.summary()}\n\n{generated.text()}"


def _regression_params() -> list[object]:
    folders = sorted(p for p in REGRESSIONS.iterdir() if p.is_dir()) if REGRESSIONS.is_dir() else []
    params: list[object] = []
    for folder in folders:
        marks = [pytest.mark.xfail(strict=True, reason=KNOWN[folder.name])] if folder.name in KNOWN else []
        params.append(pytest.param(folder, marks=marks, id=folder.name))
    return params


@pytest.mark.parametrize("folder", _regression_params())
def test_fuzz_regression(folder: Path) -> None:
    result = differential.compare_folder(folder)
    assert not result.skipped, result.summary()
    assert result.agree, result.summary()


def test_every_known_issue_has_a_folder() -> None:
    names = {p.name for p in REGRESSIONS.iterdir() if p.is_dir()}
    assert set(KNOWN) <= names


@fuzz_settings(max(20, EXAMPLES // 6))
@given(specgen.libraries())
def test_split_verification_gives_the_same_report(generated: specgen.GeneratedLibrary) -> None:
    """Generated specs (calls with every kind of output, shuffles of every kind, merges of
    views) verified in one process and split over two and three: the same report but for the
    work statistics (reference_engine/verify/partition.py)."""
    from reference_engine.registry import Library
    from reference_engine.verify import verify

    work = {"seconds", "states_processed", "peak_frontier", "final_states", "workers", "partitions"}

    def same(report: Any) -> dict[str, Any]:
        out: dict[str, Any] = report.to_json()
        out["stats"] = {k: v for k, v in out["stats"].items() if k not in work}
        return out

    with tempfile.TemporaryDirectory(prefix="kitgen-fuzz-") as tmp:
        generated.write(Path(tmp))
        try:
            lib = Library([Path(tmp)])
            proto = lib.protocol(generated.main)
            alone = verify(lib, proto)
        except Exception:  # a spec the loader refuses: the other test covers those
            assume(False)
        for workers in (2, 3):
            assert same(verify(lib, proto, workers=workers)) == same(alone), generated.text()
