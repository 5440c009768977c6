"""Nondango as a text picture: the region borders, each circle as `( )` while undecided,
`(#)` black and `(.)` white; a cell without a circle is blank (or ` # ` if painted, which
the rules forbid)."""

from __future__ import annotations

from gridproof.core.textgrid import SHADED, mark, region_text
from gridproof.genres.nondango.model import Nondango


def format_text(puzzle: Nondango, shaded: int, empty: int) -> list[str]:
    """The picture of `puzzle` with the decided circles `shaded` (black) and `empty`."""

    def cell_text(cell: int) -> str:
        if puzzle.circles >> cell & 1:
            return f"({mark(cell, shaded, empty)})"
        return f" {SHADED} " if shaded >> cell & 1 else "   "

    return region_text(puzzle.width, puzzle.height, puzzle.regions, cell_text)
