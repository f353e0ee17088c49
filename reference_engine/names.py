"""Which names a spec's expressions may use, checked when the spec loads.

Every name an expression uses must be declared (a parameter, card, encoding, input, region or
variable); every function must exist; ``equals`` may use the inputs, the parameters and outputs
that are random choices, never the output itself or another output (that would make the
correctness check pass whatever the protocol does).
"""

from __future__ import annotations

from .declarations import HAND_IS_UNORDERED, HAND_NAME, OutputDecl, Protocol
from .expressions import Expression
from .functions import BUILTINS
from .schema import Checker
from .source import KeyPath
from .steps import Call, For, Let, Move, Place, Step, Take, walk


def _regions_and_variables(proto: Protocol) -> tuple[set[str], set[str]]:
    """The places the steps put cards in (inputs included) and the variables they bind."""
    regions = set(proto.inputs)
    variables: set[str] = set()
    for s in walk(proto.steps):
        if isinstance(s, Place):
            regions |= {t.name for t, _, _ in s.targets if t.name}
        elif isinstance(s, Move):
            regions |= {t.name for t, _ in s.pairs if t.name}
        elif isinstance(s, Take):
            regions.add(s.into)
        elif isinstance(s, Call):
            regions |= {t.name for t in s.results.values() if t.name}
        elif isinstance(s, For):
            variables.add(s.var)
        elif isinstance(s, Let):
            variables |= set(s.values)
    return regions, variables


def declared_names(proto: Protocol) -> dict[str, str]:
    """Every name a spec declares, with what it names (a page for players must not print them:
    ``kitgen.jargon``): parameter, card, card family, encoding, input, output, place, variable,
    game function, scenario."""
    regions, variables = _regions_and_variables(proto)
    out: dict[str, str] = {}
    for kind, names in (
        ("scenario", proto.scenarios),
        ("game function", proto.context),
        ("variable", variables),
        ("place", regions),
        ("output", proto.outputs),
        ("input", proto.inputs),
        ("encoding", proto.encodings),
        ("card", {s.name for s in proto.symbols.values() if not s.family}),
        ("card family", {s.name for s in proto.symbols.values() if s.family}),
        ("parameter", proto.params),
    ):
        for name in names:
            out[str(name)] = kind
    return out


def expression_texts(proto: Protocol) -> list[str]:
    """The text of every expression written in a spec (steps, outputs, inputs, expectations)."""
    found: list[Expression | None] = []
    for s in walk(proto.steps):
        found += [e for e, _ in _step_exprs(s)]
    for o in proto.outputs.values():
        found += [o.equals, o.uniform, o.value, o.cards.expr if o.cards is not None else None]
    for i in proto.inputs.values():
        found += [i.count, i.groups]
    for exp in proto.expect.values():
        found += [exp.value, *exp.by_symbol.values()]
    found.append(proto.admissible)
    seen: dict[str, None] = {}
    for e in found:
        if e is not None:
            seen.setdefault(" ".join(e.text.split()), None)
    return list(seen)


def check_names(ck: Checker, proto: Protocol) -> None:
    """Every name an expression uses must be declared; every function must exist."""
    families = {s.name for s in proto.symbols.values() if s.family}
    plain_symbols = {s.name for s in proto.symbols.values() if not s.family}
    functions = set(BUILTINS) | set(proto.encodings) | families | set(proto.context)
    regions, variables = _regions_and_variables(proto)
    base = set(proto.params) | plain_symbols | set(proto.encodings)
    clash = (regions | variables) & (plain_symbols | set(proto.encodings) | set(proto.params))
    for name in sorted(clash):
        ck.error(("steps",), f"{name!r} names both a region or variable and a card, encoding or parameter")

    def check(expr: Expression | None, path: KeyPath, scope: set[str]) -> None:
        if expr is None:
            return
        for n in sorted(expr.names() - scope):
            if HAND_NAME.match(n):
                ck.error(path, f"{expr.text!r}: {HAND_IS_UNORDERED.format(name=n)}")
            else:
                ck.error(path, f"unknown name {n!r} in {expr.text!r}")
        for f in sorted(expr.calls() - functions):
            ck.error(path, f"unknown function {f!r} in {expr.text!r}")

    table_scope = base | regions | variables
    for s in walk(proto.steps):
        for e, path in _step_exprs(s):
            check(e, path, table_scope)
        if s.say is not None:
            for part in s.say.parts:
                if isinstance(part, Expression):
                    check(part, s.path + ("say",), table_scope)
    value_scope = base | set(proto.inputs)
    for name in sorted(set(proto.outputs) & (set(proto.inputs) | set(proto.params))):
        ck.error(("outputs", name), f"{name!r} names both an output and an input or parameter")
    random_choices = {o.name for o in proto.outputs.values() if o.choice is not None}
    for o in proto.outputs.values():
        if o.equals is not None:
            _check_equals(ck, o, proto, value_scope, random_choices)
        check(o.equals, o.path + ("equals",), value_scope | set(proto.outputs))
        check(o.uniform, o.path + ("uniform",), value_scope)
        check(o.weighted, o.path + ("weighted",), value_scope)
        check(o.value, o.path + ("value",), table_scope)
        if o.cards is not None:
            check(o.cards.expr, o.path + ("cards",), table_scope)
    for i in proto.inputs.values():
        check(i.count, i.path + ("count",), set(proto.params))
        check(i.groups, i.path + ("groups",), set(proto.params))
    for exp in proto.expect.values():
        check(exp.value, exp.path, set(proto.params))
        for x in exp.by_symbol.values():
            check(x, exp.path, set(proto.params))
    for enc in proto.encodings.values():
        check(enc.length, ("encodings", enc.name), set(proto.params))
        check(enc.first, ("encodings", enc.name), set(proto.params))
    if proto.helpers:
        for k, h in proto.helpers.items():
            check(h, ("helpers", k), set(proto.params))
    check(proto.admissible, ("admissible",), value_scope)
    declared = declared_names(proto)
    for name in proto.booklet.names:
        if name not in declared:
            ck.error(
                ("booklet", "names", name),
                f"{name!r} is not a name of this spec (its names: {', '.join(sorted(declared)) or 'none'})",
            )
    for player in proto.players.values():
        for n, e in enumerate(player.knows):
            check(e, player.path + ("knows", n), value_scope)
    numbers: dict[str, KeyPath] = {}
    for s in walk(proto.steps):
        if s.number is not None:
            if s.number in numbers:
                ck.error(s.path + ("step",), f"step {s.number} is numbered twice")
            numbers[s.number] = s.path


def _check_equals(
    ck: Checker, out: OutputDecl, proto: Protocol, value_scope: set[str], random_choices: set[str]
) -> None:
    """``equals`` is what the output must be; it may not lean on what the run produced.

    It may name the inputs and parameters, and outputs that are random choices (``uniform`` or
    ``weighted``),
    whose own distribution is checked separately: then the pair is fully specified (e.g. the
    hand that is left is the hand without the uniformly chosen card). Naming the output
    itself, or any other output, would let the check pass whatever the protocol does.
    """
    assert out.equals is not None
    path = out.path + ("equals",)
    rule = (
        "'equals' may use the inputs, the parameters and outputs that are random choices "
        "(declared with 'uniform' or 'weighted')"
    )
    for n in sorted(out.equals.names() & set(proto.outputs)):
        if n in value_scope:
            ck.error(path, f"{out.equals.text!r}: {n!r} names both an output and a card or encoding")
        elif n == out.name:
            ck.error(
                path, f"{rule}: {out.equals.text!r} names the output {n!r} itself, so it could never fail"
            )
        elif n not in random_choices:
            ck.error(path, f"{rule}: {out.equals.text!r} names the output {n!r}, which is not one")


def _step_exprs(s: Step) -> list[tuple[Expression | None, KeyPath]]:
    """Every expression of a step with the key path where it is written."""
    from . import steps as st

    p = s.path
    out: list[tuple[Expression | None, KeyPath]] = [(e, p + ("labels",)) for e, _ in s.labels]
    if isinstance(s, st.Place):
        for t, _form, items in s.targets:
            out += [(t.expr, p + ("place", t.text)), (items, p + ("place", t.text))]
    elif isinstance(s, st.Rearrange):
        out.append((s.order, p + ("rearrange", s.region)))
    elif isinstance(s, st.Swap):
        out += [(s.a, p + ("swap", 0)), (s.b, p + ("swap", 1))]
    elif isinstance(s, st.Move):
        for t, e in s.pairs:
            out += [(t.expr, p + ("move", t.text)), (e, p + ("move", t.text))]
    elif isinstance(s, st.Take):
        out.append((s.columns, p + ("take", "columns")))
    elif isinstance(s, st.Shuffle):
        out.append((s.piles, p + ("shuffle",)))
    elif isinstance(s, st.Turn):
        out.append((s.what, p + ("turn",)))
    elif isinstance(s, st.Rotate):
        out.append((s.what, p + ("rotate",)))
    elif isinstance(s, st.Discard):
        out.append((s.what, p + ("discard",)))
    elif isinstance(s, st.Shift):
        out += [(s.piles, p + ("shift", "piles")), (s.until, p + ("shift", "until"))]
    elif isinstance(s, st.Return):
        out += [(s.cards, p + ("return", "cards")), (s.to, p + ("return", "to"))]
    elif isinstance(s, st.If):
        out.append((s.cond, p + ("if",)))
    elif isinstance(s, st.For):
        out.append((s.values, p + ("for",)))
    elif isinstance(s, st.Call):
        out += [(e, p + ("params", k)) for k, e in s.params.items()]
        out += [(e, p + ("with", k)) for k, e in s.args.items()]
        out += [(t.expr, p + ("results", k)) for k, t in s.results.items()]
    elif isinstance(s, st.Let):
        out += [(e, p + ("let", k)) for k, e in s.values.items()]
    return out
