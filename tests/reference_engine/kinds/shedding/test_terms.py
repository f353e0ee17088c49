"""A per-card validity rule's allowed cards found term by term: the same sets as the rule card by
card, for every shedding rule set and state, and the rule card by card wherever a rule or a card
is not of the kind the terms may read (hostile rules and attributes)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from reference_engine.cards import Symbol
from reference_engine.compiled import evaluate
from reference_engine.expressions import EvalError, Scope, parse, truthy
from reference_engine.functions import BUILTINS
from reference_engine.kinds.shedding import load_rules
from reference_engine.kinds.shedding.rules import RuleSet
from reference_engine.kinds.shedding.terms import Terms, split

SHEDDING = ("uno", "uno-small", "uno-official", "crazy-eights")


def by_card(rules: RuleSet, valid: Any) -> frozenset[int]:
    """The general way: the rule evaluated on every distinct card."""
    return frozenset(c.id for c in rules.distinct_cards() if valid(c))


def states(rules: RuleSet) -> list[tuple[Any, str]]:
    """Every top card with every colour of the deck."""
    return [(top, color) for top in rules.distinct_cards() for color in rules.colors]


@pytest.mark.parametrize("name", SHEDDING)
def test_every_state_of_every_rule_set_as_card_by_card(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rules, other = load_rules(name), load_rules(name)
    monkeypatch.setattr(evaluate, "CHECKED", True)  # every set compared inside allowed_ids too
    for bluff in (False, True):
        if bluff and rules.bluff_valid is None:
            continue
        expr = rules.bluff_valid if bluff else rules.valid
        assert expr is not None
        if expr.uses("hand"):
            continue
        for top, color in states(rules):
            valid = rules.validity(top, color, bluff=bluff)
            ids = rules.allowed_ids(valid)
            assert ids == by_card(other, other.validity(top, color, bluff=bluff))


def test_the_uno_rule_splits_into_three_terms_and_keeps_their_answers() -> None:
    rules = load_rules("uno")
    terms = split(rules.valid)
    assert terms is not None and len(terms.terms) == 3
    assert terms.card_fields == ("color", "face") and terms.top_fields == ("face",)
    red2 = rules.symbol("red2")
    ids = terms.allowed(rules.distinct_cards(), red2, "red")
    assert ids == by_card(rules, rules.validity(red2, "red"))
    # The first term reads the card's colour alone: one answer per colour, whatever the state.
    kept = terms.terms[0][4]
    assert list(kept) == [((), None)]
    assert len(kept[((), None)]) == len({str(c.attrs["color"]) for c in rules.distinct_cards()})


@pytest.mark.parametrize(
    "text",
    [
        "len(hand) > 0 or card.color == color",  # a function
        "card == top",  # whole cards compared (by name)
        "card.color in ['red', 'blue']",  # a list
        "top.face == card.face or (1 if card.color == color else 0)",  # a conditional
        "card.color == color or (card.face == top.face) == (card.face == 'x') or card.face[1] == 'r'",
    ],
)
def test_a_rule_the_terms_may_not_read_is_not_split(text: str) -> None:
    assert split(parse(text)) is None


def fresh(text: str) -> RuleSet:
    rules = load_rules("uno")
    rules.valid = parse(text)
    return rules


@pytest.mark.parametrize(
    "text",
    [
        "card.name == top.name",  # no attribute 'name': the card's name, read by the rule alone
        "card.colour == color or card.face == top.face",  # no such field: the rule's error
        "card.face + 1 > 2 or card.color == color",  # arithmetic on a string: an error
        "card.color == 'black' or -card.face == 1",  # a string negated: an error
    ],
)
def test_a_card_the_terms_may_not_read_falls_back_to_the_rule(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules, other = fresh(text), fresh(text)
    top = rules.symbol("red2")
    terms = split(rules.valid)
    assert terms is not None and terms.allowed(rules.distinct_cards(), top, "red") is None
    monkeypatch.setattr(evaluate, "CHECKED", True)
    try:
        expected: Any = by_card(other, other.validity(top, "red"))
    except EvalError as exc:
        with pytest.raises(EvalError) as got:
            rules.allowed_ids(rules.validity(top, "red"))
        assert str(got.value) == str(exc)
    else:
        assert rules.allowed_ids(rules.validity(top, "red")) == expected


def test_values_of_other_types_are_other_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """A colour in force of another type, and a field of a type the keys do not hold, fall back;
    ``1`` and ``True`` are other keys (the rule's equality may tell them apart one day)."""
    rules = fresh("card.color == color or card.face == top.face")
    terms = split(rules.valid)
    assert terms is not None
    cards = rules.distinct_cards()
    top = rules.symbol("red2")
    assert terms.allowed(cards, top, 1.0) is None
    assert terms.allowed(cards, top, ["red"]) is None
    kept = terms.terms[0][4]
    for color in (1, True):
        assert terms.allowed(cards, top, color) == by_card(rules, rules.validity(top, color))  # type: ignore[arg-type]
    assert {k[1] for k in kept} >= {(1,), ((bool, True),)}  # 1 and True: two states


def test_attributes_declared_again_are_read_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """A card's attributes are read at each state: a colour declared again gives the answers of
    its new value (kept answers are by value, never by card)."""
    rules, other = fresh("card.color == color or card.face == top.face"), load_rules("uno")
    terms = split(rules.valid)
    assert terms is not None
    cards = rules.distinct_cards()
    card = rules.symbol("green4")
    other.valid = rules.valid
    other.distinct_cards()  # declared now: the colour set below stays until the test ends
    top = rules.symbol("red2")
    before = terms.allowed(cards, top, "red")
    assert before is not None and card.id not in before
    monkeypatch.setitem(card.attrs, "color", "red")
    after = terms.allowed(cards, top, "red")
    assert after is not None and card.id in after
    assert after == by_card(other, other.validity(top, "red"))
    monkeypatch.setitem(card.attrs, "color", 2.0)  # a type the keys do not hold
    assert terms.allowed(cards, top, "red") is None


def test_a_function_validity_did_not_make_is_asked_card_by_card() -> None:
    rules = load_rules("uno")
    red = frozenset(c.id for c in rules.distinct_cards() if c.attrs["color"] == "red")

    def valid(card: Any) -> bool:
        return bool(card.attrs["color"] == "red")

    assert rules._by_terms(valid) is None
    assert rules.allowed_ids(valid) == red


def test_the_terms_leave_the_answers_the_rule_card_by_card_leaves() -> None:
    """A protocol run asks the validity function about single cards after allowed_ids: it finds
    the answers kept, as it did when allowed_ids asked the rule card by card."""
    rules, other = load_rules("uno"), load_rules("uno")
    top = rules.symbol("blue7")
    rules.allowed_ids(rules.validity(top, "blue"))
    by_card(other, other.validity(top, "blue"))
    key = (id(rules.valid), "blue7", "blue")
    assert rules._answers[key] == other._answers[(id(other.valid), "blue7", "blue")]
    assert len(rules._answers[key]) == len(rules.distinct_cards())


def test_cards_met_in_another_list_are_classed_again() -> None:
    """The classes of cards kept from a call serve only the same cards with the same keys: a
    shorter list, another order, another deck's cards are classed again."""
    rules = load_rules("uno")
    terms = split(rules.valid)
    assert terms is not None
    cards = rules.distinct_cards()
    top = rules.symbol("yellow_skip")
    valid = rules.validity(top, "yellow")
    for some in (cards, cards[:10], cards[::-1], cards[5:], cards):
        assert terms.allowed(some, top, "yellow") == frozenset(c.id for c in some if valid(c))
    assert terms.allowed([], top, "yellow") == frozenset()


def test_checked_compares_the_terms_with_the_rule_evaluated_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under ``evaluate.CHECKED`` the rule card by card is asked itself: a wrong set from the
    terms is a Mismatch (the check must not read the answers the terms have just kept)."""
    rules = load_rules("uno")
    top = rules.symbol("red2")
    real = Terms.allowed

    def wrong(self: Terms, cards: Any, top: Any, color: Any) -> frozenset[int] | None:
        ids = real(self, cards, top, color)
        return None if ids is None else ids - {rules.symbol("red7").id}

    monkeypatch.setattr(Terms, "allowed", wrong)
    monkeypatch.setattr(evaluate, "CHECKED", True)
    with pytest.raises(evaluate.Mismatch):
        rules.allowed_ids(rules.validity(top, "red"))


def test_an_answer_the_function_kept_before_is_the_one_allowed_ids_gives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A validity function asked about a card keeps its answer for the whole game (main's
    allowed_ids then reads it, whatever the card's attributes are by then): the terms give that
    answer too, not one from attributes declared again since, with or without CHECKED."""
    for checked in (False, True):
        monkeypatch.setattr(evaluate, "CHECKED", checked)
        rules = load_rules("uno")
        top, card = rules.symbol("red2"), rules.symbol("green4")
        rules.distinct_cards()
        valid = rules.validity(top, "red")
        assert valid(card) is False  # kept: green4 may not go on red2 with red in force
        with monkeypatch.context() as m:
            m.setitem(card.attrs, "color", "red")  # declared again (another rule set's deck)
            ids = rules.allowed_ids(valid)
        assert card.id not in ids and valid(card) is False


def _random_rule(rng: random.Random) -> str:
    """An ``or`` of random terms over what the terms may read: card and top fields, the colour
    in force, constants of every keyed type, comparisons, arithmetic, ``and``, ``not``, ``-``."""
    consts = ["0", "1", "2", "true", "false", "'x'", "'1'", "''", "none"]

    def atom(depth: int) -> str:
        r = rng.random()
        if r < 0.35:
            return "card." + rng.choice("abc")
        if r < 0.55:
            return "top." + rng.choice("abc")
        if r < 0.65:
            return "color"
        if r < 0.85 or depth > 2:
            return rng.choice(consts)
        return f"({term(depth + 1)})"

    def term(depth: int) -> str:
        r = rng.random()
        if depth > 3 or r < 0.3:
            return atom(depth)
        if r < 0.55:
            op = rng.choice(["==", "!=", "<", ">=", "in", "not in"])
            return f"{atom(depth)} {op} {atom(depth)}"
        if r < 0.65:
            return "not " + atom(depth)
        if r < 0.72:
            return "-" + atom(depth)
        if r < 0.8:
            return f"{atom(depth)} {rng.choice(['+', '-', '*', '%', '//'])} {atom(depth)}"
        return f"{atom(depth)} {rng.choice(['and', 'or'])} {atom(depth)}"

    return " or ".join(term(0) for _ in range(rng.randint(1, 4)))


@pytest.mark.parametrize("seed", range(4))
def test_random_rules_and_values_give_the_rules_sets_or_none(seed: int) -> None:
    """Random rules on cards whose fields mix 1, True, 0, False, None and texts (equal values of
    other types, equal cards with other ids), a card's fields declared again between states: the
    terms give the rule's set card by card, or None (never a set where the rule fails)."""
    rng = random.Random(seed)
    values: list[Any] = [0, 1, 2, True, False, None, "x", "1", "", -1]
    answered = 0
    for _ in range(150):
        expr = parse(_random_rule(rng))
        terms = split(expr)
        assert terms is not None
        cards = [
            Symbol(f"t{i}", f"t{i}", 100_000 + i, {f: rng.choice(values) for f in "abc"})
            for i in range(rng.randint(0, 10))
        ]
        for state in range(4):
            top = Symbol("ttop", "ttop", 99_999, {f: rng.choice(values) for f in "abc"})
            color = rng.choice(values)
            if state == 2 and cards:
                cards[0].attrs[rng.choice("abc")] = rng.choice(values)
            scope = Scope({"top": top, "color": color, "hand": []}, functions=BUILTINS)
            try:
                want: Any = frozenset(c.id for c in cards if truthy(expr(scope.child({"card": c}))))
            except EvalError:
                want = None
            got = terms.allowed(cards, top, color)
            assert got == want or got is None, (expr.text, top.attrs, color)
            answered += got is not None
    assert answered > 150  # the terms answer most states (a rule that fails on a card: None)
