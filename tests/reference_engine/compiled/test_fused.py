"""A sleeve step and the discard after it carried out at once (reference_engine/compiled/
fused.py): exactly the two steps' outcome where the pair is fused (every run here is checked
against the interpreter, and with ``evaluate.CHECKED`` against the two steps carried out one
after the other), and each step as compiled, with its own message, wherever a condition fails:
a sleeve lying front up, a row not declared, cards left in the region, a row named by a
variable, a discard that breaks the sleeves' keep rule."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
for folder in (HERE, HERE.parent):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import runs  # noqa: E402
from test_differential import _assignments  # noqa: E402

from reference_engine.compiled import Program, fused, program_for, tails  # noqa: E402
from reference_engine.compiled.runs import region_at  # noqa: E402
from reference_engine.expressions import parse  # noqa: E402
from reference_engine.registry import Library, rulesets_dir  # noqa: E402

QUICK = (rulesets_dir() / "protocols" / "card-selection-fast.yaml").read_text(encoding="utf-8")
PAIR = '      - sleeve: {M: {in: [2]}}\n      - discard: "M[2, *]"\n'
RETURN = '      - return: {cards: "M[1, *]", to: "[family_index(t) for t in M[2, *]]"}\n'

# name -> (text replaced, replacement, whether the pair is fused, what the run is refused for)
MUTANTS: dict[str, tuple[str, str, bool, str | None]] = {
    "as-written": (PAIR, PAIR, True, None),
    "turned-back-up-first": (
        PAIR,
        "      - sleeve: {M: back}\n" + PAIR,
        True,
        None,
    ),
    "turned-front-up-first": (
        PAIR,
        "      - sleeve: {M: front}\n" + PAIR,
        False,
        None,
    ),
    "row-not-declared": (
        PAIR,
        '      - sleeve: {M: {in: [7]}}\n      - discard: "M[2, *]"\n',
        False,
        "row 7 of M is not one of its sleeves' rows",
    ),
    "cards-left-in-the-region": (
        RETURN + PAIR,
        PAIR + '      - return: {cards: "M[1, *]", to: 1}\n',
        False,
        "so it goes only with the sleeve, but M[1, 1] is still inside it",
    ),
    "row-named-by-a-variable": (
        PAIR,
        '      - let:\n          k: 2\n      - sleeve: {M: {in: [2]}}\n      - discard: "M[k, *]"\n',
        False,
        None,
    ),
    "region-gone-before": (
        PAIR,
        '      - sleeve: {M: {in: [2]}}\n      - discard: "M[2, *]"\n      - discard: "M[1, *]"\n',
        True,
        "unknown name 'M'",
    ),
}


def _library(tmp: Path, name: str, text: str) -> Library:
    (tmp / f"{name}.yaml").write_text(text, encoding="utf-8")
    return Library([tmp, rulesets_dir() / "protocols"])


def _count_fused(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Counts the pairs carried out at once (the plan of the two applied)."""
    made: Counter[str] = Counter()
    apply = fused.apply_plan

    def counted(*args: Any) -> None:
        made["fused"] += 1
        apply(*args)

    monkeypatch.setattr(fused, "apply_plan", counted)
    monkeypatch.setattr(tails, "ENABLED", False)  # the pairs alone, not Steps 11-12 at once
    return made


def _compare(library: Library, name: str, seeds: int = 3) -> tuple[Any, ...]:
    """Both engines run for run (their differences asserted away); the compiled path's first run."""
    proto = library.protocol(name)
    program = program_for(library, proto)
    assert isinstance(program, Program), program
    st, assignments = _assignments(library, name, 3)
    found = runs.differences(library, proto, st.params, assignments, range(seeds), st.context or None)
    assert not found, "\n".join(found)
    return runs.single(library, proto, st.params, assignments[0], 0, "compiled", st.context or None)


@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_a_sleeve_and_a_discard_at_once_are_the_two_steps(
    tmp_path: Path, mutant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    old, new, fuses, refused = MUTANTS[mutant]
    assert old in QUICK, f"{mutant}: the quick protocol changed; update the mutant"
    name = f"quick-fused-{mutant}"
    text = QUICK.replace(old, new, 1).replace("protocol: card-selection-fast", f"protocol: {name}")
    made = _count_fused(monkeypatch)
    result = _compare(_library(tmp_path, name, text), name)
    if refused is None:
        assert result[0] == "ran", result[:3]
    else:
        assert result[0] == "error" and refused in result[2], result[:3]
    assert bool(made["fused"]) == fuses, (mutant, made)


# The quick protocol's Step 12 with its two bottom rows discarded one at a time: the discard of
# M[3, *] and the return of M[1, *] after it are fused (compiled/fused.py's discard_return).
SPLIT = '      - discard: "M[4, *]"\n      - discard: "M[3, *]"\n'
BACK = RETURN.replace("      - return", '      - discard: "M[3..4, *]"\n      - return', 1)
OWNERS = '"[family_index(t) for t in M[2, *]]"'

# name -> (text replaced by, whether the discard and the return are fused, what the run is refused for)
RETURNS: dict[str, tuple[str, bool, str | None]] = {
    "split": (SPLIT + RETURN, True, None),
    "to-one-owner": (SPLIT + RETURN.replace(OWNERS, "1"), True, None),
    "to-a-list": (SPLIT + RETURN.replace(OWNERS, '"[1 for t in M[2, *]]"'), True, None),
    "reads-the-row-discarded": (
        SPLIT + RETURN.replace("M[2, *]]", "M[3, *]]"),
        False,
        "index 3 is out of range: M has 2 rows",
    ),
    "reads-a-variable": (  # a variable: the discard does not change it
        "      - let:\n          k: 1\n" + SPLIT + RETURN.replace(OWNERS, "k"),
        True,
        None,
    ),
    "reads-a-region-whole": (  # a name of a region: checked at each run
        SPLIT + RETURN.replace(OWNERS, "M"),
        False,
        "is face down: a decision may only use face-up cards",
    ),
    "reads-a-variable-named-as-the-region": (
        "      - let:\n          M: 1\n" + SPLIT + RETURN.replace(OWNERS, "M"),
        False,
        "a list takes one index (in 'M[4, *]')",
    ),
    "reads-the-region-size": (
        SPLIT + RETURN.replace(OWNERS, '"[len(M) - 1 for t in M[2, *]]"'),
        False,
        None,
    ),
    "returns-the-row-discarded": (
        SPLIT + RETURN.replace('cards: "M[1, *]"', 'cards: "M[3, *]"'),
        False,
        "index 3 is out of range: M has 2 rows",
    ),
    "discard-above-the-bottom": (  # the owners read from the pairs' row: refused on both engines
        '      - discard: "M[4, *]"\n      - discard: "M[2, *]"\n' + RETURN,
        False,
        "family_index() takes one card",
    ),
    "discard-of-no-bottom-row": (  # M[3, *] passes the read check, but M[4, *] is below it
        '      - discard: "M[3, *]"\n' + RETURN + '      - discard: "M[4, *]"\n',
        False,
        None,
    ),
    "as-written": (BACK, False, None),
}


def _count_returns(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Counts the discard-and-return pairs planned at once."""
    made: Counter[str] = Counter()
    build = fused.return_row

    def counted(*args: Any) -> Any:
        plan = build(*args)
        if plan is not None and len(args) > 3 and args[3]:
            made["fused"] += 1
            if len(args) > 4 and args[4] and region_at(args[0], args[1][0]).name == "M":
                made["with 12(a)"] += 1  # and the sleeve-and-discard pair after them (not Step 11's D)
        return plan

    monkeypatch.setattr(fused, "return_row", counted)
    monkeypatch.setattr(tails, "ENABLED", False)  # the pairs alone, not Steps 11-12 at once
    return made


@pytest.mark.parametrize("mutant", sorted(RETURNS))
def test_a_discard_and_a_return_at_once_are_the_two_steps(
    tmp_path: Path, mutant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    new, fuses, refused = RETURNS[mutant]
    assert BACK in QUICK, "the quick protocol changed; update the mutants"
    name = f"quick-back-{mutant}"
    text = QUICK.replace(BACK, new, 1).replace("protocol: card-selection-fast", f"protocol: {name}")
    made = _count_returns(monkeypatch)
    result = _compare(_library(tmp_path, name, text), name)
    if refused is None:
        assert result[0] == "ran", result[:3]
    else:
        assert result[0] == "error" and refused in result[2], result[:3]
    assert bool(made["fused"]) == fuses, (mutant, made)


@pytest.mark.parametrize(
    "text, fits",
    [
        ("[family_index(t) for t in M[2, *]]", True),
        ("[family_index(t) for t in M[1, *]]", True),
        ("[1, 2]", True),
        ("3", True),
        ("[family_index(t) for t in M[3, *]]", False),  # the row discarded
        ("[family_index(t) for t in M[0, *]]", False),
        ("[family_index(t) for t in L[2, *]]", False),  # another region
        ("[family_index(t) for t in M[k, *]]", False),
        ("[k for t in M[2, *]]", True),  # a name: checked at each run (a variable, or no region)
        ("__state__", False),
        ("[family_index(M) for M in M[2, *]]", True),  # M bound after its iterable
        ("[M[2, *] for M in M[2, *]]", False),  # M bound: a card indexed
        ("[family_index(t) for t in M[2, *] if t]", True),
        ("[family_index(t) for t in M[2, *] if k]", True),
        ("[family_index(t) for t in M[2, *] if k == 1]", False),  # a comparison: not read
        ("[valid(t) for t in M[2, *]]", False),  # a game's function: its answers follow the game
        ("[len(M) for t in M[2, *]]", False),
        ("[family_index(t) for t in M[2, 1..2]]", False),
        ("pile", True),
        ("M[2, *]", True),
    ],
)
def test_a_returns_owners_read_only_rows_above_the_discarded_one(text: str, fits: bool) -> None:
    proto = Library().protocol("card-selection-arrow")
    assert (fused.reads_rows_above(parse(text).node, "M", 3, proto) is not None) == fits


def test_the_default_protocols_steps_12_are_fused_and_run_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """card-selection-arrow's Step 12(a) (the kits' default protocol) on several seeds."""
    made = _count_fused(monkeypatch)
    pairs = _count_returns(monkeypatch)
    result = _compare(Library(), "card-selection-arrow", seeds=4)
    assert result[0] == "ran", result[:3]
    assert made["fused"] > 0 and pairs["fused"] > 0 and pairs["with 12(a)"] > 0, (made, pairs)


ARROW = (rulesets_dir() / "protocols" / "card-selection-arrow.yaml").read_text(encoding="utf-8")
PAIR_A = '          - sleeve: {M: {in: [2]}}\n          - discard: "M[2, *]"\n'

# name -> (the default protocol's Step 12(a) replaced by, whether Step 12 is one plan)
WHOLE: dict[str, tuple[str, bool]] = {
    "as-written": (PAIR_A, True),
    "turned-front-up": ('          - sleeve: {M: front}\n          - discard: "M[2, *]"\n', False),
    "a-step-more": (PAIR_A + "          - let:\n              x: 1\n", False),
    "another-row": ('          - sleeve: {M: {in: [2]}}\n          - discard: "M[1, *]"\n', False),
}


@pytest.mark.parametrize("mutant", sorted(WHOLE))
def test_the_whole_of_step_12_at_once_is_its_steps(
    tmp_path: Path, mutant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Step 12's discard and return and Step 12(a)'s pair carried out as one plan where 12(a) is
    that pair alone, on the default protocol and mutants of it (both engines run for run)."""
    new, whole = WHOLE[mutant]
    assert PAIR_A in ARROW, "the default protocol changed; update the mutants"
    name = f"arrow-whole-{mutant}"
    text = ARROW.replace(PAIR_A, new, 1).replace("protocol: card-selection-arrow", f"protocol: {name}")
    made = _count_returns(monkeypatch)
    _compare(_library(tmp_path, name, text), name)
    assert bool(made["with 12(a)"]) == whole, (mutant, made)


@pytest.mark.parametrize(
    "text, region",
    [
        ("M[2, *]", "M"),
        ("unselected[1, *]", "unselected"),
        ("M[k, *]", None),
        ("M[2, 1]", None),
        ("M[*, 2]", None),
        ("M[2]", None),
        ("M[2..3, *]", None),
        ("M[true, *]", None),
        ("L", None),
        ("f(M)[2, *]", None),
    ],
)
def test_only_a_whole_row_by_number_is_a_selection_of_the_shape_alone(text: str, region: str | None) -> None:
    assert fused.whole_row(parse(text)) == region


FIRST = """protocol: fuse-first
title: a sleeve step and a discard, the run's first steps
summary: the table between the two steps is the largest the run has
params:
  sizes: {default: [2, 1, 2], min: 0, doc: sizes}
symbols:
  alpha: {glyph: "α"}
  beta: {glyph: "β"}
  theta: {family: true, glyph: "θ{}", doc: owner}
encodings:
  card: {values: {0: [alpha], 1: [beta]}, doc: a card}
inputs:
  cards: {encoding: card, count: "sum(sizes)", groups: sizes, doc: cards}
sleeves:
  cards: {rows: [1], front: [1]}
steps:
  - step: 1
    say: go
    do:
      - sleeve: {cards: back}
      - discard: "cards[1, *]"
      - place:
          K: "[new(theta(1))]"
outputs:
  found: {public: true, value: "exists('K')"}
"""


def test_the_table_between_a_fused_pair_counts_in_the_table_space(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Attack (w37-attack2): the pair as a run's first steps. The table between them (1 x 5,
    the largest the run has) was never noted, so the compiled run needed a 1 x 1 table where
    the interpreter's needs 1 x 5 (``shared.extent``)."""
    made = _count_fused(monkeypatch)
    result = _compare(_library(tmp_path, "fuse-first", FIRST), "fuse-first", seeds=2)
    assert result[0] == "ran" and result[-1] == (1, 5), result
    assert made["fused"] > 0, made


GRID = """protocol: fuse-grid
title: sleeve steps and discards in every order on a two-row grid
summary: a fused pair or its steps one by one, alike on both engines
params:
  sizes: {default: [2, 1], min: 0, doc: sizes}
symbols:
  alpha: {glyph: "α"}
  beta: {glyph: "β"}
  theta: {family: true, glyph: "θ{}", doc: owner}
encodings:
  card: {values: {0: [alpha], 1: [beta]}, doc: a card}
inputs:
  cards: {encoding: card, count: "sum(sizes)", groups: sizes, doc: cards}
sleeves:
  cards: {rows: [1], front: [1]}
  M: {rows: [2, 1], front: [1], keeps: [2]}
steps:
  - step: 1
    say: go
    place:
      M: [cards]
  - step: 2
    say: owners
    place:
      "M[2, *]": "[new(theta(i)) for i in 1..len(sizes) for c in 1..sizes[i]]"
    face: up
  - step: 3
    say: the pair
    do:
BODY
      - place:
          K: "[new(theta(1))]"
outputs:
  found: {public: true, value: "exists('K')"}
"""

_BEFORE = [
    "",
    "      - sleeve: {M: {out: [2]}}\n",
    '      - discard: "M[1, *]"\n',
    '      - discard: "M[1, *]"\n      - sleeve: {M: {out: [2]}}\n',
]
_SLEEVES = ["back", "front", "{in: [2]}", "{out: [2]}"]
_DISCARDS = ["M[2, *]", "M[1, *]", "M[3, *]"]


@pytest.mark.parametrize("before", range(len(_BEFORE)))
def test_sleeve_steps_and_discards_in_every_order_run_alike(
    tmp_path: Path, before: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Attack (w37-attack2): every sleeve op then every whole-row discard, after nothing, after
    the owner row slid out, after the other row discarded: both engines alike (errors too), and
    with ``evaluate.CHECKED`` a fused pair is the two steps one by one."""
    made = _count_fused(monkeypatch)
    for i, side in enumerate(_SLEEVES):
        for j, what in enumerate(_DISCARDS):
            body = _BEFORE[before] + f'      - sleeve: {{M: {side}}}\n      - discard: "{what}"\n'
            name = f"fuse-grid-{before}-{i}-{j}"
            text = GRID.replace("BODY\n", body).replace("protocol: fuse-grid", f"protocol: {name}")
            _compare(_library(tmp_path, name, text), name, seeds=1)
    assert bool(made["fused"]) == (before >= 2), made  # only with the region's last row
