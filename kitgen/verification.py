"""Verifying what a kit or booklet teaches, before anything is printed.

A kit or booklet is only written when every protocol in it passes exact verification;
otherwise :class:`VerificationFailed` names the protocol and the failing check, and the
command exits 1 without writing a file.

Reports are kept in a :class:`VerificationCache` so that rebuilding a kit (another paper,
another label sheet) does not verify the same specs again. An entry is found only when
the engine's source, every spec and rule set file, the Python version and the request
(protocol, method, runs, seed) are byte for byte the same, so a reused report is the
report a fresh run would make; a fresh report is also passed through the same JSON form,
so kits built with and without the cache are identical.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any

from reference_engine.api import (
    DaskBackend,
    Forecast,
    Library,
    Params,
    Protocol,
    Report,
    UsageError,
    VerificationFailed,
    check_protocol,
    engine_dir,
    forecast,
    is_game,
    parse_params,
    rulesets_dir,
    verify,
    verify_runs,
)


def protocols_to_verify(library: Library, name: str) -> list[str]:
    """The protocol and everything it calls, callees first."""
    seen: list[str] = []

    def visit(n: str) -> None:
        proto = library.protocol(n)
        for call in proto.calls():
            if call.protocol not in seen:
                visit(call.protocol)
        if n not in seen:
            seen.append(n)

    visit(name)
    return seen


def _refuse(name: str, report: Report, what: str) -> VerificationFailed:
    failing = report.check(report.failed()[0]) if report.failed() else None
    figure = f": {failing.figure}" if failing else ""
    return VerificationFailed(
        f"the spec {name} fails verification (check {', '.join(report.failed()) or '?'}{figure}); "
        f"no {what} is written. Run `kitgen verify {name}` for details."
    )


CACHE_ENV = "KITGEN_CACHE_DIR"


def default_cache_dir() -> Path:
    """``$KITGEN_CACHE_DIR``, else ``$XDG_CACHE_HOME/kitgen/verification`` (``~/.cache`` by default)."""
    explicit = os.environ.get(CACHE_ENV)
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "kitgen" / "verification"


def _digest_files(h: Any, root: Path, patterns: tuple[str, ...], recursive: bool = True) -> None:
    if not root.is_dir():
        return
    found = (root.rglob(pat) if recursive else root.glob(pat) for pat in patterns)
    files = sorted({p for matches in found for p in matches if p.is_file()})
    for p in files:
        h.update(p.relative_to(root).as_posix().encode() + b"\0")
        h.update(hashlib.sha256(p.read_bytes()).digest())


@lru_cache(maxsize=1)
def _engine_digest() -> str:
    """The reference engine's own source and the built-in rule sets and specs."""
    h = hashlib.sha256(f"python {sys.version_info[0]}.{sys.version_info[1]}".encode())
    _digest_files(h, engine_dir(), ("*.py",))
    _digest_files(h, rulesets_dir(), ("*.yaml", "*.yml"))
    return h.hexdigest()


class VerificationCache:
    """Verification reports kept on disk as JSON, keyed by everything that decides them."""

    def __init__(self, directory: Path | None = None):
        self.directory = directory if directory is not None else default_cache_dir()
        self.hits = 0
        self.misses = 0

    def key(self, library: Library, request: dict[str, Any]) -> str:
        h = hashlib.sha256(_engine_digest().encode())
        for root in library.roots:
            _digest_files(h, root, ("*.yaml", "*.yml"), recursive=False)  # where specs are looked up
        h.update(json.dumps(request, sort_keys=True).encode())
        return h.hexdigest()

    def load(self, key: str) -> Report | None:
        try:
            data = json.loads((self.directory / f"{key}.json").read_text(encoding="utf-8"))
            report = _from_record(data)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            self.misses += 1  # absent or unreadable: verify again
            return None
        self.hits += 1
        return report

    def store(self, key: str, record: dict[str, Any]) -> None:
        """Write atomically; a cache that cannot be written is simply not used."""
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{key[:12]}.", dir=self.directory)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(record, f, ensure_ascii=False)
            os.replace(tmp, self.directory / f"{key}.json")
        except OSError:
            pass


def _record(report: Report) -> dict[str, Any]:
    reveals = None
    if report.reveals is not None:
        reveals = [
            [name, step, sorted([list(map(list, obs)) for obs in observations])]
            for (name, step), observations in sorted(report.reveals.items())
        ]
    return {"report": report.to_json(), "reveals": reveals}


def _from_record(data: dict[str, Any]) -> Report:
    reveals = None
    if data["reveals"] is not None:
        reveals = {
            (name, step): {tuple(tuple(cell) for cell in obs) for obs in observations}
            for name, step, observations in data["reveals"]
        }
    return Report.from_json(data["report"], reveals)


def _reported(
    library: Library, request: dict[str, Any], cache: VerificationCache | None, make: Any
) -> Report:
    """A cached report for ``request``, or ``make()``'s report in the same JSON form."""
    key = cache.key(library, request) if cache is not None else ""
    if cache is not None:
        found = cache.load(key)
        if found is not None:
            return found
    record = json.loads(json.dumps(_record(make()), ensure_ascii=False))
    if cache is not None and Report.from_json(record["report"]).ok:
        cache.store(key, record)
    return _from_record(record)


def report_for(
    library: Library,
    proto: Protocol,
    params: Params | None,
    scenario: str | None,
    record_reveals: bool,
    cache: VerificationCache | None,
    workers: int = 1,
) -> Report:
    """The exact verification report of ``proto`` (from the cache when it holds one), passed or
    not; with ``record_reveals`` it keeps every possible reveal (for the booklet's checks)."""
    request: dict[str, Any] = {
        "method": "exact",
        "protocol": proto.name,
        "reveals": record_reveals,
        "scenario": scenario,
    }
    if params:
        request["params"] = {k: list(v) if isinstance(v, tuple) else v for k, v in sorted(params.items())}
    return _reported(
        library,
        request,
        cache,
        lambda: verify(
            library, proto, params, scenario=scenario, record_reveals=record_reveals, workers=workers
        ),
    )


def verify_protocols(
    library: Library,
    names: list[str],
    what: str = "kit",
    reveals_of: str | None = None,
    cache: VerificationCache | None = None,
    game: str | None = None,
    workers: int = 1,
) -> list[Report]:
    """Exact verification of each protocol; the first failure stops everything.

    The run of ``reveals_of`` also records every possible reveal (for the booklet's checks). A
    game protocol is verified in its first scenario of ``game`` (the kit's game), or its first.
    """
    reports = []
    for name in names:
        proto = library.protocol(name)
        scenario = next((s.name for s in proto.scenarios.values() if s.game == game), None)
        report = report_for(library, proto, None, scenario, name == reveals_of, cache, workers)
        if not report.ok:
            raise _refuse(name, report, what)
        reports.append(report)
    return reports


def verify_statistically(
    library: Library,
    name: str,
    runs: int,
    seed: int,
    what: str = "kit",
    cache: VerificationCache | None = None,
    game: str | None = None,
) -> Report:
    """Statistical verification of a game protocol on the full deck of ``game`` (default: the
    game of the protocol's first scenario; see ``kitgen verify --runs``)."""
    proto = library.protocol(name)
    request = {"method": "statistical", "protocol": name, "runs": runs, "seed": seed, "game": game}
    report = _reported(library, request, cache, lambda: verify_runs(library, proto, runs, seed, game))
    if not report.ok:
        raise _refuse(name, report, what)
    return report


def summary(report: Report) -> dict[str, Any]:
    """A report as kits and booklets keep it: everything but the timings (outputs must not change)."""
    data = report.to_json()
    data.pop("stats", None)
    return data


def forecast_named(
    name: str, params: tuple[str, ...] | list[str] = (), deck: str | None = None, force: bool = False
) -> Forecast:
    """What `kitgen verify --estimate` does: measure smaller sizes, extrapolate to this one
    (each measured size within verify's limits)."""
    library = Library()
    proto = library.protocol(name)
    return forecast(
        library,
        proto,
        parse_params(params),
        deck,
        allowed=lambda given: check_protocol(proto, given, force, "verify", deck),
    )


def default_workers() -> int:
    """The cores this process may use (``--workers``' default)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def verify_named(
    name: str,
    params: tuple[str, ...] | list[str] = (),
    *,
    deck: str | None = None,
    runs: int | None = None,
    seed: int = 0,
    force: bool = False,
    workers: int = 1,
    scheduler: str | None = None,
) -> Report:
    """What `kitgen verify` does: exact verification of a protocol by name or path (in a
    scenario of its game with ``deck``), or statistical on the full deck with ``runs``.
    An exact verification runs in ``workers`` processes, or on the Dask ``scheduler``."""
    library = Library()
    proto = library.protocol(name)
    if runs is not None:
        if deck is not None or params:
            raise UsageError("--runs verifies on the full deck: it cannot be combined with --deck or --param")
        if not proto.context:
            raise UsageError(f"--runs is for game protocols (card selection); verify {proto.name} exactly")
        return verify_runs(library, proto, runs, seed)
    given = parse_params(params)
    check_protocol(proto, given, force, "verify", deck)
    if scheduler is not None:
        backend = DaskBackend.connect(scheduler)
        return verify(library, proto, given, deck, workers=backend.threads(), backend=backend)
    return verify(library, proto, given, deck, workers=workers)


def check_booklet_sizes(name: str, force: bool) -> None:
    """A protocol booklet verifies the protocol and what it calls with their spec's parameters,
    and runs its worked example: refuse sizes past the limits before anything runs."""
    if is_game(name):
        return  # a rule set: its protocols are the built-in ones
    library = Library()
    proto = library.protocol(name)
    for each in protocols_to_verify(library, proto.name):
        check_protocol(library.protocol(each), None, force, "verify")
    example = proto.booklet
    check_protocol(proto, example.example_params or None, force, "simulate", example.example_scenario)
