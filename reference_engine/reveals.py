"""What a correct table can show at each reveal, derived from every possible run.

A booklet tells the table, at each step where cards are turned face up, what it may see
and that anything else means a mistake earlier. That knowledge must come from the engine,
not from a writer: :func:`possible_reveals` runs the exact verifier with reveal recording
on (every input, every shuffle outcome) and collects, per protocol step, the set of
possible observations. :func:`characterise` then states them as a few checkable facts
from a fixed family, each with a sentence for the booklet:

* ``only``: which kinds of card can appear (α and β; θ cards; game cards);
* ``pairs``: the turned cards fall into groups of an encoding's width (a column of two,
  or neighbours in a row) and every group is a codeword (α β or β α);
* ``value_count``: how many groups can show a value (at most one pair shows β α);
* ``count``: a card that always appears exactly once (the ♥ of a one-hot number);
* ``same_cards``: the turned cards are always the same collection, only the order varies;
* ``one_of``: the complete list, when there are at most four possibilities.

Every fact holds for every recorded observation by construction; :meth:`Reveal.allows`
checks an observation against the facts, so a table (or a test) can tell a mistake.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .cards import SYMBOLS
from .registry import Library
from .spec import Params, Protocol
from .verify import run_exact, setting

Observation = tuple[tuple[str, int, int, str], ...]  # (region, row, column, symbol) per turned card
MAX_LISTED = 4


@dataclass(frozen=True)
class Fact:
    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, **self.data}


@dataclass
class Reveal:
    """The possible observations at one step of one protocol, and what they have in common."""

    protocol: str
    step: str
    observations: list[Observation]
    facts: list[Fact]
    proto: Protocol = field(repr=False)

    def allows(self, obs: Observation) -> bool:
        """Whether ``obs`` satisfies every fact (a correct table always does)."""
        encodings = _pair_encodings(self.proto)
        return all(_holds(f, obs, encodings, self.proto) for f in self.facts)

    def to_json(self) -> dict[str, Any]:
        return {
            "protocol": self.protocol,
            "step": self.step,
            "observations": len(self.observations),
            "facts": [f.to_json() for f in self.facts],
        }


def possible_reveals(
    library: Library, proto: Protocol, params: Params | None = None, scenario: str | None = None
) -> dict[tuple[str, str], Reveal]:
    """Every reveal of ``proto`` and its sub-protocols, exactly, in the verification setting."""
    st_ = setting(proto, params, scenario)
    runner = run_exact(library, proto, st_.params, st_.context, st_.deal, record_reveals=True).runner
    return reveals_from(library, runner.shared.reveals or {})


def reveals_from(
    library: Library, recorded: dict[tuple[str, str], set[Observation]]
) -> dict[tuple[str, str], Reveal]:
    """Characterise recorded observations (from a run or a ``verify(..., record_reveals=True)``)."""
    out: dict[tuple[str, str], Reveal] = {}
    for (name, step), observations in sorted(recorded.items(), key=lambda kv: kv[0]):
        declaring = library.protocol(name)
        obs = sorted(observations)
        encodings = _pair_encodings(declaring)
        out[(name, step)] = Reveal(name, step, obs, characterise(declaring, obs, encodings), declaring)
    return out


# --------------------------------------------------------------------------- facts


def _pair_encodings(proto: Protocol) -> dict[str, dict[str, tuple[str, ...]]]:
    """Value tables of the protocol's multi-card encodings: name -> {value text: symbols}."""
    out = {}
    for name, enc in proto.encodings.items():
        if enc.kind == "values" and enc.table and min(len(v) for v in enc.table.values()) >= 2:
            out[name] = {str(k): tuple(v) for k, v in enc.table.items()}
    return out


def category(proto: Protocol, symbol: str) -> tuple[str, str]:
    """(key, words) of the kind of card ``symbol`` is, for sentences: α, θ cards, game cards."""
    for decl in proto.symbols.values():
        if decl.family:
            suffix = symbol[len(decl.name) :]
            if symbol.startswith(decl.name) and suffix.isdigit():
                base = decl.glyph.replace("{}", "")
                return decl.name, f"{base} cards"
        elif decl.name == symbol:
            return decl.name, decl.glyph
    return "game", "game cards"


def glyph(symbol: str, proto: Protocol | None = None) -> str:
    """How ``symbol`` is printed. A family member this process never drew itself (λ1, seen only by
    a verification worker) gets its glyph from ``proto``'s family template, not its bare name."""
    sym = SYMBOLS.get(symbol)
    if sym is not None:
        return sym.glyph
    for decl in proto.symbols.values() if proto is not None else ():
        suffix = symbol[len(decl.name) :]
        if decl.family and symbol.startswith(decl.name) and suffix.isdigit():
            template = decl.glyph
            return template.replace("{}", suffix) if "{}" in template else f"{template}{suffix}"
    return symbol


def _groups(obs: Observation, width: int) -> list[tuple[str, ...]] | None:
    """The turned cards cut into groups of ``width``: by column, else along rows."""
    by_col: dict[tuple[str, int], list[tuple[int, str]]] = {}
    for reg, r, c, sym in obs:
        by_col.setdefault((reg, c), []).append((r, sym))
    if all(len(v) == width for v in by_col.values()):
        groups = []
        for key in sorted(by_col):
            cells = sorted(by_col[key])
            if [r for r, _ in cells] != list(range(cells[0][0], cells[0][0] + width)):
                break
            groups.append(tuple(s for _, s in cells))
        else:
            return groups
    by_row: dict[tuple[str, int], list[tuple[int, str]]] = {}
    for reg, r, c, sym in obs:
        by_row.setdefault((reg, r), []).append((c, sym))
    groups = []
    for key in sorted(by_row):
        cells = sorted(by_row[key])
        if len(cells) % width:
            return None
        for i in range(0, len(cells), width):
            chunk = cells[i : i + width]
            if [c for c, _ in chunk] != list(range(chunk[0][0], chunk[0][0] + width)):
                return None
            groups.append(tuple(s for _, s in chunk))
    return groups


def _decode(groups: list[tuple[str, ...]], table: dict[str, tuple[str, ...]]) -> list[str] | None:
    inverse = {v: k for k, v in table.items()}
    out = []
    for g in groups:
        if g not in inverse:
            return None
        out.append(inverse[g])
    return out


def _count(n: int) -> str:
    return ("no", "one", "two", "three", "four")[n] if n < 5 else str(n)


def _plural(n: int, one: str, many: str) -> str:
    return one if n == 1 else many


def characterise(
    proto: Protocol, observations: list[Observation], encodings: dict[str, dict[str, tuple[str, ...]]]
) -> list[Fact]:
    """The facts every observation shares (see the module docs for the family)."""
    if not observations:
        return []
    facts: list[Fact] = []
    kinds: dict[str, str] = {}
    for obs in observations:
        for *_, sym in obs:
            key, words = category(proto, sym)
            kinds[key] = words
    names = sorted(kinds.values())
    facts.append(
        Fact(
            "only",
            "Only "
            + " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
            + " appear.",
            {"kinds": sorted(kinds)},
        )
    )
    paired = False
    for name, table in encodings.items():
        width = len(next(iter(table.values())))
        decoded = []
        for obs in observations:
            groups = _groups(obs, width)
            values = _decode(groups, table) if groups else None
            if values is None:
                break
            decoded.append(values)
        else:
            paired = True
            word = "pair" if width == 2 else f"group of {width}"
            shown = " or ".join(
                f"{' '.join(glyph(s, proto) for s in syms)} (= {v})" for v, syms in table.items()
            )
            facts.append(
                Fact(
                    "pairs", f"Each {word} of turned cards shows {shown}.", {"encoding": name, "width": width}
                )
            )
            sizes = {len(v) for v in decoded}
            if len(sizes) != 1:
                continue
            (g,) = sizes
            ranges = {v: (min(d.count(v) for d in decoded), max(d.count(v) for d in decoded)) for v in table}
            order = sorted(table, key=lambda v: (ranges[v][1], v))
            if len(order) == 2 and g > 1:
                order = order[:1]
            for v in order:
                lo, hi = ranges[v]
                syms = " ".join(glyph(s, proto) for s in table[v])
                # Worded without the number of groups, which depends on the parameters.
                if lo == hi == 0:
                    text = f"No {word} shows {syms}."
                elif lo == hi and g > 1:
                    words = _plural(lo, word, word + "s")
                    text = f"Exactly {_count(lo)} {words} {_plural(lo, 'shows', 'show')} {syms}."
                elif lo == 0 and hi < g:
                    text = f"At most {_count(hi)} {word} {_plural(hi, 'shows', 'show')} {syms}."
                else:
                    continue
                facts.append(Fact("value_count", text, {"encoding": name, "value": v, "min": lo, "max": hi}))
    # A card that always appears exactly once (the ♥ of a one-hot row), whatever the sizes.
    if not paired:
        singles = None
        for obs in observations:
            once = {sym for sym, n in Counter(s for *_, s in obs).items() if n == 1}
            singles = once if singles is None else singles & once
        for sym in sorted(singles or ()):
            key, _ = category(proto, sym)
            if key != "game" and not proto.symbols[key].family and len(observations[0]) > 1:
                facts.append(
                    Fact("count", f"Exactly one {glyph(sym, proto)} appears.", {"symbol": sym, "count": 1})
                )
    bags = {tuple(sorted(Counter(s for *_, s in obs).items())) for obs in observations}
    if len(bags) == 1 and len(observations[0]) > 1 and len(observations) > 1 and not paired:
        facts.append(
            Fact(
                "same_cards",
                "Always the same cards, only their order changes.",
                {"cards": dict(next(iter(bags)))},
            )
        )
    sequences = sorted({tuple(s for *_, s in obs) for obs in observations})
    if not paired and len(sequences) <= MAX_LISTED:
        listed = "; ".join(" ".join(glyph(s, proto) for s in seq) for seq in sequences)
        facts.append(
            Fact(
                "one_of",
                f"The cards show {'exactly' if len(sequences) == 1 else 'one of'}: {listed}.",
                {"sequences": [list(s) for s in sequences]},
            )
        )
    return facts


def _holds(
    fact: Fact, obs: Observation, encodings: dict[str, dict[str, tuple[str, ...]]], proto: Protocol
) -> bool:
    d = fact.data
    if fact.kind == "only":
        return all(category(proto, sym)[0] in d["kinds"] for *_, sym in obs)
    if fact.kind in ("pairs", "value_count"):
        table = encodings[d["encoding"]]
        groups = _groups(obs, len(next(iter(table.values()))))
        values = _decode(groups, table) if groups else None
        if values is None:
            return False
        if fact.kind == "value_count":
            return bool(d["min"] <= values.count(d["value"]) <= d["max"])
        return True
    if fact.kind == "count":
        return bool(sum(1 for *_, s in obs if s == d["symbol"]) == d["count"])
    if fact.kind == "same_cards":
        return bool(dict(Counter(s for *_, s in obs)) == d["cards"])
    if fact.kind == "one_of":
        return [s for *_, s in obs] in d["sequences"]
    return True
