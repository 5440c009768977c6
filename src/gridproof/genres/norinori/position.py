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
from gridproof.core.grid import Geometry, bits, geometry, low_bit, mask_of
from gridproof.core.ladder import Seen
from gridproof.core.trace import Step, Violation
from gridproof.genres.norinori.model import Norinori


@dataclass(frozen=True, slots=True, eq=False)
class Board:
    """Everything about a puzzle that never changes while solving it. Each board is equal
    only to itself, and hashes as fast."""

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
    support: dict[int, dict[int, int]] = field(default_factory=dict, compare=False)
    """Residual supports for AC-3: region -> pair -> a pair of that region that last
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


@lru_cache(maxsize=16)
def cell_neighbours(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """Each cell's orthogonal neighbours, lowest first, from its row and column (no
    board-wide mask read per cell); one table per size, shared by every board of it (a
    generator's climb makes a board per layout it tries)."""
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
    geo = geometry(puzzle.width, puzzle.height)
    regions = puzzle.regions
    nbrs = cell_neighbours(puzzle.width, puzzle.height)
    cells: list[list[int]] = [[] for _ in range(max(regions) + 1)]
    for cell, rid in enumerate(regions):
        cells[rid].append(cell)
    masks, neighbours, halo_masks = [], [], []
    for rid, area in enumerate(cells):
        halo = {n for c in area for n in nbrs[c] if regions[n] != rid}
        masks.append(mask_of(area))
        neighbours.append(tuple(sorted({regions[c] for c in halo})))
        halo_masks.append(mask_of(halo))
    return Board(
        geo,
        regions,
        tuple(masks),
        tuple(neighbours),
        tuple(halo_masks),
        nbrs,
        tuple(map(tuple, cells)),
    )


Domains = list[tuple[int, ...] | None]
"""Each region's possible pairs (see the glossary above), by region id."""

State = tuple[int, int, Domains | None]
"""Shaded, empty and the domains (a copy of the list): what a probe's trial runs from."""


class Trials:
    """What a probe's trials found at one position as it gains marks (a solve runs the
    probe rung again after every step): each trial that reached no contradiction, with
    the state it ran from, the state it ended at and the regions its changes reach, so
    that the next probe runs again only the trials that could now end otherwise.

    Why a skipped trial would find no contradiction now: the rules are monotone, and the
    trial ended at a fixpoint F without one, from a state M that the position's state now,
    M', extends (M' a fixpoint too: the probe rung runs only when the cheaper rungs decide
    nothing). Run from M' it ends at F and M' together, unless one rule reads a change of
    each. Every rule of the `pairs` ladder reads the marks within three steps of one region
    or two neighbouring ones (a verdict's zone, `Board.arc_zone`; a cell rule reads a
    cell's neighbours and theirs, a quota rule its region) and the domains of those
    regions. So the regions within three steps of a change, and those whose domain
    narrowed, are what a change reaches (`_touched`); a trial's reach adds their
    neighbours; a trial whose reach misses every region the changes since reach is idle.
    So is one whose end F already holds M' (every mark and narrowing since is one it
    reached itself): run again it ends at F. The steps are the same, with fewer trials run.
    """

    __slots__ = ("_board", "_held", "_since", "_start")

    def __init__(self, board: Board) -> None:
        self._board = board
        self._held: dict[tuple[int, bool], tuple[State, int, State]] = {}
        self._start: State = (0, 0, None)
        self._since: dict[int, tuple[int, list[int]]] = {}

    def __len__(self) -> int:
        """How many trials are kept."""
        return len(self._held)

    def look(self, pos: Position) -> None:
        """Start a probe at `pos`'s state: what the trials kept ran from is compared with
        it (all forgotten if it does not extend the last start: the position was set back,
        a mark lost or a domain widened)."""
        if self._held and not self._extends(pos):
            self._held.clear()
        self._start = (pos.shaded, pos.empty, None if pos.domains is None else list(pos.domains))
        self._since = {}  # by the id of a start kept: what changed from it to `pos`

    def _extends(self, pos: Position) -> bool:
        """Whether `pos`'s state extends the last start: no mark lost, no domain widened."""
        shaded, empty, domains = self._start
        if shaded & ~pos.shaded or empty & ~pos.empty:
            return False
        now = pos.domains
        if domains is None or now is None:
            return domains is None
        return all(
            set(now[rid] or ()).issubset(domains[rid] or ()) for rid in _narrowed(self._start, pos)
        )

    def idle(self, pos: Position, cell: int, shade: bool) -> bool:
        """Whether the trial of `cell` shaded (or empty) found no contradiction before and
        would end as it did (`pos`: the position `look` was given)."""
        held = self._held.get((cell, shade))
        if held is None:
            return False
        start, reach, end = held
        since = self._since.get(id(start))
        if since is None:
            narrowed = _narrowed(start, pos)
            since = self._since[id(start)] = (self._touched(start, pos, narrowed), narrowed)
        moved, narrowed = since
        if not moved & reach:
            return True
        shaded, empty, domains = end
        if pos.shaded & ~shaded or pos.empty & ~empty or domains is None:
            return False
        now = pos.domains
        assert now is not None  # the trial's were lifted from them
        return all(set(domains[rid] or ()).issubset(now[rid] or ()) for rid in narrowed)

    def keep(self, cell: int, shade: bool, trial: Position) -> None:
        """Remember that the trial of `cell` shaded (or empty), run from the state `look`
        was given, found no contradiction and ended at `trial`."""
        touched = self._touched(self._start, trial, _narrowed(self._start, trial))
        reach = touched
        neighbours = self._board.region_neighbours
        for rid in bits(touched):
            for other in neighbours[rid]:
                reach |= 1 << other
        self._held[cell, shade] = (self._start, reach, (trial.shaded, trial.empty, trial.domains))

    def _touched(self, start: State, now: Position, narrowed: list[int]) -> int:
        """The regions (a mask of ids) a rule reading the changes from `start` to `now`
        could read: within three steps of a cell decided since, or their domain narrowed
        (`narrowed`, `_narrowed` of the two)."""
        board = self._board
        shaded, empty, _ = start
        changed = (shaded ^ now.shaded) | (empty ^ now.empty)
        spread = board.geo.spread
        for _ in range(3):
            changed |= spread(changed)
        found = 0
        for rid in board.regions_touching(changed):
            found |= 1 << rid
        for rid in narrowed:
            found |= 1 << rid
        return found


def _narrowed(start: State, now: Position) -> list[int]:
    """The regions whose domain is not the one `start` had (all, where it had none)."""
    if now.domains is None:
        return []
    before = start[2] or [None] * len(now.domains)
    return [
        rid
        for rid, (was, is_now) in enumerate(zip(before, now.domains, strict=True))
        if was is not is_now
    ]


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
        "trials",
    )

    def __init__(self, board: Board, deadline: Deadline | None = None) -> None:
        self.board = board
        self.shaded = 0
        self.empty = 0
        self.domains: Domains | None = None
        self.seen = Seen()
        self.deadline = deadline or Deadline.never()
        self.focus = board.geo.full  # the cells a search of this position may branch on
        self.solution: int | None = None  # known to a hint: see `core.ladder.Position`
        self.prefer: Callable[[int], int] | None = None  # a hint's order of cells, likewise
        self.trials: Trials | None = None  # the probe's, made when it first runs here

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
        twin.trials = None  # a copy goes its own way
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
