"""The symmetries of a Nonogram's clues, and the two things the counter does with them.

A symmetry of the square that carries the clues onto themselves carries every solution
onto a solution. It is looked for on the box of lines that have clues: the empty lines
around it hold no shaded cell in any solution, so they do not spoil a symmetric picture
drawn off-centre.

- Each solution the counter finds brings its images along (`image`): a solution that a
  symmetry moves is a second solution at once.
- Designed puzzles often draw a symmetric picture, and the solutions every symmetry
  leaves unchanged are the solutions of a much smaller puzzle: each cell tied to the rest
  of its orbit (`ties`). Whatever that search finds is a solution of the whole puzzle;
  its end says nothing about the asymmetric solutions, so only a search of the whole
  puzzle can finish a count.

Glossary: a `cell_map` lists, for each cell (row-major), the cell a symmetry carries it to;
an `orbit` is a set of cells the symmetries carry onto each other.
"""

from __future__ import annotations

from collections.abc import Sequence

from gridproof.core.grid import bits
from gridproof.core.symmetry import Symmetry
from gridproof.genres.nonogram.model import Nonogram, landing

CellMap = tuple[int, ...]


def clue_box(puzzle: Nonogram) -> tuple[int, int, int, int]:
    """(top, bottom, left, right), bottom and right exclusive: the rows and columns from
    the first to the last with a clue. Empty when no line has one."""
    rows = [r for r, clue in enumerate(puzzle.rows) if clue]
    cols = [c for c, clue in enumerate(puzzle.cols) if clue]
    if not rows or not cols:
        return 0, 0, 0, 0
    return rows[0], rows[-1] + 1, cols[0], cols[-1] + 1


def clue_symmetries(puzzle: Nonogram) -> tuple[CellMap, ...]:
    """The distinct cell maps, other than the identity, of the symmetries that carry the
    clues (on their box) onto themselves; cells outside the box map to themselves."""
    top, bottom, left, right = clue_box(puzzle)
    width, height = right - left, bottom - top
    if not width:
        return ()
    box = Nonogram(width, height, puzzle.rows[top:bottom], puzzle.cols[left:right])
    w = puzzle.width
    maps = []
    for symmetry in Symmetry:
        if symmetry is Symmetry.IDENTITY or not _keeps(box, symmetry):
            continue
        cell_map = list(range(w * puzzle.height))
        for r in range(height):
            for c in range(width):
                r2, c2 = symmetry.map_rc(r, c, width, height)
                cell_map[(top + r) * w + left + c] = (top + r2) * w + left + c2
        maps.append(tuple(cell_map))
    identity = tuple(range(w * puzzle.height))  # a flip of a single line moves nothing
    return tuple(m for m in dict.fromkeys(maps) if m != identity)


def _keeps(box: Nonogram, symmetry: Symmetry) -> bool:
    """Whether the symmetry carries every clue onto the clue of the line it lands on
    (`model.transform` would, but this stops at the first that differs: most boards
    differ at once)."""
    w, h = box.width, box.height
    if symmetry.swaps_axes and w != h:
        return False
    for index, clue in enumerate(box.lines):
        is_row, at, backwards = landing(symmetry, index, w, h)
        landed = (box.rows if is_row else box.cols)[at]
        if (landed[::-1] if backwards else landed) != clue:
            return False
    return True


def image(shaded: int, cell_map: CellMap) -> int:
    """The shaded cells carried by one symmetry."""
    out = 0
    for cell in bits(shaded):
        out |= 1 << cell_map[cell]
    return out


def with_images(solutions: Sequence[int], cell_maps: Sequence[CellMap]) -> list[int]:
    """The distinct solutions and their images, each solution followed by its own."""
    out: dict[int, None] = {}
    for shaded in solutions:
        out[shaded] = None
        for cell_map in cell_maps:
            out.setdefault(image(shaded, cell_map), None)
    return list(out)


def ties(cell_maps: Sequence[CellMap], cells: int) -> list[tuple[int, int]]:
    """Pairs of cells that agree in every solution the symmetries leave unchanged: each
    cell of an orbit with the orbit's first cell."""
    pairs = []
    seen = [False] * cells
    for first in range(cells):
        if seen[first]:
            continue
        seen[first] = True
        orbit = [first]
        for cell in orbit:  # grows as it goes: the closure under every map
            for cell_map in cell_maps:
                other = cell_map[cell]
                if not seen[other]:
                    seen[other] = True
                    orbit.append(other)
                    pairs.append((first, other))
    return pairs
