"""The partitions of an exact verification as tasks of a Dask cluster (two local workers).

The cluster is real: two worker processes and a scheduler on this machine, talking over
TCP, exactly as ``kitgen verify --scheduler tcp://...`` uses a remote one."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from reference_engine.registry import Library
from reference_engine.verify import DaskBackend, verify

from .test_partition import same_report


@pytest.fixture(scope="module")
def backend() -> Iterator[DaskBackend]:
    # Imported here, not when the file is collected: every xdist worker collects every file, and
    # importing distributed is about 0.4-0.5 s of CPU; the worker that runs this file pays it once.
    distributed = pytest.importorskip(
        "distributed", reason="the cluster extra (dask[distributed]) is not installed"
    )
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40
    )
    client = distributed.Client(cluster)
    try:
        yield DaskBackend(client)
    finally:
        client.close()
        cluster.close()


@pytest.mark.parametrize(("name", "params"), [("card-selection", {}), ("covert-lottery-modified", {"m": 4})])
def test_a_local_cluster_gives_the_single_process_report(
    backend: DaskBackend, name: str, params: dict[str, Any]
) -> None:
    library = Library()
    proto = library.protocol(name)
    assert backend.threads() == 2
    split = verify(library, proto, params, workers=backend.threads(), backend=backend)
    assert split.stats["workers"] == 2
    assert same_report(split) == same_report(verify(library, proto, params))


def test_a_failing_spec_fails_alike_on_the_cluster(backend: DaskBackend, tmp_path: Any) -> None:
    from ..machine.test_calls import PEEK, calls, library

    lib = library(tmp_path, peek=PEEK, calls_peek=calls("peek"))
    proto = lib.protocol("calls-peek")
    split = verify(lib, proto, workers=2, backend=backend)
    assert not split.secure
    assert same_report(split) == same_report(verify(lib, proto))


def test_more_partitions_than_threads_are_refused(backend: DaskBackend) -> None:
    """The partitions wait for each other at every step: they must all run at once."""
    library = Library()
    proto = library.protocol("card-selection")
    with pytest.raises(Exception, match="need 3 worker threads at once"):
        verify(library, proto, workers=3, backend=backend)


SOUNDNESS = Path(__file__).resolve().parent / "soundness"


@pytest.mark.parametrize(
    ("folder", "spec"),
    [
        ("shown-order", "shown-in-order"),
        ("calls-hands", "taker-is-alice"),
        ("calls-hands", "sees-mixed"),
        ("callee-shown", "shows-secret"),
    ],
)
def test_the_cluster_gives_the_same_json(backend: DaskBackend, folder: str, spec: str) -> None:
    """Byte-identical JSON (less the work statistics) on the cluster, whose worker processes run
    under hash seeds of their own: people through calls, a callee's shown output, the example
    quoted on a failing secure line."""
    lib = Library([SOUNDNESS / folder])
    proto = lib.protocol(spec)
    split = verify(lib, proto, workers=2, backend=backend)
    alone = verify(lib, proto)
    assert json.dumps(same_report(split), sort_keys=True) == json.dumps(same_report(alone), sort_keys=True)
