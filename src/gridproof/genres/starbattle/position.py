"""The solver's view of a Star Battle: precomputed tables and a partial star grid.

Glossary: `shaded` is the mask of stars, `empty` of cells known to hold none, `open`
the rest; a `unit` is a row, a column or a region (each holds exactly `stars` stars);
`king[cell]` the eight cells around a cell.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from gridproof.core.deadline import Deadline
from gridproof.core.grid import Geometry, bits, geometry, low_bit
from gridproof.core.ladder import Seen
from gridproof.core.trace import Step, Violation
from gridproof.genres.starbattle.model import StarBattle


@dataclass(frozen=True, slots=True)
class Unit:
    """A row, column or region: its cells and how a sentence names it."""

    kind: str
    index: int
    mask: int

    @property
    def label(self) -> str:
        return f"{self.kind} {self.index + 1}"


Placements = tuple[list[int], int, int, int]
"""A unit's placements and what they agree on: (the placements, cells some placement uses,
cells every one uses, cells touching a star of every one)."""
MAX_WAYS = 2000
"""The most placements of one unit's missing stars that are listed; a unit with more (a
wide region early on) is left to the other rules until its room shrinks."""
WAYS_KEPT = 200_000
"""Placements a board keeps (about 10 MB); past it the table starts again. A long search
meets ever new rooms (the slowest janko board, a 14x14 with three stars, keeps 173,487
placements of 11,332 rooms), and a server keeps 64 boards (`board_of`)."""


class Ways:
    """The placements of a unit's missing stars, listed once per (open cells, stars needed)
    for a board, for the counter and the ladder's rules alike: the same room recurs at
    every node of a search and in every step of a solve.

    A placement is `need` open cells no two of which touch. What every placement shares
    is a star; an open cell no placement uses is empty, and so is a cell touching a star of
    every placement."""

    def __init__(self, king: tuple[int, ...], stars: int) -> None:
        self.king = king
        self.seen: list[dict[int, Placements | None]] = [{} for _ in range(stars + 1)]
        self.kept = 0

    def of(self, room: int, need: int) -> Placements | None:
        """(placements, cells some placement uses, cells every one uses, cells touching a
        star of every one), or None when there are more than `MAX_WAYS`."""
        seen = self.seen[need]
        if room in seen:
            return seen[room]
        found: list[int] = []
        used, every, touched = 0, -1, -1
        king = self.king
        stack = [(room, need, 0, 0)]
        while stack:
            avail, left, chosen, spread = stack.pop()
            if not left:
                found.append(chosen)
                if len(found) > MAX_WAYS:
                    seen[room] = None
                    return None
                used |= chosen
                every &= chosen
                touched &= spread
                continue
            if avail.bit_count() < left:
                continue
            later = []
            while avail:
                low = avail & -avail
                avail ^= low
                near = king[low.bit_length() - 1]
                later.append((avail & ~near, left - 1, chosen | low, spread | near))
            stack.extend(reversed(later))
        summary = (found, used, every if found else 0, touched if found else 0)
        self.kept += len(found) + 1
        if self.kept > WAYS_KEPT:
            for table in self.seen:
                table.clear()
            self.kept = len(found) + 1
        seen[room] = summary
        return summary


@dataclass(frozen=True, slots=True)
class Board:
    """Everything about a puzzle that never changes while solving it."""

    geo: Geometry
    stars: int
    region_of: tuple[int, ...]
    rows: tuple[Unit, ...]
    cols: tuple[Unit, ...]
    regions: tuple[Unit, ...]
    king: tuple[int, ...]
    units_of: tuple[tuple[Unit, Unit, Unit], ...]
    """The row, column and region of each cell."""
    ways: Ways = field(compare=False, repr=False)
    """The placements of units' missing stars met so far (`Ways`)."""

    @property
    def units(self) -> tuple[Unit, ...]:
        return self.rows + self.cols + self.regions

    def region_mask(self, rid: int) -> int:
        """The cells of region `rid`: what a probe's chain reads of a region it names."""
        return self.regions[rid].mask

    def name(self, cell: int) -> str:
        return self.geo.name(cell)

    def names(self, mask: int) -> str:
        return ", ".join(self.geo.name(c) for c in bits(mask))


def king_masks(geo: Geometry) -> tuple[int, ...]:
    """The (up to) eight cells around each cell."""
    w, h = geo.width, geo.height
    out = []
    for cell in range(geo.size):
        r, c = divmod(cell, w)
        mask = 0
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if (dr or dc) and 0 <= r + dr < h and 0 <= c + dc < w:
                    mask |= 1 << ((r + dr) * w + c + dc)
        out.append(mask)
    return tuple(out)


@lru_cache(maxsize=64)
def board_of(puzzle: StarBattle) -> Board:
    w, h = puzzle.width, puzzle.height
    geo = geometry(w, h)
    row_mask = (1 << w) - 1
    rows = tuple(Unit("row", r, row_mask << (r * w)) for r in range(h))
    col_mask = sum(1 << (r * w) for r in range(h))
    cols = tuple(Unit("column", c, col_mask << c) for c in range(w))
    masks = [0] * puzzle.region_count
    for cell, rid in enumerate(puzzle.regions):
        masks[rid] |= 1 << cell
    regions = tuple(Unit("region", rid, mask) for rid, mask in enumerate(masks))
    units_of = tuple(
        (rows[cell // w], cols[cell % w], regions[puzzle.regions[cell]]) for cell in range(w * h)
    )
    king = king_masks(geo)
    ways = Ways(king, puzzle.stars)
    return Board(geo, puzzle.stars, puzzle.regions, rows, cols, regions, king, units_of, ways)


class Position:
    """A partial star grid that rules read and steps extend; cheap to copy for probing."""

    __slots__ = ("board", "deadline", "empty", "prefer", "seen", "shaded", "solution")

    def __init__(self, board: Board, deadline: Deadline | None = None) -> None:
        self.board = board
        self.shaded = 0
        self.empty = 0
        self.seen = Seen()
        self.deadline = deadline or Deadline.never()
        self.solution: int | None = None  # known to a hint: see `core.ladder.Position`
        self.prefer: Callable[[int], int] | None = None  # a hint's order of cells, likewise

    @property
    def unknown(self) -> int:
        return self.board.geo.full & ~(self.shaded | self.empty)

    def copy(self) -> Position:
        twin = Position.__new__(Position)
        twin.board = self.board
        twin.shaded = self.shaded
        twin.empty = self.empty
        twin.seen = self.seen.copy()
        twin.deadline = self.deadline
        twin.solution = self.solution
        twin.prefer = self.prefer
        return twin

    def apply(self, step: Step) -> Violation | None:
        """Decide the step's cells; a cell decided both ways is a contradiction."""
        clash = (step.shaded & self.empty) | (step.empty & self.shaded) | (step.shaded & step.empty)
        if clash:
            cell = low_bit(clash)
            return Violation(
                step.rule, f"{self.board.name(cell)} would be both a star and empty", (cell,)
            )
        self.shaded |= step.shaded
        self.empty |= step.empty
        return None

    def changed_since(self, rule: str) -> int:
        """Cells decided since `rule` last looked (all cells the first time), and mark it."""
        return self.seen.changed(rule, self.shaded, self.empty, self.board.geo.full)


def start(puzzle: StarBattle, deadline: Deadline) -> Position:
    """The empty position of `puzzle` that the ladder's rules read."""
    return Position(board_of(puzzle), deadline)
