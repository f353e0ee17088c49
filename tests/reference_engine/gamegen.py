"""Generated game protocols for the verification by validity classes (``test_classes_fuzz.py``).

Each spec is a card selection protocol with some of its parts changed, chosen by ``hypothesis``:
the owner markers (right, or the first card of every other hand marked as P_1's), the first and
second shuffles (there or not), the reveal (the dealt cards alone, together with their markers,
none), the bits (by ``valid()``, inverted, by reading a face, by position), the lottery (the
modified covert lottery, or one that shows its bits), the way the cards go back. Many of them
break a precondition of the reduction (it must then be refused), many are wrong or insecure
(the reduction must say so exactly as the naive enumerator does), some are right.

The deck is a few UNO cards with R5 on the discard pile: R1 and W are valid, G2 and B7 not.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as hs

VALID = {"red1": True, "green2": False, "wild": True, "blue7": False, "yellow5": True}

HEAD = """\
protocol: gen-selection
title: a generated card selection
params:
  sizes: {{default: {sizes}, min: 0}}
symbols:
  alpha: {{glyph: "α"}}
  beta: {{glyph: "β"}}
  theta: {{family: true, glyph: "θ{{}}"}}
encodings:
  bit:
    values: {{0: [alpha, beta], 1: [beta, alpha]}}
  card:
    card: any
inputs:
  cards: {{encoding: card, count: "sum(sizes)", groups: sizes}}
context:
  valid: {{doc: whether a card may be played}}
steps:
  - step: 1
    say: Every hand in a row.
    place:
      M: [cards]
  - step: 2
    say: Owners below.
    place:
      "M[2, *]": "{thetas}"
    face: up
  - step: 3
    say: Turn them.
    turn: "up()"
"""

SCRAMBLE = """\
  - step: {n}
    say: Scramble the columns.
    shuffle:
      scramble: "columns(M)"
      how: envelopes
"""

REVEAL = """\
  - step: 5
    say: Reveal.
    turn: "{rows}"
"""

BITS = """\
  - step: 6
    say: Bits.
    place:
      "M[3..4, *]": {{columns: "[bit(1) if {test} else bit(0) for j in 1..ncols(M)]"}}
  - step: 7
    say: Down.
    turn: "up()"
"""

TAIL = """\
  - step: 9
    say: Owners up.
    turn: "M[2, *]"
  - step: 10
    say: P_1's columns to the lottery.
    do:
      - take: {{from: M, columns: "[j for j in 1..ncols(M) if M[2, j] == theta(1)]", into: L}}
      - move: {{T: "L[2, *]"}}
      - call: {lottery}
        params: {{m: "ncols(L)"}}
        with: {{c: "L[1, *]", x: "columns(L[3..4, *])"}}
        results: {{selected: played, rest: unselected, found: found}}
  - step: 11
    say: Back to P_1.
    if: "exists('unselected')"
    then:
      - return: {{cards: unselected, to: 1}}
  - step: 12
    say: Back to the owners.
    do:
      - if: "exists('M')"
        then:
{back}
      - discard: T
outputs:
  played:
    cards: played
    encoding: card
    public: true
    uniform: "[c for c in part(cards, sizes, 1) if valid(c)]"
  found:
    public: true
    value: "exists('played')"
    equals: "any(valid(c) for c in part(cards, sizes, 1))"
  hands:
    cards: "[hand(i) for i in 1..len(sizes)]"
    encoding: cards
    equals: >-
      [sorted(without(part(cards, sizes, i), played) if i == 1 else part(cards, sizes, i))
      for i in 1..len(sizes)]
"""

BACK = {
    "owners": '          - return: {cards: "M[1, *]", to: "[family_index(t) for t in M[2, *]]"}\n'
    '          - discard: "M[2..4, *]"\n',
    "all-to-2": '          - return: {cards: "M[1, *]", to: 2}\n          - discard: "M[2..4, *]"\n',
    "spares": '          - discard: "M[1..4, *]"\n',
}

THETAS = {
    "owners": "[new(theta(i)) for i in 1..len(sizes) for c in 1..sizes[i]]",
    "first-is-p1": "[new(theta(1)) if c == 1 else new(theta(i)) for i in 1..len(sizes) for c in 1..sizes[i]]",
}

TESTS = {
    "valid": "valid(M[1, j])",
    "not-valid": "not valid(M[1, j])",
    "face": "M[1, j] == symbol('red1')",
    "place": "j == 1",
}

LEAKY = """\
protocol: leaky-lottery
title: a lottery that shows its bits
params:
  m: {default: 2, min: 1}
symbols:
  alpha: {glyph: "α"}
  beta: {glyph: "β"}
  c: {family: true, glyph: "c{}"}
encodings:
  bit:
    values: {0: [alpha, beta], 1: [beta, alpha]}
  card:
    label: c
inputs:
  c: {encoding: card, count: m}
  x: {encoding: bit, count: m}
steps:
  - step: 1
    say: Piles.
    place:
      P: {columns: "[[c[i], x[i]] for i in 1..m]"}
  - step: 2
    say: Scramble.
    shuffle:
      scramble: "columns(P)"
      how: envelopes
  - step: 3
    say: Show every bit; the first card above β α is selected.
    do:
      - turn: "P[2..3, *]"
      - let: {k: "[j for j in 1..m if decode(bit, P[2..3, j]) == 1]"}
      - if: "len(k) > 0"
        then:
          - move: {sel: "P[1, k[1]]"}
      - discard: "P[2..3, *]"
outputs:
  selected:
    cards: sel
    encoding: card
  found:
    public: true
    value: "exists('sel')"
  rest:
    cards: "P[1, *]"
    encoding: cards
"""


@dataclass(frozen=True)
class GameSpec:
    text: str
    deck: tuple[str, ...]
    sizes: tuple[int, ...]
    choices: tuple[tuple[str, str], ...]

    def __repr__(self) -> str:
        return f"GameSpec({dict(self.choices)}, deck={self.deck}, sizes={self.sizes})"


@hs.composite
def game_specs(draw: hs.DrawFn) -> GameSpec:
    deck = tuple(
        draw(
            hs.sampled_from(
                [("red1", "green2", "wild"), ("red1", "green2", "blue7"), ("green2", "wild", "blue7")]
            )
        )
    )
    sizes = draw(hs.sampled_from([(1, 1, 1), (2, 1), (1, 2)]))
    # Mostly the protocol's own part, sometimes a change: most specs get a verdict, not a refusal.
    thetas = draw(hs.sampled_from(["owners"] * 4 + ["first-is-p1"]))
    first = draw(hs.sampled_from([True] * 4 + [False]))
    reveal = draw(hs.sampled_from(["M[1, *]"] * 5 + ["M[1..2, *]", "none"]))
    test = draw(hs.sampled_from(["valid"] * 4 + ["not-valid", "face", "place"]))
    second = draw(hs.sampled_from([True] * 4 + [False]))
    lottery = draw(hs.sampled_from(["covert-lottery-modified"] * 2 + ["leaky-lottery"]))
    back = draw(hs.sampled_from(["owners"] * 4 + ["all-to-2", "spares"]))
    text = HEAD.format(sizes=list(sizes), thetas=THETAS[thetas])
    if first:
        text += SCRAMBLE.format(n=4)
    if reveal != "none":
        text += REVEAL.format(rows=reveal)
    text += BITS.format(test=TESTS[test])
    if second:
        text += SCRAMBLE.format(n=8)
    text += TAIL.format(lottery=lottery, back=BACK[back])
    choices = (
        ("thetas", thetas),
        ("first scramble", str(first)),
        ("reveal", reveal),
        ("bits", test),
        ("second scramble", str(second)),
        ("lottery", lottery),
        ("back", back),
    )
    return GameSpec(text, deck, sizes, choices)
