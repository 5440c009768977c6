"""Norinori as printed: thin cell lines, thick borders where regions meet, and with a
solution its shaded dominoes (grey, so the borders stay visible over them)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gridproof.core import drawing
from gridproof.core.drawing import Drawing

if TYPE_CHECKING:
    from gridproof.genres.norinori.model import Norinori


def draw(puzzle: Norinori, solution: int | None) -> Drawing:
    """The puzzle, with `solution`'s shaded cells when one is given."""
    w, h = puzzle.width, puzzle.height
    drawing.check_size(w, h)
    shapes: list[drawing.Shape] = []
    if solution is not None:
        shapes += drawing.shaded_cells(0, 0, w, h, solution, drawing.GREY)
    shapes += drawing.grid_lines(0, 0, w, h)
    shapes += drawing.region_borders(0, 0, w, puzzle.regions)
    shapes += drawing.frame(0, 0, w, h)
    return Drawing(w, h, tuple(shapes))
