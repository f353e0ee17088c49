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
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, ClassVar, Unpack

from reference_engine.api import (
    CardType,
    GameKind,
    GameRules,
    Library,
    Moment,
    PlayResult,
    PlaySettings,
    Report,
    ReportSummary,
    Strategy,
    Symbol,
    TableCounts,
    TableResult,
    UsageError,
    check_fallback,
    expected_counts,
    find_kind,
)

from ..booklet.book import Booklet
from ..booklet.examples import Example
from ..booklet.frontchapters import (
    first_turn_checklist,
    kit_contents,
    rules_head,
    setting_up,
    setup_values,
    table_layout,
    turn_head,
)
from ..booklet.frontmatter import Box, FrontSection, Text
from ..booklet.parts import booklet_style
from ..booklet.sparepiles import helper_words
from ..booklet.steps import sections
from ..core.figurecache import measured_tables
from ..core.optionspec import KindValues, without
from ..core.output import safe_name
from ..core.templates import CardSize, Templates
from ..core.verification import summary, verify_statistically
from ..core.words import seating
from ..cost.bom import Bom, seat_names
from ..cost.gametime import RunArguments
from ..cost.kitcost import GAMES, Footprint, KitCost, bit_cards, cards_per_column, plan_cost, sleeved
from ..lang.catalogue import _
from ..lang.overlay import deck_name, spec_text
from ..lang.seats import seat_name
from ..paper.faces import Face
from ..paper.labels import Label
from ..paper.pen import known_colours
from .kind import CARD_KIT_OPTIONS, BookletInput, BookletPlan, KitKind, KitPlan, check_people, default_labels
from .virtual import Table, TableParts, WithDeck, deck_face, kit_labels, virtual_bom, whose_owner_cards

if TYPE_CHECKING:
    from ..core.cache import VerificationCache
    from ..core.kitoptions import BookletOptions, KitOptions


class TableKit(KitKind):
    """A kit for a game with virtual players: subclasses set ``kind`` and the hooks below."""

    statistical_check = True
    default_card_size: ClassVar[str] = "poker"
    piles: ClassVar[tuple[str, ...]] = ()  # the owners after the seats (the boneyard, ...)
    # What the virtual player's protocol does, for the set-up's first paragraph, marked N_ (None: the card
    # selection protocol's words, templates/booklet.yaml's setup_turn).
    turn_words: ClassVar[str | None] = None
    # Whether each virtual decision's run is traced for the figures (:meth:`run_arguments`)
    # instead of costed by its table's size, and how many games the figures simulate.
    traced_runs: ClassVar[bool] = False
    figure_games: ClassVar[int] = GAMES
    build_options = without(CARD_KIT_OPTIONS, "wild4", "discard_owner")

    def refusal(self, option: str) -> str:
        if option == "discard_owner":
            return "it has no discard pile to treat as an owner"
        if option == "wild4":
            return "it has no wild draw four (that option is for uno-official)"
        return super().refusal(option)

    # -- what a kind says -------------------------------------------------------------------
    def deck_faces(self, rules: GameRules) -> list[Face]:
        """Every printed game card (or tile), in the order of the sheets: a deck's cards by default."""
        cards = _cards(rules)
        return [deck_face(_deck(rules), ct.name) for ct in cards.values() for _ in range(ct.copies)]

    def deck_face(self, rules: GameRules, name: str) -> Face | None:
        """The printed face of one game card, by name (None: not a game card)."""
        return deck_face(_deck(rules), name) if name in _cards(rules) else None

    @abstractmethod
    def moment_text(self, rules: GameRules, moment: Moment, owners: list[str]) -> str:
        """The worked example's sentence: whose turn, and the public state of the game."""

    def moment_record(self, moment: Moment) -> dict[str, object]:
        """The public state of the example moment, as booklet.json records it."""
        return {k: _plain(v) for k, v in moment.public.items()}

    def example_record(self, moment: Moment, plan: KitPlan) -> dict[str, object]:
        """What booklet.json records of the example moment besides its hands (its public state)."""
        return self.moment_record(moment)

    def play_settings(self, rules: GameRules, plan: KitPlan) -> PlaySettings:
        """The settings of the games the booklet's example and figures come from."""
        return PlaySettings(plan.players, plan.virtual)

    def engine(self) -> GameKind:
        return find_kind(self.kind)

    # -- the kit --------------------------------------------------------------------------
    def plan(self, opts: KitOptions, rules: GameRules, templates: Templates) -> KitPlan:
        players = seats(rules, opts.players)
        if not 0 <= opts.virtual <= players:
            raise UsageError(f"--virtual must be between 0 and {players}, got {opts.virtual}")
        check_people(players, opts.virtual, opts.own.switch("operator"))
        card, printing = self.printing(opts, rules, templates)
        parts = [rules.name, f"{players}p{opts.virtual}v", opts.paper, *printing]
        deck = opts.own.text("deck")
        if deck != "print":
            parts.append("store-deck")
        return self.table_plan(opts, rules, parts, players, card, own=KindValues.of(deck=deck))

    def table_plan(
        self,
        opts: KitOptions,
        rules: GameRules,
        parts: list[str],
        players: int,
        card: CardSize,
        *,
        own: KindValues,
        protocol: str | None = None,
        strategy: Strategy | None = None,
    ) -> KitPlan:
        """The plan of a kit for ``players`` (``opts.virtual`` of them virtual), named by ``parts``;
        ``protocol``: the virtual players' (default: ``--protocol``, else the rule set's)."""
        return KitPlan(
            game=rules.name,
            name=safe_name("-".join(parts)),
            players=players,
            virtual=opts.virtual,
            protocol=protocol or opts.protocol or rules.protocol,
            card=card,
            label_sheet=opts.labels or default_labels(opts.paper),
            teaches=opts.virtual > 0,
            own=own,
            strategy=strategy,
        )

    def booklet_plan(self, opts: BookletOptions, rules: GameRules) -> BookletPlan:
        players = seats(rules, opts.players)
        if not 1 <= opts.virtual <= players:
            raise UsageError(f"a booklet teaches virtual players: --virtual must be 1 to {players}")
        check_people(players, opts.virtual, opts.own.switch("operator"))
        name = safe_name(f"{rules.name}-{players}p{opts.virtual}v-booklet-{opts.paper}")
        return BookletPlan(name, opts.protocol or rules.protocol, players, opts.virtual)

    def materials(self, library: Library, rules: GameRules, plan: KitPlan, reports: list[Report]) -> Bom:
        wc = None
        proto = library.protocol(plan.protocol)
        if plan.virtual:
            # Refused as `kitgen play` refuses it, before any simulation (Hearts with
            # card-selection-arrow failed in the table-time tracer: "unknown name 'M'").
            check_fallback(proto, self.engine().plays_any_card, rules.name, rules.protocol)
            wc = measured_tables(self.engine(), rules, library, PlaySettings(plan.players, plan.virtual))
        # The protocol's own materials: sleeves or envelopes, arrow cards or α/β pairs (a Sevens
        # or Dominoes kit built with --protocol card-selection-arrow printed α/β markers and
        # listed envelopes, which that protocol never uses).
        return self.table_bom(rules, plan, wc, sleeved=sleeved(proto), bits=bit_cards(proto))

    def table_bom(
        self, rules: GameRules, plan: KitPlan, wc: TableCounts | None, **more: Unpack[TableParts]
    ) -> Bom:
        """The bill of materials of the card selection table (``more``: the kind's own items and
        words, see :class:`kitgen.kinds.virtual.Table`)."""
        table = Table(
            title=rules.title,
            deck_name=deck_name(rules.kit, _("our own printed deck")),
            deck_faces=self.deck_faces(rules),
            deck=plan.own.text("deck"),
            seats=seat_names(plan.players, plan.virtual),
            piles=list(self.piles),
            virtual=plan.virtual,
            card_mm=plan.card_mm,
            worst_case=wc,
            pile_counts=[wc.get("draw_pile", 0)] if wc is not None and self.piles else [],
            **more,
        )
        return virtual_bom(table)

    def labels(self, rules: GameRules, bom: Bom) -> list[Label]:
        return kit_labels(bom)

    def statistical(
        self, library: Library, plan: KitPlan, runs: int, what: str, cache: VerificationCache | None
    ) -> ReportSummary | None:
        return summary(verify_statistically(library, plan.protocol, runs, 1, what, cache, plan.game))

    # -- the booklet ----------------------------------------------------------------------
    def example(self, rules: GameRules, library: Library, plan: KitPlan, owners: list[str]) -> Example:
        moment = self.engine().example_moment(rules, library, self.play_settings(rules, plan))
        table = moment.owners
        sizes = tuple(len(t) for t in table)
        cards: list[Symbol] = [c for t in table for c in t]
        record = {
            "game": rules.name,
            "game_seed": moment.seed,
            "players": plan.players,
            "virtual": plan.virtual,
            **self.example_record(moment, plan),
            "params": {"sizes": list(sizes)},
            "inputs": {"cards": [c.name for c in cards]},
            "seed": 1,
        }
        text = self.moment_text(rules, moment, owners)
        return Example({"sizes": sizes}, {"cards": cards}, 1, record, text, context={"valid": moment.valid})

    def booklet(self, given: BookletInput) -> Booklet:
        example = self.example(given.rules, given.library, given.plan, given.bom.seats)
        booklet = game_booklet(given, example, lambda n: self.deck_face(given.rules, n), self.table_middle)
        booklet.cost = self.figures(given.library, given.rules, given.plan)
        if booklet.cost is None and given.plan.virtual:  # no figures: the table's space still
            proto = given.library.protocol(given.plan.protocol)
            largest = int(str(given.bom.worst_case.get("table_seen", 0)) or 0)
            booklet.footprint = Footprint.of(max(largest, 1), given.plan.card_mm, cards_per_column(proto))
            booklet.unit = "sleeves" if sleeved(proto) else "columns"
        return booklet

    def figures(self, library: Library, rules: GameRules, plan: KitPlan) -> KitCost | None:
        """The kit's table-time figures: its seating's simulated games, every decision costed."""
        arguments = self.run_arguments if self.traced_runs else None
        options = self.cost_options(rules, plan)
        return plan_cost(library, rules, plan, options, self.figure_games, arguments)

    def run_arguments(self, moment: Moment) -> RunArguments:
        """The protocol's arguments at a virtual decision (kinds whose runs are traced one by one)."""
        raise NotImplementedError

    def cost_options(self, rules: GameRules, plan: KitPlan) -> dict[str, object] | None:
        """The game options the table-time figures play with (None: the rule set's own)."""
        return None

    def front_sections(self, booklet: Booklet) -> list[FrontSection]:
        return (
            kit_contents(booklet)
            + [self.setup_page(booklet), self.rules_page(booklet)]
            + table_layout(booklet)
            + [self.turn_page(booklet)]
            + first_turn_checklist(booklet)
        )

    def setup_page(self, b: Booklet) -> FrontSection:
        turn = _(self.turn_words) if self.turn_words else None  # N_-marked: said in the language
        # A rule set's steps may name the kit's spare piles: {bits} and {keep} (booklet/sparepiles.py);
        # nothing else in them is a placeholder.
        spares = helper_words(b)
        steps = [
            t.replace("{bits}", spares["bits"]).replace("{keep}", spares["keep"])
            for t in self.texts(b.game_rules, "setup_steps")
        ]
        return setting_up(b, setup_values(b, turn), steps)

    def texts(self, rules: GameRules, key: str) -> list[str]:
        """The rule set's ``booklet: {key: [...]}`` paragraphs."""
        return [spec_text(str(x)) for x in getattr(rules, "booklet_texts", {}).get(key, [])]

    def rules_page(self, b: Booklet) -> FrontSection:
        rules = b.game_rules
        blocks = rules_head(b)
        doc = str(getattr(rules, "doc", ""))
        if doc:
            blocks.append(Text(spec_text(doc), lead=_("Playing a card.")))
        notes = str(getattr(rules, "notes", ""))
        if notes:
            blocks.append(Text(spec_text(notes)))
        return FrontSection(_("The rules: {title}").format(title=spec_text(rules.title)), tuple(blocks))

    def turn_page(self, b: Booklet) -> FrontSection:
        whose = whose_owner_cards(b.owners, b.virtual)
        blocks = turn_head(
            b, [t.replace("{whose}", whose) for t in self.texts(b.game_rules, "virtual_steps")]
        )
        box = [Text(self.turn_cost(b), lead=_("What a virtual turn costs."))]
        box += [Text(line, style="small") for line in (b.cost.sentences() if b.cost else [])]
        blocks.append(Box(tuple(box)))
        return FrontSection(_("A virtual player's turn"), tuple(blocks))

    def turn_cost(self, b: Booklet) -> str:
        """The table's work for the worked example's turn: cards laid out, shuffles."""
        sizes = b.example_sizes()
        k, k1 = sum(sizes), sizes[0]
        library = Library()
        counts = expected_counts(library, library.protocol(b.sections[0].protocol), {"sizes": tuple(sizes)})
        return _(
            "In the worked example {k} cards are in play, {k1} of them the virtual player's. One run "
            "takes {shuffles} shuffles (two of all the cards in play, the others in the lottery), with "
            "{helpers} owner and bit cards."
        ).format(k=k, k1=k1, shuffles=counts.get("shuffles", "?"), helpers=counts.get("helper_cards", "?"))

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
        return lines + outcome_lines(result)

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


def game_booklet(
    given: BookletInput, example: Example, deck: Callable[[str], Face | None], middle: tuple[str, ...]
) -> Booklet:
    """A game kit's booklet, every protocol step by step from ``example`` (its cost and first
    chapters are the kind's to add)."""
    rules, plan, bom, library = given.rules, given.plan, given.bom, given.library
    booklet = Booklet(
        given.name,
        spec_text(rules.title),
        _(
            "A kit for {seating}: everything to print, set up and play, and every protocol step by step."
        ).format(seating=seating(plan.players, plan.virtual)),
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
        deck=deck,
        table_middle=middle,
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
    return booklet


def moment_words(moment: Moment, names: list[str], situation: str, counted: str, valid: str) -> str:
    """The worked example's sentence: the seeded game, ``situation`` (whose turn, the public state),
    what each of ``names`` holds (``counted``: "Cards in the hands"), which of the first's cards
    ``valid`` ("may be played")."""
    hand = moment.owners[0]
    n_valid = sum(1 for c in hand if moment.valid(c))
    who = _(", ").join(seat_name(o) + _(": ") + str(len(t)) for o, t in zip(names, moment.owners))
    return _(
        "Worked example: a real moment of a seeded game (game seed {seed}). {situation}. {counted}: "
        "{total} ({who}). {first} holds {cards}: {n} of them {valid}. The pictures show the table as "
        "everyone sees it; the shuffles fall as a seeded random draw made them (seed 1)."
    ).format(
        seed=moment.seed,
        situation=situation,
        counted=counted,
        total=sum(len(t) for t in moment.owners),
        who=who,
        first=seat_name(names[0]),
        cards=_(", ").join(c.glyph for c in hand),
        n=n_valid,
        valid=valid,
    )


def colour_word(colour: str) -> str:
    """A colour (or suit) of the printed decks as a sentence names it (``red``, ``clubs``), in the
    active language: its design's name in templates/cards.yaml; another colour as it is."""
    return _(colour.capitalize()).lower() if colour in known_colours() else colour


def outcome_lines(result: TableResult) -> list[str]:
    """The end of ``kitgen play``'s report: the winner, the turns, what the protocol runs did."""
    lines = [f"Winner: {result.winner_name}. Turns: {result.turns}, virtual turns: {result.virtual_turns}."]
    if result.level == "card":
        work = result.work
        lines.append(
            f"Protocol runs: {work.protocol_runs}, checks passed: {work.checks_passed}, "
            f"shuffles: {work.shuffles}, most helper cards at once: {work.max_helper_cards}."
        )
    return lines


def seats(rules: GameRules, players: int | None) -> int:
    """How many play (the rule set's default for None), checked against the rule set's range."""
    lo, hi, default = _players(rules)
    n = default if players is None else players
    if not lo <= n <= hi:
        raise UsageError(f"{rules.name} is played by {lo} to {hi} players, not {n}")
    return n


def _players(rules: GameRules) -> tuple[int, int, int]:
    players = getattr(rules, "players", (2, 10, 4))
    return int(players[0]), int(players[1]), int(players[2])


def _plain(v: object) -> object:
    """A moment's public state as plain data: cards by name, tuples as lists."""
    if isinstance(v, Symbol):
        return v.name
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


def _deck(rules: GameRules) -> WithDeck:
    """The rule set as one with a deck of cards to print (else UsageError)."""
    if not isinstance(rules, WithDeck) or not isinstance(rules.cards, dict):
        raise UsageError(f"{rules.name} has no deck of cards to print")
    return rules


def _cards(rules: GameRules) -> Mapping[str, CardType]:
    return _deck(rules).cards
