"""Two consecutive takes from one region carried out at once (card-selection-arrow's Step 10:
the virtual player's sleeves, the columns whose owner card is ``theta(1)``, into ``L``; then
the first of the draw pile's, the first column whose owner card is ``theta(pile)``, into
``D``). The table between the two, made only to be taken from again, is never made.

Step by step, each take scans its row for its face (:class:`~.takes.ColumnScan`) and builds the
gather of its plan (:func:`~.runs.take_runs`): the columns taken are random, so the plan is
never met again, and the second take scans and gathers the whole region again. Here the first
take's op reads the row once, picks the first take's columns, and the second take's from the
same row without the first's (the row the second take would read: the region keeps its other
columns in order), and moves the cards of both takes in one gather of the table's cells, row
by row (each row's cells read by three C-level gathers: the columns kept, taken first, taken
second). The layouts the two takes make depend on the layout before them and on how many
columns each takes alone (:class:`~.takes.TakePlans`); they are kept by those.

Taken only where (else each take runs as compiled, step by step):

- statically: both steps take from the same region ``R`` into two other regions, and each one's
  columns is a scan (:func:`~.takes.column_scan`) of a row of ``R``; the second scan's face and
  condition call only ``len`` and the protocol's card families and read neither ``R`` nor the
  regions the takes make (they read variables and parameters alone: the same values on the
  table between as on the table before);
- at each run: ``ncols`` is the built-in, the table has no empty place, no display label and
  nothing shown, ``R`` is in sleeves and no hand, the new regions are not on the table yet,
  both scans apply (:meth:`~.takes.ColumnScan.row_codes`), the second one's row is out of
  the sleeves, the first take leaves at least one column and the second takes one or more
  (taking none, it runs as compiled on the table the first take made, which is then made).

Each step keeps its place: the first carries out both (or, where it cannot, its own step),
the second then does nothing. A take changes nothing but the table (no count, no view record,
no card leaves a sleeve: :func:`~.runs.take_runs`), so there is nothing else to put at the
second step's place. The table space the run needs counts the table between, as if it had been
made (its layout is kept with the last one: :func:`~.run.note_shape`).

With :data:`~.evaluate.CHECKED` both steps are also carried out one after the other, as
compiled, and the outcomes compared (:func:`~.pairing.check`).

Like the fused pairs (:mod:`.fused`), the op remembers the run it carried out both steps for
(by identity): one compiled program runs one run at a time per thread of control.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

from .. import steps as st
from ..expressions import Expression
from ..functions import BUILTINS
from ..table import Layout
from . import evaluate as ev
from .base import Op
from .pairing import check
from .run import Run, Space, note_space, space
from .runs import taken_layout
from .takes import ColumnScan, KeptPart, column_scan

Entry = tuple[Op, str | None, st.Step]

ENABLED = True
"""Whether two takes are carried out at once (tests of the takes alone may switch it off)."""

LAYOUTS_KEPT = 1024
"""The layouts (between and after) a pair keeps, per layout before it and numbers of columns
taken; it starts afresh beyond. A plain bounded dict, not a :class:`~reference_engine.kept.Kept`:
over a game's first turns the keys recur about one look-up in two (1,017 look-ups, 374 keys in
the bench's first 1,000 turns), too few for a Kept's first window (it stopped keeping: 444 hits
where a dict has 643), and each miss makes a layout (:func:`both_taken`)."""

_NCOLS = BUILTINS["ncols"]


def _part_free(part: KeptPart | None, regions: set[str]) -> bool:
    """A scan's part that reads variables and parameters alone, none of ``regions``."""
    return part is None or (part.names is not None and regions.isdisjoint(part.names))


def scans(
    one: st.Step, two: st.Step, compiled: Callable[[Expression | None], ev.Expr]
) -> tuple[ColumnScan, ColumnScan] | None:
    """The two takes' scans where the pair can be carried out at once (the static conditions
    above), or None."""
    if not (isinstance(one, st.Take) and isinstance(two, st.Take)):
        return None
    source = one.source
    names = {source, one.into, two.into}
    if two.source != source or len(names) != 3 or one.columns is None or two.columns is None:
        return None
    proto = compiled(one.columns).proto
    first = column_scan(one.columns.node, proto)
    second = column_scan(two.columns.node, proto)
    if first is None or second is None or first.region != source or second.region != source:
        return None
    if not (_part_free(second.face, names) and _part_free(second.guard, names)):
        return None
    return first, second


def _rows(cells: list[int], off: int, rows: int, width: int, idx: Sequence[int]) -> list[int]:
    """The cells at the 0-based columns ``idx`` of each row of a region, row by row."""
    out: list[int] = []
    n = len(idx)
    if not n:
        return out
    if n == 1:
        i = off + idx[0]
        return cells[i : i + rows * width : width]
    get = itemgetter(*idx)
    for r in range(rows):
        a = off + r * width
        out += get(cells[a : a + width])
    return out


def _kept_rows(cells: list[int], off: int, rows: int, width: int, gone: Sequence[int]) -> list[int]:
    """The cells of the 0-based columns a region keeps, row by row, where ``gone`` (sorted, no
    repeats, each below ``width``) are the columns taken: the region's cells copied once, then
    each column taken deleted from every row at once (``del seg[g::w]``, the last column first,
    the rows one narrower after each). A C-level deletion a column taken, where a slice per run
    of columns kept a row cost a Python step each (valgrind: 51 k instructions for 3 rows of 108
    less 8 columns; 17 k this way)."""
    seg = cells[off : off + rows * width]
    w = width
    for g in reversed(gone):
        del seg[g::w]  # the rows are w wide: column g of each, in one step
        w -= 1
    return seg


def _kept_column(gone: Sequence[int], i: int) -> int:
    """The column (0-based) of the ``i``-th column kept (0-based), ``gone`` (sorted, no repeats)
    the columns taken: each column taken at or before it moves it one further."""
    for g in gone:
        if g > i:
            break
        i += 1
    return i


def both_taken(layout: Layout, reg: Any, n1: int, into1: str, n2: int, into2: str) -> tuple[Space, Layout]:
    """What two takes from ``reg`` (``n1`` then ``n2`` columns, ``0 < n1``, ``0 < n2 <= width -
    n1``) into two new regions make, without making the table between: its table space
    (:func:`~.run.space`'s answer for it) and the layout after both. Every layout made costs
    a :meth:`Layout.make` (its sleeves' slots worked out) where no live one has its shape; the
    table between is only noted. The same regions in the same order as :func:`~.runs.taken_layout`
    twice: the region narrowed in place (gone where the second take empties it), the two new
    regions after the others, in sleeves as the region is."""
    rows, left = reg.rows, reg.cols - n1
    hands = False
    best: tuple[int, int] | None = None  # _shape's extent of the table between, region by region
    shapes = []
    for other in layout.regions:
        if other is not reg:
            e = (other.rows, other.cols)
            shapes.append((other.name, other.rows, other.cols, other.unit, other.hand, other.sleeve))
        else:
            e = (rows, left)
            if n2 < left:
                shapes.append((reg.name, rows, left - n2, reg.unit, reg.hand, reg.sleeve))
        hands = hands or other.hand is not None
        if best is None or (e[0] * e[1], e[1]) > (best[0] * best[1], best[1]):
            best = e
    e = (rows, n1)
    if best is None or (e[0] * e[1], e[1]) > (best[0] * best[1], best[1]):
        best = e
    shapes.append((into1, rows, n1, 1, None, reg.sleeve))
    shapes.append((into2, rows, n2, 1, None, reg.sleeve))
    return (hands, best, (best[0] * best[1], best[1])), Layout.make(shapes, (), ())


def _nothing(run: Run) -> None:
    """No step (the check of the first take alone)."""


def pair(one: Entry, two: Entry, compiled: Callable[[Expression | None], ev.Expr]) -> tuple[Op, Op] | None:
    """The two ops of the pair (the first carries out both, the second then nothing), or None
    where the static conditions fail."""
    op1, number1, step1 = one
    op2, number2, step2 = two
    got = scans(step1, step2, compiled)
    if got is None:
        return None
    scan1, scan2 = got
    assert isinstance(step1, st.Take) and isinstance(step2, st.Take)
    source, into1, into2 = step1.source, step1.into, step2.into
    layouts: dict[tuple[Layout, int, int], tuple[Space | None, Layout]] = {}
    done: list[Run | None] = [None]  # the run whose second take is already carried out

    def plan(run: Run) -> tuple[list[int], Space | None, Layout] | None:
        """The cells after both takes, the table space of the table between (None: the second
        take takes nothing, and runs as compiled on the table between) and the layout after
        both (or the table between), or None (step by step)."""
        layout = run.layout
        if layout.holes or layout.labels or layout.shown:
            return None
        by_name = layout.by_name
        reg = by_name.get(source)
        if reg is None or reg.hand is not None or reg.sleeve is None or into1 in by_name or into2 in by_name:
            return None
        if run.frame.globals.functions.get("ncols") is not _NCOLS or scan2.row in reg.sleeve.rows:
            return None
        vals1 = scan1.row_codes(run)
        if vals1 is None:
            return None
        vals = vals1 if scan2.row == scan1.row else scan2.row_codes(run)
        if vals is None:
            return None
        cols1 = scan1.pick(run, vals1)
        width = reg.cols
        n1 = 0 if cols1 is None else len(cols1)
        if cols1 is None or not 0 < n1 < width or len(set(cols1)) != n1:
            return None
        if min(cols1) < 1 or max(cols1) > width:
            return None  # no column of the region (pick's columns are: the general path says)
        # 0-based, the columns the first take leaves, in order: the row the second one reads.
        gone1 = sorted([c - 1 for c in cols1])
        left = width - n1
        cols2 = scan2.pick(run, _kept_rows(vals, 0, 1, width, gone1))
        if cols2 is None or len(set(cols2)) != len(cols2) or not all(0 < c <= left for c in cols2):
            return None
        n2 = len(cols2)
        key = (layout, n1, n2)
        hit = layouts.get(key)
        if hit is None:
            if n2:
                hit = both_taken(layout, reg, n1, into1, n2, into2)
                if ev.CHECKED:
                    mid = taken_layout(layout, reg, n1, into1)
                    want = (space(mid), taken_layout(mid, mid.by_name[source], n2, into2))
                    if hit != want:
                        raise ev.Mismatch(f"two takes at once: the table between and after {hit}, not {want}")
            else:
                hit = (None, taken_layout(layout, reg, n1, into1))
            if len(layouts) >= LAYOUTS_KEPT:
                layouts.clear()
            layouts[key] = hit
        between, end = hit
        cells = run.cells
        off, rows = reg.offset, reg.rows
        stop = off + rows * width
        moved1 = [c - 1 for c in cols1]
        moved2 = [_kept_column(gone1, c - 1) for c in cols2]
        after = cells[:off]
        after += _kept_rows(cells, off, rows, width, sorted(moved1 + moved2))
        after += cells[stop:]
        after += _rows(cells, off, rows, width, moved1)
        after += _rows(cells, off, rows, width, moved2)
        return after, between, end

    def carry_out(run: Run, got: tuple[list[int], Space | None, Layout]) -> None:
        cells, between, end = got
        run.cells = cells
        run.layout = end
        if between is None:
            return  # the table between: the second take runs as compiled on it
        note_space(run.shared, between)  # the table between, as after_step would have noted it
        done[0] = run

    def first(run: Run) -> None:
        done[0] = None
        got = plan(run) if ENABLED else None
        if got is None:
            op1(run)
            return
        if ev.CHECKED:  # against both takes as compiled (or the first alone, where it is alone)
            check(
                run,
                op1,
                op2 if got[1] is not None else _nothing,
                number1,
                number2,
                lambda: carry_out(run, got),
            )
            done[0] = None
        carry_out(run, got)

    def second(run: Run) -> None:
        if done[0] is run:
            done[0] = None
            return
        op2(run)

    return first, second


__all__ = ["ENABLED", "LAYOUTS_KEPT", "pair", "scans"]
