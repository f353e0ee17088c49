"""Driver processes forked from one process that has imported kitgen already (a fork server).

A driver (tests/kitgen/mutants.py, :func:`drive`) runs every command on one spec in a process of
its own: a command that hangs, crashes or leaks is stopped or seen without harming the tests.
Started with ``python mutants.py drive``, each one spent about a second of CPU importing kitgen
before its first command; the fast tier starts ~25 of them, the mutant sweeps hundreds. Here one
server process per test process imports kitgen once and forks each driver from itself: the
driver is still a process of its own, in its own session (a process group that a hang is killed
with), with its own environment, folder, stdin (/dev/null) and its output (stdout and stderr
together) on a pipe of the caller's, as ``subprocess.Popen`` gave it; the server does nothing but
import and fork, so every driver starts from the same freshly imported state.

:func:`start` returns an object with Popen's ``pid``, ``stdout``, ``wait()`` and ``returncode``;
where the platform cannot fork or pass a pipe over a socket, it is ``subprocess.Popen`` itself.
"""

from __future__ import annotations

import atexit
import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path
from typing import IO, Any

# What a driver imports before its first command (mutants.drive): imported once by the server.
PRELOAD = ("click.testing", "kitgen.cli.main", "reference_engine.api")

_lock = threading.Lock()  # one request at a time (the mutant sweep drives from several threads)
_server: tuple[subprocess.Popen[bytes], socket.socket] | None = None


class Forked:
    """A driver forked by the server: what run_spec reads of a ``subprocess.Popen``."""

    def __init__(self, pid: int, stdout: IO[bytes], stderr: IO[bytes] | None = None) -> None:
        self.pid = pid
        self.stdout: IO[bytes] | None = stdout
        self.stderr = stderr  # None: merged into stdout
        self.returncode: int | None = None

    def wait(self, timeout: float | None = None) -> int:
        """Its exit code (Popen's returncode); past ``timeout`` seconds subprocess.TimeoutExpired
        (it is waited for once its output pipes are closed, so they are read first). The server
        is asked whether it has ended, never to wait for it: a driver that closed its output but
        runs on still times out (and a wait holds no other caller up)."""
        if self.returncode is None:
            deadline = None if timeout is None else time.monotonic() + timeout
            if timeout is not None and self.stdout is not None:
                self._drain(timeout)
            delay = 0.001
            while True:
                reply = _ask({"wait": self.pid}, [])
                if "code" in reply:
                    self.returncode = int(reply["code"])
                    break
                if deadline is not None and time.monotonic() >= deadline:
                    raise subprocess.TimeoutExpired(f"driver {self.pid}", timeout or 0.0)
                time.sleep(delay)
                delay = min(2 * delay, 0.05)
        return self.returncode

    def send_signal(self, signum: int) -> None:
        os.kill(self.pid, signum)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def communicate(self, timeout: float | None = None) -> tuple[str, str]:
        """Popen.communicate of a text-mode process: its stdout and stderr ("" if merged), read
        to the end, then its exit code; past ``timeout`` seconds subprocess.TimeoutExpired."""
        deadline = None if timeout is None else time.monotonic() + timeout
        texts = self._drain(timeout)
        self.wait(None if deadline is None else max(0.0, deadline - time.monotonic()))
        return texts

    def _drain(self, timeout: float | None) -> tuple[str, str]:
        streams = {"out": self.stdout, "err": self.stderr}
        texts: dict[str, bytes] = {}

        def read(name: str, stream: IO[bytes]) -> None:
            with stream:
                texts[name] = stream.read()

        readers = [threading.Thread(target=read, args=(n, s)) for n, s in streams.items() if s is not None]
        for reader in readers:
            reader.start()
        for reader in readers:
            reader.join(timeout)
        if any(reader.is_alive() for reader in readers):
            raise subprocess.TimeoutExpired(f"driver {self.pid}", timeout or 0.0)
        self.stdout, self.stderr = None, None
        out, err = (texts.get(k, b"").decode("utf-8", errors="replace") for k in ("out", "err"))
        return out, err


def _connection() -> socket.socket:
    """The socket to this process's server, started on first use (and again if it died)."""
    global _server
    if _server is not None and _server[0].poll() is None:
        return _server[1]
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    proc = subprocess.Popen(
        [sys.executable, __file__, "serve", str(theirs.fileno())],
        pass_fds=[theirs.fileno()],
        stdin=subprocess.DEVNULL,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    theirs.close()
    if _server is None:
        atexit.register(_stop)
    _server = (proc, ours)
    return ours


def _stop() -> None:
    """End the server and wait for it: its CPU time (and its drivers') counts as this process's
    children's, as the drivers' did when this process started them."""
    if _server is not None:
        _server[1].close()
        try:
            _server[0].wait(timeout=30)
        except subprocess.TimeoutExpired:  # pragma: no cover
            _server[0].kill()
            _server[0].wait()


def _ask(request: dict[str, Any], fds: list[int]) -> dict[str, Any]:
    with _lock:
        conn = _connection()
        data = json.dumps(request).encode()
        if fds:
            socket.send_fds(conn, [data], fds)
        else:
            conn.send(data)
        answer = conn.recv(65536)
    if not answer:
        raise RuntimeError("the fork server ended")
    reply: dict[str, Any] = json.loads(answer)
    if "error" in reply:
        raise RuntimeError(f"the fork server could not start or wait for the driver: {reply['error']}")
    return reply


def forkable() -> bool:
    return hasattr(os, "fork") and hasattr(socket, "send_fds") and hasattr(socket, "AF_UNIX")


def start(
    script: Path, function: str, args: list[Any], env: dict[str, str], cwd: Path, stderr: bool = False
) -> Any:
    """``function(*args)`` of ``script`` (a file the server imports once) in a process of its own,
    with ``env`` as its whole environment, ``cwd`` as its folder: a Popen-like (see the module);
    ``stderr``: its standard error on a pipe of its own (``.stderr``), not merged into stdout."""
    if not forkable():  # pragma: no cover - not POSIX
        call = "import json, runpy, sys; runpy.run_path(sys.argv[1])[sys.argv[2]](*json.loads(sys.argv[3]))"
        return subprocess.Popen(
            [sys.executable, "-c", call, str(script), function, json.dumps(args)],
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE if stderr else subprocess.STDOUT,
            start_new_session=True,
        )
    pipes = [os.pipe() for _ in range(2 if stderr else 1)]
    try:
        request = {"script": str(script), "function": function, "args": args, "env": env, "cwd": str(cwd)}
        pid = int(_ask(request, [w for _, w in pipes])["pid"])
    except BaseException:
        for r, _ in pipes:
            os.close(r)
        raise
    finally:
        for _, w in pipes:
            os.close(w)
    reads = [os.fdopen(r, "rb") for r, _ in pipes]
    return Forked(pid, reads[0], reads[1] if stderr else None)


def run(
    script: Path, function: str, args: list[Any], env: dict[str, str], cwd: Path, timeout: float
) -> subprocess.CompletedProcess[str]:
    """:func:`start` and wait, as ``subprocess.run(capture_output=True, text=True, timeout=...)``:
    stdout and stderr apart; past ``timeout`` seconds the process group is killed and
    ``subprocess.TimeoutExpired`` raised."""
    proc = start(script, function, args, env, cwd, stderr=True)
    argv = [str(script), function, *map(str, args)]
    try:
        out, err = proc.communicate(timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        raise subprocess.TimeoutExpired(argv, timeout) from None
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


# --------------------------------------------------------------------------- the server


def _load(script: str, loaded: dict[str, Any]) -> Any:
    if script not in loaded:
        spec = importlib.util.spec_from_file_location(f"forkserver_{len(loaded)}", script)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # as an import would (dataclasses look it up)
        spec.loader.exec_module(module)
        loaded[script] = module
    return loaded[script]


def _child(conn: socket.socket, fds: list[int], request: dict[str, Any], module: Any) -> None:
    """In the forked driver: its own session, stdin, output, folder and environment; then the call."""
    code = 1
    try:
        conn.close()
        os.setsid()
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(fds[0], 1)
        os.dup2(fds[-1], 2)  # stderr: its own pipe, or merged into stdout
        os.close(null)
        for fd in fds:
            os.close(fd)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        tempfile.tempdir = None  # TMPDIR is read again
        getattr(module, request["function"])(*request["args"])
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:
        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def serve(fd: int) -> None:
    """Import PRELOAD, then answer the caller's requests until it closes the socket: a driver to
    fork (its pid back) or whether a driver has ended (its exit code back, as Popen's returncode)."""
    conn = socket.socket(fileno=fd)
    for name in PRELOAD:
        importlib.import_module(name)
    loaded: dict[str, Any] = {}
    while True:
        try:
            data, fds, _, _ = socket.recv_fds(conn, 65536, 2)
        except OSError:
            return
        if not data:
            return
        request = json.loads(data)
        if "wait" in request:  # whether it has ended (never blocks: a caller polls)
            try:
                pid, status = os.waitpid(request["wait"], os.WNOHANG)
            except ChildProcessError as exc:  # not a driver of this server (one that died)
                conn.send(json.dumps({"error": f"{type(exc).__name__}: {exc}"}).encode())
                continue
            reply = {"running": True} if pid == 0 else {"code": os.waitstatus_to_exitcode(status)}
            conn.send(json.dumps(reply).encode())
            continue
        try:
            module = _load(request["script"], loaded)
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
        except Exception as exc:
            for fd in fds:
                os.close(fd)
            conn.send(json.dumps({"error": f"{type(exc).__name__}: {exc}"}).encode())
            continue
        if pid == 0:
            _child(conn, fds, request, module)
        for fd in fds:
            os.close(fd)
        conn.send(json.dumps({"pid": pid}).encode())


if __name__ == "__main__" and sys.argv[1:2] == ["serve"]:
    serve(int(sys.argv[2]))
