"""The kit of a card (or tile) game whose virtual players run the card selection protocol.

:class:`TableKit` is what the layout (Sevens), trick (Hearts) and tile (Dominoes) kinds share:
the kit's shape from the options, the materials of the card selection table (see
:mod:`kitgen.kinds.virtual`), the labels, a statistical check on the full deck, a worked
example taken from a real moment of a seeded game, and the booklet's first chapters (the kit,
setting up the table, the rules, a virtual player's turn) with texts from the rule set's
``booklet:`` (``how_to_play``, ``setup_steps``, ``virtual_steps``). A kind subclasses it and
says what is particular: its engine kind, its deck's faces, its piles, the moment's words.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar

from reportlab.platypus import Flowable, PageBreak, Spacer

from reference_engine.api import (
    GameKind,
    GameRules,
    Library,
    Moment,
    PlayResult,
    PlaySettings,
    Report,
    Symbol,
    TableResult,
    UsageError,
    expected_counts,
    find_kind,
)

from ..bom import Bom, seat_names
from ..booklet import Booklet, Example, booklet_style, sections
from ..faces import Face
from ..kitcost import plan_cost, sleeved
from ..labels import Label
from ..output import safe_name
from ..templates import Templates
from ..typesetting import CardPicture
from ..units import mm
from ..verification import summary, verify_statistically
from .kind import CARD_KIT_OPTIONS, BookletInput, BookletPlan, KitKind, KitPlan, default_labels
from .virtual import Table, deck_face, kit_labels, virtual_bom, whose_owner_cards

if TYPE_CHECKING:
    from ..cache import VerificationCache
    from ..kitoptions import BookletOptions, KitOptions
    from ..typesetting import Writer


class TableKit(KitKind):
    """A kit for a game with virtual players: subclasses set ``kind`` and the hooks below."""

    statistical_check = True
    default_card_size: ClassVar[str] = "poker"
    piles: ClassVar[tuple[str, ...]] = ()  # the owners after the seats (the boneyard, ...)
    build_options = CARD_KIT_OPTIONS - {"--wild4", "--discard-owner"}

    def refusal(self, option: str) -> str:
        if option == "--discard-owner":
            return "it has no discard pile to treat as an owner"
        if option == "--wild4":
            return "it has no wild draw four (that option is for uno-official)"
        return super().refusal(option)

    # -- what a kind says -------------------------------------------------------------------
    def deck_faces(self, rules: GameRules) -> list[Face]:
        """Every printed game card (or tile), in the order of the sheets: a deck's cards by default."""
        cards = _cards(rules)
        return [deck_face(rules, ct.name) for ct in cards.values() for _ in range(ct.copies)]

    def deck_face(self, rules: GameRules, name: str) -> Face | None:
        """The printed face of one game card, by name (None: not a game card)."""
        return deck_face(rules, name) if name in _cards(rules) else None

    @abstractmethod
    def moment_text(self, rules: GameRules, moment: Moment, owners: list[str]) -> str:
        """The worked example's sentence: whose turn, and the public state of the game."""

    def moment_record(self, moment: Moment) -> dict[str, Any]:
        """The public state of the example moment, as booklet.json records it."""
        return {k: _plain(v) for k, v in moment.public.items()}

    def engine(self) -> GameKind:
        return find_kind(self.kind)

    # -- the kit --------------------------------------------------------------------------
    def plan(self, opts: KitOptions, rules: GameRules, templates: Templates) -> KitPlan:
        lo, hi, default = _players(rules)
        players = default if opts.players is None else opts.players
        if not lo <= players <= hi:
            raise UsageError(f"{rules.name} is played by {lo} to {hi} players, not {players}")
        if not 0 <= opts.virtual <= players:
            raise UsageError(f"--virtual must be between 0 and {players}, got {opts.virtual}")
        if opts.deck not in ("print", "store"):
            raise UsageError(f"--deck is print or store, not {opts.deck!r}")
        if opts.discard_owner:
            raise UsageError(f"{rules.name} has no discard pile to treat as an owner (--discard-owner)")
        default_size = str(rules.kit.get("card_size", self.default_card_size))
        card = templates.card_size(opts.card_size or default_size)
        parts = [rules.name, f"{players}p{opts.virtual}v", opts.paper]
        if card.key != default_size:
            parts.append(card.key)
        if opts.duplex != "long":
            parts.append(opts.duplex)
        if opts.profile != "home":
            parts.append(opts.profile)
        if opts.deck != "print":
            parts.append("store-deck")
        return KitPlan(
            game=rules.name,
            name=safe_name("-".join(parts)),
            players=players,
            virtual=opts.virtual,
            protocol=opts.protocol or rules.protocol,
            card=card,
            label_sheet=opts.labels or default_labels(opts.paper),
            teaches=opts.virtual > 0,
            extra={"deck": opts.deck},
        )

    def booklet_plan(self, opts: BookletOptions, rules: GameRules) -> BookletPlan:
        lo, hi, default = _players(rules)
        players = default if opts.players is None else opts.players
        if not lo <= players <= hi:
            raise UsageError(f"{rules.name} is played by {lo} to {hi} players, not {players}")
        if not 1 <= opts.virtual <= players:
            raise UsageError(f"a booklet teaches virtual players: --virtual must be 1 to {players}")
        name = safe_name(f"{rules.name}-{players}p{opts.virtual}v-booklet-{opts.paper}")
        return BookletPlan(name, opts.protocol or rules.protocol, players, opts.virtual)

    def materials(self, library: Library, rules: GameRules, plan: KitPlan, reports: list[Report]) -> Bom:
        wc: dict[str, Any] = {}
        if plan.virtual:
            wc = dict(self.engine().measure_tables(rules, library, PlaySettings(plan.players, plan.virtual)))
            wc["piles"] = [wc.get("draw_pile", 0)] if self.piles else []
        table = Table(
            title=rules.title,
            deck_name=str(rules.kit.get("deck_name", "our own printed deck")),
            deck_faces=self.deck_faces(rules),
            deck=str(plan.extra.get("deck", "print")),
            seats=seat_names(plan.players, plan.virtual),
            piles=list(self.piles),
            virtual=plan.virtual,
            card_mm=plan.card_mm,
            worst_case=wc,
            sleeved=sleeved(library.protocol(plan.protocol)),
        )
        bom = virtual_bom(table)
        bom.worst_case.pop("piles", None)
        return bom

    def labels(self, rules: GameRules, bom: Bom) -> list[Label]:
        return kit_labels(bom)

    def statistical(
        self, library: Library, plan: KitPlan, runs: int, what: str, cache: VerificationCache | None
    ) -> dict[str, Any] | None:
        return summary(verify_statistically(library, plan.protocol, runs, 1, what, cache, plan.game))

    # -- the booklet ----------------------------------------------------------------------
    def example(self, rules: GameRules, library: Library, plan: KitPlan, owners: list[str]) -> Example:
        moment = self.engine().example_moment(rules, library, PlaySettings(plan.players, plan.virtual))
        table = moment.owners
        sizes = tuple(len(t) for t in table)
        cards: list[Symbol] = [c for t in table for c in t]
        record = {
            "game": rules.name,
            "game_seed": moment.seed,
            "players": plan.players,
            "virtual": plan.virtual,
            **self.moment_record(moment),
            "params": {"sizes": list(sizes)},
            "inputs": {"cards": [c.name for c in cards]},
            "seed": 1,
        }
        text = self.moment_text(rules, moment, owners)
        return Example({"sizes": sizes}, {"cards": cards}, 1, record, text, context={"valid": moment.valid})

    def booklet(self, given: BookletInput) -> Booklet:
        rules, plan, bom, library = given.rules, given.plan, given.bom, given.library
        example = self.example(rules, library, plan, bom.seats)
        booklet = Booklet(
            given.name,
            rules.title,
            f"A kit for {plan.players} players, {plan.virtual} of them virtual: everything to print, set up "
            "and play, and every protocol step by step.",
            "game",
            [],
            given.validation,
            given.statistical,
            rules,
            bom,
            bom.seats,
            plan.players,
            plan.virtual,
            example=example.record,
            deck=lambda n: self.deck_face(rules, n),
            front=self,
        )
        booklet.sections = sections(
            library,
            library.protocol(plan.protocol),
            example,
            given.capacity,
            booklet_style(),
            given.reveals,
            people=plan.people,
            owners=bom.seats,
        )
        booklet.cost = plan_cost(library, rules, plan)
        return booklet

    def front_matter(self, w: Writer, booklet: Booklet) -> list[Flowable]:
        return (
            w.kit_contents()
            + self.setup(w, booklet)
            + self.rules_page(w, booklet)
            + w.table_layout()
            + self.turn_page(w, booklet)
            + w.first_turn_checklist()
        )

    def texts(self, rules: GameRules, key: str) -> list[str]:
        """The rule set's ``booklet: {key: [...]}`` paragraphs."""
        return [str(x) for x in getattr(rules, "booklet_texts", {}).get(key, [])]

    def setup(self, w: Writer, b: Booklet) -> list[Flowable]:
        out: list[Flowable] = [PageBreak(), w.heading("Setting up the table")]
        values = {"players": b.players, "humans": b.players - b.virtual, "virtual": b.virtual}
        out.append(w.para(w.st.words["setup_intro"].format(**values)))
        rows: list[list[Any]] = [["θ card", "Owner", "Where"]]
        for i, owner in enumerate(b.owners, 1):
            where = (
                "a place at the table with nobody in it; its hand lies face down in a row"
                if owner.startswith("Virtual")
                else "a player's place; they hold their hand as usual"
                if owner.startswith("Human")
                else "the middle of the table"
            )
            rows.append([CardPicture(b.face(f"theta{i}"), mm(9), b.ink_saver), f"θ{i}: {owner}", where])
        out.append(w.table(rows, [mm(14), mm(40), w.width - mm(54)]))
        out.append(Spacer(1, mm(2)))
        for n, text in enumerate(self.texts(b.rules, "setup_steps"), 1):
            out.append(w.para(f"{n}. {text}", spec=True))
        out.append(w.box([w.rich("Who does what.", w.st.words["shuffle_duty"])]))
        return out

    def rules_page(self, w: Writer, b: Booklet) -> list[Flowable]:
        rules = b.rules
        out: list[Flowable] = [PageBreak(), w.heading(f"The rules: {rules.title}")]
        if rules.source.get("cite"):
            out.append(w.para(f"Source: {rules.source['cite']}.", w.small))
        out.append(w.para(rules.summary))
        for text in getattr(rules, "how_to_play", []):
            out.append(w.para(text))
        doc = str(getattr(rules, "doc", ""))
        if doc:
            out.append(w.rich("Playing a card.", doc))
        if getattr(rules, "notes", ""):
            out.append(w.para(str(rules.notes)))
        return out

    def turn_page(self, w: Writer, b: Booklet) -> list[Flowable]:
        top = b.sections[0]
        out: list[Flowable] = [PageBreak(), w.heading("A virtual player's turn")]
        if top.overview:
            out.append(w.para(top.overview, spec=True))
        whose = whose_owner_cards(b.owners, b.virtual)
        for n, text in enumerate(self.texts(b.rules, "virtual_steps"), 1):
            out.append(w.para(f"{n}. {text.replace('{whose}', whose)}", spec=True))
        box = [w.rich("What a virtual turn costs.", self.turn_cost(b))]
        box += [w.para(line, w.small) for line in (b.cost.sentences() if b.cost else [])]
        out.append(w.box(box))
        return out

    def turn_cost(self, b: Booklet) -> str:
        """The table's work for the worked example's turn: cards laid out, shuffles."""
        sizes = [int(n) for n in b.example["params"]["sizes"]]
        k, k1 = sum(sizes), sizes[0]
        library = Library()
        counts = expected_counts(library, library.protocol(b.sections[0].protocol), {"sizes": tuple(sizes)})
        return (
            f"In the worked example {k} cards are in play, {k1} of them the virtual player's. One run "
            f"takes {counts.get('shuffles', '?')} shuffles (two of all the cards in play, the others in "
            f"the lottery), with {counts.get('helper_cards', '?')} owner and bit cards."
        )

    def play_lines(self, result: PlayResult, rules: GameRules) -> list[str]:
        assert isinstance(result, TableResult), "a table game's result"
        names = seat_names(result.players, result.virtual)
        level = (
            "card level (every virtual decision runs the protocol)"
            if result.level == "card"
            else "rule level"
        )
        lines = [f"{rules.title}: {result.players} players ({', '.join(names)}), {level}, seed {result.seed}"]
        lines += self.log_lines(result, names)
        lines.append("")
        if result.scores is not None:
            lines.append("Scores: " + ", ".join(f"{n} {s}" for n, s in zip(names, result.scores)))
        lines.append(
            f"Winner: {result.winner_name}. Turns: {result.turns}, virtual turns: {result.virtual_turns}."
        )
        if result.level == "card":
            work = result.work
            lines.append(
                f"Protocol runs: {work.protocol_runs}, checks passed: {work.checks_passed}, "
                f"shuffles: {work.shuffles}, most helper cards at once: {work.max_helper_cards}."
            )
        return lines

    def log_lines(self, result: TableResult, names: list[str]) -> list[str]:
        """The game's log, one line per turn."""
        out = [""]
        rounds = result.rounds_log()
        for i, log in enumerate(rounds, 1):
            if len(rounds) > 1:
                out.append(f"Round {i}")
            for t in log:
                who = names[t["seat"] - 1] if t["seat"] else "Table"
                text = t["action"] + (
                    f" {t.get('card') or t.get('tile')}" if t.get("card") or t.get("tile") else ""
                )
                if t.get("drew"):
                    text += f" (drew {t['drew']})"
                if t.get("scored"):
                    text += f", scores {t['scored']}"
                if t.get("runs"):
                    text += f"   [protocol runs: {t['runs']}, checks passed]"
                if t.get("note"):
                    text += f"   ({t['note']})"
                out.append(f"  {t['index']:>3}. {who}: {text}")
        return out


def _players(rules: GameRules) -> tuple[int, int, int]:
    players = getattr(rules, "players", (2, 10, 4))
    return int(players[0]), int(players[1]), int(players[2])


def _plain(v: Any) -> Any:
    if isinstance(v, Symbol):
        return v.name
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


def _cards(rules: GameRules) -> dict[str, Any]:
    cards = getattr(rules, "cards", None)
    if not isinstance(cards, dict):
        raise UsageError(f"{rules.name} has no deck of cards to print")
    return cards
