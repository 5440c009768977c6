"""Lights as printed: thin cell lines, a frame, each digit in its cell; with a solution its
shaded cells filled grey (the digits stay readable: no digit is ever shaded)."""

from __future__ import annotations

from gridproof.core import drawing
from gridproof.core.drawing import Drawing, Text
from tests.toygenre.model import Lights

DIGIT_SIZE = 0.6
"""A digit's height, in cells."""


def draw(puzzle: Lights, solution: int | None) -> Drawing:
    """The puzzle, with `solution`'s shaded cells when one is given."""
    w, h = puzzle.width, puzzle.height
    drawing.check_size(w, h)
    shapes: list[drawing.Shape] = []
    if solution is not None:
        shapes += drawing.shaded_cells(0, 0, w, h, solution, drawing.GREY)
    shapes += drawing.grid_lines(0, 0, w, h)
    shapes += drawing.frame(0, 0, w, h)
    for cell, digit in enumerate(puzzle.clues):
        if digit is not None:
            r, c = divmod(cell, w)
            shapes.append(Text(c + 0.5, r + 0.5, str(digit), DIGIT_SIZE))
    return Drawing(w, h, tuple(shapes))
