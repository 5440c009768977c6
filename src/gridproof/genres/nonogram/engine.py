"""The fast engine: line propagation over a work queue, and probing.

A `Grid` holds the partial solution twice, once per row and once per column, so every
line is two ints that `lines.settle` reads directly: `filled[i]` and `empty[i]` for line
`i` (rows are lines 0..h-1 with bit c = column c, columns are lines h..h+w-1 with bit r =
row r). Changing a cell updates its row and its column, and queues whichever changed.

Probing assumes an undecided cell shaded, then empty, and propagates each: a value that
dies is wrong, and a cell both values decide the same way is decided. The probe results
also choose where a search branches (the cell whose two values decide the most) and
become the branches themselves, already propagated.

Glossary: `line` is a line index as above; `cell` is `row * width + col`; `focus` is the
bit mask of the rows a search may branch on (an independent part of the board).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from gridproof.core.deadline import Deadline
from gridproof.genres.nonogram.lines import LineCache
from gridproof.genres.nonogram.model import Nonogram


class WorkBudget(Deadline):
    """A deadline that also expires after `limit` line solves: a machine-independent budget,
    so a generator's accept or reject does not depend on the speed of the machine."""

    __slots__ = ("limit", "parent", "used")

    def __init__(self, limit: int, parent: Deadline | None = None) -> None:
        super().__init__(None)
        self.limit = limit
        self.used = 0
        self.parent = parent

    def charge(self, work: int) -> None:
        self.used += work

    def expired(self) -> bool:
        if self.used >= self.limit:
            return True
        return self.parent is not None and self.parent.expired()


class Board:
    """A puzzle's lines, with the memo tables their solves share."""

    __slots__ = ("cache", "clues", "height", "lengths", "line_count", "tables", "width")

    def __init__(self, puzzle: Nonogram, cache: LineCache | None = None) -> None:
        self.width, self.height = puzzle.width, puzzle.height
        self.clues = puzzle.lines
        self.lengths = (puzzle.width,) * puzzle.height + (puzzle.height,) * puzzle.width
        self.line_count = puzzle.width + puzzle.height
        self.cache = cache or LineCache()
        self.tables = [
            self.cache.table(n, clue) for n, clue in zip(self.lengths, self.clues, strict=True)
        ]


@dataclass(slots=True)
class Grid:
    """A partial solution: per-line masks of shaded and empty cells, and the lines that
    changed since they were last solved."""

    filled: list[int]
    empty: list[int]
    dirty: list[int]
    focus: int
    depth: int = 0
    choice: Choice | None = None

    @classmethod
    def blank(cls, board: Board) -> Grid:
        lines = board.line_count
        return cls([0] * lines, [0] * lines, list(range(lines)), (1 << board.height) - 1)

    def copy(self) -> Grid:
        return Grid(list(self.filled), list(self.empty), list(self.dirty), self.focus, self.depth)

    def shaded_mask(self, board: Board) -> int:
        """The shaded cells as a board mask."""
        w = board.width
        out = 0
        for r in range(board.height):
            out |= self.filled[r] << (r * w)
        return out

    def empty_mask(self, board: Board) -> int:
        w = board.width
        out = 0
        for r in range(board.height):
            out |= self.empty[r] << (r * w)
        return out

    def decided(self, board: Board) -> int:
        """How many cells are decided."""
        return sum((self.filled[r] | self.empty[r]).bit_count() for r in range(board.height))

    def unknown_rows(self, board: Board) -> list[int]:
        """Per row, the mask of its undecided columns."""
        full = (1 << board.width) - 1
        return [full & ~(self.filled[r] | self.empty[r]) for r in range(board.height)]

    def set_cell(self, board: Board, row: int, col: int, shaded: bool) -> None:
        """Decide one cell (which must be undecided) and queue its two lines."""
        h = board.height
        if shaded:
            self.filled[row] |= 1 << col
            self.filled[h + col] |= 1 << row
        else:
            self.empty[row] |= 1 << col
            self.empty[h + col] |= 1 << row
        self.dirty.extend((row, h + col))


class Propagator:
    """Runs line solves to a fixpoint; counts them and remembers the line that failed."""

    __slots__ = ("board", "deadline", "failed", "gained", "solves")

    def __init__(self, board: Board, deadline: Deadline) -> None:
        self.board = board
        self.deadline = deadline
        self.solves = 0
        self.failed = -1
        self.gained = 0  # cells the last `run` decided

    def run(self, grid: Grid) -> bool:
        """Close `grid` under line consistency; False on a contradiction (`failed` names
        the line). Stops early, returning True, only if the deadline expires."""
        board = self.board
        h = board.height
        lengths, clues, tables = board.lengths, board.clues, board.tables
        settle = board.cache.settle
        filled, empty = grid.filled, grid.empty
        queued = [False] * board.line_count
        queue: deque[int] = deque()
        for line in grid.dirty:
            if not queued[line]:
                queued[line] = True
                queue.append(line)
        grid.dirty = []
        solves = gained = 0
        while queue:
            line = queue.popleft()
            queued[line] = False
            f, e = filled[line], empty[line]
            solves += 1
            found = settle(tables[line], lengths[line], clues[line], f, e)
            if found is None:
                self.failed = line
                self.solves += solves
                return False
            nf, ne = found
            if nf == f and ne == e:
                continue
            filled[line], empty[line] = nf, ne
            gained += (nf ^ f | ne ^ e).bit_count()
            if line < h:
                base, bit = h, 1 << line
            else:
                base, bit = 0, 1 << (line - h)
            for new, side in ((nf ^ f, filled), (ne ^ e, empty)):
                while new:
                    low = new & -new
                    new ^= low
                    other = base + low.bit_length() - 1
                    side[other] |= bit
                    if not queued[other]:
                        queued[other] = True
                        queue.append(other)
            if solves & 255 == 0 and self.deadline.expired():
                break
        self.solves += solves
        self.gained = gained
        return True

    def sweep(self, grid: Grid, lines: list[int]) -> list[int] | None:
        """Solve each of `lines` once, in order; the lines whose cells changed meanwhile
        (to solve in the next pass), or None on a contradiction."""
        board = self.board
        h = board.height
        filled, empty = grid.filled, grid.empty
        changed: set[int] = set()
        for line in lines:
            f, e = filled[line], empty[line]
            self.solves += 1
            found = board.cache.settle(
                board.tables[line], board.lengths[line], board.clues[line], f, e
            )
            if found is None:
                self.failed = line
                return None
            nf, ne = found
            filled[line], empty[line] = nf, ne
            base, bit = (h, 1 << line) if line < h else (0, 1 << (line - h))
            for new, side in ((nf ^ f, filled), (ne ^ e, empty)):
                while new:
                    low = new & -new
                    new ^= low
                    other = base + low.bit_length() - 1
                    side[other] |= bit
                    changed.add(other)
        return sorted(changed)


@dataclass(slots=True)
class Choice:
    """The cell a search should branch on, with both of its values already propagated
    (None when the grid changed after the probe, so the results are stale)."""

    row: int
    col: int
    shaded: Grid | None
    empty: Grid | None
    score: int


class Prober:
    """Probing to a fixpoint on a propagated grid, learning from both branches.

    A value already implied by an earlier successful probe of the same sweep is not probed
    again: its consequences are a subset of that probe's, so it cannot fail either.
    """

    __slots__ = ("best", "deadline", "learned", "propagator", "refuted")

    def __init__(self, propagator: Propagator) -> None:
        self.propagator = propagator
        self.deadline = propagator.deadline
        self.best: Choice | None = None
        self.learned = 0  # cells decided because both values agreed
        self.refuted = 0  # cells decided because one value failed

    def trial(self, grid: Grid, row: int, col: int, shaded: bool) -> tuple[Grid, int] | None:
        """`grid` with one more cell decided, propagated, and how many cells that decided;
        None if that fails."""
        child = grid.copy()
        child.set_cell(self.propagator.board, row, col, shaded)
        if not self.propagator.run(child):
            return None
        return child, self.propagator.gained

    def run(self, grid: Grid, sweeps: int = 1 << 30) -> Grid | None:
        """Probe every undecided cell in focus until nothing changes (or `sweeps` times);
        the grid (possibly replaced by a surviving branch) or None if a cell has no value
        left."""
        for _ in range(sweeps):
            changed = self._sweep(grid)
            if changed is None:
                return None
            grid, progress = changed
            if not progress or self.deadline.expired():
                break
        if self.best is not None and self.best.shaded is not None:
            stale = self.best.shaded.decided(self.propagator.board) < grid.decided(
                self.propagator.board
            )
            if stale:
                self.best.shaded = self.best.empty = None
        return grid

    def _sweep(self, grid: Grid) -> tuple[Grid, bool] | None:
        self.best = None
        h = self.propagator.board.height
        implied = ([0] * h, [0] * h)  # per row: values some successful probe implied
        progress = False
        for row, col in self._cells(grid):
            if self.deadline.expired():
                return grid, False
            bit = 1 << col
            if (grid.filled[row] | grid.empty[row]) & bit:
                continue  # decided earlier in this sweep
            skip_on, skip_off = implied[0][row] & bit, implied[1][row] & bit
            if skip_on and skip_off:
                continue
            on = None if skip_on else self.trial(grid, row, col, True)
            off = None if skip_off else self.trial(grid, row, col, False)
            on_failed, off_failed = on is None and not skip_on, off is None and not skip_off
            if on_failed or off_failed:
                if on_failed and off_failed:
                    return None
                survivor = off if on_failed else on
                if survivor is None:  # the surviving value was skipped: run it now
                    survivor = self.trial(grid, row, col, not on_failed)
                    if survivor is None:
                        return None
                self.refuted += 1
                grid, progress = survivor[0], True
                continue
            if on is None or off is None:
                self._imply(implied, (on or off)[0])  # type: ignore[index]
                continue
            self._imply(implied, on[0])
            self._imply(implied, off[0])
            if self._learn(grid, on[0], off[0]):
                progress = True
                if not self.propagator.run(grid):
                    return None
            else:
                self._consider(row, col, on, off, progress)
        return grid, progress

    @staticmethod
    def _imply(implied: tuple[list[int], list[int]], result: Grid) -> None:
        on, off = implied
        on[:] = [a | b for a, b in zip(on, result.filled, strict=False)]
        off[:] = [a | b for a, b in zip(off, result.empty, strict=False)]

    def _cells(self, grid: Grid) -> list[tuple[int, int]]:
        """Undecided cells in focus, those beside a decided cell first."""
        board = self.propagator.board
        w = board.width
        full = (1 << w) - 1
        near: list[tuple[int, int]] = []
        far: list[tuple[int, int]] = []
        for row in range(board.height):
            if not grid.focus >> row & 1:
                continue
            known = grid.filled[row] | grid.empty[row]
            unknown = full & ~known
            edge = unknown & ((known << 1) | (known >> 1) | 1 | (1 << (w - 1)))
            for col in range(w):
                if unknown >> col & 1:
                    (near if edge >> col & 1 else far).append((row, col))
        return near + far

    def _learn(self, grid: Grid, on: Grid, off: Grid) -> bool:
        """Decide the cells both branches agree on; whether there were any."""
        board = self.propagator.board
        h = board.height
        shade = [a & b for a, b in zip(on.filled[:h], off.filled[:h], strict=True)]
        clear = [a & b for a, b in zip(on.empty[:h], off.empty[:h], strict=True)]
        if shade == grid.filled[:h] and clear == grid.empty[:h]:
            return False
        for row in range(h):
            for mask, value in (
                (shade[row] & ~grid.filled[row], True),
                (clear[row] & ~grid.empty[row], False),
            ):
                while mask:
                    low = mask & -mask
                    mask ^= low
                    grid.set_cell(board, row, low.bit_length() - 1, value)
                    self.learned += 1
        return True

    def _consider(
        self, row: int, col: int, on: tuple[Grid, int], off: tuple[Grid, int], stale: bool
    ) -> None:
        """Keep the cell whose two values decide the most as the branching choice."""
        score = (on[1] + 1) * (off[1] + 1)
        if self.best is None or score > self.best.score:
            if stale:
                self.best = Choice(row, col, None, None, score)
            else:
                self.best = Choice(row, col, on[0], off[0], score)
