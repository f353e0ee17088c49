"""A verification report: each check with its verdict and figure, resources, the paper's counts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..spec import Params

VERSION = "0.1.0"


@dataclass
class Check:
    """One line of a verification report."""

    name: str
    ok: bool
    figure: str
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass
class Report:
    protocol: str
    title: str
    params: Params
    method: str
    inputs: int
    checks: list[Check]
    resources: dict[str, Any]
    expect: list[dict[str, Any]]
    stats: dict[str, Any]
    notes: list[str]
    source: dict[str, str]
    scenario: dict[str, Any] | None = None
    # With verify(..., record_reveals=True): every possible reveal per (protocol, step).
    reveals: dict[tuple[str, str], set[Any]] | None = field(default=None, repr=False)
    # A verification by validity classes: the deals it stands for and how (see verify.classes).
    reduction: dict[str, Any] | None = None
    # How many inputs the spec declares before 'admissible' filters them (None: as many as
    # were checked). A verdict over fewer inputs than declared says so (see :meth:`verdict`).
    declared: int | None = None

    @property
    def declared_inputs(self) -> int:
        return self.inputs if self.declared is None else self.declared

    def scope(self) -> str:
        """How many inputs were checked, and of how many declared: "4 inputs", or "4 of the 8
        declared inputs (the other 4 are not admissible)"."""
        if self.declared_inputs <= self.inputs:
            return f"{self.inputs} input{'s' if self.inputs != 1 else ''}"
        left = self.declared_inputs - self.inputs
        return (
            f"{self.inputs} of the {self.declared_inputs} declared inputs "
            f"(the other {left} {'is' if left == 1 else 'are'} not admissible)"
        )

    def verdict(self) -> str:
        """The last line of a report: VERIFIED or NOT VERIFIED, and how much was checked
        when that is less than the spec declares."""
        head = "VERIFIED" if self.ok else f"NOT VERIFIED: failed {', '.join(self.failed())}"
        if self.method == "exact" and self.declared_inputs > self.inputs:
            left = self.declared_inputs - self.inputs
            head += (
                f" ({'only ' if self.ok else ''}for {self.inputs} of the {self.declared_inputs} "
                f"declared inputs: the other {left} {'is' if left == 1 else 'are'} not admissible "
                "and not checked)"
            )
        return head

    def check(self, name: str) -> Check | None:
        return next((c for c in self.checks if c.name == name), None)

    @property
    def correct(self) -> bool:
        c = self.check("correct")
        return bool(c and c.ok)

    @property
    def secure(self) -> bool:
        c = self.check("secure")
        return bool(c and c.ok)

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    def failed(self) -> list[str]:
        return [c.name for c in self.checks if not c.ok]

    def to_json(self) -> dict[str, Any]:
        return {
            "protocol": self.protocol,
            "title": self.title,
            "params": self.params,
            "method": self.method,
            "inputs": self.inputs,
            "declared_inputs": self.declared_inputs,
            "verified": self.ok,
            "correct": self.correct,
            "secure": self.secure,
            "failed": self.failed(),
            "checks": [{"name": c.name, "ok": c.ok, "figure": c.figure, **c.detail} for c in self.checks],
            "resources": self.resources,
            "expect": self.expect,
            "stats": self.stats,
            "notes": self.notes,
            "source": self.source,
            "scenario": self.scenario,
            "engine": f"kitgen reference engine {VERSION}",
            **({"reduction": self.reduction} if self.reduction is not None else {}),
        }

    @classmethod
    def from_json(
        cls, data: dict[str, Any], reveals: dict[tuple[str, str], set[Any]] | None = None
    ) -> Report:
        """The report :meth:`to_json` describes (the derived verdicts are recomputed)."""
        checks = []
        for c in data["checks"]:
            detail = {k: v for k, v in c.items() if k not in ("name", "ok", "figure")}
            checks.append(Check(c["name"], bool(c["ok"]), c["figure"], detail))
        return cls(
            protocol=data["protocol"],
            title=data["title"],
            params=data["params"],
            method=data["method"],
            inputs=data["inputs"],
            checks=checks,
            resources=data["resources"],
            expect=data["expect"],
            stats=data["stats"],
            notes=data["notes"],
            source=data["source"],
            scenario=data["scenario"],
            reveals=reveals,
            reduction=data.get("reduction"),
            declared=data.get("declared_inputs"),
        )


def empty_stats(seconds: float) -> dict[str, Any]:
    """The figures of a report that stopped before any run finished."""
    return {
        "final_states": 0,
        "views": 0,
        "views_after_merging": 0,
        "states_processed": 0,
        "peak_frontier": 0,
        "subprotocol_runs": 0,
        "seconds": round(seconds, 3),
    }


def count_text(n: int) -> str:
    """A count as people read it: ``7200``, or ``about 4.24 x 10^196`` past fifteen digits."""
    if n < 10**15:
        return str(n)
    digits = str(n)
    return f"about {digits[0]}.{digits[1:3]} x 10^{len(digits) - 1}"


def views_phrase(merged: int, raw: int) -> str:
    """ "11 possible views (3 after merging ...)": what the players can tell apart, and the merged."""
    text = f"{count_text(raw)} possible view{'s' if raw != 1 else ''}"
    if merged != raw:
        text += f" ({merged} after merging views that are alike up to a constant factor)"
    return text
