"""Run the engine's exact verifier and the naive enumerator on one library and compare them.

Both sides report one of: verdicts (correct, secure, tidy) with every input's output
distribution, ``error`` (some run cannot be carried out: the engine's report says so or
verify() raises SimulationError; the enumerator raises RunError), ``refused`` (the spec is
refused before anything runs: no input is admissible; the engine raises SpecError, the
enumerator Refused), ``crash`` (the engine
raised anything else: always a disagreement) or ``unsupported`` (the enumerator does not
implement something the spec uses: the example is skipped).

Output distributions are compared only when no output fails to decode: the engine's
``outcome_distribution`` cannot represent an output that is not a valid encoding.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import enumerator as en  # noqa: E402

from reference_engine.cards import Symbol  # noqa: E402
from reference_engine.errors import SimulationError, SpecError  # noqa: E402
from reference_engine.registry import Library  # noqa: E402
from reference_engine.verify import outcome_distribution, verify  # noqa: E402

Dists = list[tuple[Any, dict[tuple[Any, ...], Fraction]]]


@dataclass
class Side:
    status: str  # verdicts | error | crash | unsupported
    verdicts: tuple[bool, bool, bool] | None = None
    dists: Dists | None = None
    message: str = ""
    broken_outputs: bool = False  # some output failed to decode in some run
    views: int = 0
    locations: frozenset[tuple[str, str]] = frozenset()  # where runs fail: (protocol, key path)
    insecure_for: str | None = None  # a person who can tell inputs apart where the table cannot

    def label(self) -> str:
        if self.status != "verdicts" or self.verdicts is None:
            return self.status
        c, s, t = self.verdicts
        who = " (a player sees more)" if self.insecure_for else ""
        return f"correct={c} secure={s}{who} tidy={t}"


@dataclass
class Comparison:
    engine: Side
    mine: Side
    differences: list[str] = field(default_factory=list)

    @property
    def skipped(self) -> bool:
        return self.mine.status == "unsupported"

    @property
    def agree(self) -> bool:
        return not self.differences

    def summary(self) -> str:
        lines = [f"engine: {self.engine.label()}", f"enumerator: {self.mine.label()}"]
        if self.engine.message:
            lines.append(f"engine says: {self.engine.message}")
        if self.mine.message:
            lines.append(f"enumerator says: {self.mine.message}")
        lines += self.differences
        return "\n".join(lines)


def norm(v: Any) -> Any:
    """An engine value in the enumerator's terms (cards as Sym, lists as tuples)."""
    if isinstance(v, Symbol):
        return en.Sym(v.name)
    if isinstance(v, (list, tuple)):
        return tuple(norm(x) for x in v)
    return v


def _assignment(values: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple((k, norm(v)) for k, v in values.items())


def _unlinked(library: Library, main: str) -> Any:
    """The main spec as loaded, whether or not the engine's linker accepts its calls (a spec
    that seats people must say who holds a callee's hands: the enumerator judges that itself)."""
    try:
        return library.protocol(main)
    except SpecError:
        return library._load(main)


def run_enumerator(library: Library, main: str) -> Side:
    try:
        proto = _unlinked(library, main)
    except SpecError as exc:
        return Side("refused", message=str(exc))
    try:
        r = en.enumerate_protocol(library, proto)
    except en.Refused as exc:
        return Side("refused", message=str(exc))
    except en.RunError as exc:
        return Side("error", message=str(exc), locations=exc.locations)
    except en.Unsupported as exc:
        return Side("unsupported", message=str(exc))
    dists = [(_assignment(a), d) for a, d in zip(r.assignments, r.distributions)]
    broken = any(isinstance(v, en.DecodeFailure) for _, d in dists for key in d for v in key)
    why = "; ".join([*r.wrong[:2], r.insecure, *r.left[:1]]).strip("; ")
    side = Side("verdicts", (r.correct, r.secure, r.tidy), dists, why, broken, r.views)
    side.insecure_for = r.insecure_for
    return side


_WHERE = re.compile(r"([\w.-]+)\.ya?ml(?::\d+)?:(?: ((?:steps|outputs|inputs|admissible|helpers)[^\s:]*):)?")


def engine_location(message: str) -> tuple[str, str] | None:
    """(protocol, key path) of the place an engine error names, "" for no path."""
    m = _WHERE.search(message)
    if m is None:
        return None
    return m.group(1), m.group(2) or ""


def run_engine(library: Library, main: str, distributions: bool = True) -> Side:
    try:
        proto = library.protocol(main)
    except SpecError as exc:  # refused when it loads (a call that leaves a callee's hands unheld)
        return Side("refused", message=str(exc))
    try:
        report = verify(library, proto)
    except SimulationError as exc:
        return Side("error", message=str(exc))
    except SpecError as exc:  # refused before anything runs (no admissible input)
        return Side("refused", message=str(exc))
    except Exception as exc:  # the engine should never fail like this
        return Side("crash", message=f"verify() raised {type(exc).__name__}: {exc}")
    correct = report.check("correct")
    secure = report.check("secure")
    tidy = report.check("tidy")
    if correct is not None and not correct.ok and correct.figure.startswith("some run cannot be carried out"):
        return Side("error", message=correct.figure)
    if correct is None or secure is None or tidy is None:
        return Side("crash", message=f"the report lacks a check: {[c.name for c in report.checks]}")
    side = Side("verdicts", (correct.ok, secure.ok, tidy.ok), message=_first_failure(report))
    side.views = int(report.stats.get("views", 0))
    if distributions:
        try:
            side.dists = [
                (_assignment(a), {norm(k): p for k, p in d.items()})
                for a, d in outcome_distribution(library, proto)
            ]
        except Exception as exc:
            side.message += f" (outcome_distribution() raised {type(exc).__name__}: {exc})"
            side.dists = None
    return side


def _first_failure(report: Any) -> str:
    for c in report.checks:
        if not c.ok and c.name in ("correct", "secure", "tidy"):
            return f"{c.name}: {c.figure}"
    return ""


def compare_library(library: Library, main: str) -> Comparison:
    mine = run_enumerator(library, main)
    engine = run_engine(library, main)
    out = Comparison(engine, mine)
    if mine.status == "unsupported":
        return out
    if engine.status == "crash":
        out.differences.append(f"the engine crashed: {engine.message}")
        return out
    if engine.status != mine.status:
        out.differences.append(
            f"the engine says {engine.label()}, the enumerator {mine.label()}"
            + (f" ({engine.message or mine.message})" if engine.message or mine.message else "")
        )
        return out
    if engine.status == "refused":
        return out
    if engine.status == "error":
        where = engine_location(engine.message)
        if where is not None and mine.locations and where not in mine.locations:
            places = ", ".join(f"{p} {k or '(outputs)'}" for p, k in sorted(mine.locations))
            out.differences.append(
                f"the engine stops at {where[0]} {where[1] or '(outputs)'}, where no run of the "
                f"enumerator fails (its runs fail at: {places})"
            )
        return out
    assert engine.verdicts is not None and mine.verdicts is not None
    for name, a, b in zip(("correct", "secure", "tidy"), engine.verdicts, mine.verdicts):
        if a != b:
            out.differences.append(f"{name}: engine {a}, enumerator {b}")
    if not mine.broken_outputs:
        if engine.dists is None:
            out.differences.append(f"the engine gave no output distribution: {engine.message}")
        elif engine.dists != mine.dists:
            out.differences.append(_dist_difference(engine.dists, mine.dists or []))
    return out


def _dist_difference(engine: Dists, mine: Dists) -> str:
    if [a for a, _ in engine] != [a for a, _ in mine]:
        ours = [a for a, _ in mine]
        theirs = [a for a, _ in engine]
        return f"the input assignments differ: engine {theirs}, enumerator {ours}"
    for (a, d1), (_, d2) in zip(engine, mine):
        if d1 != d2:
            return f"output distribution for inputs {dict(a)}: engine {d1}, enumerator {d2}"
    return "output distributions differ"


def compare_folder(folder: Path, main: str = "fzmain") -> Comparison:
    """Compare on the specs in ``folder`` (a fresh library that sees only that folder)."""
    return compare_library(Library([Path(folder)]), main)


# --------------------------------------------------------------------------- simulate against exact

Outcome = tuple[Any, ...]  # (what the table saw, the outputs): one run's observable result

MIN_P = 1e-6  # a chi-square p-value below this fails (a real difference gives far smaller ones)


def _hashable(v: Any) -> Any:
    if isinstance(v, (list, tuple)):
        return tuple(_hashable(x) for x in v)
    return v


def _callees(library: Library, name: str, seen: set[str] | None = None) -> set[str]:
    seen = set() if seen is None else seen
    for call in library.protocol(name).calls():
        if call.protocol not in seen:
            seen.add(call.protocol)
            _callees(library, call.protocol, seen)
    return seen


def exact_law(library: Library, main: str) -> list[tuple[dict[str, Any], dict[Outcome, Fraction]]]:
    """Per input: the exact distribution of (everything the table saw, the outputs), from the
    exact mode with no view merged or factored (every callee's whole view kept), so that it
    can be set against single runs."""
    from reference_engine.machine import ONE, Runner, Shared, read_outputs, shown
    from reference_engine.seating import Seats
    from reference_engine.verify import input_assignments, setting

    proto = library.protocol(main)
    st_ = setting(proto)
    runner = Runner(library, "exact", shared=Shared(no_factor=_callees(library, main)))
    runner.seat(Seats.top(proto))  # every person's hands, calls included, as a single run follows them
    frame = runner.frame(proto, st_.params)
    runner.limits = frame.helpers
    out = []
    for values in input_assignments(frame):
        law: dict[Outcome, Fraction] = {}
        for state, (den, nums) in runner.run(frame, {frame.initial_state(values): ONE}).items():
            outs = read_outputs(runner, frame, state)
            seen = runner.views.expanded(state.view) + shown(runner, frame, state, outs)
            key = (_hashable(seen), _hashable([outs[n] for n in proto.outputs]))
            law[key] = law.get(key, Fraction(0)) + Fraction(nums.get(0, 0), den)
        out.append((values, law))
    return out


@dataclass
class SimComparison:
    """Single runs (``kitgen simulate``) against the exact law, input by input."""

    inputs: int = 0
    runs: int = 0
    outcomes: int = 0  # distinct exact outcomes over every input
    differences: list[str] = field(default_factory=list)
    skipped: str = ""

    @property
    def agree(self) -> bool:
        return not self.differences


def compare_simulation(library: Library, main: str, runs: int, seed: int = 0) -> SimComparison:
    """Run ``simulate`` ``runs`` times per input (seeds seed, seed + 1, ...) and check every
    outcome against the exact law: each must be possible (exact probability > 0), and the
    counts must fit the law (chi-square p >= MIN_P)."""
    from reference_engine.simulate import simulate
    from reference_engine.statistics import goodness_of_fit

    result = SimComparison()
    try:
        laws = exact_law(library, main)
    except (SimulationError, SpecError) as exc:
        result.skipped = f"the exact run stops: {exc}"
        return result
    proto = library.protocol(main)
    for values, law in laws:
        result.inputs += 1
        result.outcomes += len(law)
        counts: Counter[Outcome] = Counter()
        for k in range(runs):
            sim = simulate(library, proto, inputs=values, seed=seed + k)
            key = (_hashable(sim.observations), _hashable([sim.outputs[n] for n in proto.outputs]))
            if key not in law:
                where = f"input {values}, seed {seed + k}"
                result.differences.append(f"{where}: simulate saw {key}, which the exact mode never gives")
                return result
            counts[key] += 1
        result.runs += runs
        test = goodness_of_fit("law", counts, {k: float(p) for k, p in law.items()})
        if test.df > 0 and test.p < MIN_P:
            result.differences.append(f"input {values}: chi-square p = {test.p:.3g} over {runs} runs")
    return result
