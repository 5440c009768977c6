"""Star Battle's complete counter (the ladder that writes steps is `rules.LADDER`).

The counter does not run the named ladder: it closes marks under `close` (stars empty
their eight neighbours; a unit with its stars empties the rest; a unit whose open cells
are just the stars it needs fills them; two neighbouring rows or columns cannot hold more
stars than their open columns or rows have room for without touching, and when they have
just that room, an odd run of them holds its stars at its 1st, 3rd, ... places), and a unit
whose every placement of its missing stars uses a cell, or none uses it, or all touch it,
decides it (`position.Ways`); then it branches on the placements of the unit with the fewest.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from math import comb

from gridproof.core.deadline import Deadline
from gridproof.core.grid import bits
from gridproof.core.outcome import Outcome
from gridproof.core.search import count_solutions
from gridproof.genres.starbattle.model import StarBattle
from gridproof.genres.starbattle.position import Board, board_of

Node = tuple[int, int, int]
"""A search node: (stars, empty, the cells its parent had decided when closed), so that
closing a child reads again only the units its branch changed."""


def king_spread(board: Board, mask: int) -> int:
    """Every cell touching a cell of `mask`, diagonals included (`mask`'s own cells only
    where they touch another)."""
    geo = board.geo
    beside = ((mask << 1) & geo.not_first_col) | ((mask >> 1) & geo.not_last_col)
    across = mask | beside
    return beside | ((across << geo.width) & geo.full) | (across >> geo.width)


LISTED = 150
"""The counter lists a unit's placements once C(open cells, stars needed) is at most this;
a wider unit (three stars among 14 open cells: 364) is left to the other rules until they
narrow it. Listing every unit at the root cost more than the search it saved: on the
three-star janko boards, median CPU 13.5 ms listing all, 7.6 ms from 150, 9.5 ms from 60
(chosen on those boards; `benchmarks/starbattle.py`)."""


def close(board: Board, shaded: int, empty: int, known: int = 0) -> tuple[int, int] | None:
    """The marks closed under the counter's rules (None on a contradiction). `known`: the
    cells of a closed position these marks grew from (its units' rules held there, so a
    unit none of whose cells changed since is not read again)."""
    k = board.stars
    units = board.units
    ways = board.ways
    done = [-1] * len(units)  # each unit's open cells when it was last read
    fresh = bool(known)
    while True:
        around = king_spread(board, shaded)
        if around & shaded or shaded & empty:
            return None
        empty |= around
        if fresh:
            fresh = False
            changed = (shaded | empty) & ~known
            for index, unit in enumerate(units):
                if not unit.mask & changed:
                    done[index] = unit.mask & ~(shaded | empty)
        before = shaded, empty
        for index, unit in enumerate(units):
            mask = unit.mask
            room = mask & ~(shaded | empty)
            if room == done[index]:
                continue  # nothing in the unit changed since its placements were read
            done[index] = room
            need = k - (mask & shaded).bit_count()
            if need < 0:
                return None
            if not need:
                empty |= room
                continue
            free = room.bit_count()
            if free < need:
                return None
            if need > 1 and comb(free, need) > LISTED:
                continue  # too early to pay for listing: the other rules narrow it first
            summary = ways.of(room, need)
            if summary is None:
                continue
            found, used, every, touched = summary
            if not found or touched & shaded:
                return None
            shaded |= every
            empty |= (room & ~used) | touched
        if (shaded, empty) == before:
            confined = _confine(board, shaded, empty)
            if confined is not None:
                confined = _strips(board, shaded, confined)
            if confined is None:
                return None
            if confined == empty:
                return shaded, empty
            empty = confined


def _confine(board: Board, shaded: int, empty: int) -> int | None:
    """`empty` grown by the confinement rules over bands of neighbouring rows (columns):
    k regions living inside k lines own them, k lines living inside k regions own them
    (None when more regions than lines, or fewer, are confined so). A region counts as
    touching a band when the lines its open cells and stars span meet the band: more than
    it truly touches only where the position is dead anyway.

    Each region's span is read once; how many regions lie inside or meet each band comes
    from counts summed over the spans, so a band costs a few additions, and the masks are
    built only for a band the rules act on."""
    geo = board.geo
    w = geo.width
    live = geo.full & ~empty
    regions = [unit.mask & live for unit in board.regions]
    if not all(regions):
        return None
    total = len(regions)
    for lines in (board.rows, board.cols):
        n = len(lines)
        spans = [_span(reg, w, lines is board.rows) for reg in regions]
        ending = [0] * (n + 1)  # ending[i]: regions whose span ends before line i
        starting = [0] * (n + 1)  # starting[i]: regions whose span starts after line i - 1
        within = [[0] * n for _ in range(n)]  # within[lo][hi]: regions spanning lo..hi
        for lo, hi in spans:
            ending[hi + 1] += 1
            starting[lo] += 1
            within[lo][hi] += 1
        for i in range(n):
            ending[i + 1] += ending[i]
        for i in range(n - 1, -1, -1):
            starting[i] += starting[i + 1]
        inside_from = [0] * n  # regions inside first..last, for the current `first`
        for first in range(n - 1, -1, -1):
            row = within[first]
            running = 0
            for last in range(first, n):
                running += row[last]
                inside_from[last] += running
            top = min(first + n // 2, n - 1 if first == 0 else n)
            for last in range(first, top):
                size = last - first + 1
                inside = inside_from[last]
                touched = total - ending[first] - starting[last + 1]
                if inside > size or touched < size:
                    return None
                if inside == size or touched == size:
                    band = 0
                    for line in lines[first : last + 1]:
                        band |= line.mask
                    owned = met = 0
                    for (lo, hi), reg in zip(spans, regions, strict=True):
                        if lo <= last and hi >= first:
                            met |= reg
                            if first <= lo and hi <= last:
                                owned |= reg
                    if inside == size:
                        empty |= band & live & ~owned & ~shaded
                    if touched == size:
                        empty |= met & ~band & ~shaded
    return empty


def _span(reg: int, w: int, by_rows: bool) -> tuple[int, int]:
    """The first and last row (or column) that the cells of `reg` meet."""
    if by_rows:
        return ((reg & -reg).bit_length() - 1) // w, (reg.bit_length() - 1) // w
    folded = 0
    row = (1 << w) - 1
    while reg:
        folded |= reg & row
        reg >>= w
    return (folded & -folded).bit_length() - 1, folded.bit_length() - 1


def _strips(board: Board, shaded: int, empty: int) -> int | None:
    """`empty` grown by what every two neighbouring rows (and columns) leave room for (None
    when they cannot hold the stars they still need). Stars in one 2-wide strip never share
    or neighbour a position along it, so a run of L positions open in either line holds at
    most (L + 1) // 2 of them; when the runs hold just what the strip needs, an odd run
    holds its stars at its 1st, 3rd, 5th, ... positions, and its 2nd, 4th, ... are empty."""
    k, w = board.stars, board.geo.width
    open_cells = board.geo.full & ~(shaded | empty)
    for lines in (board.rows, board.cols):
        by_rows = lines is board.rows
        for a, b in itertools.pairwise(lines):
            need = 2 * k - ((a.mask | b.mask) & shaded).bit_count()
            if need <= 0:
                continue
            if by_rows:
                row_a = (open_cells & a.mask) >> (a.index * w)
                row_b = (open_cells & b.mask) >> (b.index * w)
                spots = row_a | row_b
            else:
                spots = _column_bits(open_cells, a.index, w) | _column_bits(open_cells, b.index, w)
            room, gaps = _room(spots)
            if room < need:
                return None
            if room == need and gaps:
                if by_rows:
                    empty |= (gaps << (a.index * w)) | (gaps << (b.index * w))
                else:
                    for r in bits(gaps):
                        empty |= (1 << (r * w + a.index)) | (1 << (r * w + b.index))
    return empty


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


def _room(line: int) -> tuple[int, int]:
    """How many non-touching stars a line's open runs hold (a run of L, (L + 1) // 2), and
    the 2nd, 4th, ... positions of its odd runs (empty when the line is full)."""
    total = gaps = 0
    while line:
        low = line & -line
        run_end = (line + low) & ~line  # the first zero above the run
        run = run_end.bit_length() - low.bit_length()
        total += (run + 1) // 2
        if run & 1:
            gaps |= _EVERY_OTHER[run] * (low << 1)
        line &= ~(run_end - low)
    return total, gaps


_EVERY_OTHER = [sum(1 << (2 * i) for i in range(n // 2)) for n in range(64)]
"""_EVERY_OTHER[n]: bits 0, 2, 4, ... below n - 1: a run's 2nd, 4th, ... positions once
shifted to its 2nd."""


class StarSpace:
    """Propagate with `close`; branch on the placements of the unit that has the fewest
    (each solution uses exactly one of them), or on one open cell when no unit has its
    placements listed."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.propagations = 0

    def propagate(self, node: Node) -> Node | None:
        self.propagations += 1
        closed = close(self.board, node[0], node[1], node[2])
        return None if closed is None else (closed[0], closed[1], 0)

    def split(self, node: Node) -> Sequence[Node]:
        return [node]

    def branches(self, node: Node) -> Sequence[Node] | None:
        shaded, empty, _ = node
        known = shaded | empty
        k = self.board.stars
        best: list[int] = []
        best_room = fallback = 0
        for unit in self.board.units:
            room = unit.mask & ~known
            if not room:
                continue
            fallback = fallback or room
            need = k - (unit.mask & shaded).bit_count()
            if comb(room.bit_count(), need) > LISTED:
                continue
            summary = self.board.ways.of(room, need)
            if summary is not None and (not best or len(summary[0]) < len(best)):
                best, best_room = summary[0], room
                if len(best) == 2:
                    break
        if best:
            return [(shaded | way, empty | (best_room & ~way), known) for way in best]
        if not fallback:
            return None
        cell = fallback & -fallback
        return [(shaded | cell, empty, known), (shaded, empty | cell, known)]

    def solution(self, node: Node) -> int:
        return node[0]


def propagate_marks(
    puzzle: StarBattle, shaded: int, empty: int, deadline: Deadline
) -> tuple[int, int] | None:
    """The counter's propagation at one node from the given marks (`Genre.propagate`):
    `close`, every mark taken as new."""
    return close(board_of(puzzle), shaded, empty)


def count(puzzle: StarBattle, limit: int = 2, deadline: Deadline | None = None) -> Outcome:
    """Count the puzzle's solutions up to `limit` (2 decides uniqueness) before `deadline`."""
    board = board_of(puzzle)
    return count_solutions(StarSpace(board), (0, 0, 0), limit, deadline or Deadline.never())
