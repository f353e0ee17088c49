"""The simulated, costed games behind a kit's table-time figures, kept with the verification cache.

A kit's figures come from seeded rule-level games and traced protocol runs (seconds of CPU for
a card game, a minute for Daifugō). The same request always gives the same figures, so they are
kept on disk beside the verification reports (:func:`kitgen.core.cache.default_cache_dir`) and found
again only when everything they depend on is byte for byte the same:

- the engine's source, its rule sets and specs (the verification cache's own digest), and the
  spec files of the library's other folders;
- kitgen's own source (the model's arithmetic, the schedule, the kinds' run arguments);
- every profile of the table-time model in force (a ``--table-time`` file too);
- the request: the rule set, the protocols, the seating, the game options, the number of games.

The largest tables of a kit's simulated games (its bill of materials, :func:`measured_tables`)
are kept the same way.

An entry names its key and carries a SHA-256 of its contents; it is read only when it is a
regular file of at most :data:`MAX_ENTRY` bytes, and one that fails a check is removed (one
line on stderr) and the figures computed again. ``--no-cache`` (:func:`caching`) computes them
afresh and keeps nothing.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Any

from reference_engine.api import GameKind, GameRules, Library, PlaySettings, TableCounts, law_caching

from .cache import WARN_DISCARDED as _SAY  # where a discarded entry is said (kitgen.core.cache.warnings_to)
from .cache import default_cache_dir, digest_files, engine_digest
from .files import read_regular, write_atomic

FORMAT = 1
MAX_ENTRY = 4 << 20  # bytes: the figures of a kit are a few kilobytes
PREFIX = "figures-"

_ENABLED: ContextVar[bool] = ContextVar("kitgen_figure_cache", default=True)


@contextmanager
def caching(enabled: bool) -> Iterator[None]:
    """Within the block, figures are looked up and kept (``enabled``) or computed afresh; so are
    the small lotteries' laws the engine keeps beside them (``law_caching``)."""
    token = _ENABLED.set(enabled)
    try:
        with law_caching(enabled):
            yield
    finally:
        _ENABLED.reset(token)


@lru_cache(maxsize=1)
def kitgen_digest() -> str:
    """kitgen's own source: every module the figures' arithmetic and wording could come from."""
    h = hashlib.sha256(b"kitgen figures")
    digest_files(h, Path(__file__).resolve().parents[1], ("*.py",))
    return h.hexdigest()


class DamagedFigures(ValueError):
    """A cache entry of figures that cannot be trusted (the message says why)."""


def _canonical(data: object) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), allow_nan=False).encode()


def _checksum(key: str, data: object) -> str:
    return hashlib.sha256(f"kitgen figures {FORMAT}\0{key}\0".encode() + _canonical(data)).hexdigest()


class FigureCache:
    """Costed games on disk, keyed by everything that decides them (see the module docs)."""

    def __init__(self, directory: Path | None = None):
        self.directory = directory if directory is not None else default_cache_dir()
        self.hits = 0
        self.misses = 0

    def key(self, library: Library, request: dict[str, Any], models: object) -> str:
        h = hashlib.sha256(f"{engine_digest()} {kitgen_digest()} format {FORMAT}".encode())
        for root in library.roots:
            digest_files(h, root, ("*.yaml", "*.yml"), recursive=False)
        h.update(_canonical({"request": request, "models": models}))
        return h.hexdigest()

    def path(self, key: str) -> Path:
        return self.directory / f"{PREFIX}{key}.json"

    def load(self, key: str) -> Any:
        """The checked data filed under ``key``; None when there is none or it was discarded."""
        path = self.path(key)
        try:
            raw = read_regular(path, MAX_ENTRY)
            return _parse(key, raw)
        except FileNotFoundError:
            return None
        except (OSError, DamagedFigures) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            try:
                if path.is_file() and not path.is_symlink():
                    path.unlink()
            except OSError:
                pass
            _SAY.get()(f"discarded the cached table-time figures {path}: {reason}; costing again")
            return None

    def store(self, key: str, data: object) -> None:
        """Write the entry atomically; a cache that cannot be written is simply not used."""
        try:
            entry = {"format": FORMAT, "key": key, "sha256": _checksum(key, data), "data": data}
            blob = json.dumps(entry, allow_nan=False).encode("utf-8")
        except (TypeError, ValueError):
            return
        if len(blob) > MAX_ENTRY:
            return
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            write_atomic(self.path(key), blob)
        except OSError:
            pass

    def get(
        self, library: Library, request: dict[str, Any], models: object, compute: Callable[[], Any]
    ) -> Any:
        """The data of ``request``: from the cache when it holds it, else ``compute()`` (kept)."""
        if not _ENABLED.get():
            return compute()
        key = self.key(library, request, models)
        found = self.load(key)
        if found is not None:
            self.hits += 1
            return found
        self.misses += 1
        data = compute()
        self.store(key, data)
        return data


def measured_tables(kind: GameKind, rules: GameRules, library: Library, seating: PlaySettings) -> TableCounts:
    """``kind.measure_tables(rules, library, seating)`` (a bill of materials' simulated games), from
    the figure cache when it holds them. Read back from JSON even when just computed, so a first
    and a second build give the same bytes."""
    request = {
        "what": "largest tables",
        "kind": kind.name,
        "ruleset": rules.name,
        "players": seating.players,
        "virtual": seating.virtual,
        "options": {str(k): repr(v) for k, v in sorted(seating.options.items(), key=lambda kv: str(kv[0]))},
        "games": getattr(kind, "simulated_games", None),
    }

    def compute() -> Any:
        return json.loads(json.dumps(kind.measure_tables(rules, library, seating), allow_nan=False))

    found: TableCounts = FigureCache().get(library, request, None, compute)
    return found


def _parse(key: str, raw: bytes) -> Any:
    try:
        entry = json.loads(raw.decode("utf-8"), parse_constant=_constant)
    except RecursionError:
        raise DamagedFigures("it is nested too deeply") from None
    except UnicodeDecodeError:
        raise DamagedFigures("it is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise DamagedFigures(f"it is not JSON ({exc.msg} at character {exc.pos})") from None
    if not isinstance(entry, dict) or set(entry) != {"format", "key", "sha256", "data"}:
        raise DamagedFigures("it is not an entry of figures")
    if entry["format"] != FORMAT or entry["key"] != key:
        raise DamagedFigures("it is filed under another key")
    if entry["sha256"] != _checksum(key, entry["data"]):
        raise DamagedFigures("its checksum does not match its contents")
    return entry["data"]


def _constant(name: str) -> Any:
    raise DamagedFigures(f"it holds {name}")


__all__ = ["FORMAT", "DamagedFigures", "FigureCache", "caching", "kitgen_digest", "measured_tables"]
