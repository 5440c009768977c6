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
from itertools import islice

from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError
from gridproof.core.grid import bits, cell_name, geometry
from gridproof.core.outcome import Verdict
from gridproof.core.repair import Edit, Spare
from gridproof.genres.nonogram.model import (
    Clue,
    Nonogram,
    clue_text,
    clues_of,
    line_name,
    make_puzzle,
)
from gridproof.genres.nonogram.solve import count


def edits(
    puzzle: Nonogram, keep: int | None, rival: int | None, focus: int
) -> Iterator[Edit[Nonogram]]:
    """Pixel flips against a rival (the differing cells first, then their neighbours, then
    every other cell);
    clue rewordings without a solution."""
    w, h = puzzle.width, puzzle.height
    if keep is None or rival is None:
        yield from _rewordings(puzzle, focus or (1 << (w * h)) - 1)
        return
    geo = geometry(w, h)
    differ = keep ^ rival
    near = geo.spread(differ) & ~differ
    for cells in (differ, near, geo.full & ~differ & ~near):
        yield from _flips(w, h, keep, cells)


def vocabulary(puzzle: Nonogram, keep: int) -> Iterator[Edit[Nonogram]]:
    """Every single pixel flip of the picture `keep` (a Nonogram's whole vocabulary of
    single edits once it has a picture: its clues are read off it)."""
    yield from _flips(puzzle.width, puzzle.height, keep, (1 << (puzzle.width * puzzle.height)) - 1)


def _flips(w: int, h: int, keep: int, cells: int) -> Iterator[Edit[Nonogram]]:
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


MAX_ALTERNATIVES = 256
"""`spares` decides a line only when at most this many clues could stand in its place."""


def spares(puzzle: Nonogram, solution: int, deadline: Deadline, work: int) -> Iterator[Spare]:
    """The clues a setter could hide and keep the board unique.

    The model holds no unknown clue (every line has a list of numbers, an empty list being
    an empty line), so a hidden clue is decided without one: any other picture that fits
    the other clues gives the hidden line a clue shading as many cells (the row and column
    totals agree), so the line's clue can be hidden exactly when every other such clue
    leaves the board without a solution. A line with more than `MAX_ALTERNATIVES` such
    clues is not decided (and not listed)."""
    w, h = puzzle.width, puzzle.height
    for index, clue in enumerate(puzzle.lines):
        if deadline.expired():
            return
        length = w if index < h else h
        alternatives = list(islice(_clues_summing(sum(clue), length), MAX_ALTERNATIVES + 1))
        if len(alternatives) > MAX_ALTERNATIVES:
            continue
        if all(
            _unsolvable(puzzle, index, other, deadline, work)
            for other in alternatives
            if other != clue
        ):
            text = f"the clue of {line_name(index, h)} ({clue_text(clue) or 'empty'})"
            yield Spare(text, _line_cells(index, w, h))


def _unsolvable(puzzle: Nonogram, index: int, clue: Clue, deadline: Deadline, work: int) -> bool:
    rows, cols = list(puzzle.rows), list(puzzle.cols)
    if index < puzzle.height:
        rows[index] = clue
    else:
        cols[index - puzzle.height] = clue
    outcome = count(make_puzzle(rows, cols), 2, deadline.within(work=work))
    return outcome.verdict is Verdict.NONE


def _clues_summing(total: int, length: int) -> Iterator[Clue]:
    """Every clue of a line of `length` cells that shades `total` of them."""
    if total == 0:
        yield ()
        return

    def runs(left: int, room: int) -> Iterator[Clue]:
        for first in range(1, min(left, room) + 1):
            if first == left:
                yield (first,)
            elif room - first - 1 >= left - first:
                for rest in runs(left - first, room - first - 1):
                    yield (first, *rest)

    yield from runs(total, length)
