"""Protocol specs: the YAML format, its model and its validation.

A spec mirrors a paper's protocol one-to-one (see README, "Writing a protocol spec")::

    protocol: six-card-and            # the name used on the command line and in calls
    title: Six-card AND (Mizuki-Sone)
    summary: one line for `kitgen list`
    source: {cite: "...", section: "2.4"}
    params: {m: {default: 3, min: 1, doc: "..."}}
    symbols: {alpha: {glyph: α}, theta: {family: true, glyph: "θ{}"}}
    encodings: {bit: {values: {0: [alpha, beta], 1: [beta, alpha]}}}
    inputs: {x: {encoding: bit}, c: {encoding: card, count: m}}
    helpers: {alpha: 1, beta: 1}      # cards in the supply (omit: unlimited, measured)
    steps: [...]                       # see steps.py
    outputs: {and: {cards: "s[3..4]", encoding: bit, equals: "x and y"}}
    expect: {shuffles: {value: 1, cite: "..."}}
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .cards import NAME_RE, ROTATIONS, SYMBOLS
from .declarations import (
    HAND_IS_UNORDERED,
    HAND_NAME,
    SHOW_IN_ORDER,
    SHOW_KINDS,
    SHOW_MIXED,
    BookletText,
    ExpectDecl,
    InputDecl,
    OutputDecl,
    Param,
    Params,
    ParamValue,
    PlayerDecl,
    Protocol,
    Scenario,
    SymbolDecl,
    Words,
    require,
)
from .encodings import Encoding
from .errors import Problem, SpecError
from .expressions import Expression
from .functions import OUTPUT_DECODERS
from .schema import Checker, check_lengths
from .sleeves import parse_declared
from .source import KeyPath, Source, load_file, load_text, read_text
from .stepparser import parse_steps, parse_target
from .steps import (
    IDENT,
    Step,
)

TOP_KEYS = (
    "protocol",
    "title",
    "summary",
    "source",
    "params",
    "symbols",
    "encodings",
    "inputs",
    "helpers",
    "admissible",
    "steps",
    "outputs",
    "expect",
    "notes",
    "context",
    "scenarios",
    "booklet",
    "table",
    "players",
    "sleeves",
)
# The longest text each key may hold (README, "Top-level keys"); every other text (an expression,
# a name) at most MAX_EXPRESSION characters, every key at most MAX_KEY. The built-in specs'
# longest are a fifth of these: overview 701, say 404, if_wrong 408, equals 440.
TEXT_LIMITS = {
    "protocol": 64,
    "title": 120,
    "summary": 300,
    "say": 1_200,
    "brief": 160,
    "note": 300,
    "overview": 3_000,
    "if_wrong": 1_500,
    "notes": 5_000,
    "doc": 1_000,
    "source": 500,
    "cite": 500,
    "how": 500,
    "glyph": 8,
    "labels": 120,
    "regions": 120,
}
MAX_EXPRESSION = 2_000
MAX_KEY = 200

EXPECT_KEYS = ("cards", "helper_cards", "shuffles", "turns", "steps", "cards_by_symbol", "calls", "table")


def load_protocol(path: str | Path) -> Protocol:
    return build(load_file(path))


def load_protocol_checked(path: str | Path) -> tuple[Protocol | None, list[Problem]]:
    """Load a spec and collect its problems without raising (the registry adds call checks).

    A spec that loads without a problem is kept for the process by its file's name and text
    (:data:`_CHECKED`): a second :class:`~reference_engine.registry.Library` (every game, build
    and test makes its own) gets the same :class:`Protocol` without parsing or checking it again.
    A protocol is a function of its file's name and text alone (its calls are checked by each
    library), and nothing changes one once built; the problems come back in a list of the
    caller's own."""
    file = str(Path(path))
    text = read_text(path)
    key = (file, text)
    hit = _CHECKED.get(key)
    if hit is not None and _cards_as_checked(hit):
        _register(hit.symbols)  # as checking it again would (another spec may have paired them since)
        return hit, []
    proto, problems = analyse(load_text(text, file))
    if proto is not None and not problems:
        if len(_CHECKED) >= _CHECKED_MAX:
            _CHECKED.clear()
        _CHECKED[key] = proto
    return proto, problems


def _cards_as_checked(proto: Protocol) -> bool:
    """Whether every card ``proto`` declares is printed as when it was checked: the check reads
    the cards the process knows (:data:`SYMBOLS`), so a family another spec declared since with
    a glyph would clash with ``glyph: x``, or lend a card without a glyph its own; then the spec
    is checked again."""
    for decl in proto.symbols.values():
        known = SYMBOLS.get(decl.name)
        if known is None or known.glyph != decl.glyph:
            return False
    return True


def _register(symbols: dict[str, SymbolDecl]) -> None:
    """The process's cards learn a checked spec's: their glyphs and up-down pairs."""
    for decl in symbols.values():
        SYMBOLS.declare(decl.name, decl.glyph)
    for decl in symbols.values():
        if decl.rotated:
            ROTATIONS.pair(SYMBOLS.intern(decl.name), SYMBOLS.intern(decl.rotated))


# Checked protocols by (file name, text), for the process (see load_protocol_checked).
_CHECKED: dict[tuple[str, str], Protocol] = {}
_CHECKED_MAX = 256  # protocols; the built-in library has 25


def load_protocol_text(text: str, file: str = "<text>") -> Protocol:
    return build(load_text(text, file))


def build(src: Source) -> Protocol:
    """Validate a loaded document and build the model; raise SpecError with every problem."""
    proto, problems = analyse(src)
    if problems or proto is None:
        raise SpecError(problems)
    return proto


def analyse(src: Source) -> tuple[Protocol | None, list[Problem]]:
    """Build the model and collect every problem found (the model may be partial)."""
    ck = Checker(src)
    if not check_lengths(ck, src.data, TEXT_LIMITS, MAX_EXPRESSION, MAX_KEY):
        return None, ck.problems  # nothing else is read: the parser would spend its time on them
    doc = ck.mapping(
        src.data, (), required=("protocol", "title", "steps"), optional=TOP_KEYS, what="a protocol spec"
    )
    if doc is None:
        return None, ck.problems
    name = ck.string(doc.get("protocol"), ("protocol",), "a protocol name") or "?"
    if name != "?" and not all(ch.isalnum() or ch in "-_" for ch in name):
        ck.error(("protocol",), f"{name!r}: use letters, digits, '-' and '_' only")
    title = ck.string(doc.get("title", name), ("title",)) or name
    summary = doc.get("summary", "")
    source: dict[str, str] = {}
    if "source" in doc:
        for k, v in ck.table(doc["source"], ("source",)).items():
            s = ck.string(v, ("source", k))
            if s is not None:
                source[str(k)] = s
    params = _params(ck, doc.get("params", {}))
    symbols = _symbols(ck, doc.get("symbols", {}))
    encodings = _encodings(ck, doc.get("encodings", {}), symbols)
    inputs = _inputs(ck, doc.get("inputs", {}), encodings)
    helpers = None
    if "helpers" in doc:
        helpers = {}
        for k, v in ck.table(doc["helpers"], ("helpers",)).items():
            e = ck.expr(v, ("helpers", k))
            if str(k) not in symbols:
                ck.error(("helpers", k), f"unknown card {k!r}: declare it under 'symbols'")
            elif isinstance(v, int) and not isinstance(v, bool) and v < 0:
                ck.error(("helpers", k), f"a count of spare cards is at least 0, got {v}")
            elif e is not None:
                helpers[str(k)] = e
    admissible = ck.expr(doc["admissible"], ("admissible",)) if "admissible" in doc else None
    steps = parse_steps(ck, doc.get("steps", []), ("steps",), top=True)
    _check_during(ck, steps)
    table = (
        ck.string(doc["table"], ("table",), "how the table does this protocol, for the booklet")
        if "table" in doc
        else None
    )
    outputs = _outputs(ck, doc.get("outputs", {}), encodings)
    expect = _expect(ck, doc.get("expect", {}), symbols)
    notes = doc.get("notes", "") or ""
    context: dict[str, str] = {}
    for k, v in ck.table(doc.get("context", {}), ("context",)).items():
        spec = ck.mapping(v, ("context", k), optional=("doc",))
        if not NAME_RE.match(str(k)):
            ck.error(("context", k), f"{k!r} is not a function name")
        context[str(k)] = str((spec or {}).get("doc", ""))
    scenarios = _scenarios(ck, doc.get("scenarios", {}))
    booklet = _booklet(ck, doc.get("booklet", {}), scenarios)
    players = _players(ck, doc.get("players", {}))
    sleeves = parse_declared(ck, doc["sleeves"]) if "sleeves" in doc else {}
    proto = Protocol(
        name=name,
        title=title,
        summary=str(summary),
        source=source,
        file=src.file,
        params=params,
        symbols=symbols,
        encodings=encodings,
        inputs=inputs,
        helpers=helpers,
        admissible=admissible,
        steps=steps,
        outputs=outputs,
        expect=expect,
        notes=str(notes),
        src=src,
        context=context,
        scenarios=scenarios,
        booklet=booklet,
        table=table or "",
        players=players,
        sleeves=sleeves,
    )
    from .names import check_names

    check_names(ck, proto)
    if not ck.problems:
        _register(symbols)
    return proto, ck.problems


def _check_during(ck: Checker, steps: list[Step]) -> None:
    """``table: {during: N}`` names an earlier top-level step (the one it runs beside)."""
    seen: set[str] = set()
    for step in steps:
        other = step.table.get("during")
        if other is not None and other not in seen:
            ck.error(
                step.path + ("table", "during"),
                f"step {other!r} is not an earlier step of this protocol (a step can only run "
                "beside one that started before it)",
            )
        if step.number is not None:
            seen.add(step.number)


# --------------------------------------------------------------------------- sections


def _booklet(ck: Checker, raw: Any, scenarios: dict[str, Scenario]) -> BookletText:
    spec = (
        ck.mapping(
            raw,
            ("booklet",),
            optional=("overview", "if_wrong", "example", "regions", "names", "notation", "owners"),
        )
        or {}
    )
    out = BookletText()
    for key in ("overview", "if_wrong"):
        if key in spec:
            setattr(out, key, ck.string(spec[key], ("booklet", key)) or "")
    for k, v in ck.table(spec.get("regions", {}), ("booklet", "regions")).items():
        words = ck.string(v, ("booklet", "regions", k), "a few words naming the place")
        if words:
            out.regions[str(k)] = words
    for k, v in ck.table(spec.get("names", {}), ("booklet", "names")).items():
        named = _words(ck, v, ("booklet", "names", str(k)))
        if named is not None:
            out.names[str(k)] = named
    for k, v in ck.table(spec.get("notation", {}), ("booklet", "notation")).items():
        meaning = ck.string(v, ("booklet", "notation", k), "what the paper's symbol means")
        if meaning:
            out.notation[str(k)] = meaning
    if "owners" in spec:
        owners = ck.listing(spec["owners"], ("booklet", "owners"), "a list of owners' names") or []
        out.owners = [
            ck.string(o, ("booklet", "owners", i), "an owner's name") or "" for i, o in enumerate(owners)
        ]
    if "example" not in spec:
        return out
    p = ("booklet", "example")
    ex = ck.mapping(spec["example"], p, optional=("params", "inputs", "seed", "scenario")) or {}
    for k, v in ck.table(ex.get("params", {}), p + ("params",)).items():
        if isinstance(v, list) and all(isinstance(x, int) for x in v):
            out.example_params[str(k)] = tuple(v)
        elif isinstance(v, int) and not isinstance(v, bool):
            out.example_params[str(k)] = v
        else:
            ck.error(p + ("params", k), "a whole number or a list of them")
    for k, v in ck.table(ex.get("inputs", {}), p + ("inputs",)).items():
        out.example_inputs[str(k)] = ",".join(str(x) for x in v) if isinstance(v, list) else str(v)
    if "seed" in ex:
        out.example_seed = ck.integer(ex["seed"], p + ("seed",), 0) or 0
    if "scenario" in ex:
        name = ck.string(ex["scenario"], p + ("scenario",), "a scenario name")
        if name is not None and name not in scenarios:
            ck.error(p + ("scenario",), f"no scenario {name!r} (scenarios: {', '.join(scenarios) or 'none'})")
        out.example_scenario = name
    return out


def _words(ck: Checker, raw: Any, path: KeyPath) -> Words | None:
    """``theta: owner card`` or ``winner: {name: who wins, values: {1: Alice wins, ...}}``."""
    if isinstance(raw, str):
        return Words(ck.string(raw, path, "a player's words") or "")
    spec = ck.mapping(raw, path, required=("name",), optional=("values", "says"))
    if spec is None or "name" not in spec:
        return None
    values = {
        str(k): ck.string(v, path + ("values", k), "the value in words") or ""
        for k, v in ck.table(spec.get("values", {}), path + ("values",)).items()
    }
    says = ck.string(spec["says"], path + ("says",), "a sentence") or "" if "says" in spec else ""
    return Words(ck.string(spec["name"], path + ("name",), "a player's words") or "", values, says)


def _scenarios(ck: Checker, raw: Any) -> dict[str, Scenario]:
    out = {}
    for k, v in ck.table(raw, ("scenarios",)).items():
        p = ("scenarios", str(k))
        spec = ck.mapping(v, p, required=("game", "deal"), optional=("doc", "params", "state"))
        if spec is None or "game" not in spec or "deal" not in spec:
            continue
        game = ck.string(spec["game"], p + ("game",), "a rule set name") or ""
        deal = [str(c) for c in ck.listing(spec["deal"], p + ("deal",), "a list of cards") or []]
        params: dict[str, ParamValue] = {}
        for name, value in ck.table(spec.get("params", {}), p + ("params",)).items():
            if isinstance(value, list) and all(isinstance(x, int) for x in value):
                params[str(name)] = tuple(value)
            elif isinstance(value, int) and not isinstance(value, bool):
                params[str(name)] = value
            else:
                ck.error(p + ("params", str(name)), "a parameter is a number or a list of numbers")
        state = dict(ck.table(spec.get("state", {}), p + ("state",)))
        out[str(k)] = Scenario(str(k), str(spec.get("doc", "")), game, params, deal, state, p)
    return out


def _params(ck: Checker, raw: Any) -> dict[str, Param]:
    out = {}
    for k, v in ck.table(raw, ("params",)).items():
        p = ("params", k)
        if not NAME_RE.match(str(k)):
            ck.error(p, f"{k!r} is not a parameter name")
            continue
        spec = ck.mapping(v, p, required=("default",), optional=("min", "max", "doc"))
        if spec is None or "default" not in spec:
            continue
        raw_default = spec["default"]
        default: ParamValue | None
        if isinstance(raw_default, list):
            items = [ck.integer(x, p + ("default", i)) for i, x in enumerate(raw_default)]
            default = None if any(x is None for x in items) else tuple(x for x in items if x is not None)
        else:
            default = ck.integer(raw_default, p + ("default",))
        lo = ck.integer(spec["min"], p + ("min",)) if "min" in spec else None
        hi = ck.integer(spec["max"], p + ("max",)) if "max" in spec else None
        if default is None:
            continue
        values = default if isinstance(default, tuple) else (default,)
        if any((lo is not None and v < lo) or (hi is not None and v > hi) for v in values):
            ck.error(p + ("default",), f"default {default} is outside min/max")
        out[str(k)] = Param(str(k), default, lo, hi, str(spec.get("doc", "")))
    return out


def _symbols(ck: Checker, raw: Any) -> dict[str, SymbolDecl]:
    out = {}
    for k, v in ck.table(raw, ("symbols",)).items():
        p = ("symbols", k)
        if not NAME_RE.match(str(k)):
            ck.error(p, f"{k!r} is not a card name (letters, digits and _)")
            continue
        spec = ck.mapping(v if v is not None else {}, p, optional=("glyph", "family", "doc", "rotated"))
        if spec is None:
            continue
        family = spec.get("family", False)
        if not isinstance(family, bool):
            ck.error(p + ("family",), "family must be true or false")
            family = False
        known = SYMBOLS.get(str(k))
        glyph = str(spec.get("glyph", known.glyph if known is not None else k))
        if known is not None and known.glyph != glyph and not family and not SYMBOLS.named_only(str(k)):
            ck.error(p + ("glyph",), f"card {k!r} is already printed as {known.glyph!r} by another spec")
        rotated = ""
        if "rotated" in spec:
            rotated = (
                ck.string(spec["rotated"], p + ("rotated",), "the card it shows after a half turn") or ""
            )
        if rotated and family:
            ck.error(p + ("rotated",), "a family of cards cannot be up-down cards")
        out[str(k)] = SymbolDecl(
            str(k), glyph, family, str(spec.get("doc", "")), rotated if "rotated" in spec else ""
        )
    _rotations(ck, out)
    return out


def _rotations(ck: Checker, symbols: dict[str, SymbolDecl]) -> None:
    """Up-down cards come in pairs: ``up: {rotated: down}`` and ``down: {rotated: up}`` (a half
    turn shows the other one; a card that is its own half turn needs no ``rotated``)."""
    for decl in symbols.values():
        if not decl.rotated:
            continue
        p = ("symbols", decl.name, "rotated")
        other = symbols.get(decl.rotated)
        if other is None:
            ck.error(p, f"{decl.rotated!r} is not a card of this spec: declare it under 'symbols'")
        elif decl.rotated == decl.name:
            ck.error(p, "a card that looks the same after a half turn needs no 'rotated'")
        elif other.rotated != decl.name:
            ck.error(
                p, f"{decl.rotated!r} must say 'rotated: {decl.name}' (a half turn of it shows {decl.name!r})"
            )


def _encodings(ck: Checker, raw: Any, symbols: dict[str, SymbolDecl]) -> dict[str, Encoding]:
    out: dict[str, Encoding] = {}

    def sym(name: Any, path: KeyPath, family: bool = False) -> str:
        s = str(name)
        decl = symbols.get(s)
        if decl is None:
            ck.error(path, f"unknown card {s!r}: declare it under 'symbols'")
        elif decl.family != family:
            ck.error(path, f"{s!r} is {'not ' if family else ''}a family of cards here")
        return s

    for k, v in ck.table(raw, ("encodings",)).items():
        p = ("encodings", k)
        spec = ck.mapping(v, p, optional=("values", "onehot", "label", "card", "doc"))
        if spec is None:
            continue
        kinds = [x for x in ("values", "onehot", "label", "card") if x in spec]
        if len(kinds) != 1:
            ck.error(p, "an encoding is exactly one of: values, onehot, label, card")
            continue
        kind = kinds[0]
        enc = Encoding(str(k), kind, doc=str(spec.get("doc", "")))
        if kind == "values":
            table = {}
            widths = set()
            for val, faces in ck.table(spec["values"], p + ("values",)).items():
                vp = p + ("values", str(val))
                fl = ck.listing(faces, vp, "a list of cards")
                if fl is None:
                    continue
                table[val] = tuple(sym(f, vp) for f in fl)
                widths.add(len(fl))
            if len(widths) > 1:
                ck.error(p + ("values",), "every value must use the same number of cards")
            if len(set(table.values())) != len(table):
                ck.error(p + ("values",), "two values use the same cards, so they cannot be told apart")
            enc.table = table
        elif kind == "onehot":
            oh = ck.mapping(
                spec["onehot"], p + ("onehot",), required=("length", "hot", "cold"), optional=("first",)
            )
            if oh is None or any(x not in oh for x in ("length", "hot", "cold")):
                continue
            enc.length = ck.expr(oh["length"], p + ("onehot", "length"))
            enc.first = ck.expr(oh["first"], p + ("onehot", "first")) if "first" in oh else None
            enc.hot = sym(oh["hot"], p + ("onehot", "hot"))
            enc.cold = sym(oh["cold"], p + ("onehot", "cold"))
        elif kind == "label":
            enc.family = sym(spec["label"], p + ("label",), family=True)
        elif spec["card"] != "any":
            cl = ck.listing(spec["card"], p + ("card",), "a list of cards, or 'any'")
            enc.choices = tuple(sym(c, p + ("card",)) for c in (cl or []))
        out[str(k)] = enc
    return out


def _inputs(ck: Checker, raw: Any, encodings: dict[str, Encoding]) -> dict[str, InputDecl]:
    out = {}
    for k, v in ck.table(raw, ("inputs",)).items():
        p = ("inputs", k)
        if not NAME_RE.match(str(k)):
            ck.error(p, f"{k!r} is not an input name")
            continue
        spec = ck.mapping(v, p, required=("encoding",), optional=("count", "public", "doc", "groups"))
        if spec is None or "encoding" not in spec:
            continue
        enc = str(spec["encoding"])
        if enc not in encodings:
            ck.error(
                p + ("encoding",), f"unknown encoding {enc!r} (declared: {', '.join(encodings) or 'none'})"
            )
        count = ck.expr(spec["count"], p + ("count",)) if "count" in spec else None
        if enc in encodings and encodings[enc].kind == "label" and count is None:
            ck.error(p, f"encoding {enc!r} labels the cards of an array: give a 'count'")
        public = spec.get("public", False)
        if not isinstance(public, bool):
            ck.error(p + ("public",), "public must be true or false")
            public = False
        groups = ck.expr(spec["groups"], p + ("groups",)) if "groups" in spec else None
        if groups is not None and count is None:
            ck.error(p + ("groups",), "'groups' splits an array input into hands: give a 'count' too")
        out[str(k)] = InputDecl(str(k), enc, count, public, str(spec.get("doc", "")), p, groups)
    return out


def _outputs(ck: Checker, raw: Any, encodings: dict[str, Encoding]) -> dict[str, OutputDecl]:
    out = {}
    for k, v in ck.table(raw, ("outputs",)).items():
        p = ("outputs", k)
        spec = ck.mapping(
            v,
            p,
            optional=("cards", "encoding", "value", "public", "equals", "uniform", "weighted", "doc", "show"),
        )
        if spec is None:
            continue
        public = spec.get("public", False)
        if not isinstance(public, bool):
            ck.error(p + ("public",), "public must be true or false")
            public = False
        cards = parse_target(ck, spec["cards"], p + ("cards",)) if "cards" in spec else None
        value = ck.expr(spec["value"], p + ("value",)) if "value" in spec else None
        if (cards is None) == (value is None):
            ck.error(p, "an output has either 'cards' (cards left on the table) or 'value' (a public result)")
        if value is not None and not public:
            ck.error(p, "a 'value' output is read from face-up cards: mark it 'public: true'")
        # A public 'cards' output is a card that is shown to everyone afterwards (a played card).
        decode = None
        if cards is not None:
            decode = str(spec.get("encoding", "cards"))
            if decode not in encodings and decode not in OUTPUT_DECODERS:
                ck.error(
                    p + ("encoding",),
                    f"unknown encoding {decode!r} (declared: "
                    f"{', '.join(list(encodings) + list(OUTPUT_DECODERS))})",
                )
        equals = ck.expr(spec["equals"], p + ("equals",)) if "equals" in spec else None
        uniform = ck.expr(spec["uniform"], p + ("uniform",)) if "uniform" in spec else None
        weighted = ck.expr(spec["weighted"], p + ("weighted",)) if "weighted" in spec else None
        given = [
            k for k, e in (("equals", equals), ("uniform", uniform), ("weighted", weighted)) if e is not None
        ]
        if len(given) > 1:
            ck.error(
                p,
                "give one of 'equals' (a function of the inputs), 'uniform' or 'weighted' (a random "
                f"choice), not {' and '.join(repr(g) for g in given)}",
            )
        show = SHOW_IN_ORDER if public and cards is not None else None
        if "show" in spec:
            show = ck.string(spec["show"], p + ("show",), "how the cards are shown") or show
            if not (public and cards is not None):
                ck.error(
                    p + ("show",), "'show' says how a public card output is shown: mark it 'public: true'"
                )
            elif show not in SHOW_KINDS:
                ck.error(
                    p + ("show",),
                    f"show is {SHOW_IN_ORDER} (the cards are turned over where they lie: the table sees "
                    f"their order) or {SHOW_MIXED} (mixed face down first), not {show!r}",
                )
        out[str(k)] = OutputDecl(
            str(k), cards, decode, value, public, equals, uniform, str(spec.get("doc", "")), p, weighted, show
        )
    return out


def _players(ck: Checker, raw: Any) -> dict[str, PlayerDecl]:
    """Who sits at the table: what each person knows (``knows``) and holds (``hands``)."""
    out: dict[str, PlayerDecl] = {}
    held: dict[str, str] = {}
    for k, v in ck.table(raw, ("players",)).items():
        p = ("players", k)
        if not NAME_RE.match(str(k)):
            ck.error(p, f"{k!r} is not a player name (letters, digits and _)")
            continue
        spec = ck.mapping(v if v is not None else {}, p, optional=("knows", "hands", "virtual", "doc"))
        if spec is None:
            continue
        virtual = spec.get("virtual", False)
        if not isinstance(virtual, bool):
            ck.error(p + ("virtual",), "virtual must be true or false")
            virtual = False
        knows: list[Expression] = []
        raw_knows = spec.get("knows", [])
        for i, item in enumerate(raw_knows if isinstance(raw_knows, list) else [raw_knows]):
            e = ck.expr(item, p + ("knows", i))
            if e is not None:
                knows.append(e)
        if virtual and knows:
            ck.error(p + ("knows",), "a virtual player is cards, not a person: nobody knows its inputs")
        hands: list[str] = []
        raw_hands = spec.get("hands", [])
        for i, item in enumerate(raw_hands if isinstance(raw_hands, list) else [raw_hands]):
            hp = p + ("hands", i)
            if isinstance(item, int) and not isinstance(item, bool) and item >= 1:
                hand = f"hand{item}"
            elif isinstance(item, str) and IDENT.match(item):
                hand = item
            else:
                ck.error(hp, f"a hand is an owner number (2 is P_2's hand) or a hand's name, not {item!r}")
                continue
            if hand in held:
                ck.error(hp, f"{hand} is already held by {held[hand]}: a hand has one holder")
                continue
            held[hand] = str(k)
            hands.append(hand)
        out[str(k)] = PlayerDecl(str(k), knows, hands, virtual, str(spec.get("doc", "")), p)
    return out


def _expect(ck: Checker, raw: Any, symbols: dict[str, SymbolDecl]) -> dict[str, ExpectDecl]:
    out = {}
    for k, v in ck.table(raw, ("expect",)).items():
        p = ("expect", k)
        if k not in EXPECT_KEYS:
            from .schema import unknown_key_message

            ck.error(p, unknown_key_message(str(k), list(EXPECT_KEYS)))
            continue
        spec = ck.mapping(
            v, p, required=("value", "cite"), optional=("note",), what="{value: ..., cite: ...}"
        )
        if spec is None or "value" not in spec:
            continue
        cite = ck.string(spec.get("cite", ""), p + ("cite",), "a citation") or ""
        if k in ("cards_by_symbol", "calls"):
            by = {}
            for s, e in ck.table(spec["value"], p + ("value",)).items():
                if k == "cards_by_symbol" and str(s) not in symbols:
                    ck.error(p + ("value", s), f"unknown card {s!r}")
                ex = ck.expr(e, p + ("value", s))
                if ex is not None:
                    by[str(s)] = ex
            out[str(k)] = ExpectDecl(str(k), None, by, cite, p)
        else:
            out[str(k)] = ExpectDecl(str(k), ck.expr(spec["value"], p + ("value",)), {}, cite, p)
    return out


__all__ = [
    "HAND_IS_UNORDERED",
    "HAND_NAME",
    "SHOW_IN_ORDER",
    "SHOW_KINDS",
    "SHOW_MIXED",
    "BookletText",
    "ExpectDecl",
    "InputDecl",
    "OutputDecl",
    "Param",
    "ParamValue",
    "Params",
    "PlayerDecl",
    "Protocol",
    "Scenario",
    "SymbolDecl",
    "Words",
    "analyse",
    "build",
    "load_protocol",
    "load_protocol_checked",
    "load_protocol_text",
    "require",
]
