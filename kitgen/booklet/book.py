"""What a booklet says, as data: :class:`Booklet`, made from a protocol's spec."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from reference_engine.api import (
    VERSION,
    GameRules,
    Library,
    Params,
    Protocol,
    ReportSummary,
    Reveal,
    symbol,
)

from ..core.verification import WholeDeckClaim
from ..cost.bom import Bom
from ..cost.kitcost import Costs, Footprint
from ..lang.overlay import spec_text
from ..paper.facenames import symbol_face
from ..paper.faces import Face
from .examples import spec_example
from .frontmatter import FrontSection
from .legend import CardLegend, card_legend, shown_cards
from .parts import R, Section, booklet_style
from .steps import sections
from .tableplan import TablePlan, spare_words, table_plan


@dataclass
class Booklet:
    name: str
    title: str
    subtitle: str
    kind: str  # what booklet.json calls it: "protocol", or the kit kind's word ("game", ...)
    sections: list[Section]
    validation: list[ReportSummary]
    statistical: ReportSummary | None = None
    rules: GameRules | None = None  # the game's rule set (any kind), for the kind's first chapters
    bom: Bom | None = None
    owners: list[str] = field(default_factory=list)
    players: int = 0
    virtual: int = 0
    faces: dict[str, Face] = field(default_factory=dict)  # symbol name -> printed face
    example: dict[str, object] = field(default_factory=dict)  # the game moment of the worked example
    # The game's own printed cards by name (None: not one of them), and the chapters before the
    # protocols, as the kit kind says them (None: a protocol booklet's "What you need").
    deck: Callable[[str], Face | None] | None = field(default=None, repr=False)
    front: list[FrontSection] | None = field(default=None, repr=False)
    # The game's places on the table besides its piles, for the picture of the whole table.
    table_middle: tuple[str, ...] = ()
    # A game kit: what its game costs at the table (:meth:`kitgen.kinds.KitKind.figures`).
    cost: Costs | None = None
    # The table space of the largest turn when the kit states no time figures (``cost`` None):
    # the whole-table picture still shows it, with its unit (sleeves or columns).
    footprint: Footprint | None = None
    unit: str = "columns"
    ink_saver: bool = False  # the kit's cards are drawn for a home printer (light backs)
    # A game kit built with --exact-hands: its claim on the whole deck (kitgen.core.verification's
    # whole_deck_claim), on the cover and the validation pages.
    whole_deck: WholeDeckClaim | None = None
    # Built without --exact-hands, though its protocol could take it: the pages say where it is.
    whole_deck_offered: bool = False
    # The library that loaded the booklet's protocols: a spec given by its file path is known
    # to it only, and the Validation says its figures with that spec's words for players
    # (None: the shipped library's, which knows every built-in spec).
    library: Library | None = field(default=None, repr=False, compare=False)

    def protocols(self) -> Library:
        """The library that knows every protocol of the booklet (see ``library``)."""
        if self.library is None:
            self.library = Library()
        return self.library

    @property
    def game_rules(self) -> GameRules:
        """The game's rule set (a game booklet's chapters; a protocol booklet has none)."""
        if self.rules is None:
            raise TypeError(f"booklet {self.name} is not a game's")
        return self.rules

    def rules_as(self, kind: type[R]) -> R:
        """The game's rule set, as the kind its kit kind reads (a game booklet's chapters)."""
        if not isinstance(self.rules, kind):
            raise TypeError(f"booklet {self.name}: its rules are not {kind.__name__}")
        return self.rules

    def example_sizes(self) -> list[int]:
        """The worked example's hand sizes (``sizes``, the virtual player's first)."""
        params = self.example.get("params")
        sizes = params.get("sizes") if isinstance(params, dict) else None
        return [n for n in sizes if isinstance(n, int)] if isinstance(sizes, (list, tuple)) else []

    def example_weights(self) -> dict[str, int]:
        """The worked example's public weights of a weighted virtual player (empty: none)."""
        weights = self.example.get("weights")
        if not isinstance(weights, dict):
            return {}
        return {str(k): v for k, v in weights.items() if isinstance(v, int)}

    def table_plan(self) -> TablePlan | None:
        """The table plan of a game booklet: its seats and owners,
        the kind's places in the middle (``table_middle``), the worked example's hands, the bill of
        materials' spares and envelopes, the kit's table space. None without virtual players or
        figures."""
        space = self.table_space()
        if space is None or self.bom is None or not (self.virtual or self.footprint):
            return None
        items = self.bom.items
        owner_cards: list[Face] = next((i.faces for i in items if i.key == "seat"), [])
        spares = [
            (spare_words(i.faces[0], i.label), i.faces[0])
            for i in items
            if i.kind == "card" and i.key not in ("deck", "seat") and i.faces
        ]
        sizes = self.example_sizes()
        piles = {p.lower() for p in self.owners[self.players :]}
        return table_plan(
            space[0],
            self.owners[: self.players],
            self.virtual,
            self.owners[self.players :],
            [m for m in self.table_middle if m.lower() not in piles],
            sizes[: self.virtual],
            spares,
            sum(i.count for i in items if i.kind == "envelope"),
            owner_cards,
            space[1],
        )

    def table_space(self) -> tuple[Footprint, str] | None:
        """The largest turn's table space and its unit: the kit's figures', else its own."""
        if self.cost is not None and self.cost.footprint is not None:
            return self.cost.footprint, self.cost.unit
        return None if self.footprint is None else (self.footprint, self.unit)

    def face(self, name: str) -> Face:
        f = self.faces.get(name)
        if f is None:
            sym = symbol(name)
            f = symbol_face(name, sym.glyph if sym else name, self.owners, self.deck)
            self.faces[name] = f
        return f

    def card_codes(self) -> CardLegend | None:
        """The legend of the card codes a game booklet's pictures and worked example print
        (:mod:`kitgen.booklet.legend`); None for a protocol booklet (its cards are the protocol's own)."""
        if self.front is None:
            return None
        inputs = self.example.get("inputs")
        cards = inputs.get("cards", []) if isinstance(inputs, dict) else []
        pictures = (d for sec in self.sections for step in sec.steps for d in step.diagrams)
        shown = [str(c) for c in cards] + shown_cards(pictures)  # the worked example's hand first
        words = {k[len("legend_") :]: v for k, v in booklet_style().words.items() if k.startswith("legend_")}
        return card_legend(self.rules, shown, self.face, self.owners, words)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "booklet": self.name,
            "title": self.title,
            "kind": self.kind,
            "engine": VERSION,
            "game_example": self.example,
            "sections": [s.to_json() for s in self.sections],
            "validation": self.validation,
            "statistical": self.statistical,
            "table_time": self.cost.to_json() if self.cost is not None else None,
        }
        if self.whole_deck is not None:
            out["whole_deck"] = self.whole_deck
        if self.front is not None:
            out["front"] = [chapter.to_json() for chapter in self.front]
        codes = self.card_codes()
        if codes is not None:
            out["card_codes"] = codes.to_json()
        plan = self.table_plan()
        if plan is not None:
            out["table_plan"] = plan.to_json()
        return out


def protocol_booklet(
    library: Library,
    proto: Protocol,
    validation: list[ReportSummary],
    capacity: int,
    name: str,
    reveals: dict[tuple[str, str], Reveal] | None = None,
    params: Params | None = None,
) -> Booklet:
    """A booklet teaching one protocol and what it calls (a teacher's six-card AND booklet)."""
    style = booklet_style()
    secs = sections(library, proto, spec_example(proto, library, params), capacity, style, reveals)
    title, subtitle = spec_text(proto.title), spec_text(proto.summary)
    if len(secs) > 1:
        subtitle += " With the protocols it uses: " + ", ".join(s.title for s in secs[1:]) + "."
    owners = list(proto.booklet.owners)
    return Booklet(name, title, subtitle, "protocol", secs, validation, owners=owners, library=library)
