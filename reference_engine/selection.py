"""One card-level run of a card selection protocol for a virtual player, with its checks.

Every kind whose virtual players choose a card with the card selection protocol (UNO paper,
Section 4) runs it through :func:`run_selection`: the whole table (every hand, the piles)
face down, theta and alpha/beta cards from the supply, then checks after the run that the
played card was valid (or that none was), that every other card went back to its owner,
that no card was created or lost, that every helper card went back to the supply, and that
the run used the shuffles and helper cards the paper states.
"""

from __future__ import annotations

import gc
import random
from contextvars import ContextVar
from dataclasses import dataclass, field
from itertools import chain
from operator import attrgetter, itemgetter
from typing import Any

from .cards import Symbol
from .collector import paused
from .compiled import evaluate as _evaluate
from .compiled import run_single
from .compiled.program import expect_value, outputs_evaluator
from .compiled.run import NO_METERS
from .errors import CheckFailure, UsageError
from .kept import exact
from .machine import Runner, Shared, ViewTable, read_outputs
from .machine.frame import _VALUE_KINDS, Frame
from .machine.outputs import read_regions
from .paramreads import param_reads, read_values
from .registry import Library
from .spec import Protocol, require
from .table import Layout, State
from .tablecodes import Returns, codes_back, faces


@dataclass
class SelectionRun:
    """One checked run of a card selection protocol."""

    played: Symbol | None
    returned: list[list[Symbol]]
    shuffles: int
    helper_cards: int
    checks: int
    # The run's view: the game's table of views and its id there (the observations are
    # expanded when read, see :attr:`observations`; a game reads them only when it records).
    view: tuple[ViewTable, int]
    expected: dict[str, Any] = field(default_factory=dict)  # the paper's counts for this run
    engine: str = "interpreter"  # which engine ran it: compiled | interpreter
    fallback_reason: str | None = None  # why the interpreter ran it though the compiled path was asked
    # A run with the draw rule (a spec with the parameter ``draw``, run with draw 1): the card P_1
    # drew from the draw pile, or None. It is ``played`` when it was played, else it is in P_1's
    # returned hand (the spec's output ``kept``).
    drawn: Symbol | None = None
    _observations: list[Any] | None = field(default=None, repr=False, compare=False)

    @property
    def observations(self) -> list[Any]:
        """What the table saw of the run (an inlined call's own view expanded into a list)."""
        if self._observations is None:
            views, view = self.view
            self._observations = views.expanded(view)
        return self._observations


def draw_pile(proto: Protocol, owners: int, params: dict[str, Any] | None) -> int | None:
    """The index (0-based) of the draw pile among ``owners`` when a run of ``proto`` with
    ``params`` draws a card for P_1 itself (the spec has the parameters ``draw`` and
    ``discard`` and the output ``kept``, and ``draw`` is 1): the last owner, or the one before
    it when ``discard`` is 1. None when the run draws no card."""
    if "draw" not in proto.params or "kept" not in proto.outputs:
        return None
    given = params or {}
    draw = int(given.get("draw", proto.params["draw"].default))
    discard = int(given.get("discard", proto.params["discard"].default)) if "discard" in proto.params else 0
    return owners - 1 - discard if draw == 1 else None


COUNTS: dict[Any, Any] = {}
"""The paper's counts every :class:`CallCache` shares (bounded by ``_COUNTS_KEPT``): a game's
first turns meet the hand sizes the games before met (a new game's own table, empty, missed
them), and each entry holds its protocol, compared by identity, as the key holds its id."""

STARTS: dict[Any, Any] = {}
"""The starting layouts every :class:`CallCache` shares (bounded by ``_STARTS_KEPT``): a turn's
number of cards is new to its game most of the time (the first 1,017 turns of card-level UNO, 22
games: 846 of them) but not to the process; each entry holds its protocol, compared by identity."""


@dataclass
class CallCache:
    """Sub-protocol outcomes worth keeping from one protocol run to the next."""

    subruns: dict[Any, Any] = field(default_factory=dict)
    factor_refs: dict[Any, Any] = field(default_factory=dict)
    plans: dict[Any, Any] = field(default_factory=dict)  # table rearrangements by layout
    constants: dict[Any, Any] = field(default_factory=dict)  # expressions that read no card
    # Which engine runs the protocol: "compiled" (the spec compiled for single runs, see
    # reference_engine/compiled/, where it compiles), "interpreter", or None for the current
    # default (ENGINE).
    engine: str | None = None
    fallback_reasons: dict[str, int] = field(default_factory=dict)  # why runs took the interpreter
    compiled_runs: int = 0
    # The views of every run with this cache: an exact sub-run's outcome kept in ``subruns``
    # may name a view (a callee whose view does not factor), which must stay valid next run.
    views: ViewTable = field(default_factory=ViewTable)
    interpreter_runs: int = 0
    # The paper's counts (the spec's ``expect`` values) by protocol and parameters, for those
    # that call no game function: they depend on nothing else (see :func:`_paper_count`), so
    # every cache shares the process's one table (:data:`COUNTS`) unless given its own.
    counts: dict[Any, Any] = field(default_factory=lambda: COUNTS)
    # By protocol: the parameters a game gives besides ``sizes``, resolved (checked once), and
    # the encodings its first frame bound (Frame.bindings).
    frames: dict[Any, Any] = field(default_factory=dict)
    # By protocol and number of cards: the starting layout of a run (see :func:`_start`), a
    # function of those alone: the process's one table (:data:`STARTS`) unless given its own.
    starts: dict[Any, Any] = field(default_factory=lambda: STARTS)
    # The lists the last run gave back, with their cards' codes (see tablecodes.py).
    returns: Returns = field(default_factory=Returns)


ENGINES = ("compiled", "interpreter")
ENGINE: ContextVar[str] = ContextVar("kitgen_selection_engine", default="auto")
"""The engine of card-level runs when a :class:`CallCache` does not name one (``kitgen play
--engine`` sets it): "auto", the compiled path where the spec compiles, else the interpreter;
"compiled", the compiled path or an error saying why not; "interpreter"."""


def check_selection(proto: Protocol) -> None:
    """What a game gives a card selection spec and reads from it (refused, exit 2, if absent)."""
    sizes = proto.params.get("sizes")
    cards = proto.inputs.get("cards")
    played = proto.outputs.get("played")
    require(
        proto,
        "a virtual player's turn",
        [
            ("valid" in proto.context, "the game's validity rule (context: {valid: ...})"),
            (sizes is not None and sizes.is_list, "a list parameter 'sizes' (the hand sizes)"),
            (
                cards is not None and cards.groups is not None,
                "an input 'cards' split into hands ('groups: sizes')",
            ),
            (
                played is not None and played.cards is not None,
                "an output 'played' (the card played, or none)",
            ),
        ],
    )


def check_fallback(proto: Protocol, fallback: bool, game: str, default: str) -> None:
    """Whether ``proto`` fits what ``game`` does with a hand that holds no valid card: draw or
    pass (``fallback`` False: the protocol must be able to play none, an output 'found') or play
    any card of the hand (True: it must always play one, no 'found'). Refused, exit 2, before
    the game starts, rather than at the first such turn."""
    found = "found" in proto.outputs
    if found == fallback:
        raise UsageError(
            f"{proto.name} "
            + (
                "may play no card (it has an output 'found'); in "
                f"{game} a player with no valid card plays any card of the hand, so its protocol "
                "must always play one"
                if fallback
                else "plays a card even when none may be played (it has no output 'found'); in "
                f"{game} a virtual player with no valid card draws or passes, so its protocol must "
                "be able to play none"
            )
            + f", like {default}"
        )


_PLANS_KEPT = 20_000  # rearrangement plans kept between runs before the cache starts afresh
_COUNTS_KEPT = 4_096  # the paper's counts kept (by protocol and parameters) before starting afresh
_NAME = attrgetter("name")
_ID = attrgetter("id")
_SECOND = itemgetter(1)
_READ = ("played", "kept")
_HANDS = tuple(f"hand{i}" for i in range(1, 17))  # the owners' regions' names, hand1, hand2, ...


def _hands(n: int) -> tuple[str, ...]:
    return tuple(f"hand{i}" for i in range(1, n + 1))


# the outputs a run's result reads (the others are checked, not decoded)


def run_selection(
    library: Library,
    protocol: Protocol,
    owners: list[list[Symbol]],
    valid: Any,
    rng: random.Random,
    cache: CallCache,
    where: str,
    check_counts: bool = True,
    fallback: bool = False,
    context: dict[str, Any] | None = None,
    params: dict[str, Any] | None = None,
) -> SelectionRun:
    """Run a card selection spec once on ``owners`` (P_1 first) and check the result.

    ``context`` adds game functions besides ``valid`` (the weighted selection's ``weight``) and
    ``params`` parameters besides the table's ``sizes`` (its ``w``).

    Checks: the played card is a valid card of P_1, or none is valid when nothing is
    played; every owner got exactly their cards back (P_1 without the played one); no
    card was created or lost; every helper card went back to the supply; the run used the
    shuffles and helper cards the spec's ``expect`` block quotes from the paper.
    """
    sizes = tuple(map(len, owners))
    if len(cache.plans) > _PLANS_KEPT:
        cache.plans.clear()
    shared = Shared(
        subruns=cache.subruns, factor_refs=cache.factor_refs, plans=cache.plans, constants=cache.constants
    )
    row = list(chain.from_iterable(owners))
    functions = {"valid": valid, **context} if context else {"valid": valid}
    runner = Runner(library, "sample", rng=rng, context=functions, shared=shared, views=cache.views)
    frame = _frame(cache, shared, protocol, sizes, params, functions)
    # A run leaves no reference cycle of its own (tests/reference_engine/test_selection_checks.py):
    # the cyclic collector waits for its end instead of walking its short-lived tables at every
    # few hundred allocations, as it does for an exact run (see collector.py).
    # A card-level game pauses the collector for the whole game: then no pause of our own (the
    # same thing, without a context manager's generator at every turn).
    if gc.isenabled():
        with paused():
            state, engine, reason, start, known = _single(runner, frame, row, cache, owners)
    else:
        state, engine, reason, start, known = _single(runner, frame, row, cache, owners)
    if engine == "compiled":
        cache.compiled_runs += 1
    else:
        cache.interpreter_runs += 1
    # The compiled path reads its outputs with its fast functions too (the same values); made
    # when an output is first evaluated (those a game reads are mostly regions, read without).
    # Read from the cells where every output is a card in a named region or one a game leaves
    # out and that cannot fail (machine/outputs.py's read_regions), else (and under CHECKED) the
    # general way.
    outs = read_regions(frame, state, _READ)
    if outs is None or _evaluate.CHECKED:
        ref = read_outputs(runner, frame, state, only=_READ, ev=_Reader(runner, frame, state, engine))
        if outs is not None and outs != ref:
            raise _evaluate.Mismatch(f"{where}: the outputs read from the cells are {outs}, not {ref}")
        outs = ref
    played = outs["played"]
    returned = []
    got: list[tuple[int, ...]] = []  # each owner's cells as the run left them
    cells = state.cells
    by_name = state.layout.by_name
    at = 0  # where the owner's codes start in the row
    for i, name in enumerate(_HANDS[: len(owners)] if len(owners) <= len(_HANDS) else _hands(len(owners))):
        reg = by_name.get(name)
        # A region's slots are consecutive (Region.slots): its cells are one slice of the row.
        back = cells[reg.offset : reg.offset + reg.size] if reg else ()
        got.append(back)
        # Cells as they started from kept cards (tablecodes.py): those very cards, the faces of them.
        cards = known[i] if known is not None else None
        n = sizes[i]
        if cards is not None and start is not None and back == start[at : at + n]:
            returned.append(cards[:n])
        else:
            returned.append(faces(back) if reg else [])
        at += n
    kept = outs.get("kept")
    if kept is not None:
        returned[0].append(kept)  # the drawn card joins P_1's hand
    helpers = sum(map(_SECOND, state.meters.peak))

    def want(name: str) -> Any:
        return _paper_count(cache, protocol, frame, name, library if engine == "compiled" else None)

    checked = _checked(
        protocol,
        owners,
        valid,
        where,
        check_counts,
        fallback,
        played,
        returned,
        (state.meters.shuffles, helpers),
        (runner.views, state.view),
        want,
        not state.out,
        pile=draw_pile(protocol, len(owners), params),
        kept=kept,
        codes=(start, got) if start is not None else None,
        returns=cache.returns if known is not None else None,
    )
    cache.returns.keep(returned, got)
    checked.engine = engine
    checked.fallback_reason = reason
    return checked


class _Reader:
    """The evaluator :func:`read_outputs` is given for a run (``ev``), made at its first use: the
    compiled path's (compiled/program.py's ``outputs_evaluator``) after a compiled run where the
    protocol compiles, else the interpreter's (``Runner.evaluator``)."""

    __slots__ = ("_ev", "engine", "frame", "runner", "state")

    def __init__(self, runner: Runner, frame: Frame, state: Any, engine: str):
        self.runner, self.frame, self.state, self.engine = runner, frame, state, engine
        self._ev: Any = None

    def _made(self) -> Any:
        if self._ev is None:
            fast = (
                outputs_evaluator(self.runner, self.frame, self.state) if self.engine == "compiled" else None
            )
            self._ev = fast if fast is not None else self.runner.evaluator(self.frame)
        return self._ev

    def value(self, expr: Any, state: Any) -> Any:
        return self._made().value(expr, state)

    def public(self, expr: Any, state: Any, plain_value: bool = False) -> Any:
        return self._made().public(expr, state, plain_value)


_FRAMES_KEPT = 64  # protocols whose resolved parameters and bound encodings a cache keeps


def _frame(
    cache: CallCache,
    shared: Shared,
    protocol: Protocol,
    sizes: tuple[int, ...],
    params: dict[str, Any] | None,
    functions: dict[str, Any],
) -> Frame:
    """The run's frame: what ``Runner.frame`` makes for ``protocol.resolve_params({"sizes":
    sizes, **params})``, with the parameters but ``sizes`` resolved (and checked) once per
    protocol and given parameters, ``sizes`` checked against its bounds at every run (a failing
    one resolved again, which fails as before), and the encodings the first frame bound without
    reading a parameter bound already."""
    given = params or {}
    key = (id(protocol), _given_key(given)) if given else id(protocol)
    kept = cache.frames.get(key)
    resolved: dict[str, Any] | None = None
    frame_key = None
    if kept is not None and kept[0] is protocol and "sizes" not in given:
        _, base, lo, hi, bound, before, after = kept
        # Every size within the bounds: the smallest and the largest (in C; no sizes: none out).
        if not sizes or ((lo is None or min(sizes) >= lo) and (hi is None or max(sizes) <= hi)):
            resolved = dict(base)
            resolved["sizes"] = sizes
            # The frame's key, its parameters sorted by name: the others' around ``sizes``.
            frame_key = (protocol.name, (*before, ("sizes", sizes), *after))
    else:
        bound = None
    if resolved is None:
        resolved = protocol.resolve_params({"sizes": sizes, **given})
    frame = Frame(protocol, resolved, functions, bound, frame_key)
    shared.frames[frame.key] = frame  # as Runner.frame keeps it
    if kept is None or kept[0] is not protocol:
        if len(cache.frames) >= _FRAMES_KEPT:
            cache.frames.clear()
        decl = protocol.params["sizes"]
        others = sorted((k, v) for k, v in resolved.items() if k != "sizes")
        before = tuple(kv for kv in others if kv[0] < "sizes")
        after = tuple(kv for kv in others if kv[0] > "sizes")
        cache.frames[key] = [protocol, resolved, decl.minimum, decl.maximum, frame.bindings(), before, after]
    return frame


_GIVEN: list[tuple[Any, Any, Any]] = [((), (), None)]
"""The last parameters :func:`_given_key` keyed (their items and the values' types) and their
key, as one tuple (replaced whole: a thread reads one entry or the next, never a mix)."""


def _given_key(given: dict[str, Any]) -> Any:
    """``exact(tuple(sorted(given.items())))``: the last one kept where the same names hold
    equal values of the same types, each a whole number or a text (then the exact keys are
    equal: a game gives the same few parameters at every turn); else worked out (and kept
    where every value is a whole number or a text: a value of another type, 1 == True, or a
    tuple whose items' types differ, is never taken from it)."""
    items = tuple(given.items())
    types = tuple(map(type, given.values()))
    last = _GIVEN[0]
    if items == last[0] and types == last[1]:
        return last[2]
    key = exact(tuple(sorted(items)))
    if all(t is int or t is str for t in types):
        _GIVEN[0] = (items, types, key)
    return key


def _single(
    runner: Runner, frame: Any, row: list[Symbol], cache: CallCache, owners: list[list[Symbol]]
) -> tuple[Any, str, str | None, tuple[int, ...] | None, list[list[Symbol] | None] | None]:
    """The run of :func:`run_selection` from the table ``row`` (every owner's cards in a row, of
    ``owners``), the row's codes where :func:`_start` made them itself (each card's ``id << 1``),
    else None, and per owner the kept cards its codes were (:meth:`Returns.codes`)."""
    start, codes, known = _started(cache, frame, row, owners)
    engine = cache.engine or ENGINE.get()
    state, engine, reason = run_single(runner, frame, start, engine, cache.fallback_reasons)
    return state, engine, reason, codes, known


_STARTS_KEPT = 1_024  # starting layouts kept (by protocol and number of cards) before starting afresh


def _start(cache: CallCache, frame: Frame, row: list[Symbol]) -> State:
    """``frame.initial_state({"cards": row})``, for a protocol whose one input is ``cards``, one
    card a slot: the starting layout (a function of the protocol and the number of cards) kept
    in ``cache.starts``, the counters the one shared :data:`~.compiled.run.NO_METERS` (equal to
    ``Meters()``), the cells the cards' codes; any other input, count or value the frame's own
    way (its errors included). Under compiled.evaluate.CHECKED compared with the frame's."""
    return _started(cache, frame, row)[0]


def _started(
    cache: CallCache, frame: Frame, row: list[Symbol], owners: list[list[Symbol]] | None = None
) -> tuple[State, tuple[int, ...] | None, list[list[Symbol] | None] | None]:
    """:func:`_start`'s state, and the cards' codes (each ``id << 1``, face down, in the order of
    ``row``) where it made them itself, else None (the frame's own way); with ``owners`` (whose
    cards ``row`` holds in a row), the codes the last run's lists kept (:meth:`Returns.codes`),
    and per owner the kept cards its codes were, else None."""
    proto = frame.proto
    inputs = proto.inputs
    decl = inputs.get("cards")
    if len(inputs) != 1 or decl is None:
        return frame.initial_state({"cards": row}), None, None
    b = frame.bound(decl.encoding)
    n = len(row)
    if b.width != 1 or b.encoding.kind in _VALUE_KINDS or frame.input_count("cards") != n:
        return frame.initial_state({"cards": row}), None, None
    # code(v) of every card, face down (id << 1), where every card is a Symbol (no subclass):
    # one pass whose attribute reads the interpreter specializes (half a C map of attrgetter's),
    # the type tested on the way (one card not a Symbol: fewer codes than cards); by owner, the
    # codes of the last run's lists where they hold the cards it gave back (tablecodes.py).
    known = None
    if owners is None:
        codes = tuple([c.id << 1 for c in row if type(c) is Symbol])
    else:
        made = cache.returns.codes(owners)
        codes, known = made if made is not None else ((), None)
    if len(codes) != n:
        return frame.initial_state({"cards": row}), None, None
    key = (id(proto), n)
    hit = cache.starts.get(key)
    if hit is None or hit[0] is not proto:
        layout = Layout.make([("cards", 1, n, 1, None, proto.sleeves.get("cards"))])
        if len(cache.starts) >= _STARTS_KEPT:
            cache.starts.clear()
        hit = cache.starts[key] = (proto, layout)
    state = State(hit[1], codes, (), (), NO_METERS, 0)
    if _evaluate.CHECKED:
        ref = frame.initial_state({"cards": row})
        if state != ref or state.layout is not ref.layout:
            raise _evaluate.Mismatch(f"the start of {proto.name}: {state} is not the reference")
    return state, codes, known


def _checked(
    protocol: Protocol,
    owners: list[list[Symbol]],
    valid: Any,
    where: str,
    check_counts: bool,
    fallback: bool,
    played: Symbol | None,
    returned: list[list[Symbol]],
    measured: tuple[int, int],
    view: tuple[ViewTable, int],
    want: Any,
    helpers_back: bool,
    pile: int | None = None,
    kept: Symbol | None = None,
    codes: tuple[tuple[int, ...], list[tuple[int, ...]]] | None = None,
    returns: Returns | None = None,
) -> SelectionRun:
    """The checks of :func:`run_selection` on a finished run (either engine). ``pile``: the
    index of the draw pile when the run draws a card for P_1 itself (:func:`draw_pile`); then
    with no valid card in P_1's hand, the card played or ``kept`` is a card of that pile.
    ``codes``: the row's codes at the start (every owner's cards in a row, each ``id << 1``) and
    each owner's cells at the end, where known: an owner's return is then first checked on
    those whole numbers (:func:`_codes_back`; ``returns``: by :meth:`Returns.back`, which notes
    them for the next run), and by its cards only where that fails."""
    valid_cards = [c for c in owners[0] if valid(c)]
    if played is None and valid_cards:
        raise CheckFailure(
            f"{where}: reported no valid card, but {', '.join(c.glyph for c in valid_cards)} "
            f"{'is' if len(valid_cards) == 1 else 'are'} valid"
        )
    if played is None and fallback and owners[0]:
        raise CheckFailure(f"{where}: played no card, but with no valid card any card of the hand is played")
    drawn = _drawn(owners, valid_cards, played, kept, valid, pile, where)
    # With ``fallback`` (the original covert lottery) a hand without a valid card plays any card.
    allowed = valid_cards if valid_cards or not fallback else list(owners[0])
    if played is not None and played is not drawn and not _holds(allowed, played):
        raise CheckFailure(f"{where}: played {played.glyph}, which is not a valid card of the hand")
    at = 0  # where the owner's cards start in the row
    for i, (owner, cards) in enumerate(zip(owners, returned)):
        by_codes = False
        if codes is not None:
            start, got = codes
            n = len(owner)
            # What the owner lost (P_1 the card played from the hand, the draw pile the card drawn).
            lost = [played.id << 1] if i == 0 and played is not None and played is not drawn else []
            if i == pile and drawn is not None:
                lost.append(drawn.id << 1)
            back, begun = got[i], start[at : at + n]
            by_codes = returns.back(i, back, begun, lost) if returns else _codes_back(back, begun, lost)
            at += n
            if by_codes and not _evaluate.CHECKED:
                continue
        expected = owner  # copied only where a card is taken off or added (the owner is the game's)
        if i == 0:
            if played is not None and played is not drawn:
                expected = list(owner)
                _remove(expected, played)
            if kept is not None:
                expected = [*expected, kept]
        if i == pile and drawn is not None:
            expected = list(expected)
            _remove(expected, drawn)
        if not _same_faces(cards, expected):
            if by_codes:
                raise _evaluate.Mismatch(f"{where}: owner {i + 1}'s return was proven by codes, not by cards")
            raise CheckFailure(
                f"{where}: owner {i + 1} got back {sorted(c.glyph for c in cards)} "
                f"instead of {sorted(c.glyph for c in expected)}"
            )
    # With a hand returned for every owner, the checks above already add up to this one (every
    # card an owner had came back to it, but the card played, and the one drawn went from the
    # draw pile to P_1): only a run that returned more or fewer hands than it had owners fails it.
    if len(returned) != len(owners):
        returned_faces = chain(chain.from_iterable(returned), [played] if played else [])
        if not _same_faces(list(returned_faces), list(chain.from_iterable(owners))):
            raise CheckFailure(f"{where}: cards were created or lost")
    if not helpers_back:
        raise CheckFailure(f"{where}: helper cards were not all returned to the supply")
    paper_counts: dict[str, Any] = {}
    for name, value in zip(("shuffles", "helper_cards"), measured):
        paper = want(name)
        if paper is not None:
            paper_counts[name] = paper
            if check_counts and paper != value:
                raise CheckFailure(f"{where}: used {value} {name.replace('_', ' ')}, the paper says {paper}")
    return SelectionRun(played, returned, measured[0], measured[1], 6, view, paper_counts, drawn=drawn)


def _remove(cards: list[Symbol], card: Symbol) -> None:
    """``cards.remove(card)``, the identical card first: a game's cards are the symbol table's
    own, so it is the first equal one, found without comparing faces field by field; else (a
    card not interned) by equality, as ``remove`` does. Either leaves the same faces."""
    try:
        # By the ids, compared in C (a card's id is its identity while it lives).
        del cards[list(map(id, cards)).index(id(card))]
    except ValueError:
        cards.remove(card)


def _holds(cards: list[Symbol], card: Symbol) -> bool:
    """``card in cards``, the identical card first: a game's cards are the symbol table's own,
    so the answer is found without comparing faces field by field (a dataclass ``__eq__`` per
    card of a draw pile before it); else by equality, as ``in`` does. The same answer."""
    return id(card) in map(id, cards) or card in cards


def _codes_back(got: tuple[int, ...], start: tuple[int, ...], lost: list[int]) -> bool:
    """:func:`~.tablecodes.codes_back`'s answer (an owner's return proven on whole numbers)."""
    return codes_back(got, start, lost)[0]


def _same_faces(cards: list[Symbol], expected: list[Symbol]) -> bool:
    """Whether two lists hold the same faces, each as many times (by name, in any order).

    First by their ids (a sort of whole numbers): equal cards have equal names, so lists equal
    once sorted by id hold the same names; a game's cards are the symbol table's own, so that is
    the answer but for a run that changed a card. Else by name, which decides."""
    if len(cards) != len(expected):
        return False
    if sorted(cards, key=_ID) == sorted(expected, key=_ID):
        return True
    return sorted(map(_NAME, cards)) == sorted(map(_NAME, expected))


def _paper_count(
    cache: CallCache, protocol: Protocol, frame: Any, name: str, library: Library | None = None
) -> Any:
    """The spec's ``expect`` value ``name`` (shuffles, helper_cards) for this run's parameters,
    or None when it quotes none. A value that calls no game function depends on the protocol
    and its parameters alone: it is kept in ``cache`` (the same for every run with those), by
    the values of the parameters it reads (:func:`param_reads`: ``sizes[1]`` alone where it reads
    no other item of ``sizes``, so that a game's turns, whose sizes all differ, share it), else
    by all the parameters. With ``library`` (a compiled run), evaluated by the compiled
    protocol's fast function."""
    # What the expression reads, asked of it once per protocol: whether it calls a game
    # function (e.g. valid), and the parameters (and items) its value depends on.
    reads = cache.counts.get((id(protocol), name))
    if reads is None or reads[0] is not protocol:
        exp = protocol.expect.get(name)
        if exp is None or exp.value is None:
            return None
        calls = exp.value.calls()
        narrow = param_reads(exp.value.node, frozenset(frame.params)) if calls <= _PURE_COUNTS else None
        reads = (protocol, bool(calls & protocol.context.keys()), exp.value, narrow)
        if len(cache.counts) >= _COUNTS_KEPT:
            cache.counts.clear()
        cache.counts[(id(protocol), name)] = reads
    _, game, expr, narrow = reads
    key = (id(protocol), name, frame.key if narrow is None else read_values(frame.params, narrow))
    hit = cache.counts.get(key)
    if hit is not None and hit[0] is protocol:
        return hit[1]
    # The fast function only where it calls no game function (each called as often as before).
    fast = library is not None and not game
    value = expect_value(library, frame, expr) if fast and library is not None else expr(frame.globals)
    if not game:
        if len(cache.counts) >= _COUNTS_KEPT:
            cache.counts.clear()
            cache.counts[(id(protocol), name)] = reads
        cache.counts[key] = (protocol, value)
    return value


_PURE_COUNTS = frozenset({"len"})
"""Functions an ``expect`` value may call and still be kept by the parameters it reads (a
function of its arguments alone)."""


def _drawn(
    owners: list[list[Symbol]],
    valid_cards: list[Symbol],
    played: Symbol | None,
    kept: Symbol | None,
    valid: Any,
    pile: int | None,
    where: str,
) -> Symbol | None:
    """The card P_1 drew in a run with the draw rule (checked: only with no valid card in its
    hand, a card of the draw pile, played exactly when it is valid), or None."""
    if pile is None:
        if kept is not None:
            raise CheckFailure(f"{where}: kept {kept.glyph}, but this run draws no card")
        return None
    if valid_cards:
        if kept is not None:
            raise CheckFailure(f"{where}: drew {kept.glyph}, but the hand held a valid card")
        return None
    drawn = played if played is not None else kept
    if played is not None and kept is not None:
        raise CheckFailure(f"{where}: both played {played.glyph} and kept {kept.glyph}")
    if drawn is None:
        if owners[pile]:
            raise CheckFailure(f"{where}: no valid card in the hand, but drew no card from the draw pile")
        return None
    if not _holds(owners[pile], drawn):
        raise CheckFailure(f"{where}: drew {drawn.glyph}, which is not a card of the draw pile")
    if bool(valid(drawn)) != (played is not None):
        what = "played" if played is not None else "kept"
        raise CheckFailure(
            f"{where}: {what} the drawn card {drawn.glyph}, which is {'' if valid(drawn) else 'not '}valid"
        )
    return drawn
