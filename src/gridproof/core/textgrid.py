"""Boards as text pictures for people (`gridproof show`, `solve`): region borders drawn in
ASCII around cells three characters wide, and the marks of a partial solution.

A picture is for reading, not parsing: `Genre.format_grid` and `parse_grid` stay the rows of
`#` and `.` that scripts and `validate --grid` exchange.

Glossary: `shaded` and `empty` are the decided cells (masks); a cell in neither is
undecided and drawn blank.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from gridproof.core.grid import Sized

SHADED, EMPTY, UNDECIDED = "#", ".", " "


def mark(cell: int, shaded: int, empty: int) -> str:
    """`#` for a shaded cell, `.` for an empty one, a blank for an undecided one."""
    if shaded >> cell & 1:
        return SHADED
    return EMPTY if empty >> cell & 1 else UNDECIDED


def marks_text(puzzle: Sized, shaded: int, empty: int) -> list[str]:
    """Rows of marks, one character a cell, for a genre without its own picture."""
    w = puzzle.width
    return ["".join(mark(r * w + c, shaded, empty) for c in range(w)) for r in range(puzzle.height)]


def region_text(
    width: int, height: int, regions: Sequence[int], cell_text: Callable[[int], str]
) -> list[str]:
    """The board with a border wherever two cells (or a cell and the outside) belong to
    different regions, `+`, `-` and `|` on the grid lines; `cell_text(cell)` gives the
    three characters inside each cell."""

    def region(r: int, c: int) -> int:
        return regions[r * width + c] if 0 <= r < height and 0 <= c < width else -1

    def wall(r1: int, c1: int, r2: int, c2: int) -> bool:
        return region(r1, c1) != region(r2, c2)

    lines = []
    for r in range(height + 1):
        line = []
        for c in range(width + 1):
            up = r > 0 and wall(r - 1, c - 1, r - 1, c)
            down = r < height and wall(r, c - 1, r, c)
            left = c > 0 and wall(r - 1, c - 1, r, c - 1)
            right = c < width and wall(r - 1, c, r, c)
            line.append(_junction(up or down, left or right))
            if c < width:
                line.append("---" if right else "   ")
        lines.append("".join(line).rstrip())
        if r < height:
            cells = []
            for c in range(width + 1):
                cells.append("|" if wall(r, c - 1, r, c) else " ")
                if c < width:
                    cells.append(cell_text(r * width + c))
            lines.append("".join(cells).rstrip())
    return lines


def _junction(vertical: bool, horizontal: bool) -> str:
    if vertical and horizontal:
        return "+"
    return "|" if vertical else "-" if horizontal else " "
