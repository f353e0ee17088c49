"""Exact verification on a Dask cluster: the partitions of :mod:`.partition` as Dask tasks.

Dask (``pip install 'kitgen[cluster]'``) is optional: only this module imports it, and only
when a scheduler is asked for (``kitgen verify ... --scheduler tcp://host:8786``). Each
partition is one task; the tasks talk to the coordinator (the ``kitgen verify`` process)
through two ``distributed.Queue``s per run, carrying the same messages as the local worker
processes' pipes, pickled (the queues only take small msgpack data: bytes). A finished
partition's result comes back as the task's result, not through a queue.

The partitions run in lockstep (a barrier at every top-level step), so every task must run
at the same time: the run uses as many partitions as the cluster has worker threads. Workers
need the same kitgen (same version, same ``rulesets/``) and, for a spec given as a path, the
same file at the same path (a shared file system).
"""

from __future__ import annotations

import pickle
import time
import uuid
from collections.abc import Sequence
from typing import Any

from ..errors import KitgenError, UsageError
from .partition import Job, coordinate, raise_error, worker_main

POLL_SECONDS = 1.0
CONNECT_SECONDS = 20.0  # how long to keep trying to reach a scheduler


def _client(address: str) -> Any:
    try:
        from distributed import Client
    except ImportError:
        raise UsageError(
            "verifying on a Dask cluster needs Dask: pip install 'kitgen[cluster]' "
            "(or: pip install 'dask[distributed]')"
        ) from None
    try:
        return Client(address, timeout=CONNECT_SECONDS)
    except OSError as exc:
        raise UsageError(f"cannot reach the Dask scheduler at {address}: {exc}") from None


class DaskBackend:
    """Runs the partitions of an exact verification as tasks of a Dask cluster."""

    def __init__(self, client: Any):
        self.client = client

    @classmethod
    def connect(cls, address: str) -> DaskBackend:
        """A backend on the scheduler at ``address`` (``tcp://host:8786``)."""
        return cls(_client(address))

    def threads(self) -> int:
        """How many partitions can run at once: the cluster's worker threads."""
        return max(1, sum(self.client.nthreads().values()))

    def run(self, jobs: list[Job]) -> tuple[list[tuple[Any, ...]], list[str]]:
        from distributed import Queue

        if len(jobs) > self.threads():
            raise UsageError(
                f"{len(jobs)} partitions need {len(jobs)} worker threads at once; "
                f"the cluster has {self.threads()}"
            )
        token = uuid.uuid4().hex
        up = Queue(f"kitgen-{token}-up", client=self.client)
        downs = [Queue(f"kitgen-{token}-down-{job.index}", client=self.client) for job in jobs]
        futures = [
            self.client.submit(_task, job, token, pure=False, key=f"kitgen-verify-{token}-{job.index}")
            for job in jobs
        ]
        channel = _Queues(up, downs, futures)
        try:
            final, notes = coordinate(channel, len(jobs))
            messages = []
            for i in range(len(jobs)):
                m = final[i]
                if m[0] == "done":
                    m = ("done", pickle.loads(futures[i].result()))
                messages.append(m)
        finally:
            for f in futures:
                f.cancel()
            for q in [up, *downs]:
                q.close()  # release the queue on the scheduler
        return messages, notes


class _Queues:
    """The coordinator's side of the queues (see :class:`.partition.Channel`)."""

    def __init__(self, up: Any, downs: list[Any], futures: list[Any]):
        self.up, self.downs, self.futures = up, downs, futures
        self.early: dict[int, list[tuple[Any, ...]]] = {}

    def receive(self, active: Sequence[int]) -> dict[int, tuple[Any, ...]]:
        out: dict[int, tuple[Any, ...]] = {}
        for i in active:
            if self.early.get(i):
                out[i] = self.early[i].pop(0)
        while len(out) < len(active):
            try:
                index, message = pickle.loads(self.up.get(timeout=POLL_SECONDS))
            except TimeoutError:
                self._check_tasks()
                continue
            if message[:2] == ("error", "memory"):  # a partition out of memory stops them all now
                raise_error(message)
            if index in out:
                self.early.setdefault(index, []).append(message)
            else:
                out[index] = message
        return out

    def send(self, index: int, message: Any) -> None:
        self.downs[index].put(pickle.dumps(message))

    def _check_tasks(self) -> None:
        for f in self.futures:
            if f.status == "error":
                raise KitgenError(f"a verification task failed on the cluster: {f.exception()!r}")
            if f.status == "cancelled":
                raise KitgenError("a verification task was cancelled on the cluster")


def _task(job: Job, token: str) -> bytes:
    """One partition, on a Dask worker."""
    from distributed import Queue

    up = Queue(f"kitgen-{token}-up")
    down = Queue(f"kitgen-{token}-down-{job.index}")
    result: dict[str, Any] = {}

    def send(message: tuple[Any, ...]) -> None:
        if message[0] == "done":
            result["part"] = message[1]
            message = ("done", None)  # the part itself comes back as the task's result
        up.put(pickle.dumps((job.index, message)))

    def receive() -> Any:
        while True:
            try:
                return pickle.loads(down.get(timeout=60))
            except TimeoutError:
                time.sleep(0)  # the coordinator is still deciding (or waiting for a slow partition)

    worker_main(job, send, receive)
    return pickle.dumps(result.get("part"))
