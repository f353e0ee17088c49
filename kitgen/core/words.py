"""Small helpers for the words kits print: counts with the right plural, lists in prose."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ..lang.catalogue import _, ngettext
from ..lang.wrap import breaks_between_characters

IRREGULAR = {"envelope": "envelopes", "sheet": "sheets", "pass": "passes", "box": "boxes"}


# The counted nouns kits print, in the catalogue: each language's plural forms (ngettext).
COUNTED: dict[str, Callable[[int], str]] = {
    "card": lambda n: ngettext("{n} card", "{n} cards", n),
    "shuffle": lambda n: ngettext("{n} shuffle", "{n} shuffles", n),
    "sheet": lambda n: ngettext("{n} sheet", "{n} sheets", n),
    "label": lambda n: ngettext("{n} label", "{n} labels", n),
    "page": lambda n: ngettext("{n} page", "{n} pages", n),
    "turn": lambda n: ngettext("{n} turn", "{n} turns", n),
    "step": lambda n: ngettext("{n} step", "{n} steps", n),
    "player": lambda n: ngettext("{n} player", "{n} players", n),
    "virtual player": lambda n: ngettext("{n} virtual player", "{n} virtual players", n),
    "person": lambda n: ngettext("{n} person", "{n} people", n),
    "more step": lambda n: ngettext("{n} more step", "{n} more steps", n),
    "envelope": lambda n: ngettext("{n} envelope", "{n} envelopes", n),
    "deal": lambda n: ngettext("{n} deal", "{n} deals", n),
}


def plural(n: int, one: str, many: str | None = None) -> str:
    """``plural(1, "shuffle")`` -> ``1 shuffle``; ``plural(2, "shuffle")`` -> ``2 shuffles``; a
    noun of :data:`COUNTED` in the active language."""
    if many is None and one in COUNTED and isinstance(n, int):
        return COUNTED[one](n).format(n=n)
    if n == 1:
        return f"{n} {one}"
    if many is None:
        head, _, last = one.rpartition(" ")
        many = (head + " " if head else "") + IRREGULAR.get(last, last + "s")
    return f"{n} {many}"


def seating(players: int, virtual: int) -> str:
    """Who is at a kit's table: ``4 players, 1 of them virtual``; with every player virtual,
    ``4 virtual players and an operator`` (a person who runs the table and does not play: a kit
    needs one, ``--operator``)."""
    if virtual and virtual == players:
        return _("{players} and an operator").format(players=plural(players, "virtual player"))
    return plural(players, "player") + (_(", {n} of them virtual").format(n=virtual) if virtual else "")


def count(n: object, one: str) -> str:
    """``plural`` for a count that may be a list of counts (a statistical run's): the plural then."""
    return plural(n, one) if isinstance(n, int) else f"{n} {plural(2, one).split(' ', 1)[1]}"


def resources_sentence(res: Mapping[str, object]) -> str:
    """A validation page's resources: ``Resources: 8 cards (4 input, 4 helper), 1 shuffle, ...``."""
    return _("Resources: {cards} ({input} input, {helper} helper), {shuffles}, {turns}, {steps}.").format(
        cards=count(res["cards"], "card"),
        input=res["input_cards"],
        helper=res["helper_cards"],
        shuffles=count(res["shuffles"], "shuffle"),
        turns=count(res["turns"], "turn"),
        steps=count(res["steps"], "step"),
    )


def listing(parts: Sequence[str], last: str = "and") -> str:
    """``["a", "b", "c"]`` -> ``a, b and c``."""
    items = [p for p in parts if p]
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    word = _("and") if last == "and" else _("or") if last == "or" else last
    head = _(", ").join(items[:-1])
    if breaks_between_characters():  # Japanese: a space beside と only where a code or number is
        return head + _gap(head[-1]) + word + _gap(items[-1][0]) + items[-1]
    return head + f" {word} " + items[-1]


def series(parts: Sequence[str]) -> str:
    """Short parallel items, a value that is a list (``no, yes and yes``): :func:`listing` in
    English; joined with ・ in Japanese (いいえ・はい・はい), so that a list of such values, said
    with 、 and と, stays readable."""
    if breaks_between_characters():
        return "・".join(p for p in parts if p)
    return listing(parts)


def clauses(parts: Sequence[str]) -> str:
    """Several ``name: value`` clauses: :func:`listing` in English; joined with 、 in Japanese,
    where と between two clauses would read as part of the last value (はいとくじ引き…)."""
    if breaks_between_characters():
        return _(", ").join(p for p in parts if p)
    return listing(parts)


def _gap(c: str) -> str:
    """The space between ``c`` and a Japanese word: one beside a code, number or symbol (``λ2 と
    λ3``, ``3 枚 と``), none beside Japanese (``「0」と``)."""
    return " " if ord(c) < 0x3000 else ""
