"""The outputs a verification by validity classes stands for: the spec's half of the precondition
of :mod:`.classes` (see its module docs), checked before anything is dealt.

An output's ``equals``, ``uniform`` and ``weighted`` expressions may read the dealt cards only as
a multiset and through the game's functions, so that their value on a class deal is the image of
their value on every deal it stands for: :func:`check_outputs` walks each expression and gives
every node a kind (:func:`_kind`: a list of dealt cards, one card, a plain value, a list of
lists) or refuses it with the file, the line and the key. A ``weighted`` output's ``[choice,
weight]`` pairs obey step 2 of the argument in :mod:`.classes` (:func:`_expect_weights`).
"""

from __future__ import annotations

from typing import Any

from ..errors import ReductionRefused
from ..expressions import (
    Attr,
    Call,
    Chain,
    Compare,
    Comprehension,
    Conditional,
    Const,
    Index,
    ListLit,
    Name,
    Node,
    RangeNode,
    Star,
    Unary,
)
from ..spec import OutputDecl, Protocol

LIST, CARD, PLAIN, LISTS = "list", "card", "plain", "lists"


def check_outputs(proto: Protocol) -> None:
    """The spec's side of the precondition (:mod:`.classes`'s module docs); ReductionRefused when it
    fails, naming the file, the line and the key."""
    dealt = {n for n, d in proto.inputs.items() if d.groups is not None}
    others = [n for n in proto.inputs if n not in dealt]
    if not dealt or others:
        why = (
            f"{proto.name}: the reduction by classes needs the dealt cards (an input with 'groups') "
            f"as the only input{'; it also has ' + ', '.join(others) if others else ''}"
        )
        raise ReductionRefused(why, proto.src.problem(("inputs",), why))
    if proto.people():
        why = (
            f"{proto.name} seats people ('players'): what each person knows and sees of their own "
            "hands is checked on the cards' faces, which a verification by classes does not have"
        )
        raise ReductionRefused(why, proto.src.problem(("players",), why))
    if proto.admissible is not None:
        why = (
            f"{proto.name} restricts its inputs ('admissible'): the class deals stand for every "
            "deal of the cards, admissible or not, so their count would not be the deals checked"
        )
        raise ReductionRefused(why, proto.src.problem(("admissible",), why))
    # the outputs that are one chosen card, each with its region when it is read from one by name
    cards = {
        o.name: o.cards.name or ""
        for o in proto.outputs.values()
        if o.cards is not None and o.choice is not None
    }
    # each dealt input with the name of its sizes ('groups: sizes'): part() reads hands by them only
    groups = {n: g.node.name for n in dealt if (g := proto.inputs[n].groups) and isinstance(g.node, Name)}
    cards |= {"=" + n: s for n, s in groups.items()}
    context = set(proto.context)
    for out in proto.outputs.values():
        if out.weighted is not None:
            _expect_weights(proto, out, dealt, cards, context)
        for key, expr in (("equals", out.equals), ("uniform", out.uniform)):
            if expr is None:
                continue
            kind = _expect(
                proto, out.path + (key,), expr.node, dealt, cards, context, (PLAIN, LIST, CARD, LISTS)
            )
            if key == "uniform" and out.name in cards and kind == PLAIN and not _cardless(expr.node):
                why = f"output {out.name} may be a card from the supply (only dealt cards or none)"
                raise ReductionRefused(why, proto.src.problem(out.path + (key,), why))
            if kind != PLAIN and out.cards is not None and out.decode not in ("cards", "card"):
                why = (
                    f"output {out.name} compares dealt cards in an order ({out.decode}): only a "
                    "multiset ('cards') or one card can be compared by classes"
                )
                raise ReductionRefused(why, proto.src.problem(out.path, why))


def _expect(
    proto: Protocol,
    path: tuple[Any, ...],
    node: Node,
    dealt: set[str],
    cards: dict[str, str],
    context: set[str],
    allowed: tuple[str, ...],
) -> str:
    try:
        kind = _kind(node, _env(dealt, cards), context)
    except _Uses as exc:
        why = (
            f"it uses the dealt cards other than as a multiset ({exc}): its answer could depend "
            "on more than the cards' classes"
        )
        raise ReductionRefused(why, proto.src.problem(path, why)) from None
    if kind not in allowed:
        why = "it gives dealt cards where a plain value is expected"
        raise ReductionRefused(why, proto.src.problem(path, why))
    return kind


def _expect_weights(
    proto: Protocol, out: OutputDecl, dealt: set[str], cards: dict[str, str], context: set[str]
) -> None:
    """A ``weighted`` output's side of the precondition (module docs, "Weighted choices"): its
    expression is a list of ``[choice, weight]`` pairs built only by :func:`_weights`' rules,
    each choice one dealt card or a value that reads them only as a multiset (``none``), each
    weight such a value; and a card output it chooses for is one card (``encoding: card``)."""
    path = out.path + ("weighted",)
    assert out.weighted is not None
    try:
        # a card output's choices are dealt cards or none ("#card"): its value is removed as one
        _weights(out.weighted.node, _env(dealt, cards) | ({"#card": CARD} if out.cards else {}), context)
    except _Uses as exc:
        why = (
            f"output {out.name}'s weights use the dealt cards other than as a multiset ({exc}): "
            "they could depend on more than the cards' classes"
        )
        raise ReductionRefused(why, proto.src.problem(path, why)) from None
    if out.cards is not None and out.decode != "card":
        why = (
            f"output {out.name} is a weighted choice of {out.decode}, not of one card: only the "
            "choice of one card (or none) is checked by classes"
        )
        raise ReductionRefused(why, proto.src.problem(out.path, why))


def _env(dealt: set[str], cards: dict[str, str]) -> dict[str, str]:
    """The kinds of the names outputs read: dealt cards, card outputs (``@name``: their region);
    ``=input``: the name of the sizes that split a dealt input into hands."""
    env = {n: LIST for n in dealt} | {n: CARD for n in cards if n[0] != "="}
    env |= {"@" + n: r for n, r in cards.items() if r and n[0] != "="}
    return env | {k: v for k, v in cards.items() if k[0] == "="}


def _weights(node: Node, env: dict[str, str], context: set[str]) -> None:
    """Check a weights expression: ``[p, ...]`` of pairs, ``[p for ...]`` over dealt cards or
    plain values with plain conditions, ``a + b`` or ``a or b`` of weights (concatenation, or
    the first non-empty: decided by lengths), ``a if c else b`` with a plain condition, or any
    plain value. Under a renaming of the dealt cards that keeps every class (and owner), each
    form gives the same pairs with their choices renamed (:func:`_pair`), in some order."""
    if isinstance(node, ListLit):
        for item in node.items:
            _pair(item, env, context)
    elif isinstance(node, Comprehension):
        _pair(node.element, _bound(node, env, context), context)
    elif isinstance(node, Conditional):
        _plain(node.cond, env, context, "a condition")
        _weights(node.then, env, context)
        _weights(node.other, env, context)
    elif isinstance(node, Chain) and {op for op, _ in node.rest} <= {"+", "or"}:
        for part in [node.first] + [n for _, n in node.rest]:
            _weights(part, env, context)
    else:
        _plain(node, env, context, "the weights")
        _no_supply(node, env)


def _pair(node: Node, env: dict[str, str], context: set[str]) -> None:
    """One ``[choice, weight]`` pair: the choice one dealt card (or none) or a plain value, the
    weight plain (a count, a game function of the card: never its name or place)."""
    if not isinstance(node, ListLit) or len(node.items) != 2:
        _plain(node, env, context, "a [choice, weight] pair")
        _no_supply(node, env)
        return
    choice, weight = node.items
    kind = _kind(choice, env, context)
    if kind not in (CARD, PLAIN):
        raise _Uses("a choice of several dealt cards")
    if kind == PLAIN:
        _no_supply(choice, env)
    _plain(weight, env, context, "a weight")


def _no_supply(node: Node, env: dict[str, str]) -> None:
    """A card output's plain choice is none (a supply card would be removed as a dealt one)."""
    if "#card" in env and not _cardless(node):
        raise _Uses("a card output that may be a card from the supply (only dealt cards or none)")


class _Uses(Exception):
    """An expression uses the dealt cards in a way that depends on more than their classes."""


_MULTISET = {
    "part": (LIST, PLAIN, PLAIN),
    "without": (LIST, None),
    "minus": (LIST, LIST),
    "sorted": (LIST,),
}
_PLAIN_OF = {"len", "any", "all", "exists", "sum", "count_true"}


def _kind(node: Node, env: dict[str, str], context: set[str]) -> str:
    """What ``node`` gives: PLAIN (no dealt card), CARD (one dealt card, or none), LIST (a list
    of dealt cards, used as a multiset) or LISTS (a list of such lists)."""
    if isinstance(node, (Const, Star)):
        return PLAIN
    if isinstance(node, Name):
        return env.get(node.name, PLAIN)
    if isinstance(node, RangeNode):
        _plain(node.lo, env, context, "a range bound")
        _plain(node.hi, env, context, "a range bound")
        return PLAIN
    if isinstance(node, Call):
        kinds = [_kind(a, env, context) for a in node.args]
        if all(k == PLAIN for k in kinds):
            return PLAIN
        if node.func in context:
            if kinds != [CARD]:
                raise _Uses(f"{node.func}() of something other than one card")
            return PLAIN
        if node.func in _MULTISET:
            want = _MULTISET[node.func]
            if len(kinds) != len(want):
                raise _Uses(f"{node.func}() with {len(kinds)} arguments")
            for k, w in zip(kinds, want):
                if w == LIST and k != LIST:
                    raise _Uses(f"{node.func}() of something other than a list of cards")
                if w == PLAIN and k != PLAIN:
                    raise _Uses(f"{node.func}() with dealt cards as a count or an index")
                if w is None and k not in (CARD, PLAIN):
                    raise _Uses(f"{node.func}() removing a list")
            if node.func in ("without", "minus"):
                _removal(node.func, node.args[0], node.args[1], env, context)
            if node.func == "part" and not _hands(node, env):
                # other sizes would pick cards by their place in a hand ('part(cards, [1, 4], 1)')
                raise _Uses("part() of the dealt cards by other sizes than their hands'")
            return LIST
        if node.func in ("len", "exists") and kinds in ([LIST], [LISTS]):
            return PLAIN
        raise _Uses(f"{node.func}() of dealt cards")
    if isinstance(node, Comprehension):
        return _comprehension(node, env, context)
    if isinstance(node, ListLit):
        kinds = [_kind(i, env, context) for i in node.items]
        if all(k == PLAIN for k in kinds):
            return PLAIN
        if all(k == CARD for k in kinds):
            return LIST
        if all(k == LIST for k in kinds):
            return LISTS
        raise _Uses("a list mixing dealt cards and other values")
    if isinstance(node, Conditional):
        _plain(node.cond, env, context, "a condition")
        a, b = _kind(node.then, env, context), _kind(node.other, env, context)
        if a != b and PLAIN not in (a, b):
            raise _Uses("two branches giving different kinds of dealt cards")
        if a != b and not _cardless(node.then if a == PLAIN else node.other):
            # a supply card may share a dealt card's face: equal in the deal, never in the class deal
            raise _Uses("two branches giving dealt cards and other values (other than none or [])")
        return a if a != PLAIN else b
    if isinstance(node, Chain):
        kinds = [_kind(node.first, env, context)] + [_kind(n, env, context) for _, n in node.rest]
        if all(k == PLAIN for k in kinds):
            return PLAIN
        ops = {op for op, _ in node.rest}
        if ops <= {"or", "+"} and all(k == LIST for k in kinds):
            return LIST  # concatenation, or the first non-empty list: decided by lengths only
        raise _Uses(f"{' '.join(sorted(ops))} on dealt cards")
    if isinstance(node, Unary):
        if _kind(node.operand, env, context) != PLAIN:
            raise _Uses(f"{node.op} of dealt cards")
        return PLAIN
    if isinstance(node, Compare):
        sides = [node.first] + [n for _, n in node.rest]
        # A dealt card is none only when there is no card: the answer keeps every renaming.
        if (
            len(sides) == 2
            and node.rest[0][0] in ("==", "!=")
            and any(_is_none(n) for n in sides)
            and {_kind(n, env, context) for n in sides} <= {CARD, PLAIN}
        ):
            return PLAIN
        for side in sides:
            _plain(side, env, context, "a comparison")
        return PLAIN
    if isinstance(node, Index):
        if _kind(node.obj, env, context) != PLAIN:
            raise _Uses("an item of a list of dealt cards picked by its place")
        for arg in node.args:
            _plain(arg, env, context, "an index")
        return PLAIN
    if isinstance(node, Attr):
        if _kind(node.obj, env, context) != PLAIN:
            raise _Uses(f"the field {node.attr} of a dealt card")
        return PLAIN
    raise _Uses(f"{type(node).__name__}")


def _removal(func: str, source: Node, gone: Node, env: dict[str, str], context: set[str]) -> None:
    """``without(xs, c)`` and ``minus(xs, ys)`` map by every renaming ``pi`` that keeps classes
    and owners (``pi(without(xs, c)) = without(pi(xs), pi(c))`` as multisets) when ``xs`` is
    *whole*: with each dealt card it holds every card of the same owner and class (a hand, the
    cards of a hand that pass a plain test, ...), and each card removed is a dealt card or
    none (each once). Then a removed card is in ``xs`` exactly when its class symbol is in
    ``pi(xs)``. A supply card (``symbol('red5')``) may share a dealt card's face: never removed."""
    if not _whole(source, env, context):
        raise _Uses(f"{func}() from a list that is not every card of some owners' classes")
    items = gone.items if func == "minus" and isinstance(gone, ListLit) else [gone]
    if func == "minus" and not isinstance(gone, ListLit):
        if _whole(gone, env, context):
            return
        raise _Uses("minus() of a list that is neither cards one by one nor whole hands")
    for item in items:
        if not _dealt_or_none(item, env, context):
            raise _Uses(f"{func}() removing a card that may not be a dealt card")
    names = [_card_names(item) for item in items]
    if sum(1 for n in names if n) > 1:
        # one card removed twice finds another of its class in the class deal only; distinct
        # outputs of distinct regions never hold the same card (loop variables may)
        regions = [env.get("@" + n) for ns in names for n in ns]
        if None in regions or len(set(regions)) != len(regions):
            raise _Uses(
                f"{func}() of a card that may be removed twice (only distinct outputs, each "
                "read from its own region, may be removed together)"
            )


def _whole(node: Node, env: dict[str, str], context: set[str]) -> bool:
    if _kind(node, env, context) == PLAIN:
        return True  # no dealt card in it
    if isinstance(node, Name):
        return env.get(node.name) == LIST and "~" + node.name not in env
    if isinstance(node, Call):
        return node.func == "part" or (node.func == "sorted" and _whole(node.args[0], env, context))
    if isinstance(node, Comprehension):
        fors = [c for kind, c in node.clauses if kind == "for"]
        return (
            len(fors) == 1
            and node.clauses[0][0] == "for"
            and isinstance(node.element, Name)
            and node.element.name == node.variables[0]
            and _whole(fors[0], env, context)
        )
    if isinstance(node, Chain):
        ops = {op for op, _ in node.rest}
        return ops == {"+"} and all(_whole(n, env, context) for n in [node.first] + [n for _, n in node.rest])
    if isinstance(node, Conditional):
        return _whole(node.then, env, context) and _whole(node.other, env, context)
    return False


def _dealt_or_none(node: Node, env: dict[str, str], context: set[str]) -> bool:
    if _is_none(node) or (isinstance(node, Name) and env.get(node.name) == CARD):
        return True
    if isinstance(node, Conditional):
        return _dealt_or_none(node.then, env, context) and _dealt_or_none(node.other, env, context)
    return False


def _hands(node: Call, env: dict[str, str]) -> bool:
    """``part(cards, sizes, i)``: a dealt input split by its own sizes (``groups``): a hand."""
    xs, sizes = node.args[0], node.args[1]
    return (
        isinstance(xs, Name)
        and env.get(xs.name) == LIST
        and "~" + xs.name not in env
        and isinstance(sizes, Name)
        and env.get("=" + xs.name) == sizes.name
    )


def _card_names(node: Node) -> list[str]:
    """The names a removed item (a dealt card or none, :func:`_dealt_or_none`) may be."""
    if isinstance(node, Name):
        return [node.name]
    if isinstance(node, Conditional):
        return _card_names(node.then) + _card_names(node.other)
    return []


def _cardless(node: Node) -> bool:
    """A plain value that is no card and holds none: ``none``, ``[]`` (lists of them)."""
    if isinstance(node, ListLit):
        return all(_cardless(i) for i in node.items)
    if isinstance(node, Conditional):
        return _cardless(node.then) and _cardless(node.other)
    return _is_none(node)


def _is_none(node: Node) -> bool:
    return isinstance(node, Const) and node.value is None


def _plain(node: Node, env: dict[str, str], context: set[str], what: str) -> None:
    if _kind(node, env, context) != PLAIN:
        raise _Uses(f"dealt cards in {what}")


def _comprehension(node: Comprehension, env: dict[str, str], context: set[str]) -> str:
    elem = _kind(node.element, _bound(node, env, context), context)
    if elem == PLAIN:
        return PLAIN
    if elem == CARD:
        return LIST
    if elem == LIST:
        return LISTS
    raise _Uses("a list of lists of lists")


def _bound(node: Comprehension, env: dict[str, str], context: set[str]) -> dict[str, str]:
    """The kinds of a comprehension's loop variables (a loop over a list of dealt cards gives
    one dealt card), its conditions checked plain."""
    inner = dict(env)
    vi = 0
    for kind, clause in node.clauses:
        if kind == "for":
            k = _kind(clause, inner, context)
            var = node.variables[vi]
            vi += 1
            for key in [key for key, v in inner.items() if key.startswith("=") and v == var]:
                del inner[key]  # the hands' sizes renamed by the loop: part() no longer reads hands
            inner.pop("@" + var, None)  # an output's name for a loop variable: no region of its own
            if k == PLAIN:
                inner[var] = PLAIN
            elif k == LIST:
                inner[var] = CARD
            elif k == LISTS:
                inner[var] = LIST
                inner["~" + var] = LIST  # one of several lists: not known to be whole (_whole)
            else:
                raise _Uses("a loop over one card")
        else:
            _plain(clause, inner, context, "a condition")
    return inner
