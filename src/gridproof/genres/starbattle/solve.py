"""Star Battle's complete counter (the ladder that writes steps is `rules.LADDER`).

The counter does not run the named ladder: it closes marks under `close` (stars empty
their eight neighbours; a unit with its stars empties the rest; a unit whose open cells
are just the stars it needs fills them; two neighbouring rows or columns cannot hold more
stars than their open columns or rows have room for without touching), then branches on
an open cell of the unit with the fewest open cells that still needs stars: a star there,
or not.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from gridproof.core.deadline import Deadline
from gridproof.core.outcome import Outcome
from gridproof.core.search import count_solutions
from gridproof.genres.starbattle.model import StarBattle
from gridproof.genres.starbattle.position import Board, board_of

Node = tuple[int, int]
"""A search node: (stars, empty)."""


def king_spread(board: Board, mask: int) -> int:
    """Every cell touching a cell of `mask`, diagonals included (`mask`'s own cells only
    where they touch another)."""
    geo = board.geo
    beside = ((mask << 1) & geo.not_first_col) | ((mask >> 1) & geo.not_last_col)
    across = mask | beside
    return beside | ((across << geo.width) & geo.full) | (across >> geo.width)


def close(board: Board, shaded: int, empty: int) -> Node | None:
    """The marks closed under the counter's rules (None on a contradiction)."""
    k = board.stars
    units = board.units
    full = board.geo.full
    while True:
        around = king_spread(board, shaded)
        if around & shaded or shaded & empty:
            return None
        empty |= around
        before = shaded, empty
        for unit in units:
            mask = unit.mask
            have = (mask & shaded).bit_count()
            if have > k:
                return None
            room = mask & ~(shaded | empty)
            need = k - have
            if not room:
                if need:
                    return None
                continue
            if not need:
                empty |= room
                continue
            free = room.bit_count()
            if free < need:
                return None
            if free == need:
                shaded |= room
            elif need == 1:
                # the one star left touches whatever every open cell touches
                king = board.king
                common = full
                for cell in _cells(room):
                    common &= king[cell]
                    if not common:
                        break
                empty |= common & ~shaded
        if (shaded, empty) == before:
            confined = _confine(board, shaded, empty)
            if confined is None or not _pairs_fit(board, shaded, empty):
                return None
            if confined == empty:
                return shaded, empty
            empty = confined


def _confine(board: Board, shaded: int, empty: int) -> int | None:
    """`empty` grown by the confinement rules over bands of neighbouring rows (columns):
    k regions living inside k lines own them, k lines living inside k regions own them
    (None when more regions than lines, or fewer, are confined so). A region counts as
    touching a band when the lines its open cells and stars span meet the band: more than
    it truly touches only where the position is dead anyway."""
    live = board.geo.full & ~empty
    regions = [unit.mask & live for unit in board.regions]
    for lines in (board.rows, board.cols):
        n = len(lines)
        spans = []
        for reg in regions:
            held = [line.index for line in lines if reg & line.mask]
            if not held:
                return None
            spans.append((held[0], held[-1], reg))
        for first in range(n):
            band = 0
            for last in range(first, min(first + n // 2, n - 1 if first == 0 else n)):
                band |= lines[last].mask
                size = last - first + 1
                inside = touched = 0
                inside_mask = touched_mask = 0
                for lo, hi, reg in spans:
                    if lo <= last and hi >= first:
                        touched += 1
                        touched_mask |= reg
                        if lo >= first and hi <= last:
                            inside += 1
                            inside_mask |= reg
                if inside > size or touched < size:
                    return None
                if inside == size:
                    empty |= band & live & ~inside_mask & ~shaded
                if touched == size:
                    empty |= touched_mask & ~band & ~shaded
    return empty


def _cells(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _pairs_fit(board: Board, shaded: int, empty: int) -> bool:
    """Whether every two neighbouring rows (and columns) have room for the stars they still
    need: stars in one 2-wide strip never share or neighbour a column, so a run of L open
    columns holds at most (L + 1) // 2 of them."""
    k, w = board.stars, board.geo.width
    open_cells = board.geo.full & ~(shaded | empty)
    for lines in (board.rows, board.cols):
        for a, b in itertools.pairwise(lines):
            need = 2 * k - ((a.mask | b.mask) & shaded).bit_count()
            if need <= 0:
                continue
            if lines is board.rows:
                row_a = (open_cells & a.mask) >> (a.index * w)
                row_b = (open_cells & b.mask) >> (b.index * w)
                columns = row_a | row_b
            else:
                columns = _column_bits(open_cells, a.index, w) | _column_bits(
                    open_cells, b.index, w
                )
            if _room(columns) < need:
                return False
    return True


def _column_bits(mask: int, col: int, w: int) -> int:
    """Column `col` of `mask` as a row of bits (bit r: row r)."""
    out, r = 0, 0
    mask >>= col
    while mask:
        if mask & 1:
            out |= 1 << r
        mask >>= w
        r += 1
    return out


def _room(line: int) -> int:
    """How many non-touching stars a line's open runs hold: each run of L, (L + 1) // 2."""
    total = 0
    while line:
        low = line & -line
        run_end = (line + low) & ~line  # the first zero above the run
        run = run_end.bit_length() - low.bit_length()
        total += (run + 1) // 2
        line &= ~(run_end - low)
    return total


class StarSpace:
    """Propagate with `close`; branch on an open cell of the tightest unit."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.propagations = 0

    def propagate(self, node: Node) -> Node | None:
        self.propagations += 1
        return close(self.board, node[0], node[1])

    def split(self, node: Node) -> Sequence[Node]:
        return [node]

    def branches(self, node: Node) -> Sequence[Node] | None:
        shaded, empty = node
        best, best_free = 0, 0
        for unit in self.board.units:
            room = unit.mask & ~(shaded | empty)
            if room:
                free = room.bit_count()
                if best == 0 or free < best_free:
                    best, best_free = room, free
                    if free == 2:
                        break
        if not best:
            return None
        cell = best & -best
        return [(shaded | cell, empty), (shaded, empty | cell)]

    def solution(self, node: Node) -> int:
        return node[0]


def count(puzzle: StarBattle, limit: int = 2, deadline: Deadline | None = None) -> Outcome:
    """Count the puzzle's solutions up to `limit` (2 decides uniqueness) before `deadline`."""
    board = board_of(puzzle)
    return count_solutions(StarSpace(board), (0, 0), limit, deadline or Deadline.never())
