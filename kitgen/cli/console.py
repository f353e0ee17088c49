"""Plain-text rendering of traces and reports for the terminal (``kitgen simulate``)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from reference_engine.api import (
    CardJSON,
    DeckClaim,
    Event,
    Forecast,
    Library,
    Protocol,
    RegionJSON,
    Report,
    ReportSummary,
    Simulation,
    Snapshot,
    catalogue,
    count_text,
    glyph,
    symbol,
    views_phrase,
)

from ..core.manifest import BookletManifest, FileEntry, KitManifest, OwnKitManifest, table_time_text
from ..core.words import plural
from ..lang.catalogue import N_, _


def table_lines(
    snap: Snapshot, show_hidden: bool = False, indent: str = "    ", before: Snapshot | None = None
) -> list[str]:
    """The table as a player sees it: ``?`` for face-down cards, faces for face-up ones.

    With ``show_hidden`` the face of each face-down card follows in brackets, for teachers.
    Matrices are printed row by row; items of a row (pairs, bundles) are separated by
    two spaces; labels are printed under the row they belong to.
    """
    lines: list[str] = []
    width = max((len(_tag(r)) for r in snap.regions), default=0)
    for reg in snap.regions:
        texts = [[_cell(c, show_hidden) for c in row] for row in reg["cells"]]
        colw = max((len(t) for row in texts for t in row), default=1)
        unit = reg["unit"] if reg["rows"] == 1 else 1
        spans: dict[int, list[tuple[int, int, str]]] = {}
        for lab in snap.labels:
            mine = [(row, c) for name, row, c in lab["slots"] if name == reg["name"]]
            if mine:
                cols = [c for _, c in mine]
                spans.setdefault(max(r for r, _ in mine), []).append((min(cols), max(cols), lab["text"]))
        for r, row in enumerate(texts):
            chunks = [" ".join(t.rjust(colw) for t in row[i : i + unit]) for i in range(0, len(row), unit)]
            head = _tag(reg).ljust(width) if r == 0 else " " * width
            lines.append(f"{indent}{head}  {('  ' if unit > 1 else ' ').join(chunks)}")
            for line in _pack(sorted(spans.get(r + 1, [])), colw, unit):
                lines.append(f"{indent}{' ' * width}  {line}")
    # What this step took from the spare cards (with ``before``: only the change in the step).
    earlier = before.supply_out if before is not None else {}
    taken = {k: n - earlier.get(k, 0) for k, n in snap.supply_out.items() if n > earlier.get(k, 0)}
    if taken:
        used = ", ".join(f"{n} {_glyph(k)}" for k, n in taken.items())
        lines.append(f"{indent}(taken from the spare cards: {used})")
    return lines


def readable(condition: str) -> str:
    """A decision's condition with card names as glyphs: ``s[1..2] == [beta, alpha]`` ->
    ``s[1..2] shows β α``."""

    def names(m: re.Match[str]) -> str:
        return " ".join(_glyph(t.strip()) for t in m.group(1).split(","))

    text = re.sub(r"\[([A-Za-z_][\w]*(?:\s*,\s*[A-Za-z_][\w]*)*)\]", names, condition)
    text = text.replace(" == ", " shows ").replace(" != ", " does not show ")

    def one(m: re.Match[str]) -> str:
        return _glyph(m.group(1)) if symbol(m.group(1)) is not None else m.group(1)

    return re.sub(r"\b([A-Za-z_]\w*)\b", one, text)


def _pack(spans: list[tuple[int, int, str]], colw: int, unit: int) -> list[str]:
    """Lay labels out on as few lines as possible without overlaps."""
    lines: list[str] = []
    for first, last, text in spans:
        bar = _label_line(text, first, last, colw, unit)
        start = len(bar) - len(bar.lstrip(" "))
        for i, line in enumerate(lines):
            if len(line) < start:
                lines[i] = line + bar[len(line) :]
                break
        else:
            lines.append(bar)
    return lines


def _tag(reg: RegionJSON) -> str:
    return f"{reg['name']} (hand of {reg['hand']})" if reg.get("hand") else str(reg["name"])


def _cell(card: CardJSON | None, show_hidden: bool) -> str:
    if card is None:
        return "·"
    if card["up"]:
        return str(card["glyph"])
    return f"?({card['glyph']})" if show_hidden else "?"


def _label_line(text: str, first: int, last: int, colw: int, unit: int) -> str:
    def pos(col: int) -> int:
        k = col - 1
        return k * (colw + 1) + (k // unit) * (1 if unit > 1 else 0)

    start, end = pos(first), pos(last) + colw
    span = max(end - start, len(text) + 2)
    bar = "└" + text.center(span - 2, "─") + "┘"
    return " " * start + bar


def step_blocks(events: list[Event]) -> Iterator[tuple[Event, list[Event]]]:
    """Group consecutive events of the same step (and call depth) together."""
    block: list[Event] = []
    for e in events:
        key = (e.step, tuple(e.call_path), tuple(sorted(e.loop.items(), key=str)))
        if block:
            last = block[-1]
            if key != (last.step, tuple(last.call_path), tuple(sorted(last.loop.items(), key=str))):
                yield block[0], block
                block = []
        block.append(e)
    if block:
        yield block[0], block


def describe_event(e: Event) -> str | None:
    d = e.detail
    if e.action == "shuffle":
        if d.get("weighted"):
            return f"shuffle ({d['kind']}: one of {d['size']} listed arrangements, some listed more often)"
        return f"shuffle ({d['kind']}, one of {d['size']} equally likely arrangements)"
    if e.action == "turn" and d.get("revealed"):
        return "turned over: " + " ".join(_glyph(s) for s in d["revealed"])
    if e.action == "if":
        return f"{readable(str(d['condition']))}? {'yes' if d['result'] else 'no'}"
    if e.action == "shift":
        return f"shifted the piles by {d['by']} ({d['until']})"
    if e.action == "discard":
        return "back to the spare cards: " + ", ".join(d["cards"])
    if e.action == "call":
        return f"run {d['protocol']}" + (f" with {d['params']}" if d.get("params") else "")
    if e.action == "return" and "protocol" not in d:  # the 'return' action: cards back to hands
        return "back into the hands: " + ", ".join(f"{m['from'][0]} to {m['to'][0]}" for m in d["moves"])
    if e.action == "return":
        vals = ", ".join(f"{k} = {v}" for k, v in d.get("values", {}).items())
        return f"{d['protocol']} done" + (f": {vals}" if vals else "")
    if e.action == "let":
        return ", ".join(f"{k} = {v}" for k, v in d.items())
    if e.action == "sleeve":
        return "; ".join(_sleeve_words(op) for op in d.get("ops", []))
    return None


def _sleeve_words(op: dict[str, object]) -> str:
    """What a sleeve action did, in words: ``the sleeves of M turned front up``."""
    what = f"the {op.get('sleeves')} {op.get('kind', 'sleeve')}s of {op.get('region')}"
    if "side" in op:
        return f"{what} lie {op['side']} up" + ("" if op.get("turned") else " (already)")
    rows = ", ".join(str(r) for r in op.get("out", op.get("in", [])))  # type: ignore[attr-defined]
    return f"row {rows} slid {'out of' if 'out' in op else 'back into'} {what}"


def _glyph(name: str) -> str:
    return glyph(name)


def _extra_sheet_lines(manifest: KitManifest) -> list[str]:
    """The kit kind's own sheets (Gakmoro's bundles.pdf), or a protocol kit's handout."""
    from ..kinds import kit_kind

    if manifest.kind is not None:
        return kit_kind(manifest.kind).file_lines(manifest)
    if manifest.handout:
        return [
            _("  handout.pdf 1 page for a lesson: what it does, who sits where, the steps, what to watch")
        ]
    return []


def kit_lines(manifest: KitManifest | OwnKitManifest) -> list[str]:
    """What `kitgen build` prints: where the kit is and what to do with it."""
    from ..kinds import kit_kind

    if isinstance(manifest, OwnKitManifest):
        assert manifest.kind is not None, "a kit of its own shape is a game kind's"
        return kit_kind(manifest.kind).kit_lines(manifest)
    if manifest.only:
        only = manifest.only
        from ..cost.printguide import page_ranges

        return [
            _("Reprint of {types} from kit {kit} written to {folder}/").format(
                types=", ".join(only["types"]), kit=manifest.kit, folder=manifest.folder
            ),
            _(
                "  cards.pdf   {n} pages: pages {pages} of the full kit's cards.pdf, with the same page ids "
                "and backs (other cards on those sheets print too)"
            ).format(n=len(only["pages"]), pages=page_ranges(only["pages"])),
            "",
            _("Print at 100% (actual size), as the printing guide of the full kit says."),
        ]
    bom = manifest.bom
    cards = manifest.sheets["cards"]
    labels = manifest.sheets["labels"]
    opts = manifest.options
    lines = [
        _("Kit {kit} written to {folder}/").format(kit=manifest.kit, folder=manifest.folder),
        (
            _(
                "  cards.pdf   {pages} pages: {cards} cards, {per_sheet} per sheet ({columns} x {rows}), "
                "backs: {backs}"
            )
            if not cards["rotated"]
            else _(
                "  cards.pdf   {pages} pages: {cards} cards, {per_sheet} per sheet "
                "({columns} x {rows}, turned), backs: {backs}"
            )
        ).format(
            pages=cards["pages"],
            cards=bom["printed_cards"],
            per_sheet=cards["per_sheet"],
            columns=cards["columns"],
            rows=cards["rows"],
            backs=_(BACKS[opts["duplex"]]) if opts["duplex"] in BACKS else opts["duplex"],
        )
        + (
            _(", {n} calibration pages first").format(n=cards["calibration_pages"])
            if cards["calibration_pages"]
            else ""
        ),
        _("  labels.pdf  {pages} pages ({labels} on {sheet}; page 1 is a calibration page)").format(
            pages=labels["pages"], labels=plural(labels["labels"], "label"), sheet=labels["sheet"]
        ),
        *_extra_sheet_lines(manifest),
        *(
            [
                (
                    _(
                        "  booklet.pdf {pages} pages: set-up, rules, every protocol step by step, "
                        "validation, quick reference (booklet.json: the same as data)"
                    )
                    if manifest.game is not None
                    else _(
                        "  booklet.pdf {pages} pages: every protocol step by step, validation, "
                        "quick reference (booklet.json: the same as data)"
                    )
                ).format(pages=manifest.booklet["pages"])
            ]
            if manifest.booklet
            else []
        ),
        _(
            "  printing-guide.txt  what to print in what order, page ranges of each card type;  "
            "shopping-list.txt  what to buy"
        ),
        _("  index.html  the kit in a browser")
        + (_(";  view/  step through each protocol") if _has_files(manifest.files, "view/") else ""),
        (
            _(
                "  previews/   a PNG of every page;  manifest.json  options, materials, checksums, "
                "verification"
            )
            if opts.get("previews", True)
            else _(
                "  manifest.json  options, materials, checksums, verification (no previews: --no-previews)"
            )
        ),
        "",
        _("Bill of materials:"),
    ]
    for item in bom["items"]:
        extra = _(" ({needed} + {spares} spares)").format(**item) if item["spares"] else ""
        lines.append(f"  {item['count']:>4}  {item['name']}{extra}")
    for note in bom["notes"]:
        lines.append(_("  note: {note}").format(note=note))
    cost = table_time_text(manifest)
    if cost:
        lines.append("")
        lines += cost[:2]
    if manifest.verification:
        lines.append("")
        lines.append(_("Verified before printing:"))
        lines += _verified_lines(manifest.verification)
    lines.append("")
    lines.append(_("Print at 100% (actual size). Check the 100 mm bar on any page with a ruler."))
    lines += [_("Warning: {w}.").format(w=w) for w in manifest.warnings or []]
    return lines


def _has_files(files: list[FileEntry], folder: str) -> bool:
    return any(f["path"].startswith(folder) for f in files)


# How a verification was done and how the card backs print, as `kitgen build` says them.
METHODS = {"exact": N_("exact"), "statistical": N_("statistical")}
BACKS = {"long": N_("long"), "short": N_("short"), "none": N_("none"), "fold": N_("fold")}


def _verified_lines(verification: list[ReportSummary]) -> list[str]:
    lines = []
    for v in verification:
        scenario = v.get("scenario")
        method = _(METHODS[v["method"]]) if v["method"] in METHODS else v["method"]
        lines.append(
            (
                _("  {protocol}: {method}, correct and secure ({deck} deck)")
                if scenario
                else _("  {protocol}: {method}, correct and secure")
            ).format(protocol=v["protocol"], method=method, deck=scenario["name"] if scenario else "")
        )
    return lines


def booklet_lines(manifest: BookletManifest) -> list[str]:
    """What `kitgen booklet` prints."""
    written = _("Booklet {booklet} written to {folder}/")
    lines = [written.format(booklet=manifest.booklet, folder=manifest.folder)]
    if manifest.imposition == "a5-saddle":
        lines.append(
            _(
                "  booklet.pdf  {pages} pages on {sides} sides of {paper}: print double-sided (flip on the "
                "short edge), fold in the middle, staple on the fold"
            ).format(pages=manifest.pages, sides=manifest.printed_sides, paper=manifest.paper)
        )
    else:
        pages = _("  booklet.pdf  {pages} pages, {paper}")
        lines.append(pages.format(pages=manifest.pages, paper=manifest.paper))
    lines.append(
        _("  booklet.json the same content as data;  previews/  a PNG of every page")
        if _has_files(manifest.files, "previews/")
        else _("  booklet.json the same content as data (no previews: --no-previews)")
    )
    lines.append("")
    lines.append(_("Verified before printing:"))
    lines += _verified_lines(manifest.verification)
    return lines


def catalogue_lines(library: Library | None = None) -> list[str]:
    """What `kitgen list` prints: every protocol and rule set with one line about it."""
    entries = (library or Library()).catalogue()
    games = catalogue()
    width = max([len(e.name) for e in entries] + [len(g[0]) for g in games], default=0)
    lines = ["Protocols (kitgen verify NAME, kitgen simulate NAME):"]
    for e in entries:
        text = e.summary if not e.problem else f"INVALID SPEC: {e.problem} (run kitgen verify {e.name})"
        lines.append(f"  {e.name.ljust(width)}  {text}")
    lines.append("Rule sets (kitgen play NAME, kitgen build NAME):")
    for name, text, problem in games:
        lines.append(f"  {name.ljust(width)}  {text if problem is None else 'INVALID RULE SET: ' + problem}")
    return lines


def report_lines(report: Report) -> list[str]:
    """A verification report as `kitgen verify` prints it: one line per check."""
    params = ", ".join(f"{k}={v}" for k, v in report.params.items())
    name = f"{report.protocol} ({params})" if params else report.protocol
    if report.reduction:
        red = report.reduction
        out = [
            f"{name}: {report.method} verification over {count_text(report.inputs)} deals of "
            f"{red['cards']} cards ({red['class_deals']} deals of the validity classes)"
        ]
    else:
        out = [f"{name}: {report.method} verification over {report.scope()}"]
    width = max((len(c.name) for c in report.checks), default=0)
    for c in report.checks:
        mark = "ok  " if c.ok else "FAIL"
        out.append(f"  {mark} {c.name:<{width}}  {c.figure}")
    for n in report.notes:
        out.append(f"  note: {n}")
    st = report.stats
    n_views = views_phrase(st.get("views_after_merging", st["views"]), st["views"])
    work = (
        f"{st['final_states']} final states, {n_views}, "
        f"{st['states_processed']} states processed (largest frontier {st['peak_frontier']}), "
        f"{st['seconds']:.2f} s"
    )
    if st.get("workers"):
        work += f" in {st['workers']} workers (state counts added up over the workers)"
    out.append("  " + work)
    out.append(report.verdict())
    return out


def deck_lines(claim: DeckClaim) -> list[str]:
    """The summary of `kitgen verify NAME --hand A..B`: one line per hand size, then the claim."""
    out = [f"{claim['protocol']} on the whole deck, {claim['table']}".rstrip(":")]
    for row in claim["hands"]:
        verdict = "VERIFIED" if row["verified"] else "NOT VERIFIED: failed " + ", ".join(row["failed"])
        out.append(
            f"  hand {row['hand']:>2}: {verdict}, {count_text(row['deals'])} deals through "
            f"{row['class_deals']} class deals, {row['seconds']:.1f} s"
        )
    n = claim["exact_hands_up_to"]
    out.append(f"Exact for hands up to {n}." if n else "Not exact for a hand of 1.")
    return out


def forecast_lines(f: Forecast) -> list[str]:
    """`kitgen verify --estimate` as text: the measured sizes, then the forecast."""
    out = [
        f"{f.protocol}: work forecast for {f.param}={f.target}, from exact verifications at "
        + ", ".join(f"{f.param}={m.value}" for m in f.measured)
    ]
    out.append(
        f"  {f.param:>4} {'states processed':>18} {'largest frontier':>17} {'allocations':>12} {'time':>13}"
    )
    for m in f.measured:
        memory = _mb(m.peak_bytes) if m.peak_bytes else "-"
        out.append(f"  {m.value:>4} {m.states:>18,} {m.frontier:>17,} {memory:>12} {m.seconds:>11.1f} s")
    seconds = _range(f"{f.seconds[0]:.0f}", f"{f.seconds[1]:.0f}") + " s"
    out.append(
        f"  {f.target:>4} {_span(f.states):>18} {_span(f.frontier):>17} "
        f"{_memory_span(f.memory_bytes):>12} {seconds:>13}  (forecast)"
    )
    out.append(
        f"Forecast for {f.param}={f.target}: {_span(f.states)} states, resident memory about "
        f"{_memory_span(f.resident_bytes)}, {seconds} in one process on this machine."
    )
    out.append(
        "  allocations: Python's own at their peak (traced); resident memory: 1.2 times that plus "
        "30 MB, as measured on the lottery. --workers N divides the time by at most N; each process "
        "keeps only its share of the inputs but most of the table states (the lottery at m=7: "
        "381 MB in one process, 231 MB in each of two)."
    )
    return out


def _span(pair: tuple[int, int]) -> str:
    def short(n: int) -> str:
        return f"{n / 1e6:.1f}M" if n >= 1e6 else f"{n / 1e3:.0f}k" if n >= 1e4 else f"{n:,}"

    return _range(short(pair[0]), short(pair[1]))


def _range(low: str, high: str) -> str:
    return low if low == high else f"{low}-{high}"


def _mb(n: int) -> str:
    return f"{n / 2**30:.1f} GB" if n >= 2**30 else f"{n / 2**20:.0f} MB"


def _memory_span(pair: tuple[int, int]) -> str:
    if pair[1] >= 2**30:
        return _range(f"{pair[0] / 2**30:.1f}", f"{pair[1] / 2**30:.1f}") + " GB"
    return _range(f"{pair[0] / 2**20:.0f}", f"{pair[1] / 2**20:.0f}") + " MB"


def simulation_lines(proto: Protocol, result: Simulation, show_hidden: bool) -> Iterator[str | None]:
    """A run as `kitgen simulate` prints it, step by step; ``None`` marks the end of a step
    (where --pause waits)."""
    tr = result.trace
    shown = ", ".join(f"{k}={_plain(v)}" for k, v in tr.inputs.items())
    yield f"{proto.title}  [{proto.name}]"
    if tr.params:
        yield "parameters: " + ", ".join(f"{k}={v}" for k, v in tr.params.items())
    yield f"inputs: {shown}   seed: {tr.seed if tr.seed is not None else 0}"
    for first, block in step_blocks(tr.events):
        indent = "  " * first.depth
        where = f" [{' > '.join(first.call_path)}]" if first.call_path else ""
        loop = "".join(f" ({k}={v})" for k, v in first.loop.items())
        yield ""
        yield f"{indent}Step {first.step or '-'}{loop}{where}. {first.say}"
        for e in block:
            note = describe_event(e)
            if note:
                yield f"{indent}  - {note}"
        yield from table_lines(block[-1].after, show_hidden, indent + "    ", block[0].before)
        yield None
    yield ""
    yield "Outputs:"
    for k, v in tr.outputs.items():
        out = proto.outputs[k]
        where = "public" if out.public else "face down"
        yield f"  {k} = {v}  ({where}{': ' + out.doc if out.doc else ''})"


def _plain(v: object) -> str:
    if isinstance(v, list):
        return ",".join(_plain(x) for x in v)
    return str(v)
