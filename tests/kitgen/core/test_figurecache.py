"""The cache of simulated, costed games: found only for the same everything, never trusted blindly."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import kitgen
import kitgen.core.figurecache as fc
import kitgen.cost.kitcost as kc
from kitgen.core.cache import warnings_to
from kitgen.core.figurecache import FigureCache, caching
from kitgen.cost.timemodel import model_json, time_models
from reference_engine.api import Library, PlaySettings, find_kind, load_game

REQUEST = {"what": "test", "ruleset": "uno", "players": 4}
MODELS = [model_json(m) for m in time_models()]

pytestmark = pytest.mark.fresh_cache  # it counts, damages or expects cold cache entries


class Counter:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> dict[str, object]:
        self.calls += 1
        return {"minutes": 9.6, "calls": self.calls}


def test_found_again_only_for_the_same_request_and_model(tmp_path: Path) -> None:
    cache, compute, library = FigureCache(tmp_path), Counter(), Library()
    first = cache.get(library, REQUEST, MODELS, compute)
    assert cache.get(library, REQUEST, MODELS, compute) == first and compute.calls == 1
    assert cache.hits == 1 and cache.misses == 1
    cache.get(library, {**REQUEST, "players": 3}, MODELS, compute)  # another seating
    slower = [dict(MODELS[0], parallel=0.5), *MODELS[1:]]
    cache.get(library, REQUEST, slower, compute)  # another model (a --table-time file)
    assert compute.calls == 3


def test_the_key_holds_kitgens_own_source(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache, library = FigureCache(tmp_path), Library()
    before = cache.key(library, REQUEST, MODELS)
    monkeypatch.setattr(fc, "kitgen_digest", lambda: "an edited kitgen")
    assert cache.key(library, REQUEST, MODELS) != before
    monkeypatch.undo()
    hashed: list[tuple[Path, tuple[str, ...]]] = []
    monkeypatch.setattr(
        fc, "digest_files", lambda h, root, patterns, recursive=True: hashed.append((root, patterns))
    )
    fc.kitgen_digest.cache_clear()
    try:
        fc.kitgen_digest()
    finally:
        fc.kitgen_digest.cache_clear()
    assert hashed == [(Path(kitgen.__file__).resolve().parent, ("*.py",))]  # every module, kinds too


def test_a_changed_number_is_caught_and_costed_again(tmp_path: Path) -> None:
    cache, compute, library = FigureCache(tmp_path), Counter(), Library()
    cache.get(library, REQUEST, MODELS, compute)
    (entry,) = tmp_path.glob("figures-*.json")
    data = json.loads(entry.read_text())
    data["data"]["minutes"] = 1.0  # a figure edited by hand: the checksum no longer matches
    entry.write_text(json.dumps(data))
    said: list[str] = []
    with warnings_to(said.append):
        again = cache.get(library, REQUEST, MODELS, compute)
    assert again["minutes"] == 9.6 and compute.calls == 2
    assert len(said) == 1 and "checksum" in said[0] and "costing again" in said[0]


@pytest.mark.parametrize("junk", [b"{not json", b'{"format": 1}', b"\xff\xfe", b"[" * 100_000])
def test_junk_is_discarded(tmp_path: Path, junk: bytes) -> None:
    cache, compute, library = FigureCache(tmp_path), Counter(), Library()
    cache.path(cache.key(library, REQUEST, MODELS)).write_bytes(junk)
    said: list[str] = []
    with warnings_to(said.append):
        assert cache.get(library, REQUEST, MODELS, compute)["calls"] == 1
    assert len(said) == 1
    assert cache.get(library, REQUEST, MODELS, compute)["calls"] == 1  # stored again, found again


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_in_its_place_never_blocks(tmp_path: Path) -> None:
    cache, compute, library = FigureCache(tmp_path), Counter(), Library()
    os.mkfifo(cache.path(cache.key(library, REQUEST, MODELS)))
    said: list[str] = []
    with warnings_to(said.append):
        assert cache.get(library, REQUEST, MODELS, compute)["calls"] == 1
    assert said and "not a regular file" in said[0]


def test_no_cache_costs_afresh_and_keeps_nothing(tmp_path: Path) -> None:
    cache, compute, library = FigureCache(tmp_path), Counter(), Library()
    with caching(False):
        cache.get(library, REQUEST, MODELS, compute)
        cache.get(library, REQUEST, MODELS, compute)
    assert compute.calls == 2 and not list(tmp_path.iterdir())


def test_a_warm_request_does_not_simulate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KITGEN_CACHE_DIR", str(tmp_path))
    library = Library()
    args = (library, "uno-small", ["card-selection-fast"], 3, 1, {}, 2)
    cold = kc.costed_times(*args)

    def no_more(*_: object) -> None:
        raise AssertionError("simulated again")

    monkeypatch.setattr(kc, "_compute", no_more)
    warm = kc.costed_times(*args)
    assert warm == cold and cold is not None
    assert set(cold["card-selection-fast"]) == {"optimistic", "cautious"}


class FakeKind:
    """A kind whose simulated games are counted, not played (for :func:`fc.measured_tables`)."""

    name = "shedding"
    simulated_games = 3

    def __init__(self) -> None:
        self.calls = 0

    def measure_tables(self, rules: object, library: Library, seating: PlaySettings) -> dict[str, object]:
        self.calls += 1
        return {"games": self.simulated_games, "hands": [7, 9], "draw_pile": 40 + self.calls, "table": 107}


def test_the_largest_tables_are_simulated_once_per_seating(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KITGEN_CACHE_DIR", str(tmp_path))
    kind, library, rules = FakeKind(), Library(), load_game("uno")
    seating = PlaySettings(4, 1, options={"discard_owner": True})
    first = fc.measured_tables(kind, rules, library, seating)  # type: ignore[arg-type]
    assert fc.measured_tables(kind, rules, library, seating) == first and kind.calls == 1  # type: ignore[arg-type]
    assert list(first) == ["games", "hands", "draw_pile", "table"]  # the order a manifest prints
    for other in (
        PlaySettings(3, 1, options={"discard_owner": True}),  # another seating
        PlaySettings(4, 2, options={"discard_owner": True}),
        PlaySettings(4, 1, options={"discard_owner": False}),  # another option
    ):
        fc.measured_tables(kind, rules, library, other)  # type: ignore[arg-type]
    fc.measured_tables(kind, load_game("uno-small"), library, seating)  # type: ignore[arg-type]
    kind.simulated_games = 4  # more games
    fc.measured_tables(kind, rules, library, seating)  # type: ignore[arg-type]
    assert kind.calls == 6
    monkeypatch.setattr(fc, "kitgen_digest", lambda: "an edited kitgen")  # kitgen's source changed
    fc.measured_tables(kind, rules, library, seating)  # type: ignore[arg-type]
    assert kind.calls == 7
    with caching(False):  # --no-cache
        fc.measured_tables(kind, rules, library, seating)  # type: ignore[arg-type]
    assert kind.calls == 8


def test_a_kit_built_twice_simulates_its_tables_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KITGEN_CACHE_DIR", str(tmp_path))
    rules, library = load_game("uno-small"), Library()
    kind = find_kind(rules.kind)
    seating = PlaySettings(3, 1, options={"discard_owner": False})
    monkeypatch.setattr(type(kind), "simulated_games", 5)
    cold = fc.measured_tables(kind, rules, library, seating)
    assert cold == json.loads(json.dumps(kind.measure_tables(rules, library, seating)))

    def no_more(*_: object) -> None:
        raise AssertionError("simulated again")

    monkeypatch.setattr(type(kind), "measure_tables", no_more)
    assert fc.measured_tables(kind, rules, library, seating) == cold


def test_no_cache_keeps_no_small_lottery_law_either(monkeypatch: pytest.MonkeyPatch) -> None:
    """--no-cache neither reads nor writes the cache folder: the engine's laws on disk too."""
    from reference_engine.machine import lawcache

    monkeypatch.setenv(lawcache.ENV, "1")
    assert lawcache.enabled()
    with caching(False):
        assert not lawcache.enabled()
    with caching(True):
        assert lawcache.enabled()
