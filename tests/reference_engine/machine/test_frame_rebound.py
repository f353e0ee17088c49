"""A frame bound to a game's turn (reference_engine/machine/frame.py, selection._frame): the count
``sum(sizes)`` read without the interpreter, encodings bound once per protocol where binding
reads no parameter, the parameters besides ``sizes`` resolved once; each the same as before,
and what fails still failing the same."""

from __future__ import annotations

import gc
import random
from collections.abc import Callable

import pytest

from reference_engine.cards import Symbol
from reference_engine.errors import UsageError
from reference_engine.expressions import EvalError, Scope, parse
from reference_engine.functions import BUILTINS
from reference_engine.kinds.shedding import load_rules
from reference_engine.machine import Runner
from reference_engine.machine import frame as frame_module
from reference_engine.machine.frame import Frame, _sum_of_param
from reference_engine.registry import Library
from reference_engine.selection import CallCache, run_selection
from reference_engine.table import NewCards

RULES = load_rules("uno")
valid = RULES.validity(RULES.symbol("red5"), "red")


def table(seed: int, sizes: tuple[int, ...] = (3, 2, 30)) -> list[list[Symbol]]:
    deck = RULES.deck()
    random.Random(seed).shuffle(deck)
    out, at = [], 0
    for n in sizes:
        out.append(deck[at : at + n])
        at += n
    return out


@pytest.mark.parametrize(
    ("text", "names", "functions", "fast"),
    [
        ("sum(sizes)", {"sizes": (2, 1, 2)}, BUILTINS, 5),
        ("sum(sizes)", {"sizes": ()}, BUILTINS, 0),
        ("sum(sizes) + 0", {"sizes": (2, 1, 2)}, BUILTINS, None),  # another expression
        ("sum(sizes)", {"sizes": (2, True)}, BUILTINS, None),  # true is no whole number here
        ("sum(sizes)", {"sizes": 3}, BUILTINS, None),  # not a list: the interpreter's error
        ("sum(sizes)", {"sizes": (1, 2)}, {**BUILTINS, "sum": lambda s, x: 7}, None),  # not the built-in
        ("sum(other)", {"sizes": (1, 2), "other": (1, 2)}, BUILTINS, None),  # not the parameter
    ],
)
def test_the_count_is_summed_only_where_the_interpreter_gives_the_same(
    text: str, names: dict[str, object], functions: dict[str, object], fast: int | None
) -> None:
    expr = parse(text)
    params = {"sizes": names["sizes"]}
    scope = Scope(dict(names), functions=dict(functions))  # type: ignore[arg-type]
    assert _sum_of_param(expr, scope, params) == fast  # type: ignore[arg-type]
    if fast is not None:
        assert expr(scope) == fast


def test_a_frame_takes_the_encodings_bound_without_a_parameter(library: Library) -> None:
    proto = library.protocol("card-selection-arrow")
    first = Frame(proto, proto.resolve_params({"sizes": (2, 1, 2)}))
    b = first.bound("card")
    second = Frame(proto, proto.resolve_params({"sizes": (3, 3)}), bound=first.bindings())
    assert second.bound("card") is b and second.input_count("cards") == 6
    other = library.protocol("card-selection")  # another protocol's binding is never taken
    assert Frame(other, other.resolve_params({}), bound=first.bindings()).bindings() == {}


def test_a_onehot_encoding_is_bound_again_for_its_parameters(library: Library) -> None:
    proto = library.protocol("gakmoro-comparison")
    (name,) = [n for n, e in proto.encodings.items() if e.kind == "onehot"]
    first = Frame(proto, proto.resolve_params({"m": 2}))
    second = Frame(proto, proto.resolve_params({"m": 4}), bound=first.bindings())
    assert first.bound(name).width == 3 and second.bound(name).width == 5


def test_a_game_run_resolves_the_other_parameters_once_with_the_same_frame(library: Library) -> None:
    proto = library.protocol("card-selection-arrow")
    cache = CallCache(engine="compiled")
    for seed, sizes in ((1, (3, 2, 30)), (2, (4, 1, 20))):
        run = run_selection(library, proto, table(seed, sizes), valid, random.Random(seed), cache, "turn")
        assert run.returned
    (kept,) = cache.frames.values()
    assert kept[0] is proto and kept[1] == proto.resolve_params({"sizes": (3, 2, 30)})
    # The frame of the next run is the one Runner.frame makes for the resolved parameters.
    runner = Runner(library, "sample", context={"valid": valid})
    made = runner.frame(proto, proto.resolve_params({"sizes": (4, 1, 20), "draw": 0}))
    cache2 = CallCache(engine="compiled")
    run_selection(library, proto, table(5), valid, random.Random(5), cache2, "t", params={"draw": 0})
    run_selection(
        library, proto, table(6, (4, 1, 20)), valid, random.Random(6), cache2, "t", params={"draw": 0}
    )
    (kept2,) = cache2.frames.values()
    assert kept2[1]["draw"] == 0 and made.params == {**kept2[1], "sizes": (4, 1, 20)}


def test_sizes_out_of_bounds_fail_as_before_after_a_kept_run(variant: Callable[..., Library]) -> None:
    lib = variant(
        "card-selection-arrow", ("default: [2, 1, 2]\n    min: 0", "default: [2, 1, 2]\n    min: 1")
    )
    proto = lib.protocol("card-selection-arrow")
    cache = CallCache(engine="compiled")
    run_selection(lib, proto, table(1), valid, random.Random(1), cache, "turn 1")
    with pytest.raises(UsageError, match="sizes must be at least 1, got 0"):
        run_selection(lib, proto, table(2, (3, 0, 30)), valid, random.Random(2), cache, "turn 2")
    with pytest.raises(UsageError, match="no parameter 'nosuch'"):
        run_selection(lib, proto, table(2), valid, random.Random(2), cache, "turn 3", params={"nosuch": 1})


# --- w59-t: an encoding's new cards kept across the frames that share its binding -------------


def _encoder(frame: Frame, name: str) -> Callable[..., NewCards]:
    fn: Callable[..., NewCards] = frame.globals.functions[name]
    return fn


def test_a_value_is_the_same_new_cards_in_every_frame_sharing_the_binding(library: Library) -> None:
    proto = library.protocol("card-selection-arrow")
    first = Frame(proto, proto.resolve_params({"sizes": (2, 1, 2)}))
    one = _encoder(first, "arrow")(first.globals, 1)
    second = Frame(proto, proto.resolve_params({"sizes": (3, 3)}), bound=first.bindings())
    assert second.bound("arrow") is first.bound("arrow")
    again = _encoder(second, "arrow")(second.globals, 1)
    assert again is one and _encoder(second, "arrow")(second.globals, 1) is one
    fresh = NewCards(first.bound("arrow").encode(1), label="1")
    assert one == fresh and one.symbols == fresh.symbols and one.label == "1" and not one.up
    # Another value, another binding (a frame that bound its own): other cards, made afresh.
    zero = _encoder(second, "arrow")(second.globals, 0)
    assert zero is not one and zero.label == "0"
    alone = Frame(proto, proto.resolve_params({"sizes": (3, 3)}))
    own = _encoder(alone, "arrow")(alone.globals, 1)
    assert alone.bound("arrow") is not first.bound("arrow") and own is not one and own == one


def test_a_value_of_another_type_or_a_card_is_never_the_kept_cards(library: Library) -> None:
    proto = library.protocol("card-selection-arrow")
    first = Frame(proto, proto.resolve_params({"sizes": (2, 1, 2)}))
    one = _encoder(first, "arrow")(first.globals, 1)
    second = Frame(proto, proto.resolve_params({"sizes": (3, 3)}), bound=first.bindings())
    fresh = Frame(proto, proto.resolve_params({"sizes": (3, 3)}))
    outcomes: list[tuple[object, ...]] = []
    for frame in (second, fresh):  # True is not 1: what a frame with nothing kept gives, or fails with
        try:
            got = _encoder(frame, "arrow")(frame.globals, True)
        except EvalError as exc:
            outcomes.append(("error", str(exc)))
        else:
            assert got is not one
            outcomes.append(("cards", got.symbols, got.label))
    assert outcomes[0] == outcomes[1]
    card = RULES.symbol("red5")  # a card encoding's value is a card: made anew in every frame
    a = _encoder(first, "card")(first.globals, card)
    b = _encoder(second, "card")(second.globals, card)
    assert a is not b and a == b and a.symbols == [card]


def test_an_encoder_whose_frame_ended_still_fails_though_the_cards_are_kept(library: Library) -> None:
    proto = library.protocol("card-selection-arrow")
    first = Frame(proto, proto.resolve_params({"sizes": (2, 1, 2)}))
    _encoder(first, "arrow")(first.globals, 0)  # kept for the shared binding
    second = Frame(proto, proto.resolve_params({"sizes": (3, 3)}), bound=first.bindings())
    encode, scope = _encoder(second, "arrow"), second.globals
    del second
    gc.collect()
    with pytest.raises(EvalError, match="used after its protocol's run ended"):
        encode(scope, 0)


def test_the_kept_cards_stay_bounded_and_right_after_starting_afresh(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(frame_module, "_ENCODED", {})
    monkeypatch.setattr(frame_module, "ENCODED_KEPT", 1)
    proto = library.protocol("card-selection-arrow")
    first = Frame(proto, proto.resolve_params({"sizes": (2, 1, 2)}))
    b = first.bound("arrow")
    second = Frame(proto, proto.resolve_params({"sizes": (3, 3)}), bound=first.bindings())
    for value in (0, 1, 0, 1):
        got = _encoder(second, "arrow")(second.globals, value)
        assert got == NewCards(b.encode(value), label=str(value))
        assert len(frame_module._ENCODED) <= 1
        assert _encoder(second, "arrow")(second.globals, value) is got  # the frame's own, as before


def test_kept_cards_are_compared_with_cards_made_again_under_the_checks(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    from reference_engine.compiled import evaluate

    monkeypatch.setattr(evaluate, "CHECKED", True)
    monkeypatch.setattr(frame_module, "_ENCODED", {})
    proto = library.protocol("card-selection-arrow")
    first = Frame(proto, proto.resolve_params({"sizes": (2, 1, 2)}))
    one = _encoder(first, "arrow")(first.globals, 1)
    second = Frame(proto, proto.resolve_params({"sizes": (3, 3)}), bound=first.bindings())
    assert _encoder(second, "arrow")(second.globals, 1) is one  # checked: equal, so given
    # Kept cards that a binding would no longer make (forced here) fail the check.
    ((key, (b, _)),) = frame_module._ENCODED.items()
    frame_module._ENCODED[key] = (b, NewCards(list(one.symbols), label="forged"))
    third = Frame(proto, proto.resolve_params({"sizes": (4,)}), bound=first.bindings())
    with pytest.raises(AssertionError, match="are not made again"):
        _encoder(third, "arrow")(third.globals, 1)
