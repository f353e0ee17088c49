"""A protocol's names in a player's words, drawn from its spec's ``booklet:`` section.

Every place, card, input, output, parameter, encoding and loop variable that a booklet page
mentions goes through a :class:`Glossary`: ``M`` is "the table", ``theta`` "owner card",
``winner`` "who wins the round" with ``1`` "Alice wins", ``m`` "{} cards in the lottery". The
paper's notation (``booklet: notation``) is only for the "for the curious" box. A name the spec
gives no words falls back to the name itself, which the identifier check
(:mod:`kitgen.booklet.jargon`) then reports: a spec author sees what still needs a player's words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from reference_engine.api import Library, Protocol, UsageError, glyph

from ..core.words import clauses, listing, series
from ..lang.catalogue import _
from ..lang.overlay import spec_text
from ..lang.seats import seat_name


class Glossary:
    """The player's words of one protocol (and the owners of its worked example's hands)."""

    def __init__(self, proto: Protocol, owners: Sequence[str] = ()):
        self.proto = proto
        self.names = proto.booklet.names
        self.regions = proto.booklet.regions
        self.owners = list(owners) or list(proto.booklet.owners)

    # -- names --------------------------------------------------------------------------
    def term(self, name: str) -> str:
        """A spec name in words (``theta`` -> ``owner card``); the name itself when none given."""
        words = self.names.get(name)
        if words is not None:
            return spec_text(words.name).replace("{}", "").strip()
        return spec_text(self.regions.get(name, name))

    def place(self, region: str) -> str:
        """A place on the table: the spec's words, an owner's hand, or the name itself."""
        if region in self.regions:
            return spec_text(self.regions[region])
        if region in self.names:
            return self.term(region)
        if region.startswith("hand") and region[4:].isdigit():
            return self.hand(int(region[4:]))
        return region

    def hand(self, i: int) -> str:
        """Owner ``i``'s cards: ``Virtual 1's hand``; a pile is called by its name (the draw pile)."""
        if 1 <= i <= len(self.owners):
            owner = self.owners[i - 1]
            if _is_pile(owner):
                shown = seat_name(owner)
                return shown[:1].upper() + shown[1:]
            return _("{owner}'s hand").format(owner=seat_name(owner))
        return _("owner {i}'s hand").format(i=i)

    def owner(self, i: int) -> str:
        return seat_name(self.owners[i - 1]) if 1 <= i <= len(self.owners) else _("owner {i}").format(i=i)

    def value(self, name: str, value: object) -> str:
        """A value of an input, output or parameter in words (``1`` -> ``Alice wins``): a
        number, text, a truth value, a card, or a list of them."""
        if isinstance(value, str) and "," in value:
            return self.value(name, [v.strip() for v in value.split(",")])
        if isinstance(value, list | tuple):
            return series([self.value(name, v) for v in value]) or _("none")
        words = self.names.get(name)
        key = _key(value)
        if words is not None and key in words.values:
            return spec_text(words.values[key])
        return in_words(value)

    def quantity(self, name: str, value: object) -> str:
        """A parameter or input with its value: ``3 cards in the lottery``, ``first bit: 1``."""
        words = self.names.get(name)
        shown = self.value(name, value)
        if words is not None and "{}" in words.name:
            return spec_text(words.name).replace("{}", shown)
        return self.term(name) + _(": ") + shown

    def quantities(self, values: Mapping[str, object]) -> str:
        return clauses([self.quantity(k, v) for k, v in values.items()])

    def loop(self, loop: Mapping[str, object]) -> str:
        """``{i: 1}`` -> ``pile 1`` (a loop variable named ``pile {}``)."""
        return clauses([self.quantity(k, v) for k, v in loop.items()])

    def output_name(self, key: str) -> str:
        """What an output is, in a player's words (its ``booklet: names`` entry, else its doc)."""
        words = self.names.get(key)
        doc = (
            words.name
            if words is not None
            else (self.proto.outputs[key].doc if key in self.proto.outputs else key)
        )
        return spec_text(doc).replace("{}", "").strip()

    def input_name(self, key: str) -> str:
        """What an input is, in a player's words (its ``booklet: names`` entry, else its doc)."""
        doc = self.proto.inputs[key].doc if key in self.proto.inputs else ""
        if key in self.names or not doc:
            return self.term(key)
        return spec_text(doc).strip()

    def output(self, key: str, value: object) -> str:
        """One output of a run as a sentence: what it is, then its value in words."""
        return outcome_sentence(self.output_name(key), self.value(key, value))

    def legend(self) -> list[str]:
        """How values are laid out with cards, one line per encoding the booklet shows."""
        out = []
        colon = _(": ")
        for enc in self.proto.encodings.values():
            if enc.kind not in ("values", "onehot"):
                continue
            words = self.names.get(enc.name)
            if words is not None and words.says:
                name, says = spec_text(words.name), spec_text(words.says)
                out.append(f"{name[:1].upper()}{name[1:]}{colon}{says}")
            elif enc.kind == "values":
                parts = [
                    _("{cards} means {value}").format(
                        cards=" ".join(glyph(s) for s in cards), value=self.value(enc.name, k)
                    )
                    for k, cards in enc.table.items()
                ]
                term = self.term(enc.name)
                out.append(f"{term[:1].upper()}{term[1:]}{colon}{listing(parts)}")
            else:
                out.append(f"{self.term(enc.name)}{colon}{enc.describe()}")
        return out


def _is_pile(owner: str) -> bool:
    """An owner that is a pile of cards, not a person (the draw pile, the boneyard)."""
    low = owner.lower()
    return any(w in low for w in ("pile", "boneyard", "stock", "deck"))


def _key(value: object) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)


def in_words(value: object) -> str:
    """A value as a player reads it: yes/no, none, card glyphs, lists as "a, b and c"."""
    if value is True or str(value) == "True":
        return _("yes")
    if value is False or str(value) == "False":
        return _("no")
    if value is None or str(value) in ("None", "none"):
        return _("none")
    if isinstance(value, list | tuple):
        parts = [in_words(v) for v in value]
        return listing(parts) if parts else _("none")
    text = str(value)
    if text.startswith("[") and text.endswith("]"):  # a list as the trace writes it: [c1, c3]
        return in_words([t.strip() for t in text[1:-1].split(",") if t.strip()])
    return glyph(text)


def outcome_sentence(doc: str, value: str) -> str:
    """``doc: value.``, the first letter capitalised; a long value is left to the picture."""
    text = value if len(value) <= 60 else _("as the last picture shows")
    doc = doc.strip().rstrip(".")
    first = doc.split(" ", 1)[0]
    if len(first) > 1 and first.isalpha() and first.islower():  # "whether ...", not "x AND y"
        doc = doc[:1].upper() + doc[1:]
    return _("{what}: {value}.").format(what=doc, value=text)


def quantities_of(name: str, library: Library | None = None) -> Callable[[Mapping[str, object]], str]:
    """How a protocol's parameters are said (``3 cards in the lottery``): its glossary's words
    when the library knows it; a spec given by its file path, which the shipped library does not
    know, keeps its parameters' names (``m: 3``) rather than stopping the build."""
    try:
        proto = (library or Library()).protocol(name)
    except UsageError:
        return lambda values: listing([f"{k}: {in_words(v)}" for k, v in values.items()])
    return Glossary(proto).quantities
