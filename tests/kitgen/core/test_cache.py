"""The verification cache cannot lie: every entry is checked when read, a bad one is discarded
and the report made again (one line on stderr), a FIFO cannot hang a build, and no temporary
file is left behind."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kitgen.cli.main import main
from kitgen.core.cache import FORMAT, STALE_TEMPORARY, VerificationCache, checksum
from kitgen.core.verification import verify_protocols
from reference_engine.registry import Library

pytestmark = pytest.mark.fresh_cache  # it counts, damages or expects cold cache entries


class Warnings(list[str]):
    def __call__(self, message: str) -> None:
        self.append(message)


def cached(tmp_path: Path, name: str = "six-card-and") -> tuple[Path, dict[str, Any]]:
    """Verify ``name`` once into a cache in ``tmp_path``; its entry file and parsed entry."""
    verify_protocols(Library(), [name], cache=VerificationCache(tmp_path))
    (entry,) = (p for p in tmp_path.glob("*.json") if len(p.stem) == 64)
    return entry, json.loads(entry.read_text(encoding="utf-8"))


def reread(tmp_path: Path, name: str = "six-card-and") -> tuple[VerificationCache, Warnings, dict[str, Any]]:
    """Verify ``name`` again with the cache; the cache, what it said, and the report."""
    said = Warnings()
    cache = VerificationCache(tmp_path, warn=said)
    (report,) = verify_protocols(Library(), [name], cache=cache)
    return cache, said, report.to_json()


def fresh_report(name: str = "six-card-and") -> dict[str, Any]:
    (report,) = verify_protocols(Library(), [name], cache=None)
    return report.to_json()


def test_an_entry_carries_its_key_and_checksum(tmp_path: Path) -> None:
    entry, data = cached(tmp_path)
    assert data["format"] == FORMAT and data["key"] == entry.stem
    assert data["sha256"] == checksum(data["key"], data["record"])
    cache, said, _ = reread(tmp_path)
    assert (cache.hits, cache.misses, cache.discarded) == (1, 0, 0) and said == []


def _change_inputs(d: dict[str, Any]) -> None:
    d["record"]["report"]["inputs"] += 1


def _change_figure(d: dict[str, Any]) -> None:
    d["record"]["report"]["checks"][0]["figure"] = "all 4 inputs correct (forged)"


def _change_stat(d: dict[str, Any]) -> None:
    d["record"]["report"]["stats"]["views"] = 999


POISONS: dict[str, Callable[[dict[str, Any]], None]] = {
    "a number changed": _change_inputs,
    "a figure changed": _change_figure,
    "a statistic changed": _change_stat,
}


@pytest.mark.parametrize("poison", sorted(POISONS))
def test_a_poisoned_entry_is_detected_and_recomputed(tmp_path: Path, poison: str) -> None:
    entry, data = cached(tmp_path)
    POISONS[poison](data)
    entry.write_text(json.dumps(data), encoding="utf-8")
    cache, said, report = reread(tmp_path)
    assert (cache.hits, cache.misses, cache.discarded) == (0, 1, 1)
    assert said == [
        f"discarded the cached verification report {entry}: its checksum does not match its contents; "
        "verifying again"
    ]
    assert _without_seconds(report) == _without_seconds(fresh_report())
    assert reread(tmp_path)[0].hits == 1  # the entry was written again, and is good


def _without_seconds(report: dict[str, Any]) -> dict[str, Any]:
    return {**report, "stats": {k: v for k, v in report["stats"].items() if k != "seconds"}}


def resealed(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with its checksum made to match: an entry whose only fault is its content."""
    return {**data, "sha256": checksum(data["key"], data["record"])}


def _verdict_disagrees(d: dict[str, Any]) -> None:
    d["record"]["report"]["checks"][0]["ok"] = False  # "verified" still says true


def _failed(d: dict[str, Any]) -> None:
    d["record"]["report"]["checks"][0]["ok"] = False
    for k in ("verified", "correct"):
        d["record"]["report"][k] = False
    d["record"]["report"]["failed"] = ["correct"]


def _other_protocol(d: dict[str, Any]) -> None:
    d["record"]["report"]["protocol"] = "five-card-trick"


def _bad_reveals(d: dict[str, Any]) -> None:
    d["record"]["reveals"] = [["six-card-and", "5", [["not a cell"]]]]


def _ok_as_number(d: dict[str, Any]) -> None:
    d["record"]["report"]["checks"][0]["ok"] = 1


def _negative_inputs(d: dict[str, Any]) -> None:
    d["record"]["report"]["inputs"] = -4


def _checks_of_wrong_type(d: dict[str, Any]) -> None:
    d["record"]["report"]["checks"] = "all fine"


def _report_of_wrong_type(d: dict[str, Any]) -> None:
    d["record"]["report"] = ["six-card-and"]


def _another_key(d: dict[str, Any]) -> None:
    d["key"] = "0" * 64


BROKEN: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "verdict disagrees": (_verdict_disagrees, "does not read back the same"),
    "failed report": (_failed, "did not pass"),
    "another protocol": (_other_protocol, "another protocol"),
    "bad reveals": (_bad_reveals, "observation is not a list of cells"),
    "ok as a number": (_ok_as_number, "verdict is not true or false"),
    "negative inputs": (_negative_inputs, "not a whole number"),
    "checks of the wrong type": (_checks_of_wrong_type, "incomplete"),
    "report of the wrong type": (_report_of_wrong_type, "holds no report"),
    "another key": (_another_key, "filed under another key"),
}


@pytest.mark.parametrize("broken", sorted(BROKEN))
def test_an_entry_that_breaks_the_reports_invariants_is_discarded(tmp_path: Path, broken: str) -> None:
    """Even with a matching checksum (written by hand, or by a buggy kitgen)."""
    entry, data = cached(tmp_path)
    change, reason = BROKEN[broken]
    change(data)
    entry.write_text(json.dumps(resealed(data)), encoding="utf-8")
    cache, said, report = reread(tmp_path)
    assert cache.discarded == 1 and len(said) == 1 and reason in said[0], said
    assert report["verified"] and _without_seconds(report) == _without_seconds(fresh_report())


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("NaN", "it holds NaN"),
        ("Infinity", "it holds Infinity"),
        ("1e999", "not finite"),
    ],
)
def test_nan_and_infinity_are_refused(tmp_path: Path, text: str, reason: str) -> None:
    entry, data = cached(tmp_path)
    raw = json.dumps(data).replace('"inputs": 4', f'"inputs": {text}')
    assert raw != json.dumps(data)
    entry.write_text(raw, encoding="utf-8")
    cache, said, _ = reread(tmp_path)
    assert cache.discarded == 1 and reason in said[0]


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (lambda raw: raw[: len(raw) // 2], "it is not JSON"),
        (lambda raw: b"", "it is not JSON"),
        (lambda raw: b"\xff\xfe" + raw, "not UTF-8"),
        (lambda raw: b"[" * 200_000 + b"]" * 200_000, "nested too deeply"),
        (lambda raw: b'{"a":' * 100_000 + b"1" + b"}" * 100_000, "nested too deeply"),
        (lambda raw: raw.replace(b'"six-card-and"', b'"\\ud800"'), "cannot be read"),
    ],
    ids=["truncated", "empty", "not-utf8", "deep-list", "deep-object", "lone-surrogate"],
)
def test_a_damaged_file_is_discarded(tmp_path: Path, damage: Callable[[bytes], bytes], reason: str) -> None:
    entry, _ = cached(tmp_path)
    raw = entry.read_bytes()
    entry.write_bytes(damage(raw))
    cache, said, report = reread(tmp_path)
    assert cache.discarded == 1 and reason in said[0], said
    assert report["verified"]


def run_with_timeout(work: Callable[[], Any], seconds: float = 60) -> Any:
    out: list[Any] = []
    worker = threading.Thread(target=lambda: out.append(work()), daemon=True)
    worker.start()
    worker.join(seconds)
    assert out, "the cache blocked"
    return out[0]


def test_a_fifo_in_place_of_an_entry_does_not_hang(tmp_path: Path) -> None:
    entry, _ = cached(tmp_path)
    entry.unlink()
    os.mkfifo(entry)  # opening it for reading would wait for a writer forever
    cache, said, report = run_with_timeout(lambda: reread(tmp_path))
    assert cache.discarded == 1 and "not a regular file" in said[0] and report["verified"]
    assert entry.is_file()  # the FIFO was replaced by a good entry


def test_a_link_in_place_of_an_entry_is_not_followed(tmp_path: Path) -> None:
    entry, data = cached(tmp_path)
    elsewhere = tmp_path.parent / f"{tmp_path.name}-elsewhere.json"
    elsewhere.write_text(json.dumps(data))
    entry.unlink()
    entry.symlink_to(elsewhere)
    cache, said, _ = reread(tmp_path)
    assert cache.discarded == 1 and len(said) == 1
    assert elsewhere.read_text() == json.dumps(data)  # what the link pointed to is untouched


def test_other_files_in_the_cache_folder_are_left_alone(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "someone.json")
    (tmp_path / "notes.txt").write_text("x")
    run_with_timeout(lambda: cached(tmp_path, "five-card-trick") and None)
    cache, said, _ = run_with_timeout(lambda: reread(tmp_path, "five-card-trick"))
    assert cache.hits == 1 and said == []
    assert (tmp_path / "someone.json").exists() and (tmp_path / "notes.txt").read_text() == "x"


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_no_temporary_file_is_left_and_leftovers_are_removed(tmp_path: Path) -> None:
    dead = tmp_path / f".{'a' * 64}.json.tmp-{dead_pid()}-0123abcd"
    live = tmp_path / f".{'b' * 64}.json.tmp-{os.getppid()}-4567cdef"  # a writer running now
    old = tmp_path / f".{'c' * 64}.json.tmp-{os.getppid()}-89abcdef"
    for leftover in (dead, live, old):
        leftover.write_text("{half an entry")
    hours_ago = time.time() - STALE_TEMPORARY - 60
    os.utime(old, (hours_ago, hours_ago))
    entry, _ = cached(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([entry.name, live.name])


def test_a_failed_store_leaves_no_temporary_file(tmp_path: Path) -> None:
    cache = VerificationCache(tmp_path)
    (tmp_path / f"{'d' * 64}.json").mkdir()  # the rename onto it fails
    cache.store("d" * 64, {"report": {}, "reveals": None})
    assert [p.name for p in tmp_path.iterdir()] == [f"{'d' * 64}.json"]


def test_a_booklet_from_a_poisoned_cache_is_the_uncached_booklet(
    tmp_path: Path, verification_cache: Path
) -> None:
    def booklet(folder: str, *extra: str) -> tuple[bytes, str]:
        result = CliRunner().invoke(
            main, ["booklet", "six-card-and", "-o", str(tmp_path / folder), "--no-previews", *extra]
        )
        assert result.exit_code == 0, result.output
        return (tmp_path / folder / "booklet.pdf").read_bytes(), result.output

    clean, _ = booklet("clean", "--no-cache")
    booklet("warm")
    (entry,) = verification_cache.glob("*.json")
    data = json.loads(entry.read_text(encoding="utf-8"))
    data["record"]["report"]["checks"][0]["figure"] = "forged: every input checked twice"
    entry.write_text(json.dumps(data), encoding="utf-8")
    poisoned, err = booklet("poisoned")
    assert poisoned == clean
    warnings = [line for line in err.splitlines() if line.startswith("kitgen: ")]
    assert warnings == [
        f"kitgen: discarded the cached verification report {entry}: its checksum does not match its "
        "contents; verifying again"
    ]
