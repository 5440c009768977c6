"""Star Battle as a text picture: the region borders, stars (`*`) and cells known empty
(`.`), undecided cells blank."""

from __future__ import annotations

from gridproof.core.textgrid import region_text
from gridproof.genres.starbattle.model import StarBattle


def format_text(puzzle: StarBattle, shaded: int, empty: int) -> list[str]:
    """The picture of `puzzle` with the stars `shaded` and the empty cells `empty`."""

    def cell_text(cell: int) -> str:
        if shaded >> cell & 1:
            return " * "
        return " . " if empty >> cell & 1 else "   "

    return region_text(puzzle.width, puzzle.height, puzzle.regions, cell_text)
