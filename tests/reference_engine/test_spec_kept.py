"""Attacks on the process-wide store of checked protocols (spec._CHECKED): a kept protocol must
be what checking its file again would give, whatever the process did in between."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest

from reference_engine import spec
from reference_engine.cards import ROTATIONS, SYMBOLS
from reference_engine.errors import SpecError
from reference_engine.registry import Library

_FRESH = itertools.count()


@pytest.fixture(autouse=True)
def _own_store(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with an empty store of its own: the process-wide one is bounded and
    starts afresh once full (spec._CHECKED_MAX), so a spec this test kept could be dropped by
    its own next insert after other files filled it (a kept protocol checked again: not ``is``
    the first, and no longer in ``_CHECKED``), as under xdist after ~250 specs elsewhere."""
    monkeypatch.setattr(spec, "_CHECKED", {})


def _names(n: int) -> list[str]:
    """Card names no other test has interned (SYMBOLS is global), short enough to be glyphs."""
    base = f"kq{next(_FRESH)}"
    return [f"{base}n{i}" for i in range(n)]


def _spec(name: str, symbols: str, card: str) -> str:
    return (
        f"protocol: {name}\ntitle: t\nsymbols: {{{symbols}}}\n"
        f"steps:\n  - step: 1\n    say: x\n    place: {{s: [{card}]}}\n"
    )


def test_a_kept_protocol_sees_a_glyph_another_spec_gave_since(tmp_path: Path) -> None:
    """A spec's check reads the cards the process knows (a glyph printed by another spec): a
    family that another spec declares since with a glyph makes the first spec's own card
    ``glyph: x`` clash (an error when checked again), and its card without a glyph print as
    the family's."""
    x, y, z = _names(3)
    (tmp_path / "a.yaml").write_text(_spec("a", f"{x}: {{glyph: {x}}}, {y}: {{}}", x), encoding="utf-8")
    (tmp_path / "b.yaml").write_text(
        _spec("b", f"{x}: {{glyph: Q1, family: true}}, {y}: {{glyph: Q2, family: true}}, {z}: {{}}", z),
        encoding="utf-8",
    )
    first = Library([tmp_path]).protocol("a")
    assert (first.symbols[x].glyph, first.symbols[y].glyph) == (x, y)
    Library([tmp_path]).protocol("b")
    assert (SYMBOLS.get(x).glyph, SYMBOLS.get(y).glyph) == ("Q1", "Q2")  # type: ignore[union-attr]
    with pytest.raises(SpecError, match=f"card '{x}' is already printed as 'Q1' by another spec"):
        Library([tmp_path]).protocol("a")
    (tmp_path / "a.yaml").write_text(_spec("a", f"{y}: {{}}", y), encoding="utf-8")
    again = Library([tmp_path]).protocol("a")
    assert again.symbols[y].glyph == "Q2"


def test_a_kept_protocol_pairs_its_up_down_cards_again(tmp_path: Path) -> None:
    """Checking a spec pairs its up-down cards (ROTATIONS, global): another spec pairing one of
    them with a third card since, the kept spec must pair them again, as checking it would."""
    u, d, o = _names(3)
    (tmp_path / "a.yaml").write_text(
        _spec("a", f"{u}: {{rotated: {d}}}, {d}: {{rotated: {u}}}", u), encoding="utf-8"
    )
    (tmp_path / "b.yaml").write_text(
        _spec("b", f"{u}: {{rotated: {o}}}, {o}: {{rotated: {u}}}", u), encoding="utf-8"
    )
    Library([tmp_path]).protocol("a")
    Library([tmp_path]).protocol("b")
    ids = {n: SYMBOLS.get(n).id for n in (u, d, o)}  # type: ignore[union-attr]
    assert ROTATIONS.to[ids[u]] == ids[o]
    Library([tmp_path]).protocol("a")
    assert ROTATIONS.to[ids[u]] == ids[d] and ROTATIONS.to[ids[d]] == ids[u]


def test_a_file_rewritten_with_the_same_size_and_time_is_read_again(tmp_path: Path) -> None:
    """The store is keyed by the text itself, not by the file's size or time."""
    (x,) = _names(1)
    path = tmp_path / "a.yaml"
    path.write_text(_spec("a", f"{x}: {{}}", x).replace("title: t", "title: 1"), encoding="utf-8")
    stat = path.stat()
    assert Library([tmp_path]).protocol("a").title == "1"
    path.write_text(_spec("a", f"{x}: {{}}", x).replace("title: t", "title: 2"), encoding="utf-8")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert path.stat().st_size == stat.st_size and path.stat().st_mtime_ns == stat.st_mtime_ns
    assert Library([tmp_path]).protocol("a").title == "2"


def test_the_same_text_in_two_files_names_each_file(tmp_path: Path) -> None:
    (x,) = _names(1)
    good = _spec("a", f"{x}: {{}}", x)
    bad = good.replace(f"[{x}]", "[nowhere]")
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    for folder in (one, two):
        (folder / "a.yaml").write_text(good, encoding="utf-8")
    a1, a2 = Library([one]).protocol("a"), Library([two]).protocol("a")
    assert (a1.file, a2.file, a1.src.file) == (str(one / "a.yaml"), str(two / "a.yaml"), str(one / "a.yaml"))
    for folder in (one, two):
        (folder / "a.yaml").write_text(bad, encoding="utf-8")
        with pytest.raises(SpecError) as info:
            Library([folder]).protocol("a")
        assert {p.file for p in info.value.problems} == {str(folder / "a.yaml")}


def test_a_kept_caller_links_the_callee_of_each_librarys_path(tmp_path: Path) -> None:
    """The caller is kept; which callee it calls is each library's (its search path)."""
    (x,) = _names(1)
    caller = "protocol: caller\ntitle: t\nsteps:\n  - step: 1\n    say: x\n    call: callee\n"
    one, two = tmp_path / "one", tmp_path / "two"
    for folder, title in ((one, "first"), (two, "second")):
        folder.mkdir()
        (folder / "callee.yaml").write_text(
            _spec("callee", f"{x}: {{}}", x).replace("title: t", f"title: {title}"), encoding="utf-8"
        )
    (tmp_path / "caller.yaml").write_text(caller, encoding="utf-8")
    for folder, title in ((one, "first"), (two, "second")):
        lib = Library([tmp_path, folder])
        assert lib.protocol("caller") is spec.load_protocol_checked(tmp_path / "caller.yaml")[0]
        assert lib.protocol("callee").title == title


def test_nothing_a_game_or_a_verification_does_changes_a_kept_protocol() -> None:
    """Every library shares a kept protocol: playing, simulating and verifying must leave it
    (its declarations, steps and source) as checked."""
    from kitgen.core.verification import verify_named
    from reference_engine.kinds.shedding import Game, load_rules
    from reference_engine.selection import ENGINE

    lib = Library()
    for name in ("card-selection-arrow", "knockout-lottery", "six-card-and"):
        lib.protocol(name)

    def snapshot() -> dict[tuple[str, str], str]:
        return {
            key: repr(p) + repr(p.src.data) + repr(sorted(p.src.lines.items(), key=repr))
            for key, p in spec._CHECKED.items()
        }

    before = snapshot()
    rules = load_rules("uno")
    for engine in ("compiled", "interpreter"):
        token = ENGINE.set(engine)
        try:
            Game(rules, lib, players=4, virtual=4, level="card", seed=1).play()
        finally:
            ENGINE.reset(token)
    verify_named("six-card-and", force=True)
    verify_named("knockout-lottery", ("m=2",), force=True)
    after = snapshot()
    assert {k: after[k] for k in before if k in after} == {k: before[k] for k in before if k in after}
    assert len(set(before) & set(after)) >= 3


# --- w48-attack3 -------------------------------------------------------------------------------


def test_a_spec_refused_for_its_calls_prints_no_card(tmp_path: Path) -> None:
    (x,) = _names(1)
    refused = _spec("f", f"{x}: {{glyph: X1}}", x) + "  - step: 2\n    say: y\n    call: nowhere\n"
    (tmp_path / "f.yaml").write_text(refused, encoding="utf-8")
    (tmp_path / "g.yaml").write_text(_spec("g", f"{x}: {{glyph: X2}}", x), encoding="utf-8")
    for _ in range(2):  # checked, then kept
        with pytest.raises(SpecError, match="unknown protocol 'nowhere'"):
            Library([tmp_path]).protocol("f")
    assert Library([tmp_path]).protocol("g").symbols[x].glyph == "X2"


def test_a_kept_spec_after_a_failed_check_of_another_is_as_checked(tmp_path: Path) -> None:
    """A spec whose own check fails (a clashing glyph, a bad step) prints none of its cards:
    the kept spec that declares the same cards is a hit, as checked, before and after."""
    x, y = _names(2)
    (tmp_path / "a.yaml").write_text(_spec("a", f"{x}: {{glyph: A1}}, {y}: {{}}", x), encoding="utf-8")
    (tmp_path / "b.yaml").write_text(
        _spec("b", f"{x}: {{glyph: B1}}, {y}: {{glyph: B2}}", x), encoding="utf-8"
    )  # x clashes: refused before it prints y's glyph
    (tmp_path / "c.yaml").write_text(
        _spec("c", f"{y}: {{glyph: C2}}", y).replace("say: x", "say: x\n    bogus: 1"), encoding="utf-8"
    )
    first = Library([tmp_path]).protocol("a")
    for name, message in (("b", "already printed as 'A1'"), ("c", "unknown key 'bogus'")):
        for _ in range(2):
            with pytest.raises(SpecError, match=message):
                Library([tmp_path]).protocol(name)
    assert (SYMBOLS.get(x).glyph, SYMBOLS.get(y).glyph) == ("A1", y)  # type: ignore[union-attr]
    again = Library([tmp_path]).protocol("a")
    assert again is first and again.symbols[y].glyph == y


def test_a_kept_caller_whose_callee_is_broken_in_one_library_only(tmp_path: Path) -> None:
    """The same caller file (kept once) in two libraries whose search paths give it a good and
    a broken callee: the second refuses it, the first keeps accepting it, in either order."""
    (x,) = _names(1)
    caller = "protocol: caller\ntitle: t\nsteps:\n  - step: 1\n    say: x\n    call: callee\n"
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    good = _spec("callee", f"{x}: {{}}", x)
    (one / "callee.yaml").write_text(good, encoding="utf-8")
    (two / "callee.yaml").write_text(good.replace("say: x", "say: x\n    bogus: 1"), encoding="utf-8")
    (tmp_path / "caller.yaml").write_text(caller, encoding="utf-8")
    for folder in (two, one, two, one):
        lib = Library([tmp_path, folder])
        if folder is one:
            assert lib.protocol("caller").name == "caller"
        else:
            with pytest.raises(SpecError, match="unknown key 'bogus'"):
                lib.protocol("caller")


def test_a_card_met_by_name_alone_may_still_be_declared_with_its_glyph(tmp_path: Path) -> None:
    (x,) = _names(1)
    SYMBOLS.intern(x)  # as views.local / a read-back report does, before any spec declares it
    (tmp_path / "g.yaml").write_text(_spec("g", f"{x}: {{glyph: X2}}", x), encoding="utf-8")
    assert Library([tmp_path]).protocol("g").symbols[x].glyph == "X2"
    assert SYMBOLS.get(x).glyph == "X2"  # type: ignore[union-attr]


# --- w48-glyphs --------------------------------------------------------------------------------


def _caller(name: str, symbols: str, card: str, callee: str, args: str = "") -> str:
    call = f"  - step: 2\n    say: y\n    call: {callee}\n" + (f"    with: {{{args}}}\n" if args else "")
    return _spec(name, symbols, card) + call


def test_a_refused_caller_undoes_its_callees_glyphs_and_pairs(tmp_path: Path) -> None:
    """A caller refused for a call's arguments, after its callee (checked inside it) inherited
    its glyph: neither keeps a card printed nor an up-down pair, in the process or in the
    library; the callee alone prints the card by its name, as if the caller had never been read."""
    x, u, d = _names(3)
    symbols = f"{x}: {{glyph: X1}}, {u}: {{rotated: {d}}}, {d}: {{rotated: {u}}}"
    (tmp_path / "f.yaml").write_text(_caller("f", symbols, x, "h", "zz: 1"), encoding="utf-8")
    (tmp_path / "h.yaml").write_text(_spec("h", f"{x}: {{}}", x), encoding="utf-8")
    lib = Library([tmp_path])
    for _ in range(2):  # checked, then kept
        with pytest.raises(SpecError, match="zz"):
            lib.protocol("f")
        assert SYMBOLS.get(x).glyph == x  # type: ignore[union-attr]
        assert SYMBOLS.named_only(x)  # known by its name alone: a later spec may give it a glyph
        ids = [SYMBOLS.get(n).id for n in (u, d)]  # type: ignore[union-attr]
        assert all(i not in ROTATIONS.to for i in ids)
    assert lib.protocol("h").symbols[x].glyph == x
    assert Library([tmp_path]).protocol("h").symbols[x].glyph == x


def test_an_accepted_caller_still_lends_its_glyph_to_its_callee(tmp_path: Path) -> None:
    """The undo is for refused specs only: a callee without a glyph of its own prints the card
    as its accepted caller does, and the card stays declared (another glyph is refused)."""
    x = _names(1)[0]
    (tmp_path / "f.yaml").write_text(_caller("f", f"{x}: {{glyph: X1}}", x, "h"), encoding="utf-8")
    (tmp_path / "h.yaml").write_text(_spec("h", f"{x}: {{}}", x), encoding="utf-8")
    (tmp_path / "g.yaml").write_text(_spec("g", f"{x}: {{glyph: X2}}", x), encoding="utf-8")
    lib = Library([tmp_path])
    assert lib.protocol("f").symbols[x].glyph == "X1"
    assert lib.protocol("h").symbols[x].glyph == "X1"
    with pytest.raises(SpecError, match="already printed as 'X1'"):
        Library([tmp_path]).protocol("g")


def test_a_card_a_spec_declared_without_a_glyph_is_not_named_only(tmp_path: Path) -> None:
    """A card declared by an accepted spec with no glyph prints as its name: another spec giving
    it a glyph is refused still (only a card met by name alone may gain one)."""
    x = _names(1)[0]
    (tmp_path / "a.yaml").write_text(_spec("a", f"{x}: {{}}", x), encoding="utf-8")
    (tmp_path / "g.yaml").write_text(_spec("g", f"{x}: {{glyph: X2}}", x), encoding="utf-8")
    Library([tmp_path]).protocol("a")
    assert not SYMBOLS.named_only(x)
    with pytest.raises(SpecError, match=f"already printed as '{x}'"):
        Library([tmp_path]).protocol("g")
