"""Encodings: how a value is written with face-down cards.

* ``values``: an explicit table, e.g. a bit as an alpha-beta pair
  (``{0: [alpha, beta], 1: [beta, alpha]}``);
* ``onehot``: an integer as the position of one distinguished card among ``length``
  (``hot`` at position ``v - first + 1``, ``cold`` elsewhere), e.g. Gakmoro's E_m(i);
* ``label``: "an arbitrary card": card i of an input array is the distinct card ``c_i``
  of a symbol family, so the verifier can follow which card went where;
* ``card``: one card whose face is any of a list of symbols.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .cards import SYMBOLS, Symbol
from .expressions import EvalError, Expression, Scope, Value, as_int


class DecodeError(EvalError):
    """Cards that are not a valid encoding of any value."""


@dataclass(eq=False)
class Encoding(Value):
    name: str
    kind: str
    table: dict[Any, tuple[str, ...]] = field(default_factory=dict)
    length: Expression | None = None
    first: Expression | None = None
    hot: str = ""
    cold: str = ""
    family: str = ""
    choices: tuple[str, ...] = ()
    doc: str = ""

    def __repr__(self) -> str:
        return f"Encoding({self.name!r})"

    def bind(self, scope: Scope) -> BoundEncoding:
        if self.kind == "onehot":
            assert self.length is not None
            length = as_int(self.length(scope))
            first = as_int(self.first(scope)) if self.first is not None else 0
            if length < 1:
                raise EvalError(f"encoding {self.name}: length must be at least 1, got {length}")
            return BoundEncoding(self, length, first)
        if self.kind == "values":
            widths = {len(v) for v in self.table.values()}
            return BoundEncoding(self, widths.pop() if widths else 0, 0)
        return BoundEncoding(self, 1, 0)

    def describe(self) -> str:
        if self.kind == "values":
            parts = [f"{k} = {' '.join(_glyph(s) for s in v)}" for k, v in self.table.items()]
            return ", ".join(parts)
        if self.kind == "onehot":
            first = (self.first.text if self.first is not None else "0").strip()
            length = self.length.text if self.length is not None else "?"
            if first == "0":
                where = "v + 1"
            elif first.startswith("-") and (first[1:].strip().isidentifier() or first[1:].strip().isdigit()):
                where = f"v + {first[1:].strip()} + 1"
            else:
                where = f"v - ({first}) + 1"
            return (
                f"value v is {_glyph(self.hot)} at position {where} (from the left) among {length} cards, "
                f"{_glyph(self.cold)} elsewhere"
            )
        if self.kind == "label":
            return f"card i is the distinct card {self.family}_i"
        return "one card: " + ", ".join(_glyph(s) for s in self.choices)


def _glyph(name: str) -> str:
    sym = SYMBOLS.get(name)
    return sym.glyph if sym is not None else name


@dataclass
class BoundEncoding:
    """An encoding with its parameters evaluated (a width and a domain)."""

    encoding: Encoding
    width: int
    first: int

    def domain(self, index: int | None = None) -> list[Any]:
        enc = self.encoding
        if enc.kind == "values":
            return list(enc.table)
        if enc.kind == "onehot":
            return list(range(self.first, self.first + self.width))
        if enc.kind == "label":
            if index is None:
                raise EvalError(f"encoding {enc.name} labels the cards of an array input")
            return [SYMBOLS.intern(f"{enc.family}{index}", f"{_glyph_template(enc.family, index)}")]
        if not enc.choices:
            raise EvalError(
                f"encoding {enc.name} holds any card: its possible values come from a scenario "
                "(verify with «deck» NAME)"
            )
        return [SYMBOLS.intern(s) for s in enc.choices]

    def encode(self, value: Any) -> list[Symbol]:
        enc = self.encoding
        if enc.kind == "values":
            for key, faces in enc.table.items():
                if _same(key, value):
                    return [SYMBOLS.intern(s) for s in faces]
            raise EvalError(f"{enc.name} has no value {value!r} (values: {', '.join(map(repr, enc.table))})")
        if enc.kind == "onehot":
            v = as_int(value)
            if not self.first <= v < self.first + self.width:
                raise EvalError(f"{enc.name} holds {self.first}..{self.first + self.width - 1}, not {v}")
            hot, cold = SYMBOLS.intern(enc.hot), SYMBOLS.intern(enc.cold)
            return [hot if i == v - self.first else cold for i in range(self.width)]
        if isinstance(value, Symbol):
            return [value]
        raise EvalError(f"{enc.name} encodes a card, not {value!r}")

    def decode(self, faces: list[Symbol | None]) -> Any:
        enc = self.encoding
        if any(f is None for f in faces):
            raise DecodeError(f"{enc.name}: a slot is empty")
        if len(faces) != self.width:
            raise DecodeError(f"{enc.name} needs {self.width} cards, got {len(faces)}")
        names = tuple(f.name for f in faces if f is not None)
        if enc.kind == "values":
            for key, pattern in enc.table.items():
                if pattern == names:
                    return key
            raise DecodeError(f"{' '.join(_glyph(n) for n in names)} is not a valid {enc.name}")
        if enc.kind == "onehot":
            hots = [i for i, n in enumerate(names) if n == enc.hot]
            if len(hots) != 1 or any(n not in (enc.hot, enc.cold) for n in names):
                raise DecodeError(f"{' '.join(_glyph(n) for n in names)} is not a valid {enc.name}")
            return self.first + hots[0]
        return faces[0]


def _glyph_template(family: str, index: int) -> str:
    fam = SYMBOLS.get(family)
    template = fam.glyph if fam is not None else family
    return template.replace("{}", str(index)) if "{}" in template else f"{template}{index}"


def _same(key: Any, value: Any) -> bool:
    if isinstance(key, bool) or isinstance(value, bool):
        return (
            int(key) == int(value)
            if isinstance(key, (int, bool)) and isinstance(value, (int, bool))
            else False
        )
    return bool(key == value)


def family_symbol(family: str, index: int) -> Symbol:
    """``theta(3)`` -> the symbol ``theta3`` (glyph from the family's template)."""
    return SYMBOLS.intern(f"{family}{index}", _glyph_template(family, index))
