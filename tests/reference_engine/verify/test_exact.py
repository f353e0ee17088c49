"""Exact verification: the built-in specs hold, broken variants fail naming the check,
and the exact engine agrees with an independent brute-force enumeration."""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

import pytest

from reference_engine.errors import SimulationError
from reference_engine.registry import Library
from reference_engine.simulate import simulate
from reference_engine.verify import outcome_distribution, verify


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("six-card-and", {}),
        ("covert-lottery-modified", {"m": 1}),
        ("covert-lottery-modified", {"m": 4}),
        ("covert-lottery", {"m": 1}),
        ("covert-lottery", {"m": 4}),
        ("five-card-trick", {}),
        ("ruangwises-itoh-addition", {"m": 4}),
    ],
)
def test_builtin_specs_verify(library: Library, name: str, params: dict[str, int]) -> None:
    report = verify(library, library.protocol(name), params)
    assert report.ok, report.to_json()["checks"]
    assert report.method == "exact"


def test_six_card_and_figures(library: Library) -> None:
    data = verify(library, library.protocol("six-card-and")).to_json()
    assert data["correct"] and data["secure"] and data["method"] == "exact"
    assert data["resources"]["cards"] == 6
    assert data["resources"]["cards_by_symbol"] == {"alpha": 3, "beta": 3}
    assert data["resources"]["shuffles"] == 1
    assert data["resources"]["helper_cards"] == 2
    assert {e["name"]: e["match"] for e in data["expect"]} == {
        "cards": True,
        "shuffles": True,
        "helper_cards": True,
    }


@pytest.mark.parametrize("m", [2, 5])
def test_lottery_counts_match_the_uno_paper(library: Library, m: int) -> None:
    modified = verify(library, library.protocol("covert-lottery-modified"), {"m": m}).to_json()
    assert modified["resources"]["shuffles"] == m + 2
    assert modified["resources"]["helper_cards"] == 4
    original = verify(library, library.protocol("covert-lottery"), {"m": m}).to_json()
    assert original["resources"]["shuffles"] == m + 1  # m - 1 AND iterations + 2
    assert original["resources"]["helper_cards"] == 4


BROKEN = [
    # (spec, change, params, the check that must fail)
    (
        "six-card-and",
        (
            """    shuffle:
      scramble: ["s[1..3]", "s[4..6]"]
      how: Put each pile of three in an envelope, mix the two envelopes behind your back, lay them out again.
""",
            "    note: the shuffle is left out (a step without an action is refused)\n",
        ),
        {},
        "secure",
    ),
    ("six-card-and", ('"bit(0)"', '"bit(1)"'), {}, "correct"),
    ("six-card-and", ("s: [1, 4, 2, 3, 5, 6]", "s: [1, 2, 4, 3, 5, 6]"), {}, "correct"),
    (
        "covert-lottery-modified",
        (
            """(y_1, ..., y_m) after the shuffle.
    brief: "Shuffle the piles again."
    shuffle:
      scramble: "columns(P)"
      how: Put each pile in an envelope, mix all envelopes thoroughly, and lay them out in a row again.
""",
            "permutation (shuffle removed)\n    note: the shuffle is left out\n",
        ),
        {"m": 3},
        "secure",
    ),
    ("covert-lottery-modified", ('t: "bit(1)"', 't: "bit(0)"'), {"m": 3}, "correct"),
    (
        "covert-lottery-modified",
        (
            """(x_1, ..., x_m) after the shuffle.
    brief: "Shuffle the piles (an envelope each)."
    shuffle:
      scramble: "columns(P)"
      how: Put each pile in an envelope, mix all envelopes thoroughly, and lay them out in a row again.
""",
            "permutation (shuffle removed)\n    note: the shuffle is left out\n",
        ),
        {"m": 3},
        "correct",
    ),
    (
        "covert-lottery-modified",
        ("results: {and: y, nand: u}", "results: {and: u, nand: y}"),
        {"m": 3},
        "correct",
    ),
    ("five-card-trick", ("      a: [2, 1]", "      a: [1, 2]"), {}, "correct"),
    ("five-card-trick", ("      cut: s", '      cut: "s[1..1]"'), {}, "secure"),
    ("ruangwises-itoh-addition", ('      b: "reversed(1..m+1)"', '      b: "1..m+1"'), {"m": 3}, "correct"),
    (
        "ruangwises-itoh-addition",
        (
            '''      - shuffle:
          shift: "columns(T)"''',
            '''      - shuffle:
          shift: "[T[*, 1]]"''',
        ),
        {"m": 3},
        "secure",
    ),
]


@pytest.mark.parametrize(("name", "change", "params", "check"), BROKEN)
def test_broken_variants_are_rejected(
    variant: Callable[..., Library], name: str, change: tuple[str, str], params: dict[str, int], check: str
) -> None:
    lib = variant(name, change)
    report = verify(lib, lib.protocol(name), params)
    assert not report.ok
    assert check in report.failed(), report.to_json()["checks"]
    failing = report.check(check)
    assert failing is not None and failing.figure  # the failure says what went wrong


def test_a_broken_subprotocol_breaks_its_caller(variant: Callable[..., Library]) -> None:
    """The wrong AND makes the lottery select twice in some run: a run the table cannot carry
    out, refused (exit code 2) at the caller's step that fails."""
    lib = variant("six-card-and", ('"bit(0)"', '"bit(1)"'))
    with pytest.raises(
        SimulationError, match=r"covert-lottery-modified.yaml:\d+: steps\[6\]\S*: (step \S+: )?move to sel"
    ):
        verify(lib, lib.protocol("covert-lottery-modified"), {"m": 2})


def test_extra_shuffle_shows_in_the_expectations(variant: Callable[..., Library]) -> None:
    lib = variant(
        "six-card-and",
        (
            """  - step: 4
""",
            """  - step: 3b
    say: Shuffle again.
    shuffle: {bisect: s}
  - step: 4
""",
        ),
    )
    report = verify(lib, lib.protocol("six-card-and"))
    assert report.failed() == ["expect shuffles"]


# --------------------------------------------------------------------------- brute force


class Scripted(random.Random):
    """An RNG that follows a script of choices, recording how many options each choice had."""

    def __init__(self, script: list[int]):
        super().__init__(0)
        self.script = script
        self.bounds: list[int] = []

    def _randbelow(self, n: int) -> int:  # type: ignore[override]
        i = len(self.bounds)
        self.bounds.append(n)
        return self.script[i] if i < len(self.script) else 0


def every_run(run: Callable[[random.Random], Any]) -> Iterator[tuple[Any, Fraction]]:
    """Every outcome of ``run`` over all random choices, with its exact probability."""
    script: list[int] = []
    while True:
        rng = Scripted(script)
        result = run(rng)
        bounds = rng.bounds
        script = script + [0] * (len(bounds) - len(script))
        yield result, Fraction(1, math.prod(bounds))
        i = len(bounds) - 1
        while i >= 0 and script[i] + 1 >= bounds[i]:
            i -= 1
        if i < 0:
            return
        script = script[:i] + [script[i] + 1]


def views_of(events: list[Any]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """(what everyone saw at top level, what they saw inside the AND calls)."""
    top, inner = [], []
    for e in events:
        seen = tuple(e.detail["revealed"]) if e.action == "turn" else None
        if seen is not None:
            (inner if e.call_path else top).append(seen)
    return tuple(top), tuple(inner)


@pytest.mark.slow  # the brute force over every shuffle; the fast tier's fuzz compares with the enumerator
def test_exact_engine_agrees_with_brute_force(library: Library) -> None:
    """Independent check of merging, lazy piles and view factoring on the lottery (m = 3)."""
    proto = library.protocol("covert-lottery-modified")
    exact = outcome_distribution(library, proto, {"m": 3})
    names = list(proto.outputs)
    for values, exact_dist in exact:
        brute: dict[tuple[Any, ...], Fraction] = defaultdict(Fraction)
        joint: dict[tuple[Any, ...], Fraction] = defaultdict(Fraction)

        def run(rng: random.Random, values: dict[str, Any] = values) -> Any:
            return simulate(library, proto, {"m": 3}, values, rng=rng)

        for sim, p in every_run(run):
            from reference_engine.machine import _freeze

            brute[tuple(_freeze(sim.outputs[n]) for n in names)] += p
            joint[views_of(sim.trace.events)] += p
        assert sum(brute.values()) == 1
        assert dict(brute) == exact_dist, values
        # The AND reveals are uniform and independent of the top-level view (what factoring assumes).
        top: dict[Any, Fraction] = defaultdict(Fraction)
        inner: dict[Any, Fraction] = defaultdict(Fraction)
        for (t, i), p in joint.items():
            top[t] += p
            inner[i] += p
        assert all(p == Fraction(1, 8) for p in inner.values()) and len(inner) == 8
        assert all(joint[(t, i)] == top[t] * inner[i] for t in top for i in inner)
        # Security, computed independently: the top-level view depends only on whether a card was found.
        found = any(v == 1 for v in values["x"])
        expected_top = {((("alpha", "beta"),) * 0): 0}  # placeholder for typing
        expected_top = {}
        for j in range(3):
            if found:
                row = ["alpha"] * 3 + ["beta"] * 3
                row[j], row[3 + j] = "beta", "alpha"
                expected_top[(tuple(row),)] = Fraction(1, 3)
        if not found:
            expected_top[(("alpha",) * 3 + ("beta",) * 3,)] = Fraction(1)
        assert dict(top) == expected_top
