"""Sub-protocol runs shared between the partitions of one verification (``--workers N``).

Every partition of an exact verification meets most of the same sub-protocol arguments (a
Gakmoro round's 840 additions and comparisons), and each used to run them all. With a store,
the first partition to need a sub-run *claims* it (a file created exclusively), runs it and
*publishes* its outcomes; the others wait for the file and read it. So each sub-run is run once,
by whichever partition needed it first, and the work of the sub-runs is shared out.

What is stored is the sub-run's factored outcomes (probability, the public outputs the caller
sees, the cards and counts it hands back), with every card by its symbol's name (processes
number symbols in the order they meet them). A sub-run whose view does not factor is not
shared (the store says so and each partition runs it itself, as before), and neither is one
run while the verification is being restarted with a callee inlined. The partition that ran
a sub-run also checks, and reports, its callee's view distribution; the coordinator compares
those between partitions as before (:func:`~reference_engine.verify.partition.combine`).

The store is a folder (local processes; a Dask cluster's workers may not share one, and do
not use it). Claims and results are files written atomically (a temporary name, then renamed).
A claim names the process that made it: a partition waiting for a sub-run whose claimer has
ended without publishing it (an error, a worker killed) runs it itself, and one whose own
coordinator has gone (killed outright) stops waiting and leaves, as it does between rounds.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..meters import Meters
from .plans import SubResult
from .views import _local_code, local, portable, portable_code

WAIT_SECONDS = 3600.0  # a partition waits this long for another's sub-run, then runs it itself
_NOT_SHARED = "not shared"


class SubrunStore:
    """A folder of sub-run outcomes shared by the partitions of one verification."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        self.parent = os.getppid()  # the coordinator, for a worker process
        self.loaded = 0  # sub-runs read from another partition
        self.run = 0  # sub-runs this partition ran (and published)

    def _path(self, key: Any) -> Path:
        digest = hashlib.blake2b(repr(key).encode(), digest_size=20).hexdigest()
        return self.folder / digest

    def claim(self, key: Any) -> list[Any] | None:
        """The outcomes another partition published for ``key`` (waiting for them when it is
        running that sub-run), or None: then this partition runs it and must :meth:`publish`."""
        path = self._path(key)
        try:
            fd = os.open(f"{path}.claim", os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            found = self._wait(path)
            if found is None or found == _NOT_SHARED:
                return None
            self.loaded += 1
            return list(found)
        try:
            os.write(fd, str(os.getpid()).encode())
        finally:
            os.close(fd)
        self.run += 1
        return None

    def _wait(self, path: Path) -> Any:
        deadline = time.monotonic() + WAIT_SECONDS
        delay = 0.002
        checked = time.monotonic()
        while time.monotonic() < deadline:
            try:
                with open(path, "rb") as f:
                    return pickle.load(f)
            except FileNotFoundError:
                time.sleep(delay)
                delay = min(delay * 2, 0.05)
            except (EOFError, pickle.UnpicklingError):  # cannot happen (renamed whole): run it
                return None
            if time.monotonic() - checked >= 0.5:
                checked = time.monotonic()
                if os.getppid() != self.parent:
                    raise EOFError("the coordinator is gone")
                if not _alive(_claimer(path)) and not path.exists():
                    return None  # its claimer ended without publishing it: run it here
        return None

    def publish(self, key: Any, outcomes: list[Any] | None) -> None:
        """Publish this partition's outcomes of ``key`` (None: the others run it themselves)."""
        path = self._path(key)
        tmp = path.with_name(f".{path.name}.{os.getpid()}")
        with open(tmp, "wb") as f:
            pickle.dump(outcomes if outcomes is not None else _NOT_SHARED, f)
        os.replace(tmp, path)


def _claimer(path: Path) -> int | None:
    """The process that claimed the sub-run at ``path`` (None while it writes its claim)."""
    try:
        text = Path(f"{path}.claim").read_text()
    except FileNotFoundError:
        return None
    return int(text) if text.isdigit() else None


def _alive(pid: int | None) -> bool:
    """Whether process ``pid`` still runs (a zombie, ended and not yet reaped, does not)."""
    if pid is None:
        return True  # the claim is being written: its maker is alive
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:  # it has just ended, or there is no /proc (os.kill's answer stands)
        return not Path("/proc/self/stat").exists()
    except IndexError:
        return True


def store_key(sub_key: Any, codes: tuple[tuple[int, ...], ...], inlined: bool) -> Any:
    """A sub-run's key in every process: the callee's frame key and its argument cards by name."""
    return (sub_key, tuple(tuple(portable_code(c) for c in arg) for arg in codes), inlined)


def export_outcomes(outcomes: list[tuple[Fraction, Any, SubResult]]) -> list[Any] | None:
    """Outcomes in the store's form; None when one keeps a view (an inlined callee)."""
    out = []
    for prob, obs, res in outcomes:
        if obs is not None and not (obs[0] == "call" and isinstance(obs[2], tuple)):
            return None
        m = res.meters
        out.append(
            (
                prob,
                portable(obs),
                tuple((shape, tuple(portable_code(c) for c in codes)) for shape, codes in res.cards),
                portable(res.values),
                tuple((portable_sid(s), n) for s, n in res.delta),
                (m.shuffles, m.turns, m.kinds, tuple((portable_sid(s), n) for s, n in m.peak), m.calls),
                portable(res.shown),
            )
        )
    return out


def import_outcomes(data: list[Any]) -> list[tuple[Fraction, Any, SubResult]]:
    """The stored outcomes with this process's symbols."""
    out = []
    for prob, obs, cards, values, delta, meters, shown in data:
        shuffles, turns, kinds, peak, calls = meters
        res = SubResult(
            tuple((shape, tuple(_local_code(c) for c in codes)) for shape, codes in cards),
            local(values),
            tuple(sorted((local_sid(s), n) for s, n in delta)),
            Meters(shuffles, turns, kinds, tuple(sorted((local_sid(s), n) for s, n in peak)), calls),
            local(shown),
        )
        out.append((prob, local(obs), res))
    return out


def portable_sid(sid: int) -> Any:
    from ..cards import SYMBOLS

    return portable(SYMBOLS.by_id(sid))


def local_sid(p: Any) -> int:
    sym = local(p)
    return int(sym.id)
