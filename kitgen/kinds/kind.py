"""The kit half of a game-kind plug-in: what a kind must say (:class:`KitKind`), the shapes it
decides (:class:`KitPlan`, :class:`BookletPlan`), what its booklet is made from, and the
registry that finds a kind's kit by the engine kind's name (:func:`kit_kind`)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from reference_engine.api import (
    GameRules,
    Library,
    PlayResult,
    Report,
    ReportSummary,
    Reveal,
    Strategy,
    UsageError,
)

from ..core.manifest import JsonObject, KitManifest, OwnKitManifest
from ..core.optionspec import CARD_KIT, COMMON, KindValues, Option
from ..core.templates import CardSize, Paper, Templates, load_templates
from ..cost.bom import Bom
from ..paper.faces import Face
from ..paper.labels import Label

if TYPE_CHECKING:
    from ..booklet.book import Booklet
    from ..booklet.frontmatter import FrontSection
    from ..core.cache import VerificationCache
    from ..core.kitoptions import BookletOptions, KitOptions
    from ..cost.kitcost import Costs


# What a slow step tells the progress line: what it does, and how far it is.
Progress = Callable[[str, int], None]


def default_labels(paper: str) -> str:
    """The label sheet of a kit on ``paper`` unless --labels says otherwise (``templates/layout.yaml``)."""
    papers = load_templates().papers
    return papers[paper].labels if paper in papers else "cutout-a4"


# The options of `kitgen build` every kind takes, and those of a kit of cards, labels and booklet
# (declared in kitgen.core.optionspec; a kind adds its own or leaves some out with ``without``).
COMMON_OPTIONS = COMMON
CARD_KIT_OPTIONS = CARD_KIT


def check_people(players: int, virtual: int, operator: bool) -> None:
    """A kit needs at least one person at the table: ``virtual`` equal to ``players`` only with
    ``operator`` (one person who does not play runs every virtual turn), and ``operator`` only
    then (one line, exit 2)."""
    if virtual == players and not operator:
        raise UsageError(
            f"--virtual {virtual} equals --players {players}: a kit needs at least one person at the "
            "table; give --operator for one person who runs the table without playing"
        )
    if operator and virtual != players:
        raise UsageError(
            f"--operator is for a table of virtual players only (--virtual {virtual}, --players "
            f"{players}): the {players - virtual} people at the table run it"
        )


@dataclass
class KitPlan:
    """A kit's shape, decided from the options before anything slow runs."""

    name: str
    players: int
    virtual: int
    protocol: str
    card: CardSize
    label_sheet: str
    teaches: bool = True  # verify the protocol and write a booklet
    game: str = ""  # the rule set's name (a game protocol is verified on its deck)
    own: KindValues = field(default_factory=KindValues)  # the kind's own options, as the kit uses them
    strategy: Strategy | None = None  # the virtual players' strategy, when not the paper's

    @property
    def card_mm(self) -> tuple[float, float]:
        """A game card's width and height in millimetres."""
        return (self.card.size.width.mm, self.card.size.height.mm)

    @property
    def people(self) -> int:
        """Who does the table work: the players who are people (a virtual player does nothing)."""
        return max(1, self.players - self.virtual)


@dataclass
class BookletPlan:
    """A game booklet's shape, decided from the options (``kitgen booklet RULESET``)."""

    name: str
    protocol: str
    players: int = 0
    virtual: int = 0


@dataclass
class BookletInput:
    """What a kind's booklet is made from (the verification has run already)."""

    library: Library
    rules: GameRules
    plan: KitPlan
    bom: Bom
    validation: list[ReportSummary]
    statistical: ReportSummary | None
    capacity: int
    name: str
    reveals: dict[tuple[str, str], Reveal] | None


class KitKind(ABC):
    """The kit half of a game kind; subclasses register with :func:`register`."""

    kind: ClassVar[str]  # the engine kind's name
    default_card_size: ClassVar[str]
    statistical_check: ClassVar[bool] = False  # whether :meth:`statistical` has a check to run
    # The options of `kitgen build` that make sense for this kind; others given are refused.
    build_options: ClassVar[tuple[Option, ...]] = CARD_KIT_OPTIONS
    # Whether the kit is of its own shape (:meth:`write_own`) instead of cards, labels and booklet.
    own_kit: ClassVar[bool] = False
    # The game's places on the table besides its piles (the discard pile, the layout), for the
    # booklet's picture of the whole table (kitgen.booklet.tableplan).
    table_middle: ClassVar[tuple[str, ...]] = ()
    # What the game is, in a player's words, for refusing an option that does not apply to it.
    about: ClassVar[str] = "a card game with virtual players"

    def printing(
        self, opts: KitOptions, rules: GameRules, templates: Templates
    ) -> tuple[CardSize, list[str]]:
        """The kit's card size (``--card-size``, else the rule set's, else the kind's) and the parts
        of its name that say how it prints where that is not the default: card size, duplex, profile."""
        default_size = str(rules.kit.get("card_size", self.default_card_size))
        card = templates.card_size(opts.card_size or default_size)
        parts = [card.key] if card.key != default_size else []
        if opts.duplex != "long":
            parts.append(opts.duplex)
        if opts.profile != "home":
            parts.append(opts.profile)
        return card, parts

    def refusal(self, option: str) -> str:
        """Why ``option`` (by field name: ``virtual``) does not apply to a game of this kind (one
        clause, no internal words)."""
        return f"it is {self.about}"

    @abstractmethod
    def plan(self, opts: KitOptions, rules: GameRules, templates: Templates) -> KitPlan:
        """Check the options for this kind and decide the kit's name, seats and card size."""

    @abstractmethod
    def booklet_plan(self, opts: BookletOptions, rules: GameRules) -> BookletPlan:
        """Check the options of ``kitgen booklet`` for a rule set of this kind."""

    @abstractmethod
    def materials(self, library: Library, rules: GameRules, plan: KitPlan, reports: list[Report]) -> Bom:
        """The bill of materials (what to print and buy, with counts and reasons)."""

    @abstractmethod
    def labels(self, rules: GameRules, bom: Bom) -> list[Label]:
        """Every label of the kit's label sheet."""

    @abstractmethod
    def booklet(self, given: BookletInput) -> Booklet:
        """The booklet: every protocol step by step (its first chapters come from :meth:`front_sections`)."""

    @abstractmethod
    def front_sections(self, booklet: Booklet) -> list[FrontSection]:
        """The booklet's chapters before the protocols (the kit, set-up, rules, a turn), as data;
        asked once the booklet is complete (its protocols, its cost, every material it needs)."""

    @abstractmethod
    def play_lines(self, result: PlayResult, rules: GameRules) -> list[str]:
        """What ``kitgen play`` prints for a game of this kind."""

    def statistical(
        self, library: Library, plan: KitPlan, runs: int, what: str, cache: VerificationCache | None
    ) -> ReportSummary | None:
        """A statistical check on the full deck for the validation pages (kinds with one)."""
        return None

    def needed_options(self, rules: GameRules) -> dict[str, str | int | bool]:
        """The kind's own options ``kitgen build`` needs for these rules (``--wild4 bluff`` where
        a rule cannot be played unseen); the figures' default plan gives them."""
        return {}

    def figures(self, library: Library, rules: GameRules, plan: KitPlan) -> Costs | None:
        """What the kit's game costs at the table (minutes, table space), or None: the one
        source of every figure its booklet, index, manifest and ``kitgen list --times`` state."""
        return None

    def deck_face(self, rules: GameRules, name: str) -> Face | None:
        """The printed face of one of the game's own cards, by name (None: not one of them)."""
        return None

    def extra_sheets(
        self, work: Path, rules: GameRules, paper: Paper, name: str, bom: Bom
    ) -> tuple[list[str], JsonObject]:
        """Sheets beyond cards, labels and booklet: (PDF names without .pdf, manifest entries)."""
        return [], {}

    def file_lines(self, manifest: KitManifest) -> list[str]:
        """Lines about the extra sheets for ``kitgen build``'s summary."""
        return []

    def write_own(
        self, work: Path, opts: KitOptions, rules: GameRules, plan: KitPlan, paper: Paper, step: Progress
    ) -> tuple[list[str], list[str], JsonObject]:
        """A kit of its own shape (``own_kit``): write it into ``work``; return the PDFs (names
        without .pdf, for previews), the other files, and the manifest's entries (``options``
        among them: the options that shaped the kit)."""
        raise NotImplementedError

    def kit_lines(self, manifest: OwnKitManifest) -> list[str]:
        """What ``kitgen build`` prints for a kit of its own shape (``own_kit``)."""
        raise NotImplementedError


_KIT_KINDS: dict[str, KitKind] = {}


def register(kind: type[KitKind]) -> type[KitKind]:
    _KIT_KINDS[kind.kind] = kind()
    return kind


def kit_kind(of: GameRules | str) -> KitKind:
    """The kit half of a rule set's kind, or of an engine kind by name (a manifest's
    :attr:`~kitgen.manifest.KitManifest.kind`)."""
    kind, name = (of, of) if isinstance(of, str) else (of.kind, of.name)
    try:
        return _KIT_KINDS[kind]
    except KeyError:
        raise UsageError(f"kitgen cannot print a kit for {name} yet") from None
