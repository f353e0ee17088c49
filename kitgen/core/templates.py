"""Templates: page, card and label presets and sheet profiles, loaded from ``templates/``.

Everything here is data (``templates/layout.yaml``); a profile can ``extends:`` another.
Errors in the templates are reported like spec errors, with file, line and key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TypeVar

from reference_engine.api import Checker, Problem, SpecError, UsageError, load_file

from .units import Length, LengthError, Size

PROFILE_KEYS = (
    "extends",
    "doc",
    "margin",
    "bleed",
    "safe",
    "gutter",
    "corner",
    "crop_marks",
    "scale_bar",
    "shared_cuts",
)

T = TypeVar("T")


def templates_dir() -> Path:
    here = Path(__file__).resolve().parents[1]
    for candidate in (here.parent / "templates", here / "_data" / "templates"):
        if candidate.is_dir():
            return candidate
    raise UsageError("cannot find the templates folder; reinstall kitgen")


@dataclass(frozen=True)
class Paper:
    key: str
    name: str
    size: Size
    labels: str = "cutout-a4"  # the label sheet a kit on this paper uses unless told (--labels)


@dataclass(frozen=True)
class CardSize:
    key: str
    name: str
    size: Size


@dataclass(frozen=True)
class Profile:
    key: str
    doc: str
    margin: Length
    bleed: Length
    safe: Length
    gutter: Length
    corner: Length
    mark_length: Length
    mark_offset: Length
    mark_width: Length
    scale_bar: Length
    # Neighbouring cards share their cut lines (no bleed between cards, bleed only around the
    # block): one cut per line. Needs a gutter of 0.
    shared_cuts: bool = False


@dataclass(frozen=True)
class LabelSheet:
    key: str
    name: str
    paper: str
    label: Size
    columns: int
    rows: int
    left: Length
    top: Length
    pitch: Size
    radius: Length
    cutout: bool
    product: str = ""  # what a shop sells (the shopping list's words)

    @property
    def per_sheet(self) -> int:
        return self.columns * self.rows

    @property
    def stock(self) -> str:
        """What the shopping list asks for: the product, or plain paper for a cut-out sheet."""
        return self.product or self.name


@dataclass(frozen=True)
class Templates:
    papers: dict[str, Paper]
    cards: dict[str, CardSize]
    profiles: dict[str, Profile]
    labels: dict[str, LabelSheet]
    min_card: Size | None = None  # the smallest card the faces fit on, either way round

    def paper(self, key: str) -> Paper:
        return _pick(self.papers, key.lower(), "paper")

    def card_size(self, text: str) -> CardSize:
        """A preset name (``uno``) or a custom size (``60x90mm``)."""
        if text in self.cards:
            return self.cards[text]
        try:
            size = Size.parse(text)
        except LengthError:
            raise UsageError(
                f"unknown card size {text!r}: use a preset ({', '.join(self.cards)}) or WxH like 60x90mm"
            ) from None
        if size.w <= 0 or size.h <= 0:
            raise UsageError(f"card size {text!r} must be positive")
        low = self.min_card
        if low is not None:
            short, long = sorted((size.w, size.h))
            if short < min(low.w, low.h) - 0.01 or long < max(low.w, low.h) - 0.01:
                raise UsageError(
                    f"card size {text!r} is too small for the card faces: the smallest is {low} "
                    "(either way round)"
                )
        return CardSize("custom", f"Custom ({size})", size)

    def profile(self, key: str) -> Profile:
        return _pick(self.profiles, key, "profile")

    def label_sheet(self, key: str) -> LabelSheet:
        return _pick(self.labels, key, "label sheet")


def _pick(table: dict[str, T], key: str, what: str) -> T:
    try:
        return table[key]
    except KeyError:
        raise UsageError(f"unknown {what} {key!r} (choose from: {', '.join(table)})") from None


@lru_cache(maxsize=4)
def load_templates(path: str | None = None) -> Templates:
    src = load_file(Path(path) if path else templates_dir() / "layout.yaml")
    ck = Checker(src)
    doc = (
        ck.mapping(src.data, (), required=("papers", "cards", "profiles", "labels"), optional=("min_card",))
        or {}
    )

    def length(value: object, where: tuple[str | int, ...]) -> Length:
        try:
            return Length.parse(value)
        except LengthError as exc:
            ck.error(where, exc.format_message())
            return Length(0.0)

    def size(value: object, where: tuple[str | int, ...]) -> Size:
        try:
            return Size.parse(str(value))
        except LengthError as exc:
            ck.error(where, exc.format_message())
            return Size(Length(1.0), Length(1.0))

    papers = {}
    for k, v in ck.table(doc.get("papers", {}), ("papers",)).items():
        spec = ck.mapping(v, ("papers", k), required=("size",), optional=("name", "labels")) or {}
        papers[str(k)] = Paper(
            str(k),
            str(spec.get("name", k)),
            size(spec.get("size"), ("papers", k, "size")),
            str(spec.get("labels", "cutout-a4")),
        )
    cards = {}
    for k, v in ck.table(doc.get("cards", {}), ("cards",)).items():
        spec = ck.mapping(v, ("cards", k), required=("size",), optional=("name",)) or {}
        cards[str(k)] = CardSize(
            str(k), str(spec.get("name", k)), size(spec.get("size"), ("cards", k, "size"))
        )
    raw_profiles = ck.table(doc.get("profiles", {}), ("profiles",))
    profiles = {}
    for k in raw_profiles:
        merged = _resolve(ck, raw_profiles, str(k), [])
        p = ("profiles", str(k))
        marks = (
            ck.mapping(
                merged.get("crop_marks", {}), p + ("crop_marks",), required=("length", "offset", "width")
            )
            or {}
        )
        margin, bleed, safe, gutter, corner = (
            length(merged.get(f, "0mm"), p + (f,)) for f in ("margin", "bleed", "safe", "gutter", "corner")
        )
        profiles[str(k)] = Profile(
            str(k),
            str(merged.get("doc", "")),
            margin,
            bleed,
            safe,
            gutter,
            corner,
            length(marks.get("length", "4mm"), p + ("crop_marks", "length")),
            length(marks.get("offset", "1mm"), p + ("crop_marks", "offset")),
            length(marks.get("width", "0.25pt"), p + ("crop_marks", "width")),
            length(merged.get("scale_bar", "100mm"), p + ("scale_bar",)),
            _shared(ck, merged.get("shared_cuts", False), gutter, p),
        )
    labels = {}
    for k, v in ck.table(doc.get("labels", {}), ("labels",)).items():
        p = ("labels", str(k))
        spec = (
            ck.mapping(
                v,
                p,
                required=("paper", "label", "columns", "rows", "left", "top", "pitch"),
                optional=("radius", "name", "cutout", "product"),
            )
            or {}
        )
        if spec.get("paper") not in papers:
            ck.error(p + ("paper",), f"unknown paper {spec.get('paper')!r}")
            continue
        labels[str(k)] = LabelSheet(
            str(k),
            str(spec.get("name", k)),
            str(spec["paper"]),
            size(spec.get("label"), p + ("label",)),
            ck.integer(spec.get("columns"), p + ("columns",), 1) or 1,
            ck.integer(spec.get("rows"), p + ("rows",), 1) or 1,
            length(spec.get("left"), p + ("left",)),
            length(spec.get("top"), p + ("top",)),
            size(spec.get("pitch"), p + ("pitch",)),
            length(spec.get("radius", "0mm"), p + ("radius",)),
            bool(spec.get("cutout", False)),
            str(spec.get("product", "")),
        )
    min_card = size(doc["min_card"], ("min_card",)) if "min_card" in doc else None
    for key, paper in papers.items():
        if paper.labels not in labels:
            ck.error(
                ("papers", key, "labels"),
                f"unknown label sheet {paper.labels!r} (choose from: {', '.join(labels)})",
            )
    if ck.problems:
        raise SpecError(ck.problems)
    return Templates(papers, cards, profiles, labels, min_card)


def _shared(ck: Checker, value: object, gutter: Length, path: tuple[str, ...]) -> bool:
    if not isinstance(value, bool):
        ck.error(path + ("shared_cuts",), "true or false")
        return False
    if value and gutter.points > 0:
        ck.error(path + ("shared_cuts",), "cards can share cut lines only with a gutter of 0mm")
    return bool(value)


def _resolve(ck: Checker, raw: Mapping[str, object], key: str, seen: list[str]) -> dict[str, object]:
    """A profile with everything it ``extends`` filled in."""
    p = ("profiles", key)
    if key in seen:
        ck.error(p, f"profiles extend each other in a loop: {' -> '.join(seen + [key])}")
        return {}
    spec = ck.mapping(raw.get(key), p, optional=PROFILE_KEYS) or {}
    base: dict[str, object] = {}
    parent = spec.get("extends")
    if parent is not None:
        if parent not in raw:
            ck.error(p + ("extends",), f"unknown profile {parent!r}")
        else:
            base = _resolve(ck, raw, str(parent), seen + [key])
    merged = dict(base)
    merged.update({k: v for k, v in spec.items() if k != "extends"})
    return merged


__all__ = ["CardSize", "LabelSheet", "Paper", "Problem", "Profile", "Templates", "load_templates"]
