"""Every shortcut of the exact verifier is a claim with a precondition (README, "How
verification works"). Each test here feeds the verifier a spec that breaks exactly one
precondition and checks that the shortcut is not taken (or the spec is refused), so the
verdict is the one an honest enumeration gives; the figures in the assertions were worked
out by hand and are cross-checked by the naive enumerator in ``test_fuzz.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reference_engine.errors import SimulationError, SpecError
from reference_engine.registry import Library
from reference_engine.verify import Report, verify

BITS = """\
symbols:
  alpha: {glyph: "α"}
  beta: {glyph: "β"}
encodings:
  bit:
    values: {0: [alpha, beta], 1: [beta, alpha]}
"""


def write(tmp_path: Path, name: str, body: str) -> None:
    (tmp_path / f"{name}.yaml").write_text(f"protocol: {name}\ntitle: {name}\n{BITS}{body}", encoding="utf-8")


def check(tmp_path: Path, name: str) -> Report:
    lib = Library([tmp_path])
    return verify(lib, lib.protocol(name))


# --------------------------------------------------------------------------- orbits

SIX_CARD_AND = """\
inputs: {{x: {{encoding: bit}}, y: {{encoding: bit}}}}
steps:
  - step: 1
    say: Lay out x, 0, y.
    place: {{s: [x, "bit(0)", y]}}
  - step: 2
    say: Card 2 to place 4.
    rearrange: {{s: [1, 3, 4, 2, 5, 6]}}
  - step: 3
    say: Shuffle the two piles of three.
    shuffle:
{shuffle}
  - step: 4
    say: Card 4 back to place 2.
    rearrange: {{s: [1, 4, 2, 3, 5, 6]}}
  - step: 5
    say: Turn cards 1 and 2; swap the pairs on β α.
    do:
      - turn: "s[1..2]"
      - if: "s[1..2] == [beta, alpha]"
        then: [{{swap: ["s[3..4]", "s[5..6]"]}}]
      - discard: "s[1..2]"
outputs:
  and: {{cards: "s[3..4]", encoding: bit, equals: "x and y"}}
  nand: {{cards: "s[5..6]", encoding: bit, equals: "(not x) and y"}}
"""


def test_a_set_listing_a_permutation_more_often_is_a_weighted_shuffle(tmp_path: Path) -> None:
    """Precondition of the orbit shortcut: uniform over a group, checked on the multiset.
    [1, 2] three times and [2, 1] once keeps the piles in place 3 times out of 4, so the
    turned pair shows x's pair with probability 3/4: the biased AND must fail 'secure'."""
    biased = '      set: [[1, 2], [1, 2], [1, 2], [2, 1]]\n      piles: ["s[1..3]", "s[4..6]"]\n'
    biased += "      how: Roll a die; swap the envelopes only on a 6... (three sides in four keep them)\n"
    write(tmp_path, "biased-and", SIX_CARD_AND.format(shuffle=biased))
    report = check(tmp_path, "biased-and")
    assert report.correct and not report.secure
    figure = report.check("secure").figure  # type: ignore[union-attr]
    assert "1/4" in figure and "3/4" in figure


def test_a_set_listing_every_permutation_equally_often_is_the_uniform_shuffle(tmp_path: Path) -> None:
    """The same group listed twice is still uniform over a group: the shortcut applies and
    the protocol verifies, exactly as with 'scramble'."""
    twice = '      set: [[1, 2], [2, 1], [2, 1], [1, 2]]\n      piles: ["s[1..3]", "s[4..6]"]\n'
    twice += "      how: Mix the two envelopes.\n"
    write(tmp_path, "twice-and", SIX_CARD_AND.format(shuffle=twice))
    report = check(tmp_path, "twice-and")
    assert report.ok, report.to_json()["checks"]


def test_a_weighted_set_must_say_how_the_table_draws_it(tmp_path: Path) -> None:
    biased = '      set: [[1, 2], [1, 2], [2, 1]]\n      piles: ["s[1..3]", "s[4..6]"]\n'
    write(tmp_path, "silent-and", SIX_CARD_AND.format(shuffle=biased))
    with pytest.raises(SpecError) as info:
        Library([tmp_path]).protocol("silent-and")
    (problem,) = info.value.problems
    text = (tmp_path / "silent-and.yaml").read_text(encoding="utf-8").splitlines()
    assert problem.path == "steps[2].shuffle.set" and text[problem.line - 1].strip().startswith("set:")  # type: ignore[operator]
    assert "not uniform" in problem.message and "'how:'" in problem.message


def test_a_biased_cut_of_the_five_card_trick_fails(tmp_path: Path) -> None:
    """A random cut given as a set of the five cyclic shifts, one listed twice."""
    shifts = [[(i + s) % 5 + 1 for i in range(5)] for s in range(5)]
    shifts.append(shifts[1])
    body = f"""\
symbols:
  club: {{glyph: "♣"}}
  heart: {{glyph: "♥"}}
encodings:
  hbit:
    values: {{0: [club, heart], 1: [heart, club]}}
inputs: {{a: {{encoding: hbit}}, b: {{encoding: hbit}}}}
steps:
  - step: 1
    say: Alice negates.
    rearrange: {{a: [2, 1]}}
  - step: 2
    say: Lay out.
    place: {{s: [a, "new(heart)", b]}}
  - step: 3
    say: A biased cut.
    shuffle:
      set: {shifts}
      piles: "cards(s)"
      how: Roll a six-sided die and cut by the number shown, 6 counting as 1.
  - step: 4
    say: Turn all.
    do:
      - turn: s
      - let:
          result: >-
            1 if any(s[i] == heart and s[i % 5 + 1] == heart and s[(i + 1) % 5 + 1] == heart
            for i in 1..5) else 0
      - discard: s
outputs:
  and: {{public: true, value: result, equals: "a and b"}}
"""
    (tmp_path / "biased-cut.yaml").write_text(f"protocol: biased-cut\ntitle: t\n{body}", encoding="utf-8")
    report = check(tmp_path, "biased-cut")
    assert report.correct and not report.secure


NOT_A_GROUP = """\
inputs: {x: {encoding: bit}}
steps:
  - step: 1
    say: Lay out x and an α.
    place: {s: [x, "new(alpha)"]}
  - step: 2
    say: Keep the cards, or move each card one place left (the first goes last).
    shuffle:
      set: [[1, 2, 3], [2, 3, 1]]
      piles: "cards(s)"
      how: Toss a coin.
  - step: 3
    say: Turn the middle card.
    do:
      - turn: "s[2]"
      - discard: s
outputs: {}
"""


def test_a_set_that_is_not_a_group_is_enumerated_as_it_is(tmp_path: Path) -> None:
    """{identity, one rotation} is not closed. x = 0 lays out α β α: the middle card shows β or
    α; x = 1 lays out β α α: it always shows α. Treating the set as a group (replacing β α α by
    its 'orbit representative' α α β) would make both inputs look alike and pass."""
    write(tmp_path, "coin-rotation", NOT_A_GROUP)
    report = check(tmp_path, "coin-rotation")
    assert not report.secure
    figure = report.check("secure").figure  # type: ignore[union-attr]
    assert ("1/2" in figure and " 1 with" in figure) or " 0 with" in figure


# --------------------------------------------------------------------------- lazy piles

SCRAMBLE_THEN_TURN = """\
inputs: {x: {encoding: bit, count: 3}}
steps:
  - step: 1
    say: Lay the three pairs out.
    place: {P: {columns: "[x[i] for i in 1..3]"}}
  - step: 2
    say: Scramble the columns.
    shuffle: {scramble: "columns(P)"}
  - step: 3
    say: Turn the first column.
    do:
      - turn: "P[*, 1]"
      - discard: P
outputs: {}
"""


def test_lazy_piles_are_drawn_uniformly_when_a_turn_needs_them(tmp_path: Path) -> None:
    """Precondition of leaving scrambled piles unordered: face-down piles, uniformly scrambled,
    fixed before any action reads them. The first column then shows a uniformly random x_i:
    β α with probability 1/3 when one bit of three is 1, 2/3 when two are."""
    write(tmp_path, "scramble-turn", SCRAMBLE_THEN_TURN)
    report = check(tmp_path, "scramble-turn")
    assert not report.secure
    figure = report.check("secure").figure  # type: ignore[union-attr]
    assert "1/3" in figure or "2/3" in figure


def test_piles_with_a_face_up_card_are_never_left_unordered(tmp_path: Path) -> None:
    """A face-up card shows where its pile went, so the shuffle is observed, not lazy: the α
    on top tells which pair is x's, and turning that pair reveals x."""
    write(
        tmp_path,
        "marked-piles",
        """\
inputs: {x: {encoding: bit}, y: {encoding: bit}}
steps:
  - step: 1
    say: Each pair gets a face-up marker on top.
    place: {P: {columns: "[[new(alpha), x], [new(beta), y]]"}}
  - step: 2
    say: Turn the markers face up.
    turn: "P[1, *]"
  - step: 3
    say: Scramble the two columns.
    shuffle: {scramble: "columns(P)"}
  - step: 4
    say: Turn the pair under α.
    do:
      - for: {j: "1..2"}
        do:
          - if: "P[1, j] == alpha"
            then: [{turn: "P[2..3, j]"}]
      - discard: P
outputs: {}
""",
    )
    report = check(tmp_path, "marked-piles")
    assert not report.secure


def test_lazy_piles_that_move_are_fixed_first(tmp_path: Path) -> None:
    """A region before the scrambled piles is removed, so their places change: the piles must
    be drawn before they move (else the verifier would read the wrong cards)."""
    write(
        tmp_path,
        "move-lazy",
        """\
inputs: {x: {encoding: bit, count: 2}}
steps:
  - step: 1
    say: A token first, then the pairs.
    place: {t: "bit(1)", P: {columns: "[x[1], x[2]]"}}
  - step: 2
    say: Scramble the columns.
    shuffle: {scramble: "columns(P)"}
  - step: 3
    say: The token goes back.
    discard: t
  - step: 4
    say: Turn the first column.
    do:
      - turn: "P[*, 1]"
      - discard: P
outputs: {}
""",
    )
    report = check(tmp_path, "move-lazy")
    assert not report.secure
    assert "1/2" in report.check("secure").figure  # type: ignore[union-attr]


# --------------------------------------------------------------------------- calls

CALLEE_UNTOUCHED = """\
inputs: {x: {encoding: bit}}
steps:
  - step: 1
    say: Nothing happens to x.
    place: {s: [x]}
outputs:
  out: {cards: s, encoding: cards}
"""

CALLER_TURNS = """\
inputs: {x: {encoding: bit}}
steps:
  - step: 1
    say: Run the callee.
    call: untouched
    with: {x: x}
    results: {out: r}
  - step: 2
    say: Turn what came back.
    do:
      - turn: r
      - discard: r
outputs: {}
"""


def test_an_unordered_output_keeps_its_order_on_the_table(tmp_path: Path) -> None:
    """'encoding: cards' says how the output is checked (as a multiset), not that the order
    is forgotten: the caller sees x's pair in x's order, a leak the verifier must report."""
    write(tmp_path, "untouched", CALLEE_UNTOUCHED)
    write(tmp_path, "turns-it", CALLER_TURNS)
    report = check(tmp_path, "turns-it")
    assert not report.secure
    figure = report.check("secure").figure  # type: ignore[union-attr]
    # Either view tells x apart; the one quoted is the first in the views' own order (a hash of
    # what was seen), the same in every process and under every hash seed.
    assert 'the view "turned α β" has probability 1 with x=0 but 0 with x=1' in figure, figure


def test_a_callee_whose_view_depends_on_its_arguments_is_not_factored(tmp_path: Path) -> None:
    """Precondition of factoring: the callee's view depends only on its public outputs, with
    one distribution for every argument. This callee shows the first card of x."""
    write(
        tmp_path,
        "peek",
        """\
inputs: {x: {encoding: bit}}
steps:
  - step: 1
    say: Turn the first card of x and back.
    do:
      - turn: "x[1]"
      - turn: "x[1]"
outputs:
  out: {cards: x, encoding: bit, equals: x}
""",
    )
    write(
        tmp_path,
        "calls-peek",
        """\
inputs: {x: {encoding: bit}}
steps:
  - step: 1
    say: Run peek.
    call: peek
    with: {x: x}
    results: {out: r}
outputs:
  out: {cards: r, encoding: bit, equals: x}
""",
    )
    report = check(tmp_path, "calls-peek")
    assert report.correct and not report.secure
    assert any("peek is inlined" in n for n in report.notes)


def test_a_callee_whose_view_goes_with_its_outcome_is_inlined(tmp_path: Path) -> None:
    """Within one argument the view must be independent of the callee's card outputs. Here
    the card seen at place 3 after a cut tells how the cards were cut, so the view is kept
    whole in the caller's. The caller is still secure: x = 0 (α β α) and x = 1 (β α α) both
    show β at place 3 with probability 1/3."""
    write(
        tmp_path,
        "cut-peek",
        """\
inputs: {x: {encoding: bit}}
steps:
  - step: 1
    say: Lay x and an α, cut them, look at the third card.
    do:
      - place: {s: [x, "new(alpha)"]}
      - shuffle: {cut: s}
      - turn: "s[3]"
      - turn: "s[3]"
outputs:
  out: {cards: s, encoding: faces}
""",
    )
    write(
        tmp_path,
        "calls-cut-peek",
        """\
inputs: {x: {encoding: bit}}
steps:
  - step: 1
    say: Run cut-peek, then put everything back.
    do:
      - call: cut-peek
        with: {x: x}
        results: {out: r}
      - discard: r
outputs: {}
""",
    )
    report = check(tmp_path, "calls-cut-peek")
    assert report.ok, report.to_json()["checks"]
    assert any("cut-peek is inlined" in n for n in report.notes)


# --------------------------------------------------------------------------- merged views


def test_merged_views_are_counted_honestly(tmp_path: Path) -> None:
    """Merging proportional views keeps the verdicts but must not hide what players see: the
    report counts the views the players can tell apart and, separately, the merged ones."""
    write(
        tmp_path,
        "four-places",
        """\
inputs: {x: {encoding: bit}}
steps:
  - step: 1
    say: A β and three α in a row; cut; turn.
    place: {s: ["new(beta)", "new(alpha)", "new(alpha)", "new(alpha)"]}
  - step: 2
    say: Cut.
    shuffle: {cut: s}
  - step: 3
    say: Turn all four.
    do:
      - turn: s
      - discard: s
outputs: {}
""",
    )
    report = check(tmp_path, "four-places")
    secure = report.check("secure")
    assert secure is not None and secure.ok
    # The β shows at one of four places: four tables a player can tell apart. They are alike
    # up to a constant factor, so the verifier may merge them, and says so.
    assert secure.detail["views"] == 4
    assert secure.figure.startswith("4 possible views")


# --------------------------------------------------------------------------- hands


RETURN_TO_HAND = """\
inputs: {{x: {{encoding: bit}}}}
steps:
  - step: 1
    say: x goes into P_1's hand.
    return: {{cards: x, to: 1}}
{more}
outputs:
  hand: {{cards: "hand(1)", encoding: {encoding}}}
"""


def test_a_step_cannot_read_a_hand_by_position(tmp_path: Path) -> None:
    """Precondition of keeping hands sorted: nothing reads a hand's order."""
    more = '  - step: 2\n    say: Turn the first card of the hand.\n    turn: "hand1[1]"\n'
    write(tmp_path, "read-hand", RETURN_TO_HAND.format(more=more, encoding="cards"))
    with pytest.raises(SpecError) as info:
        Library([tmp_path]).protocol("read-hand")
    (problem,) = info.value.problems
    assert problem.path == "steps[1].turn" and "hand1 is a player's hand" in problem.message


def test_an_ordered_output_cannot_read_a_hand(tmp_path: Path) -> None:
    write(tmp_path, "faces-hand", RETURN_TO_HAND.format(more="", encoding="faces"))
    with pytest.raises(SimulationError) as info:
        check(tmp_path, "faces-hand")
    assert "output hand: hand1 is a player's hand" in info.value.format_message()


def test_a_hand_read_as_a_multiset_verifies(tmp_path: Path) -> None:
    write(tmp_path, "keep-hand", RETURN_TO_HAND.format(more="", encoding="cards"))
    assert check(tmp_path, "keep-hand").ok


def test_the_whole_table_means_the_cards_not_in_hands(tmp_path: Path) -> None:
    """down() is every face-down card on the table, not those in players' hands."""
    more = (
        "  - step: 2\n    say: An α face down, then turn every face-down card on the table.\n"
        '    do:\n      - place: {t: "new(alpha)"}\n      - turn: "down()"\n      - discard: t\n'
    )
    write(tmp_path, "down-hand", RETURN_TO_HAND.format(more=more, encoding="cards"))
    report = check(tmp_path, "down-hand")
    assert report.ok, report.to_json()["checks"]


# --------------------------------------------------------------------------- equals


@pytest.mark.parametrize(
    ("equals", "message"),
    [
        ("out", "names the output 'out' itself"),
        ("other", "names the output 'other', which is not one"),
        ("x and other", "names the output 'other', which is not one"),
    ],
)
def test_equals_may_not_lean_on_what_the_run_produced(tmp_path: Path, equals: str, message: str) -> None:
    write(
        tmp_path,
        "vacuous",
        f"""\
inputs: {{x: {{encoding: bit}}}}
steps:
  - step: 1
    say: Swap the pair (now it encodes NOT x).
    rearrange: {{x: [2, 1]}}
outputs:
  out: {{cards: x, encoding: bit, equals: "{equals}"}}
  other: {{public: true, value: 1}}
""",
    )
    with pytest.raises(SpecError) as info:
        Library([tmp_path]).protocol("vacuous")
    (problem,) = info.value.problems
    assert problem.path == "outputs.out.equals" and problem.line is not None
    assert message in problem.message
    rule = "'equals' may use the inputs, the parameters and outputs that are random choices"
    assert rule in problem.message


def test_equals_may_name_a_random_choice(library: Library) -> None:
    """The card selection protocol: the hand left is the hand without the uniformly chosen card."""
    proto = library.protocol("card-selection")
    assert "played" in proto.outputs["hands"].equals.names()  # type: ignore[union-attr]
    assert proto.outputs["played"].uniform is not None
