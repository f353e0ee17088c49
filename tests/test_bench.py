"""The figures of record (bench/results/, bench/figures.py), their comparison (bench/compare.py)
and docs/cli.md's speed table, which is generated from them and must match them."""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"


def _module(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


compare = _module("compare")
figures = _module("figures")


def test_docs_speed_table_is_generated_from_the_records() -> None:
    """docs/cli.md's figures are those of the last records (python bench/compare.py --docs)."""
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert compare.docs_text(text, compare.docs_block()) == text, "run: python bench/compare.py --docs"
    for bench in ("uno_speed", "build_speed"):
        assert figures.read_records(bench), f"bench/results/{bench}.jsonl holds no record"


def test_every_record_names_its_machine_commit_and_date() -> None:
    paths = sorted((BENCH / "results").glob("*.jsonl"))
    assert {p.stem for p in paths} >= {"uno_speed", "build_speed", "table_time"}
    for path in paths:
        for record in figures.read_records(path.stem):
            machine = record["machine"]
            assert record["bench"] == path.stem and record["date"].endswith("Z") and record["commit"]
            assert machine["name"] and machine["cpu"] and machine["cores"] >= 1, machine
            assert record["figures"], path


def test_a_run_is_appended_with_the_host_facts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(figures.RESULTS_ENV, str(tmp_path))
    args = argparse.Namespace(no_record=False, machine="test-box")
    figures.append_record("demo", {"a_per_s": 10.0}, {"games": 3}, args)
    figures.append_record("demo", {"a_per_s": 8.0}, {"games": 3}, args)
    figures.append_record("demo", {"a_per_s": 1.0}, {}, argparse.Namespace(no_record=True, machine=None))
    records = figures.read_records("demo")
    assert [r["figures"]["a_per_s"] for r in records] == [10.0, 8.0]
    first = records[0]
    assert first["machine"]["name"] == "test-box" and first["settings"] == {"games": 3}
    assert set(first["machine"]) >= {"cpu", "cores", "usable_cores", "system", "python"}


def test_a_damaged_record_names_its_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "demo.jsonl").write_text('{"figures": {}}\n{"figures": \n', encoding="utf-8")
    with pytest.raises(SystemExit, match=r"demo.jsonl:2: not a JSON record"):
        figures.read_records("demo", tmp_path)
    (tmp_path / "demo.jsonl").write_text("[1, 2]\n", encoding="utf-8")
    with pytest.raises(SystemExit, match=r"demo.jsonl:1: a record is an object with 'figures'"):
        figures.read_records("demo", tmp_path)


@pytest.mark.parametrize(
    ("path", "way"),
    [
        ("rule_games_per_s", "higher"),
        ("rule_vs_rlcard", "higher"),
        ("cpu_seconds/default kit, warm", "lower"),
        ("seconds/Gakmoro kit, cold", "lower"),
        ("default_kit_warm_cpu_s", "lower"),
        ("uno/turn_minutes", "neutral"),
        ("rule_turns_per_game", "neutral"),
    ],
)
def test_which_way_is_better(path: str, way: str) -> None:
    assert compare.direction(path) == way


def test_drops_are_flagged_and_gains_are_not() -> None:
    old = {"games_per_s": 100.0, "cpu_seconds": {"kit": 5.0, "other": 5.0}, "turns": 40, "protocol": "a"}
    new = {"games_per_s": 85.0, "cpu_seconds": {"kit": 4.0, "other": 6.0}, "turns": 50, "protocol": "b"}
    rows = {path: (ratio, flag) for path, _, _, ratio, flag in compare.compare(old, new, 0.10)}
    assert rows["games_per_s"] == ("0.85x", "DROP")  # slower
    assert rows["cpu_seconds/kit"] == ("0.80x", "")  # faster: no flag
    assert rows["cpu_seconds/other"] == ("1.20x", "DROP")  # a time that grew
    assert rows["turns"] == ("1.25x", "changed")
    assert rows["protocol"] == ("", "changed")
    within = {p: f for p, _, _, _, f in compare.compare({"x_per_s": 100}, {"x_per_s": 95}, 0.10)}
    assert within == {"x_per_s": ""}


def test_lists_of_rows_compare_by_their_names() -> None:
    levers = {"uno": [{"lever": "paper", "turn_minutes": 20.0}, {"lever": "kit", "turn_minutes": 9.6}]}
    assert dict(compare.flatten(levers)) == {"uno/paper/turn_minutes": 20.0, "uno/kit/turn_minutes": 9.6}


def _write(folder: Path, bench: str, runs: list[dict[str, Any]], machine: str = "box") -> None:
    lines = [
        json.dumps(
            {
                "bench": bench,
                "date": "2026-01-01T00:00:00Z",
                "commit": "abc",
                "dirty": False,
                "machine": {"name": machine, "cpu": "cpu", "cores": 2, "usable_cores": 2},
                "settings": {},
                "figures": run,
            }
        )
        for run in runs
    ]
    (folder / f"{bench}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _run(*args: str, folder: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {"KITGEN_BENCH_RESULTS": str(folder), "PATH": "/usr/bin:/bin"}
    return subprocess.run(
        [sys.executable, str(BENCH / "compare.py"), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )


def test_compare_prints_ratios_against_the_record_before(tmp_path: Path) -> None:
    _write(tmp_path, "uno_speed", [{"rule_games_per_s": 1000.0}, {"rule_games_per_s": 500.0}])
    done = _run(folder=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "rule_games_per_s" in done.stdout and "0.50x  DROP" in done.stdout, done.stdout
    assert "1 figure(s) dropped by more than 10%" in done.stdout
    assert _run("--fail-on-drop", folder=tmp_path).returncode == 1


def test_compare_a_fresh_run_from_stdin(tmp_path: Path) -> None:
    _write(tmp_path, "build_speed", [{"cpu_seconds": {"default kit, warm": 5.0}}])
    out = "build speed...\n" + json.dumps({"cpu_seconds": {"default kit, warm": 4.0}}) + "\n"
    done = _run("build_speed", "-", folder=tmp_path, stdin=out)
    assert done.returncode == 0, done.stderr
    assert "0.80x" in done.stdout and "DROP" not in done.stdout
    assert "another machine" in done.stdout  # a fresh run names this machine, the record "box"
    empty = _run("build_speed", "-", folder=tmp_path, stdin="no json here\n")
    assert empty.returncode != 0 and "no JSON line" in empty.stderr


def test_docs_block_needs_its_markers() -> None:
    with pytest.raises(SystemExit, match="needs the marker lines"):
        compare.docs_text("no markers here", "block")
    text = f"a\n{compare.BEGIN}\nold\n{compare.END}\nb\n"
    assert compare.docs_text(text, "NEW") == "a\nNEW\nb\n"


def test_build_speed_measures_what_it_is_asked_and_the_default_kit_always() -> None:
    build_speed = _module("build_speed")
    labels = lambda *a: [k[0] for k in build_speed.chosen(*a)]  # noqa: E731
    assert labels(True, False, []) == ["default kit"]
    assert labels(False, False, ["weighted", "list"]) == ["default kit", "weighted UNO kit", "list --times"]
    assert "Gakmoro kit" not in labels(False, True, [])
    assert labels(False, False, []) == [k[0] for k in build_speed.KITS]
    assert labels(False, False, ["no such figure"]) == ["default kit"]
    list_times = dict(build_speed.KITS)["list --times"]
    assert list_times[0] not in build_speed.WRITES  # it writes no folder: no -o
