"""The options of a kit and of a booklet, as ``kitgen build`` and ``kitgen booklet`` take them.

They live here, beside no orchestrator, so that the kinds (:mod:`kitgen.kinds`), the class kits
(:mod:`kitgen.kit.classkit`) and the build (:mod:`kitgen.kit.build`) all read them without importing
each other. :func:`recorded` is what a manifest keeps of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from .optionspec import BY_NAME, KindValues, check


@dataclass(frozen=True)
class KitOptions:
    """``kitgen build``: ``ruleset`` is a rule set (a game kit) or a protocol, by name or spec
    file (a protocol kit for a class, with ``params`` and ``sets``)."""

    ruleset: str = "uno"
    players: int | None = None
    virtual: int = 1
    paper: str = "a4"
    card_size: str | None = None
    duplex: str = "long"
    profile: str = "home"
    ink_saver: bool = False  # light backs, no full-bleed fills (for a home printer)
    export: tuple[str, ...] = ()  # extra outputs: cards-png (print-on-demand PNGs, Tabletop Simulator)
    protocol: str | None = None
    labels: str | None = None
    label_start: int = 1
    back_offset: str = "0mm,0mm"
    output: str | None = None
    previews: bool = True
    runs: int = 100
    # ``--exact-hands N``: verify the card selection protocol exactly on the game's whole deck for
    # P_1's hands of 1..N cards (0: not); the cover and validation pages say "exact up to N".
    exact_hands: int = 0
    # A kind's own options (--deck, --wild4, the puzzles' --count...), checked against their
    # declarations (kitgen.core.optionspec).
    own: KindValues = field(default_factory=KindValues)
    cache: bool = True  # reuse verification reports of identical specs (see kitgen.core.verification)
    workers: int = 1  # processes per exact verification (not recorded: it never changes an output)
    # The options given on the command line, by field name (``players``...): a kind refuses those
    # it does not take. Not recorded, like ``cache``: it never changes an output.
    given: frozenset[str] = frozenset()
    # ``--only``: card types (BOM keys) to reprint; the kit keeps only the pages of their sheets.
    only: tuple[str, ...] = ()
    # ``--force``: write beside files kitgen did not write in the kit folder (never over them).
    force: bool = False
    # A protocol kit: ``--param NAME=VALUE`` for the protocol, and ``--sets N`` card sets (a
    # class in N groups). Recorded only when given, so game kits' manifests do not change.
    params: tuple[str, ...] = ()
    sets: int = 1


@dataclass(frozen=True)
class BookletOptions:
    name: str = "uno"
    paper: str = "a4"
    imposition: str = "none"
    players: int | None = None
    virtual: int = 1
    own: KindValues = field(default_factory=KindValues)  # a rule set's --discard-owner, --wild4
    protocol: str | None = None
    runs: int = 100
    output: str | None = None
    previews: bool = True
    cache: bool = True
    workers: int = 1  # processes per exact verification (not recorded)
    force: bool = False  # write beside files kitgen did not write in the folder (not recorded)


# Where a manifest records the kind's own options among the others (as it did when they were
# fields of KitOptions and BookletOptions): a kit's --deck and --discard-owner after --export,
# --wild4 after --back-offset, the rest as ``extra`` after --exact-hands; a booklet's
# --discard-owner and --wild4 after --virtual. A manifest stays byte for byte the same.
_RECORDED_AFTER = {"export": ("deck", "discard_owner"), "back_offset": ("wild4",)}
_BOOKLET_RECORDED_AFTER = {"virtual": ("discard_owner", "wild4")}


def recorded(opts: KitOptions | BookletOptions) -> dict[str, object]:
    """The options a manifest records: not the cache switch, the workers, --force nor which
    options were typed, which never change an output; options that are off are left out."""
    after = _BOOKLET_RECORDED_AFTER if isinstance(opts, BookletOptions) else _RECORDED_AFTER
    out: dict[str, object] = {}
    for f in fields(opts):
        if f.name == "own":
            if isinstance(opts, KitOptions):
                apart = {n for ns in after.values() for n in ns}
                out["extra"] = {k: v for k, v in opts.own.given if k not in apart}
            continue
        out[f.name] = getattr(opts, f.name)
        for name in after.get(f.name, ()):
            out[name] = opts.own.switch(name) if BY_NAME[name].type == "switch" else opts.own.text(name)
    return _recorded(out)


def _recorded(options: dict[str, object]) -> dict[str, object]:
    return {
        k: list(v) if isinstance(v, tuple) else v
        for k, v in options.items()
        if k not in ("cache", "given", "workers", "force")
        and not (k in ("only", "ink_saver", "export", "exact_hands", "params") and not v)
        and not (k == "sets" and v == 1)
    }


def validate(opts: KitOptions | BookletOptions) -> None:
    """Refuse an option whose value its declaration (:mod:`kitgen.core.optionspec`) does not allow:
    the checks of the command line, for a caller of :func:`kitgen.kit.build.build` too (the kind's own
    options are checked when :class:`KindValues` is made)."""
    for f in fields(opts):
        option = BY_NAME.get(f.name)
        if option is not None and f.name not in ("only", "workers"):  # the CLI's text; the cores
            check(option, getattr(opts, f.name))
