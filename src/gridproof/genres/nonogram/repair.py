"""Repairing a Nonogram by hand: one pixel of the picture flipped, or one clue reworded.

Against a rival, flipping a pixel where the kept picture and the rival differ (or next to
one) rewrites the clues of its row and column from the new picture: the kept picture stays
a solution by construction, and the rival rarely fits the new clues. Without a solution
there is no picture to flip: the clues of the lines through the cells the contradiction
names are reworded without changing how many cells they shade (the row and column totals
must still agree): two neighbouring numbers swapped, merged into one, or one number split
in two.
"""

from __future__ import annotations

from collections.abc import Iterator

from gridproof.core.errors import CodeError
from gridproof.core.grid import Geometry, bits, cell_name
from gridproof.core.repair import Edit
from gridproof.genres.nonogram.model import (
    Clue,
    Nonogram,
    clue_text,
    clues_of,
    line_name,
    make_puzzle,
)


def edits(
    puzzle: Nonogram, keep: int | None, rival: int | None, focus: int
) -> Iterator[Edit[Nonogram]]:
    """Pixel flips against a rival (the differing cells first, then their neighbours);
    clue rewordings without a solution."""
    w, h = puzzle.width, puzzle.height
    if keep is None or rival is None:
        yield from _rewordings(puzzle, focus or (1 << (w * h)) - 1)
        return
    geo = Geometry(w, h)
    differ = keep ^ rival
    for cells in (differ, geo.spread(differ) & ~differ):
        for cell in bits(cells):
            picture = keep ^ 1 << cell
            verb = "shade" if picture >> cell & 1 else "clear"
            text = f"{verb} {cell_name(cell, w)}"
            yield Edit(text, clues_of(w, h, picture), picture, (cell,))


def _rewordings(puzzle: Nonogram, focus: int) -> Iterator[Edit[Nonogram]]:
    w, h = puzzle.width, puzzle.height
    lines = sorted({cell // w for cell in bits(focus)} | {h + cell % w for cell in bits(focus)})
    for index in lines:
        clue = puzzle.lines[index]
        cells = _line_cells(index, w, h)
        for new in _reworded(clue):
            rows, cols = list(puzzle.rows), list(puzzle.cols)
            if index < h:
                rows[index] = new
            else:
                cols[index - h] = new
            try:
                board = make_puzzle(rows, cols)
            except CodeError:
                continue  # the new clue does not fit its line
            text = f"{line_name(index, h)}: clue {clue_text(clue)} → {clue_text(new)}"
            yield Edit(text, board, None, cells)


def _reworded(clue: Clue) -> Iterator[Clue]:
    """Every clue one rewording from `clue` that shades as many cells."""
    seen = {clue}
    for i in range(len(clue) - 1):
        swapped = (*clue[:i], clue[i + 1], clue[i], *clue[i + 2 :])
        merged = (*clue[:i], clue[i] + clue[i + 1], *clue[i + 2 :])
        for new in (swapped, merged):
            if new not in seen:
                seen.add(new)
                yield new
    for i, value in enumerate(clue):
        for first in range(1, value):
            split = (*clue[:i], first, value - first, *clue[i + 1 :])
            if split not in seen:
                seen.add(split)
                yield split


def _line_cells(index: int, width: int, height: int) -> tuple[int, ...]:
    if index < height:
        return tuple(range(index * width, (index + 1) * width))
    col = index - height
    return tuple(r * width + col for r in range(height))
