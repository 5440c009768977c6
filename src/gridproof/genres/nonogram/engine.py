"""The fast engine: line propagation over a work queue, and probing.

A `Grid` holds the partial solution twice, once per row and once per column, so every
line is two ints that `lines.settle` reads directly: `filled[i]` and `empty[i]` for line
`i` (rows are lines 0..h-1 with bit c = column c, columns are lines h..h+w-1 with bit r =
row r). Changing a cell updates its row and its column, and queues whichever changed.

Probing assumes an undecided cell shaded, then empty, and propagates each: a value that
dies is wrong, and a cell both values decide the same way is decided. A value implied by
an earlier probe of the same sweep is skipped (it cannot fail where that one did not).
The probe results also choose where a search branches (the cell whose two values decide
the most) and become the branches themselves, already propagated; below the root only
cells in rows and columns the branch changed are probed again.

Glossary: `line` is a line index as above; `cell` is `row * width + col`; `focus` is the
bit mask of the rows a search may branch on (an independent part of the board).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass

from gridproof.core.deadline import Deadline
from gridproof.core.grid import WIDE, bits
from gridproof.genres.nonogram.lines import LineCache
from gridproof.genres.nonogram.model import Nonogram


class Board:
    """A puzzle's lines, with the memo tables their solves share."""

    __slots__ = (
        "cache",
        "clues",
        "complete",
        "height",
        "lengths",
        "line_count",
        "memos",
        "tables",
        "width",
    )

    def __init__(
        self, puzzle: Nonogram, cache: LineCache | None = None, deadline: Deadline | None = None
    ) -> None:
        self.width, self.height = puzzle.width, puzzle.height
        self.clues = puzzle.lines
        self.lengths = (puzzle.width,) * puzzle.height + (puzzle.height,) * puzzle.width
        self.line_count = puzzle.width + puzzle.height
        self.cache = cache or LineCache()
        self.tables = []
        self.complete = True
        """False when `deadline` passed before every line's table was built (on the largest
        boards that alone takes seconds): such a board must not be solved."""
        for index, (n, clue) in enumerate(zip(self.lengths, self.clues, strict=True)):
            if deadline is not None and index % 16 == 0 and deadline.expired():
                self.complete = False
                break
            self.tables.append(self.cache.table(n, clue))
        self.memos = [table.memo for table in self.tables]


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
    touched: int = -1
    """Board mask of the cells the last branch decided (-1: unknown, treat all as touched)."""

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


_MISS = (-1, -1)


def _changed(now: list[int], before: list[int], width: int, rows: int = -1) -> int:
    """The board mask of the cells set in the rows `now` and not in `before`, in time
    linear in the board (the rows are joined as text where shifting would copy big ints);
    `rows` masks the rows that may differ (-1: any)."""
    height = len(before)
    if rows >= 0 and (height * width <= WIDE or rows.bit_count() <= 4):
        out = 0
        while rows:
            low = rows & -rows
            rows ^= low
            row = low.bit_length() - 1
            new = now[row] ^ before[row]
            if new:
                out |= new << (row * width)
        return out
    if height * width <= WIDE:
        out = 0
        for row in range(height):
            new = now[row] ^ before[row]
            if new:
                out |= new << (row * width)
        return out
    if now[:height] == before:
        return 0
    text = "".join(format(now[row] ^ before[row], f"0{width}b") for row in reversed(range(height)))
    return int(text, 2)


class Propagator:
    """Runs line solves to a fixpoint; counts them, remembers the line that failed, and
    the board masks of the cells the last run decided (`new_filled`, `new_empty`)."""

    __slots__ = ("board", "deadline", "failed", "new_empty", "new_filled", "solves")

    def __init__(self, board: Board, deadline: Deadline) -> None:
        self.board = board
        self.deadline = deadline
        self.solves = 0
        self.failed = -1
        self.new_filled = 0
        self.new_empty = 0

    def run(self, grid: Grid) -> bool:
        """Close `grid` under line consistency; False on a contradiction (`failed` names
        the line). Stops early, returning True, only if the deadline expires."""
        board = self.board
        h, w = board.height, board.width
        tables, memos, lengths = board.tables, board.memos, board.lengths
        filled, empty = grid.filled, grid.empty
        queued = [False] * board.line_count
        queue: deque[int] = deque()
        for line in grid.dirty:
            if not queued[line]:
                queued[line] = True
                queue.append(line)
        grid.dirty = []
        solves = 0
        # the rows as they were: every decided cell shows in its row, so what the run
        # decided is read off the rows at the end, not gathered solve by solve
        rows_filled, rows_empty = filled[:h], empty[:h]
        longest = max(h, w)  # a solve of a long line costs more: look at the clock sooner
        every = 255 if longest <= 32 else 0
        touched = 0  # the rows the run changed
        while queue:
            line = queue.popleft()
            queued[line] = False
            f, e = filled[line], empty[line]
            solves += 1
            found = memos[line].get((f << lengths[line]) | e, _MISS)
            if found is _MISS:
                found = tables[line].settle(f, e)
            if found is None:
                self.failed = line
                self.solves += solves
                return False
            nf, ne = found
            if nf == f and ne == e:
                continue
            filled[line], empty[line] = nf, ne
            # bits are walked inline (no `bits()` generator): this loop is the hot path
            if line < h:
                bit = 1 << line
                touched |= bit
                for new, side in ((nf ^ f, filled), (ne ^ e, empty)):
                    while new:
                        low = new & -new
                        new ^= low
                        other = h + low.bit_length() - 1
                        side[other] |= bit
                        if not queued[other]:
                            queued[other] = True
                            queue.append(other)
            else:
                col = line - h
                bit = 1 << col
                touched |= (nf ^ f) | (ne ^ e)
                for new, side in ((nf ^ f, filled), (ne ^ e, empty)):
                    while new:
                        low = new & -new
                        new ^= low
                        other = low.bit_length() - 1
                        side[other] |= bit
                        if not queued[other]:
                            queued[other] = True
                            queue.append(other)
            if solves & every == 0 and self.deadline.expired():
                break
        self.solves += solves
        self.new_filled = _changed(filled, rows_filled, w, touched)
        self.new_empty = _changed(empty, rows_empty, w, touched)
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
            found = board.tables[line].settle(f, e)
            if found is None:
                self.failed = line
                return None
            nf, ne = found
            filled[line], empty[line] = nf, ne
            base, bit = (h, 1 << line) if line < h else (0, 1 << (line - h))
            for new, side in ((nf ^ f, filled), (ne ^ e, empty)):
                for index in bits(new):
                    side[base + index] |= bit
                    changed.add(base + index)
        return sorted(changed)


@dataclass(frozen=True, slots=True)
class Trial:
    """A probe that lived: the propagated grid and the cells it decided (board masks)."""

    grid: Grid
    new_filled: int
    new_empty: int


@dataclass(slots=True)
class Choice:
    """The cell a search should branch on, with both of its values already propagated
    (None when the choice was made after the sweep changed the grid: branch afresh)."""

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

    __slots__ = ("best", "deadline", "learned", "phases", "propagator", "refuted", "scores")

    def __init__(self, propagator: Propagator) -> None:
        self.propagator = propagator
        self.deadline = propagator.deadline
        self.best: Choice | None = None
        self.scores: dict[int, int] = {}
        """Per cell (`row * width + col`), the branching score its last probe pair had,"""
        self.phases: dict[int, int] = {}
        """and its less constrained value (1: shaded decided fewer cells)."""
        self.learned = 0  # cells decided because both values agreed
        self.refuted = 0  # cells decided because one value failed

    def trial(self, grid: Grid, row: int, col: int, shaded: bool) -> Trial | None:
        """`grid` with one more cell decided, propagated, and the cells that decided;
        None if that fails."""
        child = grid.copy()
        lines = self.propagator
        child.set_cell(lines.board, row, col, shaded)
        if not lines.run(child):
            return None
        return Trial(child, lines.new_filled, lines.new_empty)

    def run(self, grid: Grid, sweeps: int = 1 << 30) -> Grid | None:
        """Probe every undecided cell in focus until nothing changes (or `sweeps` times);
        the grid (possibly replaced by a surviving branch) or None if a cell has no value
        left."""
        for _ in range(sweeps):
            changed = self._sweep(grid, grid.depth > 0)
            if changed is None:
                return None
            grid, progress = changed
            if not progress or self.deadline.expired():
                break
        return grid

    def _sweep(self, grid: Grid, local: bool) -> tuple[Grid, bool] | None:
        self.best = None
        w = self.propagator.board.width
        implied_on = implied_off = 0  # values some successful probe of this sweep implied
        progress = False
        # Below the root (`local`), only cells whose row or column the branch changed: the
        # rest were probed at the parent, and their probes rarely say more now.
        for row, col in self._cells(grid, local):
            if self.deadline.expired():
                return grid, False
            if (grid.filled[row] | grid.empty[row]) >> col & 1:
                continue  # decided earlier in this sweep
            bit = 1 << (row * w + col)
            skip_on, skip_off = implied_on & bit, implied_off & bit
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
                grid, progress = survivor.grid, True
                self._forget_branches()
                continue
            for probe in (on, off):
                if probe is not None:
                    implied_on |= probe.new_filled
                    implied_off |= probe.new_empty
            if on is None or off is None:
                continue
            if self._learn(grid, on, off):
                progress = True
                self._forget_branches()
                if not self.propagator.run(grid):
                    return None
            else:
                self._consider(row, col, on, off, progress)
        return grid, progress

    def _cells(self, grid: Grid, local: bool) -> Iterator[tuple[int, int]]:
        """Undecided cells in focus, those beside a decided cell first; when `local`, only
        those in a row or column the last branch touched. The set is taken when the sweep
        starts; the cells come one at a time, so a sweep of a huge board meets its deadline
        check at the first cell, not after listing a million."""
        board = self.propagator.board
        w = board.width
        full = (1 << w) - 1
        rows, cols = full, full  # rows as a mask over rows, cols over columns
        if local and grid.touched >= 0:
            rows = cols = 0
            for cell in bits(grid.touched):
                rows |= 1 << (cell // w)
                cols |= 1 << (cell % w)
        picked: list[tuple[int, int, int]] = []  # (row, its cells in focus, those near)
        for row in range(board.height):
            if not grid.focus >> row & 1:
                continue
            known = grid.filled[row] | grid.empty[row]
            unknown = full & ~known
            if not rows >> row & 1:
                unknown &= cols
            if unknown:
                edge = unknown & ((known << 1) | (known >> 1) | 1 | (1 << (w - 1)))
                picked.append((row, unknown, edge))
        for row, _, edge in picked:
            for col in bits(edge):
                yield row, col
        for row, unknown, edge in picked:
            for col in bits(unknown & ~edge):
                yield row, col

    def _forget_branches(self) -> None:
        """The grid just changed: keep the best cell, but branch on it afresh (the probe
        results would still be valid branches, only less propagated; a fresh branch is
        probed in full, which measured better)."""
        if self.best is not None:
            self.best.shaded = self.best.empty = None

    def _learn(self, grid: Grid, on: Trial, off: Trial) -> bool:
        """Decide the cells both branches agree on; whether there were any."""
        board = self.propagator.board
        w = board.width
        found = False
        for mask, value in (
            (on.new_filled & off.new_filled, True),
            (on.new_empty & off.new_empty, False),
        ):
            for cell in bits(mask):
                row, col = divmod(cell, w)
                grid.set_cell(board, row, col, value)
                self.learned += 1
                found = True
        return found

    def _consider(self, row: int, col: int, on: Trial, off: Trial, stale: bool) -> None:
        """Keep the cell whose two values decide the most as the branching choice."""
        shaded = (on.new_filled | on.new_empty).bit_count()
        empty = (off.new_filled | off.new_empty).bit_count()
        score = (shaded + 1) * (empty + 1)
        cell = row * self.propagator.board.width + col
        self.scores[cell] = score
        self.phases[cell] = 1 if shaded < empty else 0
        if self.best is None or score > self.best.score:
            if stale:
                self.best = Choice(row, col, None, None, score)
            else:
                cell = 1 << (row * self.propagator.board.width + col)
                on.grid.touched = on.new_filled | on.new_empty | cell
                off.grid.touched = off.new_filled | off.new_empty | cell
                self.best = Choice(row, col, on.grid, off.grid, score)
