"""Hostile files in the small lotteries' law cache (reference_engine/machine/lawcache.py).

A law file is read by an unpickler. Refusing foreign classes by name is not enough: a pickle's
BUILD opcode sets attributes on whatever object lies on its stack, and REDUCE calls whatever
class it may name. Each attack here puts one hostile file where a key's law is looked for and
checks that reading it changes nothing in the process and costs nothing, and that writing an
entry never follows a link planted at its temporary name.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from reference_engine.cards import SYMBOLS
from reference_engine.machine import lawcache
from reference_engine.machine.plans import SubResult
from reference_engine.meters import Meters

KEY: tuple[Any, ...] = ("attack", ("no-such-callee", ()), ((0, 1),))
PROTO = b"\x80\x05"


def _s(text: str) -> bytes:
    """A pickle's SHORT_BINUNICODE of ``text``."""
    data = text.encode()
    return b"\x8c" + bytes([len(data)]) + data


def _global(module: str, name: str) -> bytes:
    return _s(module) + _s(name) + b"\x93"  # STACK_GLOBAL


@pytest.fixture(autouse=True)
def _on(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv(lawcache.ENV, "1")
    monkeypatch.setenv(lawcache.CACHE_ENV, str(tmp_path))
    return tmp_path


def _plant(data: bytes) -> Path:
    target = lawcache.path(KEY)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    return target


@pytest.fixture
def face() -> Iterator[Any]:
    """A face of this process, put back as it was whatever the attack did to it."""
    sym = SYMBOLS.intern("LawcacheAttackFace")
    before = dict(vars(sym))
    yield sym
    vars(sym).clear()
    vars(sym).update(before)


@pytest.mark.parametrize("cls", [Fraction, SubResult, Meters])
def test_a_law_file_cannot_set_attributes_on_a_class(cls: type[Any]) -> None:
    """GLOBAL then BUILD (None, {attr: value}) is setattr on the class itself: process-wide."""
    setattrs = b"N}" + _s("kg_law_attack") + b"K\x01s\x86b."  # (None, {...}) BUILD
    _plant(PROTO + _global(cls.__module__, cls.__qualname__) + setattrs)
    try:
        assert lawcache.load(KEY) is None
        assert "kg_law_attack" not in vars(cls)
    finally:
        if "kg_law_attack" in vars(cls):
            delattr(cls, "kg_law_attack")


def test_a_law_file_cannot_rewrite_a_live_face(face: Any) -> None:
    """A face read back is this process's own Symbol; BUILD {glyph: ...} on it would write into
    its __dict__ past the frozen dataclass (every table printing that face would change)."""
    pid = b"(" + _s("face") + b"J" + face.id.to_bytes(4, "little", signed=True) + _s(face.name) + b"tQ"
    before = dict(vars(face))
    _plant(PROTO + pid + b"}" + _s("glyph") + _s("EVIL") + b"s" + _s("attrs") + b"}sb.")
    assert lawcache.load(KEY) is None
    assert vars(face) == before and face.glyph == before["glyph"]


def test_a_face_handed_out_again_after_a_rewrite_is_put_back_as_it_was_first(face: Any) -> None:
    """The same face handed out, rewritten by BUILD, then handed out again: it is put back as it
    was before the entry was read, not as the BUILD left it (when each handing out was recorded,
    the last record, taken after the BUILD, was put back last)."""
    pid = b"(" + _s("face") + b"J" + face.id.to_bytes(4, "little", signed=True) + _s(face.name) + b"tQ"
    before = dict(vars(face))
    _plant(PROTO + pid + b"}" + _s("glyph") + _s("EVIL") + b"sb" + pid + b"\x86.")
    assert lawcache.load(KEY) is None
    assert vars(face) == before and face.glyph == before["glyph"]


def test_a_law_file_cannot_make_a_fraction_of_a_hostile_string(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fraction('1e999999999') computes 10**999999999: a 40-byte file would hang the process.
    The unpickler must never hand a string to Fraction (recorded here instead of computed)."""
    handed: list[str] = []
    original = Fraction.__dict__["__new__"]

    def new(cls: type[Fraction], *args: Any, **kwargs: Any) -> Fraction:
        if args and isinstance(args[0], str):
            handed.append(args[0])
            raise ValueError("a string handed to Fraction")
        return original.__func__(cls, *args, **kwargs)  # type: ignore[no-any-return]

    monkeypatch.setattr(Fraction, "__new__", staticmethod(new))
    _plant(PROTO + _global("fractions", "Fraction") + _s("1e999999999") + b"\x85R.")
    assert lawcache.load(KEY) is None
    assert handed == []


def test_a_hostile_fraction_or_sub_result_by_value_is_refused() -> None:
    """Where fractions and sub-results are written by value, their fields are checked when read."""
    for pid in (
        b"(" + _s("frac") + _s("1e999999999") + b"K\x01tQ.",
        b"(" + _s("frac") + b"K\x01K\x00tQ.",  # a zero denominator
        b"(" + _s("sub") + b"K\x01K\x02K\x03K\x04K\x05tQ.",  # fields of the wrong types
    ):
        _plant(PROTO + pid)
        assert lawcache.load(KEY) is None


def test_a_link_planted_at_the_temporary_name_is_not_followed(_on: Path, tmp_path_factory: Any) -> None:
    """Writing an entry never writes through a link someone left at its temporary name."""
    victim = tmp_path_factory.mktemp("victim") / "victim.txt"
    victim.write_bytes(b"keep me")
    target = lawcache.path(KEY)
    target.parent.mkdir(parents=True, exist_ok=True)
    planted = target.with_name(f".{target.name}.tmp-{os.getpid()}")
    planted.symlink_to(victim)
    assert lawcache._write(target, b"entry")
    assert victim.read_bytes() == b"keep me"
    assert target.read_bytes() == b"entry" and not target.is_symlink()
    assert [p.name for p in target.parent.iterdir() if p.name.startswith(f".{target.name}.tmp")] in (
        [],
        [planted.name],
    )


def test_a_cache_folder_that_is_a_file_is_skipped(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """KITGEN_CACHE_DIR naming a file: nothing read, nothing written, no error."""
    plain = tmp_path / "a-file"
    plain.write_bytes(b"not a folder")
    monkeypatch.setenv(lawcache.CACHE_ENV, str(plain))
    assert lawcache.load(KEY) is None
    assert lawcache.save(KEY, ((), (), 0)) is False
    assert plain.read_bytes() == b"not a folder"


def test_a_real_law_still_reads_back_whole(face: Any) -> None:
    """What the entries hold (fractions, sub-results with counters and faces) survives the trip."""
    for i in range(4):  # card codes 0..3 below are faces' codes only where the process has 2 faces
        SYMBOLS.intern(f"LawcacheAttackFace{i}")  # (run alone, this test's face may be the first)
    meters = Meters(shuffles=1, turns=2, kinds=(("turn", 2),), peak=((face.id, 1),), calls=(("x", 3),))
    sub = SubResult(
        cards=(((1, 2), (0, 3)),),
        values=(1, "a"),
        delta=((0, 1),),
        meters=meters,
        shown=(("shown", "o", (face,)),),
    )
    law = (((("turn", (3, 3)),), sub, Fraction(1, 3)), (((("if", True),),), sub, Fraction(2, 3)))
    entry = (law, (face.id,), 7)
    assert lawcache.save(KEY, entry)
    got = lawcache.load(KEY)
    assert got == entry
    assert got is not None and got[0][0][1].shown[0][2][0] is face


def _memo_seen(folder: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    """The engine digest and the memo's first field (the files' stats), as written in ``folder``."""
    monkeypatch.setenv(lawcache.CACHE_ENV, str(folder))
    monkeypatch.setattr(lawcache, "RACY", 0)
    lawcache.engine_digest.cache_clear()
    real = lawcache.engine_digest()
    seen = (folder / "law-engine.digest").read_text().split()[0]
    lawcache.engine_digest.cache_clear()
    return real, seen


@pytest.mark.parametrize("planted", ["link", "fifo", "folder", "huge"])
def test_a_planted_digest_memo_is_not_taken(
    planted: str, monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The engine digest's memo (stop 50's round): a link to a memo that names a false digest
    is not followed, and a FIFO, folder or huge file in its place neither blocks nor fails."""
    real, seen = _memo_seen(tmp_path_factory.mktemp("first"), monkeypatch)
    folder = tmp_path_factory.mktemp("planted")
    memo = folder / "law-engine.digest"
    forged = tmp_path_factory.mktemp("elsewhere") / "memo"
    forged.write_text(f"{seen} {'0' * 64}\n")  # right stats, false digest
    if planted == "link":
        memo.symlink_to(forged)
    elif planted == "fifo":
        os.mkfifo(memo)
    elif planted == "folder":
        memo.mkdir()
    else:
        memo.write_text(f"{seen} {'0' * 64}\n" + " " * 2048)
    monkeypatch.setenv(lawcache.CACHE_ENV, str(folder))
    try:
        assert lawcache.engine_digest() == real
    finally:
        lawcache.engine_digest.cache_clear()
    assert forged.read_text() == f"{seen} {'0' * 64}\n"  # what the link pointed to is untouched


def test_writers_of_one_law_at_once_leave_one_whole_entry(_on: Path) -> None:
    entry: Any = ("ordered", (), 0)
    start = threading.Barrier(8)
    read: list[Any] = []

    def write() -> None:
        start.wait()
        for _ in range(20):
            assert lawcache.save(KEY, entry)
            read.append(lawcache.load(KEY))  # the file is there: renamed in whole, whoever wrote last

    workers = [threading.Thread(target=write) for _ in range(8)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert len(read) == 160 and all(r == entry for r in read)
    assert [p.name for p in _on.iterdir() if p.name != "law-engine.digest"] == [lawcache.path(KEY).name]
