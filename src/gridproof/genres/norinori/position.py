"""The solver's view of a Norinori board: precomputed tables and a partial shading.

Glossary: `shaded`, `empty` are masks of decided cells, `unknown` the rest; a `pair` is a
mask of two cells of one region; `domains[r]` are the pairs region r can still shade
(the lifted variable of the `pairs` rung), `None` until that rung first runs (and `None`
in place of the pairs of a region too big to lift).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from gridproof.core.deadline import Deadline
from gridproof.core.grid import Geometry, bits, low_bit
from gridproof.core.ladder import Seen
from gridproof.core.trace import Step, Violation
from gridproof.genres.norinori.model import Norinori


@dataclass(frozen=True, slots=True)
class Board:
    """Everything about a puzzle that never changes while solving it."""

    geo: Geometry
    region_of: tuple[int, ...]
    region_mask: tuple[int, ...]
    region_neighbours: tuple[tuple[int, ...], ...]
    region_halo: tuple[int, ...]
    """Cells outside each region that touch it."""
    region_zone: tuple[int, ...]
    """Cells within two steps of each region: what a new decision must touch to change
    the ways that region can place its pair."""
    cell_neighbours: tuple[tuple[int, ...], ...]
    """The orthogonal neighbours of each cell, as cell numbers (for `marks.Marks`)."""
    region_cells: tuple[tuple[int, ...], ...]
    """The cells of each region, as cell numbers."""
    zones_of: tuple[tuple[int, ...], ...]
    """The regions whose `region_zone` holds each cell (those within two steps of it)."""
    support: dict[tuple[int, int], int] = field(default_factory=dict, compare=False)
    """Residual supports for AC-3: (pair, region) -> a pair of that region that last
    supported it. Only a hint: every use checks it again, so sharing it is safe."""

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


def _cell_neighbours(geo: Geometry) -> tuple[tuple[int, ...], ...]:
    """Each cell's orthogonal neighbours, lowest first (as `bits` of `geo.neighbours`,
    without reading a board-wide mask per cell on a large board)."""
    if geo.size <= 4096:
        return tuple(tuple(bits(m)) for m in geo.neighbours)
    w, h = geo.width, geo.height
    return tuple(
        tuple(
            n
            for n, inside in (
                (cell - w, r > 0),
                (cell - 1, c > 0),
                (cell + 1, c < w - 1),
                (cell + w, r < h - 1),
            )
            if inside
        )
        for cell, (r, c) in enumerate((r, c) for r in range(h) for c in range(w))
    )


@lru_cache(maxsize=64)
def board_of(puzzle: Norinori) -> Board:
    geo = Geometry(puzzle.width, puzzle.height)
    masks = region_masks(puzzle.regions)
    halo = tuple(geo.spread(m) & ~m for m in masks)
    neighbours = tuple(tuple(sorted(regions_touching(puzzle.regions, h))) for h in halo)
    zone = tuple(m | h | geo.spread(h) for m, h in zip(masks, halo, strict=True))
    cell_neighbours = _cell_neighbours(geo)
    cells: list[list[int]] = [[] for _ in masks]
    for cell, rid in enumerate(puzzle.regions):
        cells[rid].append(cell)
    regions = puzzle.regions
    zones_of: list[list[int]] = [[] for _ in regions]
    for rid, near in enumerate(zone):
        for cell in bits(near):
            zones_of[cell].append(rid)
    return Board(
        geo,
        regions,
        tuple(masks),
        neighbours,
        halo,
        zone,
        cell_neighbours,
        tuple(map(tuple, cells)),
        tuple(map(tuple, zones_of)),
    )


class Position:
    """A partial shading that rules read and steps extend; cheap to copy for search."""

    __slots__ = ("board", "deadline", "domains", "empty", "focus", "seen", "shaded")

    def __init__(self, board: Board, deadline: Deadline | None = None) -> None:
        self.board = board
        self.shaded = 0
        self.empty = 0
        self.domains: list[tuple[int, ...] | None] | None = None
        self.seen = Seen()
        self.deadline = deadline or Deadline.never()
        self.focus = board.geo.full  # the cells a search of this position may branch on

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
