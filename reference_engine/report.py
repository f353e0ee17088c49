"""A verification report: each check with its verdict and figure, resources, the paper's counts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict, cast

from .statistics import TestJSON

VERSION = "0.1.0"

# A report's parameters as its JSON keeps them: a tuple comes back from the file as a list.
ReportParams = Mapping[str, int | Sequence[int]]


class Counterexample(TypedDict):
    """A wrong outcome of the ``correct`` check, in words."""

    inputs: str
    output: str
    got: str
    expected: str
    view: str
    probability: str


class Distinguished(TypedDict):
    """The ``secure`` check's counterexample: a view whose probability tells two inputs apart."""

    player: str | None
    view: str
    inputs: list[str]
    probabilities: list[str]


class CheckDetail(TypedDict, total=False):
    """What a check says beyond its verdict and figure (kept in its JSON line)."""

    counterexamples: list[Counterexample] | list[str]
    counterexample: Distinguished
    examples: list[str]
    views: int
    views_after_merging: int
    players: list[str]
    tests: list[TestJSON]
    played: dict[str, int] | dict[str, dict[str, int]]


class CheckJSON(CheckDetail):
    """A check as a report's JSON keeps it: its verdict, figure and detail on one line."""

    name: str
    ok: bool
    figure: str


class Resources(TypedDict, total=False):
    """What a protocol used: exactly (most and fewest over every input), or over the runs of a
    statistical verification (``runs``; ``shuffles`` and ``helper_cards``: every count seen)."""

    cards: int
    cards_by_symbol: dict[str, int]
    input_cards: int
    helper_cards: int | list[int]
    helpers_by_symbol: dict[str, int]
    shuffles: int | list[int]
    shuffles_min: int
    shuffles_by_kind: dict[str, int]
    turns: int
    turns_min: int
    steps: int
    substeps: int
    calls: dict[str, list[int]]
    table: list[int]
    runs: int


# What the paper says of a count: a number, a list (sizes, or every count seen), or per name.
Count = int | list[int] | dict[str, int] | dict[str, list[int]]


class Expectation(TypedDict):
    """One of the paper's counts against what the verification measured."""

    name: str
    expected: Count
    measured: Count
    match: bool
    formula: str
    cite: str | None


class Partition(TypedDict):
    """One worker's share of an exact verification."""

    inputs: int
    cpu_seconds: float
    states_processed: int
    subruns_run: int
    subruns_loaded: int


class Stats(TypedDict, total=False):
    """How much work a verification did (not kept in kits: the seconds differ from run to run)."""

    final_states: int
    views: int
    views_after_merging: int
    states_processed: int
    peak_frontier: int
    subprotocol_runs: int
    seconds: float
    workers: int
    partitions: list[Partition]


class Scenario(TypedDict):
    """The scenario a game protocol was verified in: its game, deal and public state."""

    name: str
    doc: str
    game: str
    deal: list[str]
    state: str


# How many cards of a validity class the table deals ('class' is a keyword: the functional form).
ClassCount = TypedDict("ClassCount", {"class": str, "cards": int})


class Reduction(TypedDict):
    """A verification by validity classes: the deals of the physical cards it stands for."""

    deals: int
    class_deals: int
    classes: list[ClassCount]
    cards: int
    sizes: list[int]
    table: str


class ReportSummary(TypedDict):
    """A report as kits and booklets keep it: everything but the timings."""

    protocol: str
    title: str
    params: ReportParams
    method: str
    inputs: int
    declared_inputs: int
    verified: bool
    correct: bool
    secure: bool
    failed: list[str]
    checks: list[CheckJSON]
    resources: Resources
    expect: list[Expectation]
    notes: list[str]
    source: dict[str, str]
    scenario: Scenario | None
    engine: str
    reduction: NotRequired[Reduction]


class ReportJSON(ReportSummary):
    """A report as ``kitgen verify --json`` and the cache write it."""

    stats: Stats


@dataclass
class Check:
    """One line of a verification report."""

    name: str
    ok: bool
    figure: str
    detail: CheckDetail = field(default_factory=lambda: CheckDetail())

    def to_json(self) -> CheckJSON:
        return {"name": self.name, "ok": self.ok, "figure": self.figure, **self.detail}


@dataclass
class Report:
    protocol: str
    title: str
    params: ReportParams
    method: str
    inputs: int
    checks: list[Check]
    resources: Resources
    expect: list[Expectation]
    stats: Stats
    notes: list[str]
    source: dict[str, str]
    scenario: Scenario | None = None
    # With verify(..., record_reveals=True): every possible reveal per (protocol, step).
    reveals: dict[tuple[str, str], set[Any]] | None = field(default=None, repr=False)
    # A verification by validity classes: the deals it stands for and how (see verify.classes).
    reduction: Reduction | None = None
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

    def summary(self) -> ReportSummary:
        """The report as kits and booklets keep it: everything but the timings (outputs must
        not change from one run to the next)."""
        out: ReportSummary = {
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
            "checks": [c.to_json() for c in self.checks],
            "resources": self.resources,
            "expect": self.expect,
            "notes": self.notes,
            "source": self.source,
            "scenario": self.scenario,
            "engine": f"kitgen reference engine {VERSION}",
        }
        if self.reduction is not None:
            out["reduction"] = self.reduction
        return out

    def to_json(self) -> ReportJSON:
        s = self.summary()
        out: ReportJSON = {
            "protocol": s["protocol"],
            "title": s["title"],
            "params": s["params"],
            "method": s["method"],
            "inputs": s["inputs"],
            "declared_inputs": s["declared_inputs"],
            "verified": s["verified"],
            "correct": s["correct"],
            "secure": s["secure"],
            "failed": s["failed"],
            "checks": s["checks"],
            "resources": s["resources"],
            "expect": s["expect"],
            "stats": self.stats,
            "notes": s["notes"],
            "source": s["source"],
            "scenario": s["scenario"],
            "engine": s["engine"],
        }
        if "reduction" in s:
            out["reduction"] = s["reduction"]
        return out

    @classmethod
    def from_json(cls, data: ReportJSON, reveals: dict[tuple[str, str], set[Any]] | None = None) -> Report:
        """The report :meth:`to_json` describes (the derived verdicts are recomputed)."""
        checks = []
        for c in data["checks"]:
            # The detail keys in the order the line has them (the JSON reads back the same).
            detail = cast(CheckDetail, {k: v for k, v in c.items() if k not in ("name", "ok", "figure")})
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


def empty_stats(seconds: float) -> Stats:
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
