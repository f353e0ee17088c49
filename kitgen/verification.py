"""Verifying what a kit or booklet teaches, before anything is printed.

A kit or booklet is only written when every protocol in it passes exact verification;
otherwise :class:`VerificationFailed` names the protocol and the failing check, and the
command exits 1 without writing a file.
"""

from __future__ import annotations

from typing import Any

from reference_engine.errors import KitgenError
from reference_engine.registry import Library
from reference_engine.statistics import verify_runs
from reference_engine.verify import Report, verify


class VerificationFailed(KitgenError):
    """A protocol the kit or booklet teaches fails verification: nothing is written."""

    exit_code = 1
    stage = "build"


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


def verify_protocols(
    library: Library, names: list[str], what: str = "kit", reveals_of: str | None = None
) -> list[Report]:
    """Exact verification of each protocol; the first failure stops everything.

    The run of ``reveals_of`` also records every possible reveal (for the booklet's checks).
    """
    reports = []
    for name in names:
        report = verify(library, library.protocol(name), record_reveals=name == reveals_of)
        if not report.ok:
            raise _refuse(name, report, what)
        reports.append(report)
    return reports


def verify_statistically(library: Library, name: str, runs: int, seed: int, what: str = "kit") -> Report:
    """Statistical verification of a game protocol on the full deck (see ``kitgen verify --runs``)."""
    report = verify_runs(library, library.protocol(name), runs, seed)
    if not report.ok:
        raise _refuse(name, report, what)
    return report


def summary(report: Report) -> dict[str, Any]:
    """A report as kits and booklets keep it: everything but the timings (outputs must not change)."""
    data = report.to_json()
    data.pop("stats", None)
    return data
