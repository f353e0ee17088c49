"""A small callee's enumeration kept up to the faces of the cards it only carries
(:mod:`reference_engine.machine.relabel`): on the shipped callee it gives exactly what the
plain enumeration gives, call after call (the same outcomes in the same order, the same views,
the same side effects of factoring), and it refuses a callee that looks at those cards."""

from __future__ import annotations

import bisect
import itertools
import math
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from reference_engine.canonical import fingerprint
from reference_engine.cards import CODE_ORDER, DEALT, SYMBOLS, code
from reference_engine.errors import ReductionRefused
from reference_engine.expressions import parse
from reference_engine.machine import Runner, Shared
from reference_engine.machine import relabel as rl
from reference_engine.machine.frame import Evaluator, Frame
from reference_engine.machine.subruns import Factoring, _sub_outcomes, settle
from reference_engine.registry import Library
from reference_engine.spec import Protocol

POOL = [SYMBOLS.intern(f"relabel_test_card_{i}") for i in range(12)]  # faces no spec names


@pytest.fixture(autouse=True)
def _fresh(relabel_fresh: None) -> None:
    """Every test starts with nothing kept."""


Call = tuple[dict[str, int], tuple[tuple[int, ...], ...]]


def arguments(proto: Protocol, m: int, rng: random.Random, alike: bool) -> list[Call]:
    """Calls on every bit pattern of the arrows, each with its own cards (some equal when
    ``alike``), in a shuffled order."""
    enc = proto.encodings["arrow"].table
    out: list[Call] = []
    for bits in itertools.product((0, 1), repeat=m):
        faces = rng.sample(POOL, m) if not alike else [rng.choice(POOL[:2]) for _ in range(m)]
        cards = tuple(code(s) for s in faces)
        arrows = tuple(code(SYMBOLS.get(enc[b][0])) for b in bits)  # type: ignore[arg-type]
        out.append(({"m": m, "shuffled": 1} if "shuffled" in proto.params else {"m": m}, (cards, arrows)))
    rng.shuffle(out)
    return out


def _like(rng: random.Random, cards: tuple[int, ...]) -> list[Any]:
    """Other faces, equal where ``cards`` are equal."""
    fresh = dict(zip(dict.fromkeys(cards), rng.sample(POOL, len(set(cards)))))
    return [fresh[c] for c in cards]


def session(lib: Library, name: str, calls: list[Call], relabelled: bool) -> list[Any]:
    """The outcomes of each call in one run's shared state, views spelt out."""
    proto = lib.protocol(name)
    runner = Runner(lib, "sample", shared=Shared())
    got: list[Any] = []
    for params, codes in calls:
        sub = runner.frame(proto, proto.resolve_params(params))
        if relabelled:
            outcomes = rl.small_outcomes(runner, sub, codes, None)
        else:
            outcomes = _sub_outcomes(runner, sub, codes)
        got.append([(p, _spelt(runner, obs), res) for p, obs, res in outcomes])
    shared = runner.shared
    got.append(sorted(shared.no_factor))
    got.append(dict(shared.factored))
    got.append(
        {
            key: {
                o: sorted((repr(runner.views.expanded(v)), p) for v, p in dist.items())
                for o, dist in ref.items()
            }
            for key, ref in shared.factor_refs.items()
        }
    )
    return got


def _spelt(runner: Runner, obs: Any) -> Any:
    if obs is not None and obs[0] == "call" and isinstance(obs[2], int):
        return ("call", obs[1], runner.views.expanded(obs[2]))
    return obs


@pytest.mark.parametrize("alike", [False, True])
def test_the_knockout_lottery_kept_up_to_its_candidates_is_its_plain_enumeration(alike: bool) -> None:
    lib = Library()
    rng = random.Random(7)
    for m in (1, 2, 3, 4):
        calls = arguments(lib.protocol("knockout-lottery"), m, rng, alike)
        plain = session(lib, "knockout-lottery", calls, relabelled=False)
        assert session(lib, "knockout-lottery", calls, relabelled=True) == plain
        kept = len(rl._KEPT)
        again: list[Call] = [(p, (tuple(code(s) for s in _like(rng, cs)), xs)) for p, (cs, xs) in calls]
        # A later game (another view table) rebuilds the kept laws: nothing enumerated anew.
        assert session(lib, "knockout-lottery", again, relabelled=True) == session(
            lib, "knockout-lottery", again, relabelled=False
        )
        assert len(rl._KEPT) == kept
    assert not rl._REFUSED


def test_every_shipped_callee_with_carried_cards_is_kept_up_to_them() -> None:
    """The shipped callees the relabelling applies to: the knockout lottery (the covert
    lotteries call the six-card AND, so they are enumerated plainly)."""
    lib = Library()
    applies = []
    runner = Runner(lib, "sample", shared=Shared())
    for name in lib.names():
        proto = lib.protocol(name)
        if rl._plan(proto, runner) is not None:
            applies.append(name)
    assert applies == ["knockout-lottery"]


HEAD = """\
params: {m: {default: 2, min: 1}}
symbols:
  up: {glyph: "▲", rotated: down}
  down: {glyph: "▼", rotated: up}
  c: {family: true, glyph: "c{}"}
encodings:
  arrow: {values: {0: [down], 1: [up]}}
  card: {label: c}
inputs:
  c: {encoding: card, count: m}
  x: {encoding: arrow, count: m}
"""

LOOKS = """\
steps:
  - step: 1
    say: Turn the first card over and back.
    do:
      - turn: "c[1]"
      - turn: "c[1]"
outputs:
  rest: {cards: c, encoding: cards}
  bits: {cards: x, encoding: cards}
"""

DECIDES = """\
steps:
  - step: 1
    say: Turn the first card; if it is a U, turn the arrows.
    do:
      - turn: "c[1]"
      - if: "c[1] == up"
        then:
          - turn: x
          - turn: x
      - turn: "c[1]"
outputs:
  rest: {cards: c, encoding: cards}
  bits: {cards: x, encoding: cards}
"""

SPARES = """\
steps:
  - step: 1
    say: Put the first card with the spares.
    discard: "c[1]"
outputs:
  rest: {cards: "c[2]", encoding: cards}
  bits: {cards: x, encoding: cards}
"""

SORTS = """\
steps:
  - step: 1
    say: Lay the pairs out and shuffle them.
    place:
      P: {columns: "[[c[i], x[i]] for i in 1..m]"}
  - step: 2
    say: Shuffle.
    shuffle:
      scramble: "columns(P)"
outputs:
  rest: {cards: "P[1, *]", encoding: cards}
  bits: {cards: "P[2, *]", encoding: cards}
"""


def hostile(tmp_path: Path, **bodies: str) -> Library:
    for name, body in bodies.items():
        text = f"protocol: {name}\ntitle: {name}\nsummary: a test.\n{HEAD}{body}"
        (tmp_path / f"{name}.yaml").write_text(text, encoding="utf-8")
    return Library([tmp_path])


@pytest.mark.parametrize("name", ["looks", "decides", "spares"])
def test_a_callee_that_shows_reads_or_returns_a_carried_card_is_refused(tmp_path: Path, name: str) -> None:
    lib = hostile(tmp_path, looks=LOOKS, decides=DECIDES, spares=SPARES)
    rng = random.Random(3)
    calls = arguments(lib.protocol(name), 2, rng, alike=False)
    plain = session(lib, name, calls, relabelled=False)
    assert session(lib, name, calls, relabelled=True) == plain
    assert {fingerprint(lib.protocol(name))} == rl._REFUSED
    assert not rl._KEPT


def test_a_callee_that_compares_the_cards_is_kept_by_their_order(tmp_path: Path) -> None:
    """A scramble takes the representative of each table's orbit, which sorts the cards: the
    law is kept per order of the faces, and still equals the plain enumeration."""
    lib = hostile(tmp_path, sorts=SORTS)
    rng = random.Random(5)
    calls = arguments(lib.protocol("sorts"), 3, rng, alike=False) * 2
    calls = [(p, (tuple(code(rng.choice(POOL)) for _ in cs), xs)) for p, (cs, xs) in calls]
    plain = session(lib, "sorts", calls, relabelled=False)
    assert session(lib, "sorts", calls, relabelled=True) == plain
    assert any(v[0] is rl._ORDERED for v in rl._KEPT.values())
    assert not rl._REFUSED


EACH = """\
steps:
  - step: 1
    say: Lay the pairs out.
    place:
      P: {columns: "[[c[i], x[i]] for i in 1..m]"}
  - step: 2
    say: Mix the pairs.
    shuffle:
      each: "[[P[*, j] for j in 1..m]]"
outputs:
  rest: {cards: "P[1, *]", encoding: cards}
  bits: {cards: "P[2, *]", encoding: cards}
"""


def test_an_each_shuffle_lists_its_orders_by_the_codes_so_is_kept_by_their_order(tmp_path: Path) -> None:
    """Attack (round 3): ``each`` lists a group's orders by the piles' codes without taking an
    orbit's representative first; before the fix its law was kept loose and the renamed
    outcomes came in another order than the plain enumeration's (call 11 of this session)."""
    lib = hostile(tmp_path, each=EACH)
    rng = random.Random(5)
    calls = arguments(lib.protocol("each"), 3, rng, alike=False) * 2
    calls = [(p, (tuple(code(rng.choice(POOL)) for _ in cs), xs)) for p, (cs, xs) in calls]
    plain = session(lib, "each", calls, relabelled=False)
    assert session(lib, "each", calls, relabelled=True) == plain
    assert any(v[0] is rl._ORDERED for v in rl._KEPT.values())


_OUT = """\
outputs:
  rest: {cards: c, encoding: cards}
  bits: {cards: x, encoding: cards}
"""
_IF = """\
steps:
  - step: 1
    say: Turn the arrows twice if so.
    do:
      - if: "{test}"
        then:
          - turn: x
          - turn: x
"""
INDIRECT = {
    "pairs": _IF.format(test="c[1] == c[2]") + _OUT,  # refused by the interpreter: face down
    "constant": _IF.format(test="c[1] == up") + _OUT,
    "sorts": _IF.format(test="sorted(c)[1] == c[1]") + _OUT,
    "counts": _IF.format(test="len(c) == 2") + _OUT,  # reads no face: kept
    "public": _IF.format(test="m == 2")
    + "outputs:\n  rest: {cards: c, encoding: cards, public: true}\n  bits: {cards: x, encoding: cards}\n",
}


@pytest.mark.parametrize("name", sorted(INDIRECT))
def test_a_callee_reading_carried_cards_indirectly_gives_the_plain_runs(tmp_path: Path, name: str) -> None:
    """Attack (round 3): a comparison of two candidates, with a constant card, a sort, a count
    of them, a public output: the same outcomes or the same error as the plain enumeration."""
    lib = hostile(tmp_path, **{name: INDIRECT[name]})
    rng = random.Random(5)
    calls = arguments(lib.protocol(name), 2, rng, alike=False) * 2
    calls = [(p, (tuple(code(rng.choice(POOL)) for _ in cs), xs)) for p, (cs, xs) in calls]

    def outcome(relabelled: bool) -> Any:
        try:
            return session(lib, name, calls, relabelled)
        except Exception as exc:  # the error itself is compared
            return (type(exc).__name__, str(exc))

    plain = outcome(False)
    assert outcome(True) == plain
    if name in ("pairs", "constant", "sorts"):
        assert plain[0] == "SimulationError" and "face down" in plain[1]
    if name == "counts":
        assert rl._KEPT and not rl._REFUSED
    if name == "public":
        assert rl._REFUSED and not rl._KEPT


FAMILY = """\
steps:
  - step: 1
    say: Lay the pairs out, and a pair of our own cards.
    do:
      - place:
          P: {columns: "[[c[i], x[i]] for i in 1..m]"}
      - place:
          Q: {columns: "[[new(c(1)), new(c(2))]]"}
  - step: 2
    say: Shuffle the three piles.
    shuffle:
      scramble: "[P[*, 1], P[*, 2], Q[*, 1]]"
outputs:
  rest: {cards: "P[1, *]", encoding: cards}
  bits: {cards: "P[2, *]", encoding: cards}
  ours: {cards: "Q[*, 1]", encoding: cards}
"""


def test_a_callee_that_makes_cards_of_its_family_is_enumerated_plainly(tmp_path: Path) -> None:
    """Attack (round 3): a callee that makes ``c(1)``, ``c(2)`` (faces it names only while it
    runs, so not among its own faces) and shuffles them with the carried cards. Before the fix,
    a later call carrying ``c2`` reused the law of a call carrying another face: ``c2``'s order
    among the piles differs, so the outcomes came in another order than the plain ones."""
    from reference_engine.encodings import family_symbol

    family_symbol("c", 1)  # made before the spec's own faces, as a game may have made them
    c2 = family_symbol("c", 2)
    lib = hostile(tmp_path, family=FAMILY)
    proto = lib.protocol("family")
    enc = proto.encodings["arrow"].table
    xs = tuple(code(SYMBOLS.get(enc[b][0])) for b in (0, 1))  # type: ignore[arg-type]
    calls: list[Call] = [
        ({"m": 2}, ((code(POOL[1]), code(POOL[0])), xs)),
        ({"m": 2}, ((code(c2), code(POOL[0])), xs)),
    ]
    plain = session(lib, "family", calls, relabelled=False)
    assert session(lib, "family", calls, relabelled=True) == plain
    assert rl._plan(proto, Runner(lib, "sample", shared=Shared())) is None


def test_the_draw_kept_with_a_law_is_the_draw_from_its_outcomes() -> None:
    """:func:`~reference_engine.machine.relabel.small_call`'s thresholds (kept per law and view
    table) pick the outcome ``calls._draw`` picks from the same list with the same number."""
    from reference_engine.compiled.calls import _draw

    lib = Library()
    proto = lib.protocol("knockout-lottery")
    rng = random.Random(11)
    runner = Runner(lib, "sample", shared=Shared())
    drawn = 0
    for m in (1, 2, 3, 4):
        calls = arguments(proto, m, rng, alike=False) * 3
        for params, codes in calls:
            sub = runner.frame(proto, proto.resolve_params(params))
            codes = (tuple(code(s) for s in _like(rng, codes[0])), codes[1])
            outcomes, draw = rl.small_call(runner, sub, codes, None)
            if draw is None:
                continue
            drawn += 1
            lcm, cum = draw
            assert lcm == math.lcm(*(p.denominator for p, _, _ in outcomes))
            for seed in range(6):
                a, b = random.Random(seed), random.Random(seed)
                runner.rng = a
                want = _draw(runner, outcomes)
                got = outcomes[bisect.bisect_right(cum, b.randrange(lcm))]
                assert got is want and a.getstate() == b.getstate()
    assert drawn > 20


def _lottery_frame() -> tuple[Frame, Any]:
    """A knockout lottery's frame (m = 2) and a start state whose first candidate lies face up."""
    lib = Library()
    proto = lib.protocol("knockout-lottery")
    sub = Runner(lib, "sample", shared=Shared()).frame(proto, proto.resolve_params({"m": 2, "shuffled": 1}))
    up = code(SYMBOLS.get("up"))  # type: ignore[arg-type]
    return sub, sub.state_from_codes(((code(POOL[0], up=True), code(POOL[1])), (up, up)))


def test_a_kept_evaluator_refuses_a_result_that_read_a_face_hidden_now() -> None:
    """Attack: the evaluator kept from one first enumeration to the next holds a decision that
    read a face while it was nobody's carried card; in a later enumeration that face is carried
    (hidden): reusing the result would let the decision read it unguarded, and the law would be
    kept up to renaming although it depends on the face. It is evaluated again, and refused as a
    fresh evaluator refuses it."""
    sub, state = _lottery_frame()
    expr = parse("c[1]")
    ev = rl._reused(sub)
    seen = ev.public(expr, state, plain_value=True)
    assert seen == [POOL[0]]
    assert ev.public(expr, state, plain_value=True) == seen  # kept: reused while nothing is hidden
    assert rl._reused(sub) is ev
    DEALT.ids.add(POOL[0].id)
    try:
        with pytest.raises(ReductionRefused):
            Evaluator(sub).public(expr, state, plain_value=True)
        with pytest.raises(ReductionRefused):
            ev.public(expr, state, plain_value=True)
    finally:
        DEALT.ids.discard(POOL[0].id)
    assert ev.public(expr, state, plain_value=True) == seen


class _Compares:
    """An expression that compares card codes as it is evaluated (a sort, a representative)."""

    def __call__(self, scope: Any) -> int:
        CODE_ORDER.reads += 1
        return 7


def test_a_kept_evaluator_counts_a_reused_comparison_of_codes_again() -> None:
    """Attack: a reused result whose evaluation compared card codes must still count in
    CODE_ORDER, or a law that depends on the faces' order would be kept loose (under the key of
    every order)."""
    sub, state = _lottery_frame()
    ev = rl._reused(sub)
    expr: Any = _Compares()
    before = CODE_ORDER.reads
    assert ev.public(expr, state) == 7
    assert CODE_ORDER.reads == before + 1
    assert ev.public(expr, state) == 7  # reused
    assert CODE_ORDER.reads == before + 2
    plain = parse("m")
    ev.public(plain, state)
    ev.public(plain, state)
    assert CODE_ORDER.reads == before + 2


def test_a_kept_evaluator_is_bounded_and_belongs_to_its_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its results are kept up to MEMO_KEPT, evaluators up to EVALUATORS_KEPT, and a new frame
    with the same key (another library) gets its own."""
    monkeypatch.setattr(rl, "MEMO_KEPT", 3)
    sub, state = _lottery_frame()
    ev = rl._reused(sub)
    exprs = [parse(f"m + {i}") for i in range(10)]
    for i, e in enumerate(exprs):
        assert ev.public(e, state, plain_value=True) == 2 + i
        assert len(ev.memo) <= 3
    other, _ = _lottery_frame()
    assert other.key == sub.key and other is not sub
    assert rl._reused(other) is not ev
    assert rl._reused(other).frame is other


def test_settle_refuses_a_law_whose_views_disagree_with_the_ones_met_before() -> None:
    """settle compares a public outcome's Q(view | outputs) with the one met before unless it is
    that very table (a kept law met again): an equal copy passes, a different one refuses."""
    sub, _ = _lottery_frame()
    runner = Runner(Library(), "sample", shared=Shared())
    cond = {("o",): {1: Fraction(1, 2), 2: Fraction(1, 2)}}
    assert settle(runner, sub, Factoring(True, cond, [], []))
    assert settle(runner, sub, Factoring(True, cond, [], []))  # the same table
    assert settle(runner, sub, Factoring(True, {("o",): dict(cond[("o",)])}, [], []))  # an equal copy
    assert not runner.shared.no_factor
    assert not settle(runner, sub, Factoring(True, {("o",): {1: Fraction(1, 3), 2: Fraction(2, 3)}}, [], []))
    assert runner.shared.no_factor == {sub.proto.name}


def test_first_enumerations_keep_their_plans_bounded_and_per_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    """A callee's first enumerations share its plans across games (a fresh Shared each): the
    second builds none the first built, and gives the same law as with no plans kept; the
    plans start afresh past PLANS_KEPT and for a new frame of the same key (another library),
    and the run's own plans are given back."""
    lib = Library()
    lib.protocol("knockout-lottery")  # declares up and down (not left to an earlier test)
    down = code(SYMBOLS.get("down"))  # type: ignore[arg-type]
    up = code(SYMBOLS.get("up"))  # type: ignore[arg-type]
    first = ((code(POOL[0]), code(POOL[1]), code(POOL[2])), (up, down, up))
    second = ((code(POOL[3]), code(POOL[4]), code(POOL[5])), (down, up, up))

    def call(codes: Any, library: Library = lib) -> tuple[Any, Any]:
        runner = Runner(library, "sample", shared=Shared())
        own = runner.shared.plans
        p = library.protocol("knockout-lottery")
        sub = runner.frame(p, p.resolve_params({"m": 3, "shuffled": 1}))
        got = rl.small_outcomes(runner, sub, codes, None)
        assert runner.shared.plans is own and not own  # the callee's plans are kept apart
        return sub, [(p, _spelt(runner, o), r) for p, o, r in got]

    sub, _ = call(first)
    kept = rl._PLANS_OF[sub.key][1]
    assert kept and rl._PLANS_OF[sub.key][0] is sub
    before = dict(kept)
    _, warm = call(second)
    assert all(kept[k] is v for k, v in before.items())
    rl._KEPT.clear()
    rl._PLANS_OF.clear()
    _, cold = call(second)
    assert cold == warm
    monkeypatch.setattr(rl, "PLANS_KEPT", 1)
    rl._KEPT.clear()
    sub, _ = call(first)
    assert rl._PLANS_OF[sub.key][1] is not kept
    other, _ = call(second, Library())
    assert other.key == sub.key and other is not sub
    assert rl._PLANS_OF[sub.key][0] is other
