"""Random small protocol libraries for differential fuzzing (a hypothesis strategy).

:func:`libraries` draws a caller spec and, often, one callee spec, as YAML text. A draw
walks a rough model of the table (which places hold a card, which are known to be face up,
which faces are known) and picks actions that mostly make sense there: place (input cards,
new cards such as ``bit(0)`` or ``new(al)``, rows and columns, into empty places, a new row
below a row), rearrange, swap, move, turn, discard, take, every kind of shuffle (scramble,
shift, cut, bisect and ``set:`` lists with repeated and non-group permutations), public
``shift ... until``, let, if, for and calls whose results use every output encoding; hands
(``return`` to owner numbers and names, ``move`` and call results onto a hand's end, a callee
that hands a hand back), ``players`` who know inputs and hold hands (and virtual ones), and
``admissible`` sets (a few admitting no input). The model is only a guide: some specs read
a face-down card, turn an empty place and so on, and then both sides must agree that a run
cannot be carried out.

Outputs come last: each region left on the table is declared as an output (a declared bit
encoding, ``card``, ``cards``, ``faces``; sometimes shown publicly, several cards in table
order or ``show: mixed``), discarded, or left behind (so ``tidy`` fails); each hand is an
output (``cards``/``card``, sometimes shown) or left behind. Their ``equals``/``uniform``
specifications come from a truth table: the naive enumerator runs the spec without them, the
true distribution of each
output under each input is written as an expression, and some of them are then deliberately
corrupted (so ``correct`` fails in a good share of the examples).
"""

from __future__ import annotations

import itertools
import math
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import enumerator as en  # noqa: E402

from reference_engine.registry import Library  # noqa: E402

MAIN = "fzmain"
SUB = "fzsub"
LEAF = "fzleaf"
FACES = ("al", "be", "he", "cl")
SYMBOLS: dict[str, Any] = {"al": {}, "be": {}, "he": {}, "cl": {}, "lab": {"family": True}}
ENCODINGS: dict[str, Any] = {
    "bit": {"values": {0: ["al", "be"], 1: ["be", "al"]}},
    "hbit": {"values": {0: ["cl", "he"], 1: ["he", "cl"]}},
    "lbl": {"label": "lab"},
    "num": {"onehot": {"length": 3, "hot": "he", "cold": "cl"}},
}
DOMAIN_SIZES = {"bit": 2, "hbit": 2, "num": 3, "lbl": 1}
BIT_FACES = {"bit": ("al", "be"), "hbit": ("cl", "he")}
MAX_CARDS = 8
MAX_BRANCH = 24  # outcomes of every shuffle of one run, multiplied
# Constructs of engine issues saved as regressions (construct -> fuzz_regressions/ folder).
# While a folder's issue is open (listed in test_fuzz.KNOWN, strict xfail), the default draws
# avoid its construct so that a run finds new disagreements; avoid_known() sets this up and
# bench/fuzz_verify.py --known draws everything.
KNOWN_ISSUES = {
    "bare-selection-value": "let-face-up-card",  # let v: "s[1]" (a selection, not faces(s[1]))
    "swap-with-empty": "swap-into-empty-place",  # a swap where one group has an empty place
}
AVOID: set[str] = set(KNOWN_ISSUES)


def avoid_known(open_issues: set[str] | dict[str, str]) -> None:
    """Avoid the constructs of the regression folders that are still open, draw the others."""
    AVOID.clear()
    AVOID.update(c for c, folder in KNOWN_ISSUES.items() if folder in open_issues)


REGION_NAMES = ("s", "t", "u", "v", "w", "P", "Q", "R", "S", "T", "U", "V")


# --------------------------------------------------------------------------- the model


@dataclass
class MC:
    """A card in the model: orientation and face when they are the same in every run."""

    up: bool | None
    sym: str | None


@dataclass
class MRegion:
    grid: list[list[MC | None]]
    unit: int = 1

    @property
    def rows(self) -> int:
        return len(self.grid)

    @property
    def cols(self) -> int:
        return len(self.grid[0]) if self.grid else 0

    def copy(self) -> MRegion:
        return MRegion(
            [[None if c is None else MC(c.up, c.sym) for c in row] for row in self.grid], self.unit
        )


@dataclass
class SelC:
    """A selection the spec can write: its text, its places and its shape."""

    text: str
    region: str
    coords: list[tuple[int, int]]
    shape: tuple[int, int]
    whole: bool = False


@dataclass
class CalleeInfo:
    name: str
    inputs: list[str]  # bit inputs, two cards each
    card_outputs: list[tuple[str, list[MC], tuple[int, int]]]  # name, cards, shape handed back
    value_outputs: list[str]
    branch: int
    hands: list[str] = field(default_factory=list)  # the hands it puts cards into (return)
    players: dict[str, list[str]] = field(default_factory=dict)  # the players it declares: their hands


@dataclass
class GeneratedLibrary:
    """The YAML files of one example and what the draw put in them."""

    files: dict[str, str]
    main: str = MAIN
    features: set[str] = field(default_factory=set)

    def write(self, folder: Path) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in self.files.items():
            (folder / name).write_text(text, encoding="utf-8")
        return folder

    def text(self) -> str:
        return "\n".join(f"# ---- {name}\n{text}" for name, text in self.files.items())


# --------------------------------------------------------------------------- drawing


def chance(draw: Any, percent: int) -> bool:
    """True with about ``percent`` % probability; shrinking makes it False (fewer features)."""
    return bool(draw(st.integers(0, 99)) >= 100 - percent)


class Gen:
    """Draws the steps of one spec over a model of its table."""

    def __init__(self, draw: Any, role: str, callee: CalleeInfo | None = None):
        self.draw = draw
        self.role = role
        self.callee = callee
        self.m: dict[str, MRegion] = {}
        self.vars: dict[str, str] = {}  # public variables: name -> kind (int, sym, bool, list)
        self.branch = 1
        self.features: set[str] = set()
        self.used_names: set[str] = set()
        self.shaky: set[str] = set()  # regions that may or may not be on the table, depending on the run
        self.hands: dict[str, list[MC]] = {}  # hands (in the order cards came in): never in self.m
        self.filled: set[str] = set()  # every hand a return put cards into, in any branch
        # Who holds a callee's hands, as the calls said: the hands here they were mapped to, and the
        # players here they were given to (the spec's players must seat them).
        self.mapped_hands: set[str] = set()
        self.mapped_players: set[str] = set()
        self.counter = 0
        self.max_branch = MAX_BRANCH if role == "main" else 8

    # -- choices -------------------------------------------------------------------------
    def pick(self, options: list[Any] | tuple[Any, ...]) -> Any:
        return self.draw(st.sampled_from(list(options)))

    def chance(self, percent: int) -> bool:
        return chance(self.draw, percent)

    def number(self, lo: int, hi: int) -> int:
        return int(self.draw(st.integers(lo, hi)))

    def fresh_region(self) -> str:
        for n in REGION_NAMES:
            if n not in self.used_names and n not in self.m:
                self.used_names.add(n)
                return n
        self.counter += 1
        return f"r{self.counter}"

    def fresh_var(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    # -- model helpers -------------------------------------------------------------------
    def count(self) -> int:
        on_table = sum(1 for reg in self.m.values() for row in reg.grid for c in row if c is not None)
        return on_table + sum(len(h) for h in self.hands.values())

    def normalize(self, keep: tuple[str, ...] = ()) -> None:
        for name in list(self.m):
            reg = self.m[name]
            if name not in keep and all(c is None for row in reg.grid for c in row):
                del self.m[name]
                continue
            while len(reg.grid) > 1 and all(c is None for c in reg.grid[-1]):
                reg.grid.pop()

    def at(self, name: str, rc: tuple[int, int]) -> MC | None:
        return self.m[name].grid[rc[0] - 1][rc[1] - 1]

    def put(self, name: str, rc: tuple[int, int], card: MC | None) -> None:
        self.m[name].grid[rc[0] - 1][rc[1] - 1] = card

    def candidates(self, name: str) -> list[SelC]:
        """Selections of one region the spec can write, from whole regions to single places."""
        reg = self.m[name]
        rows, cols = reg.rows, reg.cols
        out = [
            SelC(
                name,
                name,
                [(r, c) for r in range(1, rows + 1) for c in range(1, cols + 1)],
                (rows, cols),
                True,
            )
        ]
        if rows == 1:
            if reg.unit == 1:
                for a in range(1, cols + 1):
                    for b in range(a, cols + 1):
                        text = f"{name}[{a}]" if a == b else f"{name}[{a}..{b}]"
                        out.append(SelC(text, name, [(1, c) for c in range(a, b + 1)], (1, b - a + 1)))
            else:
                items = cols // reg.unit
                for a in range(1, items + 1):
                    for b in range(a, items + 1):
                        text = f"{name}[{a}]" if a == b else f"{name}[{a}..{b}]"
                        coords = [(1, c) for c in range((a - 1) * reg.unit + 1, b * reg.unit + 1)]
                        out.append(SelC(text, name, coords, (1, len(coords))))
            for a in range(1, cols + 1):
                for b in range(a, min(cols, a + 3) + 1):
                    text = f"{name}[1, {a}]" if a == b else f"{name}[1, {a}..{b}]"
                    out.append(SelC(text, name, [(1, c) for c in range(a, b + 1)], (1, b - a + 1)))
        else:
            for r in range(1, rows + 1):
                out.append(SelC(f"{name}[{r}, *]", name, [(r, c) for c in range(1, cols + 1)], (1, cols)))
                for a in range(1, cols + 1):
                    for b in range(a, cols + 1):
                        text = f"{name}[{r}, {a}]" if a == b else f"{name}[{r}, {a}..{b}]"
                        out.append(SelC(text, name, [(r, c) for c in range(a, b + 1)], (1, b - a + 1)))
            for c in range(1, cols + 1):
                out.append(SelC(f"{name}[*, {c}]", name, [(r, c) for r in range(1, rows + 1)], (rows, 1)))
        return out

    def sels(
        self,
        occupied: bool = True,
        size: int | None = None,
        lo: int = 1,
        hi: int = MAX_CARDS,
        avoid: set[tuple[str, int, int]] | None = None,
        regions: list[str] | None = None,
    ) -> list[SelC]:
        out = []
        for name in regions if regions is not None else list(self.m):
            if name not in self.m:
                continue
            for s in self.candidates(name):
                n = len(s.coords)
                if size is not None and n != size:
                    continue
                if not lo <= n <= hi:
                    continue
                cells = [self.at(name, rc) for rc in s.coords]
                if occupied and any(c is None for c in cells):
                    continue
                if not occupied and any(c is not None for c in cells):
                    continue
                if avoid and any((name, r, c) in avoid for r, c in s.coords):
                    continue
                out.append(s)
        return out

    def take(self, s: SelC) -> list[MC]:
        out = []
        for rc in s.coords:
            c = self.at(s.region, rc)
            out.append(c if c is not None else MC(None, None))
            self.put(s.region, rc, None)
        return out

    def known_up(self, s: SelC) -> bool:
        return all((c := self.at(s.region, rc)) is not None and c.up is True for rc in s.coords)

    def new_cards(self, n: int) -> tuple[str, list[MC]]:
        """Text of n new cards from the supply, and their model."""
        up = False
        if n == 2 and self.chance(50):
            enc = self.pick(["bit", "hbit"])
            v = self.number(0, 1)
            faces = BIT_FACES[enc] if v == 0 else BIT_FACES[enc][::-1]
            return f"{enc}({v})", [MC(up, f) for f in faces]
        faces = [self.pick(FACES) for _ in range(n)]
        if n == 1 and self.chance(15):
            return faces[0], [MC(up, faces[0])]  # a bare card name is a new card too
        return f"new({', '.join(faces)})", [MC(up, f) for f in faces]

    # -- steps ---------------------------------------------------------------------------
    def actions(self) -> list[str]:
        kinds = ["place", "place", "rearrange", "swap", "move", "turn", "turn", "discard", "shuffle"]
        kinds += ["shuffle", "shuffle", "let", "if", "fill", "for", "return"]
        if self.role != "main":  # a callee that fills hands: its caller must say who holds them
            kinds += ["return", "return"]
        if self.hands:
            kinds += ["return", "tohand"]
        matrices = [reg for reg in self.m.values() if reg.rows >= 2 and reg.cols >= 2]
        if matrices:
            kinds += ["take", "take", "for", "for", "shuffle"]
        rows_up = [
            row
            for reg in self.m.values()
            for row in reg.grid
            if len(row) >= 2 and all(c is not None and c.up is True for c in row)
        ]
        if rows_up:
            kinds += ["shift", "shift", "shift", "let", "if"]
        if self.callee is not None:
            kinds += ["call", "call", "call", "call", "call"]
            if self.pair_callee() and any(reg.rows == 2 and 2 <= reg.cols <= 3 for reg in self.m.values()):
                kinds += ["forcall", "forcall", "forcall"]
        return kinds

    def pair_callee(self) -> bool:
        """Whether the callee takes one pair and gives one pair back (it can run in a loop)."""
        c = self.callee
        if c is None or len(c.inputs) != 1 or len(c.card_outputs) != 1:
            return False
        return len(c.card_outputs[0][1]) == 2

    def act_forcall(self) -> dict[str, Any] | None:
        return self._for_call()

    def action(self, kind: str) -> dict[str, Any] | None:
        method = getattr(self, f"act_{kind}")
        result: dict[str, Any] | None = method()
        if result is not None:
            self.features.add(kind)
        return result

    def steps(self, n: int) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        number = 0
        tries = 0
        if self.role == "main" and self.chance(70 if self.pair_callee() else 40):
            step = self.opening()  # a matrix to start with: take, shift and call loops need one
            if step is not None:
                number += 1
                out.append({"step": str(number), "say": f"Step {number}: lay out a matrix.", **step})
        while len(out) < n and tries < 4 * n:
            tries += 1
            kind = self.pick(self.actions())
            step = self.action(kind)
            if step is None:
                continue
            number += 1
            out.append({"step": str(number), "say": f"Step {number}: {kind}.", **step})
        if self.callee is not None and "call" not in self.features:
            step = self.act_call()  # a library with a callee should call it
            if step is not None:
                self.features.add("call")
                number += 1
                out.append({"step": str(number), "say": f"Step {number}: call.", **step})
        return out

    def opening(self) -> dict[str, Any] | None:
        if "c" in self.m and "xs" in self.m and self.chance(60):
            # the lottery's layout: label card above its bit, one column per candidate
            name = self.fresh_region()
            cols = [[self.m["c"].grid[0][i]] + self.m["xs"].grid[0][2 * i : 2 * i + 2] for i in range(2)]
            del self.m["c"], self.m["xs"]
            self.m[name] = MRegion([[cols[c][r] for c in range(2)] for r in range(3)], 1)  # type: ignore[misc]
            self.features.add("place-comprehension")
            place = {"place": {name: {"columns": "[[c[i], xs[i]] for i in 1..2]"}}}
            if not self.chance(60):
                return place
            # scrambled at once, like the lottery: later steps touch some rows of the lazy piles
            piles = [[(name, r, c) for r in (1, 2, 3)] for c in (1, 2)]
            self._shuffle_model(piles)
            self.branch *= 2
            self.features.add("shuffle-scramble-labelled")
            steps: list[dict[str, Any]] = [place, {"shuffle": {"scramble": f"columns({name})"}}]
            if self.chance(50):
                # the bits of every column turned: only those rows are drawn, the labels above
                # equal bits stay scrambled; a second scramble then splits them by kind of place
                for c in (1, 2):
                    for r in (2, 3):
                        cell = self.at(name, (r, c))
                        if cell is not None and cell.up is not None:
                            cell.up = not cell.up
                steps.append({"turn": f"{name}[2..3, *]"})
                if self.chance(60):
                    self._shuffle_model(piles)
                    self.branch *= 2
                    steps.append({"shuffle": {"scramble": f"columns({name})"}})
            return {"do": steps}
        if self.pair_callee() and self.chance(70):
            return self.pair_matrix()
        if self.chance(30):
            return self.marker_rows()
        step = self.act_place(self.pick(["rows", "columns"]))
        if step is not None:
            self.features.add("place")
        return step

    def marker_rows(self) -> dict[str, Any] | None:
        """Face-up new cards above face-down cards: shuffling the columns shows the permutation."""
        options = [x for x in self.sels(lo=2, hi=3) if x.shape[0] == 1]
        if not options:
            return None
        sel = self.pick(options)
        n = len(sel.coords)
        faces = list(self.draw(st.permutations(FACES)))[:n]  # distinct: the order shows
        below = [MC(c.up, c.sym) for c in (self.at(sel.region, rc) for rc in sel.coords) if c]
        self.take(sel)
        name = self.fresh_region()
        self.m[name] = MRegion([[MC(True, f) for f in faces], below], 1)
        self.normalize()
        self.features.add("marker-rows")
        rows = [f"new({', '.join(faces)})", sel.text]
        if self.chance(50):
            rows.reverse()
            self.m[name].grid.reverse()
        place = {"place": {name: {"rows": rows}}, "face": "up"}
        kind = self.pick(["scramble", "shift", "set", "none"])
        if kind == "none" or self.branch * math.factorial(n) > self.max_branch:
            return place
        piles = [[(name, r, c) for r in (1, 2)] for c in range(1, n + 1)]
        self._shuffle_model(piles)
        if kind == "set":
            perms = [list(p) for p in itertools.permutations(range(1, n + 1))]
            chosen = [self.pick(perms) for _ in range(self.number(2, 3))]
            shuffle: dict[str, Any] = {"set": chosen, "piles": f"columns({name})", "how": "Roll a die."}
            self.branch *= len(chosen)
        else:
            shuffle = {kind: f"columns({name})"}
            self.branch *= math.factorial(n) if kind == "scramble" else n
        self.features.add(f"shuffle-{kind}")
        return {"do": [place, {"shuffle": shuffle}]}

    def pair_matrix(self) -> dict[str, Any] | None:
        """Two or three pairs as the columns of a 2-row matrix (input pairs or new bits)."""
        name = self.fresh_region()
        texts = []
        columns: list[list[MC]] = []
        taken: set[tuple[str, int, int]] = set()
        for _ in range(self.number(2, 3)):
            options = self.sels(size=2, avoid=taken)
            if options and self.chance(70):
                sel = self.pick(options)
                taken |= {(sel.region, r, c) for r, c in sel.coords}
                texts.append(sel.text)
                columns.append([MC(x.up, x.sym) for x in (self.at(sel.region, rc) for rc in sel.coords) if x])
            elif self.count() + len(taken) + 2 <= MAX_CARDS:
                text, cards = self.new_cards(2)
                texts.append(text)
                columns.append(cards)
        if len(columns) < 2:
            return None
        self._apply_takes(taken)
        self.m[name] = MRegion([[col[r] for col in columns] for r in range(2)], 1)
        self.normalize()
        self.features.add("place-columns")
        return {"place": {name: {"columns": texts}}}

    # place: new regions from input cards and new cards, as a row, rows or columns
    def act_place(self, form: str | None = None) -> dict[str, Any] | None:
        budget = MAX_CARDS - self.count()
        form = form or self.pick(["row", "row", "row", "rows", "columns"])
        up = self.chance(12)
        name = self.fresh_region()
        taken: set[tuple[str, int, int]] = set()
        texts: list[str] = []
        lines: list[list[MC]] = []
        if form == "row":
            for _ in range(self.number(1, 3)):
                if self.chance(55):
                    options = self.sels(hi=4, avoid=taken)
                    if options:
                        s = self.pick(options)
                        taken |= {(s.region, r, c) for r, c in s.coords}
                        texts.append(s.text)
                        lines.append(
                            [MC(c.up, c.sym) for c in (self.at(s.region, rc) for rc in s.coords) if c]
                        )
                        continue
                n = self.number(1, 2)
                if n > budget:
                    continue
                budget -= n
                text, cards = self.new_cards(n)
                texts.append(text)
                lines.append([MC(True if up else c.up, c.sym) for c in cards])
            if not texts:
                return None
            grid_cards = [c for line in lines for c in line]
            self._apply_takes(taken)
            self.m[name] = MRegion([list(grid_cards)], 1)
            self.normalize()
            step: dict[str, Any] = {"place": {name: texts}}
        else:
            width = self.number(1, 3)
            k = self.number(2, 3)
            for _ in range(k):
                options = self.sels(size=width, avoid=taken) if self.chance(50) else []
                if options:
                    s = self.pick(options)
                    taken |= {(s.region, r, c) for r, c in s.coords}
                    texts.append(s.text)
                    lines.append([MC(c.up, c.sym) for c in (self.at(s.region, rc) for rc in s.coords) if c])
                    continue
                if width > budget:
                    return None
                budget -= width
                text, cards = self.new_cards(width)
                texts.append(text)
                lines.append([MC(True if up else c.up, c.sym) for c in cards])
            self._apply_takes(taken)
            if form == "rows":
                grid = [list(line) for line in lines]
            else:
                grid = [[lines[c][r] for c in range(len(lines))] for r in range(width)]
            self.m[name] = MRegion(grid, 1)
            self.normalize()
            step = {"place": {name: {form: texts}}}
            self.features.add(f"place-{form}")
        if up:
            step["face"] = "up"
        return step

    def _apply_takes(self, taken: set[tuple[str, int, int]]) -> None:
        for reg, r, c in taken:
            if reg in self.m:
                self.m[reg].grid[r - 1][c - 1] = None

    # fill: cards into empty places, or a new row below a row
    def act_fill(self) -> dict[str, Any] | None:
        holes = self.sels(occupied=False, hi=3)
        grow = [
            name
            for name, reg in self.m.items()
            if reg.rows == 1 and reg.unit == 1 and 2 <= reg.cols <= 4 and self.count() + 1 <= MAX_CARDS
        ]
        if not holes and not grow:
            return None
        if holes and (not grow or self.chance(60)):
            target = self.pick(holes)
            n = len(target.coords)
            key = target.text
            cells = [(target.region, rc) for rc in target.coords]
        else:
            name = self.pick(grow)
            cols = self.m[name].cols
            a = self.number(1, cols)
            b = self.number(a, min(cols, a + MAX_CARDS - self.count() - 1))
            key = f"{name}[2, {a}]" if a == b else f"{name}[2, {a}..{b}]"
            self.m[name].grid.append([None] * cols)
            n = b - a + 1
            cells = [(name, (2, c)) for c in range(a, b + 1)]
            self.features.add("fill-new-row")
        sources = self.sels(size=n, avoid={(r, *rc) for r, rc in cells})
        if sources and self.chance(50):
            s = self.pick(sources)
            cards = self.take(s)
            src = s.text
        else:
            if self.count() + n > MAX_CARDS:
                self.normalize()
                return None
            src, cards = self.new_cards(n)
        for (region, rc), card in zip(cells, cards):
            self.put(region, rc, card)
        self.normalize()
        return {"place": {key: src}}

    def act_rearrange(self) -> dict[str, Any] | None:
        options = [n for n, reg in self.m.items() if reg.cols >= 2 or reg.rows >= 2]
        if not options:
            return None
        name = self.pick(options)
        reg = self.m[name]
        if reg.rows == 1:
            perm = list(self.draw(st.permutations(list(range(1, reg.cols + 1)))))
            reg.grid = [[reg.grid[0][i - 1] for i in perm]]
            if self.chance(15):
                rev = list(range(reg.cols, 0, -1))
                reg.grid = [[reg.grid[0][i - 1] for i in rev]]
                return {
                    "do": [{"rearrange": {name: perm}}, {"rearrange": {name: f"reversed(1..{reg.cols})"}}]
                }
            return {"rearrange": {name: perm}}
        axis = "columns" if reg.cols >= 2 and (reg.rows < 2 or self.chance(60)) else "rows"
        n = reg.cols if axis == "columns" else reg.rows
        perm = list(self.draw(st.permutations(list(range(1, n + 1)))))
        if axis == "rows":
            reg.grid = [reg.grid[i - 1] for i in perm]
        else:
            reg.grid = [[row[i - 1] for i in perm] for row in reg.grid]
        self.normalize(keep=(name,))
        self.features.add("rearrange-" + axis)
        return {"rearrange": {name: {axis: perm}}}

    def act_swap(self) -> dict[str, Any] | None:
        with_holes = "swap-with-empty" not in AVOID and self.chance(4)
        first = self.sels(occupied=not with_holes, hi=3)
        if not first:
            return None
        a = self.pick(first)
        seen = {(a.region, r, c) for r, c in a.coords}
        second = self.sels(size=len(a.coords), avoid=seen)
        if not second:
            return None
        b = self.pick(second)
        for rx, ry in zip(a.coords, b.coords):
            x, y = self.at(a.region, rx), self.at(b.region, ry)
            self.put(a.region, rx, y)
            self.put(b.region, ry, x)
        if with_holes:
            self.features.add("swap-with-empty")
        return {"swap": [a.text, b.text]}

    def act_move(self) -> dict[str, Any] | None:
        sources = self.sels(hi=4)
        if not sources:
            return None
        s = self.pick(sources)
        holes = self.sels(occupied=False, size=len(s.coords))
        if holes and self.chance(40):
            t = self.pick(holes)
            cards = self.take(s)
            for rc, card in zip(t.coords, cards):
                self.put(t.region, rc, card)
            self.normalize()
            self.features.add("move-into-holes")
            return {"move": {t.text: s.text}}
        pairs = {}
        for _ in range(2 if self.chance(25) else 1):
            name = self.fresh_region()
            cards = self.take(s)
            rows, cols = s.shape if s.shape[0] * s.shape[1] == len(cards) else (1, len(cards))
            self.m[name] = MRegion([cards[r * cols : (r + 1) * cols] for r in range(rows)], 1)
            pairs[name] = s.text
            more = self.sels(hi=3, regions=[n for n in self.m if n not in pairs])
            if not more:
                break
            s = self.pick(more)  # a second pair is resolved on the table before the step
            if any(self.at(s.region, rc) is None for rc in s.coords):
                break
        if len(pairs) > 1:
            self.features.add("move-two-pairs")
        self.normalize()
        return {"move": pairs}

    def act_turn(self) -> dict[str, Any] | None:
        options = self.sels(hi=4)
        if not options:
            return None
        s = self.pick(options)
        texts = [s.text]
        cells = [(s.region, rc) for rc in s.coords]
        if self.chance(15):
            more = self.sels(hi=2, avoid={(s.region, r, c) for r, c in s.coords})
            if more:
                t = self.pick(more)
                texts.append(t.text)
                cells += [(t.region, rc) for rc in t.coords]
        for region, rc in cells:
            c = self.at(region, rc)
            if c is not None and c.up is not None:
                c.up = not c.up
        return {"turn": texts[0] if len(texts) == 1 else "[" + ", ".join(texts) + "]"}

    def act_discard(self) -> dict[str, Any] | None:
        options = self.sels()
        if not options:
            return None
        s = self.pick(options)
        self.take(s)
        self.normalize()
        return {"discard": s.text}

    # hands: cards go in and stay there until they are an output
    HAND_NAMES = ("hand1", "hand2", "alice", "bob")

    def _hand_text(self, name: str) -> str:
        """How ``return: to:`` names a hand: an owner number, or a name in quotes."""
        return name[4:] if name.startswith("hand") else f"'{name}'"

    def act_return(self) -> dict[str, Any] | None:
        if sum(len(h) for h in self.hands.values()) >= 4:
            return None
        options = self.sels(hi=3)
        if not options:
            return None
        s = self.pick(options)
        n = len(s.coords)
        if n >= 2 and self.chance(25):
            names = [self.pick(self.HAND_NAMES) for _ in range(n)]
            to = "[" + ", ".join(self._hand_text(h) for h in names) + "]"
            self.features.add("return-several-hands")
        else:
            names = [self.pick(self.HAND_NAMES)] * n
            to = self._hand_text(names[0])
        cards = self.take(s)
        for name, card in zip(names, cards):
            self.hands.setdefault(name, []).append(card)
            self.filled.add(name)
        self.normalize()
        self.features.add("return")
        return {"return": {"cards": s.text, "to": int(to) if to.isdigit() else to}}

    def act_tohand(self) -> dict[str, Any] | None:
        """Cards moved onto the end of a hand that is already there."""
        if not self.hands or sum(len(h) for h in self.hands.values()) >= 4:
            return None
        options = self.sels(hi=2)
        if not options:
            return None
        s = self.pick(options)
        name = self.pick(sorted(self.hands))
        self.hands[name].extend(self.take(s))
        self.normalize()
        self.features.add("move-onto-hand")
        return {"move": {name: s.text}}

    def act_take(self) -> dict[str, Any] | None:
        options = [n for n, reg in self.m.items() if reg.rows >= 2 and reg.cols >= 2]
        if not options:
            return None
        name = self.pick(options)
        reg = self.m[name]
        into = self.fresh_region()
        up_rows = [
            r + 1 for r, row in enumerate(reg.grid) if all(c is not None and c.up is True for c in row)
        ]
        if up_rows and self.role == "main" and self.chance(50):
            # columns chosen by the faces: how many (if any) depends on the run
            r = self.pick(up_rows)
            columns = f"[j for j in 1..ncols({name}) if {name}[{r}, j] == {self.pick(FACES)}]"
            del self.m[name]
            self.shaky |= {name, into}
            self.features.add("take-data")
            return {"take": {"from": name, "columns": columns, "into": into}}
        cols = sorted(set(self.draw(st.lists(st.integers(1, reg.cols), min_size=1, max_size=reg.cols - 1))))
        self.m[into] = MRegion([[row[c - 1] for c in cols] for row in reg.grid], 1)
        keep = [c for c in range(1, reg.cols + 1) if c not in cols]
        reg.grid = [[row[c - 1] for c in keep] for row in reg.grid]
        self.normalize()
        return {"take": {"from": name, "columns": str(cols), "into": into}}

    # shuffles
    def _pile_options(self, kmin: int, kmax: int) -> list[tuple[Any, list[list[tuple[str, int, int]]]]]:
        out: list[tuple[Any, list[list[tuple[str, int, int]]]]] = []
        for name, reg in self.m.items():
            full = all(c is not None for row in reg.grid for c in row)
            if full and reg.rows >= 2 and kmin <= reg.cols <= kmax:
                piles = [[(name, r, c) for r in range(1, reg.rows + 1)] for c in range(1, reg.cols + 1)]
                out.append((f"columns({name})", piles))
            if full and reg.rows == 1 and reg.unit > 1 and kmin <= reg.cols // reg.unit <= kmax:
                u = reg.unit
                piles = [
                    [(name, 1, c) for c in range(i * u + 1, (i + 1) * u + 1)] for i in range(reg.cols // u)
                ]
                out.append((f"items({name})", piles))
            if full and reg.rows == 1 and reg.cols % 2 == 0 and kmin <= reg.cols // 2 <= kmax:
                piles = [[(name, 1, c), (name, 1, c + 1)] for c in range(1, reg.cols + 1, 2)]
                out.append((f"piles({name}, 2)", piles))
        for s in self.sels(lo=max(kmin, 2), hi=kmax):
            if s.shape[0] == 1 or s.shape[1] == 1:
                out.append((f"cards({s.text})", [[(s.region, r, c)] for r, c in s.coords]))
        firsts = self.sels(hi=3)
        if firsts:
            a = self.pick(firsts)
            piles = [[(a.region, r, c) for r, c in a.coords]]
            texts = [a.text]
            avoid = {(a.region, r, c) for r, c in a.coords}
            for _ in range(self.number(1, max(1, kmax - 1))):
                more = self.sels(size=len(a.coords), avoid=avoid)
                if not more:
                    break
                b = self.pick(more)
                piles.append([(b.region, r, c) for r, c in b.coords])
                texts.append(b.text)
                avoid |= {(b.region, r, c) for r, c in b.coords}
            if kmin <= len(piles) <= kmax:
                out.append((texts, piles))
        return out

    def _shuffle_model(self, piles: list[list[tuple[str, int, int]]]) -> None:
        for j in range(len(piles[0])):
            cards = [self.at(p[j][0], (p[j][1], p[j][2])) for p in piles]
            ups = {c.up if c is not None else None for c in cards}
            syms = {c.sym if c is not None else None for c in cards}
            up = ups.pop() if len(ups) == 1 else None
            sym = syms.pop() if len(syms) == 1 else None
            for p in piles:
                self.put(p[j][0], (p[j][1], p[j][2]), MC(up, sym))

    def act_shuffle(self) -> dict[str, Any] | None:
        kind = self.pick(["scramble", "scramble", "shift", "cut", "bisect", "set", "set"])
        room = self.max_branch // self.branch
        if room < 2:
            return None
        if kind in ("cut", "bisect"):
            options = [s for s in self.sels(lo=2, hi=6) if kind == "cut" or len(s.coords) % 2 == 0]
            if kind == "cut":
                options = [s for s in options if len(s.coords) <= room]
            if not options:
                return None
            s = self.pick(options)
            flat = [(s.region, r, c) for r, c in s.coords]
            if kind == "cut":
                piles = [[f] for f in flat]
                factor = len(flat)
            else:
                h = len(flat) // 2
                piles = [flat[:h], flat[h:]]
                factor = 2
            self._shuffle_model(piles)
            self.branch *= factor
            self.features.add(f"shuffle-{kind}")
            return {"shuffle": {kind: s.text}}
        kmax = 4 if kind != "scramble" else 3
        options = self._pile_options(2, kmax)
        if not options:
            return None
        text, piles = self.pick(options)
        k = len(piles)
        if kind == "scramble":
            factor = math.factorial(k)
        elif kind == "shift":
            factor = k
        else:
            perms = list(itertools.permutations(range(1, k + 1)))
            chosen = [list(self.pick(perms)) for _ in range(self.number(1, 4))]
            if self.chance(40):
                chosen.append(list(self.pick(chosen)))  # listed twice: twice as likely
                self.features.add("set-repeated")
            factor = len(chosen)
        if factor > room:
            return None
        self.branch *= factor
        self._shuffle_model(piles)
        self.features.add(f"shuffle-{kind}")
        if isinstance(text, list) and len(text) == 1:
            text = text[0]
        if kind == "set":
            return {
                "shuffle": {"set": chosen, "piles": text, "how": "Roll a die to pick an entry of the list."}
            }
        return {"shuffle": {kind: text}}

    def act_shift(self) -> dict[str, Any] | None:
        options = []
        for name, reg in self.m.items():
            for r in range(1, reg.rows + 1):
                row = reg.grid[r - 1]
                if len(row) >= 2 and all(c is not None and c.up is True for c in row):
                    syms = [c.sym for c in row if c is not None and c.sym is not None]
                    if not syms and not self.chance(10):
                        continue
                    full = all(c is not None for rr in reg.grid for c in rr)
                    if reg.rows > 1 and not full:
                        continue
                    options.append((name, r, syms))
        if not options:
            return None
        name, r, syms = self.pick(options)
        reg = self.m[name]
        sym = symtext(self.pick(syms) if syms else self.pick(FACES))
        c = self.number(1, reg.cols)
        if reg.rows == 1:
            piles = f"cards({name})" if reg.unit == 1 or self.chance(50) else f"cards({name}[1, *])"
            until = f"{name}[1, {c}] == {sym}"
        else:
            piles = f"columns({name})"
            until = f"{name}[{r}, {c}] == {sym}"
        for j in range(reg.rows):
            for cc in reg.grid[j]:
                if cc is not None:
                    cc.sym = None
        self.features.add("shift-until")
        return {"shift": {"piles": piles, "until": until}}

    # public decisions
    def _face_up(self, size: int | None = None) -> list[SelC]:
        return [s for s in self.sels(size=size, hi=2) if self.known_up(s)]

    def fill_faces(self, template: str) -> str:
        """Replace each ``{F}`` of a chosen template by a card name (drawn only when used)."""
        while "{F}" in template:
            template = template.replace("{F}", self.pick(FACES), 1)
        return template

    def condition(self) -> str | None:
        options: list[str] = []
        for s in self._face_up(1):
            options.append(f"{s.text} == {{F}}")
        for s in self._face_up(2):
            options.append(f"{s.text} == [{{F}}, {{F}}]")
            c1, c2 = (self.at(s.region, rc) for rc in s.coords)
            if c1 and c2 and {c1.sym, c2.sym} == {"al", "be"}:
                options.append(f"decode(bit, {s.text}) == 1")
        for v, kind in self.vars.items():
            options.append(f"{v} == 1" if kind == "int" else f"{v} == {{F}}" if kind == "sym" else v)
        for name in self.m:
            options.append(f"exists('{name}')")
        options += ["len(up()) > 0", "len(up()) > 1", "len(down()) > 2"]
        if self.chance(5):  # a decision that reads a card that may be face down (a run error)
            some = self.sels(size=1)
            if some:
                self.features.add("maybe-leak")
                return f"{self.pick(some).text} == {self.pick(FACES)}"
        return self.fill_faces(self.pick(options)) if options else None

    def act_let(self) -> dict[str, Any] | None:
        options: list[tuple[str, str]] = []
        for s in self._face_up(1):
            options.append((s.text, "bare"))
            options.append((f"1 if {s.text} == {{F}} else 0", "int"))
        for s in self._face_up(2):
            c1, c2 = (self.at(s.region, rc) for rc in s.coords)
            if c1 and c2 and {c1.sym, c2.sym} == {"al", "be"}:
                options.append((f"decode(bit, {s.text})", "int"))
            options.append((f"faces({s.text})", "list"))
        for name, reg in self.m.items():
            if reg.rows == 1 and all(c is not None and c.up is True for c in reg.grid[0]):
                options.append((f"[k for k in 1..{reg.cols} if {name}[1, k] == {{F}}]", "list"))
        options += [("len(up())", "int"), ("len(down())", "int"), ("2", "int")]
        options += [(f"exists('{name}')", "bool") for name in self.m]
        expr, kind = self.pick(options)
        if kind == "bare":  # a face-up card: as it is, or through faces()
            kind = "sym"
            if "bare-selection-value" in AVOID or not self.chance(50):
                expr = f"faces({expr})"
        name = self.fresh_var("v")
        self.vars[name] = kind
        return {"let": {name: self.fill_faces(expr)}}

    def _branch_body(self, layout: bool) -> list[dict[str, Any]]:
        body = []
        kinds = ["swap", "rearrange", "turn", "turn", "shuffle"]
        if layout:  # a branch that changes the layout: the table then differs between runs
            kinds += ["discard", "move", "place"]
        for _ in range(self.number(1, 2)):
            kind = self.pick(kinds)
            if kind == "shuffle" and self.max_branch // self.branch < 4:
                continue
            step = self.action(kind)
            if step is not None:
                body.append(step)
        return body

    def act_if(self) -> dict[str, Any] | None:
        cond = self.condition()
        if cond is None:
            return None
        layout = self.role == "main" and self.chance(25)
        saved = {k: v.copy() for k, v in self.m.items()}
        branch0 = self.branch
        then = self._branch_body(layout)
        after_then, branch_then = self.m, self.branch
        self.m = {k: v.copy() for k, v in saved.items()}
        self.branch = branch0
        other = self._branch_body(layout) if self.chance(50) else []
        self.branch = max(self.branch, branch_then)
        if not then:
            self.m = saved
            return None
        self.merge(after_then)
        step: dict[str, Any] = {"if": cond, "then": then}
        if other:
            step["else"] = other
        return step

    def merge(self, other: dict[str, MRegion]) -> None:
        """Join the models of two branches: what differs is no longer known; a region whose
        shape or places differ may or may not be there (it is set aside as shaky)."""
        merged: dict[str, MRegion] = {}
        for name in list(self.m) + [n for n in other if n not in self.m]:
            a, b = self.m.get(name), other.get(name)
            same = (
                a is not None
                and b is not None
                and a.rows == b.rows
                and a.cols == b.cols
                and all((x is None) == (y is None) for ra, rb in zip(a.grid, b.grid) for x, y in zip(ra, rb))
            )
            if not same:
                self.shaky.add(name)
                self.features.add("shaky-layout")
                continue
            assert a is not None and b is not None
            for ra, rb in zip(a.grid, b.grid):
                for x, y in zip(ra, rb):
                    if x is not None and y is not None:
                        x.up = x.up if x.up == y.up else None
                        x.sym = x.sym if x.sym == y.sym else None
            merged[name] = a
        self.m = merged

    def act_for(self) -> dict[str, Any] | None:
        kind = self.pick(["positions", "positions", "data", "call"])
        if kind == "call":
            return self._for_call()
        rows = [n for n, reg in self.m.items() if reg.rows == 1 and 2 <= reg.cols <= 4 and all(reg.grid[0])]
        if not rows:
            return None
        name = self.pick(rows)
        reg = self.m[name]
        index = f"{name}[1, i]"
        if kind == "data":
            if not all(c is not None and c.up is True for c in reg.grid[0]):
                return None
            values = f"[k for k in 1..{reg.cols} if {name}[1, k] == {self.pick(FACES)}]"
            for c in reg.grid[0]:
                if c is not None:
                    c.up = None
            self.features.add("for-data")
            return {"for": {"i": values}, "do": [{"turn": index}]}
        body_kind = self.pick(["turn", "turn", "discard"])
        if body_kind == "discard":
            del self.m[name]
        else:
            for c in reg.grid[0]:
                if c is not None and c.up is not None:
                    c.up = not c.up
        bound = f"1..{reg.cols}" if self.chance(50) else f"1..ncols({name})"
        return {"for": {"i": bound}, "do": [{body_kind: index}]}

    # calls
    def _call_results(
        self, callee: CalleeInfo, args: list[SelC]
    ) -> tuple[dict[str, str], list[tuple[str, tuple[int, ...] | None, list[MC], tuple[int, int]]]]:
        results: dict[str, str] = {}
        placed = []
        free = [a for a in args if not a.whole]
        for oname, cards, shape in callee.card_outputs:
            back = [a for a in free if len(a.coords) == len(cards)]
            if self.hands and cards and self.chance(20):
                name = self.pick(sorted(self.hands))
                results[oname] = name
                placed.append((name, "hand", cards, shape))
                self.features.add("call-results-onto-hand")
            elif back and self.chance(40):
                a = self.pick(back)
                free.remove(a)
                results[oname] = a.text
                placed.append((a.region, tuple(a.coords), cards, shape))  # type: ignore[arg-type]
            else:
                name = self.fresh_region()
                results[oname] = name
                placed.append((name, None, cards, shape))
        for vname in callee.value_outputs:
            if self.chance(70):
                var = self.fresh_var("w")
                results[vname] = var
                self.vars[var] = "any"
        return results, placed

    def _place_results(self, placed: list[Any]) -> None:
        for name, coords, cards, shape in placed:
            cards = [MC(c.up, None) for c in cards]
            if coords == "hand":
                self.hands[name].extend(cards)
            elif coords is None:
                n = len(cards)
                if n == 0:
                    continue
                rows, cols = shape if shape[0] * shape[1] == n else (1, n)
                self.m[name] = MRegion([cards[r * cols : (r + 1) * cols] for r in range(rows)], 1)
            else:
                if name not in self.m:
                    continue
                for rc, card in zip(coords, cards):
                    self.put(name, rc, card)
        self.normalize()

    def act_call(self) -> dict[str, Any] | None:
        callee = self.callee
        if callee is None or self.branch * callee.branch > self.max_branch:
            return None
        args: list[SelC] = []
        avoid: set[tuple[str, int, int]] = set()
        for _ in callee.inputs:
            options = self.sels(size=2, avoid=avoid)
            if not options:
                return None
            a = self.pick(options)
            args.append(a)
            avoid |= {(a.region, r, c) for r, c in a.coords}
        for a in args:
            self.take(a)
        results, placed = self._call_results(callee, args)
        self._place_results(placed)
        self.branch *= callee.branch
        step: dict[str, Any] = {"call": callee.name, "with": {n: a.text for n, a in zip(callee.inputs, args)}}
        if results:
            step["results"] = results
        step.update(self.seating(callee))
        return step

    PEOPLE = ("ann", "ben", "robot")

    def seating(self, callee: CalleeInfo) -> dict[str, Any]:
        """Who holds the callee's hands: ``hands:`` (a hand of the callee -> a hand here, which the
        spec's players may hold), or ``players:`` (a player the callee declares -> a player here);
        now and then none (refused where people sit here), or one hand left out (a run that
        fills it cannot be carried out)."""
        if not callee.hands:
            return {}
        how = self.pick(["hands", "hands", "hands", "players", "none", "partial"])
        if how == "players" and callee.players and self.role == "main":
            mapping = {p: self.pick(self.PEOPLE) for p in sorted(callee.players)}
            self.mapped_players.update(mapping.values())
            self.features.add("call-players-mapping")
            return {"players": mapping}
        if how == "none":
            self.features.add("call-no-seating")
            return {}
        hands = sorted(callee.hands)
        if how == "partial" and len(hands) > 1:
            hands = hands[1:]
            self.features.add("call-hand-left-out")
        mapping = {h: self.pick(self.HAND_NAMES) for h in hands}
        self.mapped_hands.update(mapping.values())
        self.features.add("call-hands-mapping")
        return {"hands": {_hand_key(k): _hand_key(v) for k, v in mapping.items()}}

    def _for_call(self) -> dict[str, Any] | None:
        callee = self.callee
        if callee is None or len(callee.inputs) != 1:
            return None
        if len(callee.card_outputs) != 1 or len(callee.card_outputs[0][1]) != 2:
            return None
        mats = [
            n
            for n, reg in self.m.items()
            if reg.rows == 2 and 2 <= reg.cols <= 3 and all(c is not None for row in reg.grid for c in row)
        ]
        if not mats:
            return None
        name = self.pick(mats)
        reg = self.m[name]
        if self.branch * callee.branch**reg.cols > self.max_branch:
            return None
        self.branch *= callee.branch**reg.cols
        oname, cards, _ = callee.card_outputs[0]
        for c in range(reg.cols):
            reg.grid[0][c] = MC(cards[0].up, None)
            reg.grid[1][c] = MC(cards[1].up, None)
        results = {oname: f"{name}[*, i]"}
        for vname in callee.value_outputs:
            if self.chance(50):
                results[vname] = self.fresh_var("w")
        self.features.add("for-call")
        self.features.add("call")
        call = {"call": callee.name, "with": {callee.inputs[0]: f"{name}[*, i]"}, "results": results}
        return {"for": {"i": f"1..ncols({name})"}, "do": [{**call, **self.seating(callee)}]}

    # -- outputs -------------------------------------------------------------------------
    def cover(self, name: str, cards: list[tuple[int, int]]) -> str:
        """A selection of exactly the cards of a region (its name when it has no empty place)."""
        reg = self.m[name]
        if len(cards) == reg.rows * reg.cols:
            return name
        exact = [s for s in self.candidates(name) if sorted(s.coords) == sorted(cards)]
        if exact:
            return str(self.pick(exact).text)
        return "[" + ", ".join(f"{name}[{r}, {c}]" for r, c in cards) + "]"

    def pair_output(self, pair: SelC) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
        """One output of two cards; every other card goes back to the supply."""
        cleanup = []
        for name, reg in self.m.items():
            rest = [
                (r + 1, c + 1)
                for r in range(reg.rows)
                for c in range(reg.cols)
                if reg.grid[r][c] is not None and not (name == pair.region and (r + 1, c + 1) in pair.coords)
            ]
            if rest:
                cleanup.append({"discard": self.cover(name, rest)})
        enc = self.pick(["bit", "faces", "cards", "cards"])
        outs: dict[str, dict[str, Any]] = {"o1": {"cards": pair.text, "encoding": enc}}
        self.features.add(f"output-{enc}")
        if self.vars and self.chance(40):
            outs["o2"] = {"public": True, "value": self.pick(list(self.vars))}
        self.features.add("pair-output")
        return cleanup, outs

    def outputs(self, tidy_percent: int) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
        """Final clean-up steps and output declarations (without equals/uniform)."""
        cleanup: list[dict[str, Any]] = []
        outs: dict[str, dict[str, Any]] = {}
        k = 0
        for name in list(self.m):
            reg = self.m[name]
            cards = [
                (r + 1, c + 1) for r in range(reg.rows) for c in range(reg.cols) if reg.grid[r][c] is not None
            ]
            if not cards:
                continue
            fate = self.pick(["output", "output", "output", "discard", "discard", "leave", "leave"])
            if fate == "leave" and self.chance(tidy_percent):
                fate = "output"
            if fate == "discard":
                cleanup.append({"discard": self.cover(name, cards)})
                continue
            if fate == "leave":
                self.features.add("untidy")
                continue
            k += 1
            sel = name
            n = len(cards)
            exact = [s for s in self.candidates(name) if sorted(s.coords) == sorted(cards)]
            if exact and (len(cards) < reg.rows * reg.cols or self.chance(30)):
                sel = self.pick(exact).text
            if n == 2:
                enc = self.pick(["bit", "bit", "hbit", "faces", "cards", "bit", "faces", "cards", "card"])
            elif n == 1:
                enc = self.pick(["card", "card", "faces", "cards"])
            elif n == 3:
                enc = self.pick(["cards", "faces", "num", "num"])
            else:
                enc = self.pick(["cards", "faces", "faces", "bit"])
            if self.role == "main" and outs and self.chance(10):
                # one output of several groups: a list of values, one per group
                prev = next(reversed(outs))
                if "cards" in outs[prev] and not str(outs[prev]["cards"]).startswith("["):
                    outs[prev]["cards"] = f"[{outs[prev]['cards']}, {sel}]"
                    self.features.add("output-groups")
                    continue
            decl: dict[str, Any] = {"cards": sel, "encoding": enc}
            if self.chance((12 if n == 1 else 18) + (10 if self.role != "main" else 0)):
                decl["public"] = True
                self.features.add("shown-output" if n == 1 else "shown-output-several")
                if enc == "cards" and self.chance(35):
                    decl["show"] = "mixed"
                    self.features.add("shown-mixed")
            outs[f"o{k}"] = decl
            self.features.add(f"output-{enc}")
        for name, cards in self.hands.items():
            # a hand is read whole, as a multiset (or one card); it cannot go back to the supply
            if not self.chance(tidy_percent) and self.chance(40):
                self.features.add("untidy")
                continue
            k += 1
            enc = "card" if len(cards) == 1 and self.chance(50) else "cards"
            hand_expr = self.role == "main" and name.startswith("hand") and self.chance(50)
            target = f"hand({name[4:]})" if hand_expr else name
            decl = {"cards": target, "encoding": enc}
            if self.chance(15):
                decl["public"] = True
                self.features.add("shown-hand")
            outs[f"o{k}"] = decl
            self.features.add("output-hand")
        for name in sorted(self.shaky - set(self.m)):
            # a callee must say which outputs it has: its shaky regions only go back to the supply
            fate = self.pick(["output", "discard", "leave"]) if self.role == "main" else "discard"
            if fate == "output":
                k += 1
                outs[f"o{k}"] = {"cards": name, "encoding": self.pick(["cards", "faces"])}
            elif fate == "discard":
                cleanup.append({"if": f"exists('{name}')", "then": [{"discard": name}]})
        values: list[str] = []
        for v, kind in self.vars.items():
            if kind != "any" or self.chance(50):
                values.append(v)
        values += [f"exists('{self.pick(REGION_NAMES[:4])}')", "len(up())", "1"]
        for _ in range(self.number(0, 2)):
            k += 1
            outs[f"o{k}"] = {"public": True, "value": self.pick(values)}
            self.features.add("value-output")
        return cleanup, outs


def symtext(name: str) -> str:
    """How an expression names a card: ``al``, or ``lab(2)`` for a card of the label family."""
    if name.startswith("lab") and name[3:].isdigit():
        return f"lab({name[3:]})"
    return name


# --------------------------------------------------------------------------- inputs


def _inputs(draw: Any, role: str) -> tuple[dict[str, Any], dict[str, Any], dict[str, MRegion], str | None]:
    """Input declarations, parameters, the model of the initial table, and 'admissible'."""
    params: dict[str, Any] = {}
    admissible = None
    if role == "sub":
        names = ["x"] if chance(draw, 50) else ["x", "y"]
        decls = {n: {"encoding": "bit"} for n in names}
    else:
        scenario = draw(
            st.sampled_from(["xy", "xy", "x", "xz", "array", "array", "lottery", "labels", "public", "num"])
        )
        if scenario == "xy":
            decls = {"x": {"encoding": "bit"}, "y": {"encoding": "bit"}}
            if chance(draw, 15):
                admissible = draw(st.sampled_from(["x != y", "x + y <= 1", "not (x == 1 and y == 0)"]))
        elif scenario == "x":
            decls = {"x": {"encoding": "bit"}}
            if chance(draw, 10):
                admissible = "x == 1"
        elif scenario == "xz":
            decls = {"x": {"encoding": "bit"}, "z": {"encoding": "hbit"}}
            if chance(draw, 15):
                admissible = draw(st.sampled_from(["x == z", "x + z >= 1"]))
        elif scenario == "array":
            count: Any = 2
            if draw(st.booleans()):
                params["m"] = {"default": 2, "min": 1}
                count = "m"
            decls = {"xs": {"encoding": "bit", "count": count}}
            if chance(draw, 15):
                admissible = draw(st.sampled_from(["xs[1] + xs[2] <= 1", "any(v == 1 for v in xs)"]))
        elif scenario == "lottery":
            decls = {"c": {"encoding": "lbl", "count": 2}, "xs": {"encoding": "bit", "count": 2}}
        elif scenario == "labels":
            decls = {"c": {"encoding": "lbl", "count": 3}}
        elif scenario == "num":
            decls = {"n": {"encoding": "num"}, "x": {"encoding": "bit"}}
            if chance(draw, 20):
                admissible = "n + x <= 2"
        else:
            decls = {"x": {"encoding": "bit", "public": True}, "y": {"encoding": "bit"}}
            if chance(draw, 15):
                admissible = "x + y <= 1"
        if chance(draw, 3):  # no input at all: a spec error on both sides, never a vacuous verdict
            admissible = draw(st.sampled_from(["1 == 2", "false"]))
    model: dict[str, MRegion] = {}
    for name, d in decls.items():
        n = 2 if isinstance(d.get("count"), str) else int(d.get("count", 1))
        width = {"lbl": 1, "num": 3}.get(d["encoding"], 2)
        cards = [MC(False, None) for _ in range(n * width)]
        if d["encoding"] == "lbl":
            cards = [MC(False, f"lab{i + 1}") for i in range(n)]
        model[name] = MRegion([cards], width)
    return decls, params, model, admissible


def _hand_key(name: str) -> int | str:
    """A hand as a call's ``hands:`` names it: an owner number, or a name."""
    return int(name[4:]) if name.startswith("hand") and name[4:].isdigit() else name


KNOWABLE = {"x": ["x"], "y": ["y"], "z": ["z"], "n": ["n"], "xs": ["xs[1]", "xs[2]", "xs"]}


def _players(
    draw: Any, decls: dict[str, Any], hands: list[str], required: set[str] | None = None
) -> dict[str, Any] | None:
    """Who sits at the table: people who know some inputs and hold some hands, a virtual
    player holding others, and hands nobody declares (seen by nobody, as by default).
    ``required``: the players a call's ``players:`` mapping names (always seated)."""
    required = required or set()
    if not hands and not required and not chance(draw, 15):
        return None
    people: dict[str, dict[str, Any]] = {"ann": {}, "ben": {}}
    knowable = [e for name in decls for e in KNOWABLE.get(name, [])]
    for person in people.values():
        knows = [e for e in knowable if chance(draw, 40)]
        if knows:
            person["knows"] = knows
    robot: list[str] = []
    for hand in hands:
        holder = draw(st.sampled_from(["ann", "ann", "ben", "robot", "nobody"]))
        if holder == "robot":
            robot.append(hand)
        elif holder != "nobody":
            people[holder].setdefault("hands", []).append(int(hand[4:]) if hand[4:].isdigit() else hand)
    out: dict[str, Any] = {k: v for k, v in people.items() if v or k in required or chance(draw, 30)}
    if robot or "robot" in required:
        out["robot"] = {"virtual": True}
        if robot:
            out["robot"]["hands"] = [int(h[4:]) if h[4:].isdigit() else h for h in robot]
    return out or None


def _spec(
    name: str,
    decls: dict[str, Any],
    params: dict[str, Any],
    steps: list[dict[str, Any]],
    outputs: dict[str, Any],
    helpers: dict[str, int] | None = None,
    admissible: str | None = None,
    players: dict[str, Any] | None = None,
) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "protocol": name,
        "title": f"Generated {name}",
        "symbols": SYMBOLS,
        "encodings": ENCODINGS,
    }
    if params:
        doc["params"] = params
    doc["inputs"] = decls
    if admissible is not None:
        doc["admissible"] = admissible
    if players is not None:
        doc["players"] = players
    if helpers is not None:
        doc["helpers"] = helpers
    doc["steps"] = steps
    doc["outputs"] = outputs
    return doc


def dump(doc: dict[str, Any], comment: str = "") -> str:
    text = yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, default_flow_style=None, width=100)
    head = "".join(f"# {line}\n" for line in comment.splitlines()) if comment else ""
    return head + text


# --------------------------------------------------------------------------- callee


def _callee(
    draw: Any, name: str = SUB, inner: CalleeInfo | None = None
) -> tuple[dict[str, Any], CalleeInfo, set[str]]:
    decls, params, model, _ = _inputs(draw, "sub")
    g = Gen(draw, "sub", inner)
    g.m = model
    g.used_names = set(decls)
    steps = g.steps(draw(st.integers(1, 4)))
    # Outputs: every card (a callee must leave nothing behind, or the caller's run fails).
    pairs = g.sels(size=2)
    if pairs and not g.hands and chance(draw, 40):
        cleanup, outs = g.pair_output(g.pick(pairs))  # one pair out, the rest back: like the AND
    else:
        cleanup, outs = g.outputs(tidy_percent=97)
    if cleanup:
        steps.append({"step": str(len(steps) + 1), "say": "Clean up.", "do": cleanup})
    card_outputs = []
    value_outputs = []
    gm = g.m
    for oname, decl in outs.items():
        if "cards" in decl:
            sel = decl["cards"]
            if sel in g.hands:  # a hand: its cards come back in a random order
                held = g.hands[sel]
                card_outputs.append((oname, [MC(c.up, None) for c in held], (1, len(held))))
                continue
            region = sel.split("[")[0]
            reg = gm.get(region)
            if reg is None:
                continue
            if sel == region:
                coords = [(r + 1, c + 1) for r in range(reg.rows) for c in range(reg.cols)]
                shape = (reg.rows, reg.cols)
            else:
                match = [s for s in g.candidates(region) if s.text == sel]
                coords, shape = match[0].coords, match[0].shape
            cards = [gm[region].grid[r - 1][c - 1] for r, c in coords]
            present = [c for c in cards if c is not None]
            if decl["encoding"] == "cards" or len(present) != len(cards):
                shape = (1, len(present))
            card_outputs.append((oname, [MC(c.up, None) for c in present], shape))
        else:
            value_outputs.append(oname)
    players = None
    if g.filled and chance(draw, 35):  # the callee says who holds its hands: its own players
        held = sorted(g.filled)
        players = {"taker": {"hands": [_hand_key(h) for h in held[: 1 + len(held) // 2]]}}
        if held[1 + len(held) // 2 :]:
            players["giver"] = {"hands": [_hand_key(h) for h in held[1 + len(held) // 2 :]]}
        g.features.add("callee-players")
    doc = _spec(name, decls, params, steps, outs, players=players)
    info = CalleeInfo(
        name,
        list(decls),
        card_outputs,
        value_outputs,
        g.branch,
        sorted(g.filled),
        {p: [str(h) for h in d["hands"]] for p, d in (players or {}).items()},
    )
    prefix = "sub" if name == SUB else "leaf"
    return doc, info, {f"{prefix}:{f}" for f in g.features}


# --------------------------------------------------------------------------- specifications


def _value_text(v: Any) -> str | None:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, en.Sym):
        if v.name.startswith("lab") and v.name[3:].isdigit():
            return f"lab({v.name[3:]})"
        return v.name
    if isinstance(v, tuple):
        parts = [_value_text(x) for x in v]
        if any(p is None for p in parts):
            return None
        return "[" + ", ".join(p for p in parts if p is not None) + "]"
    return None


def _index_expr(decls: dict[str, Any], assignments: list[dict[str, Any]]) -> tuple[str, list[int]]:
    """An expression numbering the input assignments, and each assignment's number."""
    terms = []
    stride = 1
    positions = [0] * len(assignments)
    for name in reversed(list(decls)):
        d = decls[name]
        base = DOMAIN_SIZES[d["encoding"]]
        if base == 1:
            continue
        if "count" in d:
            n = len(assignments[0][name]) if assignments else 2
            parts = [f"{name}[{k + 1}] * {base ** (n - 1 - k)}" for k in range(n)]
            term = "(" + " + ".join(parts) + ")"
            for i, a in enumerate(assignments):
                positions[i] += stride * sum(int(b) * base ** (n - 1 - k) for k, b in enumerate(a[name]))
            size = base**n
        else:
            term = name
            for i, a in enumerate(assignments):
                positions[i] += stride * int(a[name])
            size = base
        terms.append(f"{term} * {stride}" if stride > 1 else term)
        stride *= size
    return (" + ".join(reversed(terms)) or "0"), positions


def _table(index: str, positions: list[int], entries: list[str]) -> str:
    if len(set(entries)) == 1:
        return entries[0]
    size = max(positions) + 1
    table = ["0"] * size
    for p, e in zip(positions, entries):
        table[p] = e
    return f"[{', '.join(table)}][{index} + 1]"


SIMPLE: list[tuple[str, tuple[str, ...], Any]] = [
    ("x", ("x",), lambda a: a["x"]),
    ("y", ("y",), lambda a: a["y"]),
    ("z", ("z",), lambda a: a["z"]),
    ("1 - x", ("x",), lambda a: 1 - a["x"]),
    ("1 - y", ("y",), lambda a: 1 - a["y"]),
    ("1 - z", ("z",), lambda a: 1 - a["z"]),
    ("x and y", ("x", "y"), lambda a: a["x"] and a["y"]),
    ("x or y", ("x", "y"), lambda a: a["x"] or a["y"]),
    ("(not x) and y", ("x", "y"), lambda a: int((not a["x"]) and a["y"])),
    ("xs[1]", ("xs",), lambda a: a["xs"][0]),
    ("xs[2]", ("xs",), lambda a: a["xs"][1]),
    ("xs[1] and xs[2]", ("xs",), lambda a: a["xs"][0] and a["xs"][1]),
]


def _simple(decls: dict[str, Any], assignments: list[dict[str, Any]], values: list[Any]) -> str | None:
    """A readable expression of the inputs that gives these values, if one of a few does."""
    if any(isinstance(v, bool) or not isinstance(v, int) for v in values):
        return None
    for expr, needs, fn in SIMPLE:
        if any(n not in decls or decls[n]["encoding"] == "lbl" for n in needs):
            continue
        if all(fn(a) == v for a, v in zip(assignments, values)):
            return expr
    return None


class Dice:
    """Choices drawn before the (costly) truth table is computed, used after it."""

    def __init__(self, values: list[int]):
        self.values = values
        self.i = 0

    def below(self, n: int) -> int:
        v = self.values[self.i % len(self.values)]
        self.i += 1
        return v % n

    def chance(self, percent: int) -> bool:
        return self.below(100) < percent

    def choice(self, options: list[str]) -> str:
        return options[self.below(len(options))]


def _wrong_value(dice: Dice, v: Any) -> str:
    if isinstance(v, bool):
        return "false" if v else "true"
    if isinstance(v, int):
        return str(1 - v if v in (0, 1) else v + 1)
    if isinstance(v, en.Sym):
        return dice.choice([f for f in FACES if f != v.name])
    if v is None:
        return "al"
    if isinstance(v, tuple):
        if len(v) >= 2 and v[0] != v[-1]:
            return _value_text(tuple(reversed(v))) or "none"
        return _value_text(v[:-1]) or "none"
    return "none"


def specify(
    dice: Dice,
    decls: dict[str, Any],
    outputs: dict[str, dict[str, Any]],
    assignments: list[dict[str, Any]],
    records: list[list[en.RunRecord]] | None,
    features: set[str],
) -> None:
    """Give outputs ``equals``/``uniform`` from the true distributions; corrupt some on purpose."""
    names = list(outputs)
    if not names:
        return
    corrupt = names[dice.below(len(names))] if dice.chance(25) else None
    if records is None:  # the spec cannot run: any specification will do
        for name in names:
            if dice.chance(50):
                outputs[name]["equals"] = dice.choice(["1", "none", "x" if "x" in decls else "0"])
        return
    index, positions = _index_expr(decls, assignments)
    marginals: dict[str, list[dict[Any, Fraction]]] = {}
    for name in names:
        per_input = []
        for recs in records:
            d: dict[Any, Fraction] = defaultdict(Fraction)
            for rec in recs:
                d[en.value_key(rec.outputs[name])] += rec.prob
            per_input.append(dict(d))
        marginals[name] = per_input
    uniforms: list[str] = []
    for name in names:
        dists = marginals[name]
        broken = any(isinstance(v, en.DecodeFailure) for d in dists for v in d)
        wrong = name == corrupt
        if broken:
            if dice.chance(50):
                outputs[name]["equals"] = "0"
            continue
        deterministic = all(len(d) == 1 for d in dists)
        if deterministic and dice.chance(85):
            values = [next(iter(d)) for d in dists]
            texts = [_value_text(v) for v in values]
            if any(t is None for t in texts):
                continue
            if wrong:
                u = dice.below(len(values))
                texts[u] = _wrong_value(dice, values[u])
                features.add("corrupted-equals")
                outputs[name]["equals"] = _table(index, positions, [t for t in texts if t is not None])
                continue
            simple = _simple(decls, assignments, values)
            outputs[name]["equals"] = simple or _table(index, positions, [t for t in texts if t is not None])
            continue
        # a random output (or a deterministic one written as a one-entry uniform list)
        lists = []
        for d in dists:
            den = math.lcm(*(p.denominator for p in d.values()))
            if den > 12:
                lists = []
                break
            entries = []
            for v, p in sorted(d.items(), key=lambda kv: str(kv[0])):
                t = _value_text(v)
                if t is None:
                    lists = []
                    break
                entries += [t] * int(p * den)
            else:
                if entries == ["none"]:
                    entries = [] if dice.chance(50) else ["none"]
                lists.append(entries)
                continue
            break
        if not lists:
            continue
        if wrong:
            u = dice.below(len(lists))
            if len(lists[u]) > 1 and dice.chance(50):
                lists[u] = lists[u][1:]
            else:
                lists[u] = lists[u] + [dice.choice(["al", "0", "none"])]
            features.add("corrupted-uniform")
        texts = ["[" + ", ".join(e) + "]" for e in lists]
        outputs[name]["uniform"] = _table(index, positions, texts)
        uniforms.append(name)
        features.add("uniform")
    # an output that is a function of the inputs and of a random choice ('equals' naming it)
    for name in names:
        if "equals" in outputs[name] or "uniform" in outputs[name] or not uniforms:
            continue
        for u_name in uniforms:
            table = _given(records, name, u_name)
            if table is None:
                continue
            rows = []
            for per_u in table:
                keys = list(per_u)
                kt = [_value_text(k) for k in keys]
                vt = [_value_text(per_u[k]) for k in keys]
                if any(t is None for t in kt + vt):
                    rows = []
                    break
                rows.append((kt, vt))
            if not rows:
                continue
            keys_expr = _table(index, positions, ["[" + ", ".join(k) + "]" for k, _ in rows])  # type: ignore[arg-type]
            vals_expr = _table(index, positions, ["[" + ", ".join(v) + "]" for _, v in rows])  # type: ignore[arg-type]
            outputs[name]["equals"] = f"{vals_expr}[index({keys_expr}, {u_name})]"
            features.add("equals-names-uniform")
            break


def _given(records: list[list[en.RunRecord]], name: str, u_name: str) -> list[dict[Any, Any]] | None:
    """Per input, the value of ``name`` as a function of ``u_name``'s value (None if not one)."""
    out = []
    for recs in records:
        table: dict[Any, Any] = {}
        for rec in recs:
            k = en.value_key(rec.outputs[u_name])
            v = en.value_key(rec.outputs[name])
            if isinstance(k, en.DecodeFailure) or isinstance(v, en.DecodeFailure):
                return None
            if table.setdefault(k, v) != v:
                return None
        out.append(table)
    if all(len(t) == 1 for t in out):
        return None  # deterministic: plain 'equals' covers it
    return out


# --------------------------------------------------------------------------- the strategy


def _load_and_run(files: dict[str, str]) -> tuple[list[dict[str, Any]], list[list[en.RunRecord]]] | None:
    with tempfile.TemporaryDirectory(prefix="kitgen-specgen-") as tmp:
        for fname, text in files.items():
            (Path(tmp) / fname).write_text(text, encoding="utf-8")
        lib = Library([Path(tmp)])
        proto = en.load(lib, MAIN)  # a spec the linker refuses (a callee's hands unheld) too
        try:
            _, assignments, records = en.enumerate_runs(lib, proto)
        except (en.RunError, en.Refused):
            return None
        return assignments, records


@st.composite
def libraries(draw: Any, callee: bool | None = None) -> GeneratedLibrary:
    """A caller spec (``fzmain``) and, often, a callee (``fzsub``), as YAML files."""
    features: set[str] = set()
    info = None
    files: dict[str, str] = {}
    with_callee = chance(draw, 55) if callee is None else callee
    if with_callee:
        leaf = None
        if chance(draw, 25):  # the callee calls a protocol of its own
            leaf_doc, leaf, leaf_features = _callee(draw, LEAF)
            files[f"{LEAF}.yaml"] = dump(leaf_doc)
            features |= leaf_features
        sub_doc, info, sub_features = _callee(draw, SUB, leaf)
        files[f"{SUB}.yaml"] = dump(sub_doc)
        features |= sub_features
    decls, params, model, admissible = _inputs(draw, "main")
    g = Gen(draw, "main", info)
    g.m = model
    g.used_names = set(decls)
    steps = g.steps(draw(st.integers(2, 7)))
    cleanup, outs = g.outputs(tidy_percent=50)
    if cleanup:
        steps.append({"step": str(len(steps) + 1), "say": "Put the rest back.", "do": cleanup})
    features |= g.features
    helpers = None
    if chance(draw, 10):
        helpers = {f: draw(st.integers(0, 3)) for f in FACES}
        features.add("helpers")
    players = _players(draw, decls, sorted(set(g.hands) | g.mapped_hands), g.mapped_players)
    if players:
        features.add("players")
        if any(p.get("hands") and not p.get("virtual") for p in players.values()):
            features.add("players-holding-hands")
    doc = _spec(MAIN, decls, params, steps, outs, helpers, admissible, players)
    if admissible:
        features.add("admissible")
    files[f"{MAIN}.yaml"] = dump(doc)
    dice = Dice(draw(st.lists(st.integers(0, 9999), min_size=24, max_size=24)))
    ran = _load_and_run(files)
    if ran is None:
        features.add("cannot-run")
        specify(dice, decls, outs, [], None, features)
    else:
        assignments, records = ran
        specify(dice, decls, outs, assignments, records, features)
    doc["outputs"] = outs
    files[f"{MAIN}.yaml"] = dump(doc)
    return GeneratedLibrary(files, MAIN, features)
