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

    def label(self) -> str:
        if self.status != "verdicts" or self.verdicts is None:
            return self.status
        c, s, t = self.verdicts
        return f"correct={c} secure={s} tidy={t}"


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


def run_enumerator(library: Library, main: str) -> Side:
    proto = library.protocol(main)
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
    return Side("verdicts", (r.correct, r.secure, r.tidy), dists, why, broken, r.views)


_WHERE = re.compile(r"([\w.-]+)\.ya?ml(?::\d+)?:(?: ((?:steps|outputs|inputs|admissible|helpers)[^\s:]*):)?")


def engine_location(message: str) -> tuple[str, str] | None:
    """(protocol, key path) of the place an engine error names, "" for no path."""
    m = _WHERE.search(message)
    if m is None:
        return None
    return m.group(1), m.group(2) or ""


def run_engine(library: Library, main: str, distributions: bool = True) -> Side:
    proto = library.protocol(main)
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
