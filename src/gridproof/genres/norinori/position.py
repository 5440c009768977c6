"""The solver's view of a Norinori board: precomputed tables and a partial shading.

Glossary: `shaded`, `empty` are masks of decided cells, `unknown` the rest; a `pair` is a
mask of two cells of one region; `domains[r]` are the pairs region r can still shade
(the lifted variable of the `pairs` rung), `None` until that rung first runs (and `None`
in place of the pairs of a region too big to lift).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from gridproof.core.deadline import Deadline
from gridproof.core.grid import Geometry, bits, low_bit, mask_of
from gridproof.core.ladder import Seen
from gridproof.core.trace import Step, Violation
from gridproof.genres.norinori.model import Norinori


@dataclass(frozen=True, slots=True, eq=False)
class Board:
    """Everything about a puzzle that never changes while solving it. Each board is equal
    only to itself, and hashes as fast (what keys `rules.VERDICTS`)."""

    geo: Geometry
    region_of: tuple[int, ...]
    region_mask: tuple[int, ...]
    region_neighbours: tuple[tuple[int, ...], ...]
    region_halo: tuple[int, ...]
    """Cells outside each region that touch it."""
    cell_neighbours: tuple[tuple[int, ...], ...]
    """The orthogonal neighbours of each cell, as cell numbers (for `marks.Marks`)."""
    region_cells: tuple[tuple[int, ...], ...]
    """The cells of each region, as cell numbers."""
    support: dict[tuple[int, int], int] = field(default_factory=dict, compare=False)
    """Residual supports for AC-3: (pair, region) -> a pair of that region that last
    supported it. Only a hint: every use checks it again, so sharing it is safe."""
    arc_zone: dict[tuple[int, int], int] = field(default_factory=dict, compare=False)
    """The cells within three steps of two neighbouring regions, by (lower id, higher
    id), or of one region, by (id, id): all the marks a verdict on two of their pairs side
    by side, or on a pair of the one, reads (`rules.checker_at`); filled as first met."""

    def name(self, cell: int) -> str:
        return self.geo.name(cell)

    def names(self, mask: int) -> str:
        name = self.geo.name
        return ", ".join([name(c) for c in bits(mask)])

    def regions_touching(self, mask: int) -> set[int]:
        return regions_touching(self.region_of, mask, self.region_mask)


def region_masks(region_of: Sequence[int]) -> list[int]:
    """The cells of each region as a mask, indexed by region id (or label)."""
    masks = [0] * (max(region_of) + 1)
    for cell, rid in enumerate(region_of):
        masks[rid] |= 1 << cell
    return masks


def regions_touching(
    region_of: Sequence[int], mask: int, region_mask: Sequence[int] | None = None
) -> set[int]:
    """The regions that hold a cell of `mask`. With the regions' masks, each region found
    takes all its cells off `mask` at once (the hot path of `close_marks`)."""
    if region_mask is None:
        return {region_of[cell] for cell in bits(mask)}
    found = set()
    while mask:
        rid = region_of[(mask & -mask).bit_length() - 1]
        found.add(rid)
        mask &= ~region_mask[rid]
    return found


def _cell_neighbours(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """Each cell's orthogonal neighbours, lowest first, from its row and column (no
    board-wide mask read per cell)."""
    out = []
    for r in range(height):
        for c in range(width):
            cell = r * width + c
            around = []
            if r > 0:
                around.append(cell - width)
            if c > 0:
                around.append(cell - 1)
            if c < width - 1:
                around.append(cell + 1)
            if r < height - 1:
                around.append(cell + width)
            out.append(tuple(around))
    return tuple(out)


@lru_cache(maxsize=64)
def board_of(puzzle: Norinori) -> Board:
    """The tables of `puzzle`, built from cell lists in time linear in the board (but for
    turning each region's cell sets into masks): whole-board masks per region cost a
    board-wide operation each, quadratic on a 100×100 board."""
    geo = Geometry(puzzle.width, puzzle.height)
    regions = puzzle.regions
    nbrs = _cell_neighbours(puzzle.width, puzzle.height)
    cells: list[list[int]] = [[] for _ in range(max(regions) + 1)]
    for cell, rid in enumerate(regions):
        cells[rid].append(cell)
    halos = [{n for c in area for n in nbrs[c]}.difference(area) for area in cells]
    return Board(
        geo,
        regions,
        tuple(map(mask_of, cells)),
        tuple(tuple(sorted({regions[c] for c in halo})) for halo in halos),
        tuple(map(mask_of, halos)),
        nbrs,
        tuple(map(tuple, cells)),
    )


class Position:
    """A partial shading that rules read and steps extend; cheap to copy for search."""

    __slots__ = (
        "board",
        "deadline",
        "domains",
        "empty",
        "focus",
        "prefer",
        "seen",
        "shaded",
        "solution",
    )

    def __init__(self, board: Board, deadline: Deadline | None = None) -> None:
        self.board = board
        self.shaded = 0
        self.empty = 0
        self.domains: list[tuple[int, ...] | None] | None = None
        self.seen = Seen()
        self.deadline = deadline or Deadline.never()
        self.focus = board.geo.full  # the cells a search of this position may branch on
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
        twin.domains = None if self.domains is None else list(self.domains)
        twin.seen = self.seen.copy()
        twin.deadline = self.deadline
        twin.focus = self.focus
        twin.solution = self.solution
        twin.prefer = self.prefer
        return twin

    def apply(self, step: Step) -> Violation | None:
        """Decide the step's cells; a cell decided both ways is a contradiction."""
        clash = (step.shaded & self.empty) | (step.empty & self.shaded) | (step.shaded & step.empty)
        if clash:
            cell = low_bit(clash)
            return Violation(
                step.rule, f"{self.board.name(cell)} would be both shaded and empty", (cell,)
            )
        self.shaded |= step.shaded
        self.empty |= step.empty
        return None

    def changed_since(self, rule: str) -> int:
        """Cells decided since `rule` last looked (all cells the first time), and mark it."""
        return self.seen.changed(rule, self.shaded, self.empty, self.board.geo.full)


def start(puzzle: Norinori, deadline: Deadline) -> Position:
    """The empty position of `puzzle` that the ladder's rules read."""
    return Position(board_of(puzzle), deadline)
