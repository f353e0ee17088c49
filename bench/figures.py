"""Figures of record: each benchmark run appends one JSON line to ``bench/results/<bench>.jsonl``.

A record says what ran where: the benchmark, its figures (the object its ``--json`` prints on its
last line), its settings, the date (UTC), the commit (and whether the work tree had changes), and
the machine: a name (``--machine NAME`` or ``$KITGEN_BENCH_MACHINE``, else the host name), its CPU
model, its cores (all of them, and those this process may use), the operating system and the
Python version. The files are committed: they are the figures of record, and
``python bench/compare.py`` reads them (a run's ratio against the last record, with drops flagged);
``python bench/compare.py --docs`` writes docs/cli.md's speed table from them.

``--no-record`` (every benchmark that records takes it) prints the figures without appending;
``$KITGEN_BENCH_RESULTS`` names another results folder (the tests use a temporary one).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS_ENV = "KITGEN_BENCH_RESULTS"
MACHINE_ENV = "KITGEN_BENCH_MACHINE"


def results_dir() -> Path:
    """``$KITGEN_BENCH_RESULTS``, else ``bench/results/`` of this checkout."""
    return Path(os.environ.get(RESULTS_ENV) or ROOT / "bench" / "results")


def add_record_options(parser: argparse.ArgumentParser) -> None:
    """``--no-record`` and ``--machine NAME``, the options of every benchmark that records."""
    parser.add_argument(
        "--no-record",
        action="store_true",
        help="do not append this run to bench/results/ (the figures of record)",
    )
    parser.add_argument(
        "--machine",
        default=None,
        metavar="NAME",
        help=f"the machine's name in the record (default: ${MACHINE_ENV}, else the host name)",
    )


def cpu_model() -> str:
    """The CPU's model name (``/proc/cpuinfo`` on Linux, else what ``platform`` knows)."""
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _git(*args: str) -> str:
    try:
        done = subprocess.run(
            ["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def host_facts(machine: str | None = None) -> dict[str, Any]:
    """The machine a figure was measured on."""
    return {
        "name": machine or os.environ.get(MACHINE_ENV) or platform.node() or "unknown",
        "cpu": cpu_model(),
        "cores": os.cpu_count() or 1,
        "usable_cores": usable_cores(),
        "load_average": [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None,
        "system": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
    }


def make_record(
    bench: str, figures: dict[str, Any], settings: dict[str, Any], machine: str | None
) -> dict[str, Any]:
    """One record: ``bench``, ``date``, ``commit``, ``dirty``, ``machine``, ``settings``, ``figures``."""
    return {
        "bench": bench,
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "commit": _git("rev-parse", "--short=12", "HEAD") or None,
        "dirty": bool(_git("status", "--porcelain", "--untracked-files=no")),
        "machine": host_facts(machine),
        "settings": settings,
        "figures": figures,
    }


def append_record(
    bench: str, figures: dict[str, Any], settings: dict[str, Any], args: argparse.Namespace
) -> Path | None:
    """Append the run to ``bench/results/<bench>.jsonl`` unless ``--no-record``; the file, or None."""
    if getattr(args, "no_record", False):
        return None
    folder = results_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{bench}.jsonl"
    line = json.dumps(
        make_record(bench, figures, settings, getattr(args, "machine", None)), ensure_ascii=False
    )
    with path.open("a", encoding="utf-8") as f:  # one line, appended: earlier records never change
        f.write(line + "\n")
    print(f"recorded in {os.path.relpath(path)} (python bench/compare.py compares it with the record before)")
    return path


def read_records(bench: str, folder: Path | None = None) -> list[dict[str, Any]]:
    """Every record of ``bench``, oldest first (a damaged line stops with its file and line)."""
    path = (folder or results_dir()) / f"{bench}.jsonl"
    if not path.is_file():
        return []
    records = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise SystemExit(f"{path}:{number}: not a JSON record ({exc.msg})") from None
        if not isinstance(record, dict) or not isinstance(record.get("figures"), dict):
            raise SystemExit(f"{path}:{number}: a record is an object with 'figures'")
        records.append(record)
    return records
