"""The folder of sub-runs shared by the partitions of one verification (machine.store): a
partition never waits for a sub-run that nobody is running any more."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from reference_engine.machine import store as store_module
from reference_engine.machine.store import SubrunStore


def _ended_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_the_first_claim_runs_it_and_the_next_reads_what_was_published(tmp_path: Path) -> None:
    first, second = SubrunStore(tmp_path), SubrunStore(tmp_path)
    assert first.claim(("add", 1)) is None and first.run == 1
    assert Path(f"{first._path(('add', 1))}.claim").read_text() == str(os.getpid())
    first.publish(("add", 1), [("outcome", 1)])
    assert second.claim(("add", 1)) == [("outcome", 1)]
    assert (second.run, second.loaded) == (0, 1)


def test_a_sub_run_not_shared_is_run_by_every_partition(tmp_path: Path) -> None:
    first, second = SubrunStore(tmp_path), SubrunStore(tmp_path)
    assert first.claim("k") is None
    first.publish("k", None)
    assert second.claim("k") is None and second.loaded == 0


def test_a_claimer_that_ended_without_publishing_is_not_waited_for(tmp_path: Path) -> None:
    """A worker killed outright (out of memory, SIGKILL) while it ran a sub-run it claimed: the
    others used to wait an hour for it; now they run it themselves within a second or so."""
    waiting = SubrunStore(tmp_path)
    Path(f"{waiting._path('k')}.claim").write_text(str(_ended_pid()))
    start = time.monotonic()
    assert waiting.claim("k") is None
    # Loose: a loaded machine (CI, xdist) may pause this process for seconds; the bug waited
    # WAIT_SECONDS (an hour).
    assert time.monotonic() - start < 60
    assert (waiting.run, waiting.loaded) == (0, 0)


def test_a_claimer_still_running_is_waited_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_module, "WAIT_SECONDS", 1.5)
    waiting = SubrunStore(tmp_path)
    Path(f"{waiting._path('k')}.claim").write_text(str(os.getpid()))  # alive: this process
    start = time.monotonic()
    assert waiting.claim("k") is None
    assert time.monotonic() - start >= 1.5  # it waited the whole time, not less


def test_a_partition_whose_coordinator_is_gone_stops_waiting(tmp_path: Path) -> None:
    waiting = SubrunStore(tmp_path)
    waiting.parent = _ended_pid()  # as if the coordinator had died and the worker were adopted
    Path(f"{waiting._path('k')}.claim").write_text(str(os.getpid()))
    with pytest.raises(EOFError):
        waiting.claim("k")


def test_a_zombie_is_not_alive() -> None:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and store_module._alive(child.pid):
        time.sleep(0.05)
    try:
        assert not store_module._alive(child.pid)  # ended, not yet reaped
    finally:
        child.wait()
    assert not store_module._alive(child.pid)
