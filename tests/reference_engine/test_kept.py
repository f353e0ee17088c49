"""A cache that keeps values only while they are met again (reference_engine/kept.py), and the
counters' memos (meters.py): both bounded, whatever keys they are asked for."""

from __future__ import annotations

from reference_engine.kept import WINDOW, Kept, exact, exact_env
from reference_engine.meters import MEMO_KEPT, Meters


def test_kept_values_are_returned_until_the_limit_starts_it_afresh() -> None:
    kept: Kept[str] = Kept(4)
    assert kept.get("a") is None
    assert kept.put("a", "A") == "A"
    assert kept.get("a") == "A" and len(kept) == 1
    for k in "bcd":
        kept["" + k] = k.upper()
    assert len(kept) == 4
    kept.put("e", "E")  # the fifth: the cache starts afresh
    assert len(kept) == 1 and kept.get("a") is None and kept.get("e") == "E"


def test_keys_never_met_again_stop_being_kept_and_recurring_ones_start_again() -> None:
    kept: Kept[int] = Kept(1024)
    for i in range(WINDOW):
        if kept.get(("once", i)) is None:
            kept.put(("once", i), i)
    assert not kept.keeping and len(kept) == 0
    for i in range(10 * WINDOW):  # still never met again: nothing kept
        assert kept.get(("again", i)) is None
        kept.put(("again", i), i)
        assert len(kept) == 0
    # Eight keys in turn: each miss after the first eight is one a kept value would have met.
    for i in range(2 * WINDOW):
        assert kept.get(i % 8) is None or kept.keeping
        if kept.get(i % 8) is None:
            kept.put(i % 8, i % 8)
    assert kept.keeping
    hits = sum(kept.get(i % 8) == i % 8 for i in range(WINDOW))
    assert hits >= WINDOW - 8


def test_a_kept_that_is_met_again_keeps_keeping() -> None:
    kept: Kept[int] = Kept(1024)
    for i in range(20 * WINDOW):
        key = i % 100
        if kept.get(key) is None:
            kept.put(key, key)
    assert kept.keeping and len(kept) == 100


def test_a_counters_memo_is_bounded_and_remembers_unchanged_as_itself() -> None:
    start = Meters()
    for n in range(5 * MEMO_KEPT):
        out = ((0, n),)
        after = start.note_out(out)
        assert after.peak == ((0, n),) if n else after is start
        assert start.note_out(out) is after  # remembered
    memo = start.__dict__["_next"]
    assert 0 < len(memo) <= MEMO_KEPT
    assert start not in memo.values()  # never itself: no reference cycle


class _Clash:
    """A key whose hash every other such key shares (equal only to a key of the same name)."""

    def __init__(self, name: int) -> None:
        self.name = name

    def __hash__(self) -> int:
        return 7

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Clash) and other.name == self.name


def test_keys_whose_hashes_collide_never_get_each_others_values() -> None:
    """Attack (w37-attack2): a hash collision, kept or not kept, while it stops keeping (it
    remembers hashes then) and after it starts again, never returns another key's value."""
    kept: Kept[int] = Kept(1024)
    for rnd in range(6 * WINDOW):
        key = _Clash(rnd % 3 if rnd > 3 * WINDOW else rnd)  # never met again, then recurring
        got = kept.get(key)
        assert got is None or got == key.name, (rnd, got)
        if got is None:
            kept.put(key, key.name)
    assert kept.keeping  # the recurring keys made it keep again
    for name in range(3):
        assert kept.get(_Clash(name)) in (None, name)
    assert kept.get(_Clash(99)) is None


def test_exact_keys_tell_types_apart_all_the_way_down() -> None:
    """1 == True and (1,) == (True,) in Python; a spec tells them apart (w37-attack4)."""
    keys = [
        1,
        True,
        0,
        False,
        "1",
        (1,),
        (True,),
        ((1, 2),),
        ((True, 2),),
        None,
        (),
        (("k", 1),),
        (("k", True),),
    ]
    assert len({exact(k) for k in keys}) == len(keys)
    assert exact((1, "a", (2,))) == exact((1, "a", (2,)))


def _exact_by_recursion(value: object) -> object:
    """exact() as it was before its items were keyed inline: every item through the function."""
    t = type(value)
    if t is int or t is str or value is None:
        return value
    if t is tuple:
        assert isinstance(value, tuple)
        if {int, str}.issuperset(map(type, value)):
            return value
        return (tuple, *map(_exact_by_recursion, value))
    return (t, value)


def test_exact_keys_items_inline_as_the_recursion_did() -> None:
    """A tuple's items keyed inline (numbers, texts, None and flat rows as they are): the same
    key as each item through exact(), for hostile items too (truths, None, floats, fractions,
    rows with a truth or None in them, nested rows, empty rows, a tuple subclass)."""
    from fractions import Fraction

    class Row(tuple):  # type: ignore[type-arg]
        pass

    items: list[object] = [1, True, False, 0, "x", None, 1.0, Fraction(1, 2), (), (1, 2), ("a", 1)]
    items += [(True,), (1, None), (None,), ((1, 2),), ((True,),), ((1,), (2, (3, False))), Row((1,))]
    values = [tuple(items), *((x,) for x in items), *((x, y) for x in items for y in items)]
    keys: dict[object, set[str]] = {}
    for v in values:
        got = exact(v)
        assert got == _exact_by_recursion(v) and type(got) is type(_exact_by_recursion(v)), v
        assert [type(a) for a in got] == [type(a) for a in _exact_by_recursion(v)], v  # type: ignore[attr-defined]
        keys.setdefault(got, set()).add(repr(v))
    assert all(len(reprs) == 1 for reprs in keys.values())  # no two values share a key


def test_variables_keys_tell_types_apart_and_keep_plain_variables_as_they_are() -> None:
    """``exact_env``: the variables themselves when every value is a number, a text or a flat
    tuple of them; else :func:`exact`'s key. Keys of either kind are equal only for variables
    of the same values and types (a plain one never equals an ``exact`` one)."""
    envs = [
        (),
        (("x", 1),),
        (("x", True),),
        (("x", "1"),),
        (("x", (1, 2)),),
        (("x", (True, 2)),),
        (("x", ((1,),)),),
        (("x", ((True,),)),),
        (("x", None),),
        (("x", 1), ("y", "a")),
        (("x", True), ("y", "a")),
    ]
    keys = [exact_env(e) for e in envs]
    assert len(set(keys)) == len(envs)
    plain = (("x", 1), ("y", "a"), ("z", (1, "b")))
    assert exact_env(plain) is plain
    assert exact_env((("x", True),)) == exact((("x", True),))
    assert exact_env(tuple(list(plain))) == exact_env(plain)


def test_the_variables_keys_kept_are_bounded_and_never_another_object_s() -> None:
    """``exact_env`` keeps keys by the variables' object, holding it (its id names no other
    object meanwhile), at most ``ENV_KEYS`` of them."""
    from reference_engine import kept

    for i in range(kept.ENV_KEYS + 10):
        env = (("kg_env_keys_bound", i == 1 if i % 2 else i),)  # fresh objects, bool or int
        key = exact_env(env)
        assert key == exact(env) or key is env
        assert len(kept._ENV_KEYS) <= kept.ENV_KEYS
    again = (("kg_env_keys_bound", True),)
    assert exact_env(again) == exact(again) != exact_env((("kg_env_keys_bound", 1),))
