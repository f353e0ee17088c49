"""Every game kit's figures from one place: the one source of truth for minutes and table space.

A kit's figures (minutes per turn and per game under both profiles, the table it needs) are
computed once, by its kind's :meth:`~kitgen.kinds.KitKind.figures`, for one plan: the seating
and options of the kit, simulated over the kind's number of games. ``kitgen build`` asks it
for the kit's plan; ``kitgen list --times``, ``bench/table_time.py`` and the README's and
docs' tables ask it for the plan ``kitgen build NAME`` makes with no options
(:func:`default_plan`). So the booklet, index.html, manifest.json, the console and the tables
all read the same numbers (the README's are generated: :func:`generated`, and a test fails
when they drift).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from reference_engine.api import GameRules, Library, catalogue, load_game

from ..core.durations import short_range
from ..core.kitoptions import KitOptions
from ..core.optionspec import KindValues, flag_of
from ..core.templates import load_templates
from ..cost.kitcost import Costs
from ..kinds import KitPlan, kit_kind

Summary = dict[str, object]


def default_plan(rules: GameRules) -> KitPlan:
    """The plan ``kitgen build NAME`` makes with no options but those the rules need (the
    kit's default seating; ``--wild4 bluff`` for uno-official): see :func:`build_command`."""
    kind = kit_kind(rules)
    opts = KitOptions(ruleset=rules.name, own=KindValues.of(**kind.needed_options(rules)))
    return kind.plan(opts, rules, load_templates())


def build_command(rules: GameRules) -> str:
    """The command that builds the kit of :func:`default_plan`."""
    needed = kit_kind(rules).needed_options(rules)
    return " ".join(["kitgen build", rules.name, *(f"{flag_of(k)} {v}" for k, v in needed.items())])


def kit_figures(library: Library, rules: GameRules, plan: KitPlan | None = None) -> Costs | None:
    """The figures of a game kit with ``plan`` (default: :func:`default_plan`); None for a kit
    that states none (no virtual players, a puzzle kit)."""
    kind = kit_kind(rules)
    if kind.own_kit:
        return None
    return kind.figures(library, rules, plan or default_plan(rules))


def game_kits() -> list[str]:
    """Every rule set that loads, by name (a kit may still state no figures)."""
    return [name for name, _, problem in catalogue() if problem is None]


def summaries(library: Library, names: Sequence[str] | None = None) -> dict[str, Summary]:
    """Each game kit's figures at its default plan, in the same shape for every game (see
    :meth:`kitgen.cost.kitcost.Costs.summary`), by rule set name."""
    out: dict[str, Summary] = {}
    for name in names or game_kits():
        rules = load_game(name)
        costs = kit_figures(library, rules)
        if costs is not None:
            out[name] = costs.summary() | {"build": build_command(rules)}
    return out


# The weighted virtual players docs/strategy.md costs: (rule set, weights; "" for the uniform one).
WEIGHTED = (
    ("uno", ""),
    ("uno", "action=3,number=1,wild=1"),
    ("uno", "action=9,number=3,wild=1"),
    ("uno-small", ""),
    ("uno-small", "action=3,number=1,wild=1"),
)


def weighted_summaries(library: Library) -> dict[str, Summary]:
    """The figures of :data:`WEIGHTED`'s kits (``kitgen build NAME --strategy weighted --weights W``),
    by their build command."""
    out: dict[str, Summary] = {}
    for name, weights in WEIGHTED:
        rules = load_game(name)
        kind = kit_kind(rules)
        own = KindValues.of(strategy="weighted", weights=weights) if weights else KindValues()
        plan = kind.plan(KitOptions(ruleset=name, own=own), rules, load_templates())
        costs = kind.figures(library, rules, plan)
        command = f"kitgen build {name}" + (f" --strategy weighted --weights {weights}" if weights else "")
        if costs is not None:
            out[command] = costs.summary() | {"build": command}
    return out


def seating(row: Mapping[str, object]) -> str:
    """ "4 players, 1 virtual" or "2 players"."""
    virtual = row.get("virtual") or 0
    return f"{row['players']} players" + (f", {virtual} virtual" if virtual else "")


def _minutes(row: Mapping[str, object], key: str) -> str:
    low, high = row[key], row.get(f"{key}_cautious")
    assert isinstance(low, int | float) and (high is None or isinstance(high, int | float)), key
    return short_range(float(low), None if high is None else float(high))


def _table(row: Mapping[str, object]) -> str:
    width, depth = row.get("table_width_cm"), row.get("table_depth_cm")
    return "-" if width is None else f"{width:.0f} × {depth:.0f} cm"


def time_lines(rows: Mapping[str, Summary]) -> list[str]:
    """What ``kitgen list --times`` prints: one line per game kit, at its default seating."""
    lines = [
        "What each game kit costs at the table (its default seating; optimistic-cautious estimates, "
        "see docs/table-time.md):"
    ]
    width = max((len(name) for name in rows), default=0)
    for name, row in rows.items():
        people = row["people"]
        lines.append(
            f"  {name.ljust(width)}  {row['turn']} {_minutes(row, 'turn_minutes')} "
            f"(first of a game {_minutes(row, 'first_turn_minutes')}), a game "
            f"{_minutes(row, 'game_minutes_mean')} (9 in 10: {_minutes(row, 'game_minutes_p90')}), "
            f"table {_table(row)}; {seating(row)}, {people} {'person' if people == 1 else 'people'} "
            f"working, {row['games']} simulated games"
        )
    return lines


def readme_table(rows: Mapping[str, Summary]) -> list[str]:
    """The README's table of every game kit's figures (Markdown)."""
    out = [
        "| game | seating (people working) | a turn (the first of a game) | a whole game, mean / 9 in 10 "
        "| table for the largest turn | simulated games |",
        "|------|--------------------------|------------------------------|------------------------------"
        "|----------------------------|-----------------|",
    ]
    for name, row in rows.items():
        turn = "" if row["turn"] == "virtual turn" else f"a {row['turn']}: "
        flags = str(row.get("build", "")).removeprefix(f"kitgen build {name}").strip()
        game = f"`{name}`" + (f" (`{flags}`)" if flags else "")
        out.append(
            f"| {game} | {seating(row)} ({row['people']}) | {turn}{_minutes(row, 'turn_minutes')} "
            f"({_minutes(row, 'first_turn_minutes')}) | {_minutes(row, 'game_minutes_mean')} / "
            f"{_minutes(row, 'game_minutes_p90')} | {_table(row)} | {row['games']} |"
        )
    return out


def paper_table(rows: Mapping[str, Summary]) -> list[str]:
    """docs/table-time.md's table: each kit's protocol beside the paper's own, per virtual turn."""
    out = [
        "| game | the kit's protocol | a virtual turn | the paper's protocol | a virtual turn |",
        "|------|--------------------|----------------|----------------------|----------------|",
    ]
    for name, row in rows.items():
        if row.get("paper_protocol") is None:
            continue
        paper = {"t": row["paper_turn_minutes"], "t_cautious": row.get("paper_turn_minutes_cautious")}
        out.append(
            f"| `{name}` | `{row['protocol']}` | {_minutes(row, 'turn_minutes')} | "
            f"`{row['paper_protocol']}` | {_minutes(paper, 't')} |"
        )
    return out


def weighted_table(rows: Mapping[str, Summary]) -> list[str]:
    """docs/strategy.md's table: uniform and weighted virtual players, kit by kit."""
    out = [
        "| kit | seating (people working) | a virtual turn (the first of a game) | a whole game, mean "
        "| the protocol |",
        "|-----|--------------------------|--------------------------------------|-------------------"
        "|--------------|",
    ]
    for command, row in rows.items():
        out.append(
            f"| `{command}` | {seating(row)} ({row['people']}) | {_minutes(row, 'turn_minutes')} "
            f"({_minutes(row, 'first_turn_minutes')}) | {_minutes(row, 'game_minutes_mean')} "
            f"| `{row['protocol']}` |"
        )
    return out


# --------------------------------------------------------------------------- generated docs

FIGURES_FILE = "docs/kit-figures.json"  # the committed figures the tables are generated from
# Each generated table: the file, the block's name, which figures ("kits" or "weighted"), the table.
TABLES = (
    ("README.md", "kits", "kits", readme_table),
    ("docs/table-time.md", "kits", "kits", readme_table),
    ("docs/table-time.md", "paper", "kits", paper_table),
    ("docs/printing.md", "kits", "kits", readme_table),
    ("docs/strategy.md", "weighted", "weighted", weighted_table),
)


def marker(name: str) -> tuple[str, str]:
    return f"<!-- figures:{name} (generated by python bench/table_time.py --write-docs) -->", (
        f"<!-- /figures:{name} -->"
    )


def fill(text: str, name: str, lines: Sequence[str]) -> str:
    """``text`` with the block between the markers of ``name`` replaced by ``lines`` (a
    ValueError when the markers are missing)."""
    start, end = marker(name)
    pattern = re.compile(re.escape(start) + r"\n.*?" + re.escape(end), re.S)
    if not pattern.search(text):
        raise ValueError(f"no {start} ... {end} block")
    return pattern.sub(lambda _: "\n".join([start, *lines, end]), text, count=1)


def generated(root: Path, figures: Mapping[str, Mapping[str, Summary]]) -> dict[str, str]:
    """Every generated file's text from ``figures`` (``{"kits": ..., "weighted": ...}``): the
    figures file and the docs with their tables."""
    out = {FIGURES_FILE: json.dumps(figures, indent=1, ensure_ascii=False) + "\n"}
    for path, name, which, table in TABLES:
        text = out.get(path) or (root / path).read_text(encoding="utf-8")
        out[path] = fill(text, name, table(figures[which]))
    return out


def all_figures(library: Library) -> dict[str, dict[str, Summary]]:
    """What the docs' tables are generated from: every game kit, and the weighted kits."""
    return {"kits": summaries(library), "weighted": weighted_summaries(library)}


def committed(root: Path) -> dict[str, dict[str, Summary]]:
    """The figures the docs were last generated from (``docs/kit-figures.json``)."""
    data = json.loads((root / FIGURES_FILE).read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


__all__ = [
    "FIGURES_FILE",
    "WEIGHTED",
    "all_figures",
    "build_command",
    "committed",
    "default_plan",
    "fill",
    "game_kits",
    "generated",
    "kit_figures",
    "paper_table",
    "readme_table",
    "seating",
    "summaries",
    "time_lines",
    "weighted_summaries",
    "weighted_table",
]
