"""The estimates table time is costed with: the seconds each action takes, how mixing grows
with the piles, how well people share card work and a person's ordinary turn
(:class:`TimeModel`); their profiles (``optimistic``, ``cautious``); loading and checking
them from ``templates/table_time.yaml`` or a user's file (``--table-time``); the one in
force (:func:`using_model`, :func:`time_model`) and the estimates as JSON
(:func:`model_json`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TypedDict

from reference_engine.api import Checker, UsageError, load_file

from ..core.templates import templates_dir

ACTIONS = ("place", "move", "turn", "rearrange", "envelope", "shuffle", "return")


PROFILES = ("optimistic", "cautious")


@dataclass(frozen=True)
class TimeModel:
    """Seconds per action, how mixing grows with the piles, how well people share work, and a
    person's ordinary turn. ``profile`` names the set of figures (``optimistic``: the shipped
    round figures; ``cautious``: slower shuffles, mixing not shared, imperfect teamwork)."""

    seconds: dict[str, float]
    source: str
    mix_piles: int = 8  # one person mixes this many piles in ``seconds["shuffle"]``
    mix_per_pile: float = 1.0  # each further pile adds this much mixing
    ordinary_turn: float = 10.0  # a person's own turn in a game (look, play or draw)
    mix_shared: bool = True  # the per-pile mixing is divided among the people mixing
    parallel: float = 1.0  # people sharing card work reach this fraction of perfect speed-up
    profile: str = "optimistic"

    def mix_seconds(self, piles: int, people: int) -> float:
        """Mixing ``piles`` envelopes or sleeves thoroughly, everyone at the table mixing."""
        share = max(1, people) if self.mix_shared else 1
        extra = max(0, piles - self.mix_piles) * self.mix_per_pile / share
        return self.seconds["shuffle"] + extra

    def speedup(self, sharing: int) -> float:
        """How much faster ``sharing`` people do some card work than one person alone: ``sharing``
        times the parallel efficiency, and never slower than one person."""
        return max(1.0, sharing * self.parallel) if sharing > 1 else 1.0


_MODEL: ContextVar[TimeModel | None] = ContextVar("kitgen_time_model", default=None)


def time_model(profile: str | None = None) -> TimeModel:
    """The estimates in force: a user's file (``--table-time``, see :func:`using_model`), else
    those of ``templates/table_time.yaml``; ``profile`` picks one of the file's profiles
    (default: the one in force, first of all the file's base figures, ``optimistic``)."""
    if profile is None:
        return _MODEL.get() or _shipped_models()[0]
    models = _MODELS.get() or _shipped_models()
    for model in models:
        if model.profile == profile:
            return model
    raise KeyError(profile)


def time_models() -> tuple[TimeModel, ...]:
    """Every profile of the model file in force: the optimistic base first, then each of its
    ``profiles:`` (``cautious`` in ours)."""
    return _MODELS.get() or _shipped_models()


_MODELS: ContextVar[tuple[TimeModel, ...] | None] = ContextVar("kitgen_time_models", default=None)


@lru_cache(maxsize=1)
def _shipped_models() -> tuple[TimeModel, ...]:
    return load_time_models(templates_dir() / "table_time.yaml")


@contextmanager
def using_model(path: str | Path | None, profile: str | None = None) -> Iterator[TimeModel]:
    """Within the block, every figure uses the seconds of the model file ``path`` (none: ours),
    the profile ``profile`` of it (none: its base figures)."""
    models = load_time_models(Path(path)) if path else _shipped_models()
    chosen = models[0] if profile is None else next((m for m in models if m.profile == profile), None)
    if chosen is None:
        known = ", ".join(m.profile for m in models)
        raise UsageError(f"{path or 'table_time.yaml'}: no profile {profile!r}; it has {known}")
    token = _MODEL.set(chosen)
    tokens = _MODELS.set(models)
    try:
        yield chosen
    finally:
        _MODELS.reset(tokens)
        _MODEL.reset(token)


def load_time_model(path: Path) -> TimeModel:
    """The base (optimistic) figures of a table-time model file (see :func:`load_time_models`)."""
    return load_time_models(path)[0]


_KEYS = ("seconds", "mixing", "ordinary_turn", "parallel")


def load_time_models(path: Path) -> tuple[TimeModel, ...]:
    """A table-time model file: its base figures, then each profile of ``profiles:`` (a profile
    gives only what differs from the base). A missing or bad number is a spec error naming file,
    line and key."""
    src = load_file(path)
    ck = Checker(src)
    doc = ck.mapping(src.data, (), required=("seconds", "source"), optional=(*_KEYS[1:], "profiles")) or {}
    base = _model(ck, doc, (), str(doc.get("source", "")), None)
    models = [base]
    profiles = ck.table(doc.get("profiles", {}), ("profiles",))
    for name, body in profiles.items():
        if name not in PROFILES:
            ck.error(
                ("profiles", name), f"unknown profile {name!r}; the profiles are {', '.join(PROFILES[1:])}"
            )
            continue
        part = ck.mapping(body, ("profiles", name), optional=("source", *_KEYS)) or {}
        if base is not None:
            models.append(_model(ck, part, ("profiles", name), str(part.get("source", base.source)), base))
    ck.raise_if_any()
    assert all(m is not None for m in models)
    return tuple(m for m in models if m is not None)


def _model(
    ck: Checker, doc: Mapping[str, object], at: tuple[str, ...], source: str, base: TimeModel | None
) -> TimeModel | None:
    """One profile's figures; ``base`` gives every figure the profile leaves out."""
    table = ck.table(doc.get("seconds", {}), (*at, "seconds"))
    seconds: dict[str, float] = dict(base.seconds) if base else {}
    for key in ACTIONS:
        if base is not None and key not in table:
            continue
        what = f"every action: {', '.join(ACTIONS)}"
        value = _number(ck, table.get(key), (*at, "seconds", key), what)
        if value is not None:
            seconds[key] = value
    for key in table:
        if key not in ACTIONS:
            ck.error((*at, "seconds", key), f"unknown action {key!r}; the actions are {', '.join(ACTIONS)}")
    mixing = (
        ck.mapping(doc.get("mixing", {}), (*at, "mixing"), optional=("piles", "per_pile", "shared")) or {}
    )
    piles = _number(
        ck,
        mixing.get("piles", base.mix_piles if base else 8),
        (*at, "mixing", "piles"),
        "the piles one person mixes",
    )
    per_pile = _number(
        ck,
        mixing.get("per_pile", base.mix_per_pile if base else 1.0),
        (*at, "mixing", "per_pile"),
        "seconds per further pile",
    )
    shared = mixing.get("shared", base.mix_shared if base else True)
    if not isinstance(shared, bool):
        ck.error(
            (*at, "mixing", "shared"),
            "true or false: whether the per-pile mixing is divided among the people",
        )
        shared = True
    turn = _number(
        ck,
        doc.get("ordinary_turn", base.ordinary_turn if base else 10.0),
        (*at, "ordinary_turn"),
        "seconds of a person's own turn",
    )
    parallel = doc.get("parallel", base.parallel if base else 1.0)
    if not (isinstance(parallel, int | float) and not isinstance(parallel, bool) and 0 < parallel <= 1):
        ck.error(
            (*at, "parallel"),
            "a fraction above 0 and at most 1: how close people sharing work come to perfect speed-up",
        )
        parallel = 1.0
    if piles is None or per_pile is None or turn is None or len(seconds) < len(ACTIONS):
        return None
    profile = at[-1] if at else "optimistic"
    return TimeModel(seconds, source, int(piles), per_pile, turn, shared, float(parallel), profile)


def _number(ck: Checker, value: object, path: tuple[str, ...], what: str) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value < 1e6:
        return float(value)
    ck.error(path, f"a number of seconds (0 or more) for {what}")
    return None


class MixingJSON(TypedDict):
    piles: int
    per_pile: float
    shared: bool


class TimeModelJSON(TypedDict):
    """The estimates as a manifest or a printing guide keeps them."""

    profile: str
    seconds: dict[str, float]
    mixing: MixingJSON
    ordinary_turn: float
    parallel: float
    source: str


def model_json(model: TimeModel | None = None) -> TimeModelJSON:
    """The estimates themselves, for a manifest or a printing guide."""
    model = model or time_model()
    return {
        "profile": model.profile,
        "seconds": dict(model.seconds),
        "mixing": {"piles": model.mix_piles, "per_pile": model.mix_per_pile, "shared": model.mix_shared},
        "ordinary_turn": model.ordinary_turn,
        "parallel": model.parallel,
        "source": model.source,
    }


__all__ = [
    "ACTIONS",
    "PROFILES",
    "TimeModel",
    "load_time_model",
    "load_time_models",
    "model_json",
    "time_model",
    "time_models",
    "using_model",
]
