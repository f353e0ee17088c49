"""Card-level runs of the selection protocols on both engines: run for run on full UNO tables, whole
games of every kind, the statistical verification; and what is refused, and how."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kitgen.cli.main import main
from reference_engine.api import PlaySettings, compiled_reason, play
from reference_engine.cards import Symbol
from reference_engine.compiled import compile_protocol
from reference_engine.errors import SimulationError, UsageError
from reference_engine.kinds.shedding import load_rules
from reference_engine.registry import Library
from reference_engine.selection import CallCache, SelectionRun, run_selection

sys.path.insert(0, str(Path(__file__).resolve().parent))
import runs


@pytest.fixture(autouse=True)
def checked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every fast value and plan of the compiled path is checked against the interpreter's."""
    from reference_engine.compiled import evaluate

    monkeypatch.setattr(evaluate, "CHECKED", True)


def _dealt(seed: int) -> tuple[Any, random.Random, list[Symbol], Symbol]:
    """A shuffled UNO deck with its top card (not a wild) taken off: (rules, rng, deck, top)."""
    rules = load_rules("uno")
    rng = random.Random(seed)
    deck = rules.deck()
    rng.shuffle(deck)
    top = next(c for c in deck if c.attrs["color"] != "black")
    deck.remove(top)
    return rules, rng, deck, top


def _tables(seed: int, players: int) -> tuple[list[list[Symbol]], Any]:
    """A random UNO table: P_1 with 1..9 cards, other hands 0..8, a draw pile of 0..40."""
    rules, rng, deck, top = _dealt(seed)
    owners = [[deck.pop() for _ in range(rng.randrange(1, 10))]]
    owners += [[deck.pop() for _ in range(rng.randrange(0, 9))] for _ in range(players - 1)]
    owners.append(deck[: rng.randrange(0, 41)])
    return owners, rules.validity(top, str(top.attrs["color"]))


def _trace(run: SelectionRun, rng: random.Random) -> tuple[Any, ...]:
    # The random generator's state after the run: both engines drew the same numbers.
    return (
        run.played,
        run.returned,
        run.shuffles,
        run.helper_cards,
        run.checks,
        run.observations,
        run.expected,
        rng.getstate(),
    )


def _runs(
    library: Library, engine: str, seed: int, players: int, count: int, name: str = "card-selection"
) -> tuple[list[Any], CallCache]:
    owners, valid = _tables(seed, players)
    protocol = library.protocol(name)
    rng = random.Random(1000 + seed)
    cache = CallCache(engine=engine)
    out = []
    for i in range(count):
        # As in a game: the next run starts from the hands the last one returned.
        hand = [list(o) for o in owners]
        run = run_selection(
            library, protocol, hand, valid, rng, cache, f"run {i}", fallback="original" in name
        )
        out.append(_trace(run, rng))
        owners = [list(r) for r in run.returned]
        if run.played is not None:
            owners[0].append(run.played)
    return out, cache


SELECTIONS = ["card-selection", "card-selection-fast", "card-selection-original-fast", "card-selection-v2"]


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("name", SELECTIONS)
def test_both_engines_give_the_same_runs(library: Library, players: int, name: str) -> None:
    if runs.not_yet_compiled(compiled_reason(library, name)):
        # The compiled engine refuses it, and auto falls back saying why: never a silent fallback.
        with pytest.raises(UsageError, match="is not compiled"):
            _runs(library, "compiled", 0, players, 3, name)
        return
    compiled_total = 0
    small = 0
    for seed in range(12):
        reference, cache_i = _runs(library, "interpreter", seed, players, 3, name)
        fast, cache_c = _runs(library, "compiled", seed, players, 3, name)
        for i, (a, b) in enumerate(zip(reference, fast)):
            assert a == b, f"seed {seed}, run {i}"
        assert cache_i.compiled_runs == 0 and cache_i.interpreter_runs == 3
        compiled_total += cache_c.compiled_runs
        small += len(_tables(seed, players)[0][0]) <= 2
    assert compiled_total == 12 * 3  # every run took the compiled path
    assert small  # and some of them ran the small lottery (P_1 with 1 or 2 cards)


def _full_table(seed: int, players: int) -> tuple[list[list[Symbol]], Any]:
    """A freshly dealt full UNO table: 7 cards each, the rest of the deck is the draw pile."""
    rules, _rng, deck, top = _dealt(seed)
    owners = [[deck.pop() for _ in range(7)] for _ in range(players)] + [deck]
    return owners, rules.validity(top, str(top.attrs["color"]))


@pytest.mark.parametrize("seed", [0, 1])
def test_the_default_arrow_protocol_runs_alike_on_a_full_table(library: Library, seed: int) -> None:
    """The kits' default for UNO (card-selection-arrow: sleeves, arrow cards, the draw in the
    same run, the knockout lottery) on a whole deck (107 cards, 4 players), run after run from
    the hands the last run returned: the same trace and random state on both engines, every
    fast value and plan checked against the interpreter's (the take of Step 10 reads the
    owner cards through the memo of ``any`` over a range)."""
    protocol = library.protocol("card-selection-arrow")
    traces = {}
    for engine in ("interpreter", "compiled"):
        owners, valid = _full_table(seed, 4)
        assert sum(len(o) for o in owners) == 107
        rng = random.Random(2000 + seed)
        cache = CallCache(engine=engine)
        out = []
        for i in range(2):
            run = run_selection(library, protocol, [list(o) for o in owners], valid, rng, cache, f"run {i}")
            out.append(_trace(run, rng))
            owners = [list(r) for r in run.returned]
        traces[engine] = out
        assert (cache.compiled_runs, cache.interpreter_runs) == ((2, 0) if engine == "compiled" else (0, 2))
    assert traces["compiled"] == traces["interpreter"]


def test_the_compiled_path_sees_a_view_per_card(library: Library) -> None:
    """Not a constant: the observations follow the shuffles and the hands."""
    a, _ = _runs(library, "compiled", 3, 4, 2)
    b, _ = _runs(library, "compiled", 4, 4, 2)
    assert a[0][5] != a[1][5] and a[0][5] != b[0][5]
    kinds = [obs[0] for obs in a[0][5]]
    assert kinds[:3] == ["turn", "turn", "call"] and kinds[-1] == "discard"


GAMES: list[tuple[str, int, int, int, dict[str, Any]]] = [
    ("uno", 4, 4, 1, {}),
    ("uno", 3, 2, 5, {}),
    ("uno", 4, 2, 2, {"discard_owner": True}),  # one more owner: the discard pile
    ("uno-official", 3, 2, 5, {"wild4": "bluff", "hands": 1}),
    ("crazy-eights", 4, 2, 2, {}),
    ("sevens", 4, 2, 1, {}),
    ("dominoes", 4, 2, 1, {}),
    ("hearts", 4, 2, 1, {"rounds": 1}),
    ("uno", 3, 1, 3, {"strategy": "weighted", "weights": "action=3,number=1,wild=2"}),
]


@pytest.mark.parametrize(("game", "players", "virtual", "seed", "options"), GAMES)
def test_whole_games_are_identical(
    game: str, players: int, virtual: int, seed: int, options: dict[str, Any]
) -> None:
    settings = PlaySettings(players, virtual, "card", seed, options=options, engine="auto")
    auto = play(game, Library(), settings).to_json()
    if auto["engine_used"] == "interpreter":  # sleeves or up-down cards: said, never silent
        assert runs.not_yet_compiled(auto["fallback_reason"]), auto["fallback_reason"]
        return
    results = {
        engine: play(
            game, Library(), PlaySettings(players, virtual, "card", seed, options=options, engine=engine)
        ).to_json()
        for engine in ("interpreter", "compiled")
    }
    assert results["compiled"].pop("engine_used") == "compiled"
    assert results["interpreter"].pop("engine_used") == "interpreter"
    assert results["compiled"].pop("fallback_reason") is None
    assert results["interpreter"].pop("fallback_reason") is None
    assert results["compiled"] == results["interpreter"]
    assert results["compiled"]["protocol_runs"] > 0


def test_a_changed_spec_is_compiled_as_it_is(library: Library, variant: Callable[..., Library]) -> None:
    """There is no list of specs the compiled path knows: a changed caller or callee is compiled
    from its own steps, and runs as the interpreter runs it."""
    assert compiled_reason(library, "card-selection-v2") is None
    lottery = variant("covert-lottery-modified", ("discard: t", "discard: [t]"))
    changed = variant("card-selection", ('turn: "M[1, *]"', 'turn: "M[1, 1..ncols(M)]"'))
    for lib in (lottery, changed):
        compile_protocol(lib, lib.protocol("card-selection"))
        for seed in range(3):
            assert _runs(lib, "compiled", seed, 4, 2)[0] == _runs(lib, "interpreter", seed, 4, 2)[0]


def test_an_unknown_engine_is_refused() -> None:
    with pytest.raises(UsageError, match="engine is compiled or interpreter"):
        play("uno", Library(), PlaySettings(4, 2, "card", 1, engine="jit"))


def test_statistical_verification_reports_the_same_with_both_engines(library: Library) -> None:
    from reference_engine.api import verify_runs
    from reference_engine.selection import ENGINE

    reports = {}
    for engine in ("interpreter", "compiled"):
        token = ENGINE.set(engine)
        try:
            data = verify_runs(library, library.protocol("card-selection"), 20, 3).to_json()
        finally:
            ENGINE.reset(token)
        data["stats"].pop("seconds")
        reports[engine] = data
    assert reports["compiled"] == reports["interpreter"]
    assert reports["compiled"]["checks"]


@pytest.mark.parametrize("engine", ["interpreter", "compiled"])
def test_a_kept_sub_run_whose_view_does_not_factor_stays_readable(library: Library, engine: str) -> None:
    """P_1 with 2 cards: the small lottery runs exactly and its outcomes are kept in the game's
    cache. Its view factors out when its distribution given the public outputs is the same in
    every run; views are numbered by a ViewTable, and before the cache kept one for all runs
    each run numbered them afresh, so the comparison failed, the callee's whole view (a number
    in an earlier run's table) was kept, and the third run here stopped with an IndexError."""
    rules = load_rules("uno")
    rng = random.Random(3)
    deck = rules.deck()
    rng.shuffle(deck)
    top = next(c for c in deck if c.attrs["color"] != "black")
    deck.remove(top)
    owners = [[deck.pop() for _ in range(rng.randrange(1, 9))]]
    owners += [[deck.pop() for _ in range(rng.randrange(0, 8))] for _ in range(3)] + [
        deck[: rng.randrange(0, 40)]
    ]
    assert [len(o) for o in owners] == [2, 0, 3, 6, 18]
    valid = rules.validity(top, str(top.attrs["color"]))
    cache = CallCache(engine=engine)
    protocol = library.protocol("card-selection")
    views = []
    for i in range(3):
        run = run_selection(library, protocol, [list(o) for o in owners], valid, rng, cache, f"run {i}")
        views.append(run.observations)
    calls = [obs for v in views for obs in v if obs[0] == "call"]
    assert len(calls) == 3 and all(obs[2] == (True,) for obs in calls)  # only "found" is seen


BIT = "values: {0: [alpha, beta], 1: [beta, alpha]}"


@pytest.mark.parametrize(
    "keys",
    [
        'values: {"0": [alpha, beta], "1": [beta, alpha]}',  # JSON would make 0 and "0" one key
        'values: {0: [alpha, beta], "1": [beta, alpha]}',  # mixed: the old fingerprint crashed
    ],
    ids=["string-keys", "mixed-keys"],
)
def test_a_spec_the_interpreter_refuses_is_refused_on_every_path(
    variant: Callable[..., Library], keys: str
) -> None:
    """Keys "0" and "1" are not 0 and 1 (bit(1) finds no value): every run is refused on both
    engines as the interpreter refuses it, never a TypeError."""
    lib = variant("card-selection", (BIT, keys))
    proto = lib.protocol("card-selection")
    owners, valid = _tables(0, 4)
    for engine in ("compiled", "interpreter"):
        with pytest.raises(SimulationError, match="bit has no value"):
            run_selection(lib, proto, owners, valid, random.Random(0), CallCache(engine=engine), "x")


@pytest.mark.parametrize(
    "keys",
    ['values: {"0": [alpha, beta], "1": [beta, alpha]}', 'values: {0: [alpha, beta], "1": [beta, alpha]}'],
    ids=["string-keys", "mixed-keys"],
)
def test_every_command_refuses_a_spec_with_text_keys(
    variant: Callable[..., Library], keys: str, tmp_path: Path
) -> None:
    """At the command line: exact verify refuses it (some run cannot be carried out, exit 2,
    with the step); statistical verify, play and simulate stop at the first such run with the
    interpreter's message (exit 2). No path verifies it and none prints a traceback."""
    variant("card-selection", (BIT, keys))
    path = str(tmp_path / "card-selection.yaml")
    commands: list[tuple[list[str], int]] = [
        (["verify", path, "--workers", "1"], 2),
        (["verify", path, "--runs", "10"], 2),
        (["play", "uno", "--protocol", path, "--seed", "1"], 2),
        (["simulate", path], 2),
    ]
    for args, code in commands:
        result = CliRunner().invoke(main, args)
        assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.exception)
        assert "Traceback" not in result.output, (args, result.output)
        assert result.exit_code == code, (args, result.output)
        assert "bit has no value" in result.output, (args, result.output)
        assert "VERIFIED" not in result.output.replace("NOT VERIFIED", ""), (args, result.output)
