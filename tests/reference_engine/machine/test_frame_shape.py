"""A frame's names and functions (reference_engine/machine/frame.py): what is worked out once per
protocol (the built-in and family functions, the symbols) and the game's functions' wrappers
kept by function give every frame the same table, order included, as building it afresh; a key
a caller gives is the one the frame would work out (checked under ``evaluate.CHECKED``)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from reference_engine.cards import SYMBOLS
from reference_engine.compiled import evaluate
from reference_engine.functions import BUILTINS
from reference_engine.machine import frame as frame_module
from reference_engine.machine.frame import Frame, _context_fn, _family_fn
from reference_engine.registry import Library
from reference_engine.spec import Protocol


def _reference(proto: Protocol, params: dict[str, Any], context: dict[str, Any]) -> tuple[Any, ...]:
    """The names and functions as a frame built them before (their order, and what each is)."""
    names: dict[str, Any] = dict(params)
    functions: dict[str, Any] = dict(BUILTINS)
    for cname in proto.context:
        functions[cname] = ("context", cname)
    for s in proto.symbols.values():
        if s.family:
            functions[s.name] = ("family", s.name)
        else:
            names[s.name] = SYMBOLS.intern(s.name, s.glyph)
    for enc in proto.encodings.values():
        names[enc.name] = enc
        functions[enc.name] = ("encoder", enc.name)
    return list(names.items()), list(functions)


def _kind(fn: Any, proto: Protocol) -> Any:
    if getattr(fn, "__qualname__", "").startswith("_context_fn"):
        return "context"
    if getattr(fn, "__qualname__", "").startswith("_family_fn"):
        return "family"
    if getattr(fn, "__qualname__", "").startswith("Frame._encoder"):
        return "encoder"
    return fn


@pytest.mark.parametrize(
    "name", ["card-selection-arrow", "card-selection", "weighted-selection", "gakmoro-round"]
)
def test_a_frame_is_built_as_before(name: str) -> None:
    library = Library()
    proto = library.protocol(name)
    given = {"sizes": (3, 2, 4)} if "sizes" in proto.params else {}
    params = proto.resolve_params(given | ({"w": 2} if "w" in proto.params else {}))
    context = {c: (lambda card: True) for c in proto.context}
    for _ in range(2):  # the first frame works the protocol's shape out, the second reads it
        frame = Frame(proto, params, context)
        names, order = _reference(proto, params, context)
        assert list(frame.globals.names.items()) == names
        assert list(frame.globals.functions) == order
        for fname, fn in frame.globals.functions.items():
            if fname in BUILTINS and fn is BUILTINS[fname]:
                continue
            kind = _kind(fn, proto)
            assert kind in ("context", "family", "encoder"), fname
            if kind == "context":
                assert fn.direct is context[fname]  # type: ignore[attr-defined]
        assert frame.key == (proto.name, tuple(sorted(params.items())))


def test_the_names_a_frame_gives_follow_collisions() -> None:
    """A family, an encoding and a game function of one name: the last a frame adds wins (the
    encoder), as before; the game's function is not set over it."""

    class Sym:
        def __init__(self, name: str, family: bool) -> None:
            self.name, self.glyph, self.family = name, name, family

    class Enc:
        def __init__(self, name: str) -> None:
            self.name = name
            self.kind = "values"

    proto: Any = SimpleNamespace(
        name="kg-frame-collisions",
        context={"f": None, "g": None, "len": None},
        symbols={"f": Sym("f", True), "x": Sym("kg-frame-x", False)},
        encodings={"g": Enc("g")},
        helpers=None,
    )
    game_f, game_g, game_len = (lambda: 1), (lambda: 2), (lambda: 3)
    frame = Frame(proto, {"sizes": ()}, {"f": game_f, "g": game_g, "len": game_len})
    functions = frame.globals.functions
    assert _kind(functions["f"], proto) == "family"
    assert _kind(functions["g"], proto) == "encoder"
    assert functions["len"].direct is game_len  # a built-in's name: the game's function, in place
    assert list(functions) == [*BUILTINS, "f", "g"]
    assert frame.globals.names["kg-frame-x"] is SYMBOLS.intern("kg-frame-x")


def test_a_game_functions_wrapper_is_kept_by_function() -> None:
    proto = Library().protocol("card-selection-arrow")
    params = proto.resolve_params({"sizes": (1, 1)})
    one, other = (lambda card: True), (lambda card: False)
    a = Frame(proto, params, {"valid": one}).globals.functions["valid"]
    b = Frame(proto, params, {"valid": one}).globals.functions["valid"]
    c = Frame(proto, params, {"valid": other}).globals.functions["valid"]
    assert a is b and a.direct is one  # type: ignore[attr-defined]
    assert c is not a and c.direct is other  # type: ignore[attr-defined]
    missing = Frame(proto, params, None).globals.functions["valid"]
    assert missing.direct is None  # type: ignore[attr-defined]
    assert _context_fn is frame_module._context_fn and _family_fn is frame_module._family_fn


def test_a_symbol_given_its_glyph_again_is_interned_again() -> None:
    """A symbol whose glyph went back to its name (an undone declaration) gets its glyph from the
    next frame, as interning it at every frame did."""
    proto = Library().protocol("card-selection-arrow")
    params = proto.resolve_params({"sizes": (1,)})
    Frame(proto, params, None)
    sym = next(s for s in proto.symbols.values() if not s.family and s.glyph != s.name)
    live = SYMBOLS.intern(sym.name)
    object.__setattr__(live, "glyph", sym.name)  # as SymbolTable.declare's undo leaves it
    try:
        Frame(proto, params, None)
        assert live.glyph == sym.glyph
    finally:
        object.__setattr__(live, "glyph", sym.glyph)


def test_a_given_key_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    proto = Library().protocol("card-selection-arrow")
    params = proto.resolve_params({"sizes": (2, 3)})
    right = (proto.name, tuple(sorted(params.items())))
    assert Frame(proto, params, None, None, right).key == right
    monkeypatch.setattr(evaluate, "CHECKED", True)
    with pytest.raises(AssertionError, match="frame key"):
        Frame(proto, params, None, None, (proto.name, ()))
