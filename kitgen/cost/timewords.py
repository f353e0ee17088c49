"""The words of a kit's time and space figures (kitgen.cost.kitcost), in the active language."""

from __future__ import annotations

from collections.abc import Mapping

from ..lang.catalogue import N_, _, ngettext, number

RANGE_NOTE = N_(
    "Each figure is a range: the first number assumes quick shuffles and perfect teamwork, the "
    "second slower shuffles, mixing that is not shared and people working at 70 % of perfect speed."
)
ESTIMATE_LEAD = N_(
    "These minutes are kitgen's estimate from simulated games: the actions are counted from "
    "the engine's runs of the protocol; the seconds each action takes are our own round "
    "figures, not measured at a table (the printing guide lists them)."
)
ROUND_ESTIMATE = N_(  # a Gakmoro kit's (kitgen.kinds.sealed_bid.cost)
    "These minutes are kitgen's estimate from simulated games: the actions are counted from "
    "the engine's runs of the round protocol; the seconds each action takes are our own round "
    "figures, not measured at a table (the printing guide lists them)."
)
ESTIMATE = ESTIMATE_LEAD + " " + RANGE_NOTE  # in English; estimate() in the active language


def estimate() -> str:
    """:data:`ESTIMATE` in the active language."""
    return _(ESTIMATE_LEAD) + " " + _(RANGE_NOTE)


# The table's size in words, by what its columns are (Footprint.sentence).
SPACE = {
    "sleeves": N_(
        "The table needs about {width} × {depth} cm for the largest turn: {n} sleeves in {rows} "
        "rows of up to {per_row}."
    ),
    "columns": N_(
        "The table needs about {width} × {depth} cm for the largest turn: {n} columns in {rows} "
        "rows of up to {per_row}."
    ),
    "cards in a row": N_(
        "The table needs about {width} × {depth} cm for the largest turn: {n} cards in a row in "
        "{rows} rows of up to {per_row}."
    ),
    # Cards in rows, a column of two or more cards (Footprint.cards_per_column): every card counted.
    "stacked cards": N_(
        "The table needs about {width} × {depth} cm for the largest turn: {cards} cards, {n} columns "
        "of {height}, in {rows} rows of up to {per_row} columns."
    ),
}


def shuffles_compared(own: float, paper: float) -> str:
    """How the two protocols' shuffles per run compare, from their counted traces."""

    def n(x: float) -> str:
        return f"{x:.0f}" if abs(x - round(x)) < 0.05 else f"{x:.1f}"

    if abs(own - paper) < 0.05:
        return _("does the same shuffles, {n} per run on average").format(n=n(own))
    fewer = paper - own
    count = n(abs(fewer))
    if fewer > 0:
        text = (
            _("does {count} shuffle fewer per run, {own} instead of {paper} on average")
            if count == "1"
            else _("does {count} shuffles fewer per run, {own} instead of {paper} on average")
        )
    else:
        text = (
            _("does {count} shuffle more per run, {own} instead of {paper} on average")
            if count == "1"
            else _("does {count} shuffles more per run, {own} instead of {paper} on average")
        )
    return text.format(count=count, own=n(own), paper=n(paper))


def counts_sentence(counts: Mapping[str, int]) -> str:
    """A run's table actions in words (kitgen.cost.tabletime.TableTime.sentence)."""
    c = {k: number(v) for k, v in counts.items()}
    return _(
        "{place} cards laid out, {move} moved, {turn} turned over, {envelopes} filled, {shuffles}"
    ).format(
        **c,
        envelopes=ngettext("{n} envelope", "{n} envelopes", counts["envelope"]).format(n=c["envelope"]),
        shuffles=ngettext("{n} shuffle", "{n} shuffles", counts["shuffle"]).format(n=c["shuffle"]),
    )


def run_words(time: str, people: str, counts: str, estimate: str) -> str:
    """What one run of the worked example costs at the table (kitgen.cost.tabletime.run_sentence)."""
    return _(
        "At the table, the worked example's run takes {time} with {people}: {counts}. {estimate}"
    ).format(time=time, people=people, counts=counts, estimate=estimate)


# What a turn is called (Costs.longest_turn), in the catalogue.
TURNS = {"a virtual turn": N_("a virtual turn"), "a round": N_("a round")}


def turn_words(what: str) -> str:
    """A kit's kind of turn in the active language (a build's warning names it)."""
    return _(TURNS[what]) if what in TURNS else what
