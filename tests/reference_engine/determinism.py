"""The same inputs give the same report: verify specs with several worker counts, print the JSON.

``python tests/reference_engine/determinism.py CASES.json WORKERS`` verifies each case (a
library folder, or "" for the built-in protocols, a spec name and its parameters) once per
number of workers in ``WORKERS`` (``1,2,3``) and prints one JSON object: case label ->
workers -> the report's JSON less the timings and work counters (:data:`WORK`), or the
error's one line. The determinism test (``tests/reference_engine/verify/test_determinism.py``)
and ``bench/determinism.py`` run it under several ``PYTHONHASHSEED`` values, each in its own
process (the hash seed is fixed when a process starts), and compare the texts.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

# Report fields that describe the computation, not the protocol: they may differ with the
# number of workers and from run to run (docs/verification.md, "workers").
WORK = {"seconds", "states_processed", "peak_frontier", "final_states", "workers", "partitions"}

Case = tuple[str, str, dict[str, Any]]  # library folder ("" for the built-in one), spec, params


def label(case: Case) -> str:
    folder, spec, params = case
    where = Path(folder).name if folder else "rulesets"
    return f"{where}/{spec}" + (f" {json.dumps(params, sort_keys=True)}" if params else "")


def comparable(report: Any) -> str:
    """A report's JSON without the work statistics, as text."""
    data = report.to_json()
    data["stats"] = {k: v for k, v in data["stats"].items() if k not in WORK}
    return json.dumps(data, indent=1, ensure_ascii=False)


def reports(cases: list[Case], workers: list[int]) -> dict[str, dict[str, str]]:
    from reference_engine.errors import KitgenError
    from reference_engine.registry import Library
    from reference_engine.verify import verify

    out: dict[str, dict[str, str]] = {}
    for case in cases:
        folder, spec, params = case
        library = Library([Path(folder)]) if folder else Library()
        mine = out.setdefault(label(case), {})
        for w in workers:
            try:
                text = comparable(verify(library, library.protocol(spec), params or None, workers=w))
            except KitgenError as exc:  # refused: the same refusal every time
                text = f"{type(exc).__name__}: {exc.format_message()}"
            mine[str(w)] = text
    return out


def under_hash_seed(seed: int, cases: list[Case], workers: list[int], tmp: Path) -> dict[str, dict[str, str]]:
    """:func:`reports` in a fresh process with ``PYTHONHASHSEED=seed``."""
    listing = tmp / f"cases-{seed}.json"
    listing.write_text(json.dumps(cases), encoding="utf-8")
    env = dict(os.environ, PYTHONHASHSEED=str(seed), PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, __file__, str(listing), ",".join(map(str, workers))],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"the run with PYTHONHASHSEED={seed} failed:\n{done.stderr[-3000:]}")
    result: dict[str, dict[str, str]] = json.loads(done.stdout)
    return result


def differences(runs: dict[str, dict[str, dict[str, str]]]) -> list[str]:
    """Every case whose reports are not all the same text: ``runs`` is hash seed -> :func:`reports`.
    Each difference names the case, the two runs and the first line that differs."""
    out = []
    first_seed = next(iter(runs))
    for name in runs[first_seed]:
        texts = {(seed, w): text for seed, got in runs.items() for w, text in got[name].items()}
        (ref_at, ref), *rest = texts.items()
        for at, text in rest:
            if text != ref:
                a, b = ref.splitlines(), text.splitlines()
                line = next((f"{x!r} / {y!r}" for x, y in zip(a, b) if x != y), "(lengths differ)")
                out.append(
                    f"{name}: hash seed {ref_at[0]} workers {ref_at[1]} vs {at[0]} workers {at[1]}: {line}"
                )
                break
    return out


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    given = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    print(json.dumps(reports([tuple(c) for c in given], [int(w) for w in sys.argv[2].split(",")])))
