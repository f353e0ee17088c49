"""The small lotteries' laws kept on disk (reference_engine/machine/lawcache.py): a process that
reads them plays exactly as one that enumerates them, and a damaged, foreign or stale entry, or
one written under other face numbers, is never taken (the law is enumerated as before)."""

from __future__ import annotations

import os
import pickle
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from reference_engine.cards import SYMBOLS
from reference_engine.machine import lawcache
from reference_engine.machine import relabel as rl

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from test_relabel_games import uno_card_games  # noqa: E402

SEEDS = (0, 4)


@pytest.fixture(autouse=True)
def _on(relabel_fresh: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Laws on disk in a folder of this test's own, nothing kept in the process."""
    monkeypatch.setenv(lawcache.ENV, "1")
    monkeypatch.setenv(lawcache.CACHE_ENV, str(tmp_path))
    return tmp_path


def _forget(monkeypatch: pytest.MonkeyPatch) -> None:
    """As a new process: nothing kept in memory (the disk keeps what it has)."""
    for name, value in (("_KEPT", {}), ("_TABLE", [None, {}]), ("_EVALUATORS", {}), ("_PLANS_OF", {})):
        monkeypatch.setattr(rl, name, value)


def _games(monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], int]:
    """The games of SEEDS (their logs and random states) and how many laws were enumerated."""
    count = [0]
    first = rl._first

    def counted(*args: Any, **kwargs: Any) -> Any:
        count[0] += 1
        return first(*args, **kwargs)

    monkeypatch.setattr(rl, "_first", counted)
    try:
        out = uno_card_games(SEEDS)
    finally:
        monkeypatch.setattr(rl, "_first", first)
    return out, count[0]


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("law-*.law"))


def test_games_read_their_laws_back_and_play_alike(monkeypatch: pytest.MonkeyPatch, _on: Path) -> None:
    cold, enumerated = _games(monkeypatch)
    assert enumerated > 0
    written = _entries(_on)
    assert len(written) == enumerated  # every first enumeration kept (no code order compared)
    _forget(monkeypatch)
    warm, again = _games(monkeypatch)
    assert again == 0  # every law read back
    assert warm == cold
    monkeypatch.setenv(lawcache.ENV, "0")  # and as with no disk at all
    _forget(monkeypatch)
    plain, enumerated_plain = _games(monkeypatch)
    assert plain == cold and enumerated_plain == enumerated


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[: len(data) // 2],  # cut short
        lambda data: b"not a pickle at all",
        lambda data: pickle.dumps(("a", "foreign", "file")),
        lambda data: pickle.dumps(os.system),  # a callable: refused, never called
        lambda data: data.replace(b"knockout", b"knockouT"),  # another key inside
    ],
)
def test_a_damaged_or_foreign_entry_is_enumerated_again(
    monkeypatch: pytest.MonkeyPatch, _on: Path, damage: Any
) -> None:
    cold, enumerated = _games(monkeypatch)
    for entry in _entries(_on):
        entry.write_bytes(damage(entry.read_bytes()))
    _forget(monkeypatch)
    warm, again = _games(monkeypatch)
    assert warm == cold and again == enumerated
    assert all(lawcache.load(k) is not None for k, v in rl._KEPT.items() if v[2] >= 0)  # rewritten whole


MALFORMED: list[Any] = [
    lambda law: ("x",),  # not (view, result, probability) entries: the game died unpacking it
    lambda law: "another marker",
    lambda law: (),
    lambda law: tuple((chain, sub, p * 2) for chain, sub, p in law),  # probabilities past 1
    lambda law: tuple((chain, sub, -p) for chain, sub, p in law),
    lambda law: tuple(([list(obs) for obs in chain], sub, p) for chain, sub, p in law),  # unhashable
    lambda law: tuple((tuple((1.5, *obs) for obs in chain), sub, p) for chain, sub, p in law),
    lambda law: tuple((chain, None, p) for chain, sub, p in law),
    lambda law: tuple((chain, sub, p) for chain, sub, p in law)[:-1] or ("x",),  # some missing
]


def test_an_entry_that_is_not_a_law_is_enumerated_again(monkeypatch: pytest.MonkeyPatch, _on: Path) -> None:
    """Attack (stop 50): an entry filed under its own key, faces and format, whose law has
    another shape (a hostile or buggy writer's) made the game die with a traceback where it used
    it. Each law on disk gets one malformation; every one is refused and enumerated again."""
    cold, enumerated = _games(monkeypatch)
    laws = [(k, v) for k, v in rl._KEPT.items() if not isinstance(v[0], str)]
    assert len(laws) >= len(MALFORMED)
    for i, (key, (law, first, cost)) in enumerate(laws):
        bad = (MALFORMED[i % len(MALFORMED)](law), first, cost)
        assert lawcache._write(lawcache.path(key), lawcache._dumps(key, bad, lawcache._numbered()))
    _forget(monkeypatch)
    warm, again = _games(monkeypatch)
    assert warm == cold and again == enumerated


def test_an_entry_is_taken_only_under_the_same_face_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    _games(monkeypatch)
    key, entry = next((k, v) for k, v in rl._KEPT.items() if v[2] >= 0)
    assert lawcache.load(key) == entry
    name = SYMBOLS.by_id(0).name
    real = SYMBOLS.by_id
    monkeypatch.setattr(SYMBOLS, "by_id", lambda i: real(1) if i == 0 and name else real(i))
    assert lawcache.load(key) is None  # face 0 named otherwise in this process


def test_an_entry_is_taken_only_under_the_same_face_attributes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A callee may read a face's game attributes (an UNO card's colour): a law written where a
    face of the same name had other attributes is not taken (w49-attack2's residual risk)."""
    _games(monkeypatch)
    key, entry = next((k, v) for k, v in rl._KEPT.items() if v[2] >= 0)
    assert lawcache.load(key) == entry
    face = next(SYMBOLS.by_id(i) for i in range(lawcache._numbered()) if SYMBOLS.by_id(i).attrs)
    monkeypatch.setitem(face.attrs, "color", "kg-another-colour")
    assert lawcache.load(key) is None


def test_the_folder_holds_nothing_that_blocks_or_is_too_large(
    monkeypatch: pytest.MonkeyPatch, _on: Path
) -> None:
    _games(monkeypatch)
    key = next(k for k in rl._KEPT if len(k) == 3)
    target = lawcache.path(key)
    target.unlink()
    os.mkfifo(target)  # a FIFO: never opened for a blocking read
    assert lawcache.load(key) is None
    target.unlink()
    target.write_bytes(b"\0" * (lawcache.MAX_ENTRY + 1))
    assert lawcache.load(key) is None


def test_nothing_is_written_when_it_is_off_or_cannot_be(monkeypatch: pytest.MonkeyPatch, _on: Path) -> None:
    monkeypatch.setenv(lawcache.ENV, "off")
    _games(monkeypatch)
    assert _entries(_on) == []
    monkeypatch.setenv(lawcache.ENV, "1")
    _forget(monkeypatch)
    with lawcache.caching(False):  # kitgen build --no-cache
        _games(monkeypatch)
    assert _entries(_on) == [] and lawcache.enabled()
    monkeypatch.setenv(lawcache.ENV, "1")
    blocked = _on / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv(lawcache.CACHE_ENV, str(blocked / "below"))
    _forget(monkeypatch)
    assert _games(monkeypatch)[1] > 0  # enumerated, nothing written, no error
    assert not list(_on.glob(".law-*"))  # no temporary file left


def test_a_law_that_does_not_read_back_equal_is_not_written(_on: Path) -> None:
    key = ("spec", ("callee", ()), ((0,),))
    law: Any = (((("turn", (object(),)),), None, 1),)  # an object no unpickler here builds
    assert not lawcache.save(key, (law, (0,), 0))
    assert _entries(_on) == []
    assert lawcache.save(key, ("ordered", (), 0)) and lawcache.load(key) == ("ordered", (), 0)


def test_the_engine_digest_is_the_contents_and_its_memo_is_checked(
    monkeypatch: pytest.MonkeyPatch, _on: Path
) -> None:
    lawcache.engine_digest.cache_clear()
    monkeypatch.setattr(lawcache, "RACY", 0)  # a checkout made a moment ago is memoised too
    try:
        real = lawcache.engine_digest()  # computed from the content; its memo written
        memo = _on / "law-engine.digest"
        assert memo.read_text().split()[1] == real
        lawcache.engine_digest.cache_clear()
        memo.write_text(memo.read_text().split()[0] + " " + "0" * 64 + "\n")
        assert lawcache.engine_digest() == "0" * 64  # the memo is taken while no file changed
        lawcache.engine_digest.cache_clear()
        sources = lawcache._sources

        def more(root: str, below: str = "") -> list[tuple[str, int, int, int, int]]:
            return sources(root, below) if below else [*sources(root), ("zz-new.py", 1, 1, 1, 1)]

        monkeypatch.setattr(lawcache, "_sources", more)
        with pytest.raises(FileNotFoundError):  # a file the memo did not see: read again, all of them
            lawcache.engine_digest()
        monkeypatch.setattr(lawcache, "_sources", sources)
        for damaged in ("", "one-word", "\0\xff" * 600):
            lawcache.engine_digest.cache_clear()
            memo.write_text(damaged)
            assert lawcache.engine_digest() == real
    finally:
        lawcache.engine_digest.cache_clear()


def _faces_afresh(n: int) -> str:
    """The faces' digest computed from scratch (what :func:`lawcache._faces` gave before it kept
    its digests)."""
    import hashlib

    faces = (SYMBOLS.by_id(i) for i in range(n))
    names = "\0".join(f"{s.name}\1{sorted(s.attrs.items())!r}" for s in faces)
    return hashlib.blake2b(names.encode(), digest_size=16).hexdigest()


def test_the_faces_digest_kept_is_the_one_computed_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """The digest kept per count of faces is given again only while it is the one computed afresh:
    after a face's attribute is set to an equal value of another text (1, then True), to a list
    changed in place, removed, added or reordered, and after a face is renamed or replaced."""
    face = SYMBOLS.intern("kg-lawcache-digest-face", attrs={"value": 1, "color": "red"})
    n = lawcache._numbered()
    assert lawcache._faces(n) == _faces_afresh(n)
    assert lawcache._faces(n) == _faces_afresh(n)  # kept, then given again
    steps: list[Callable[[], object]] = [
        lambda: monkeypatch.setitem(face.attrs, "value", True),  # equal to 1, printed otherwise
        lambda: monkeypatch.setitem(face.attrs, "value", [1]),
        lambda: face.attrs["value"].append(2),  # the same list, changed in place
        lambda: monkeypatch.delitem(face.attrs, "color"),
        lambda: monkeypatch.setitem(face.attrs, "kind", "skip"),
        lambda: object.__setattr__(face, "attrs", {"kind": "skip", "value": [1, 2]}),  # reordered
        lambda: object.__setattr__(face, "name", face.name + "-renamed"),
    ]
    name, attrs = face.name, face.attrs
    try:
        for step in steps:
            step()
            assert lawcache._faces(n) == _faces_afresh(n)
            assert lawcache._faces(n) == _faces_afresh(n)
    finally:
        object.__setattr__(face, "name", name)
        object.__setattr__(face, "attrs", attrs)
    real = SYMBOLS.by_id
    other = SYMBOLS.by_id(0)
    monkeypatch.setattr(SYMBOLS, "by_id", lambda i: other if i == face.id else real(i))
    assert lawcache._faces(n) == _faces_afresh(n)


def test_the_faces_numbered_are_the_table_and_a_key_text_given_names_the_same_file() -> None:
    """``_numbered`` is the number of ids ``by_id`` answers; ``path`` and ``_loads`` given the
    key's text (``load`` computes it once) do what they do from the key."""
    n = lawcache._numbered()
    assert n == len(SYMBOLS) and all(SYMBOLS.by_id(i).id == i for i in range(n))
    with pytest.raises(IndexError):
        SYMBOLS.by_id(n)
    key = ("a key", 1, ((0, 1), (1,)))
    assert lawcache.path(key, repr(key)) == lawcache.path(key)
    data = lawcache._dumps(key, ("ordered", (), 0), n)
    assert lawcache._loads(key, data, repr(key)) == lawcache._loads(key, data) == ("ordered", (), 0)
    assert lawcache._loads(key, data, repr(("another key",))) is None
