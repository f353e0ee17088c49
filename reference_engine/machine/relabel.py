"""A small callee's enumeration up to the faces of cards it never looks at.

A single run draws one outcome of a small callee from its exact enumeration
(:func:`.subruns._sub_outcomes`, kept per argument cards for the game). A lottery's candidates
differ nearly every turn, so that rarely hits, and an enumeration by the interpreter costs
milliseconds. But a callee that takes some cards only to carry them (an input with a ``label``
encoding, "any cards", like the knockout lottery's candidates ``c``) and never shows them,
never lets a decision read them and never puts them with the spares, run on cards ``c`` or on
``s(c)``, ``s`` a renaming of those faces, gives the same runs with ``s`` applied to its cards:
the same views, the same probabilities in the same order, its result cards renamed.

So its joint law of (view, result) before factoring is kept per argument cards *up to* such a
renaming (across games: views as their observations), and each call with new cards rebuilds,
from it, exactly what the plain enumeration gives: the same views interned, the same
:func:`.subruns._factor` on the same joint law (its checks, and the side effects they have on
the run, happen as they would), the result cards renamed, kept under the plain key too. A
renaming keeps which of those cards are equal (states merge alike). When the enumeration
compared card codes (:data:`~reference_engine.cards.CODE_ORDER`: a sort, an orbit's
representative, a hand kept sorted), the order of those faces among themselves and among every
other face the callee can meet is part of the key as well.

The law kept is the first one met, on real cards, enumerated under the guard of the verifier's
reduction by classes (``DEALT``, see :mod:`reference_engine.cards`) with those faces as the
hidden ones: a decision that reads one of their faces, or a view that shows one, refuses; so
does a face in a value, a shown output or the spares' counts. The evaluator of these first
enumerations is kept from one to the next (:class:`_Reused`): a result that read a face hidden
now is evaluated again (and refused), one that compared card codes counts that again. A
refused callee is enumerated plainly from then on, as is one that makes cards of its own
families (``new(c(1))``: faces named only as it runs). Only a single run (``sample``, not
restartable, no store, no classes, nobody followed, no game function) does this; an exact
verification never does. A kept law costs an exploration's budget (``frontier.budget``) what its
first enumeration spent, so a budget stops a run at the same point whether the process kept the
law or not (``tests/reference_engine/machine/test_relabel_budget.py``). A call whose carried cards
are partly equal, when the same call with them all different has its law kept, is not
enumerated: its law is that one's, renamed and merged (:func:`_merged`; its cost unknown, so it
is enumerated under a budget).

``tests/reference_engine/machine/test_relabel.py`` enumerates both ways on the shipped callers
and refuses a callee that looks.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from typing import Any, overload

from .. import steps as st
from ..canonical import fingerprint
from ..cards import CODE_ORDER, DEALT, ROTATIONS, SYMBOLS, Symbol
from ..errors import ReductionRefused
from ..expressions import Expression
from ..kept import exact_env
from ..seating import Seats
from ..spec import Protocol
from ..table import State, visible
from . import lawcache
from .frame import Evaluator, Frame
from .frontier import _BUDGET, spend
from .plans import SubResult
from .runner import Outcome, Runner
from .subruns import Factoring, _run_sub, _sub_key, _sub_outcomes, factoring, settle
from .views import Observation, ViewTable, _refuse_dealt

Law = tuple[tuple[tuple[Observation, ...], SubResult, Fraction], ...]
"""A callee's joint law of (view, result), views as their observations (the same in any table)."""

_ORDERED = "ordered"  # a loose key whose enumeration compared the faces: see its ordered keys
_KEPT_LIMIT = 20_000  # laws kept (patterns are few: a bound, not a budget)
_KEPT: dict[tuple[Any, ...], tuple[Law | str, tuple[int, ...], int]] = {}  # by the spec's fingerprint
_REFUSED: set[str] = set()  # the fingerprints of callees that look at their carried cards
Plan = tuple[tuple[bool, ...], frozenset[int], str]
_PLANS: dict[int, tuple[Protocol, Plan | None]] = {}
_TABLE: list[Any] = [None, {}]  # the view table the laws were last rebuilt in, and those rebuilt


def small_outcomes(
    run: Runner, sub: Frame, codes: tuple[tuple[int, ...], ...], seats: Seats | None
) -> list[Outcome]:
    """What :func:`.subruns._sub_outcomes` gives for a small call in a single run."""
    got = small_call(run, sub, codes, seats)[0]
    return got if type(got) is list else list(got)


Draw = tuple[int, list[int]]
"""How to draw one outcome of a list: the common denominator of its probabilities and their
cumulative numerators over it (``calls._draw``'s thresholds)."""


def small_call(
    run: Runner, sub: Frame, codes: tuple[tuple[int, ...], ...], seats: Seats | None, check: bool = False
) -> tuple[Sequence[Outcome], Draw | None]:
    """:func:`small_outcomes`, with the thresholds to draw from them when they are known
    (an enumeration kept up to renaming: computed once per law and view table). ``check``
    (the differential tests, ``compiled.evaluate.CHECKED``): a law that :func:`_merged` would
    give is enumerated as before and compared with it."""

    plan = _plan(sub.proto, run)
    if plan is None or (seats is not None and seats.key() is not None):
        return _sub_outcomes(run, sub, codes, seats=seats), None
    shared = run.shared
    plain = _sub_key(run, sub, codes, None, seats)
    hit = shared.subruns.get(plain)
    if hit is not None:
        return hit, None  # this game has enumerated these very cards: as before
    labels, own, spec = plan
    fixed = set(own)
    mine: list[int] = []
    for is_label, cs in zip(labels, codes):
        if is_label:
            for c in cs:
                if c < 0 or c & 1:  # an empty place, or a face up: it shows
                    return _sub_outcomes(run, sub, codes, seats=seats), None
                mine.append(c >> 1)
        else:
            fixed.update(c >> 1 for c in cs if c >= 0)
    now = tuple(dict.fromkeys(mine))  # the faces in the order they first lie
    if fixed.intersection(now) or any(s in ROTATIONS.to for s in now):
        return _sub_outcomes(run, sub, codes, seats=seats), None
    index = {s: i for i, s in enumerate(now)}
    shape = tuple(tuple(index[c >> 1] for c in cs) if lab else cs for lab, cs in zip(labels, codes))
    key: tuple[Any, ...] = (spec, sub.key, shape)
    kept = _kept(key)
    if kept is not None and kept[0] is _ORDERED:
        key = _ordered(key, now, fixed)
        kept = _kept(key)
    if kept is None or (kept[2] < 0 and _BUDGET.get() is not None):
        if check or _BUDGET.get() is not None:  # see _merged: its cost is not known
            got = _first(run, sub, codes, plain, key, now, fixed, seats)
            if check:
                _check_merged(key, now, labels)
            return got, None
        kept = _merged(key, now, labels)
        if kept is None:
            return _first(run, sub, codes, plain, key, now, fixed, seats), None
    law, first, cost = kept
    assert not isinstance(law, str)
    spend(cost)  # what its first enumeration spent: a budget stops a run alike, kept or not
    name = sub.proto.name
    prep = _prepared(law, name)
    # What _factor would do with the renamed law: the same (see subruns.factoring), the result
    # cards renamed; its side effects on the run's shared state happen as they would.
    f = _rebuilt(run.views, key, prep)
    factors = name not in shared.no_factor and settle(run, sub, f, seats)
    template = f.factored if factors else f.inlined
    # Renamed as read (a draw reads one outcome), or the kept list's copy on its own faces.
    hit = Renamed(template, dict(zip(first, now))) if now != first else list(template)
    if shared.restart is None:
        shared.subruns[plain] = hit
    return hit, prep.draws[factors]


def _plan(proto: Protocol, run: Runner) -> Plan | None:
    """Which inputs carry only labelled cards, and the symbol ids of the callee's own faces;
    None when this does not apply (no such input, a game function, a call inside, a run that
    is not a plain single run, a refused callee)."""
    shared = run.shared
    if (
        run.mode != "sample"
        or shared.restartable
        or shared.store is not None
        or shared.symmetry is not None
        or shared.deferred is not None
        or DEALT.ids
    ):
        return None
    hit = _PLANS.get(id(proto))
    if hit is not None and hit[0] is proto:
        got = hit[1]
        return None if got is None or got[2] in _REFUSED else got
    labels = tuple(
        proto.encodings[d.encoding].kind == "label" and not d.public for d in proto.inputs.values()
    )
    plan = None
    if (
        any(labels)
        and not proto.context
        and not any(isinstance(s, st.Call) for s in st.walk(proto.steps))
        and not _makes_family_cards(proto)
    ):
        own = set()
        for name in proto.symbols:
            sym = SYMBOLS.get(name)
            if sym is not None:
                own.add(sym.id)
                other = ROTATIONS.to.get(sym.id)
                if other is not None:
                    own.add(other)
        plan = (labels, frozenset(own), fingerprint(proto))
    if len(_PLANS) > 1_000:
        _PLANS.clear()
    _PLANS[id(proto)] = (proto, plan)
    return plan


def _makes_family_cards(proto: Protocol) -> bool:
    """Whether the callee makes cards of one of its families (``new(c(1))``): their faces are
    made during the run, so neither a carried card equal to one nor the order of the faces
    among them is known ahead; such a callee is enumerated plainly."""
    families = {name for name, decl in proto.symbols.items() if decl.family}
    if not families:
        return False
    seen: set[int] = set()

    def found(value: Any) -> bool:
        if id(value) in seen or isinstance(value, (str, int, float, bool, type(None))):
            return False
        seen.add(id(value))
        if isinstance(value, Expression):
            return bool(value.calls() & families)
        if isinstance(value, dict):
            return any(found(v) for v in value.values())
        if isinstance(value, (list, tuple, set, frozenset)):
            return any(found(v) for v in value)
        fields = getattr(value, "__dataclass_fields__", None)
        return fields is not None and any(found(getattr(value, f, None)) for f in fields)

    return any(found(step) for step in st.walk(proto.steps))


def _ordered(loose: tuple[Any, ...], now: tuple[int, ...], fixed: set[int]) -> tuple[Any, ...]:
    """The key of an enumeration that compared the faces: with their order among themselves
    and among every other face the callee can meet."""
    order = sorted(fixed)
    ranks = sorted(now)
    return (*loose, tuple(ranks.index(s) for s in now), tuple(bisect_left(order, s) for s in now))


def _first(
    run: Runner,
    sub: Frame,
    codes: tuple[tuple[int, ...], ...],
    plain: tuple[Any, ...],
    key: tuple[Any, ...],
    now: tuple[int, ...],
    fixed: set[int],
    seats: Seats | None,
) -> Sequence[Outcome]:
    """The plain enumeration of these cards, guarded; its law kept for the next ones."""

    shared = run.shared
    caught: list[Law] = []

    def check(child: Runner, joint: dict[tuple[int, SubResult], Fraction]) -> None:
        caught.append(_law(child.views, joint))

    evaluators = shared.evaluators
    shared.evaluators = {sub.key: _reused(sub)}  # see _Reused: a decision read again if it looks
    plans = shared.plans
    shared.plans = _plans_of(sub)  # its plans, kept from one first enumeration to the next
    hidden = set(now)
    DEALT.ids.update(hidden)
    reads = CODE_ORDER.reads
    left = _BUDGET.get()  # the budget in force, if any; the enumeration's cost counted apart
    counted = [left[0] if left is not None else 1 << 62]
    start = counted[0]
    token = _BUDGET.set(counted)
    try:
        outcomes: Sequence[Outcome] | None
        outcomes = _run_sub(run, sub, codes, plain, None, seats or Seats(), check=check)
    except ReductionRefused:
        outcomes = None
    finally:
        _BUDGET.reset(token)
        if left is not None:
            left[0] = counted[0]
        DEALT.ids.difference_update(hidden)
        shared.evaluators = evaluators
        shared.plans = plans
    if outcomes is None:
        _REFUSED.add(key[0])
        return _sub_outcomes(run, sub, codes, seats=seats)  # the plain enumeration, unguarded
    if caught and shared.restart is None:
        if len(_KEPT) >= _KEPT_LIMIT:
            _KEPT.clear()
        if CODE_ORDER.reads != reads and len(key) == 3:  # it compared them: keyed by their order
            _keep(key, (_ORDERED, (), 0))
            key = _ordered(key, now, fixed)
        _keep(key, (caught[0], now, start - counted[0]))
    return outcomes


def _kept(key: tuple[Any, ...]) -> tuple[Law | str, tuple[int, ...], int] | None:
    """The law kept for ``key``: in this process, else on disk (:mod:`.lawcache`, then kept in
    the process as if a first enumeration here had kept it)."""
    kept = _KEPT.get(key)
    if kept is None and lawcache.enabled():
        got = lawcache.load(key)
        if got is not None:
            law = _ORDERED if got[0] == _ORDERED else got[0]
            kept = (law, got[1], got[2])
            if len(_KEPT) >= _KEPT_LIMIT:
                _KEPT.clear()
            _KEPT[key] = kept
    return kept


def _keep(key: tuple[Any, ...], entry: tuple[Law | str, tuple[int, ...], int]) -> None:
    """Keep a first enumeration's law (or the marker of a loose key) in the process and on disk."""
    _KEPT[key] = entry
    if lawcache.enabled():
        lawcache.save(key, entry)


def _merged(
    key: tuple[Any, ...], now: tuple[int, ...], labels: tuple[bool, ...]
) -> tuple[Law, tuple[int, ...], int] | None:
    """The law of carried cards some of which are equal, from the law kept for the same call
    with them all different (None when there is none, or it compared their codes): each
    result's cards renamed, the entries that become one merged (their probabilities added) in
    the order they were first met. Kept with an unknown cost (-1: the call is enumerated when
    a budget is in force).

    The enumeration on equal cards is the one on different cards with the states that become
    equal merged: the callee neither reads nor shows them (the guard of the first
    enumeration), so each step does to a state's renaming what it does to the state; a
    frontier keeps a merged state where it first met it, so the entries come, renamed, in the
    order of their first occurrence; a shuffle's arrangements that become equal merge alike
    (``Shuffle.outcomes``). An enumeration that compared codes (a hand's orders in
    :func:`.subruns.collect`, a hand kept sorted, a scramble's arrangements) is kept by their
    order and not used. ``tests/reference_engine/machine/test_relabel_merged.py`` compares
    both on every pattern of the knockout lottery; ``check`` in :func:`small_call`, on every
    call of the differential tests."""
    if len(key) != 3:
        return None
    spec, sub_key, shape = key
    flat = [i for lab, part in zip(labels, shape) if lab for i in part]
    if len(set(flat)) == len(flat):
        return None  # all different: nothing to merge from
    fresh = iter(range(len(flat)))
    distinct = tuple(tuple(next(fresh) for _ in part) if lab else part for lab, part in zip(labels, shape))
    kept = _kept((spec, sub_key, distinct))
    if kept is None:
        return None
    law, first, _ = kept
    if isinstance(law, str):
        return None
    to = {f: now[i] for f, i in zip(first, flat)}
    merged: dict[tuple[tuple[Observation, ...], SubResult], Fraction] = {}
    for chain, res, p in law:
        at = (chain, relabel(res, to))
        have = merged.get(at)
        merged[at] = p if have is None else have + p
    got = (tuple((chain, res, p) for (chain, res), p in merged.items()), now, -1)
    if len(_KEPT) >= _KEPT_LIMIT:
        _KEPT.clear()
    _KEPT[key] = got
    return got


def _check_merged(key: tuple[Any, ...], now: tuple[int, ...], labels: tuple[bool, ...]) -> None:
    """With ``check``: the law just enumerated is the one :func:`_merged` gives."""
    real = _KEPT.get(key)
    if real is None or isinstance(real[0], str) or real[1] != now:
        return
    saved = _KEPT.pop(key)
    try:
        got = _merged(key, now, labels)
    finally:
        _KEPT[key] = saved
    if got is not None and got[0] != real[0]:
        raise AssertionError(f"the merged law of {key[1:]} is not its enumeration")


_EVALUATORS: dict[tuple[Any, ...], _Reused] = {}
EVALUATORS_KEPT = 64
"""Frames whose :class:`_Reused` evaluator is kept (a game meets a few callees)."""
MEMO_KEPT = 4096
"""Results a :class:`_Reused` evaluator keeps (then it starts again)."""


class _Reused(Evaluator):
    """An exact evaluator kept from one first enumeration of a callee to the next (its results
    depend on the expression, the layout, the variables and the table's cells it read alone,
    as within one enumeration), with what a fresh one would do on top:

    - a result that read a face now hidden (a carried card of this enumeration: ``DEALT``) is
      evaluated again, so that the guard refuses it as it would have (it was kept while that
      face was not hidden);
    - a result whose evaluation compared card codes (:data:`~reference_engine.cards.CODE_ORDER`)
      counts them again when reused, so that the law is kept under its ordered key.

    A callee's first enumerations cost ~30 % less this way (its decisions evaluated once).
    Only :func:`_first` uses it, for callees without calls or game functions (see :func:`_plan`)."""

    def public(self, expr: Expression, state: State, plain_value: bool = False) -> Any:
        env = state.env
        if env is not self._env:  # by the variables' types too (kept.exact): 1 is not true
            self._env, self._env_key = env, exact_env(env)
        key = (id(expr), state.layout, self._env_key, plain_value)
        buckets = self.memo.get(key)
        cells = state.cells
        if buckets is not None:
            for flats, table in buckets:
                vis = tuple([visible(cells[f]) for f in flats])
                hit = table.get(vis)
                if hit is not None:
                    if any(v >= 0 and DEALT.hidden(v >> 1) for v in vis):
                        break  # evaluated again: the guard refuses it
                    if flats:
                        self.touched = True
                    CODE_ORDER.reads += hit[1]
                    return hit[0]
        if len(self.memo) >= MEMO_KEPT:
            self.memo.clear()
        reads_before = CODE_ORDER.reads
        value, flats, vis = self._recorded(expr, state, plain_value)
        self._remember(key, flats, vis, (value, CODE_ORDER.reads - reads_before))
        return value


_PLANS_OF: dict[tuple[Any, ...], tuple[Frame, dict[tuple[Any, ...], Any]]] = {}
PLANS_KEPT = 20_000
"""Plans a callee's first enumerations keep (then they start again)."""


def _plans_of(sub: Frame) -> dict[tuple[Any, ...], Any]:
    """The plans (``Shared.plans``) of ``sub``'s first enumerations, kept from one to the next
    across games as a game keeps them from one run to the next: keyed by what they are built
    from (the step, the layout, what the step resolved to, see ``Runner._plan``), each entry
    as a game's own would be; a new frame of the same key starts afresh (its steps' ids)."""
    hit = _PLANS_OF.get(sub.key)
    if hit is None or hit[0] is not sub or len(hit[1]) >= PLANS_KEPT:
        if len(_PLANS_OF) >= EVALUATORS_KEPT:
            _PLANS_OF.clear()
        hit = _PLANS_OF[sub.key] = (sub, {})
    return hit[1]


def _reused(sub: Frame) -> _Reused:
    """The :class:`_Reused` evaluator of ``sub`` (a new one for a new frame of the same key)."""
    ev = _EVALUATORS.get(sub.key)
    if ev is None or ev.frame is not sub:
        if len(_EVALUATORS) >= EVALUATORS_KEPT:
            _EVALUATORS.clear()
        ev = _EVALUATORS[sub.key] = _Reused(sub)
    ev.touched = False
    return ev


def _law(views: ViewTable, joint: dict[tuple[int, SubResult], Fraction]) -> Law:
    """The joint law with its views as observations; refuses (ReductionRefused) a view, value,
    shown card or count that holds a hidden face."""
    out = []
    checked: set[Observation] = set()  # each observation once (the chains share their prefixes)
    for (view, res), p in joint.items():
        chain = tuple(views.observations(view))
        for obs in chain:
            if obs in checked:
                continue
            if obs[0] in ("call", "merged", "unordered"):
                raise ReductionRefused("a callee's view holds another's")
            _refuse_dealt(obs)
            checked.add(obs)
        held = [s for s, _ in res.delta] + [s for s, _ in res.meters.peak]
        held += [s.id for _, _, syms in res.shown for s in syms]
        held += [v.id for v in _symbols(res.values)]
        if any(s in DEALT.ids for s in held):
            raise ReductionRefused("a hidden face is handed back")
        out.append((chain, res, p))
    return tuple(out)


class _Prepared:
    """What a kept law gives in any view table, computed once: its chains as a tree of
    observations (each shared prefix interned once), its factoring with each view as the node
    its chain ends at in that tree (the same decision: distinct chains end at distinct nodes, as
    a table interns them as distinct views; each key a small number, where a chain of ~20
    observations was hashed at each of the factoring's look-ups), and the thresholds to draw
    from either list of outcomes. :func:`_rebuilt` maps the nodes to a table's views."""

    __slots__ = ("draws", "ends", "factoring", "law", "name", "nodes")

    def __init__(self, law: Law, name: str):
        self.law = law
        self.name = name
        # Each observation object numbered by its value once (a law's chains repeat their
        # observations' objects: UNO's ~115 an entry, ~40 objects), the tree's nodes keyed by
        # (parent, that number): an observation's hash is not cached, a pair of numbers' is cheap.
        numbers: dict[int, int] = {}  # by the observation's identity (alive in the law meanwhile)
        by_value: dict[Observation, int] = {}
        index: dict[tuple[int, int], int] = {}
        self.nodes: list[tuple[int, Observation]] = []  # (parent node, observation); 0 is the root
        self.ends: list[int] = []  # the node each entry of the law ends at
        for chain, _, _ in law:
            node = 0
            for obs in chain:
                k = numbers.get(id(obs))
                if k is None:
                    k = numbers[id(obs)] = by_value.setdefault(obs, len(by_value))
                at = (node, k)
                got = index.get(at)
                if got is None:
                    self.nodes.append((node, obs))
                    got = index[at] = len(self.nodes)
                node = got
            self.ends.append(node)
        self.factoring = factoring(name, {(node, res): p for node, (_, res, p) in zip(self.ends, law)})
        self.draws = (thresholds(self.factoring.inlined), thresholds(self.factoring.factored))


def thresholds(outcomes: Sequence[Outcome]) -> Draw:
    """The common denominator of an enumeration's probabilities and their cumulative numerators:
    what the interpreter's draw (one ``randrange`` over the denominator) compares with."""
    lcm = math.lcm(*(p.denominator for p, _, _ in outcomes))
    cum = []
    total = 0
    for p, _, _ in outcomes:
        total += p.numerator * (lcm // p.denominator)  # int(p * lcm): lcm is a multiple of it
        cum.append(total)
    return lcm, cum


_PREPARED: dict[int, _Prepared] = {}


def _prepared(law: Law, name: str) -> _Prepared:
    """The :class:`_Prepared` of a kept law (kept as long as the law, bounded as the laws are)."""
    hit = _PREPARED.get(id(law))
    if hit is None or hit.law is not law or hit.name != name:
        if len(_PREPARED) >= _KEPT_LIMIT:
            _PREPARED.clear()
        hit = _PREPARED[id(law)] = _Prepared(law, name)
    return hit


def _rebuilt(views: ViewTable, key: tuple[Any, ...], prep: _Prepared) -> Factoring:
    """A kept law's factoring with its views interned in ``views`` (once per table), in the
    order the law's chains met them."""
    if _TABLE[0] is not views:
        _TABLE[0] = views
        _TABLE[1] = {}
    done: dict[tuple[Any, ...], tuple[_Prepared, Factoring]] = _TABLE[1]
    hit = done.get(key)
    if hit is None or hit[0] is not prep:
        ids = views.extend_tree(prep.nodes)
        f = prep.factoring  # by nodes: distinct nodes are interned as distinct views
        name = prep.name
        cond = {o: {ids[n]: p for n, p in dist.items()} for o, dist in f.cond.items()}
        inlined: list[Outcome] = [
            (p, ("call", name, ids[obs[2]]), res) for p, obs, res in f.inlined if obs is not None
        ]
        hit = done[key] = (prep, Factoring(f.ok, cond, f.factored, inlined))
    return hit[1]


def _symbols(value: Any) -> list[Symbol]:
    if isinstance(value, Symbol):
        return [value]
    if isinstance(value, (tuple, list, frozenset, set)):
        return [s for v in value for s in _symbols(v)]
    return []


def relabel(res: SubResult, to: dict[int, int]) -> SubResult:
    """``res`` with each face ``s`` in ``to`` (symbol ids) replaced by ``to[s]``."""
    return _renamed(res, _codes(to).get)


def _codes(to: dict[int, int]) -> dict[int, int]:
    """``to`` (faces) as a map of card codes: each face's code, down and up, to its new face's;
    a code not in it (an empty place, -1, or another face) stays as it is."""
    out = {}
    for s, t in to.items():
        out[s << 1] = t << 1
        out[s << 1 | 1] = t << 1 | 1
    return out


def _renamed(res: SubResult, get: Callable[[int, int], int]) -> SubResult:
    """``res`` with each card code ``c`` replaced by ``get(c, c)`` (a :func:`_codes` map's, in C)."""
    cards = tuple([(shape, tuple(map(get, cs, cs))) for shape, cs in res.cards])
    return SubResult(cards, res.values, res.delta, res.meters, res.shown)


class Renamed(Sequence[Outcome]):
    """A kept law's outcomes with its result cards renamed (``to``: faces), each renamed when
    first read and then kept (read again, it is the same object): a call draws one outcome of
    the ~5 of a knockout lottery's law, and a game meets the same cards again rarely. Read as a
    list of the renamed outcomes (by index, slice or in order); equal to that list."""

    __slots__ = ("_done", "_get", "_template")

    def __init__(self, template: list[Outcome], to: dict[int, int]) -> None:
        self._template = template
        self._get = _codes(to).get
        self._done: list[Outcome | None] = [None] * len(template)

    def __len__(self) -> int:
        return len(self._template)

    @overload
    def __getitem__(self, i: int) -> Outcome: ...

    @overload
    def __getitem__(self, i: slice) -> list[Outcome]: ...

    def __getitem__(self, i: int | slice) -> Outcome | list[Outcome]:
        if isinstance(i, slice):
            return [self[j] for j in range(len(self._template))[i]]
        got = self._done[i]
        if got is None:
            p, obs, res = self._template[i]
            got = self._done[i] = (p, obs, _renamed(res, self._get))
        return got

    def __iter__(self) -> Iterator[Outcome]:
        return map(self.__getitem__, range(len(self._template)))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Renamed):
            other = list(other)
        return list(self) == other

    __hash__ = None  # type: ignore[assignment]  # as a list's

    def __repr__(self) -> str:
        return repr(list(self))
