"""Lights as a text picture: each digit in its cell, shaded cells `#`, cells known empty
`.`, undecided cells blank; three characters a cell, so a row reads as the board does."""

from __future__ import annotations

from gridproof.core.textgrid import mark
from tests.toygenre.model import Lights


def format_text(puzzle: Lights, shaded: int, empty: int) -> list[str]:
    """The picture of `puzzle` with the shaded cells `shaded` and the empty cells `empty`."""
    w = puzzle.width

    def cell_text(cell: int) -> str:
        digit = puzzle.clues[cell]
        return f"[{digit}]" if digit is not None else f" {mark(cell, shaded, empty)} "

    return ["".join(cell_text(r * w + c) for c in range(w)) for r in range(puzzle.height)]
