"""Reading a protocol's steps from its YAML (:func:`parse_steps`): one parser per action, each
giving the dataclass of :mod:`.steps` for it, with one clear message naming the key for what
is wrong. Split from :mod:`.steps`, which holds the steps' dataclasses and the names of the
actions."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from .expressions import Expression
from .schema import Checker, unknown_key_message
from .shuffles import is_permutation
from .sleeves import parse_op
from .source import KeyPath
from .steps import (
    ACTIONS,
    COMMON,
    COMPANIONS,
    IDENT,
    MAX_STEP_NUMBER,
    SHUFFLE_HOLDERS,
    SHUFFLE_KINDS,
    Call,
    Discard,
    Do,
    For,
    If,
    Let,
    Move,
    Note,
    Place,
    Rearrange,
    Return,
    Rotate,
    Shift,
    Shuffle,
    Sleeve,
    Step,
    Swap,
    Take,
    Target,
    Template,
    Turn,
)


def parse_steps(ck: Checker, value: Any, path: KeyPath, top: bool) -> list[Step]:
    items = ck.listing(value, path, "a list of steps")
    if items is None:
        return []
    steps = []
    for i, item in enumerate(items):
        step = parse_step(ck, item, path + (i,), top)
        if step is not None:
            steps.append(step)
    return steps


def parse_template(ck: Checker, text: Any, path: KeyPath) -> Template | None:
    """A sentence with ``{expression}`` parts (``{{`` and ``}}`` are a brace; a lone ``}`` is
    itself). The text between braces is taken whole (a character at a time was a twentieth of a
    spec's load: its sentences are long)."""
    s = ck.string(text, path, "a sentence")
    if s is None:
        return None
    parts: list[str | Expression] = []
    pos = 0
    literal = ""
    while True:
        brace = _BRACE.search(s, pos)
        if brace is None:
            literal += s[pos:]
            break
        at = brace.start()
        literal += s[pos:at]
        if s.startswith("{{", at) or s.startswith("}}", at):
            literal += s[at]
            pos = at + 2
            continue
        if s[at] == "}":
            literal += "}"
            pos = at + 1
            continue
        end = s.find("}", at)
        if end < 0:
            ck.error(path, f"unclosed '{{' in sentence at character {at + 1} (write {{{{ for a brace)")
            return None
        if literal:
            parts.append(literal)
            literal = ""
        e = ck.expr(s[at + 1 : end].strip(), path)
        if e is None:
            return None
        parts.append(e)
        pos = end + 1
    if literal:
        parts.append(literal)
    return Template(s, parts)


_BRACE = re.compile("[{}]")


# How the table does a step's card work (``table:`` on a step), read by kitgen's table-time model:
#   kept     nothing to do at the table: the cards are already where the step puts them (owner
#            cards that live in the sleeves, a card dealt face up by the step before);
#   slide    each card the step places, turns, moves or puts away is slid into or out of a sleeve;
#   sleeves  the piles of a shuffle are sleeves, mixed like a deck and dealt out again (no
#            envelopes); columns taken, moved or given back travel as one sleeve each.
TABLE_HINTS = ("kept", "slide", "sleeves")
TABLE_ACTIONS = (
    "all",
    "place",
    "turn",
    "rotate",
    "move",
    "take",
    "shuffle",
    "discard",
    "return",
    "rearrange",
    "swap",
)


def parse_table_hint(ck: Checker, value: Any, path: KeyPath) -> dict[str, str]:
    """``table: kept`` (every action of the step) or ``table: {turn: slide, during: 10}``."""
    if isinstance(value, str):
        value = {"all": value}
    raw = ck.table(value, path)
    out: dict[str, str] = {}
    for key, hint in (raw or {}).items():
        p = path + (key,)
        if key == "during":
            step = ck.string(hint, p, "the number of the step this one runs beside")
            if step is not None:
                out["during"] = step
        elif key not in TABLE_ACTIONS:
            ck.error(p, unknown_key_message(str(key), list(TABLE_ACTIONS) + ["during"]))
        elif hint not in TABLE_HINTS:
            ck.error(p, f"how the table does it: one of {', '.join(TABLE_HINTS)}, got {hint!r}")
        else:
            out[str(key)] = str(hint)
    return out


def parse_target(ck: Checker, key: Any, path: KeyPath) -> Target | None:
    text = ck.string(key, path, "a place on the table")
    if text is None:
        return None
    if IDENT.match(text):
        return Target(text, text, None)
    e = ck.expr(text, path)
    return None if e is None else Target(text, None, e)


def parse_step(ck: Checker, value: Any, path: KeyPath, top: bool) -> Step | None:
    if not isinstance(value, dict):
        ck.error(path, f"a step must be a mapping with 'say' and an action, got {type(value).__name__}")
        return None
    present = [k for k in ACTIONS if k in value]
    if "for" in present and "do" in present:
        present.remove("do")  # 'do' is the body of the loop
    allowed = list(COMMON) + list(ACTIONS)
    if len(present) == 1:
        allowed += list(COMPANIONS.get(present[0], ()))
    unknown = [key for key in value if key not in allowed]
    for key in unknown:
        ck.error(path + (key,), unknown_key_message(str(key), allowed))
    if len(present) > 1:
        ck.error(
            path,
            f"a step has one action, this one has {', '.join(present)}; "
            "split it or list the actions under 'do'",
        )
        return None
    number = None
    if "step" in value:
        number = ck.string(value["step"], path + ("step",), "a step number")
        if number is not None and len(number) > MAX_STEP_NUMBER:
            ck.error(
                path + ("step",),
                f"a step number of {len(number):,} characters (at most {MAX_STEP_NUMBER}): "
                "the booklet prints it as 'Step ...' beside the step",
            )
            number = None
    say = parse_template(ck, value["say"], path + ("say",)) if "say" in value else None
    if top and number is None and "step" not in value:
        ck.error(path, "a top-level step needs a number ('step: 3') that matches the paper")
    if number is not None and say is None and "say" not in value:
        ck.error(path, f"step {number} needs a sentence ('say:') for the booklet")
    labels: list[tuple[Expression, str]] = []
    if "labels" in value:
        raw = ck.table(value["labels"], path + ("labels",))
        for k, text in (raw or {}).items():
            e = ck.expr(k, path + ("labels", k))
            t = ck.string(text, path + ("labels", k), "label text")
            if e is not None and t is not None:
                labels.append((e, t))
    brief = ck.string(value["brief"], path + ("brief",)) if "brief" in value else None
    table = parse_table_hint(ck, value["table"], path + ("table",)) if "table" in value else {}
    paper = ck.string(value["paper"], path + ("paper",), "the paper's sentence") if "paper" in value else None
    line = ck.source.line(path)
    base: dict[str, Any] = {
        "path": path,
        "line": line,
        "number": number,
        "say": say,
        "labels": labels,
        "brief": brief,
        "table": table,
        "paper": paper,
    }
    if not present and not unknown:  # an unknown key is most likely the action, misspelt
        what = f"step {number}" if number is not None else "a step"
        ck.error(
            path,
            f"{what} has no action (one of {', '.join(a for a in ACTIONS if a != 'note')}); a step "
            "where no card moves says why with 'note:'",
        )
    if not present:
        return Note(**base)
    kind = present[0]
    p = path + (kind,)
    parser = _PARSERS[kind]
    step: Step = parser(ck, value, p, base)
    return step


def _place(ck: Checker, value: dict[str, Any], p: KeyPath, base: dict[str, Any]) -> Step:
    raw = ck.table(value["place"], p)
    targets = []
    for key, spec in (raw or {}).items():
        tp = p + (key,)
        target = parse_target(ck, key, tp)
        form = "row"
        items_value = spec
        if isinstance(spec, dict):
            forms = [k for k in ("row", "rows", "columns") if k in spec]
            ck.mapping(spec, tp, optional=("row", "rows", "columns"))
            if len(forms) != 1:
                ck.error(tp, "give exactly one of row, rows, columns")
                continue
            form = forms[0]
            items_value = spec[form]
            tp = tp + (form,)
        items = ck.expr(items_value, tp)
        if target is not None and items is not None:
            targets.append((target, form, items))
    face = value.get("face", "down")
    if face not in ("up", "down"):
        ck.error(p[:-1] + ("face",), f"face must be 'up' or 'down', got {face!r}")
    return Place(**base, targets=targets, up=face == "up")


def _rearrange(ck: Checker, value: dict[str, Any], p: KeyPath, base: dict[str, Any]) -> Step:
    raw = ck.table(value["rearrange"], p)
    if raw is None:
        return Rearrange(**base)
    if len(raw) != 1:
        ck.error(p, "rearrange one region at a time: {region: [new order]}")
        return Rearrange(**base)
    ((region, spec),) = raw.items()
    axis = "cards"
    order_value = spec
    if isinstance(spec, dict):
        ck.mapping(spec, p + (region,), optional=("cards", "columns", "rows"))
        keys = [k for k in ("cards", "columns", "rows") if k in spec]
        if len(keys) != 1:
            ck.error(p + (region,), "give exactly one of cards, columns, rows")
            return Rearrange(**base)
        axis = keys[0]
        order_value = spec[axis]
    op = p + (region,) + ((axis,) if isinstance(spec, dict) else ())
    if (
        isinstance(order_value, list)
        and all(isinstance(v, int) and not isinstance(v, bool) for v in order_value)
        and not is_permutation([v - 1 for v in order_value], len(order_value))
    ):
        ck.error(
            op,
            f"{order_value} is not a permutation of 1..{len(order_value)}: list every position exactly once",
        )
    order = ck.expr(order_value, op)
    if not IDENT.match(str(region)):
        ck.error(p + (region,), f"{region!r} is not a region name")
    return Rearrange(**base, region=str(region), axis=axis, order=order)


def _swap(ck: Checker, value: dict[str, Any], p: KeyPath, base: dict[str, Any]) -> Step:
    pair = ck.listing(value["swap"], p, "a list of two groups of cards")
    if pair is None or len(pair) != 2:
        if pair is not None:
            ck.error(p, f"swap takes exactly two groups, got {len(pair)}")
        return Swap(**base)
    return Swap(**base, a=ck.expr(pair[0], p + (0,)), b=ck.expr(pair[1], p + (1,)))


def _move(ck: Checker, value: dict[str, Any], p: KeyPath, base: dict[str, Any]) -> Step:
    raw = ck.table(value["move"], p)
    pairs = []
    for key, src in (raw or {}).items():
        target = parse_target(ck, key, p + (key,))
        e = ck.expr(src, p + (key,))
        if target is not None and e is not None:
            pairs.append((target, e))
    return Move(**base, pairs=pairs)


def _take(ck: Checker, value: dict[str, Any], p: KeyPath, base: dict[str, Any]) -> Step:
    raw = ck.mapping(value["take"], p, required=("from", "columns", "into"))
    if raw is None or any(k not in raw for k in ("from", "columns", "into")):
        return Take(**base)
    src = ck.string(raw["from"], p + ("from",), "a region name")
    into = ck.string(raw["into"], p + ("into",), "a region name")
    for name, key in ((src, "from"), (into, "into")):
        if name is not None and not IDENT.match(name):
            ck.error(p + (key,), f"{name!r} is not a region name")
    return Take(**base, source=src or "", columns=ck.expr(raw["columns"], p + ("columns",)), into=into or "")


def _shuffle(ck: Checker, value: dict[str, Any], p: KeyPath, base: dict[str, Any]) -> Step:
    raw = ck.mapping(value["shuffle"], p, optional=SHUFFLE_KINDS + ("piles", "how", "uses"))
    if raw is None:
        return Shuffle(**base)
    uses = ""
    if "uses" in raw:
        uses = ck.string(raw["uses"], p + ("uses",), "what holds each pile") or ""
        if uses and uses not in SHUFFLE_HOLDERS:
            ck.error(p + ("uses",), f"{uses!r}: one of {', '.join(SHUFFLE_HOLDERS)}")
            uses = ""
    base = {**base, "uses": uses}
    kinds = [k for k in SHUFFLE_KINDS if k in raw]
    if len(kinds) != 1:
        ck.error(p, f"give exactly one kind of shuffle: {', '.join(SHUFFLE_KINDS)}")
        return Shuffle(**base)
    how = kinds[0]
    text = raw.get("how", "")
    if how == "set":
        perms_raw = ck.listing(raw["set"], p + ("set",), "a list of permutations")
        perms: list[tuple[int, ...]] = []
        for i, perm in enumerate(perms_raw or []):
            pp = p + ("set", i)
            if not isinstance(perm, list) or not all(isinstance(v, int) for v in perm):
                ck.error(pp, "a permutation is a list of positions like [2, 1, 3]")
                continue
            if not is_permutation([v - 1 for v in perm], len(perm)):
                ck.error(pp, f"{perm} is not a permutation of 1..{len(perm)}")
                continue
            perms.append(tuple(v - 1 for v in perm))
        if perms and len({len(x) for x in perms}) != 1:
            ck.error(p + ("set",), "all permutations in a set must have the same length")
        if not perms_raw:
            ck.error(p + ("set",), "a set lists at least one permutation")
        counts = Counter(perms)
        if len(set(counts.values())) > 1 and not text:
            ck.error(
                p + ("set",),
                "some permutation is listed more often than another, so this shuffle is not uniform "
                "(each entry of the list is equally likely): say in 'how:' how the table draws it, "
                "e.g. with a die",
            )
        if "piles" not in raw:
            ck.error(p, "a shuffle with an explicit set needs 'piles'")
            return Shuffle(**base, how=how, perms=perms, text=text)
        return Shuffle(**base, how=how, piles=ck.expr(raw["piles"], p + ("piles",)), perms=perms, text=text)
    if "piles" in raw:
        ck.error(p + ("piles",), f"'piles' is only for 'set'; write the piles after '{how}:'")
    return Shuffle(**base, how=how, piles=ck.expr(raw[how], p + (how,)), text=text)


def _turn(ck: Checker, value: dict[str, Any], p: KeyPath, base: dict[str, Any]) -> Step:
    return Turn(**base, what=ck.expr(value["turn"], p))


def _rotate(ck: Checker, value: dict[str, Any], p: KeyPath, base: dict[str, Any]) -> Step:
    return Rotate(**base, what=ck.expr(value["rotate"], p))


def _discard(ck: Checker, value: dict[str, Any], p: KeyPath, base: dict[str, Any]) -> Step:
    return Discard(**base, what=ck.expr(value["discard"], p))


def _return(ck: Checker, value: dict[str, Any], p: KeyPath, base: dict[str, Any]) -> Step:
    raw = ck.mapping(value["return"], p, required=("cards", "to"))
    if raw is None or "cards" not in raw or "to" not in raw:
        return Return(**base)
    return Return(**base, cards=ck.expr(raw["cards"], p + ("cards",)), to=ck.expr(raw["to"], p + ("to",)))


def _shift(ck: Checker, value: dict[str, Any], p: KeyPath, base: dict[str, Any]) -> Step:
    raw = ck.mapping(value["shift"], p, required=("piles", "until"))
    if raw is None or "piles" not in raw or "until" not in raw:
        return Shift(**base)
    return Shift(
        **base, piles=ck.expr(raw["piles"], p + ("piles",)), until=ck.expr(raw["until"], p + ("until",))
    )


def _if(ck: Checker, value: dict[str, Any], p: KeyPath, base: dict[str, Any]) -> Step:
    cond = ck.expr(value["if"], p)
    parent = p[:-1]
    if "then" not in value:
        ck.error(parent, "'if' needs 'then' (a list of steps)")
    then = parse_steps(ck, value.get("then", []), parent + ("then",), top=False)
    other = parse_steps(ck, value.get("else", []), parent + ("else",), top=False)
    return If(**base, cond=cond, then=then, other=other)


def _for(ck: Checker, value: dict[str, Any], p: KeyPath, base: dict[str, Any]) -> Step:
    raw = value["for"]
    parent = p[:-1]
    var, values = "", None
    if isinstance(raw, dict) and len(raw) == 1:
        ((var_key, expr_value),) = raw.items()
        var = str(var_key)
        if not IDENT.match(var):
            ck.error(p, f"{var!r} is not a variable name")
        values = ck.expr(expr_value, p + (var_key,))
    else:
        ck.error(p, "write the loop as 'for: {i: 1..m}'")
    if "do" not in value:
        ck.error(parent, "'for' needs 'do' (a list of steps)")
    body = parse_steps(ck, value.get("do", []), parent + ("do",), top=False)
    if value.get("do") == []:
        ck.error(parent + ("do",), "the loop's 'do' lists no steps")
    return For(**base, var=var, values=values, body=body)


def _call(ck: Checker, value: dict[str, Any], p: KeyPath, base: dict[str, Any]) -> Step:
    parent = p[:-1]
    name = ck.string(value["call"], p, "a protocol name") or ""

    def exprs(key: str) -> dict[str, Expression]:
        out: dict[str, Expression] = {}
        raw = value.get(key, {})
        m = ck.table(raw, parent + (key,))
        for k, v in (m or {}).items():
            e = ck.expr(v, parent + (key, k))
            if e is not None:
                out[str(k)] = e
        return out

    results: dict[str, Target] = {}
    raw_results = value.get("results", {})
    rm = ck.table(raw_results, parent + ("results",))
    for k, v in (rm or {}).items():
        t = parse_target(ck, v, parent + ("results", k))
        if t is not None:
            results[str(k)] = t
    hands: dict[str, str] = {}
    for k, v in (ck.table(value.get("hands", {}), parent + ("hands",)) or {}).items():
        mine, theirs = _hand_ref(ck, k, parent + ("hands", k)), _hand_ref(ck, v, parent + ("hands", k))
        if mine is not None and theirs is not None:
            hands[mine] = theirs
    players: dict[str, str] = {}
    for k, v in (ck.table(value.get("players", {}), parent + ("players",)) or {}).items():
        if not IDENT.match(str(k)) or not isinstance(v, str) or not IDENT.match(v):
            ck.error(
                parent + ("players", k),
                f"'players' maps a player of {name} to a player here, by name: not {k!r}: {v!r}",
            )
            continue
        players[str(k)] = v
    return Call(
        **base,
        protocol=name,
        params=exprs("params"),
        args=exprs("with"),
        results=results,
        hands=hands,
        players=players,
    )


def _hand_ref(ck: Checker, value: Any, p: KeyPath) -> str | None:
    """A hand named in a call's ``hands``: an owner number (``2`` is ``hand(2)``) or a hand's name."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
        return f"hand{value}"
    if isinstance(value, str) and value.isdigit() and int(value) >= 1:
        return f"hand{int(value)}"
    if isinstance(value, str) and IDENT.match(value):
        return value
    ck.error(p, f"a hand is an owner number (2 is P_2's hand) or a hand's name, not {value!r}")
    return None


def _let(ck: Checker, value: dict[str, Any], p: KeyPath, base: dict[str, Any]) -> Step:
    raw = ck.table(value["let"], p)
    values: dict[str, Expression] = {}
    for k, v in (raw or {}).items():
        if not IDENT.match(str(k)):
            ck.error(p + (k,), f"{k!r} is not a variable name")
            continue
        e = ck.expr(v, p + (k,))
        if e is not None:
            values[str(k)] = e
    return Let(**base, values=values)


def _do(ck: Checker, value: dict[str, Any], p: KeyPath, base: dict[str, Any]) -> Step:
    body = parse_steps(ck, value["do"], p, top=False)
    if value["do"] == []:
        ck.error(p, "'do' lists no steps: give its steps, or say why no card moves with 'note:'")
    return Do(**base, body=body)


def _sleeve(ck: Checker, value: dict[str, Any], p: KeyPath, base: dict[str, Any]) -> Step:
    return Sleeve(**base, ops=parse_op(ck, value["sleeve"], p))


def _note(ck: Checker, value: dict[str, Any], p: KeyPath, base: dict[str, Any]) -> Step:
    why = ck.string(value["note"], p, "why no card moves in this step (a few words)")
    return Note(**base, why=why or "")


_PARSERS: dict[str, Any] = {
    "place": _place,
    "rearrange": _rearrange,
    "swap": _swap,
    "move": _move,
    "take": _take,
    "shuffle": _shuffle,
    "turn": _turn,
    "rotate": _rotate,
    "discard": _discard,
    "return": _return,
    "shift": _shift,
    "if": _if,
    "for": _for,
    "call": _call,
    "let": _let,
    "do": _do,
    "note": _note,
    "sleeve": _sleeve,
}
