"""Helper usage steps taken without the general work (reference_engine/meters.py): a change of one
symbol walked into place (:func:`out_one`), a change of several that brings no new symbol left
in its order, a run's first peaks read off the usage, and a fall of one count from a usage the
counters cover (``_FELL``: nothing to compare), each against the plain formula."""

from __future__ import annotations

import pickle
import random
from dataclasses import replace

from reference_engine import meters
from reference_engine.meters import Meters, _made, out_add, out_one


def plain_add(out: tuple[tuple[int, int], ...], delta: dict[int, int]) -> tuple[tuple[int, int], ...]:
    if not delta:
        return out
    cur = dict(out)
    for sid, n in delta.items():
        cur[sid] = cur.get(sid, 0) + n
    return tuple(sorted((k, v) for k, v in cur.items() if v))


def plain_note(m: Meters, out: tuple[tuple[int, int], ...]) -> Meters:
    peak = dict(m.peak)
    for sid, n in out:
        if n > peak.get(sid, 0):
            peak[sid] = n
    return replace(m, peak=tuple(sorted(peak.items())))


def usage(rng: random.Random, symbols: int = 9) -> tuple[tuple[int, int], ...]:
    """A usage as out_add makes them: sorted by symbol, each once, no count of none."""
    got = plain_add(
        (), {rng.randrange(symbols): rng.choice([-3, -1, 1, 2, 5, 90]) for _ in range(rng.randrange(7))}
    )
    assert got == out_add((), {s: n for s, n in got})
    return got


def test_a_change_of_one_symbol_is_the_plain_sum() -> None:
    """Before, at, after and between the symbols out, to zero (left out), past zero, by nothing
    (the usage itself), a new symbol (in its place): the plain formula, items as tuples."""
    rng = random.Random(7)
    for _ in range(5000):
        out = usage(rng)
        sid = rng.randrange(10)
        n = rng.choice([-dict(out).get(sid, 1), -2, -1, 0, 1, 3])
        got = out_one(out, sid, n)
        assert got == plain_add(out, {sid: n}) == out_add(out, {sid: n})
        assert type(got) is tuple and all(type(i) is tuple for i in got)


def test_a_change_of_several_symbols_is_the_plain_sum_new_symbols_or_none() -> None:
    rng = random.Random(8)
    for _ in range(5000):
        out = usage(rng)
        if out and rng.random() < 0.5:  # only symbols already out: no sort needed, none made
            delta = {s: rng.choice([-n, -1, 2]) for s, n in out if rng.random() < 0.7}
        else:
            delta = {rng.randrange(10): rng.randrange(-3, 4) for _ in range(rng.randrange(2, 5))}
        assert out_add(out, delta) == plain_add(out, delta)


def test_a_run_s_first_peaks_are_the_usage_s_positive_counts() -> None:
    """No peak yet: each positive count is its peak; zero or below raise none (these very
    counters where none is positive)."""
    for out in (
        ((0, 93),),
        ((1, 2), (5, 7), (9, 1)),
        ((1, -2), (4, 3)),
        ((2, -1), (3, -4)),
        ((2, 0), (3, 0)),
    ):
        m = _made(1, 2, (("cut", 1),), (), ())
        got = m.note_out(out)
        assert got == plain_note(m, out)
        assert (got is m) == (not any(n > 0 for _, n in out))


def test_a_fall_from_a_covered_usage_raises_nothing_without_a_look() -> None:
    """A turn's cards back one discard after another: after the counters noted ``out``, each
    count lowered by out_one is known to raise nothing (the very counters, the usage noted as
    covered), as the plain formula says; a rise, a new symbol, a usage lowered from one they
    did not note, or other counters: worked out as ever."""
    m = _made(0, 3, (), ((0, 94), (58, 5), (59, 8)), ())
    out = ((0, 86), (58, 5), (59, 8))
    noted = m.note_out(out)
    assert noted is m and m.__dict__["_over"] is out
    fell = out_one(out, 0, -1)
    assert [fell, out] == meters._FELL
    assert m.note_out(fell) is m and m.__dict__["_over"] is fell
    again = out_one(fell, 58, -5)  # a symbol gone
    assert m.note_out(again) is m and m.__dict__["_over"] is again
    # A rise is never a fall: the peaks are worked out (and raised).
    up = out_one(again, 0, 20)
    assert meters._FELL[0] is again  # unchanged: only a fall is noted
    raised = m.note_out(up)
    assert raised.peak == ((0, 105), (58, 5), (59, 8)) and raised.__dict__["_over"] is up
    # Counters that never noted the usage a count fell from: the formula, not the shortcut.
    other = _made(0, 0, (), ((0, 1),), ())
    before = ((0, 50), (7, 3))
    low = out_one(before, 0, -1)
    got = other.note_out(low)
    assert got == plain_note(other, low) and got.peak == ((0, 49), (7, 3))


def test_notes_along_random_changes_are_the_plain_peaks() -> None:
    """A run's usage changed and noted step after step, rises and falls of one symbol or
    several, the counters shared among runs as the memo shares them: each note the plain one."""
    rng = random.Random(9)
    for _ in range(200):
        m = _made(0, 0, (), (), ())
        plain = m
        out: tuple[tuple[int, int], ...] = ()
        for _ in range(30):
            if rng.random() < 0.6 and out:
                sid, k = rng.choice(out)
                delta = {sid: -rng.randint(1, max(1, abs(k)))}
            else:
                delta = {rng.randrange(6): rng.randint(-2, 4) for _ in range(rng.randint(1, 3))}
            out = out_add(out, delta)
            m = m.note_out(out)
            plain = plain_note(plain, out)
            assert m == plain
            if rng.random() < 0.1:
                m = _made(m.shuffles, m.turns, m.kinds, m.peak, m.calls)  # counters that noted nothing


def test_the_covered_usage_is_not_pickled() -> None:
    m = _made(0, 1, (), ((3, 4),), ())
    m.note_out(((3, 2), (5, -1)))
    assert "_over" in m.__dict__
    back = pickle.loads(pickle.dumps(m))
    assert back == m and "_over" not in back.__dict__


def test_a_shuffle_counted_by_kind_is_the_plain_count() -> None:
    """No kind yet, the one kind so far, another kind, several kinds (in any order given): the
    kinds as the dict and sort make them."""
    for kinds in ((), (("spin", 2),), (("cut", 1),), (("spin", 1), ("cut", 4)), (("cut", 4), ("spin", 1))):
        for kind in ("spin", "cut", "scramble"):
            m = _made(3, 1, kinds, (), ())
            by = dict(kinds)
            by[kind] = by.get(kind, 0) + 1
            got = m.add_shuffle(kind)
            assert got.kinds == tuple(sorted(by.items())) and got.shuffles == 4
            assert type(got.kinds) is tuple and all(type(i) is tuple for i in got.kinds)
