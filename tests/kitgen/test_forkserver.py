"""The fork server of the spec drivers (forkserver.py): each driver is still a process of its own,
in its own session, with its own folder, environment, stdin and output, and a hang is killed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import forkserver

SCRIPT = """
import os, sys, time

def echo(text):
    print(text, os.getcwd(), os.environ.get("MARK"), os.environ.get("HOME"), repr(sys.stdin.read()))
    sys.stderr.write("to stderr\\n")
    print("session", os.getsid(0) == os.getpid())

def hang():
    print("waiting", flush=True)
    time.sleep(600)

def fail():
    raise SystemExit(3)

def quiet_hang():
    os.close(1)
    os.close(2)
    time.sleep(600)

def crash():
    raise ValueError("boom")
"""

pytestmark = pytest.mark.skipif(not forkserver.forkable(), reason="the fork server needs fork, Unix sockets")


def _start(tmp_path: Path, function: str, *args: str) -> tuple[forkserver.Forked, str]:
    script = tmp_path / "script.py"
    script.write_text(SCRIPT, encoding="utf-8")
    work = tmp_path / "work"
    work.mkdir(exist_ok=True)
    proc = forkserver.start(script, function, list(args), {"MARK": "m1", "PATH": os.environ["PATH"]}, work)
    assert isinstance(proc, forkserver.Forked) and proc.pid != os.getpid()
    return proc, str(work)


def test_a_driver_has_its_own_folder_environment_stdin_output_and_session(tmp_path: Path) -> None:
    proc, work = _start(tmp_path, "echo", "hello")
    out = proc.stdout.read().decode()
    assert proc.wait() == 0 and proc.returncode == 0
    assert f"hello {work} m1 None ''" in out  # only the environment it was given; stdin empty
    assert "to stderr" in out and "session True" in out


def test_exit_codes_and_tracebacks_come_back_as_from_a_process(tmp_path: Path) -> None:
    proc, _ = _start(tmp_path, "fail")
    assert proc.stdout.read() == b"" and proc.wait() == 3
    proc, _ = _start(tmp_path, "crash")
    out = proc.stdout.read().decode()
    assert proc.wait() == 1 and "ValueError: boom" in out and "Traceback" in out


def test_a_hanging_driver_is_killed_with_its_process_group(tmp_path: Path) -> None:
    proc, _ = _start(tmp_path, "hang")
    assert proc.stdout.readline() == b"waiting\n"
    os.killpg(proc.pid, signal.SIGKILL)  # what run_spec's timer does
    assert proc.stdout.read() == b"" and proc.wait() == -signal.SIGKILL


def test_drivers_run_one_after_another_from_the_same_server(tmp_path: Path) -> None:
    pids = set()
    for n in range(3):
        proc, _ = _start(tmp_path, "echo", str(n))
        assert proc.stdout.read().decode().startswith(f"{n} ") and proc.wait() == 0
        pids.add(proc.pid)
    assert len(pids) == 3


def test_run_keeps_stderr_apart_and_kills_what_outlives_its_timeout(tmp_path: Path) -> None:
    """forkserver.run, as subprocess.run(capture_output=True, text=True, timeout=...)."""
    script = tmp_path / "script.py"
    script.write_text(SCRIPT, encoding="utf-8")
    env = {"MARK": "m2", "PATH": os.environ["PATH"]}
    done = forkserver.run(script, "echo", ["hi"], env, tmp_path, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith(f"hi {tmp_path} m2 ")
    assert done.stderr == "to stderr\n" and "to stderr" not in done.stdout
    assert forkserver.run(script, "fail", [], env, tmp_path, timeout=60).returncode == 3
    with pytest.raises(subprocess.TimeoutExpired):
        forkserver.run(script, "hang", [], env, tmp_path, timeout=1)


def test_a_driver_that_closed_its_output_and_hangs_times_out_and_is_killed(tmp_path: Path) -> None:
    """Its pipes at their end, the driver runs on: wait(timeout) and run's timeout still hold
    (the server was asked to wait for it and blocked: run returned only when it ended)."""
    proc, _ = _start(tmp_path, "quiet_hang")
    with pytest.raises(subprocess.TimeoutExpired):
        proc.wait(timeout=0.5)
    os.killpg(proc.pid, signal.SIGKILL)
    assert proc.wait() == -signal.SIGKILL
    script = tmp_path / "script.py"
    with pytest.raises(subprocess.TimeoutExpired):
        forkserver.run(script, "quiet_hang", [], {"PATH": os.environ["PATH"]}, tmp_path, timeout=0.5)


def test_a_wait_for_no_driver_of_the_server_is_an_error_and_the_server_serves_on(tmp_path: Path) -> None:
    """A driver of a server that died, waited for through its successor: an error, not the end
    of the server (it crashed on the waitpid, every later driver failing with it)."""
    proc, _ = _start(tmp_path, "echo", "x")
    proc.stdout.read()
    assert proc.wait() == 0
    stranger = forkserver.Forked(os.getpid(), proc.stdout)
    with pytest.raises(RuntimeError, match="ChildProcessError"):
        stranger.wait()
    again, _ = _start(tmp_path, "echo", "y")
    assert again.stdout.read().decode().startswith("y ") and again.wait() == 0
