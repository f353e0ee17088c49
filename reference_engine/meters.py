"""Resource counters carried along a run (shuffles, turns, the helper cards out at once, calls)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from operator import itemgetter
from typing import Any

_UNKNOWN: Any = object()  # not in a memo
MEMO_KEPT = 64
"""Steps a :class:`Meters` remembers (see ``_remember``)."""


@dataclass(frozen=True)
class Meters:
    """Resource counters carried along a run.

    ``peak`` holds, per symbol id, the most helper cards of that symbol that were out of
    the supply at the same time; the sum of the peaks is how many helper cards to prepare.
    ``calls`` lists, for each sub-protocol this protocol called directly, its name and the
    cards it used (the cards handed to it plus the helper cards it took).
    """

    shuffles: int = 0
    turns: int = 0
    kinds: tuple[tuple[str, int], ...] = ()
    peak: tuple[tuple[int, int], ...] = ()
    calls: tuple[tuple[str, int], ...] = ()

    # The same few counters recur in every state of a run: each step from one to the next is
    # computed once and remembered on the instance (outside the fields: equality and hashing
    # are the fields').

    # A step that changes nothing is remembered as None, not as the instance itself: a memo
    # holding its own instance would be a reference cycle, left for the cyclic collector. A
    # memo holds at most MEMO_KEPT steps (it starts afresh beyond): the counters every run
    # starts from are one shared instance, and a card-level game's runs start with helper
    # usages that differ from turn to turn, so an unbounded memo would keep every run's
    # counters for the life of the process (issue 37).

    def __hash__(self) -> int:
        """The dataclass's hash (of the fields' tuple: the same number), worked out once per
        instance and kept outside the fields: every state made carries its counters into its own
        hash, and an exact verification makes a million states from a few hundred counters."""
        d = self.__dict__
        h = d.get("_hash")
        if h is None:
            h = d["_hash"] = hash((self.shuffles, self.turns, self.kinds, self.peak, self.calls))
        return h

    def __getstate__(self) -> dict[str, Any]:
        """The fields and the memo, less the kept hash: a text's hash differs from one process
        to another (a pickled hash would be another process's)."""
        state = dict(self.__dict__)
        state.pop("_hash", None)
        state.pop("_over", None)  # a usage known by identity: another object once unpickled
        return state

    def _remember(self, key: Any, value: Meters) -> Meters:
        memo = self.__dict__.get("_next")
        if memo is None:
            memo = {}
            object.__setattr__(self, "_next", memo)
        elif len(memo) >= MEMO_KEPT:
            memo.clear()
        memo[key] = None if value is self else value
        return value

    def _with(
        self,
        shuffles: int,
        turns: int,
        kinds: tuple[tuple[str, int], ...],
        peak: tuple[tuple[int, int], ...],
        calls: tuple[tuple[str, int], ...],
    ) -> Meters:
        """These counters with the five fields given: made directly for Meters itself
        (dataclasses.replace reads the fields' list at every call), by ``replace`` for a subclass,
        so that a field of its own is kept."""
        if type(self) is Meters:
            return _made(shuffles, turns, kinds, peak, calls)
        return replace(self, shuffles=shuffles, turns=turns, kinds=kinds, peak=peak, calls=calls)

    def add_shuffle(self, kind: str) -> Meters:
        d = self.__dict__
        memo = d.get("_next")  # _memo, inline (a compiled run's steps call these often)
        if memo is not None:
            hit = memo.get(("shuffle", kind), _UNKNOWN)
            if hit is not _UNKNOWN:
                return self if hit is None else hit
        kinds = self.kinds
        if not kinds:
            counted: tuple[tuple[str, int], ...] = ((kind, 1),)
        elif len(kinds) == 1 and kinds[0][0] == kind:  # one kind so far, this one (most runs')
            counted = ((kind, kinds[0][1] + 1),)
        else:
            by = dict(kinds)
            by[kind] = by.get(kind, 0) + 1
            counted = tuple(sorted(by.items()))
        if memo is None and type(self) is Meters:
            # Counters met for the first time (most of a card-level run's): _with and
            # _remember inline, the same counters and the same memo.
            new = _made(self.shuffles + 1, self.turns, counted, self.peak, self.calls)
            d["_next"] = {("shuffle", kind): new}
            return new
        new = self._with(self.shuffles + 1, self.turns, counted, self.peak, self.calls)
        return self._remember(("shuffle", kind), new)

    def add_turn(self) -> Meters:
        d = self.__dict__
        memo = d.get("_next")  # _memo, inline
        if memo is not None:
            hit = memo.get("turn", _UNKNOWN)
            if hit is not _UNKNOWN:
                return self if hit is None else hit
        elif type(self) is Meters:  # met for the first time: _with and _remember inline (as above)
            new = _made(self.shuffles, self.turns + 1, self.kinds, self.peak, self.calls)
            d["_next"] = {"turn": new}
            return new
        return self._remember(
            "turn", self._with(self.shuffles, self.turns + 1, self.kinds, self.peak, self.calls)
        )

    def note_out(self, out: tuple[tuple[int, int], ...]) -> Meters:
        """Raise the peaks to the current helper usage ``out``.

        A usage of more than one symbol is worked out, not remembered: the counts of a turn's
        owner cards follow the hands, so nearly every such usage is new to the counters that see
        it (10 card-level UNO games: 6 a turn looked up and missed, none met again), and a memo
        entry made for it is hashed twice and dropped unread. No usage (nothing out) raises
        nothing: these very counters.

        Such a usage is known to raise nothing where it is :func:`out_one`'s last fall (one
        symbol's count lowered) from a usage these counters were last seen to cover (``_over``:
        each peak at least its count): a count that falls stays under its peak (a turn's cards
        going back to the supply one discard after another). Both known by identity, the two
        usages held alive by ``_FELL``: no comparison at all."""
        if len(out) > 1:
            d = self.__dict__
            if out is _FELL[0] and d.get("_over") is _FELL[1]:
                d["_over"] = out
                return self
            new = self._note_out(out)
            new.__dict__["_over"] = out
            return new
        if not out:
            return self
        memo = self.__dict__.get("_next")  # _memo, inline
        if memo is not None:
            hit = memo.get(out, _UNKNOWN)
            if hit is not _UNKNOWN:
                return self if hit is None else hit
        elif type(self) is Meters:  # met for the first time: _remember inline (as add_turn)
            new = self._note_out(out)
            self.__dict__["_next"] = {out: None if new is self else new}
            return new
        return self._remember(out, self._note_out(out))

    def _note_out(self, out: tuple[tuple[int, int], ...]) -> Meters:
        """The counters with each peak raised to ``out``'s count; these very counters where none
        rises (most usages: a peak is only passed when more helper cards are out than ever).
        No peak yet (a run's first helper cards): the peaks are ``out``'s positive counts."""
        if not self.peak:
            rise = tuple([item for item in out if item[1] > 0])
            if not rise:
                return self
            return self._with(self.shuffles, self.turns, self.kinds, rise, self.calls)
        peak = dict(self.peak)
        get = peak.get
        for sid, n in out:
            if n > get(sid, 0):
                break
        else:
            return self
        for sid, n in out:
            if n > get(sid, 0):
                peak[sid] = n
        return self._with(self.shuffles, self.turns, self.kinds, tuple(sorted(peak.items())), self.calls)

    def absorb(
        self, sub: Meters, out_before: tuple[tuple[int, int], ...], callee: str = "", handed: int = 0
    ) -> Meters:
        """Add the counts of a sub-protocol run that started with ``out_before`` helpers out.

        ``callee`` and ``handed`` (the cards passed to it) record the call in ``calls``.
        """
        kinds = dict(self.kinds)
        for k, n in sub.kinds:
            kinds[k] = kinds.get(k, 0) + n
        peak = dict(self.peak)
        before = dict(out_before)
        get = peak.get
        for sid, n in sub.peak:  # the larger of the two (no builtin max: it parses its arguments)
            high = before.get(sid, 0) + n
            low = get(sid, 0)
            peak[sid] = high if high > low else low
        calls = self.calls
        if callee:
            calls = (*calls, (callee, handed + sum(map(_COUNT, sub.peak))))
        return _made(
            self.shuffles + sub.shuffles,
            self.turns + sub.turns,
            tuple(sorted(kinds.items())),
            tuple(sorted(peak.items())),
            calls,
        )


_new = object.__new__


def _made(
    shuffles: int,
    turns: int,
    kinds: tuple[tuple[str, int], ...],
    peak: tuple[tuple[int, int], ...],
    calls: tuple[tuple[str, int], ...],
) -> Meters:
    """``Meters(shuffles, turns, kinds, peak, calls)``, its fields set directly: the frozen
    dataclass's ``__init__`` sets each through ``object.__setattr__`` (a compiled run makes a
    dozen new counters a turn). The same object: the same fields, compared and hashed by them."""
    m: Meters = _new(Meters)
    d = m.__dict__
    d["shuffles"] = shuffles
    d["turns"] = turns
    d["kinds"] = kinds
    d["peak"] = peak
    d["calls"] = calls
    return m


_COUNT = itemgetter(1)  # an (symbol, count) item's count


def out_add(out: tuple[tuple[int, int], ...], delta: dict[int, int]) -> tuple[tuple[int, int], ...]:
    """Helper usage after taking (positive) or returning (negative) cards per symbol (the
    symbols none of is out left out: ``filter`` by the count, in C; the items sorted by symbol,
    each symbol once).

    ``out`` is such a usage (every one is made here, from none): sorted by symbol, each once,
    no count of none. A change of one symbol (most: a card or a row of one symbol back to the
    supply) is :func:`out_one`. Of more, a change that brings no new symbol keeps the order of
    ``out``'s symbols (a dict keeps its keys' order): no sort."""
    if len(delta) == 1:
        for sid, n in delta.items():
            return out_one(out, sid, n)
    if not delta:
        return out
    cur = dict(out)
    size = len(cur)
    get = cur.get
    for sid, n in delta.items():
        cur[sid] = get(sid, 0) + n
    if len(cur) == size:
        return tuple(filter(_COUNT, cur.items()))
    return tuple(sorted(filter(_COUNT, cur.items())))


def out_one(out: tuple[tuple[int, int], ...], sid: int, n: int) -> tuple[tuple[int, int], ...]:
    """``out_add(out, {sid: n})``: the symbol's place found by a walk of ``out`` (sorted, a few
    symbols), the items before and after it kept as they are (no dict, sort nor filter)."""
    i = 0
    for s, k in out:
        if s >= sid:
            if s == sid:
                k += n
                new = (*out[:i], (sid, k), *out[i + 1 :]) if k else out[:i] + out[i + 1 :]
                if n < 0:
                    _FELL[0] = new
                    _FELL[1] = out
                return new
            break
        i += 1
    if not n:
        return out
    return (*out[:i], (sid, n), *out[i:])


_FELL: list[Any] = [None, None]
"""The usage :func:`out_one` last lowered, after and before (see :meth:`Meters.note_out`)."""
