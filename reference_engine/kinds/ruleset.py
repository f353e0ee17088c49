"""Rule set files: finding one by name or path, the kind it declares, loading it with its kind."""

from __future__ import annotations

from pathlib import Path

from ..errors import SpecError, UsageError
from ..files import not_a_file
from ..registry import rulesets_dir
from ..schema import Checker, check_lengths
from ..source import load_file
from .kind import DEFAULT_KIND, GameKind, GameRules, find_kind


def games_dir() -> Path:
    return rulesets_dir() / "games"


def rules_path(name_or_path: str) -> Path:
    """The file of a rule set given by name (``uno``) or path; a clear error if there is none."""
    path = Path(name_or_path)
    if path.is_dir() and (
        name_or_path.endswith((".yaml", ".yml")) or not (games_dir() / f"{name_or_path}.yaml").is_file()
    ):
        raise UsageError(f"{name_or_path} is a folder, not a rule set file")
    if not name_or_path.endswith((".yaml", ".yml")):
        path = games_dir() / f"{name_or_path}.yaml"
        if not path.is_file():
            known = ", ".join(sorted(p.stem for p in games_dir().glob("*.yaml"))) or "none"
            raise UsageError(f"unknown rule set {name_or_path!r} (known: {known})")
    elif not path.is_file():
        why = not_a_file(path)
        raise UsageError(f"{path}: {why}" if why else f"no such rule set file: {path}")
    return path


def is_game(name_or_path: str) -> bool:
    """Whether ``name_or_path`` names a rule set (not a protocol spec)."""
    return not name_or_path.endswith((".yaml", ".yml")) and (games_dir() / f"{name_or_path}.yaml").is_file()


# The longest text each key of a rule set may hold, as for protocol specs (reference_engine/spec.py):
# the built-in rule sets' longest are a fifth of these (notes 546, setup_steps 461, doc 330).
RULESET_TEXT_LIMITS = {
    "game": 64,
    "title": 120,
    "summary": 400,
    "doc": 1_500,
    "cite": 500,
    "notes": 5_000,
    "paper_note": 1_000,
}


def kind_name(name_or_path: str) -> str:
    """The kind a rule set declares (``kind:``; ``shedding`` when it says nothing). Every text of
    the file is within its length limit first (:data:`RULESET_TEXT_LIMITS`; any other 3,000
    characters, any key 200), so no kind's loader or booklet reads a title of a million."""
    src = load_file(rules_path(name_or_path))
    ck = Checker(src)
    if not check_lengths(ck, src.data, RULESET_TEXT_LIMITS, 3_000, 200):
        raise SpecError(ck.problems)
    data = src.data
    kind = data.get("kind", DEFAULT_KIND) if isinstance(data, dict) else DEFAULT_KIND
    return str(kind)


def kind_of(name_or_path: str) -> GameKind:
    return find_kind(kind_name(name_or_path))


def load_game(name_or_path: str) -> GameRules:
    """A rule set of any kind, by name or path."""
    expected = None if name_or_path.endswith((".yaml", ".yml")) else name_or_path
    return kind_of(name_or_path).load(rules_path(name_or_path), expected)


def catalogue() -> list[tuple[str, str, str | None]]:
    """Every built-in rule set: (name, one line about it, the problem when it does not load)."""
    from ..errors import KitgenError

    out: list[tuple[str, str, str | None]] = []
    for path in sorted(games_dir().glob("*.yaml")):
        try:
            rules = load_game(path.stem)
            out.append((rules.name, rules.summary or rules.title, None))
        except KitgenError as exc:
            count = len(getattr(exc, "problems", [])) or 1
            out.append((path.stem, "", f"{count} problem(s)"))
    return out
