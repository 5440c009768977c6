"""Repairing a Nondango by hand: a circle removed or added, or a cell moved across a border.

Against a rival that paints a circle black where the kept solution leaves it white,
removing that circle leaves the rival's region without its black circle; adding a circle
in line with the circles where the two differ (two cells away at most, in any of the eight
directions) makes a new line of three that one of them may break; moving a differing
circle's cell into a neighbouring region changes both regions' counts. Without a solution,
circles near the cells the contradiction names are removed, empty cells near them get one,
and those cells move across borders (out of a region of their own too, merging it).
After those targeted edits comes the vocabulary, first in and beside the regions where the
two solutions differ, then on the whole board: every circle removed, every empty cell
given one, and every border edit of `core.borders` (moves, a cell with its
neighbours, stretches of border, merges, splits), so that a single edit that makes the
board unique is listed whenever the vocabulary has one.
"""

from __future__ import annotations

from collections.abc import Iterator

from gridproof.core.borders import border_edits, into
from gridproof.core.deadline import Deadline
from gridproof.core.grid import Geometry, bits, cell_name, geometry
from gridproof.core.outcome import Verdict
from gridproof.core.repair import Edit, Spare
from gridproof.genres.nondango.model import Nondango, make_puzzle
from gridproof.genres.nondango.position import board_of
from gridproof.genres.nondango.search import part_rivals
from gridproof.genres.nondango.solve import count

_LINE_STEPS = tuple(
    (dr * k, dc * k)
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1), (0, -1), (-1, 0), (-1, -1), (-1, 1))
    for k in (1, 2)
)


def edits(
    puzzle: Nondango, keep: int | None, rival: int | None, focus: int
) -> Iterator[Edit[Nondango]]:
    """Candidate single edits: removals, then additions, then border moves."""
    geo = geometry(puzzle.width, puzzle.height)
    if keep is None or rival is None:
        near = _in_line(geo, focus) | focus if focus else geo.full
        yield from _removals(puzzle, near & puzzle.circles, keep)
        yield from _additions(puzzle, near & ~puzzle.circles, keep)
        yield from _moves(puzzle, geo, near, keep, merge=True)
        yield from vocabulary(puzzle, keep, near)
        return
    differ = (keep ^ rival) & puzzle.circles
    yield from _removals(puzzle, rival & ~keep & puzzle.circles, keep)
    yield from _additions(puzzle, _in_line(geo, differ) & ~puzzle.circles, keep)
    yield from _moves(puzzle, geo, differ, keep, merge=False)
    yield from vocabulary(puzzle, keep, _around(puzzle, geo, keep ^ rival))
    yield from vocabulary(puzzle, keep)


def _around(puzzle: Nondango, geo: Geometry, cells: int) -> int:
    """The regions of `cells`, the cells beside them and those in line with `cells`: where
    an edit may break a rival that differs from the kept solution at `cells`."""
    wanted = {puzzle.regions[cell] for cell in bits(cells)}
    out = sum(1 << cell for cell, rid in enumerate(puzzle.regions) if rid in wanted)
    return out | geo.spread(out) | _in_line(geo, cells)


def rivals(puzzle: Nondango, solution: int, deadline: Deadline) -> list[int] | None:
    """One rival answer for each independent group of regions that has another way to be
    filled (`search.part_rivals`)."""
    return part_rivals(board_of(puzzle), solution, deadline)


def vocabulary(
    puzzle: Nondango, keep: int | None, cells: int | None = None
) -> Iterator[Edit[Nondango]]:
    """Every circle edit and border edit of the board (at `cells` only, when given)."""
    geo = geometry(puzzle.width, puzzle.height)
    near = geo.full if cells is None else cells
    yield from _removals(puzzle, near & puzzle.circles, keep)
    yield from _additions(puzzle, near & ~puzzle.circles, keep)
    circle_rows = puzzle.circle_rows()
    w = geo.width
    for redraw in border_edits(geo, puzzle.regions, cells):
        rows = [list(redraw.labels[r * w : (r + 1) * w]) for r in range(geo.height)]
        board = make_puzzle(rows, circle_rows, puzzle.variant)
        yield Edit(redraw.text, board, keep, redraw.cells)


def _in_line(geo: Geometry, cells: int) -> int:
    """Every cell one or two steps from a cell of `cells` along a row, column or diagonal."""
    out = 0
    for cell in bits(cells):
        r, c = divmod(cell, geo.width)
        for dr, dc in _LINE_STEPS:
            rr, cc = r + dr, c + dc
            if 0 <= rr < geo.height and 0 <= cc < geo.width:
                out |= 1 << (rr * geo.width + cc)
    return out


def _removals(puzzle: Nondango, cells: int, keep: int | None) -> Iterator[Edit[Nondango]]:
    for cell in bits(cells):
        smaller = _with_circles(puzzle, puzzle.circles & ~(1 << cell))
        kept = None if keep is None else keep & ~(1 << cell)
        yield Edit(f"remove the circle at {cell_name(cell, puzzle.width)}", smaller, kept, (cell,))


def _additions(puzzle: Nondango, cells: int, keep: int | None) -> Iterator[Edit[Nondango]]:
    for cell in bits(cells):
        larger = _with_circles(puzzle, puzzle.circles | 1 << cell)
        yield Edit(f"add a circle at {cell_name(cell, puzzle.width)}", larger, keep, (cell,))


def _moves(
    puzzle: Nondango, geo: Geometry, cells: int, keep: int | None, *, merge: bool
) -> Iterator[Edit[Nondango]]:
    labels = list(puzzle.regions)
    areas = [0] * puzzle.region_count
    for cell, rid in enumerate(labels):
        areas[rid] |= 1 << cell
    for cell in bits(cells):
        old = labels[cell]
        rest = areas[old] & ~(1 << cell)
        if not rest and not merge:
            continue
        for new in sorted({labels[n] for n in bits(geo.neighbours[cell])} - {old}):
            moved = list(labels)
            moved[cell] = new
            if rest and not geo.connected(rest):
                continue
            rows = [moved[r * geo.width : (r + 1) * geo.width] for r in range(geo.height)]
            board = make_puzzle(rows, puzzle.circle_rows(), puzzle.variant)
            text = f"move {cell_name(cell, geo.width)} into {into(geo, labels, 1 << cell, new)}"
            yield Edit(text, board, keep, (cell,))


def _with_circles(puzzle: Nondango, circles: int) -> Nondango:
    return Nondango(puzzle.width, puzzle.height, puzzle.regions, circles, puzzle.variant)


def spares(puzzle: Nondango, solution: int, deadline: Deadline, work: int) -> Iterator[Spare]:
    """The white circles the board can lose and stay unique (a black circle never can: its
    region would be left without one)."""
    for cell in bits(puzzle.circles & ~solution):
        if deadline.expired():
            return
        board = _with_circles(puzzle, puzzle.circles & ~(1 << cell))
        if count(board, 2, deadline.within(work=work)).verdict is Verdict.UNIQUE:
            yield Spare(f"the circle at {cell_name(cell, puzzle.width)}", (cell,))
