"""Each figure's ratio against the last record, with drops flagged; docs/cli.md's speed table.

Usage:
  python bench/compare.py                       every bench: its last record against the one before
  python bench/build_speed.py --json --no-record | python bench/compare.py build_speed -
                                                a fresh run (last JSON line of a file or stdin)
                                                against the last record of that bench
  python bench/compare.py --docs [--check]      write (or check) docs/cli.md's generated figures

Records are the JSON lines in bench/results/<bench>.jsonl (bench/figures.py writes them). For each
figure the table gives the record's value, the new one and new / old. A figure is a speed when
its name ends in ``per_s`` or holds ``_vs_`` (higher is better), a time when its name ends in
``_s`` or a part of its path is ``seconds`` or ``cpu_seconds`` (lower is better); a speed that
falls or a time that grows by more than ``--tolerance`` (default 0.10) is flagged ``DROP``. Other
figures (turns per game, minutes at the table) are flagged ``changed`` when they move by more
than the tolerance. A record of another machine is compared all the same, with a warning:
figures only compare on one machine. ``--fail-on-drop`` exits 1 when a drop is flagged.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from figures import ROOT, make_record, read_records, results_dir

DOCS = ROOT / "docs" / "cli.md"
BEGIN = "<!-- figures:begin (python bench/compare.py --docs writes this table from bench/results/) -->"
END = "<!-- figures:end -->"

# docs/cli.md's table: (bench, figure path, what it is). Each row shows the last record's value.
DOC_FIGURES: tuple[tuple[str, str, str], ...] = (
    ("uno_speed", "rule_games_per_s", "rule level, kitgen `uno`, games/s"),
    ("uno_speed", "rlcard_games_per_s", "rule level, RLCard 1.2 UnoGame, games/s"),
    ("uno_speed", "rule_vs_rlcard", "rule level, ours / RLCard"),
    ("uno_speed", "card_turns_per_s", "card level, full 108-card table, compiled, virtual turns/s"),
    ("uno_speed", "card_interpreter_turns_per_s", "card level, full table, interpreter, virtual turns/s"),
    ("uno_speed", "card_compiled_vs_interpreter", "card level, compiled / interpreter"),
    ("uno_speed", "card_game_turns_per_s", "card level, whole games, compiled, virtual turns/s"),
    (
        "uno_speed",
        "card_game_steady_turns_per_s",
        "card level, whole games, compiled, the next as many turns (one-time costs paid), virtual turns/s",
    ),
    (
        "uno_speed",
        "card_game_interpreter_turns_per_s",
        "card level, whole games, interpreter, virtual turns/s",
    ),
    ("build_speed", "cpu_seconds/default kit, warm", "`kitgen build` (default kit), warm caches, CPU s"),
    ("build_speed", "cpu_seconds/default kit, cold", "`kitgen build` (default kit), empty caches, CPU s"),
    (
        "build_speed",
        "cpu_seconds/weighted UNO kit, cold",
        "weighted UNO kit (`--strategy weighted`), cold, CPU s",
    ),
    (
        "build_speed",
        "cpu_seconds/weighted UNO kit, warm",
        "weighted UNO kit (`--strategy weighted`), warm, CPU s",
    ),
    ("build_speed", "cpu_seconds/Gakmoro kit, cold", "`kitgen build gakmoro`, empty caches, CPU s"),
    ("build_speed", "cpu_seconds/Gakmoro kit, warm", "`kitgen build gakmoro`, warm caches, CPU s"),
    ("build_speed", "cpu_seconds/list --times, warm", "`kitgen list --times`, warm caches, CPU s"),
)


# --------------------------------------------------------------------------- figures


def flatten(value: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Every leaf of a figures object, by its path (``a/b``); list items by their ``lever`` or
    ``name``, else their index."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from flatten(item, f"{prefix}/{key}" if prefix else str(key))
    elif isinstance(value, list) and all(isinstance(v, dict) for v in value) and value:
        for i, item in enumerate(value):
            label = item.get("lever", item.get("name", i))
            rest = {k: v for k, v in item.items() if k not in ("lever", "name")}
            yield from flatten(rest, f"{prefix}/{label}")
    else:
        yield prefix, value


def direction(path: str) -> str:
    """``higher`` (a speed), ``lower`` (a time) or ``neutral``, from the figure's name."""
    parts = path.split("/")
    name = parts[-1]
    if name.endswith("per_s") or "_vs_" in name:
        return "higher"
    if name.endswith("_s") or "seconds" in parts[:-1] or "cpu_seconds" in parts[:-1]:
        return "lower"
    return "neutral"


def number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def compare(
    old: dict[str, Any], new: dict[str, Any], tolerance: float
) -> list[tuple[str, Any, Any, str, str]]:
    """(figure, old, new, ratio, flag) for every figure of either; flag is DROP, changed or empty."""
    before, after = dict(flatten(old)), dict(flatten(new))
    rows = []
    for path in list(before) + [p for p in after if p not in before]:
        a, b = before.get(path), after.get(path)
        x, y = number(a), number(b)
        if a is None or b is None:
            rows.append((path, a, b, "", "new" if a is None else "gone"))
            continue
        if x is None or y is None:
            flag = "" if a == b else "changed"
            rows.append((path, a, b, "", flag))
            continue
        ratio = y / x if x else (1.0 if y == x else float("inf"))
        way = direction(path)
        worse = (way == "higher" and ratio < 1 - tolerance) or (way == "lower" and ratio > 1 + tolerance)
        moved = abs(ratio - 1) > tolerance
        flag = "DROP" if worse else ("changed" if moved and way == "neutral" else "")
        rows.append((path, a, b, f"{ratio:.2f}x", flag))
    return rows


def _show(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.2f}" if abs(value) < 10 else f"{value:.1f}" if abs(value) < 100 else f"{value:,.0f}"
    return str(value)


def _describe(record: dict[str, Any]) -> str:
    m = record.get("machine", {})
    dirty = " (with uncommitted changes)" if record.get("dirty") else ""
    return (
        f"{record.get('date', '?')}, commit {record.get('commit') or '?'}{dirty}, on {m.get('name', '?')} "
        f"({m.get('cpu', '?')}, {m.get('usable_cores', '?')} of {m.get('cores', '?')} cores)"
    )


def report(bench: str, old: dict[str, Any], new: dict[str, Any], tolerance: float) -> int:
    """Print the comparison; the number of drops."""
    print(f"{bench}:")
    print(f"  last record: {_describe(old)}")
    print(f"  compared:    {_describe(new)}")
    if old.get("machine", {}).get("name") != new.get("machine", {}).get("name"):
        print("  warning: another machine; its figures do not compare with these")
    rows = compare(old["figures"], new["figures"], tolerance)
    width = max((len(r[0]) for r in rows), default=10)
    drops = 0
    for path, a, b, ratio, flag in rows:
        drops += flag == "DROP"
        print(f"  {path:<{width}}  {_show(a):>12}  {_show(b):>12}  {ratio:>7}  {flag}")
    return drops


def fresh_run(bench: str, source: str) -> dict[str, Any]:
    """A run that is not recorded: the last JSON line of ``source`` (a file, or - for stdin)."""
    text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line.strip().startswith("{")]
    if not lines:
        raise SystemExit(f"{source}: no JSON line (run the bench with --json)")
    try:
        figures = json.loads(lines[-1])
    except json.JSONDecodeError as exc:
        raise SystemExit(f"{source}: the last JSON line does not parse ({exc.msg})") from None
    return make_record(bench, figures, {}, None)


# --------------------------------------------------------------------------- docs


def docs_block(folder: Path | None = None) -> str:
    """docs/cli.md's generated table: every figure of DOC_FIGURES from the last record that has
    it (a quick run records fewer figures), with the records it comes from."""
    lines = [BEGIN, "", "| figure | last record |", "|--------|------------:|"]
    used: list[dict[str, Any]] = []
    for bench, path, label in DOC_FIGURES:
        for record in reversed(read_records(bench, folder)):
            value = dict(flatten(record["figures"])).get(path)
            if value is not None:
                if record not in used:
                    used.append(record)
                lines.append(f"| {label} | {_show(value)} [{used.index(record) + 1}] |")
                break
    lines.append("")
    for i, record in enumerate(used, start=1):
        lines.append(f"[{i}] `bench/{record['bench']}.py`: {_describe(record)}.")
        lines.append("")
    lines.append(END)
    return "\n".join(lines)


def docs_text(text: str, block: str) -> str:
    """``text`` with the generated block replaced (it must hold both markers once)."""
    if text.count(BEGIN) != 1 or text.count(END) != 1 or text.index(BEGIN) > text.index(END):
        raise SystemExit(f"{DOCS}: needs the marker lines {BEGIN!r} and {END!r} once, in this order")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return head + block + tail


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("bench", nargs="?", help="a bench (uno_speed, build_speed, table_time)")
    parser.add_argument("run", nargs="?", help="a file holding its --json output, or - for stdin")
    parser.add_argument("--tolerance", type=float, default=0.10)
    parser.add_argument("--fail-on-drop", action="store_true", help="exit 1 when a figure dropped")
    parser.add_argument("--docs", action="store_true", help="write docs/cli.md's generated figures")
    parser.add_argument("--check", action="store_true", help="with --docs: exit 1 if they are stale")
    args = parser.parse_args()
    if args.docs:
        text = DOCS.read_text(encoding="utf-8")
        new = docs_text(text, docs_block())
        if args.check:
            if new != text:
                raise SystemExit(
                    "docs/cli.md's figures are not those of bench/results/: run bench/compare.py --docs"
                )
            print("docs/cli.md's figures match bench/results/")
            return
        if new != text:
            DOCS.write_text(new, encoding="utf-8")
        print("docs/cli.md: figures written from bench/results/")
        return
    drops = 0
    if args.run:
        records = read_records(args.bench)
        if not records:
            raise SystemExit(f"no record of {args.bench} in {results_dir()}")
        drops += report(args.bench, records[-1], fresh_run(args.bench, args.run), args.tolerance)
    else:
        names = [args.bench] if args.bench else sorted(p.stem for p in results_dir().glob("*.jsonl"))
        for name in names:
            records = read_records(name)
            if len(records) < 2:
                print(f"{name}: {len(records)} record(s), nothing to compare with")
                continue
            drops += report(name, records[-2], records[-1], args.tolerance)
    if drops:
        print(f"{drops} figure(s) dropped by more than {args.tolerance:.0%}")
    if drops and args.fail_on_drop:
        sys.exit(1)


if __name__ == "__main__":
    main()
