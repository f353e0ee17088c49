"""The naive reference enumerator (enumerator.py): hand-checked cases, and agreement with the
engine on the small shipped specs and on broken variants of them."""

from __future__ import annotations

import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import differential  # noqa: E402
import enumerator as en  # noqa: E402

from reference_engine.registry import Library  # noqa: E402
from reference_engine.verify import outcome_distribution, verify  # noqa: E402

HEAD = """
title: test
symbols: {al: {}, be: {}, he: {}}
encodings:
  bit:
    values: {0: [al, be], 1: [be, al]}
"""


def write(folder: Path, name: str, body: str) -> Library:
    (folder / f"{name}.yaml").write_text(f"protocol: {name}\n{HEAD}{body}", encoding="utf-8")
    return Library([folder])


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("six-card-and", {}),
        ("five-card-trick", {}),
        ("covert-lottery-modified", {"m": 2}),
        ("ruangwises-itoh-addition", {"m": 2}),
    ],
)
def test_agrees_with_the_engine_on_shipped_specs(library: Library, name: str, params: dict[str, int]) -> None:
    proto = library.protocol(name)
    result = en.enumerate_protocol(library, proto, params)
    report = verify(library, proto, params)
    assert (result.correct, result.secure, result.tidy) == (True, True, True)
    assert [bool(c and c.ok) for c in (report.check(n) for n in ("correct", "secure", "tidy"))] == [True] * 3
    engine = [
        (differential._assignment(a), {differential.norm(k): p for k, p in d.items()})
        for a, d in outcome_distribution(library, proto, params)
    ]
    mine = [(differential._assignment(a), d) for a, d in zip(result.assignments, result.distributions)]
    assert engine == mine


def test_lottery_selects_uniformly(library: Library) -> None:
    proto = library.protocol("covert-lottery-modified")
    result = en.enumerate_protocol(library, proto, {"m": 2})
    both = next(d for a, d in zip(result.assignments, result.distributions) if a["x"] == (1, 1))
    picked = {key[0]: p for key, p in both.items()}
    assert picked == {en.Sym("c1"): Fraction(1, 2), en.Sym("c2"): Fraction(1, 2)}
    assert result.runs == 4 * 16  # 4 inputs x (2 * 2 * 2 * 2 shuffle outcomes)


BROKEN = [
    # (spec, change, params, verdicts (correct, secure, tidy))
    ("six-card-and", ('"bit(0)"', '"bit(1)"'), {}, (False, True, True)),
    (
        "six-card-and",
        ('      scramble: ["s[1..3]", "s[4..6]"]', '      scramble: ["s[1..3]"]'),
        {},
        (True, False, True),
    ),
    ("six-card-and", ('      - discard: "s[1..2]"\n', ""), {}, (True, True, False)),
    ("five-card-trick", ("      cut: s", '      cut: "s[1..1]"'), {}, (True, False, True)),
    ("covert-lottery-modified", ("results: {and: y, nand: u}", "results: {and: u, nand: y}"), {"m": 2}, None),
]


@pytest.mark.parametrize(("name", "change", "params", "verdicts"), BROKEN)
def test_agrees_with_the_engine_on_broken_variants(
    variant: Callable[..., Library],
    name: str,
    change: tuple[str, str],
    params: dict[str, int],
    verdicts: tuple[bool, bool, bool] | None,
) -> None:
    lib = variant(name, change)
    proto = lib.protocol(name)
    result = en.enumerate_protocol(lib, proto, params)
    report = verify(lib, proto, params)
    engine = tuple(bool(c and c.ok) for c in (report.check(n) for n in ("correct", "secure", "tidy")))
    assert (result.correct, result.secure, result.tidy) == engine
    if verdicts is not None:
        assert engine == verdicts
    assert not engine[0] or not engine[1] or not engine[2]


def test_a_set_shuffle_is_a_multiset(tmp_path: Path) -> None:
    """Each entry of a 'set:' list is equally likely: a permutation listed twice counts twice."""
    lib = write(
        tmp_path,
        "weighted",
        """
inputs:
  x: {encoding: bit}
steps:
  - step: 1
    say: Swap the two cards of x with probability 2/3.
    shuffle:
      set: [[1, 2], [2, 1], [2, 1]]
      piles: "cards(x)"
      how: Roll a die.
outputs:
  out: {cards: x, encoding: bit}
""",
    )
    result = en.enumerate_protocol(lib, lib.protocol("weighted"))
    assert result.distributions == [
        {(0,): Fraction(1, 3), (1,): Fraction(2, 3)},
        {(1,): Fraction(1, 3), (0,): Fraction(2, 3)},
    ]
    assert result.runs == 6


def test_discarding_face_down_cards_shows_which_faces(tmp_path: Path) -> None:
    """A whole pair back to the supply shows {al, be} whatever x is; a single card shows x."""
    body = """
inputs:
  x: {encoding: bit}
steps:
  - step: 1
    say: Put cards back.
    discard: "%s"
outputs: {}
"""
    lib = write(tmp_path, "pair", body % "x")
    assert en.enumerate_protocol(lib, lib.protocol("pair")).secure
    lib = write(tmp_path, "one", body % "x[1, 1]")
    result = en.enumerate_protocol(lib, lib.protocol("one"))
    assert not result.secure and result.views == 2


def test_a_callee_hands_back_unordered_cards_in_table_order(tmp_path: Path) -> None:
    """An output with 'encoding: cards' is compared as a multiset, but its cards keep their order."""
    write(
        tmp_path,
        "sub",
        """
inputs:
  x: {encoding: bit}
steps:
  - step: 1
    say: Nothing.
    rearrange: {x: [1, 2]}
outputs:
  o: {cards: x, encoding: cards}
""",
    )
    lib = write(
        tmp_path,
        "main",
        """
inputs:
  x: {encoding: bit}
steps:
  - step: 1
    say: Call.
    call: sub
    with: {x: x}
    results: {o: y}
outputs:
  out: {cards: y, encoding: bit, equals: x}
""",
    )
    result = en.enumerate_protocol(lib, lib.protocol("main"))
    assert result.correct and result.secure and result.tidy


def test_reading_a_face_down_card_cannot_be_carried_out(tmp_path: Path) -> None:
    lib = write(
        tmp_path,
        "peek",
        """
inputs:
  x: {encoding: bit}
steps:
  - step: 1
    say: Look at a face-down card.
    if: "x[1, 1] == al"
    then:
      - rearrange: {x: [2, 1]}
outputs:
  out: {cards: x, encoding: bit}
""",
    )
    with pytest.raises(en.RunError, match="face down"):
        en.enumerate_protocol(lib, lib.protocol("peek"))
    assert differential.compare_folder(tmp_path, "peek").agree
