"""Norinori as a text picture: the region borders and the shaded (`#`) and empty (`.`)
cells, undecided cells blank."""

from __future__ import annotations

from gridproof.core.textgrid import mark, region_text
from gridproof.genres.norinori.model import Norinori


def format_text(puzzle: Norinori, shaded: int, empty: int) -> list[str]:
    """The picture of `puzzle` with the decided cells `shaded` and `empty`."""
    return region_text(
        puzzle.width, puzzle.height, puzzle.regions, lambda cell: f" {mark(cell, shaded, empty)} "
    )
