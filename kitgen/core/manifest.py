"""What ``manifest.json`` says about a kit or a booklet, as typed objects.

Three shapes, built in one place each and written by :meth:`to_json` (the only place that knows
the keys' order, so the file stays byte-identical): a card kit (:class:`KitManifest`: a game's
kit or a protocol kit for a class), a kit of a kind's own shape (:class:`OwnKitManifest`: the
puzzle kit) and a booklet alone (:class:`BookletManifest`). :func:`from_json` reads any of them
back from a manifest's data. The parts a reader looks into are :class:`TypedDict`\\ s; the parts
no reader here looks into (a kind's own entries, the verification summaries) stay JSON objects.

A manifest in memory also knows its engine kind (:attr:`KitManifest.kind`), so what
``kitgen build`` prints finds the kind's kit without reading the rule set again; the file does
not record it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict, cast

from reference_engine.api import ReportSummary

from ..lang.catalogue import SOURCE, language

if TYPE_CHECKING:
    from .verification import WholeDeckClaim

# A JSON object this module does not look into.
JsonObject = dict[str, object]


class CardFacts(TypedDict):
    name: str
    width_mm: float
    height_mm: float


class ProfileFacts(TypedDict):
    name: str
    bleed_mm: float
    safe_mm: float
    margin_mm: float
    shared_cuts: bool


class GameFacts(TypedDict):
    name: str
    title: str
    source: dict[str, str]


class ProtocolFacts(TypedDict):
    name: str
    title: str
    source: dict[str, str]
    params: JsonObject
    sets: int


class BomItem(TypedDict):
    key: str
    name: str
    kind: str
    count: int
    needed: int
    spares: int
    why: str


class BomFacts(TypedDict):
    items: list[BomItem]
    notes: list[str]
    owners: list[str]
    worst_case: JsonObject
    shuffle_holders: list[JsonObject]
    printed_cards: int


class CardSheets(TypedDict):
    pages: int
    sheets: int
    per_sheet: int
    columns: int
    rows: int
    rotated: bool
    calibration_pages: int
    front_pages: list[int]
    back_pages: list[int]


class LabelSheets(TypedDict):
    pages: int
    labels: int
    sheet: str
    start: int


class Sheets(TypedDict):
    cards: CardSheets
    labels: LabelSheets


class BookletFacts(TypedDict):
    pages: int
    paper: str


class HandoutFacts(TypedDict):
    file: str
    pages: int


class CardPages(TypedDict):
    key: str
    name: str
    count: int
    fronts: list[int]
    backs: list[int]


class OnlyFacts(TypedDict):
    types: list[str]
    pages: list[int]
    note: str


class CardsPng(TypedDict):
    folders: list[str]
    dpi: int
    bleed_mm: float
    fronts: int
    backs: int
    cards: int
    pixels: dict[str, list[int]]


class TtsFacts(TypedDict):
    folder: str
    sheets: int


class ExportFacts(TypedDict):
    cards_png: CardsPng
    tts: TtsFacts


class FileEntry(TypedDict):
    path: str
    sha256: str
    bytes: int


@dataclass(frozen=True)
class KitHead:
    """A card kit's first entries, decided by who builds it (a game's kit or a protocol kit)."""

    kit: str
    kitgen: str
    options: JsonObject
    game: GameFacts | None = None
    protocol: ProtocolFacts | None = None
    kind: str | None = None  # the engine kind of its game (in memory only)


def _files(data: dict[str, Any]) -> list[FileEntry]:
    return cast(list[FileEntry], data.get("files", []))


@dataclass
class KitManifest:
    """A card kit: a game's kit, or a protocol kit for a class (``protocol`` instead of ``game``)."""

    kit: str
    kitgen: str
    options: JsonObject
    game: GameFacts | None
    protocol: ProtocolFacts | None
    paper: str
    card: CardFacts
    profile: ProfileFacts
    bom: BomFacts
    sheets: Sheets
    extra: JsonObject  # a kind's own sheets (Gakmoro's bundles), by key
    booklet: BookletFacts | None
    verification: list[ReportSummary]
    statistical_verification: ReportSummary | None
    handout: HandoutFacts | None = None
    export: ExportFacts | None = None
    whole_deck_verification: WholeDeckClaim | None = None
    only: OnlyFacts | None = None  # --only: a reprint of some card types
    card_pages: list[CardPages] | None = None
    printing_guide: str | None = None
    shopping_list: str | None = None
    table_time: JsonObject | None = None
    warnings: list[str] | None = None  # what the kit asks that nobody should print untold
    files: list[FileEntry] = field(default_factory=list)
    folder: str | None = None  # where it was written (not in the file)
    kind: str | None = None  # the engine kind of its game (in memory only)

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {"kit": self.kit, "kitgen": self.kitgen, "options": self.options}
        if self.game is not None:
            data["game"] = self.game
        if self.protocol is not None:
            data["protocol"] = self.protocol
        data |= {
            "paper": self.paper,
            "card": self.card,
            "profile": self.profile,
            "bom": self.bom,
            "sheets": self.sheets,
            **self.extra,
            "booklet": self.booklet,
            "verification": self.verification,
            "statistical_verification": self.statistical_verification,
        }
        optional = (
            ("handout", self.handout),
            ("export", self.export),
            ("whole_deck_verification", self.whole_deck_verification),
            ("only", self.only),
            ("card_pages", self.card_pages),
            ("printing_guide", self.printing_guide),
            ("shopping_list", self.shopping_list),
            ("table_time", self.table_time),
            ("warnings", self.warnings or None),
        )
        data |= {key: value for key, value in optional if value is not None}
        return _tail(data, self.files, self.folder)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> KitManifest:
        extra = {k: v for k, v in data.items() if k not in _KIT_KEYS}
        return cls(
            data["kit"],
            data["kitgen"],
            data["options"],
            data.get("game"),
            data.get("protocol"),
            data["paper"],
            data["card"],
            data["profile"],
            data["bom"],
            data["sheets"],
            extra,
            data["booklet"],
            data["verification"],
            data["statistical_verification"],
            data.get("handout"),
            data.get("export"),
            data.get("whole_deck_verification"),
            data.get("only"),
            data.get("card_pages"),
            data.get("printing_guide"),
            data.get("shopping_list"),
            data.get("table_time"),
            data.get("warnings"),
            _files(data),
            data.get("folder"),
        )


_KIT_KEYS = frozenset(f for f in KitManifest.__dataclass_fields__ if f not in ("extra", "kind"))


@dataclass
class OwnKitManifest:
    """A kit of its kind's own shape (the puzzle kit): the kind's entries after the common head."""

    kit: str
    kitgen: str
    game: GameFacts
    paper: str
    entries: JsonObject  # ``options`` among them
    files: list[FileEntry] = field(default_factory=list)
    folder: str | None = None
    kind: str | None = None

    def to_json(self) -> dict[str, object]:
        head = {"kit": self.kit, "kitgen": self.kitgen, "game": self.game, "paper": self.paper}
        return _tail({**head, **self.entries}, self.files, self.folder)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> OwnKitManifest:
        head = ("kit", "kitgen", "game", "paper", "files", "folder")
        entries = {k: v for k, v in data.items() if k not in head}
        return cls(
            data["kit"],
            data["kitgen"],
            data["game"],
            data["paper"],
            entries,
            _files(data),
            data.get("folder"),
        )


@dataclass
class BookletManifest:
    """A booklet written alone (``kitgen booklet``)."""

    booklet: str
    kitgen: str
    options: JsonObject
    pages: int
    printed_sides: int
    imposition: str
    paper: str
    verification: list[ReportSummary]
    files: list[FileEntry] = field(default_factory=list)
    folder: str | None = None

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "booklet": self.booklet,
            "kitgen": self.kitgen,
            "options": self.options,
            "pages": self.pages,
            "printed_sides": self.printed_sides,
            "imposition": self.imposition,
            "paper": self.paper,
            "verification": self.verification,
        }
        return _tail(data, self.files, self.folder)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BookletManifest:
        return cls(
            data["booklet"],
            data["kitgen"],
            data["options"],
            data["pages"],
            data["printed_sides"],
            data["imposition"],
            data["paper"],
            data["verification"],
            _files(data),
            data.get("folder"),
        )


Manifest = KitManifest | OwnKitManifest | BookletManifest


def _tail(data: dict[str, object], files: list[FileEntry], folder: str | None) -> dict[str, object]:
    """The language (when not English), the file list last, and where the kit went (in memory
    only: the file never says)."""
    if language() != SOURCE:
        data["language"] = language()
    data["files"] = files
    if folder is not None:
        data["folder"] = folder
    return data


def from_json(data: dict[str, Any]) -> Manifest:
    """A manifest's data read back: a booklet's, a card kit's (it has a bill of materials) or a
    kit of its kind's own shape."""
    if "booklet" in data and "kit" not in data:
        return BookletManifest.from_json(data)
    if "bom" in data:
        return KitManifest.from_json(data)
    return OwnKitManifest.from_json(data)


def table_time_text(manifest: Manifest) -> list[str]:
    """What a game kit's virtual players cost at the table, in sentences (none for other kits)."""
    cost = manifest.table_time if isinstance(manifest, KitManifest) else None
    text = cost.get("text") if cost else None
    return [str(line) for line in text] if isinstance(text, list) else []
