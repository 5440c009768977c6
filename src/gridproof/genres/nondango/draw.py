"""Nondango as printed: thin cell lines, thick borders where regions meet, a circle in
every circle cell; with a solution its black circles filled and the others left white.
A puzzle of the `no-three-black` variant says so in a line of text below the grid (the
picture alone cannot)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gridproof.core import drawing
from gridproof.core.drawing import Anchor, Circle, Drawing, Text
from gridproof.core.grid import bits

if TYPE_CHECKING:
    from gridproof.genres.nondango.model import Nondango

RADIUS = 0.32
STROKE = 0.05
NOTE_SIZE = 0.5
DEFAULT_RULE = "no-three-same"
"""The rule a printed Nondango is read by unless a line below it says otherwise (`model.Variant`;
not imported: the model imports this module to show itself)."""


def draw(puzzle: Nondango, solution: int | None) -> Drawing:
    """The puzzle, with `solution`'s black circles filled when one is given."""
    w, h = puzzle.width, puzzle.height
    drawing.check_size(w, h)
    black = solution or 0
    shapes: list[drawing.Shape] = [*drawing.grid_lines(0, 0, w, h)]
    shapes += drawing.region_borders(0, 0, w, puzzle.regions)
    shapes += drawing.frame(0, 0, w, h)
    for cell in bits(puzzle.circles):
        r, c = divmod(cell, w)
        fill = drawing.INK if black >> cell & 1 else drawing.PAPER
        shapes.append(Circle(c + 0.5, r + 0.5, RADIUS, fill, STROKE))
    if puzzle.variant.value == DEFAULT_RULE:
        return Drawing(w, h, tuple(shapes))
    rule = f"rule: {puzzle.variant.value}"
    size = min(NOTE_SIZE, w * 1.8 / len(rule))  # a glyph is about 0.55 of its size wide
    shapes.append(Text(0, h + 0.6, rule, size, Anchor.START))
    return Drawing(w, h + 1, tuple(shapes))
