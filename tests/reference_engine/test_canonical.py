"""The canonical form of a protocol: typed, and blind to the words a booklet prints."""

from __future__ import annotations

from reference_engine.canonical import canonical, fingerprint
from reference_engine.registry import Library
from reference_engine.spec import load_protocol_text

SPEC = """
protocol: p
title: A pair
summary: one line
symbols: {cnz: {doc: a cnz}, hnz: {}}
encodings: {bit: {values: {0: [cnz, hnz], 1: [hnz, cnz]}, doc: a bit}}
inputs: {x: {encoding: bit, doc: the secret}}
steps:
  - step: 1
    say: Cut the pair.
    paper: Apply a random cut to the pair.
    table: kept
    labels: {"s[1..2]": x}
    do:
      - place: {s: [x]}
      - shuffle: {cut: s, how: Cut the cards., uses: envelope}
outputs:
  o: {cards: s, encoding: cards, equals: "[cnz, hnz]", doc: the pair}
"""


def _fp(*changes: tuple[str, str]) -> str:
    text = SPEC
    for old, new in changes:
        assert old in text
        text = text.replace(old, new)
    return fingerprint(load_protocol_text(text))


def test_words_do_not_count() -> None:
    same = _fp(
        ("title: A pair", "title: Two cards"),
        ("summary: one line", "summary: two lines"),
        ("say: Cut the pair.", "say: Give the pair a random cut."),
        ("how: Cut the cards.", "how: Cut them."),
        ("doc: the secret", "doc: Alice's bit"),
        ('labels: {"s[1..2]": x}', 'labels: {"s[1..2]": "x, hidden"}'),
        ("step: 1", "step: 7"),
        ("table: kept", "table: {turn: slide}"),
        ("paper: Apply a random cut to the pair.", "paper: Cut the pair (Section 2)."),
        ("uses: envelope", "uses: sleeve"),
        ('equals: "[cnz, hnz]"', "equals: '[cnz,hnz]'"),
    )
    assert same == _fp()


def test_types_and_actions_count() -> None:
    base = _fp()
    assert _fp(("{0: [cnz, hnz], 1:", '{"0": [cnz, hnz], "1":')) != base
    assert _fp(("{0: [cnz, hnz], 1: [hnz, cnz]}", "{0: [hnz, cnz], 1: [cnz, hnz]}")) != base
    assert _fp(("{0: [cnz, hnz], 1:", '{0: [cnz, hnz], "1":')) != base
    assert _fp(("cut: s", "bisect: s")) != base
    assert _fp(('labels: {"s[1..2]": x}', 'labels: {"s[1]": x}')) != base
    assert _fp(('equals: "[cnz, hnz]"', 'equals: "[hnz, cnz]"')) != base


def test_every_shipped_spec_has_a_canonical_form(library: Library) -> None:
    forms = {name: canonical(library.protocol(name)) for name in library.names()}
    assert len({repr(f) for f in forms.values()}) == len(forms)
