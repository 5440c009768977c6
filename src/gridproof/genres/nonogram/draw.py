"""Nonogram as printed: the row clues left of the grid and the column clues above it, one
number per clue cell (an empty line's clue reads 0), thin cell lines with a heavier one every
five cells, and with a solution its picture shaded.

Glossary: `left` is how many clue cells the row clues take across, `top` how many the
column clues take down; the grid's top-left corner is at (left, top).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gridproof.core import drawing
from gridproof.core.drawing import Anchor, Drawing, Line, Text

if TYPE_CHECKING:
    from gridproof.genres.nonogram.model import Nonogram

BLOCK = 5
"""Every fifth grid line is heavier, as printed Nonograms help the eye count."""
CLUE_SIZE = 0.6


def draw(puzzle: Nonogram, solution: int | None) -> Drawing:
    """The puzzle with its clues, with `solution`'s picture when one is given."""
    w, h = puzzle.width, puzzle.height
    drawing.check_size(w, h)
    left = max(1, *map(len, puzzle.rows))
    top = max(1, *map(len, puzzle.cols))
    shapes: list[drawing.Shape] = []
    if solution is not None:
        shapes += drawing.shaded_cells(left, top, w, h, solution)
    shapes += _guides(left, top, w, h)
    shapes += _lines(left, top, w, h)
    shapes += drawing.frame(left, top, w, h)
    for r, clue in enumerate(puzzle.rows):
        shown = clue or (0,)
        for i, number in enumerate(shown):
            shapes.append(_number(number, left - len(shown) + i + 0.5, top + r + 0.5))
    for c, clue in enumerate(puzzle.cols):
        shown = clue or (0,)
        for i, number in enumerate(shown):
            shapes.append(_number(number, left + c + 0.5, top - len(shown) + i + 0.5))
    return Drawing(left + w, top + h, tuple(shapes))


def _lines(left: int, top: int, w: int, h: int) -> list[Line]:
    """The grid's inner lines, every `BLOCK`-th one heavier."""
    out = []
    for r in range(1, h):
        weight = drawing.MEDIUM if r % BLOCK == 0 else drawing.THIN
        out.append(Line(left, top + r, left + w, top + r, weight))
    for c in range(1, w):
        weight = drawing.MEDIUM if c % BLOCK == 0 else drawing.THIN
        out.append(Line(left + c, top, left + c, top + h, weight))
    return out


def _guides(left: int, top: int, w: int, h: int) -> list[Line]:
    """Faint lines carrying the grid's rows and columns across the clue margins, so each
    clue is read against its line."""
    rows = [Line(0, top + r, left, top + r, drawing.THIN, drawing.FAINT) for r in range(h + 1)]
    cols = [Line(left + c, 0, left + c, top, drawing.THIN, drawing.FAINT) for c in range(w + 1)]
    return rows + cols


def _number(number: int, x: float, y: float) -> Text:
    """One clue number centred in its clue cell (long numbers smaller, to fit it)."""
    digits = str(number)
    size = CLUE_SIZE if len(digits) <= 2 else CLUE_SIZE * 2.2 / len(digits)
    return Text(x, y, digits, size, Anchor.MIDDLE)
