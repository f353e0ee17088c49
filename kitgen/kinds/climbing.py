"""The kit of a climbing game (Daifugō / President): the standard deck, the play selection
table (θ cards, three ownership pairs per card, λ labels, the stop card), a booklet."""

from __future__ import annotations

import math
from dataclasses import replace

from reference_engine.api import (
    ClimbingPlay,
    ClimbingRules,
    GameRules,
    Library,
    Moment,
    Params,
    PlayResult,
    PlaySettings,
    RankedResult,
    Report,
    Symbol,
    TableResult,
    UsageError,
)

from ..booklet.book import Booklet
from ..booklet.examples import Example
from ..booklet.frontmatter import FrontSection, Text
from ..core.figurecache import measured_tables
from ..cost.bom import Bom, Item, seat_names
from ..cost.gametime import RunArguments
from ..cost.kitcost import sleeved
from ..lang.catalogue import N_, _, number
from ..lang.overlay import spec_text
from ..lang.seats import seat_name
from ..paper.facenames import symbol_face
from ..paper.labelfaces import label_face
from .kind import BookletInput, KitPlan, register
from .table import TableKit

COPIES = 3  # ownership pairs under every card (enough for four cards of a rank)


# A play in words: "a single 7", "a pair of 7s" (the engine's ClimbingRules.describe, in the
# active language).
PLAY_WORDS = {
    1: N_("a single {rank}"),
    2: N_("a pair of {rank}s"),
    3: N_("three {rank}s"),
    4: N_("four {rank}s"),
}


def play_words(rules: ClimbingRules, play: ClimbingPlay) -> str:
    rank = rules.rank_name(play.strength)
    if play.size in PLAY_WORDS:
        return _(PLAY_WORDS[play.size]).format(rank=rank)
    return _("{n} {rank}s").format(n=play.size, rank=rank)


def _last(moment: Moment) -> ClimbingPlay | None:
    """The play to beat at the moment (None: the player leads)."""
    last = moment.public.get("last")
    return last if isinstance(last, ClimbingPlay) else None


def arrow_item(tickets: int) -> Item:
    """The up-down arrow cards of the quick play selection: one per ticket when the pairs become
    arrows, and one more per match of a knockout round (at most half the tickets)."""
    needed = math.ceil(tickets * 1.5)
    spare = max(3, math.ceil(needed * 0.25))
    return Item(
        "arrow",
        _("arrow cards (▲), all alike"),
        "card",
        needed,
        spare,
        _(
            "a ticket's bit in the knockout matches of a virtual turn that follows a play: pointing up "
            "(away from you) means live; a half turn makes it point down. One per ticket and one per "
            "match of a round"
        ),
        [symbol_face("up", "▲")] * (needed + spare),
        _("Arrow cards"),
    )


def ticket_words() -> str:
    """The "At the table." box of a called protocol that holds its candidates in sleeves (the
    knockout lottery's) in a kit whose table has none for them: the play selection's candidates
    are its tickets, each a λ label card face down with its arrow card face down on top. Its
    steps and pictures, written for sleeves, said "sleeve" to a table that holds tickets: this
    box says what a sleeve is here, in the words of the kit's materials."""
    return _(
        "In this kit each candidate is a ticket, not a sleeve: a λ label card lying face down with its "
        "arrow card face down on top of it. Where this section says a sleeve, read a ticket (its "
        "pictures draw each ticket as a sleeve); to slide an arrow card out of a sleeve, lift it off "
        "its label without looking, and to slide one in, lay it face down on the label. A match is "
        "played on a mat: the two tickets lie on it side by side with one arrow card between them, "
        "and a half turn of the mat swaps the tickets and turns every card on it round. A face-down "
        "ticket looks the same both ways round, so nobody can tell whether a mat was turned."
    )


@register
class ClimbingKit(TableKit):
    kind = "climbing"
    table_middle = ("Trick",)
    turn_words = N_(
        "the play selection protocol for it, which plays one to four cards of one rank (each of "
        "its distinct valid plays equally likely) or passes when it has none"
    )
    # A play selection run depends on the whole table and the last play: each is traced (about a
    # second at the largest tables), so the figures simulate fewer games than a card game's.
    traced_runs = True
    figure_games = 10

    def booklet(self, given: BookletInput) -> Booklet:
        """The table kind's booklet, with each ticket called by its name where a called protocol
        speaks of sleeves (:func:`ticket_words`, and a line of its legend, which its quick
        reference repeats)."""
        booklet = super().booklet(given)
        library = given.library
        if not sleeved(library.protocol(given.plan.protocol)):
            for sec in booklet.sections:
                if sleeved(library.protocol(sec.protocol)):
                    sec.table = ticket_words()
                    # The legend opens its quick reference too, which says "Left sleeve: arrow out".
                    sec.legend = [
                        *sec.legend,
                        _(
                            "A sleeve: in this kit, a ticket (a λ label card face down, its arrow card "
                            "on top)."
                        ),
                    ]
        return booklet

    # -- the materials --------------------------------------------------------------------
    def materials(self, library: Library, rules: GameRules, plan: KitPlan, reports: list[Report]) -> Bom:
        wc = None
        extra: list[Item] = []
        at_once = 0  # the quick version's six-card ANDs, every ticket at once: one α β each
        if plan.virtual:
            wc = measured_tables(self.engine(), rules, library, PlaySettings(plan.players, plan.virtual))
            labels = max(wc.get("tickets", 0), COPIES)
            spare = max(3, math.ceil(labels * 0.25))
            faces = [label_face("label", t) for t in range(1, labels + spare + 1)]
            extra = [
                Item(
                    "label",
                    _("λ label cards λ1 to λ{n}, one of each").format(n=labels + spare),
                    "card",
                    labels,
                    spare,
                    _(
                        "a ticket's name in the lotteries of a virtual turn: following a play, one per set "
                        "of cards that could beat it (at most {labels} in {games} simulated games); "
                        "leading, one per card of the rank that is left"
                    ).format(labels=number(labels), games=number(wc["games"])),
                    faces,
                    _("λ labels"),
                ),
                Item(
                    "stop",
                    _("stop card (■)"),
                    "card",
                    1,
                    1,
                    _("the stop ticket of a leading virtual player's lottery: it ends the play"),
                    [label_face("stop")] * 2,
                    _("Stop card"),
                ),
            ]
            if "up" in library.protocol(plan.protocol).symbols:
                extra.append(arrow_item(labels))
                at_once = labels
        return self.table_bom(
            rules,
            plan,
            wc,
            extra_items=extra,
            tickets=COPIES,
            ticket_labels=False,
            extra_pairs=2 + at_once,
            run_name="play selection",
            pair_use=(
                _(
                    "{copies} per card on the table ({{k}} at most): its ownership pairs, β α under the "
                    "virtual player's cards, α β under the others'; two for the lotteries' tokens"
                ).format(copies=COPIES)
                + (
                    _("; and {n} for the six-card ANDs of every ticket done at once").format(n=at_once)
                    if at_once
                    else ""
                )
            ),
            helper_note=_(
                "The play selection protocol needs an owner card and {copies} α β pairs under each of "
                "the {{k}} cards in play, λ labels for its lotteries' tickets and the stop card; the kit "
                "prints {{helpers}} owner and bit markers plus labels and spares."
            ).format(copies=COPIES),
        )

    # -- the worked example and the figures ------------------------------------------------
    def run_arguments(self, moment: Moment) -> RunArguments:
        """The play selection's arguments at a virtual decision: every hand (the virtual player's
        first), the last play, the game's order of ranks."""
        last = _last(moment)
        s0, r0 = (last.size, last.strength) if last is not None else (0, -1)
        params: Params = {"sizes": tuple(len(t) for t in moment.owners), "s0": s0, "r0": r0, "copies": COPIES}
        cards: list[Symbol] = [c for t in moment.owners for c in t]
        return params, {"cards": cards}, {"strength": moment.public["strength"]}

    def example(self, rules: GameRules, library: Library, plan: KitPlan, owners: list[str]) -> Example:
        moment = self.engine().example_moment(rules, library, PlaySettings(plan.players, plan.virtual))
        params_, inputs, context = self.run_arguments(moment)
        params = dict(params_)
        sizes, s0, r0 = params["sizes"], params["s0"], params["r0"]
        cards = list(inputs["cards"])
        record = {
            "game": rules.name,
            "game_seed": moment.seed,
            "players": plan.players,
            "virtual": plan.virtual,
            "last": {"size": s0, "strength": r0},
            "params": {"sizes": list(sizes), "s0": s0, "r0": r0, "copies": COPIES},
            "inputs": {"cards": [c.name for c in cards]},
            "seed": 1,
        }
        text = self.moment_text(rules, moment, owners)
        return Example(params, {"cards": cards}, 1, record, text, context=dict(context))

    def moment_record(self, moment: Moment) -> dict[str, object]:
        last = moment.public.get("last")
        return {"last": None if last is None else {"size": last.size, "strength": last.strength}}

    def moment_text(self, rules: GameRules, moment: Moment, owners: list[str]) -> str:
        last = _last(moment)
        climbing = rules
        if not isinstance(climbing, ClimbingRules):
            raise UsageError(f"{rules.name} is not a climbing game")
        hand = moment.owners[0]
        plays = climbing.plays(hand, last)
        options = _(", ").join(play_words(climbing, p) for p in plays) or _("nothing")
        who = _(", ").join(seat_name(o) + _(": ") + str(len(t)) for o, t in zip(owners, moment.owners))
        situation = (
            _("the last play is {play}").format(play=play_words(climbing, last))
            if last is not None
            else _("{owner} leads the trick").format(owner=seat_name(owners[0]))
        )
        return _(
            "Worked example: a real moment of a seeded game (game seed {seed}). It is {owner}'s turn; "
            "{situation}. Cards in the hands ({total} in all): {who}. {owner} holds {cards}: it can play "
            "{options} ({n} plays, each equally likely). The pictures show the table as everyone sees it; "
            "shuffles drawn with seed 1."
        ).format(
            seed=moment.seed,
            owner=seat_name(owners[0]),
            situation=situation,
            total=sum(len(t) for t in moment.owners),
            who=who,
            cards=_(", ").join(c.glyph for c in hand),
            options=options,
            n=len(plays),
        )

    def turn_cost(self, b: Booklet) -> str:
        sizes = b.example_sizes()
        k, k1 = sum(sizes), sizes[0]
        time = b.sections[0].time
        shuffles = time.counts.get("shuffle", "?") if time is not None else "?"
        quick = b.bom is not None and any(i.key == "arrow" for i in b.bom.items)
        how = (
            _(
                "the grid twice, a round of six-card ANDs (every ticket at once) for each card of a set "
                "after the first, the half turns that make every ticket's pair an arrow card, the mixing "
                "of each rank's tickets (all ranks at once), the knockout rounds, and the knockout lottery"
            )
            if quick
            else _(
                "the grid twice, a six-card AND for each ticket of a rank that could beat the last "
                "play, a shuffle of each rank's tickets, and the covert lottery"
            )
        )
        return _(
            "In the worked example the table holds {k} cards, {k1} of them the virtual player's. One run "
            "lays out a grid of {grid} cards (each card with its owner card and {copies} ownership pairs) "
            "and takes {shuffles} shuffles: {how}."
        ).format(k=k, k1=k1, grid=(2 + 2 * COPIES) * k, copies=COPIES, shuffles=shuffles, how=how)

    def rules_page(self, b: Booklet) -> FrontSection:
        """The rules, and where they differ from popular house rules."""
        page = super().rules_page(b)
        differences = list(getattr(b.rules, "differences", []))
        if not differences:
            return page
        more = [Text(_("Where these rules differ from popular house rules"), style="h2")]
        more += [Text(f"• {spec_text(str(d))}") for d in differences]
        return replace(page, blocks=page.blocks + tuple(more))

    # -- kitgen play ----------------------------------------------------------------------
    def log_lines(self, result: TableResult, names: list[str]) -> list[str]:
        out = [""]
        for t in result.rounds_log()[0]:
            who = names[t["seat"] - 1]
            if t["action"] == "play":
                text = f"plays {t['cards']} ({t['play']})"
            elif t["action"] == "trick":
                text = "leads a new trick (everyone else passed)"
            elif t["action"] == "out":
                text = f"is out: {t['note']}"
            else:
                text = t["action"]
            if t.get("runs"):
                text += f"   [protocol runs: {t['runs']}, checks passed]"
            out.append(f"  {t['index']:>3}. {who}: {text}")
        return out

    def play_lines(self, result: PlayResult, rules: GameRules) -> list[str]:
        lines = super().play_lines(result, rules)
        assert isinstance(result, RankedResult), "a climbing game ranks every seat"
        names = seat_names(result.players, result.virtual)
        ranking = ", ".join(f"{i}. {names[s - 1]}" for i, s in enumerate(result.ranking, 1))
        lines.insert(len(lines) - (2 if result.level == "card" else 1), f"Ranking: {ranking}.")
        return lines
