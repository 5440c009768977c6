"""Star Battle as printed: thin cell lines, thick region borders, and with a solution a
star (a five-pointed glyph) in each starred cell."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gridproof.core import drawing
from gridproof.core.drawing import Drawing
from gridproof.core.grid import bits

if TYPE_CHECKING:
    from gridproof.genres.starbattle.model import StarBattle

STAR = "\u2605"


def draw(puzzle: StarBattle, solution: int | None) -> Drawing:
    """The puzzle, with `solution`'s stars when one is given."""
    w, h = puzzle.width, puzzle.height
    drawing.check_size(w, h)
    shapes: list[drawing.Shape] = []
    shapes += drawing.grid_lines(0, 0, w, h)
    shapes += drawing.region_borders(0, 0, w, puzzle.regions)
    shapes += drawing.frame(0, 0, w, h)
    if solution is not None:
        for cell in bits(solution):
            r, c = divmod(cell, w)
            shapes.append(drawing.Text(c + 0.5, r + 0.5, STAR, 0.7))
    return Drawing(w, h, tuple(shapes))
